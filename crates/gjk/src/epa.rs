//! EPA: penetration depth, normal and witnesses of overlapping cores.
//!
//! EPA grows a convex polytope inside the cores' difference `C = A ⊖ B`
//! (A's frame), starting from GJK's final simplex, always expanding the face
//! closest to the origin by the support point along its normal. The closest
//! face's plane distance `d` is a lower bound on the depth (the polytope is
//! inside `C`) and the support along its normal `h` an upper bound; EPA
//! stops when `h - d` is within the tolerance.
//!
//! GJK may end on a point, segment or triangle when the origin is on or near
//! it (touching, coplanar faces). The simplex is then grown to a
//! tetrahedron: a point gets a distinct second support along an axis, a
//! segment a third one off its line, a triangle the support on the origin's
//! side of its plane. When `C` has no extent on that side, the origin is on
//! `C`'s boundary: the cores touch and the depth is zero.
//!
//! The polytope lives in fixed arrays ([`Polytope`], in `epa/polytope.rs`);
//! a full buffer ends the expansion with [`EpaStatus::CapacityReached`].
//! Its closest face is then only a lower bound, far short on curved
//! differences (a point at a cylinder's centre sees a ring of equally deep
//! directions), so the answer comes from a descent on directions from the
//! best one tried (`epa/descent.rs`): the least overlap along a direction
//! it finds, an upper bound with a translation that clears the shapes. New faces come from the horizon: the
//! faces that see the new point are found by walking from the closest face
//! to its neighbours (so that faces coplanar with the point elsewhere, seen
//! within round-off, cannot split the horizon), and the edges from a seen
//! face to an unseen one form the horizon. It is computed before anything
//! is changed, so a query that runs out of room leaves a valid polytope
//! behind.

use crate::gjk::gjk_core;
use crate::{
    epa_tolerance, EpaStatus, GjkCache, GjkSettings, GjkStatus, Penetration, Simplex,
    MAX_EPA_ITERATIONS,
};
use mink_support::{Iso3, MinkowskiDiff, Real, Support, Vec3};

mod descent;
mod polytope;

use polytope::Face;
pub use polytope::{Polytope, EPA_DEFAULT_FACES, EPA_DEFAULT_VERTICES};

/// Vertex capacity of the first polytope [`penetration`] tries (about
/// 7.7 KB in f32): enough for every polytope pair of the benchmarks, so
/// that the default-capacity buffer (46 KB in f32, 67 KB in f64, cleared
/// before use) is only set up when a curved pair needs it.
pub const EPA_FIRST_VERTICES: usize = 64;

/// Penetration of two shapes: GJK, then EPA when the cores overlap, with
/// the default settings, world frame through `pose_a`.
///
/// EPA runs first in a polytope of [`EPA_FIRST_VERTICES`] vertices, and
/// again from GJK's simplex in a default-capacity [`Polytope`] only when
/// that one fills up, so the answer is the one a default-capacity polytope
/// gives. Both live on the stack (tens of KB: on a small stack, keep a
/// polytope of your own and use [`penetration_with`]).
pub fn penetration<R, A, B, const I: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
) -> Penetration<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let mut cache = GjkCache::default();
    let mut first: Polytope<R, EPA_FIRST_VERTICES, { 2 * EPA_FIRST_VERTICES - 4 }> =
        Polytope::new();
    let settings = GjkSettings::default();
    let p = penetration_in::<R, A, B, I, false, EPA_FIRST_VERTICES, { 2 * EPA_FIRST_VERTICES - 4 }>(
        pair, pose_a, &settings, &mut cache, &mut first,
    );
    if p.status != EpaStatus::CapacityReached {
        return p;
    }
    let mut full: Polytope<R> = Polytope::new();
    let mut r = epa(pair, pose_a, &cache.simplex, &mut full);
    r.iterations = r.iterations.saturating_add(p.iterations);
    r
}

/// Penetration of two shapes, world frame through `pose_a`: GJK with
/// `settings` (its stop mode is ignored: GJK runs to convergence),
/// warm-started from `cache`; then, when the cores overlap, EPA in `poly`.
///
/// When the cores are apart GJK's answer is exact and returned directly:
/// [`EpaStatus::Converged`] with a positive depth when the inflated shapes
/// overlap, [`EpaStatus::Separated`] with `depth = -distance` when they do
/// not. Non-finite input returns [`EpaStatus::NonFinite`].
pub fn penetration_with<R, A, B, const I: bool, const V: usize, const F: usize>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
    settings: &GjkSettings<R>,
    cache: &mut GjkCache<R, A::Hint, B::Hint>,
    poly: &mut Polytope<R, V, F>,
) -> Penetration<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    penetration_in::<R, A, B, I, true, V, F>(pair, pose_a, settings, cache, poly)
}

/// [`penetration_with`], its GJK warm-started from `cache`'s simplex only
/// when `WARM` (see `gjk_core`).
fn penetration_in<R, A, B, const I: bool, const WARM: bool, const V: usize, const F: usize>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
    settings: &GjkSettings<R>,
    cache: &mut GjkCache<R, A::Hint, B::Hint>,
    poly: &mut Polytope<R, V, F>,
) -> Penetration<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    if !pose_a.is_finite() {
        return Penetration::non_finite();
    }
    let settings = GjkSettings {
        stop: crate::Stop::Never,
        ..*settings
    };
    let core = gjk_core::<R, A, B, I, WARM>(pair, &settings, cache);
    if core.status == GjkStatus::NonFinite {
        return Penetration::non_finite();
    }
    if core.status == GjkStatus::Intersecting {
        let mut r = epa(pair, pose_a, &cache.simplex, poly);
        r.iterations += core.iterations;
        return r;
    }
    let d = crate::gjk::to_world(pair, pose_a, &core, &cache.simplex);
    let status = match d.status {
        GjkStatus::IterationLimit => EpaStatus::GjkFailed,
        _ if d.distance > R::ZERO => EpaStatus::Separated,
        _ => EpaStatus::Converged,
    };
    Penetration {
        depth: -d.distance,
        normal: d.normal,
        p_a: d.p_a,
        p_b: d.p_b,
        iterations: d.iterations,
        status,
    }
}

/// EPA from GJK's final `simplex` (take it from
/// [`GjkCache::simplex`] after a query that returned
/// [`GjkStatus::Intersecting`]): penetration depth (inflation included),
/// normal from A to B, and witnesses, world frame through `pose_a`.
///
/// `simplex` must hold points of `pair`'s cores' difference around the
/// origin; an empty one is started from a single support point. The result
/// never has NaN for finite input; see [`EpaStatus`] for each ending.
///
/// Besides `poly`, the query keeps both shapes' support hints for each of
/// its `V` vertices on the stack: nothing for primitives (their hint is
/// `()`), 8 bytes a vertex for two hulls (3 KB at the default capacity).
/// `pair`'s hints are left at those of the last support call.
pub fn epa<R, A, B, const I: bool, const V: usize, const F: usize>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
    simplex: &Simplex<R>,
    poly: &mut Polytope<R, V, F>,
) -> Penetration<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    if !pose_a.is_finite() || !pair.pose_ab.is_finite() || !pair.inflation().finite() {
        return Penetration::non_finite();
    }
    let rel_tol = epa_tolerance::<R>();
    let mut scale = R::min_positive_value();
    poly.clear();
    for i in 0..simplex.len() {
        if let Some(sp) = simplex.vertex(i) {
            scale = scale.max_of(sp.a.max_abs()).max_of(sp.b.max_abs());
            poly.push_vertex(&sp);
        }
    }
    if poly.nv == 0 {
        let sp = pair.support(Vec3::X);
        scale = scale.max_of(sp.a.max_abs()).max_of(sp.b.max_abs());
        poly.push_vertex(&sp);
    }
    let mut iterations = 0;
    if let Err(e) = grow_to_tetrahedron(pair, poly, rel_tol, &mut scale, &mut iterations) {
        return finish_flat(pair, pose_a, poly, e, iterations);
    }
    reseat_off_origin(pair, poly, rel_tol, &mut scale, &mut iterations);

    let mut status = EpaStatus::IterationLimit;
    let mut it = 0;
    // Each vertex's support hints: an expansion starts both shapes' searches
    // from those of the closest face's newest vertex (`v[2]` of a cone
    // face), found along a nearby direction. On the 200-vertex hull pair of
    // `cargo bench -p mink-benches --bench gjk` this brings the climbs'
    // start from about 4 edges away from the answer (the last call's hint)
    // to about 2.2; the best of the face's three vertices along the normal
    // did worse (2.9).
    let mut hints = [(A::Hint::default(), B::Hint::default()); V];
    for h in hints.iter_mut().take(poly.nv) {
        *h = (pair.hint_a, pair.hint_b);
    }
    // The lowest support height seen and its direction: an upper bound on
    // the depth, where a capped query's descent starts.
    let mut lowest = (R::INFINITY, Vec3::X);
    while it < MAX_EPA_ITERATIONS {
        it += 1;
        let best = poly.closest_face();
        let f = poly.face(best);
        if !f.d.finite() {
            status = EpaStatus::Degenerate;
            break;
        }
        if let Some(&(ha, hb)) = hints.get(f.v[2] as usize) {
            pair.hint_a = ha;
            pair.hint_b = hb;
        }
        let sp = pair.support(f.n);
        scale = scale.max_of(sp.a.max_abs()).max_of(sp.b.max_abs());
        let tol = rel_tol * scale;
        let height = f.n.dot(sp.w);
        if height < lowest.0 {
            lowest = (height, f.n);
        }
        let gain = height - f.d;
        if gain <= tol {
            status = EpaStatus::Converged;
            break;
        }
        // Replace the faces that see the new point, connected to the
        // closest one, by the cone from it over their horizon. Only faces
        // connected to the closest one are taken, so faces coplanar with
        // the point elsewhere (a flat cap seen within round-off) cannot
        // split the horizon into several loops.
        if let Err(e) = poly.expand(best, &sp, R::EPSILON * scale) {
            status = e;
            break;
        }
        if let Some(h) = hints.get_mut(poly.nv - 1) {
            *h = (pair.hint_a, pair.hint_b);
        }
    }
    let iterations = iterations + it;
    let (answer, off_face) = finish(pair, pose_a, poly, rel_tol * scale, status, iterations);
    let capped = matches!(
        status,
        EpaStatus::CapacityReached | EpaStatus::IterationLimit
    );
    if capped && lowest.0.finite() {
        descend_from(pair, pose_a, lowest.1, rel_tol, answer)
    } else if let Some(n) = off_face.filter(|_| status == EpaStatus::Converged) {
        // The closest face's plane is the depth's, but the origin's
        // projection lies outside it and outside every coplanar face: a
        // polytope made slightly concave by round-off (slivers along a
        // thin cylinder in f32), so the face's interpolated witnesses do
        // not face each other across `n`. The descent from `n` keeps the
        // depth within the tolerance and finds witnesses that do.
        descend_from(pair, pose_a, n, rel_tol, answer)
    } else {
        answer
    }
}

/// A capped query's answer: the polytope's closest face is only a lower
/// bound, so the direction is walked down to the least support height from
/// `start` (see `epa/descent.rs`), which is kept when finite: an upper
/// bound on the depth along which B's translation by `depth` clears A.
/// Also a converged answer whose face cannot give facing witnesses: from
/// its normal, the walk changes the depth by at most the tolerance.
fn descend_from<R, A, B, const I: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
    start: Vec3<R>,
    rel_tol: R,
    answer: Penetration<R>,
) -> Penetration<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let d = descent::descend(pair, start, rel_tol);
    if !(d.h.finite() && d.a.is_finite() && d.b.is_finite()) {
        return answer;
    }
    let (ra, rb) = (pair.a.inflation(), pair.b.inflation());
    Penetration {
        depth: d.h.max_of(R::ZERO) + ra + rb,
        normal: pose_a.transform_vector(d.n),
        p_a: pose_a.transform_point(d.a + d.n * ra),
        p_b: pose_a.transform_point(d.b - d.n * rb),
        iterations: answer.iterations.saturating_add(d.supports),
        status: answer.status,
    }
}

/// Why the simplex could not be grown to a tetrahedron.
#[derive(Clone, Copy, Debug)]
struct Flat<R> {
    /// A unit direction along which `C` has no extent past the origin: its
    /// outward normal at the origin when the origin is on its boundary
    /// (the cores touch), the normal of its plane when `C` is flat, any
    /// direction across its line when it is a segment, and any direction
    /// when it is a point.
    normal: Vec3<R>,
}

/// Grows the polytope's 1 to 4 vertices to a positively oriented
/// tetrahedron around the origin and makes its four faces.
fn grow_to_tetrahedron<R, A, B, const I: bool, const V: usize, const F: usize>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    poly: &mut Polytope<R, V, F>,
    rel_tol: R,
    scale: &mut R,
    iterations: &mut u32,
) -> Result<(), Flat<R>>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let mut probe = |pair: &mut MinkowskiDiff<'_, R, A, B, I>, d: Vec3<R>, sc: &mut R| {
        let sp = pair.support(d);
        *sc = sc.max_of(sp.a.max_abs()).max_of(sp.b.max_abs());
        *iterations += 1;
        sp
    };
    if poly.nv == 4 {
        let [p, q, r, s] = [poly.w[0], poly.w[1], poly.w[2], poly.w[3]];
        let vol = (q - p).dot((r - p).cross(s - p));
        let l2 = (q - p)
            .norm_squared()
            .max_of((r - p).norm_squared())
            .max_of((s - p).norm_squared());
        if vol.abs() <= R::EPSILON * l2 * l2.sqrt() {
            poly.nv = 3;
        }
    }
    if poly.nv == 1 {
        let w0 = poly.w[0];
        for d in [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z] {
            let sp = probe(pair, d, scale);
            if (sp.w - w0).norm() > rel_tol * *scale {
                poly.push_vertex(&sp);
                break;
            }
        }
        if poly.nv == 1 {
            return Err(Flat { normal: Vec3::X });
        }
    }
    if poly.nv == 2 {
        let (w0, w1) = (poly.w[0], poly.w[1]);
        let line = w1 - w0;
        let len = line.norm();
        let e = line.any_orthonormal();
        let f = (line / len).cross(e);
        for d in [e, f, -e, -f] {
            let sp = probe(pair, d, scale);
            if (sp.w - w0).cross(line).norm() > rel_tol * *scale * len {
                poly.push_vertex(&sp);
                break;
            }
        }
        if poly.nv == 2 {
            // `C` is a segment through the origin: its two ends (so that
            // the witnesses can be interpolated at the origin), and any
            // direction across it.
            let dir = line / len;
            let (hi, lo) = (probe(pair, dir, scale), probe(pair, -dir, scale));
            poly.nv = 0;
            poly.push_vertex(&hi);
            poly.push_vertex(&lo);
            return Err(Flat { normal: e });
        }
    }
    if poly.nv == 3 {
        let (w0, w1, w2) = (poly.w[0], poly.w[1], poly.w[2]);
        let Some(n) = (w1 - w0).cross(w2 - w0).try_normalize() else {
            // Three points on a line, within round-off: any direction
            // across it (the witnesses come from the closest point of the
            // three to the origin).
            return Err(Flat {
                normal: (w1 - w0).any_orthonormal(),
            });
        };
        // Towards the origin's side of the plane first.
        let s = if n.dot(w0) > R::ZERO { -n } else { n };
        let sp = probe(pair, s, scale);
        if s.dot(sp.w - w0) > rel_tol * *scale {
            poly.push_vertex(&sp);
        } else {
            let sp2 = probe(pair, -s, scale);
            if (-s).dot(sp2.w - w0) > rel_tol * *scale {
                // C lies on the far side of the plane, which holds the
                // origin: the cores touch, with C's outward normal s.
                return Err(Flat { normal: s });
            }
            // `C` is flat, in the plane of the three points.
            return Err(Flat { normal: s });
        }
    }
    poly.tetrahedron();
    Ok(())
}

/// The four directions of a regular tetrahedron's vertices (unnormalized:
/// support directions need no unit length).
const TETRAHEDRAL: [[f64; 3]; 4] = [
    [1.0, 1.0, 1.0],
    [1.0, -1.0, -1.0],
    [-1.0, 1.0, -1.0],
    [-1.0, -1.0, 1.0],
];

/// Replaces a starting tetrahedron with the origin on its boundary by the
/// difference's support points along [`TETRAHEDRAL`], when those hold the
/// origin strictly inside (all faces farther than the tolerance).
///
/// GJK may end on a simplex with the origin on a face or an edge although
/// the cores overlap deeply (a point at a cylinder's centre: support
/// points along symmetric directions are antipodal, and the segment
/// between two of them passes through the centre). A face through the
/// origin is the closest, and expanding it never removes an edge through
/// the origin: every new face on that edge passes through it again, so
/// EPA's lower bound stays at zero until the polytope is full. When the
/// tetrahedral supports do not contain the origin strictly (it is on
/// `C`'s boundary: the cores touch), the polytope is left as it is.
fn reseat_off_origin<R, A, B, const I: bool, const V: usize, const F: usize>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
    poly: &mut Polytope<R, V, F>,
    rel_tol: R,
    scale: &mut R,
    iterations: &mut u32,
) where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let tol = rel_tol * *scale;
    let nearest = |p: &Polytope<R, V, F>| p.face(p.closest_face()).d;
    if !(nearest(poly) <= tol) || V < 4 {
        return;
    }
    let sp = TETRAHEDRAL.map(|[x, y, z]| {
        *iterations += 1;
        pair.support(Vec3::new(R::lit(x), R::lit(y), R::lit(z)))
    });
    // Outward normals of the tetrahedron's faces (positively oriented),
    // each face's distance from the origin along its normal.
    let [p0, p1, p2, p3] = sp.map(|s| s.w);
    let volume = (p1 - p0).dot((p2 - p0).cross(p3 - p0));
    let (q1, q2) = if volume < R::ZERO { (p2, p1) } else { (p1, p2) };
    let faces = [[p0, q2, q1], [p0, q1, p3], [p0, p3, q2], [q1, q2, p3]];
    let inside = faces.iter().all(|[a, b, c]| {
        (*b - *a)
            .cross(*c - *a)
            .try_normalize()
            .is_some_and(|n| n.dot(*a) > tol)
    });
    if !inside {
        return;
    }
    poly.clear();
    for s in &sp {
        *scale = scale.max_of(s.a.max_abs()).max_of(s.b.max_abs());
        poly.push_vertex(s);
    }
    poly.tetrahedron();
}

/// Two faces whose unit normals' dot product is within this many `ε` of 1
/// are coplanar for the witness choice (normals of coplanar triangles,
/// computed from cross products, agree to a few `ε`).
const COPLANAR_ULPS: f64 = 1024.0;

/// Barycentric coordinates (unnormalized signed areas) of `p` in face
/// `f`'s triangle, seen along its normal.
#[inline]
fn face_coords<R: Real, const V: usize, const F: usize>(
    poly: &Polytope<R, V, F>,
    f: &Face<R>,
    p: Vec3<R>,
) -> [R; 3] {
    let [w0, w1, w2] = f.v.map(|i| poly.vw(i));
    [
        f.n.dot((w1 - p).cross(w2 - p)),
        f.n.dot((w2 - p).cross(w0 - p)),
        f.n.dot((w0 - p).cross(w1 - p)),
    ]
}

/// The answer from the closest face, world frame, and the face's unit
/// normal (A's frame) when the origin's projection on it lies outside it
/// by more than `tol`, so that the witnesses, interpolated at the nearest
/// point of the face, do not face each other across the normal.
///
/// Coplanar faces (a flat part of `A ⊖ B` split into triangles) tie on
/// distance within round-off; the origin's projection lies in only one of
/// them, and that one gives the witnesses. So when the projection falls
/// outside the closest face, the coplanar face (same normal, distance
/// within `tol`) that holds it best is used instead.
fn finish<R, A, B, const I: bool, const V: usize, const F: usize>(
    pair: &MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
    poly: &Polytope<R, V, F>,
    tol: R,
    status: EpaStatus,
    iterations: u32,
) -> (Penetration<R>, Option<Vec3<R>>)
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let closest = poly.closest_face();
    let mut best = closest;
    let c = poly.face(closest);
    if c.d.finite() {
        let score = |f: &Face<R>| {
            let k = face_coords(poly, f, c.n * c.d);
            let sum = k[0] + k[1] + k[2];
            if sum > R::ZERO {
                k[0].min_of(k[1]).min_of(k[2]) / sum
            } else {
                -R::INFINITY
            }
        };
        let mut best_score = score(&c);
        if best_score < R::ZERO {
            // Coplanar neighbours: same plane within round-off.
            let parallel = R::ONE - R::EPSILON * R::lit(COPLANAR_ULPS);
            for (i, f) in poly.slots().iter().enumerate() {
                if (f.d - c.d).abs() <= tol && f.n.dot(c.n) >= parallel {
                    let sc = score(f);
                    if sc > best_score {
                        best_score = sc;
                        best = i;
                    }
                }
            }
        }
    }
    let f = poly.face(best);
    let n = f.n.try_normalize().unwrap_or(Vec3::X);
    let d = if f.d.finite() {
        f.d.max_of(R::ZERO)
    } else {
        R::ZERO
    };
    // Barycentric coordinates of the origin's projection d n, clamped (it
    // lies inside the chosen face up to round-off).
    let c = face_coords(poly, &f, n * d).map(|x| x.max_of(R::ZERO));
    let sum = c[0] + c[1] + c[2];
    let lambda = if sum > R::ZERO {
        c.map(|x| x / sum)
    } else {
        [R::ONE, R::ZERO, R::ZERO]
    };
    let idx = f.v.map(|i| (i as usize).min(V - 1));
    let mut pa = Vec3::ZERO;
    let mut v = Vec3::ZERO;
    for k in 0..3 {
        pa += poly.a[idx[k]] * lambda[k];
        v += poly.w[idx[k]] * lambda[k];
    }
    let pb = pa - v;
    let off_face = ((v - n * d).norm() > tol).then_some(n);
    let (ra, rb) = (pair.a.inflation(), pair.b.inflation());
    let answer = Penetration {
        depth: d + ra + rb,
        normal: pose_a.transform_vector(n),
        p_a: pose_a.transform_point(pa + n * ra),
        p_b: pose_a.transform_point(pb - n * rb),
        iterations,
        status,
    };
    (answer, off_face)
}

/// The answer when the difference is flat or the origin on its boundary:
/// the cores touch, so the depth is the inflation, along `flat.normal`.
/// The witnesses are the point of the polytope's (at most three) vertices
/// nearest the origin, spread back to A and B: exact when it is the
/// origin ([`EpaStatus::Converged`]), else [`EpaStatus::Degenerate`].
fn finish_flat<R, A, B, const I: bool, const V: usize, const F: usize>(
    pair: &MinkowskiDiff<'_, R, A, B, I>,
    pose_a: &Iso3<R>,
    poly: &Polytope<R, V, F>,
    flat: Flat<R>,
    iterations: u32,
) -> Penetration<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let mut simplex = Simplex::new();
    let mut scale = R::min_positive_value();
    for i in 0..poly.nv.min(V).min(3) {
        simplex.push(poly.w[i], poly.a[i]);
        scale = scale.max_of(poly.w[i].max_abs());
    }
    let closest = simplex.reduce();
    let (pa, pb) = simplex.witnesses();
    let n = flat.normal.normalize_or(Vec3::X);
    let exact = closest.v.norm() <= epa_tolerance::<R>() * scale;
    let status = if exact {
        EpaStatus::Converged
    } else {
        EpaStatus::Degenerate
    };
    let (ra, rb) = (pair.a.inflation(), pair.b.inflation());
    Penetration {
        depth: ra + rb,
        normal: pose_a.transform_vector(n),
        p_a: pose_a.transform_point(pa + n * ra),
        p_b: pose_a.transform_point(pb - n * rb),
        iterations,
        status,
    }
}
