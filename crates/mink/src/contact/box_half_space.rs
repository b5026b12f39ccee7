//! A box against a half-space, in closed form: the box's corners are its
//! whole support set, so the manifold is the corners within reach of the
//! plane, each with its own depth, reduced to four. The general half-space
//! routine ([`half_space`](super::half_space)) gives the same points
//! through the box's support function and support set; this one computes
//! the eight corners once and skips that machinery. It serves a box with
//! no margin of its own (a rounded box's surface is not its corners).

use super::features::{DISTINCT_FRACTION, FEATURE_SLOP_FRACTION};
use super::half_space::ROUND_OFF_ULPS;
use super::reduce::Candidates;
use super::{half_space_manifold, ContactPoint, Manifold, Patch, Settings};
use crate::cast::{plane_cast, CastSpec, ShapeCast};
use crate::pair::{queries_of, PairRoutine, Side};
use crate::query::half_space::PlaneConvex;
use crate::PairVisitor;
use mink_gjk::GjkCache;
use mink_support::{Cuboid, HalfSpace, Iso3, Real};

/// The routine of a half-space (A) and a box (B): the half-space
/// routine's answers ([`PlaneConvex`]), and the box's corners in closed
/// form for the manifold of a box without a margin of its own, on
/// [`Patch::Auto`].
pub(crate) struct PlaneBox;

impl<R: Real> PairRoutine<R, HalfSpace<R>, Cuboid<R>> for PlaneBox {
    const CLOSED_FORM: bool = true;

    queries_of!(PlaneConvex, HalfSpace<R>, Cuboid<R>);

    fn manifold(
        &self,
        a: &HalfSpace<R>,
        sa: &Side<R>,
        b: &Cuboid<R>,
        sb: &Side<R>,
        params: &Settings<R>,
        _: Option<&mut GjkCache<R>>,
    ) -> Manifold<R> {
        if params.patch == Patch::Auto && sb.margin == R::ZERO {
            box_half_space_manifold(a, sa, b, &sb.pose, params.margin)
        } else {
            half_space_manifold(a, sa, b, sb, params)
        }
    }

    #[inline]
    fn cast(&self, a: &HalfSpace<R>, b: &Cuboid<R>, spec: &CastSpec<R>) -> ShapeCast<R> {
        plane_cast(self, a, b, spec)
    }

    #[inline]
    fn visit<V: PairVisitor<R>>(&self, a: &HalfSpace<R>, b: &Cuboid<R>, visitor: V) -> V::Output {
        visitor.half_space(a, b, true)
    }
}

/// The manifold of half-space `plane` (A, at `sp`'s pose, inflated by its
/// margin, meters) and box `cuboid` (B, at `pose`, no margin of its own)
/// within `margin` meters, normal from the plane to the box. Poses finite.
fn box_half_space_manifold<R: Real>(
    plane: &HalfSpace<R>,
    sp: &Side<R>,
    cuboid: &Cuboid<R>,
    pose: &Iso3<R>,
    margin: R,
) -> Manifold<R> {
    let (plane_pose, plane_margin) = (&sp.pose, sp.margin);
    let Some(world) = plane.transformed(plane_pose) else {
        return Manifold::new();
    };
    let n = world.normal();
    let corners = cuboid.corners().map(|c| pose.transform_point(c));
    // Heights above the plane: the deepest corner is the one of least
    // height.
    let heights = corners.map(|c| world.signed_distance(c));
    let mut deepest = 0;
    for (i, &h) in heights.iter().enumerate() {
        if h < heights[deepest] {
            deepest = i;
        }
    }
    let low = heights[deepest];
    let gap = low - plane_margin;
    if !(gap <= margin) {
        return Manifold::new();
    }
    let contact = |i: usize| {
        let depth = plane_margin - heights[i];
        ContactPoint {
            position: corners[i] + n * (depth * R::HALF),
            normal: n,
            depth,
        }
    };
    let scale = cuboid.half_extents().norm();
    let distinct = R::lit(DISTINCT_FRACTION) * scale;
    // The support set's reach below the deepest corner, and the corners'
    // order, as the general routine takes them.
    let tol = (-gap).max_of(R::ZERO) + margin + R::lit(FEATURE_SLOP_FRACTION) * scale;
    let mut extra = Candidates::new();
    for i in Cuboid::<R>::FACE_WALK {
        let p = contact(i);
        if heights[i] - low <= tol && p.depth >= -margin {
            extra.push(p, distinct);
        }
    }
    let reach = scale + pose.translation.norm() + world.offset().abs();
    let round_off = R::lit(ROUND_OFF_ULPS) * R::EPSILON * reach;
    extra.reduce_with_first(contact(deepest), round_off, distinct, n)
}
