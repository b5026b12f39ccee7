//! The closest points of two line segments, in closed form.

use crate::{Real, Vec3};

/// Below `PARALLEL_ULPS · ε · |d1|² |d2|²`, `|d1 × d2|²` counts as zero: the
/// segments are parallel and the closest point on the first is taken from
/// its start (any pair of the overlap is closest then). 16 ulps of the
/// product, for `f32` and `f64` alike.
const PARALLEL_ULPS: f64 = 16.0;

/// The closest points of the segment `p0 p1` and the segment `q0 q1`:
/// `(on_p, on_q)` with `on_p` on the first, `on_q` on the second, and
/// `|on_p - on_q|` the distance between the two segments.
///
/// All four ends and both results are in the same frame (any frame the
/// caller chooses), meters. Either segment may have zero length (a point);
/// both may. When the segments are parallel and overlap, every pair of the
/// overlap is closest and one of them is returned (the one through `p0`
/// when `p0` projects onto the second segment); when they cross, both
/// points are the crossing point (up to rounding).
///
/// Method: `|p(s) - q(t)|²` is minimized over `s, t ∈ [0, 1]`
/// (`p(s) = p0 + s (p1 - p0)`, `q(t) = q0 + t (q1 - q0)`): the unconstrained
/// minimum's `s` clamped to `[0, 1]`, `t` recomputed from it, and `s`
/// recomputed when `t` had to be clamped. About 40 multiplications and at
/// most three divisions, no square root.
///
/// Accuracy: exact up to rounding, except for nearly parallel segments.
/// Below an angle of about `4 √ε` between them (1.4e-3 rad in `f32`,
/// 6e-8 rad in `f64`) they count as parallel, and the pair returned may be
/// farther apart than the closest one by up to that angle times the longer
/// segment's length (in `f32`, up to 1.4 mm for segments a metre long).
///
/// Never panics. Non-finite ends (NaN, infinite) or ends so large that
/// their squared lengths overflow give unspecified points, possibly
/// non-finite: check the inputs, or the outputs with
/// [`Vec3::is_finite`], where that can happen.
#[inline]
pub fn closest_segment_points<R: Real>(
    p0: Vec3<R>,
    p1: Vec3<R>,
    q0: Vec3<R>,
    q1: Vec3<R>,
) -> (Vec3<R>, Vec3<R>) {
    let clamp01 = |x: R| x.max_of(R::ZERO).min_of(R::ONE);
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    let r = p0 - q0;
    let a = d1.dot(d1);
    let e = d2.dot(d2);
    let f = d2.dot(r);
    let (s, t) = if a <= R::ZERO && e <= R::ZERO {
        (R::ZERO, R::ZERO)
    } else if a <= R::ZERO {
        (R::ZERO, clamp01(f / e))
    } else {
        let c = d1.dot(r);
        if e <= R::ZERO {
            (clamp01(-c / a), R::ZERO)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let s = if denom > R::EPSILON * R::lit(PARALLEL_ULPS) * a * e {
                clamp01((b * f - c * e) / denom)
            } else {
                R::ZERO
            };
            let t = (b * s + f) / e;
            if t < R::ZERO {
                (clamp01(-c / a), R::ZERO)
            } else if t > R::ONE {
                (clamp01((b - c) / a), R::ONE)
            } else {
                (s, t)
            }
        }
    };
    (p0 + d1 * s, q0 + d2 * t)
}

/// The unit normal, from core A towards core B, of two segments `a` and
/// `b` (ends, any common frame, meters; a point is a segment of zero
/// length) whose closest points are `ca` (on A) and `cb` (on B), as
/// [`closest_segment_points`] gives them: the direction from `ca` to `cb`.
///
/// When the cores touch or cross (`ca` and `cb` within 64 ulps of the
/// largest end coordinate of each other, the rounding of the closest-point
/// routine), that offset has no direction of its own: the normal is then
/// perpendicular to both cores (to the one with a length when the other is
/// a point), turned towards B's centre; for two coincident points it is
/// the direction from A's centre to B's, or `+x` when those coincide too.
/// With the cores swept by radii (capsules, spheres), the depth along it
/// is the sum of the radii.
///
/// Non-finite inputs give an unspecified (possibly non-finite) vector;
/// never panics.
#[inline]
pub fn core_normal<R: Real>(
    ca: Vec3<R>,
    cb: Vec3<R>,
    a: (Vec3<R>, Vec3<R>),
    b: (Vec3<R>, Vec3<R>),
) -> Vec3<R> {
    let delta = cb - ca;
    let size =
        a.0.abs()
            .max(a.1.abs())
            .max(b.0.abs())
            .max(b.1.abs())
            .max_element();
    let noise = R::lit(TOUCH_ULPS) * R::EPSILON * size;
    match delta.try_normalize() {
        Some(n) if delta.max_abs() > noise => n,
        _ => touching_normal(a.1 - a.0, b.1 - b.0, (b.0 + b.1 - a.0 - a.1) * R::HALF),
    }
}

/// Closest core points nearer than `TOUCH_ULPS · ε · s` (`s` the largest
/// coordinate of the four core ends, meters) count as touching: their
/// offset is the rounding noise of computing them, not a direction. 64
/// ulps covers the dozen operations of the closest-point routine with a
/// margin, in `f32` and `f64` alike.
const TOUCH_ULPS: f64 = 64.0;

/// The normal of two cores that touch (closest points equal):
/// unit, perpendicular to both core directions `d1` and `d2` when they are
/// not parallel, else to the one with a length, else along `towards_b`
/// (A's centre to B's), else `+x`; turned so that it does not point away
/// from `towards_b`. Rare, so written for size: one normalization in a
/// loop over the candidates.
#[cold]
#[inline(never)]
fn touching_normal<R: Real>(d1: Vec3<R>, d2: Vec3<R>, towards_b: Vec3<R>) -> Vec3<R> {
    // A vector perpendicular to `d`, zero only when `d` is: `d` crossed
    // with the axis it is least aligned with.
    let perpendicular = |d: Vec3<R>| {
        let a = d.abs();
        let axis = if a.x <= a.y && a.x <= a.z {
            Vec3::X
        } else if a.y <= a.z {
            Vec3::Y
        } else {
            Vec3::Z
        };
        d.cross(axis)
    };
    let candidates = [
        d1.cross(d2),
        perpendicular(d1),
        perpendicular(d2),
        towards_b,
    ];
    let n = candidates
        .iter()
        .find_map(|c| c.try_normalize())
        .unwrap_or(Vec3::X);
    if n.dot(towards_b) < R::ZERO {
        -n
    } else {
        n
    }
}
