//! Casts with a half-space. Its points are unbounded, so the bound on
//! their speed that the advancement needs is taken over the points that
//! matter: the other shape's. Over the whole motion, every point of B
//! stays within `|c_b - c_p| + |Δv| + r_b` of the plane's frame origin
//! (their start offset, the change of the offset over the motion, B's
//! bounding radius), and B's signed distance from a plane turning at `θ`
//! changes by at most `θ` times that per unit of `t`, besides the
//! translations along the normal and B's own turn: the advancement's bound
//! with that distance as the plane's radius.

use super::convex::distance_at;
use super::CastSpec;
use crate::pair::PairRoutine;
use mink_gjk::{advance, bounding_radius, cast_scale, cast_tolerance, Moving, ShapeCast};
use mink_support::{HalfSpace, Real, Support};

/// The cast of the half-space `plane` (A) and the bounded `b` by
/// `routine`'s distance at each step.
pub(crate) fn plane_cast<R, B, T>(
    routine: &T,
    plane: &HalfSpace<R>,
    b: &B,
    spec: &CastSpec<R>,
) -> ShapeCast<R>
where
    R: Real,
    B: Support<R>,
    T: PairRoutine<R, HalfSpace<R>, B>,
{
    let (motion_a, motion_b) = (spec.motion_a(), spec.motion_b());
    let rb = bounding_radius(b) + spec.b.margin;
    let offset = (motion_b.start.translation - motion_a.start.translation).norm();
    let drift = (motion_b.velocity() - motion_a.velocity()).norm();
    let a_moving = Moving {
        motion: motion_a,
        radius: offset + drift + rb,
    };
    let b_moving = Moving {
        motion: motion_b,
        radius: rb,
    };
    let tolerance = cast_tolerance::<R>() * cast_scale(&a_moving, &b_moving);
    advance(&a_moving, &b_moving, spec.target, tolerance, |pa, pb| {
        distance_at(routine, plane, b, spec, pa, pb)
    })
}

/// Two half-spaces: no meaningful answer, as for their distance.
pub(crate) fn planes_cast<R: Real>() -> ShapeCast<R> {
    ShapeCast::unsupported()
}
