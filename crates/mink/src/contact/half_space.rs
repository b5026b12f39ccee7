//! A half-space against any convex shape: the shape's support set along
//! the plane's inward normal is the feature that touches (a box's face,
//! a capsule's segment, a cylinder's rim polygon, a hull's face, a
//! sphere's point), and every point of it is a contact with its own
//! depth, exact for flat and for rounded shapes (the core point pushed by
//! the shape's inflation).

use super::features::{curved, size_of, DISTINCT_FRACTION, FEATURE_SLOP_FRACTION};
use super::perturb::PERTURBATION_ANGLE;
use super::reduce::Candidates;
use super::{ContactPoint, Manifold, Patch, Settings};
use mink_support::{HalfSpace, Iso3, Mat3, Real, Support, SupportSet, Vec3};

/// The manifold of half-space `plane` at `plane_pose` (inflated by
/// `plane_margin`) and `shape` at `pose` (inflated by `margin_s` on top of
/// its own inflation); `plane_is_a` says which of the pair the plane is,
/// so the normal points from A to B.
pub(crate) fn half_space_manifold<R: Real, S: Support<R>>(
    plane: &HalfSpace<R>,
    plane_pose: &Iso3<R>,
    plane_margin: R,
    shape: &S,
    pose: &Iso3<R>,
    margin_s: R,
    plane_is_a: bool,
    params: &Settings<R>,
) -> Manifold<R> {
    let mut out = Manifold::new();
    let Some(world) = plane.transformed(plane_pose) else {
        return out;
    };
    let Some(deepest) = world.deepest_point(shape, pose) else {
        return out;
    };
    // Gap of the two inflated surfaces at the deepest point.
    let gap = deepest.distance - plane_margin - margin_s;
    if !(gap <= params.margin) {
        return out;
    }
    let n = world.normal();
    let normal = if plane_is_a { n } else { -n };
    let inflation = shape.inflation() + margin_s;
    // The contact of a core point `c` (world): the shape's surface point
    // below it, the plane's surface point facing it, and their midpoint.
    let contact = |c: Vec3<R>| {
        let on_shape = c - n * inflation;
        let depth = plane_margin - world.signed_distance(on_shape);
        ContactPoint {
            position: on_shape + n * (depth * R::HALF),
            normal,
            depth,
        }
    };
    let first = contact(deepest.point + n * shape.inflation());
    if params.patch == Patch::Single || S::STRICTLY_CONVEX {
        out.push(first);
        return out;
    }
    let scale = size_of(shape, margin_s);
    let distinct = R::lit(DISTINCT_FRACTION) * scale;
    let mut extra = Candidates::new();
    let keep = |p: ContactPoint<R>, extra: &mut Candidates<R>| {
        if p.depth >= -params.margin {
            extra.push(p, distinct);
        }
    };
    let slop = R::lit(FEATURE_SLOP_FRACTION) * scale;
    if params.patch != Patch::Perturb {
        let tol = (-gap).max_of(R::ZERO) + params.margin + slop;
        let mut set = SupportSet::new();
        // Past its capacity the set keeps points that are still touching.
        let _ = shape.support_set(pose.inverse_transform_vector(-n), tol, &mut set);
        for c in set.points() {
            keep(contact(pose.transform_point(*c)), &mut extra);
        }
    }
    if params.patch == Patch::Perturb || (extra.len() <= 1 && curved::<R, S>()) {
        // Turn the shape about its origin; its new deepest point, turned
        // back, is a point of its surface in the unperturbed pose.
        let t1 = n.any_orthonormal();
        let t2 = n.cross(t1);
        for axis in [t1, -t1, t2, -t2] {
            let turn = Mat3::from_axis_angle(axis, R::lit(PERTURBATION_ANGLE));
            let turned = Iso3::from_parts(turn.mul_mat(&pose.rotation), pose.translation);
            let Some(d) = world.deepest_point(shape, &turned) else {
                continue;
            };
            let core = d.point + n * shape.inflation();
            let back = pose.translation + turn.transpose_mul(core - pose.translation);
            keep(contact(back), &mut extra);
        }
    }
    let cands = Candidates::with_first(first, &extra, slop, distinct);
    cands.reduce(normal)
}
