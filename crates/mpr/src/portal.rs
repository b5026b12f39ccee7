//! One MPR pass: portal discovery, then portal refinement, along a ray from
//! an interior point.
//!
//! Classic MPR casts the ray from an interior point `v0` of the difference
//! through the origin. A pass here casts it towards a *target* point: the
//! origin normally, or a point beyond `v0` along a chosen direction when the
//! interior point sits on the origin (coincident centres) or when a
//! re-seeding pass wants the ray along a given normal. Every support point
//! is stored relative to the target, so the geometric tests below read as
//! tests "about the origin" whatever the target is.
//!
//! The tests, for the record (all signs are triple products, so they only
//! depend on the line of the ray, not on where the target sits on it):
//! - discovery keeps a triangle `(v1, v2, v3)` whose cone from `v0` the ray
//!   crosses: while the ray leaves the cone through the side opposite a
//!   vertex, that vertex is replaced by the support along the side's normal;
//! - refinement replaces one portal vertex by the support `v4` along the
//!   portal normal, keeping the sub-triangle the ray still crosses, until
//!   `v4` is no farther than the tolerance beyond the portal plane (the
//!   portal lies on the boundary).

use crate::inflated::{Inflated, Vertex};
use crate::limits::{
    coincidence_tolerance, convergence_tolerance, flatness_tolerance, MAX_DISCOVERY_ITERATIONS,
    MAX_REFINEMENT_ITERATIONS,
};
use mink_support::{Real, Support, Vec3};

/// Where the ray of a pass goes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ray<R> {
    /// From the interior point through the origin (classic MPR).
    ThroughOrigin,
    /// From the interior point along this direction (any length).
    Along(Vec3<R>),
}

/// How a pass ended.
#[derive(Clone, Copy, Debug)]
pub(crate) enum End<R> {
    /// The target lies behind the portal, inside the difference (only when
    /// the caller asked to stop there).
    Inside,
    /// A plane with this unit normal separates the origin from the
    /// difference: every point `w` of it has `w · n < 0`.
    Separated(Vec3<R>),
    /// The difference has no volume around the interior point: it lies
    /// within the flatness tolerance of the plane through the interior
    /// point with this unit normal, which holds the ray (as far as the
    /// pass could tell: zero when it found no plane at all; callers check
    /// the normal before relying on it).
    Degenerate(Vec3<R>),
    /// Discovery hit its cap without a portal.
    DiscoveryCap,
    /// The portal reached the boundary: unit normal `n`, support `v4` along it.
    Converged(Vec3<R>, Vertex<R>),
    /// Refinement hit its cap: the last portal normal and support.
    RefinementCap(Vec3<R>, Vertex<R>),
}

/// The state a pass leaves behind.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pass<R> {
    /// How it ended.
    pub end: End<R>,
    /// `v0` (interior) and the portal `v1, v2, v3`, shifted by `target`.
    pub v: [Vertex<R>; 4],
    /// The point subtracted from every vertex (A's frame).
    pub target: Vec3<R>,
    /// Unit direction of the ray.
    pub dir: Vec3<R>,
    /// `true` once the origin is known to be inside the difference.
    pub inside: bool,
    /// `true` when the interior point coincided with the origin.
    pub coincident: bool,
    /// Size of the difference seen from `v0` (meters): the tolerance scale.
    pub size: R,
    /// Discovery plus refinement iterations.
    pub iterations: u32,
}

impl<R: Real> Pass<R> {
    /// The support the pass ended on, unshifted (along its normal, when it
    /// converged or hit the refinement cap).
    pub fn end_support(&self) -> Option<Vertex<R>> {
        match self.end {
            End::Converged(_, mut v) | End::RefinementCap(_, mut v) => {
                v.w += self.target;
                Some(v)
            }
            _ => None,
        }
    }
}

/// Shifts a vertex from one target to another.
#[inline(always)]
fn retarget<R: Real>(v: &mut Vertex<R>, old: Vec3<R>, new: Vec3<R>) {
    v.w = v.w + old - new;
}

/// Runs one pass from the interior vertex `v0` (unshifted) along `ray`.
///
/// `along_ray` is the support along the ray's direction when the caller
/// already has it (unshifted): a re-seeding pass casts its ray along the
/// normal the last pass converged to, whose support that pass queried.
/// `check_separation` enables the early "separated" exits, valid only when
/// the target is the origin; `stop_inside` returns [`End::Inside`] as soon
/// as the origin is known to be inside (the boolean query).
pub(crate) fn run<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &mut Inflated<'_, '_, R, A, B, I>,
    v0: Vertex<R>,
    ray: Ray<R>,
    along_ray: Option<Vertex<R>>,
    check_separation: bool,
    stop_inside: bool,
) -> Pass<R> {
    inf.target = Vec3::ZERO;
    let mut v0 = v0;
    let raw = match ray {
        Ray::ThroughOrigin => -v0.w,
        Ray::Along(d) => d,
    };
    let (dir, mut coincident) = match raw.try_normalize() {
        Some(d) => (d, false),
        None => (Vec3::X, matches!(ray, Ray::ThroughOrigin)),
    };
    let mut v1 = match along_ray {
        Some(v) => v,
        None => inf.support(query(raw, dir)),
    };
    let size = (v1.w - v0.w).norm().max_of(R::min_positive_value());
    let mut check = check_separation;
    let mut inside = false;
    if let Ray::ThroughOrigin = ray {
        if v0.w.norm() <= coincidence_tolerance::<R>() * size {
            coincident = true;
        }
    }
    let use_target = coincident || matches!(ray, Ray::Along(_));
    if use_target {
        // Aim at a point one size beyond v0 on the ray: the cone tests stay
        // well conditioned. The origin is inside when v0 coincides with it.
        let target = v0.w + dir * size;
        retarget(&mut v0, Vec3::ZERO, target);
        retarget(&mut v1, Vec3::ZERO, target);
        inf.target = target;
        check = false;
        inside = coincident;
    }
    let mut pass = Pass {
        end: End::Degenerate(Vec3::ZERO),
        v: [v0, v1, v1, v1],
        target: inf.target,
        dir,
        inside,
        coincident,
        size,
        iterations: 1,
    };
    if check && v1.w.dot(dir) < R::ZERO {
        pass.end = End::Separated(dir);
        return pass;
    }
    let flat = flatness_tolerance::<R>() * size;

    // Second vertex: the support normal to a plane that holds the ray.
    let a1 = v1.w - v0.w;
    let mut m = a1.cross(dir);
    if m.norm_squared() <= (coincidence_tolerance::<R>() * size).powi(2) {
        // v1 lies on the ray: any plane holding the ray holds v1 too.
        m = dir.any_orthonormal();
    }
    let unit = m.normalize_or(dir.any_orthonormal());
    let v2 = inf.support(query(m, unit));
    let m = unit;
    pass.iterations += 1;
    if check && v2.w.dot(m) < R::ZERO {
        pass.end = End::Separated(m);
        return pass;
    }
    if (v2.w - v0.w).dot(m) <= flat {
        pass.end = End::Degenerate(m);
        return pass;
    }

    // Third vertex: discovery loop, on the vertices in `pass.v` (so that
    // every exit leaves them there without a copy).
    pass.v[2] = v2;
    let mut n = (v1.w - v0.w).cross(v2.w - v0.w);
    if n.dot(dir) < R::ZERO {
        pass.v.swap(1, 2);
        n = -n;
    }
    pass.v[3] = pass.v[2];
    let mut found = false;
    // The normal of the last plane known to hold the ray and a face of the
    // cone: when the next one collapses (v2 came back as v1, within the
    // rounding of the flatness test, or v3 on an edge), the difference is
    // flat in it.
    let mut plane = m;
    for _ in 0..MAX_DISCOVERY_ITERATIONS {
        pass.iterations += 1;
        let Some(nu) = n.try_normalize() else {
            pass.end = End::Degenerate(plane);
            return pass;
        };
        plane = nu;
        let v3 = inf.support(query(n, nu));
        pass.v[3] = v3;
        if check && v3.w.dot(nu) < R::ZERO {
            pass.end = End::Separated(nu);
            return pass;
        }
        if (v3.w - v0.w).dot(nu) <= flat {
            pass.end = End::Degenerate(nu);
            return pass;
        }
        let [p0, p1, p2, p3] = pass.v.map(|v| v.w);
        // Does the ray leave the cone through the side (v0, v1, v3)?
        let slack = triple_slack(p0, p1, p3);
        if p1.cross(p3).dot(p0) < -slack {
            pass.v[2] = v3;
            n = (p1 - p0).cross(p3 - p0);
            continue;
        }
        // ... or through the side (v0, v3, v2)?
        let slack = triple_slack(p0, p3, p2);
        if p3.cross(p2).dot(p0) < -slack {
            pass.v[1] = v3;
            n = (p3 - p0).cross(p2 - p0);
            continue;
        }
        found = true;
        break;
    }
    if !found {
        pass.end = End::DiscoveryCap;
        return pass;
    }
    if pass.inside && stop_inside {
        // Coincident interior points and a difference with volume around
        // them: the origin is inside.
        pass.end = End::Inside;
        return pass;
    }
    refine(inf, &mut pass, check, stop_inside);
    pass
}

/// The direction to query the support along, for a direction `raw` (any
/// length) whose unit vector is `unit`: `raw` itself when its squared length
/// is a normal number (a support takes a direction of any length), so that
/// an out-of-order core runs the query while it computes the square root and
/// the division of the normalization, else `unit`. On bare metal
/// (`target_os = "none"`, in-order cores) there is nothing to overlap:
/// `unit`, which keeps the firmware's answers those of the normalized
/// queries.
#[inline(always)]
fn query<R: Real>(raw: Vec3<R>, unit: Vec3<R>) -> Vec3<R> {
    let n2 = raw.norm_squared();
    if !cfg!(target_os = "none") && n2 >= R::min_positive_value() && n2 <= R::MAX {
        raw
    } else {
        unit
    }
}

/// Rounding slack of the triple product `(a × b) · c`: a few ulps of the
/// product of the three lengths.
#[inline(always)]
fn triple_slack<R: Real>(a: Vec3<R>, b: Vec3<R>, c: Vec3<R>) -> R {
    R::EPSILON * R::lit(8.0) * (a.norm_squared() * b.norm_squared() * c.norm_squared()).sqrt()
}

/// `true` when the ray from `v0` along `dir` crosses triangle `(a, b, c)`
/// (oriented with its normal along `dir`), edges included: the three edge
/// triple products are not negative.
#[inline(always)]
fn crosses<R: Real>(v0: Vec3<R>, a: Vec3<R>, b: Vec3<R>, c: Vec3<R>, dir: Vec3<R>) -> bool {
    let (pa, pb, pc) = (a - v0, b - v0, c - v0);
    pa.cross(pb).dot(dir) >= R::ZERO
        && pb.cross(pc).dot(dir) >= R::ZERO
        && pc.cross(pa).dot(dir) >= R::ZERO
}

/// How deep inside triangle `(a, b, c)` the ray from `v0` along `dir`
/// passes: the smallest of the three edge triple products (each normalized
/// by its edge vectors' lengths), positive inside, zero on an edge, negative
/// outside. The triangle is oriented with its normal along `dir`.
#[inline(always)]
fn crossing<R: Real>(v0: Vec3<R>, a: Vec3<R>, b: Vec3<R>, c: Vec3<R>, dir: Vec3<R>) -> R {
    let (pa, pb, pc) = (a - v0, b - v0, c - v0);
    let edge = |p: Vec3<R>, q: Vec3<R>| {
        let scale = p.norm() * q.norm();
        if scale > R::ZERO {
            p.cross(q).dot(dir) / scale
        } else {
            R::ZERO
        }
    };
    edge(pa, pb).min_of(edge(pb, pc)).min_of(edge(pc, pa))
}

/// The candidate sub-portal the ray from `v0` along `dir` crosses deepest
/// (see [`crossing`]): candidate `k` is the portal `p` with vertex `k`
/// replaced by `v4`. `classic` unless another one scores higher. The rare
/// path of the refinement (the classic rule picked a sub-portal the ray
/// misses), out of line: it is the same code for every shape pair.
#[cold]
#[inline(never)]
fn deepest_crossing<R: Real>(
    v0: Vec3<R>,
    p: [Vec3<R>; 3],
    v4: Vec3<R>,
    classic: usize,
    dir: Vec3<R>,
) -> usize {
    let mut best = classic;
    let mut best_score = -R::INFINITY;
    for k in 0..3 {
        let mut c = p;
        c[k] = v4;
        let score = crossing(v0, c[0], c[1], c[2], dir);
        if score > best_score {
            best_score = score;
            best = k;
        }
    }
    best
}

/// The refinement loop of a pass whose portal `pass.v[1..4]` the ray crosses.
fn refine<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &mut Inflated<'_, '_, R, A, B, I>,
    pass: &mut Pass<R>,
    check: bool,
    stop_inside: bool,
) {
    let v0 = pass.v[0];
    let tol = convergence_tolerance::<R>() * (pass.size + pass.target.norm());
    let mut last = End::Degenerate(Vec3::ZERO);
    for step in 0..MAX_REFINEMENT_ITERATIONS {
        pass.iterations += 1;
        let [_, v1, v2, v3] = pass.v.map(|v| v.w);
        // A portal collapsed to a segment: the boundary there is an edge the
        // ray passes through; stop with the ray itself as the normal (one
        // support call site for both cases keeps the loop small).
        let raw = (v2 - v1).cross(v3 - v1);
        let (n, q, collapsed) = match raw.try_normalize() {
            Some(n) if n.dot(v1 - v0.w) >= R::ZERO => (n, query(raw, n), false),
            Some(n) => (-n, query(-raw, -n), false),
            None => (pass.dir, pass.dir, true),
        };
        if !collapsed && !pass.inside && n.dot(v1) >= R::ZERO {
            pass.inside = true;
            if stop_inside {
                last = End::Inside;
                break;
            }
        }
        let v4 = inf.support(q);
        if collapsed {
            last = End::Converged(n, v4);
            break;
        }
        let reach = v4.w.dot(n);
        if check && !pass.inside && reach < R::ZERO {
            last = End::Separated(n);
            break;
        }
        if reach - v1.dot(n) <= tol {
            last = End::Converged(n, v4);
            break;
        }
        if step + 1 == MAX_REFINEMENT_ITERATIONS {
            last = End::RefinementCap(n, v4);
            break;
        }
        // Keep the sub-portal the ray crosses: the portal with one vertex
        // replaced by v4. The classic rule tests v1, v2, v3 against the
        // plane through v0, v4 and the ray, which picks arbitrarily when the
        // ray runs exactly through a portal vertex or edge (two equal boxes
        // offset along a diagonal); when its pick is not crossed by the ray,
        // the three candidates are scored and the one the ray crosses
        // deepest is kept, which cannot lose the ray.
        let c = v4.w.cross(v0.w);
        let classic = if v1.dot(c) > R::ZERO {
            if v2.dot(c) > R::ZERO {
                0
            } else {
                2
            }
        } else if v3.dot(c) > R::ZERO {
            1
        } else {
            0
        };
        let mut p = [v1, v2, v3];
        p[classic] = v4.w;
        let pick = if crosses(v0.w, p[0], p[1], p[2], pass.dir) {
            classic
        } else {
            deepest_crossing(v0.w, [v1, v2, v3], v4.w, classic, pass.dir)
        };
        pass.v[pick + 1] = v4;
    }
    pass.end = last;
}
