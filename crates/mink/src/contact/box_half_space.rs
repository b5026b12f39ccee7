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

/// The corners in the order of [`Cuboid::support_set`]: each face's four
/// along its boundary.
const CORNER_ORDER: [usize; 8] = [0, 1, 3, 2, 6, 7, 5, 4];

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
    let corners = cuboid.corners();
    // Heights above the plane, world frame: the deepest corner is the one
    // of least height.
    let heights = corners.map(|c| world.signed_distance(pose.transform_point(c)));
    let (deepest, low) =
        heights.iter().enumerate().fold(
            (0, R::INFINITY),
            |(k, m), (i, &h)| {
                if h < m {
                    (i, h)
                } else {
                    (k, m)
                }
            },
        );
    let gap = low - plane_margin;
    if !(gap <= margin) {
        return Manifold::new();
    }
    let normal = if plane_is_a { n } else { -n };
    let contact = |i: usize| {
        let depth = plane_margin - heights[i];
        ContactPoint {
            position: pose.transform_point(corners[i]) + n * (depth * R::HALF),
            normal,
            depth,
        }
    };
    let scale = cuboid.half_extents().norm();
    let distinct = R::lit(DISTINCT_FRACTION) * scale;
    // The support set's reach below the deepest corner, as the general
    // routine takes it.
    let tol = (-gap).max_of(R::ZERO) + margin + R::lit(FEATURE_SLOP_FRACTION) * scale;
    let mut extra = Candidates::new();
    for i in CORNER_ORDER {
        let p = contact(i);
        if heights[i] - low <= tol && p.depth >= -margin {
            extra.push(p, distinct);
        }
    }
    let reach = scale + pose.translation.norm() + world.offset().abs();
    let round_off = R::lit(ROUND_OFF_ULPS) * R::EPSILON * reach;
    extra.reduce_with_first(contact(deepest), round_off, distinct, normal)
}
