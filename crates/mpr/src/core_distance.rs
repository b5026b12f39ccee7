//! The distance between the *cores* of two inflated shapes, by a small GJK
//! (Gilbert–Johnson–Keerthi) on the core difference.
//!
//! Two inflated shapes overlap when their cores are closer than
//! `r = r_A + r_B`. When the cores are apart, the closest core point `q` of
//! the difference gives the exact answer (depth `r - |q|`, normal
//! `-q / |q|`), which is how sphere–sphere, sphere–box and capsule–capsule
//! are exact. Only when the cores themselves overlap does MPR run.
//!
//! The simplex holds up to four core support points; each step adds the
//! support along `-q` and keeps the smallest face, edge or vertex that holds
//! the new closest point. The loop stops when the support does not get
//! closer to the origin than `q` by more than the tolerance (the cores are
//! apart and `q` is the answer), when rounding stops `|q|` from decreasing
//! (likewise: `q` is the answer), when the simplex encloses the origin (the
//! cores overlap; only believed when the last support point reached the
//! origin's side, since a degenerate simplex can fake it), or at
//! [`MAX_CORE_ITERATIONS`].

use crate::inflated::Inflated;
use crate::limits::{core_distance_tolerance, MAX_CORE_ITERATIONS};
use crate::triangle::closest_to_origin;
use mink_support::{Real, Support, SupportPoint, Vec3};

/// What the core distance found.
#[derive(Clone, Copy, Debug)]
pub(crate) enum CoreDistance<R> {
    /// The cores are apart: `q` is the closest point of the core difference
    /// to the origin, `a` and `b` its witnesses on the cores (A's frame).
    Apart {
        /// The closest point.
        q: SupportPoint<R>,
    },
    /// Stopped early: the inflated shapes are certainly apart, and the unit
    /// direction separates them (from A to B).
    Separated(Vec3<R>),
    /// Stopped early: the inflated shapes certainly overlap.
    Overlapping,
    /// The origin is inside the core difference (or within the tolerance).
    CoresOverlap,
    /// The iteration cap was reached.
    Cap,
}

/// Runs GJK on the core difference from the interior point `start`.
///
/// With `early`, stops as soon as the verdict against the radius `r` is
/// certain (the boolean query).
///
/// Out of line on bare metal (`target_os = "none"`): inlined into
/// [`penetration`](crate::penetration) its frame (the simplex and its
/// scratch, about 500 bytes in `f32` on a Cortex-M4F) would add to the stack
/// of MPR's deepest call path, or not, by the compiler's inlining
/// heuristics. On a host the compiler decides: for a pair whose cores are
/// apart (capsule–capsule) this is the whole query, and the call and the
/// answer's round trip through memory are a tenth of its time.
#[cfg_attr(target_os = "none", inline(never))]
pub(crate) fn core_distance<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &mut Inflated<'_, '_, R, A, B, I>,
    start: SupportPoint<R>,
    early: bool,
) -> (CoreDistance<R>, u32) {
    let r = inf.r_a + inf.r_b;
    let mut simplex = [start; 4];
    let mut len = 1;
    let mut q = start;
    let mut size = r.max_of(start.w.norm());
    for step in 0..MAX_CORE_ITERATIONS {
        let iterations = step + 1;
        let qn = q.w.norm();
        let tol = core_distance_tolerance::<R>() * size;
        if qn <= tol {
            return (CoreDistance::CoresOverlap, iterations);
        }
        if early && qn < r {
            return (CoreDistance::Overlapping, iterations);
        }
        let w = inf.core_support(-q.w);
        size = size.max_of((w.w - q.w).norm());
        // Every core point x has q·x >= q·w: |q|'s lower bound.
        let lower = q.w.dot(w.w) / qn;
        if early && lower >= r {
            return (CoreDistance::Separated(-q.w / qn), iterations);
        }
        if qn - lower <= tol || simplex[..len].iter().any(|s| s.w == w.w) {
            return (CoreDistance::Apart { q }, iterations);
        }
        if len < 4 {
            simplex[len] = w;
            len += 1;
        }
        match reduce(&mut simplex, &mut len) {
            // In exact arithmetic |q| decreases at every step. Near a curved
            // boundary (a cone's or cylinder's rim) the new support points
            // crowd within rounding of each other, the simplex degenerates
            // and |q| stops decreasing: `q` is then as close as this
            // arithmetic gets, and iterating on would only cycle.
            Some(closest) if closest.w.norm() >= qn => {
                return (CoreDistance::Apart { q }, iterations);
            }
            Some(closest) => q = closest,
            // The old simplex lies in the half-space `q·x >= |q|²`, so adding
            // `w` can enclose the origin only if `w` reaches the plane
            // `q·x = 0` (`lower <= 0`). With `lower` above the tolerance the
            // enclosure `reduce` reports is a degenerate simplex (three
            // near-equal rim points) whose face signs are rounding noise: the
            // cores are apart, farther than `lower`.
            None if lower > tol => return (CoreDistance::Apart { q }, iterations),
            None => return (CoreDistance::CoresOverlap, iterations),
        }
    }
    (CoreDistance::Cap, MAX_CORE_ITERATIONS)
}

/// Mixes support points with barycentric weights.
#[inline(always)]
fn mix<R: Real>(p: &[SupportPoint<R>], l: &[R]) -> SupportPoint<R> {
    let mut out = SupportPoint {
        w: Vec3::ZERO,
        a: Vec3::ZERO,
        b: Vec3::ZERO,
    };
    for (s, &t) in p.iter().zip(l) {
        out.w += s.w * t;
        out.a += s.a * t;
        out.b += s.b * t;
    }
    out
}

/// Replaces the simplex by the smallest sub-simplex holding its closest
/// point to the origin and returns that point, or `None` when the simplex
/// (a tetrahedron) encloses the origin.
fn reduce<R: Real>(s: &mut [SupportPoint<R>; 4], len: &mut usize) -> Option<SupportPoint<R>> {
    let mut weights = [R::ZERO; 4];
    match *len {
        1 => weights[0] = R::ONE,
        2 => {
            let (_, l) = closest_to_origin(s[0].w, s[1].w, s[1].w);
            weights[0] = l[0];
            weights[1] = l[1] + l[2];
        }
        3 => {
            let (_, l) = closest_to_origin(s[0].w, s[1].w, s[2].w);
            weights[..3].copy_from_slice(&l);
        }
        _ => {
            let faces = [(0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)];
            let mut best = R::INFINITY;
            let mut outside_any = false;
            for (i, j, k, o) in faces {
                let n = (s[j].w - s[i].w).cross(s[k].w - s[i].w);
                let side_o = n.dot(s[o].w - s[i].w);
                let side_origin = -n.dot(s[i].w);
                // The origin is outside this face when it lies on the other
                // side from the opposite vertex (or the tetrahedron is flat).
                if side_o * side_origin > R::ZERO {
                    continue;
                }
                outside_any = true;
                let (p, l) = closest_to_origin(s[i].w, s[j].w, s[k].w);
                let d = p.norm_squared();
                if d < best {
                    best = d;
                    weights = [R::ZERO; 4];
                    weights[i] = l[0];
                    weights[j] = l[1];
                    weights[k] = l[2];
                }
            }
            if !outside_any {
                return None;
            }
        }
    }
    // Keep the points with weight; always at least one.
    let mut kept = [s[0]; 4];
    let mut kept_w = [R::ZERO; 4];
    let mut n = 0;
    for i in 0..*len {
        if weights[i] > R::ZERO {
            kept[n] = s[i];
            kept_w[n] = weights[i];
            n += 1;
        }
    }
    if n == 0 {
        n = 1;
        kept_w[0] = R::ONE;
    }
    *s = kept;
    *len = n;
    Some(mix(&kept[..n], &kept_w[..n]))
}
