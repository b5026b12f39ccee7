//! A half-space against any convex shape: the shape's support set along
//! the plane's inward normal is the feature that touches (a box's face,
//! a capsule's segment, a cylinder's rim polygon, a hull's face, a
//! sphere's point), and every point of it is a contact with its own
//! depth, exact for flat and for rounded shapes (the core point pushed by
//! the shape's inflation to the surface over it: along the plane's
//! inward normal at the extreme point, along the closest direction of its
//! normal cone elsewhere, see [`rounded`](super::rounded)).

use super::features::{curved, size_of, DISTINCT_FRACTION, FEATURE_SLOP_FRACTION};
use super::perturb::PERTURBATION_ANGLE;
use super::reduce::Candidates;
use super::rounded::surface_direction;
use super::{ContactPoint, Manifold, Patch, Settings};
use crate::pair::Side;
use mink_support::{HalfSpace, Iso3, Mat3, Real, Support, SupportSet, Vec3};

/// Round-off of a half-space contact's depth, in units of `R::EPSILON`
/// times the size and distance from the origin of the pair (meters): the
/// depths of one support point computed by two paths differ by less.
pub(crate) const ROUND_OFF_ULPS: f64 = 64.0;

/// The manifold of half-space `plane` (A, at `sp`'s pose, inflated by its
/// margin) and `shape` (B, at `ss`'s pose, inflated by its margin on top
/// of its own inflation), normal from the plane to the shape.
pub(crate) fn half_space_manifold<R: Real, S: Support<R>>(
    plane: &HalfSpace<R>,
    sp: &Side<R>,
    shape: &S,
    ss: &Side<R>,
    params: &Settings<R>,
) -> Manifold<R> {
    let (plane_pose, plane_margin) = (&sp.pose, sp.margin);
    let (pose, margin_s) = (&ss.pose, ss.margin);
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
    let inflation = shape.inflation() + margin_s;
    // The contact of a core point `c` (world) whose surface point lies
    // along the unit `m` (world, a direction of `c`'s normal cone): the
    // shape's surface point, the plane's surface point facing it, and
    // their midpoint.
    let contact = |c: Vec3<R>, m: Vec3<R>| {
        let on_shape = c + m * inflation;
        let depth = plane_margin - world.signed_distance(on_shape);
        ContactPoint {
            position: on_shape + n * (depth * R::HALF),
            normal: n,
            depth,
        }
    };
    let first = contact(deepest.point + n * shape.inflation(), -n);
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
        let down = pose.inverse_transform_vector(-n);
        let _ = shape.support_set(down, tol, &mut set);
        let exact = R::lit(ROUND_OFF_ULPS) * R::EPSILON * scale;
        for &c in set.points() {
            // A rounded core point's surface faces `-n` only at the extreme.
            let (c, m) = if inflation > R::ZERO {
                match surface_direction(set.points(), c, down, distinct) {
                    Some(m) => (on_normal_cone(shape, c, m, exact), m),
                    None => continue,
                }
            } else {
                (c, down)
            };
            keep(
                contact(pose.transform_point(c), pose.transform_vector(m)),
                &mut extra,
            );
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
            // The turned shape's surface point lay along `-n`: turned back.
            keep(contact(back, -turn.transpose_mul(n)), &mut extra);
        }
    }
    // `first` is exact (the support point along the plane's normal), so it
    // joins the patch whenever it is deeper than every patch point by more
    // than round-off (a rim polygon's vertices miss a slightly tilted
    // cap's lowest rim point). A support point is a vertex of the touching
    // feature, so it does not crowd the patch (a flat cap's centre, the
    // one exception, is as deep as its rim within round-off).
    let reach = scale + pose.translation.norm() + world.offset().abs();
    let round_off = R::lit(ROUND_OFF_ULPS) * R::EPSILON * reach;
    extra.reduce_with_first(first, round_off, distinct, n)
}

/// A core point of `shape` (local frame) whose inflated surface lies
/// along the unit `m` (local): `c` when it is the core's support point
/// along `m` within `exact` meters, else the support point itself.
/// [`surface_direction`] knows the normal cone of `c` only from the
/// support set's points; on a curved shape those are a polygon inscribed
/// in its rim (a cylinder's or a cone's [`CAP_RIM_POINTS`]-gon), whose
/// normal cone at a vertex is wider than the rim's by up to half the
/// polygon's angle, so `c + r m` could lie up to `r (1 - cos(π / 12))`
/// inside the shape. The support point along `m` is always where the
/// surface faces `m`.
///
/// [`CAP_RIM_POINTS`]: mink_support::CAP_RIM_POINTS
fn on_normal_cone<R: Real, S: Support<R>>(shape: &S, c: Vec3<R>, m: Vec3<R>, exact: R) -> Vec3<R> {
    let s = shape.support(m, &mut S::Hint::default());
    if m.dot(s - c) > exact {
        s
    } else {
        c
    }
}
