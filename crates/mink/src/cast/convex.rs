//! The cast of two bounded convex shapes: conservative advancement on the
//! pair routine's own distance.

use super::CastSpec;
use crate::pair::{PairRoutine, Side};
use crate::query::{Method, Proximity};
use mink_gjk::{
    advance, bounding_radius, cast_scale, cast_tolerance, Distance, GjkStatus, Moving, ShapeCast,
};
use mink_support::{Iso3, Real, Support};

/// The cast of `a` and `b` (bounded, each with its bounding radius about
/// its frame's origin, margin included) by `routine`'s distance at each
/// step ([`Method::Auto`]: a closed form where the pair has one).
pub(crate) fn convex_cast<R, A, B, T>(routine: &T, a: &A, b: &B, spec: &CastSpec<R>) -> ShapeCast<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
    T: PairRoutine<R, A, B>,
{
    let a_moving = Moving {
        motion: spec.motion_a(),
        radius: bounding_radius(a) + spec.a.margin,
    };
    let b_moving = Moving {
        motion: spec.motion_b(),
        radius: bounding_radius(b) + spec.b.margin,
    };
    let tolerance = cast_tolerance::<R>() * cast_scale(&a_moving, &b_moving);
    advance(&a_moving, &b_moving, spec.target, tolerance, |pa, pb| {
        distance_at(routine, a, b, spec, pa, pb)
    })
}

/// `routine`'s distance with A at `pa` and B at `pb` (the spec's margins),
/// in the advancement's terms ([`settled`]).
pub(super) fn distance_at<R, A, B, T>(
    routine: &T,
    a: &A,
    b: &B,
    spec: &CastSpec<R>,
    pa: &Iso3<R>,
    pb: &Iso3<R>,
) -> Distance<R>
where
    R: Real,
    T: PairRoutine<R, A, B>,
{
    let sa = Side {
        pose: *pa,
        margin: spec.a.margin,
    };
    let sb = Side {
        pose: *pb,
        margin: spec.b.margin,
    };
    settled(routine.distance(a, &sa, b, &sb, Method::Auto))
}

/// A distance answer in the advancement's terms: an overlap (distance
/// `< 0`) is `Intersecting`, a finished answer apart or touching is
/// `Converged` (with its witnesses and normal either way), an answer cut
/// short is `IterationLimit` (its distance is GJK's so far, an upper
/// bound), and a failed one `NonFinite`. The advancement never steps on
/// an unfinished distance: it ends there, as the contact when that upper
/// bound is within the target.
fn settled<R: Real>(p: Proximity<R>) -> Distance<R> {
    let status = if !p.status.is_answer() {
        GjkStatus::NonFinite
    } else if p.distance < R::ZERO {
        GjkStatus::Intersecting
    } else if p.status.is_finished() {
        GjkStatus::Converged
    } else {
        GjkStatus::IterationLimit
    };
    Distance {
        distance: p.distance,
        p_a: p.p_a,
        p_b: p.p_b,
        normal: p.normal,
        iterations: p.iterations,
        status,
    }
}
