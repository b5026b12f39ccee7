//! What the pair table runs, for a query of your own, once it knows both
//! concrete shape types.

use mink_support::{HalfSpace, Real, Support};

/// A query over a pair of shapes, written once, generically, and run by
/// [`dispatch_pair`](crate::dispatch_pair) on the two concrete types.
///
/// `convex` is monomorphized for every pair of the shape list, so inside it
/// every support call is a direct, inlinable call. A half-space is not
/// [`Support`] (it is unbounded), so pairs with one have their own methods.
pub trait PairVisitor<R: Real> {
    /// What the query returns.
    type Output;

    /// Runs the query on two convex shapes of known types.
    fn convex<A: Support<R>, B: Support<R>>(self, a: &A, b: &B) -> Self::Output;

    /// Runs the query on a half-space and a convex shape. `plane_is_a` says
    /// whether the half-space was the pair's A (`true`) or its B (`false`):
    /// a visitor that returns a normal must flip it in the second case.
    fn half_space<S: Support<R>>(
        self,
        plane: &HalfSpace<R>,
        other: &S,
        plane_is_a: bool,
    ) -> Self::Output;

    /// Runs the query on two half-spaces (A, then B).
    fn half_spaces(self, a: &HalfSpace<R>, b: &HalfSpace<R>) -> Self::Output;
}
