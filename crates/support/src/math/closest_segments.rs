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
