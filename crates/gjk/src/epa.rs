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
//! The polytope lives in fixed arrays ([`Polytope`]); a full buffer ends
//! the query with the best answer so far and [`EpaStatus::CapacityReached`].
//! New faces come from the horizon: the faces that see the new point are
//! flooded from the closest face across shared edges (so that faces
//! coplanar with the point elsewhere, seen within round-off, cannot split
//! the horizon), and the edges from a seen face to an unseen one form the
//! horizon. It is computed before anything is changed, so a query that runs
//! out of room leaves a valid polytope behind.

use crate::gjk::gjk_core;
use crate::{
    epa_tolerance, EpaStatus, GjkCache, GjkSettings, GjkStatus, Penetration, Simplex,
    MAX_EPA_ITERATIONS,
};
use mink_support::{Iso3, MinkowskiDiff, Real, Support, SupportPoint, Vec3};

/// Default vertex capacity of a [`Polytope`]: enough for the default
/// tolerance on deep contacts of curved shapes (an ellipsoid 1.2 m deep in
/// another needs over 256); polytope pairs use a few dozen.
pub const EPA_DEFAULT_VERTICES: usize = 384;
/// Default face capacity of a [`Polytope`] (a closed triangulated polytope
/// with `V` vertices has `2V - 4` faces).
pub const EPA_DEFAULT_FACES: usize = 2 * EPA_DEFAULT_VERTICES - 4;

/// A face of the polytope: three vertex indices, counter-clockwise seen from
/// outside, its outward unit normal and its plane's distance to the origin.
#[derive(Clone, Copy, Debug, Default)]
struct Face<R> {
    v: [u16; 3],
    n: Vec3<R>,
    d: R,
    /// Marked as seeing the point being added (then removed).
    seen: bool,
}

/// The EPA polytope's storage: `V` vertices and `F` faces in fixed arrays
/// (no allocation). Build one with [`Polytope::new`] and reuse it across
/// queries; the defaults take about 32 KB in f32 and 53 KB in f64 (keep
/// one per thread, or pick smaller capacities on a microcontroller: EPA
/// then stops earlier on curved shapes, with [`EpaStatus::CapacityReached`]).
///
/// Size with `F = 2V - 4`: about `84 V` bytes in f32 and `140 V` in f64
/// (24 or 48 per vertex, 30 or 46 per face), so `Polytope<f32, 32, 60>`
/// takes about 2.6 KB and `Polytope<f32, 48, 92>` about 3.9 KB: polytope
/// pairs rarely need more than a few dozen vertices.
///
/// `V` must be at least 4, at most 65535, and `F >= 2V - 4` (checked at
/// compile time when [`Polytope::new`] is instantiated).
#[derive(Clone, Debug)]
pub struct Polytope<R, const V: usize = EPA_DEFAULT_VERTICES, const F: usize = EPA_DEFAULT_FACES> {
    w: [Vec3<R>; V],
    a: [Vec3<R>; V],
    nv: usize,
    faces: [Face<R>; F],
    nf: usize,
    edges: [[u16; 2]; F],
    stack: [u16; F],
}

impl<R: Real, const V: usize, const F: usize> Default for Polytope<R, V, F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Real, const V: usize, const F: usize> Polytope<R, V, F> {
    const CAPACITY_OK: () = assert!(V >= 4 && V <= u16::MAX as usize && F + 4 >= 2 * V);

    /// An empty polytope buffer.
    pub fn new() -> Self {
        let () = Self::CAPACITY_OK;
        Self {
            w: [Vec3::ZERO; V],
            a: [Vec3::ZERO; V],
            nv: 0,
            faces: [Face::default(); F],
            nf: 0,
            edges: [[0; 2]; F],
            stack: [0; F],
        }
    }

    /// Number of vertices of the polytope built by the last query.
    pub fn vertex_count(&self) -> usize {
        self.nv
    }

    /// Number of faces of the polytope built by the last query.
    pub fn face_count(&self) -> usize {
        self.nf
    }

    #[inline(always)]
    fn push_vertex(&mut self, sp: &SupportPoint<R>) -> Option<u16> {
        if self.nv >= V {
            return None;
        }
        let i = self.nv;
        self.w[i] = sp.w;
        self.a[i] = sp.a;
        self.nv += 1;
        Some(i as u16)
    }

    #[inline(always)]
    fn vw(&self, i: u16) -> Vec3<R> {
        self.w.get(i as usize).copied().unwrap_or(Vec3::ZERO)
    }

    /// Adds face `(i, j, k)`; a face too thin to have a normal gets an
    /// infinite distance, so it is never expanded nor seen.
    #[inline(always)]
    fn push_face(&mut self, i: u16, j: u16, k: u16) -> bool {
        if self.nf >= F {
            return false;
        }
        let (p, q, r) = (self.vw(i), self.vw(j), self.vw(k));
        let n = (q - p).cross(r - p);
        let face = match n.try_normalize() {
            Some(n) => Face {
                v: [i, j, k],
                n,
                d: n.dot(p),
                seen: false,
            },
            None => Face {
                v: [i, j, k],
                n: Vec3::ZERO,
                d: R::INFINITY,
                seen: false,
            },
        };
        self.faces[self.nf] = face;
        self.nf += 1;
        true
    }

    /// The face holding the directed edge `(i, j)`, if any.
    #[inline(always)]
    fn face_with_edge(&self, i: u16, j: u16) -> Option<usize> {
        self.faces[..self.nf].iter().position(|f| {
            let [a, b, c] = f.v;
            (a == i && b == j) || (b == i && c == j) || (c == i && a == j)
        })
    }

    /// Marks (`seen`) the faces that see `w` (beyond their plane by more
    /// than `eps`) and are connected to face `start` through seen faces,
    /// and stores the horizon (edges from a seen face to an unseen one,
    /// in the seen face's orientation) in `edges`. Returns the number of
    /// seen faces and of horizon edges, or `None` when a buffer is full.
    fn flood_visible(&mut self, start: usize, w: Vec3<R>, eps: R) -> Option<(usize, usize)> {
        let mut top = 0;
        let mut seen = 0;
        let mut ne = 0;
        self.faces.get_mut(start)?.seen = true;
        self.stack[0] = start as u16;
        top += 1;
        seen += 1;
        while top > 0 {
            top -= 1;
            let f = self.faces[self.stack[top] as usize];
            for (i, j) in [(f.v[0], f.v[1]), (f.v[1], f.v[2]), (f.v[2], f.v[0])] {
                let g = self.face_with_edge(j, i);
                let sees = g.map(|g| {
                    let h = self.faces[g];
                    (h.seen, h.n.dot(w - self.vw(h.v[0])) > eps)
                });
                match (g, sees) {
                    (_, Some((true, _))) => {}
                    (Some(g), Some((false, true))) => {
                        self.faces[g].seen = true;
                        seen += 1;
                        *self.stack.get_mut(top)? = g as u16;
                        top += 1;
                    }
                    _ => {
                        *self.edges.get_mut(ne)? = [i, j];
                        ne += 1;
                    }
                }
            }
        }
        Some((seen, ne))
    }

    /// Index of the face closest to the origin.
    #[inline(always)]
    fn closest_face(&self) -> usize {
        let mut best = 0;
        let mut best_d = R::INFINITY;
        for (i, f) in self.faces[..self.nf].iter().enumerate() {
            if f.d < best_d {
                best_d = f.d;
                best = i;
            }
        }
        best
    }
}

/// Penetration of two shapes: GJK, then EPA when the cores overlap, with
/// the default settings and a default-capacity [`Polytope`] on the stack
/// (tens of KB: on a small stack, or to avoid re-initializing it on every
/// call, keep one and use [`penetration_with`]). World frame through
/// `pose_a`.
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
    let mut poly: Polytope<R> = Polytope::new();
    penetration_with(pair, pose_a, &GjkSettings::default(), &mut cache, &mut poly)
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
    if !pose_a.is_finite() {
        return Penetration::non_finite();
    }
    let settings = GjkSettings {
        stop: crate::Stop::Never,
        ..*settings
    };
    let core = gjk_core(pair, &settings, cache);
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
    poly.nv = 0;
    poly.nf = 0;
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

    let mut status = EpaStatus::IterationLimit;
    let mut it = 0;
    while it < MAX_EPA_ITERATIONS {
        it += 1;
        let best = poly.closest_face();
        let f = poly.faces[best];
        if !f.d.finite() {
            status = EpaStatus::Degenerate;
            break;
        }
        let sp = pair.support(f.n);
        scale = scale.max_of(sp.a.max_abs()).max_of(sp.b.max_abs());
        let tol = rel_tol * scale;
        let gain = f.n.dot(sp.w) - f.d;
        if gain <= tol {
            status = EpaStatus::Converged;
            break;
        }
        if poly.nv >= V {
            status = EpaStatus::CapacityReached;
            break;
        }
        // Pass 1: flood the faces that see the new point, from the closest
        // one across shared edges, collecting the horizon. Only faces
        // connected to the closest one are taken, so faces coplanar with the
        // point elsewhere (a flat cap seen within round-off) cannot split
        // the horizon into several loops.
        let eps = R::EPSILON * scale;
        let Some(horizon) = poly.flood_visible(best, sp.w, eps) else {
            status = EpaStatus::CapacityReached;
            break;
        };
        let (visible, ne) = horizon;
        if poly.nf - visible + ne > F {
            status = EpaStatus::CapacityReached;
            break;
        }
        // Pass 2: replace the visible faces by the horizon's cone.
        let Some(iw) = poly.push_vertex(&sp) else {
            status = EpaStatus::CapacityReached;
            break;
        };
        let mut j = 0;
        while j < poly.nf {
            if poly.faces[j].seen {
                poly.nf -= 1;
                poly.faces[j] = poly.faces[poly.nf];
            } else {
                j += 1;
            }
        }
        for e in 0..ne {
            let [p, q] = poly.edges[e];
            poly.push_face(p, q, iw);
        }
        if poly.nf == 0 {
            status = EpaStatus::Degenerate;
            break;
        }
    }
    finish(pair, pose_a, poly, rel_tol * scale, status, iterations + it)
}

/// Why the simplex could not be grown to a tetrahedron.
#[derive(Clone, Copy, Debug)]
struct Flat<R> {
    /// The outward normal of `C` at the origin, when the origin is on its
    /// boundary (the cores touch); zero when `C` itself is flat.
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
    let flat = Flat { normal: Vec3::ZERO };
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
            return Err(flat);
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
            return Err(flat);
        }
    }
    if poly.nv == 3 {
        let (w0, w1, w2) = (poly.w[0], poly.w[1], poly.w[2]);
        let Some(n) = (w1 - w0).cross(w2 - w0).try_normalize() else {
            return Err(flat);
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
            return Err(flat);
        }
    }
    // Orient positively: det(w1 - w0, w2 - w0, w3 - w0) > 0.
    let [p, q, r, s] = [poly.w[0], poly.w[1], poly.w[2], poly.w[3]];
    if (q - p).dot((r - p).cross(s - p)) < R::ZERO {
        poly.w.swap(1, 2);
        poly.a.swap(1, 2);
    }
    poly.nf = 0;
    // With positive volume, face (0,1,2) seen from 3 is clockwise: these are
    // the outward (counter-clockwise from outside) orders.
    poly.push_face(0, 2, 1);
    poly.push_face(0, 1, 3);
    poly.push_face(0, 3, 2);
    poly.push_face(1, 2, 3);
    Ok(())
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

/// The answer from the closest face, world frame.
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
) -> Penetration<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let closest = poly.closest_face();
    let mut best = closest;
    if let Some(c) = poly.faces.get(closest).copied() {
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
            for (i, f) in poly.faces[..poly.nf].iter().enumerate() {
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
    let f = poly.faces.get(best).copied().unwrap_or_default();
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
    let (ra, rb) = (pair.a.inflation(), pair.b.inflation());
    Penetration {
        depth: d + ra + rb,
        normal: pose_a.transform_vector(n),
        p_a: pose_a.transform_point(pa + n * ra),
        p_b: pose_a.transform_point(pb - n * rb),
        iterations,
        status,
    }
}

/// The answer when the difference is flat or the origin on its boundary:
/// the cores touch, so the depth is the inflation.
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
    // The vertex closest to the origin gives the witnesses.
    let mut best = 0;
    for i in 1..poly.nv.min(V) {
        if poly.w[i].norm_squared() < poly.w[best].norm_squared() {
            best = i;
        }
    }
    let (n, status) = match flat.normal.try_normalize() {
        Some(n) => (n, EpaStatus::Converged),
        None => ((-poly.w[best]).normalize_or(Vec3::X), EpaStatus::Degenerate),
    };
    let pa = poly.a[best];
    let pb = pa - poly.w[best];
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
