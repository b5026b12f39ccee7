//! What the pair matrix calls once it knows both concrete shape types.

use mink_support::{Real, Support};

/// A query over a pair of shapes, written once, generically, and run by
/// [`dispatch_pair`](crate::dispatch_pair) on the two concrete types.
///
/// `convex` is monomorphized for every pair of the shape list, so inside it
/// every support call is a direct, inlinable call.
pub trait PairVisitor<R: Real> {
    /// What the query returns.
    type Output;

    /// Runs the query on two convex shapes of known types.
    fn convex<A: Support<R>, B: Support<R>>(self, a: &A, b: &B) -> Self::Output;
}
