//! Penetration depth, normal and contact points: the MPR passes, the exact
//! answer for inflated shapes whose cores are apart, and the re-seeding that
//! follows a first answer that is not self-consistent.

use crate::certify::{certify, tetra_barycentric, Answer};
use crate::inflated::{Inflated, Vertex};
use crate::limits::{
    barycentric_slack, convergence_tolerance, reseed_gain, self_consistency_sine,
    witness_tolerance, MAX_RESEED_PASSES,
};
use crate::portal::{self, End, Pass, Ray};
use crate::result::{MprSettings, MprStatus, Penetration};
use crate::triangle::{closest_on_edges, foot_point};
use mink_gjk::{Distance, GjkSettings, GjkStatus};
use mink_support::{Iso3, MinkowskiDiff, Real, Support, SupportPoint, Vec3};

/// Penetration of A and B: depth, unit normal from A to B, contact point
/// and witnesses, in the **world frame** given `pose_a` (A's shape-to-world
/// pose, the one the pair was built with; pass [`Iso3::IDENTITY`] to get
/// A's frame). Same as [`penetration_with`] with default settings.
///
/// Separated shapes give [`MprStatus::Separated`] with zero depth;
/// non-finite input gives [`MprStatus::NonFinite`] with every field zero.
/// Never panics, never returns NaN.
///
/// The pair keeps the shapes' warm-start hints, so reuse it across frames.
pub fn penetration<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
) -> Penetration<R> {
    penetration_with(pair, pose_a, &MprSettings::default())
}

/// One overlapping answer in A's frame, before it is mapped to the world.
#[derive(Clone, Copy, Debug)]
struct Candidate<R> {
    answer: Answer<R>,
    /// Self-consistent (or exact).
    consistent: bool,
    capped: bool,
}

/// [`penetration`] with explicit [`MprSettings`] (number of re-seeding
/// passes, the exact answer for inflated shapes). Same frames and contract.
pub fn penetration_with<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
    settings: &MprSettings,
) -> Penetration<R> {
    if !pose_a.is_finite() {
        return Penetration::empty(MprStatus::NonFinite);
    }
    let Some(interior) = crate::finite_interior(pair) else {
        return Penetration::empty(MprStatus::NonFinite);
    };
    let mut iterations = 0;
    let mut proof = None;
    let r = pair.inflation();
    if r > R::ZERO && settings.exact_inflated {
        // GJK on the cores: exact when they are apart; when they overlap,
        // MPR on the cores, the radii added afterwards, and a core
        // difference without volume (a point on a segment, crossing
        // segments, segments sharing an end point) answered in closed form
        // (see `flat_answer`). The overlap is then proven, so no MPR pass
        // below may call the shapes apart. A flat difference whose plane
        // was not found falls back to the inflated difference, and so does
        // a GJK that ran out of iterations.
        let cores = mink_gjk::distance_with(pair, pose_a, &GjkSettings::default());
        iterations = cores.iterations;
        let touching = match cores.status {
            GjkStatus::Converged | GjkStatus::Degenerate => {
                let out = exact(&cores);
                let scale = interior.w.norm().max_of(r);
                if !out.is_overlapping() || confirmed(pair, &out, scale, pose_a) {
                    return out;
                }
                // Unconfirmed: cores within round-off of touching are
                // treated as touching; cores apart whose normal GJK left
                // tilted (parallel flat features) go to MPR on the full
                // shapes, whose portal finds the face.
                r + cores.distance <= R::EPSILON.sqrt() * scale
            }
            GjkStatus::Intersecting => true,
            _ => false,
        };
        if touching {
            // The point where the cores meet (world frame): GJK's
            // witnesses without the radii it added along its normal.
            let meet = Meet {
                a: cores.p_a - cores.normal * pair.a.inflation(),
                b: cores.p_b + cores.normal * pair.b.inflation(),
            };
            let mut inf = Inflated::new(pair);
            inf.inflate = false;
            let out = mpr(&mut inf, interior, pose_a, settings, iterations, Some(meet));
            if out.status != MprStatus::Degenerate {
                return out;
            }
            iterations = out.iterations;
            proof = Some(meet);
        }
    }
    mpr(
        &mut Inflated::new(pair),
        interior,
        pose_a,
        settings,
        iterations,
        proof,
    )
}

/// Whether GJK's exact answer `out` (world frame) can be trusted: one
/// support call along its normal confirms that the overlap along it is
/// the depth, within `sqrt(ε) × scale` (meters).
///
/// GJK's distance is accurate to second order in its normal's error, the
/// overlap along the normal only to first order: between parallel flat
/// features (two parallel capsules, a rounded box's face against
/// another's) GJK can stop on a vertex of the flat difference with the
/// normal tilted by `√` of its tolerance (2e-3 rad in f32), and the
/// overlap along that normal is then off by the features' length times
/// the tilt. Near touching, the normal is the direction of the cores'
/// closest offset, which is round-off when that offset is a few ulps of
/// the size (a sphere's centre on a capsule's end point computed through
/// two poses ends a rounding error away from it, in a random direction).
#[inline]
fn confirmed<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    out: &Penetration<R>,
    scale: R,
    pose_a: &Iso3<R>,
) -> bool {
    let loose = R::EPSILON.sqrt() * scale;
    let n = pose_a.rotation.transpose_mul(out.normal);
    let reach = n.dot(pair.support(n).w) + pair.inflation();
    (reach - out.depth).abs() <= loose
}

/// GJK's proof that the cores intersect: a point of each core (world
/// frame) where they meet, within GJK's tolerance.
#[derive(Clone, Copy, Debug)]
struct Meet<R> {
    a: Vec3<R>,
    b: Vec3<R>,
}

/// The exact answer from GJK's converged distance of the full shapes (their
/// cores apart): overlapping when the distance is negative, with GJK's
/// normal and witnesses (world frame). The same code for every shape pair
/// (`#[inline]`, so a size-optimized build keeps one copy).
#[inline]
fn exact<R: Real>(cores: &Distance<R>) -> Penetration<R> {
    let depth = -cores.distance;
    let mut out = if depth > R::ZERO {
        Penetration {
            status: MprStatus::Converged,
            depth,
            depth_lower_bound: depth,
            normal: cores.normal,
            position: (cores.p_a + cores.p_b) * R::HALF,
            p_a: cores.p_a,
            p_b: cores.p_b,
            iterations: 0,
            passes: 0,
        }
    } else {
        let mut sep = Penetration::empty(MprStatus::Separated);
        sep.normal = cores.normal;
        sep
    };
    out.iterations = cores.iterations;
    finite_or_error(out)
}

/// MPR proper: a first pass through the origin, then re-seeding passes
/// while the answer is not self-consistent. When `inf.inflate` is off, MPR
/// runs on the cores and the radii are added to the answer.
///
/// With `proof` (GJK proved the cores intersect), the origin is known to
/// be inside the difference: the pass runs without its "separated" exits,
/// which on a flat or touching core difference would otherwise fire on
/// the round-off sign of a support point lying on the origin's plane, and
/// a flat core difference is answered by [`flat_answer`].
fn mpr<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &mut Inflated<'_, '_, R, A, B, I>,
    interior: SupportPoint<R>,
    pose_a: &Iso3<R>,
    settings: &MprSettings,
    iterations_before: u32,
    proof: Option<Meet<R>>,
) -> Penetration<R> {
    let v0 = Vertex {
        w: interior.w,
        core: interior,
        u: Vec3::ZERO,
    };
    let proven = proof.is_some();
    let first = portal::run(inf, v0, Ray::ThroughOrigin, None, !proven, false);
    let mut iterations = iterations_before + first.iterations;
    // Where the cores are proven to meet, the directions across a flat
    // difference that the first pass suggests (see `flat_answer`).
    let flat = match proof {
        Some(meet) if !inf.inflate => Some((meet, flat_normals(&first))),
        _ => None,
    };
    let mut passes = 1;
    let mut best = match first.end {
        End::Converged(n, v4) | End::RefinementCap(n, v4) if first.inside || proven => {
            let capped = matches!(first.end, End::RefinementCap(..));
            candidate(inf, &first, n, v4, capped)
        }
        End::RefinementCap(..) => return counted(MprStatus::IterationCap, iterations),
        End::Converged(n, _) | End::Separated(n) => {
            let mut out = Penetration::empty(MprStatus::Separated);
            out.normal = pose_a.rotation.mul_vec(n);
            out.iterations = iterations;
            out.passes = passes;
            return finite_or_error(out);
        }
        End::Inside => unreachable_inside(),
        End::Degenerate(m) => {
            let found = flat.and_then(|(meet, [p, q])| {
                flat_answer(inf, &[m, p, q], first.dir, v0.w, first.size, meet, pose_a)
            });
            return match found {
                Some(mut out) => {
                    out.iterations += iterations;
                    out
                }
                None => counted(MprStatus::Degenerate, iterations),
            };
        }
        End::DiscoveryCap => return counted(MprStatus::IterationCap, iterations),
    };

    // Re-seeding: cast a new ray from the origin along the current normal,
    // from an interior point behind the origin, until the face the ray hits
    // is the face whose normal it is. Keep the shallowest answer: each depth
    // is a valid separating translation, so the smallest is the best.
    // The last pass's consistency and normal (not a copy of its whole
    // answer: only the best one is kept).
    let (mut consistent, mut n) = (best.consistent, best.answer.normal);
    let mut last = first;
    let reseeds = settings.reseed_passes.min(MAX_RESEED_PASSES);
    for _ in 0..reseeds {
        if consistent {
            break;
        }
        let Some(seed) = reseed_point(inf, &last, n, v0) else {
            break;
        };
        // The ray runs along `n`, whose support the last pass ended on.
        let pass = portal::run(inf, seed.0, seed.1, last.end_support(), false, false);
        iterations += pass.iterations;
        passes += 1;
        let current = match pass.end {
            End::Converged(n, v4) | End::RefinementCap(n, v4) => {
                let capped = matches!(pass.end, End::RefinementCap(..));
                candidate(inf, &pass, n, v4, capped)
            }
            _ => break,
        };
        last = pass;
        (consistent, n) = (current.consistent, current.answer.normal);
        let gain = best.answer.depth - current.answer.depth;
        if current.answer.depth < best.answer.depth
            || (current.consistent && current.answer.depth <= best.answer.depth)
        {
            best = current;
        }
        // On curved surfaces the passes creep towards consistency; stop
        // once a pass no longer pays for itself.
        if gain <= reseed_gain::<R>() * best.answer.depth {
            break;
        }
    }

    // Certify (or improve) with polytope expansion from the last
    // tetrahedron; the last pass's support queries are already paid for.
    let checked = certify(
        inf,
        tetrahedron(&last),
        best.answer.depth,
        last.size,
        settings.certify_steps,
    );
    iterations += checked.steps;
    let mut status = if best.capped {
        MprStatus::IterationCap
    } else if checked.certified {
        MprStatus::Converged
    } else {
        MprStatus::Unverified
    };
    if let (Some((meet, [p, q])), false) = (flat, checked.certified || best.capped) {
        // Proven overlap, but MPR could not certify its answer: on a flat
        // difference whose flatness MPR missed (round-off gave it a sliver
        // of volume, and a collapsed portal answered along the ray), the
        // depth is `r` across it.
        let [l, _] = flat_normals(&last);
        if let Some(mut out) =
            flat_answer(inf, &[l, p, q], first.dir, v0.w, last.size, meet, pose_a)
        {
            out.iterations += iterations;
            out.passes = passes;
            return out;
        }
    }
    let mut found = checked.better.unwrap_or(best.answer);
    let mut depth = checked.depth;
    let off = found.p_a - found.p_b - found.normal * depth;
    if off.norm() > witness_tolerance::<R>() * last.size {
        // The answer's witnesses come from a face's closest point to the
        // origin, which need not be where the boundary is along the normal
        // (a face the expansion did not find on the boundary, a portal
        // that did not converge or collapsed to a segment).
        found.depth = depth;
        let along = along_normal(inf, &last, found, v0);
        iterations += along.iterations;
        if let Some(answer) = along.answer {
            found = answer;
            depth = answer.depth;
        }
        if !along.consistent && status == MprStatus::Unverified {
            // The passes along the normal ran out before it became
            // self-consistent: the refinement hit its cap.
            status = MprStatus::IterationCap;
        }
    }
    let (mut lower, mut p_a, mut p_b) = (checked.lower.min_of(depth), found.p_a, found.p_b);
    let normal = pose_a.rotation.mul_vec(found.normal);
    let (p_a, p_b) = if inf.inflate {
        (pose_a.transform_point(p_a), pose_a.transform_point(p_b))
    } else {
        let core_depth = depth;
        let r = inf.r_a + inf.r_b;
        depth += r;
        lower += r;
        match flat {
            // Cores proven to meet and no core depth: the witnesses are
            // where they meet (a portal's on a nearly flat difference are
            // ill-conditioned).
            Some((meet, _)) if core_depth <= convergence_tolerance::<R>() * last.size => {
                (meet.a + normal * inf.r_a, meet.b - normal * inf.r_b)
            }
            _ => {
                p_a += found.normal * inf.r_a;
                p_b -= found.normal * inf.r_b;
                (pose_a.transform_point(p_a), pose_a.transform_point(p_b))
            }
        }
    };
    finite_or_error(Penetration {
        status,
        depth: depth.max_of(R::ZERO),
        depth_lower_bound: lower.max_of(R::ZERO).min_of(depth.max_of(R::ZERO)),
        normal,
        position: (p_a + p_b) * R::HALF,
        p_a,
        p_b,
        iterations,
        passes,
    })
}

/// Candidate normals of a flat core difference from a pass's points
/// `v0, v1, v2, v3` (A's frame, any common shift; all in the plane of a
/// flat difference): the best-conditioned normal of a plane through `v0`
/// and two of the others (a flat difference: crossing segments, segments
/// sharing an end point), and a direction across `v1 - v0` (a difference
/// that is a segment: a point on a segment). Either may be zero.
fn flat_normals<R: Real>(pass: &Pass<R>) -> [Vec3<R>; 2] {
    let [v0, v1, v2, v3] = pass.v.map(|v| v.w);
    let (a, b, c) = (v1 - v0, v2 - v0, v3 - v0);
    let mut plane = a.cross(b);
    for n in [b.cross(c), c.cross(a)] {
        if n.norm_squared() > plane.norm_squared() {
            plane = n;
        }
    }
    let across = if a.norm_squared() > R::ZERO {
        a.any_orthonormal()
    } else {
        Vec3::ZERO
    };
    [plane, across]
}

/// The answer when GJK proved the cores intersect and their difference `C`
/// is flat (a point on a segment, crossing segments, segments sharing an
/// end point, coplanar flat cores): the first of the `candidates` (any
/// length; zero ones are skipped) across which `C` has no extent, else the
/// normal of the plane through MPR's ray (unit direction `ray`, through
/// the interior point `v0` and the origin, A's frame) and a point of `C`
/// off it, or `None`. `size` is the difference's size (meters), `meet`
/// GJK's points where the cores meet (world frame).
///
/// Derivation. The inflated difference is `C` swept by a ball of radius
/// `r = r_A + r_B`, whose support along a unit `u` is `h(u) + r`, `h` the
/// support of `C`; with the origin inside, the depth is `min_u h(u) + r`.
/// The origin lies in `C` (GJK), so `h(u) >= 0` for every `u`: the depth is
/// at least `r`. A unit `u` with `h(u)` within the tolerance of zero
/// (either side of the plane of a flat `C` that holds the origin, which
/// MPR's degenerate plane does: it holds the ray through the origin) thus
/// gives the depth `r + h(u)`, proven minimal: converged. Two support
/// calls a candidate; the side of smaller support wins, and a tie (the
/// usual case: both sides are zero) goes to the side facing from A's
/// interior point to B's. The witnesses are the points where the cores
/// meet, moved out by each radius along the normal.
#[cold]
#[inline(never)]
fn flat_answer<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &mut Inflated<'_, '_, R, A, B, I>,
    candidates: &[Vec3<R>],
    ray: Vec3<R>,
    v0: Vec3<R>,
    size: R,
    meet: Meet<R>,
    pose_a: &Iso3<R>,
) -> Option<Penetration<R>> {
    inf.target = Vec3::ZERO;
    let tol = convergence_tolerance::<R>() * size;
    let mut calls = 0;
    // Last, when every candidate fails: every point the passes saw may lie
    // on the ray's line (a collapsed portal), which leaves the plane's
    // normal free about it; one support across the line finds a point of
    // the plane off it, and the plane through the line and that point.
    let across = ray.any_orthonormal();
    let mut off_line = Vec3::ZERO;
    let last = candidates.len() + 1;
    for (i, m) in candidates
        .iter()
        .copied()
        .chain([across, Vec3::ZERO])
        .enumerate()
    {
        let m = if i == last { ray.cross(off_line) } else { m };
        let Some(m) = m.try_normalize() else {
            continue;
        };
        calls += 2;
        let top = inf.support(m).w;
        let up = m.dot(top);
        let down = -m.dot(inf.support(-m).w);
        if i + 1 == last {
            off_line = top - v0;
        }
        let (u, h) = if up < down - tol || (up <= down + tol && m.dot(v0) <= R::ZERO) {
            (m, up)
        } else {
            (-m, down)
        };
        if h > tol || !h.finite() {
            continue;
        }
        let depth = (inf.r_a + inf.r_b + h).max_of(R::ZERO);
        let normal = pose_a.rotation.mul_vec(u);
        let p_a = meet.a + normal * inf.r_a;
        let p_b = meet.b - normal * inf.r_b;
        let out = finite_or_error(Penetration {
            status: MprStatus::Converged,
            depth,
            depth_lower_bound: depth,
            normal,
            position: (p_a + p_b) * R::HALF,
            p_a,
            p_b,
            iterations: calls,
            passes: 1,
        });
        return (out.status == MprStatus::Converged).then_some(out);
    }
    None
}

/// `End::Inside` only ends a pass that was asked to stop there, which the
/// penetration query never asks; fall back to a harmless error status.
#[inline(always)]
fn unreachable_inside<R: Real>() -> Candidate<R> {
    Candidate {
        answer: Answer {
            normal: Vec3::ZERO,
            depth: R::ZERO,
            p_a: Vec3::ZERO,
            p_b: Vec3::ZERO,
        },
        consistent: false,
        capped: true,
    }
}

fn counted<R: Real>(status: MprStatus, iterations: u32) -> Penetration<R> {
    let mut out = Penetration::empty(status);
    out.iterations = iterations;
    out.passes = 1;
    out
}

/// The result itself when every field is finite, else the NonFinite status.
fn finite_or_error<R: Real>(p: Penetration<R>) -> Penetration<R> {
    let finite = p.depth.finite()
        && p.normal.is_finite()
        && p.position.is_finite()
        && p.p_a.is_finite()
        && p.p_b.is_finite();
    if finite {
        p
    } else {
        let mut out = Penetration::empty(MprStatus::NonFinite);
        out.iterations = p.iterations;
        out.passes = p.passes;
        out
    }
}

/// The answer of a pass that converged with unit normal `n` and support `v4`
/// (A's frame): the portal's normal, the support along it as the depth, and
/// witnesses from the origin's closest point on the portal.
fn candidate<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &Inflated<'_, '_, R, A, B, I>,
    pass: &Pass<R>,
    n: Vec3<R>,
    v4: Vertex<R>,
    capped: bool,
) -> Candidate<R> {
    let [_, v1, v2, v3] = &pass.v;
    let t = pass.target;
    let (w1, w2, w3) = (v1.w + t, v2.w + t, v3.w + t);
    // Self-consistent when the origin's foot on the portal plane lies in the
    // portal, or when the ray already runs along the normal.
    let slack = barycentric_slack::<R>();
    let foot = foot_point(w1, w2, w3).map(|(_, l)| l);
    let foot_inside = foot.is_some_and(|l| l[0] >= -slack && l[1] >= -slack && l[2] >= -slack);
    let along =
        n.cross(pass.dir).norm() <= self_consistency_sine::<R>() && n.dot(pass.dir) > R::ZERO;
    // The closest point of the portal to the origin: the foot when it lies
    // in the portal (without the slack), else on an edge.
    let l = match foot {
        Some(l) if l[0] >= R::ZERO && l[1] >= R::ZERO && l[2] >= R::ZERO => l,
        _ => closest_on_edges(w1, w2, w3).1,
    };
    let (p_a, p_b) = inf.mixed_witnesses([v1, v2, v3], l);
    Candidate {
        answer: Answer {
            normal: n,
            depth: n.dot(v4.w + t),
            p_a,
            p_b,
        },
        consistent: foot_inside || along,
        capped,
    }
}

/// What [`along_normal`] found.
struct Along<R> {
    /// The answer to report (no deeper than the input), or `None` (keep
    /// the input answer).
    answer: Option<Answer<R>>,
    /// Whether `answer` is self-consistent: its witnesses are on the
    /// shapes and differ by `depth * normal`. When not, they are the
    /// points where the ray along the normal leaves the difference,
    /// exactly on the shapes, and their difference is shorter than
    /// `depth` along the normal.
    consistent: bool,
    /// Iterations of its passes.
    iterations: u32,
}

/// Passes cast along an answer's normal by [`along_normal`]. A polytope
/// needs one or two; on a curved pair whose interior points coincide each
/// pass moves the normal only part of the way to a self-consistent one
/// (in f64, coincident ellipsoids and cones: 19% of answers still
/// inconsistent after 12 passes, 10% after 32). Only answers whose
/// witnesses are off pay for them.
const ALONG_PASSES: u32 = 32;

/// Passes along the unit normal of an `answer` (A's frame) whose
/// witnesses are not trusted (they come from a face's closest point to
/// the origin, not from the boundary): the ray from the origin along the
/// normal (seeded at the origin with witnesses from the last pass's
/// tetrahedron, which holds it, or else behind it, see [`reseed_point`])
/// leaves the difference through a portal on the boundary.
///
/// Each pass gives the answer along its ray's normal the witnesses of the
/// ray's exit point ([`exit_witnesses`]). When they differ from
/// `depth * normal` by more than [`witness_tolerance`] of the size (the
/// answer is not self-consistent) and the portal's own answer is
/// shallower, the next pass casts along the portal's normal (at most
/// [`ALONG_PASSES`] passes: a re-seeding after certification, which leads
/// a face the expansion tilted off the true one back to it in one pass,
/// and creeps towards consistency on curved surfaces). The last answer
/// with witnesses is kept.
///
/// `answer: None` when no pass converged.
#[cold]
#[inline(never)]
fn along_normal<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &mut Inflated<'_, '_, R, A, B, I>,
    last: &Pass<R>,
    answer: Answer<R>,
    interior: Vertex<R>,
) -> Along<R> {
    let mut out = Along {
        answer: None,
        consistent: false,
        iterations: 0,
    };
    // A point of the difference at the origin: from the last tetrahedron,
    // else the interior point when it is there (coincident interior
    // points), else the answer's own witnesses when they meet.
    let tol = witness_tolerance::<R>() * last.size;
    let near = |w: Vec3<R>| w.norm() <= tol;
    let own = witness_vertex(answer.p_a, answer.p_b);
    let origin = origin_seed(inf, last)
        .or(near(interior.w).then_some(interior))
        .or(near(own.w).then_some(own));
    let mut current = answer;
    for _ in 0..ALONG_PASSES {
        let n = current.normal;
        let seed = match origin {
            // The ray starts at the origin itself: the seed's witnesses
            // (off it by round-off) never enter the exit point's.
            Some(v) => Some((Vertex { w: Vec3::ZERO, ..v }, Ray::Along(n))),
            None => reseed_point(inf, last, n, interior),
        };
        let Some((seed, ray)) = seed else {
            break;
        };
        let pass = portal::run(inf, seed, ray, None, false, false);
        out.iterations += pass.iterations;
        let End::Converged(m, v4) = pass.end else {
            break;
        };
        let Some((a, b)) = exit_witnesses(inf, &pass) else {
            break;
        };
        let off = n * current.depth - (a - b);
        out.consistent = off.norm() <= tol;
        // Consistent: within the tolerance of the boundary, so the rest is
        // split evenly; else the exit point's witnesses as they are.
        let half = if out.consistent {
            off * R::HALF
        } else {
            Vec3::ZERO
        };
        out.answer = Some(Answer {
            p_a: a + half,
            p_b: b - half,
            ..current
        });
        if out.consistent {
            break;
        }
        let next = candidate(inf, &pass, m, v4, false).answer;
        if next.depth >= current.depth {
            break;
        }
        current = next;
    }
    out
}

/// The witnesses `a` on A and `b` on B (A's frame) of the point
/// `e = a - b` where the ray of `pass` leaves the difference (its
/// crossing of the final portal, on the boundary within the tolerance),
/// or `None` when the ray misses the portal's plane.
fn exit_witnesses<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &Inflated<'_, '_, R, A, B, I>,
    pass: &Pass<R>,
) -> Option<(Vec3<R>, Vec3<R>)> {
    let [v0, v1, v2, v3] = &pass.v;
    // Barycentric coordinates of the ray's crossing of the portal: the
    // signed volumes of the ray with each edge.
    let (q1, q2, q3) = (v1.w - v0.w, v2.w - v0.w, v3.w - v0.w);
    let l = [
        q2.cross(q3).dot(pass.dir),
        q3.cross(q1).dot(pass.dir),
        q1.cross(q2).dot(pass.dir),
    ];
    let sum = l[0] + l[1] + l[2];
    if !(sum.abs() > R::ZERO) || !sum.finite() {
        return None;
    }
    let (a, b) = inf.mixed_witnesses([v1, v2, v3], l.map(|x| x / sum));
    (a.is_finite() && b.is_finite()).then_some((a, b))
}

/// A vertex at the origin (within round-off) with witnesses (a point of A
/// and a point of B that coincide, from the barycentric coordinates of the
/// origin in the last pass's tetrahedron, which holds it); `None` when the
/// tetrahedron is flat or does not hold the origin.
fn origin_seed<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &Inflated<'_, '_, R, A, B, I>,
    last: &Pass<R>,
) -> Option<Vertex<R>> {
    let tet = tetrahedron(last);
    let l = tetra_barycentric(Vec3::ZERO, tet.map(|v| v.w))?;
    // The origin on a face of the tetrahedron (within round-off) still
    // gives a point of the difference next to it.
    let slack = R::EPSILON.sqrt();
    if l.iter().any(|&t| t < -slack || !t.finite()) {
        return None;
    }
    let l = l.map(|t| t.max_of(R::ZERO));
    let sum = l[0] + l[1] + l[2] + l[3];
    let mut a = Vec3::ZERO;
    let mut b = Vec3::ZERO;
    for (v, t) in tet.iter().zip(l) {
        let (wa, wb) = inf.witnesses(v);
        a += wa * (t / sum);
        b += wb * (t / sum);
    }
    Some(witness_vertex(a, b))
}

/// The vertex of the difference at `a - b` for points `a` of A and `b` of
/// B (A's frame, full shapes), with the ray's target at the origin.
fn witness_vertex<R: Real>(a: Vec3<R>, b: Vec3<R>) -> Vertex<R> {
    let w = a - b;
    Vertex {
        w,
        core: SupportPoint { w, a, b },
        u: Vec3::ZERO,
    }
}

/// The points of a pass's tetrahedron `(v0, v1, v2, v3)`, unshifted.
fn tetrahedron<R: Real>(pass: &Pass<R>) -> [Vertex<R>; 4] {
    pass.v.map(|mut v| {
        v.w += pass.target;
        v
    })
}

/// The interior point and ray of a re-seeding pass along unit normal `n`:
/// a point behind the origin on the line through it along `n`, inside the
/// last pass's tetrahedron `(v0, v1, v2, v3)` (which holds the origin and
/// lies in the difference), with witnesses interpolated from the
/// tetrahedron's. When the last pass started at the origin (coincident
/// interior points), the original interior point and a ray along `n`.
/// `None` when no such point is safely inside.
fn reseed_point<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &Inflated<'_, '_, R, A, B, I>,
    last: &Pass<R>,
    n: Vec3<R>,
    interior: Vertex<R>,
) -> Option<(Vertex<R>, Ray<R>)> {
    if last.coincident {
        return Some((interior, Ray::Along(n)));
    }
    let tet = tetrahedron(last);
    let p = tet.map(|v| v.w);
    let e = -n;
    // Largest s with -s n inside the tetrahedron: the first face the ray
    // from the origin along -n leaves through.
    let faces = [(0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2), (1, 2, 3, 0)];
    let mut exit = R::INFINITY;
    for (i, j, k, o) in faces {
        let mut m = (p[j] - p[i]).cross(p[k] - p[i]);
        if m.dot(p[o] - p[i]) > R::ZERO {
            m = -m; // outward
        }
        let me = m.dot(e);
        if me > R::ZERO {
            exit = exit.min_of(m.dot(p[i]) / me);
        }
    }
    let s = exit * R::HALF;
    let floor = crate::limits::coincidence_tolerance::<R>() * last.size;
    if s <= floor || !s.finite() {
        return None;
    }
    let w = e * s;
    let l = tetra_barycentric(w, p)?;
    let mut a = Vec3::ZERO;
    let mut b = Vec3::ZERO;
    for (v, t) in tet.iter().zip(l) {
        let (wa, wb) = inf.witnesses(v);
        a += wa * t;
        b += wb * t;
    }
    let vertex = Vertex {
        w,
        core: SupportPoint { w, a, b },
        u: Vec3::ZERO,
    };
    Some((vertex, Ray::ThroughOrigin))
}
