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
use super::{ContactPoint, Manifold};
use mink_support::{Cuboid, HalfSpace, Iso3, Real};

/// The manifold of half-space `plane` at `plane_pose` (inflated by
/// `plane_margin`, meters) and box `cuboid` at `pose` (no margin of its
/// own) within `margin` meters; `plane_is_a` says which of the pair the
/// plane is, so that the normal points from A to B. Poses finite.
pub(crate) fn box_half_space_manifold<R: Real>(
    plane: &HalfSpace<R>,
    plane_pose: &Iso3<R>,
    plane_margin: R,
    cuboid: &Cuboid<R>,
    pose: &Iso3<R>,
    plane_is_a: bool,
    margin: R,
) -> Manifold<R> {
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
    let normal = if plane_is_a { n } else { -n };
    let contact = |i: usize| {
        let depth = plane_margin - heights[i];
        ContactPoint {
            position: corners[i] + n * (depth * R::HALF),
            normal,
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
    extra.reduce_with_first(contact(deepest), round_off, distinct, normal)
}
