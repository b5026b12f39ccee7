//! GJK: intersection and distance of two convex cores, with witnesses,
//! Nesterov acceleration and warm start.
//!
//! All computations are done in A's frame, on the Minkowski difference of
//! the cores `C = core(A) ⊖ core(B)`; results are mapped to the world with
//! `pose_a` at the end, and corrected by the inflation radii.
//!
//! Each iteration keeps two bounds on the cores' distance `dist(0, C)`:
//! the upper bound `|v|`, with `v` the point of the current simplex closest
//! to the origin, and the lower bound `α = max_k (d_k · w_k) / |d_k|`, where
//! `w_k` is the support of `C` along `-d_k` (every plane `{x : d·x = d·w}`
//! has all of `C` on its far side). GJK stops when `|v| - α` is within the
//! tolerance, which is a proof of the answer's accuracy whatever direction
//! sequence produced it: plain (`d = v`) or Nesterov-accelerated.

use crate::simplex::greater;
use crate::{
    Distance, GjkCache, GjkSettings, GjkStatus, Simplex, Stop, Variant, MAX_GJK_ITERATIONS,
};
use mink_support::{Iso3, MinkowskiDiff, Real, Support, Vec3};

/// The most queries in a row that start from the last one's simplex; the
/// next starts cold. Each warm start moves the kept points by one rigid
/// transform, whose round-off (a few units of [`Real::EPSILON`] of the
/// size) would otherwise add up over a long rest; 64 bounds it to tens of
/// them, at the cost of one cold query in 64.
pub const WARM_REFRESH: u32 = 64;

/// The state GJK ends in, in A's frame, before the inflation correction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CoreResult<R> {
    /// Upper bound on the cores' distance: `|v|`.
    pub upper: R,
    /// Proven lower bound on the cores' distance.
    pub lower: R,
    /// The closest point `v` of the simplex (A's frame).
    pub v: Vec3<R>,
    /// The last support direction (A's frame), for a separating-plane normal.
    pub dir: Vec3<R>,
    /// Largest absolute coordinate seen: the size the tolerances scale with.
    pub scale: R,
    pub iterations: u32,
    pub status: GjkStatus,
}

/// Runs GJK on `pair` with `settings`, warm-started from and saved into
/// `cache`, and returns the world-frame result (see [`Distance`] and
/// [`GjkStatus`] for what each field proves in each case).
///
/// `pose_a` is A's pose (shape to world) that maps the A-frame results to
/// the world; pass [`Iso3::IDENTITY`] to get them in A's frame. A
/// non-finite `pose_a`, relative pose or inflation returns
/// [`GjkStatus::NonFinite`].
pub fn gjk<R, A, B, const I: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
    settings: &GjkSettings<R>,
    cache: &mut GjkCache<R, A::Hint, B::Hint>,
) -> Distance<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    gjk_with::<R, A, B, I, true>(pair, pose_a, settings, cache)
}

/// [`gjk`], warm-started from `cache`'s simplex when `WARM`; a caller
/// whose cache is fresh passes `false` and compiles without the warm
/// start (700 bytes of a Cortex-M build).
#[inline]
fn gjk_with<R, A, B, const I: bool, const WARM: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
    settings: &GjkSettings<R>,
    cache: &mut GjkCache<R, A::Hint, B::Hint>,
) -> Distance<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    if !pose_a.is_finite() {
        return Distance::non_finite();
    }
    let core = gjk_core::<R, A, B, I, WARM>(pair, settings, cache);
    to_world(pair, pose_a, &core, &cache.simplex)
}

/// Signed distance, witnesses and normal of two shapes, world frame, with
/// the default settings (plain GJK, run to convergence) and no warm start.
/// See [`gjk`] and [`distance_with`].
#[inline]
pub fn distance<R, A, B, const I: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
) -> Distance<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    distance_with(pair, pose_a, &GjkSettings::default())
}

/// [`distance`] with explicit `settings` (tolerance, variant, stop mode),
/// world frame through `pose_a`, same contract as [`gjk`].
///
/// No simplex is carried over (the query starts cold), but the pair's
/// support hints are: a large hull's hill climb starts from the vertex the
/// pair's last query ended on, and the pair keeps this query's. This is
/// the entry point for a caller with no [`GjkCache`] of its own (mink-mpr
/// runs it on the cores of inflated shapes).
#[inline]
pub fn distance_with<R, A, B, const I: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
    settings: &GjkSettings<R>,
) -> Distance<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let mut cache = GjkCache::<R, A::Hint, B::Hint> {
        hint_a: pair.hint_a,
        hint_b: pair.hint_b,
        ..GjkCache::default()
    };
    gjk_with::<R, A, B, I, false>(pair, pose_a, settings, &mut cache)
}

/// `true` when the shapes overlap or touch (within GJK's tolerance).
///
/// Stops as soon as a separating plane or an overlap is proven. Non-finite
/// input returns `false`.
#[inline]
pub fn intersect<R, A, B, const I: bool>(pair: &mut MinkowskiDiff<'_, R, A, B, I>) -> bool
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let mut cache = GjkCache::default();
    let settings = GjkSettings::default().with_stop(Stop::Collision);
    let core = gjk_core::<R, A, B, I, false>(pair, &settings, &mut cache);
    match core.status {
        GjkStatus::Intersecting => true,
        GjkStatus::Converged | GjkStatus::Degenerate | GjkStatus::IterationLimit => {
            core.upper <= pair.inflation()
        }
        _ => false,
    }
}

/// Maps a core result to the world-frame [`Distance`], correcting by the
/// inflation radii.
///
/// Inlined into each query even in a size-optimized build: a caller that
/// reads only the distance then skips the witnesses and normal entirely,
/// which on a Cortex-M4F is worth more instructions than the code it saves.
#[inline(always)]
pub(crate) fn to_world<R, A, B, const I: bool>(
    pair: &MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
    core: &CoreResult<R>,
    simplex: &Simplex<R>,
) -> Distance<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    if core.status == GjkStatus::NonFinite {
        return Distance::non_finite();
    }
    let (ra, rb) = (pair.a.inflation(), pair.b.inflation());
    let (mut pa, mut pb) = simplex.witnesses();
    // The normal from A to B is the outward normal of A ⊖ B at its closest
    // point: -v / |v|. Without a usable v, the last search direction.
    let normal = (-core.v)
        .try_normalize()
        .or_else(|| (-core.dir).try_normalize())
        .unwrap_or(Vec3::X);
    let distance = match core.status {
        GjkStatus::Intersecting => -(ra + rb),
        GjkStatus::Separated | GjkStatus::BeyondMargin => core.lower - (ra + rb),
        _ => core.upper - (ra + rb),
    };
    let normal = match core.status {
        GjkStatus::Separated | GjkStatus::BeyondMargin => (-core.dir).normalize_or(normal),
        _ => normal,
    };
    pa += normal * ra;
    pb -= normal * rb;
    Distance {
        distance,
        p_a: pose_a.transform_point(pa),
        p_b: pose_a.transform_point(pb),
        normal: pose_a.transform_vector(normal),
        iterations: core.iterations,
        status: core.status,
    }
}

/// The GJK loop on the cores, A's frame. Leaves the final simplex and the
/// warm-start state in `cache`; starts from `cache`'s simplex only when
/// `WARM` (a fresh cache has none, and `false` compiles without it).
pub(crate) fn gjk_core<R, A, B, const I: bool, const WARM: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    settings: &GjkSettings<R>,
    cache: &mut GjkCache<R, A::Hint, B::Hint>,
) -> CoreResult<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let inflation = pair.inflation();
    let mut out = CoreResult {
        upper: R::ZERO,
        lower: R::ZERO,
        v: Vec3::ZERO,
        dir: Vec3::X,
        scale: R::ZERO,
        iterations: 0,
        status: GjkStatus::NonFinite,
    };
    if !pair.pose_ab.is_finite() || !inflation.finite() {
        cache.simplex.clear();
        return out;
    }
    pair.hint_a = cache.hint_a;
    pair.hint_b = cache.hint_b;

    // First direction: the warm-start one, else the centres' offset (the
    // difference A ⊖ B sits around -t, t = B's origin in A's frame).
    let guess = if cache.dir.norm_squared() > R::ZERO {
        cache.dir
    } else if I {
        Vec3::X
    } else {
        let t = -pair.pose_ab.translation;
        if t.norm_squared() > R::ZERO {
            t
        } else {
            Vec3::X
        }
    };

    let margin = match settings.stop {
        Stop::Never => R::INFINITY,
        Stop::Collision => R::ZERO,
        Stop::Margin(m) => m,
    };
    let collision_only = settings.stop == Stop::Collision;
    let polytope = <MinkowskiDiff<'_, R, A, B, I>>::POLYTOPE;
    let mut nesterov = settings.variant == Variant::Nesterov;
    let rel_tol = settings.tolerance;

    // Last query's simplex, when it ended on an answer, and the motion of
    // B relative to A since then.
    let old = cache.simplex;
    let warm = WARM && cache.warm && cache.age < WARM_REFRESH;
    cache.age = if warm { cache.age + 1 } else { 0 };
    let old_len = if warm { old.len() } else { 0 };
    let motion = if I || !WARM {
        Iso3::IDENTITY
    } else {
        pair.pose_ab.mul(&cache.pose_ab.inverse())
    };
    let simplex = &mut cache.simplex;
    simplex.clear();
    let mut v = guess;
    let mut vv = v.norm_squared();
    let mut v_norm = vv.sqrt();
    let mut dir = v;
    let mut w_last = Vec3::ZERO;
    let mut lower = R::ZERO;
    let mut scale = R::min_positive_value();
    let mut status = GjkStatus::IterationLimit;
    let mut stalled = false;
    let mut best_vv = vv;
    let mut k: u32 = 0;

    // Warm start: last query's simplex, its points re-posed (points of the
    // shapes wherever they now are, so a valid simplex of `C`). All but
    // the last go in now; the last enters as the first pass's point, in
    // place of a support point, so the loop's own reduction finds their
    // closest point (one copy of it, which a Cortex-M build notices).
    let mut pending = None;
    // The simplex before the converging support point is folded in once
    // more, when it is: the last pass of the loop.
    let mut polishing: Option<Simplex<R>> = None;
    // The face step (see the stall test): the normal of the triangle the
    // stalled segment made with the dropped support point, searched along
    // once per query.
    let mut face: Option<Vec3<R>> = None;
    let mut face_tried = false;
    // The direction whose support plane gave `lower`, and whether the
    // loop is on its last pass, measuring the plane along the final `v`
    // (see the end of the function).
    let mut proof = Vec3::ZERO;
    let mut verifying = false;
    // Near contact for the shapes' size, `v`'s direction is only good to
    // an ulp of the vertices over `|v|`; against a flat side of `C` the
    // normal it gives can then hold the shapes apart by less than the
    // distance by that tilt times the side's width (a point 10 µm under a
    // 0.5 m cap, in f32: by 8 mm less, an overlap), more than the
    // tolerance (`sqrt(ε)/100` of the size) below `100 sqrt(ε)` of the
    // size. There a converged answer's normal is the best proven plane's,
    // `v`'s own once a last pass has measured it.
    let near = R::lit(100.0) * R::EPSILON.sqrt();
    for i in 0..old_len {
        let Some(p) = old.vertex(i) else { break };
        let (a, b) = (p.a, if I { p.b } else { motion.transform_point(p.b) });
        scale = scale.max_of(a.max_abs()).max_of(b.max_abs());
        if let Some((w, a)) = pending.replace((a - b, a)) {
            simplex.push(w, a);
        }
    }

    while k < MAX_GJK_ITERATIONS {
        let (w, a) = if let Some(p) = pending.take() {
            p
        } else {
            k += 1;
            // Search direction: the closest point, or its Nesterov blend.
            // `|dir|` is `v_norm` when `dir` is `v` (the same `sqrt` of the same
            // `|v|²`), which saves a square root per plain iteration.
            let mut dn = v_norm;
            let stepped = face.take();
            if let Some(n) = stepped {
                dir = n;
                dn = n.norm();
            } else if nesterov && !simplex.is_empty() {
                let kk = R::lit(k as f64);
                if polytope {
                    // Momentum (k + 1) / (k + 2), k = 1 at the first blend.
                    let m = (kk + R::ONE) / (kk + R::TWO);
                    let y = v * m + w_last * (R::ONE - m);
                    let (yn, dn) = (y.norm(), dir.norm());
                    if yn > R::ZERO && dn > R::ZERO {
                        dir = dir * (m / dn) + y * ((R::ONE - m) / yn);
                    } else {
                        dir = v;
                    }
                } else {
                    // Momentum k / (k + 2): the paper's (t + 1) / (t + 3), t = k - 1.
                    let m = kk / (kk + R::TWO);
                    let y = v * m + w_last * (R::ONE - m);
                    dir = dir * m + y * (R::ONE - m);
                }
                if greater(dir.norm_squared(), R::ZERO) {
                    dn = dir.norm();
                } else {
                    dir = v;
                }
            } else {
                dir = v;
            }

            let sp = pair.support(-dir);
            let w = sp.w;
            scale = scale.max_of(sp.a.max_abs()).max_of(sp.b.max_abs());
            let tol = rel_tol * scale;

            // Lower bound from the plane through w normal to dir.
            let omega = dir.dot(w) / dn;
            if omega > lower {
                lower = omega;
                proof = dir;
            }
            if verifying {
                break;
            }
            if lower - inflation > margin {
                status = if collision_only {
                    GjkStatus::Separated
                } else {
                    GjkStatus::BeyondMargin
                };
                out.dir = dir;
                if simplex.is_empty() {
                    // Proven on the first support: keep it as the simplex, so
                    // the witnesses and the upper bound are real.
                    simplex.push(w, sp.a);
                    v = simplex.reduce().v;
                    vv = v.norm_squared();
                }
                break;
            }

            if !simplex.is_empty() {
                if v_norm - lower <= tol {
                    // No separating plane yet and `v` within the tolerance
                    // (which this support point's coordinates may have
                    // grown): the origin is on the simplex to within it,
                    // an overlap of unknown depth as at the push below,
                    // not a proven gap.
                    status = if lower > R::ZERO || v_norm > tol {
                        GjkStatus::Converged
                    } else {
                        GjkStatus::Intersecting
                    };
                    if status != GjkStatus::Converged {
                        break;
                    }
                    // Converged: `w` is folded in once more below, and the
                    // loop ends there (see `polishing`).
                    polishing = Some(*simplex);
                } else if nesterov && v_norm * v_norm - v.dot(w) <= tol * v_norm {
                    // Nesterov's restart test: the Frank-Wolfe gap at v
                    // (measured with this w, so optimistic) is within the
                    // tolerance.
                    nesterov = false;
                    continue;
                }
            }
            (w, sp.a)
        };
        let tol = rel_tol * scale;

        simplex.push(w, a);
        let closest = simplex.reduce();
        let new_vv = closest.v.norm_squared();
        if let Some(before) = polishing {
            // GJK stops when its bounds agree, which makes the distance
            // exact to the tolerance but the closest point, and so the
            // normal, only to about the square root of it: between
            // parallel flat features (two parallel segments, a face over
            // a face) the simplex can still be one vertex of the
            // difference's flat side when the bounds meet, `v` tilted
            // from the side's normal by the features' offset over the
            // distance (2e-3 rad in f32 on parallel 4 m capsules), and a
            // normal that tilted does not separate them. The support
            // point that proved convergence lies across that side, so the
            // closest point of the simplex with it is the foot of the
            // perpendicular. The same push and reduction as every step
            // (no second copy of them in the code); a result that
            // encloses the origin, grows `v` by round-off, falls below the
            // proven lower bound (a reduction the round-off misled) or
            // comes from a repeated support point leaves the simplex as it
            // was.
            // A support point that repeats a vertex of the simplex (to
            // 64 ulps) adds nothing: the reduction would only pick an edge
            // of the same face by round-off, whose direction is off the
            // face's normal by the round-off over the distance (1.3° on a
            // flat 2.8 m hull 10 µm from a point, in f32).
            let slack = R::lit(64.0) * R::EPSILON * scale;
            let repeated = (0..before.len()).any(|i| {
                before
                    .vertex(i)
                    .is_some_and(|p| (p.w - w).norm_squared() <= slack * slack)
            });
            let floor = (lower - tol).max_of(R::ZERO);
            if !repeated
                && !closest.inside
                && new_vv.finite()
                && new_vv > R::ZERO
                && new_vv <= vv
                && new_vv >= floor * floor
            {
                v = closest.v;
                vv = new_vv;
            } else {
                *simplex = before;
            }
            if vv < near * near * scale * scale && v != dir {
                verifying = true;
                face = Some(v);
                continue;
            }
            break;
        }
        if closest.inside || !greater(new_vv, tol * tol) {
            status = if new_vv.finite() {
                GjkStatus::Intersecting
            } else {
                GjkStatus::Degenerate
            };
            v = closest.v;
            vv = new_vv;
            break;
        }
        // Progress is against the best `|v|²` so far, which a step allowed
        // by the stall test below may have raised by round-off.
        let progress = new_vv < best_vv;
        let moved = closest.v != v;
        v = closest.v;
        // No progress test on the first support: `vv` was the guess's.
        let first = k <= 1;
        vv = new_vv;
        if progress || first {
            best_vv = vv;
        }
        v_norm = vv.sqrt();
        w_last = w;
        if collision_only && v_norm <= inflation {
            status = GjkStatus::Intersecting;
            break;
        }
        // The stall test. A step that moved the closest point without
        // shortening it is allowed once in a row: on a support tie across
        // a flat face of `C` (a box face flush with a cylinder's cap puts
        // the origin in the plane of that face) the sign of `v`'s round-off
        // picks the far end of the face, whose improvement, about
        // `(|v| (|v| - α) / |w - v|)²`, is below an ulp of `|v|²`; it still
        // tilts `v` off the tie, so the next support comes from the near
        // end and progresses. Two in a row, or no move at all, is a stall.
        if progress || first {
            stalled = false;
        } else if nesterov {
            nesterov = false;
        } else if moved && !stalled {
            stalled = true;
        } else {
            // The face step. Stalled on a segment whose closest point is
            // near the origin for its vertices' size, `v`'s direction is
            // only good to an ulp of the vertices over `|v|` (5e-4 rad for
            // a point 59 µm under a 0.5 m cylinder cap, in f32), and on a
            // flat side of `C` its support tie picks the side's far rim,
            // whose plane proves nothing; the point it brought was then
            // dropped on a round-off sign. The triangle that point made
            // with the segment lies on the side, and its normal, from
            // differences of vertices, is good to an ulp of its edges: one
            // search along it proves the gap, or, when it does not, the
            // loop ends here on the next pass as it would have.
            if !face_tried && simplex.len() == 2 {
                face_tried = true;
                if let (Some(p), Some(q)) = (simplex.vertex(0), simplex.vertex(1)) {
                    let (pq, pw) = (q.w - p.w, w - p.w);
                    let n = pq.cross(pw);
                    let nn = n.norm_squared();
                    if greater(
                        nn,
                        R::EPSILON * R::EPSILON * pq.norm_squared() * pw.norm_squared(),
                    ) {
                        // Towards `C`, as every search direction.
                        face = Some(if n.dot(v) < R::ZERO { -n } else { n });
                        stalled = false;
                        continue;
                    }
                }
            }
            // Round-off floor: accept when the bounds agree to sqrt(ε),
            // and a separating plane proves the cores apart. Without one
            // (`lower` still zero) and `v` within that floor of the
            // origin, the origin is in the simplex's plane to round-off
            // (a small shape deep inside a large one, in f32): the cores
            // may overlap by any depth, so it is reported as an overlap
            // for the caller's penetration query, never as a gap.
            let floor = R::EPSILON.sqrt() * scale;
            status = if lower > R::ZERO && v_norm - lower <= floor {
                GjkStatus::Converged
            } else if v_norm <= floor {
                GjkStatus::Intersecting
            } else {
                GjkStatus::Degenerate
            };
            if status == GjkStatus::Converged && v_norm < near * scale && v != dir {
                verifying = true;
                face = Some(v);
                continue;
            }
            break;
        }
    }

    // The next query's first direction: the plane that proved the pair
    // apart (most likely to prove it again after a small motion), else
    // the closest point; none after an overlap (the centres' offset is
    // the better guess then).
    cache.dir = match status {
        GjkStatus::Separated | GjkStatus::BeyondMargin => dir,
        GjkStatus::Intersecting => Vec3::ZERO,
        _ => v,
    };
    cache.hint_a = pair.hint_a;
    cache.hint_b = pair.hint_b;
    // The next query re-poses this simplex by the motion from this pose.
    cache.warm = WARM
        && matches!(
            status,
            GjkStatus::Converged
                | GjkStatus::Separated
                | GjkStatus::BeyondMargin
                | GjkStatus::Intersecting
        );
    cache.pose_ab = pair.pose_ab;
    out.upper = vv.sqrt();
    out.lower = lower.min_of(out.upper);
    // Near contact, the best proven plane's normal (`v`'s when it is that
    // plane, as on curved shapes).
    out.v = v;
    if status == GjkStatus::Converged && out.upper < near * scale {
        if let Some(m) = proof.try_normalize() {
            out.v = m * out.upper;
        }
    }
    if status != GjkStatus::Separated && status != GjkStatus::BeyondMargin {
        out.dir = dir;
    }
    out.scale = scale;
    out.iterations = k;
    out.status = status;
    out
}
