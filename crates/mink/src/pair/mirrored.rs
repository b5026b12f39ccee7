//! A mirrored pair: the routine written for `(B, A)`, run on `(A, B)`.

use super::{PairRoutine, Side};
use crate::cast::{CastSpec, ShapeCast};
use crate::contact::{Manifold, Settings};
use crate::query::{Method, Overlap, Proximity};
use crate::PairVisitor;
use mink_gjk::GjkCache;
use mink_support::{HalfSpace, Real, Support};

/// The routine `T` written for `(B, A)`, run on `(A, B)`: the arguments
/// swapped and every answer mirrored (normals flipped, witnesses
/// exchanged), for every query kind.
pub(crate) struct Mirrored<T>(pub T);

impl<R: Real, A, B, T: PairRoutine<R, B, A>> PairRoutine<R, A, B> for Mirrored<T> {
    const CLOSED_FORM: bool = T::CLOSED_FORM;

    #[inline(always)]
    fn distance(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Proximity<R> {
        self.0.distance(b, sb, a, sa, m).mirrored()
    }

    #[inline(always)]
    fn penetration(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Proximity<R> {
        self.0.penetration(b, sb, a, sa, m).mirrored()
    }

    #[inline(always)]
    fn intersect(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Overlap {
        self.0.intersect(b, sb, a, sa, m)
    }

    #[inline(always)]
    fn manifold(
        &self,
        a: &A,
        sa: &Side<R>,
        b: &B,
        sb: &Side<R>,
        params: &Settings<R>,
        cache: Option<&mut GjkCache<R>>,
    ) -> Manifold<R> {
        self.0
            .manifold(b, sb, a, sa, &params.mirrored(), cache)
            .mirrored()
    }

    #[inline(always)]
    fn cast(&self, a: &A, b: &B, spec: &CastSpec<R>) -> ShapeCast<R> {
        self.0.cast(b, a, &spec.mirrored()).mirrored()
    }

    #[inline(always)]
    fn visit<V: PairVisitor<R>>(&self, a: &A, b: &B, visitor: V) -> V::Output {
        self.0.visit(b, a, MirroredVisitor(visitor))
    }
}

/// The user's visitor seen by a routine written for the swapped pair: it
/// swaps the shapes back, so the visitor sees `(A, B)` as the user passed
/// them.
struct MirroredVisitor<V>(V);

impl<R: Real, V: PairVisitor<R>> PairVisitor<R> for MirroredVisitor<V> {
    type Output = V::Output;

    #[inline(always)]
    fn convex<A: Support<R>, B: Support<R>>(self, a: &A, b: &B) -> V::Output {
        self.0.convex(b, a)
    }

    #[inline(always)]
    fn half_space<S: Support<R>>(
        self,
        plane: &HalfSpace<R>,
        other: &S,
        plane_is_a: bool,
    ) -> V::Output {
        self.0.half_space(plane, other, !plane_is_a)
    }

    #[inline(always)]
    fn half_spaces(self, a: &HalfSpace<R>, b: &HalfSpace<R>) -> V::Output {
        self.0.half_spaces(b, a)
    }
}
