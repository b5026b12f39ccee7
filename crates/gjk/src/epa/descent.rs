//! Descent on the sphere of directions, for an EPA that stopped short.
//!
//! When EPA's polytope fills up, or its iterations run out, before the gap
//! between its bounds closes, its closest face is only a lower bound on the
//! depth. On curved differences it can be far short: a point at a
//! cylinder's centre sees a ring of equally deep directions, and the
//! polytope fills up going round it (27% short in f32 on a 1.8 m cylinder).
//!
//! The depth is the least support height `h(n) = n · s(n)` over unit
//! directions `n` (`s(n)` the support point of the cores' difference), and
//! every `h(n)` is an upper bound that comes with a separating translation:
//! B moved by `h(n)` along `n` clears A. So the answer is improved by
//! walking `n` downhill from the best direction EPA tried. Each round
//! probes three directions tilted by `t` around `n` (120° apart across it)
//! and one tilted against the least lateral part of the probes' support
//! points: the support point's part across `n` is the slope of `h` there,
//! and the least of the probes' (the point of their hull nearest the axis)
//! is a slope that holds on both sides of a ridge (a cylinder's rim, where
//! the support jumps between the caps' edges). The best of the four is
//! taken when it is lower, else `t` is halved, down to `sqrt` of EPA's
//! tolerance, where `h` is within about that tolerance of a smooth minimum.

use crate::simplex::Simplex;
use mink_support::{MinkowskiDiff, Real, Support, SupportPoint, Vec3};

/// The first tilt, as the tangent of the angle (about 14°).
const FIRST_TILT: f64 = 0.25;

/// Cap on support calls: the tilt halves from [`FIRST_TILT`] to its floor
/// in about 10 rounds (f64) of 4 calls; moves downhill add rounds.
const MAX_SUPPORTS: u32 = 256;

/// The probe directions across `n` in the basis `(u, v)`: 120° apart.
const PROBES: [(f64, f64); 3] = [
    (1.0, 0.0),
    (-0.5, 0.866_025_403_784_438_6),
    (-0.5, -0.866_025_403_784_438_6),
];

/// Where the descent ended: the unit direction `n` (A's frame), the cores'
/// overlap `h` along it, the core witnesses `a` and `b` (blends of probes'
/// support points around `n`, so that they sit mid-patch on a flat or
/// ridged contact, moved apart or together along their offset so that
/// `a - b = h n`); the support calls made.
pub(super) struct Descent<R> {
    pub(super) n: Vec3<R>,
    pub(super) h: R,
    pub(super) a: Vec3<R>,
    pub(super) b: Vec3<R>,
    pub(super) supports: u32,
}

/// A probe: its direction, support point and height.
#[derive(Clone, Copy)]
struct Probe<R> {
    n: Vec3<R>,
    sp: SupportPoint<R>,
    h: R,
}

/// Three probes tilted by `t` around a probe's direction.
struct Ring<R> {
    /// The lowest of the three and the centre.
    lowest: Probe<R>,
    /// The point of the hull of the probes' difference points' parts across
    /// the centre's direction nearest the axis: a slope of the height
    /// there that holds on every side of a ridge.
    least_lateral: Vec3<R>,
    /// The blends of the probes' support points on A and on B with those
    /// weights.
    blend: (Vec3<R>, Vec3<R>),
    /// The probe's difference point minus the centre's, the largest.
    across: Vec3<R>,
}

/// Probes three directions tilted by `t` (tangent of the angle) around
/// `at`'s, 120° apart across it.
fn ring<R, A, B, const I: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    supports: &mut u32,
    at: &Probe<R>,
    t: R,
) -> Ring<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let u = at.n.any_orthonormal();
    let v = at.n.cross(u);
    let mut lowest = *at;
    // The same points twice: carrying A's and B's support points.
    let mut lateral = Simplex::new();
    let mut lateral_b = Simplex::new();
    let mut across = Vec3::ZERO;
    for (c, s) in PROBES {
        let dir = (at.n + (u * R::lit(c) + v * R::lit(s)) * t).normalize_or(at.n);
        let p = probe(pair, supports, dir);
        if !p.sp.w.is_finite() {
            break;
        }
        let across_n = p.sp.w - at.n * at.n.dot(p.sp.w);
        lateral.push(across_n, p.sp.a);
        lateral_b.push(across_n, p.sp.b);
        let e = p.sp.w - at.sp.w;
        if e.norm_squared() > across.norm_squared() {
            across = e;
        }
        if p.h < lowest.h {
            lowest = p;
        }
    }
    let least_lateral = lateral.reduce().v;
    lateral_b.reduce();
    let blend = if !lateral.is_empty() {
        (lateral.witnesses().0, lateral_b.witnesses().0)
    } else {
        (at.sp.a, at.sp.b)
    };
    Ring {
        lowest,
        least_lateral,
        blend,
        across,
    }
}

/// The support point along the unit direction `n`, counted in `supports`.
fn probe<R, A, B, const I: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    supports: &mut u32,
    n: Vec3<R>,
) -> Probe<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    *supports += 1;
    let sp = pair.support(n);
    Probe {
        n,
        sp,
        h: n.dot(sp.w),
    }
}

/// Walks from the unit direction `start` (A's frame) to a direction of
/// least support height of the cores' difference, `rel_tol` EPA's relative
/// tolerance. Never returns a height above `start`'s. A non-finite support
/// point ends the walk where it is.
pub(super) fn descend<R, A, B, const I: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    start: Vec3<R>,
    rel_tol: R,
) -> Descent<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let mut supports = 0;
    let mut at = probe(pair, &mut supports, start.normalize_or(Vec3::X));
    let floor = rel_tol;
    let mut t = R::lit(FIRST_TILT);
    while t >= floor && supports + 8 <= MAX_SUPPORTS && at.h.finite() {
        let ring = ring(pair, &mut supports, &at, t);
        let mut best = ring.lowest;
        // The ridge between `n`'s support and the most distant probe's:
        // directions `d` with `d · across = 0`, where both give the same
        // height. Steps are projected on it when there is one, so that a
        // walk along a ridge stays on it.
        let across = ring.across;
        let e2 = across.norm_squared();
        let onto_ridge = |d: Vec3<R>| {
            if e2 > R::ZERO {
                (d - across * (d.dot(across) / e2)).normalize_or(d)
            } else {
                d
            }
        };
        let mut candidates = [Some(onto_ridge(at.n)), None];
        if let Some(down) = ring.least_lateral.try_normalize() {
            candidates[1] = Some(onto_ridge((at.n - down * t).normalize_or(at.n)));
        }
        for dir in candidates.into_iter().flatten() {
            let p = probe(pair, &mut supports, dir);
            if p.sp.w.is_finite() && p.h < best.h {
                best = p;
            }
        }
        if best.h < at.h {
            at = best;
            t = (t + t).min_of(R::lit(FIRST_TILT));
        } else {
            t *= R::lit(0.5);
        }
    }
    // The witnesses: the blends of A's and B's support points around the
    // final direction whose difference points are nearest its axis, tilted
    // by `sqrt` of the tolerance so that they straddle a ridge the walk
    // ended on (within the floor of it); the blends' offset off `h n`
    // (the curvature under that tilt, or a ridge not straddled) is split
    // between them.
    let (a, b) = if at.h.finite() {
        let (a, b) = ring(pair, &mut supports, &at, floor.sqrt()).blend;
        let off = (a - b - at.n * at.h) * R::HALF;
        (a - off, b + off)
    } else {
        (at.sp.a, at.sp.b)
    };
    Descent {
        n: at.n,
        h: at.h,
        a,
        b,
        supports,
    }
}
