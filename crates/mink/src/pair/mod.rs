//! The pair table: the one place a pair of [`Shape`](crate::Shape)s is
//! resolved to its concrete types and to the routine that answers it.
//!
//! Every front door goes through it once per call: [`crate::distance`],
//! [`crate::penetration`], [`crate::intersect`],
//! [`crate::contact_manifold`] (and so [`crate::collide`] and the scene),
//! the deep-penetration fallback ([`crate::collider::deep`]) and the
//! user's own queries ([`crate::dispatch_pair`]). The two-level `match`
//! of [`table`] finds the variants, the table (`pair_algorithm!`) names
//! the routine for them, and the query runs on the concrete types, so the
//! code after the match is monomorphized per pair with no further
//! dispatch.
//!
//! - **A routine** ([`PairRoutine`]) answers every query kind for one
//!   pair of shape types: distance, penetration, intersection, contact
//!   manifold, shape cast, and a user's visitor. Closed forms live beside their
//!   query (`query::analytic`, `query::half_space`,
//!   `contact::box_box`, `contact::box_half_space`); a pair without its
//!   own routine gets `query::generic`'s (GJK, MPR, GJK+EPA, the
//!   support-set manifold).
//! - **A mirrored pair** is the routine written for `(B, A)` wrapped in
//!   [`Mirrored`]: the arguments swapped and each answer mirrored, for
//!   every query kind at once. No routine takes an "is A the plane"
//!   flag.
//! - **A new shape** is one line of `shape_list!` (its variant, type and
//!   query-format name); it gets the generic routine against everything
//!   until the table names a closed form for it.
//! - **A new query kind** is one method of [`PairRoutine`] (with the
//!   generic answer in `query::generic` and the mirroring in
//!   [`Mirrored`]) and one query struct in [`table`], as the shape cast
//!   ([`PairRoutine::cast`], `crate::cast`) was added.

mod mirrored;
pub(crate) mod table;

pub(crate) use mirrored::Mirrored;

use crate::cast::{CastSpec, ShapeCast};
use crate::contact::{Manifold, Settings};
use crate::query::{Method, Overlap, Proximity};
use crate::PairVisitor;
use mink_gjk::GjkCache;
use mink_support::{Iso3, Real};

/// Where a shape is and how much it is inflated: what a pair routine needs
/// besides the concrete shape. Validated once at the front door (finite
/// pose, finite margin `>= 0`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Side<R> {
    /// Shape frame to world.
    pub pose: Iso3<R>,
    /// Swept-sphere margin, meters.
    pub margin: R,
}

impl<R: Real> Side<R> {
    /// `true` when the pose is finite and the margin finite and `>= 0`.
    pub fn valid(&self) -> bool {
        self.pose.is_finite() && self.margin.finite() && self.margin >= R::ZERO
    }
}

/// Writes a routine's distance, penetration and intersection for shapes
/// of types `$a`, `$b` as those of routine `$to` (a routine that only
/// adds a manifold of its own). Expands inside an `impl PairRoutine`.
macro_rules! queries_of {
    ($to:expr, $a:ty, $b:ty) => {
        #[inline]
        fn distance(
            &self,
            a: &$a,
            sa: &$crate::pair::Side<R>,
            b: &$b,
            sb: &$crate::pair::Side<R>,
            m: $crate::query::Method,
        ) -> $crate::query::Proximity<R> {
            $to.distance(a, sa, b, sb, m)
        }

        #[inline]
        fn penetration(
            &self,
            a: &$a,
            sa: &$crate::pair::Side<R>,
            b: &$b,
            sb: &$crate::pair::Side<R>,
            m: $crate::query::Method,
        ) -> $crate::query::Proximity<R> {
            $to.penetration(a, sa, b, sb, m)
        }

        #[inline]
        fn intersect(
            &self,
            a: &$a,
            sa: &$crate::pair::Side<R>,
            b: &$b,
            sb: &$crate::pair::Side<R>,
            m: $crate::query::Method,
        ) -> $crate::query::Overlap {
            $to.intersect(a, sa, b, sb, m)
        }
    };
}
pub(crate) use queries_of;

/// The routine that answers every query kind for shapes of types `A` and
/// `B` (A's side `sa`, B's `sb`; answers in the world frame, normal from A
/// to B). Sides are valid when called.
pub(crate) trait PairRoutine<R: Real, A, B> {
    /// `true` when the routine's penetration and manifold are closed forms
    /// (box–box, half-spaces), which the deep-penetration fallback never
    /// second-guesses.
    const CLOSED_FORM: bool = false;

    /// Signed distance (see [`crate::query::distance`]).
    fn distance(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Proximity<R>;

    /// Penetration, the routine's answer alone, without the certification
    /// of [`crate::query::penetration`] (see [`table::certified`]).
    fn penetration(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Proximity<R>;

    /// Overlap (see [`crate::query::intersect`]).
    fn intersect(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Overlap;

    /// Contact manifold (see [`crate::contact::contact_manifold`]), warm
    /// started from `cache` when the caller keeps one for this pair.
    fn manifold(
        &self,
        a: &A,
        sa: &Side<R>,
        b: &B,
        sb: &Side<R>,
        params: &Settings<R>,
        cache: Option<&mut GjkCache<R>>,
    ) -> Manifold<R>;

    /// Shape cast (see [`crate::cast::shape_cast`]): the first time the
    /// shapes, moving as `spec` says, come within its target distance.
    fn cast(&self, a: &A, b: &B, spec: &CastSpec<R>) -> ShapeCast<R>;

    /// Runs the user's `visitor` on the concrete shapes (see
    /// [`crate::dispatch_pair`]).
    fn visit<V: PairVisitor<R>>(&self, a: &A, b: &B, visitor: V) -> V::Output;
}

#[cfg(test)]
mod tests;
