//! Certifying MPR's answer (or improving it) with a few steps of polytope
//! expansion, EPA-style, started from MPR's last tetrahedron.
//!
//! MPR's depth `h` along its normal is an upper bound of the true depth
//! (it is a translation that separates the shapes). The tetrahedron of the
//! last pass (interior point plus portal) lies inside the difference and
//! holds the origin, so the distance from the origin to its nearest face is
//! a lower bound. Expanding the polytope at its nearest face (the support
//! along that face's normal becomes a new vertex, the faces it sees are
//! replaced by a fan to their horizon) raises the lower bound; each support
//! also gives a new upper bound. When the lower bound reaches the upper one
//! within the tolerance, the answer is the global minimum: certified.
//!
//! Fixed capacities ([`CERTIFY_MAX_VERTICES`], [`CERTIFY_MAX_FACES`]) and a
//! step budget; running out of either leaves the answer uncertified (the
//! caller sees [`MprStatus::Unverified`](crate::MprStatus) and the lower
//! bound).

use crate::inflated::{Inflated, Vertex};
use crate::limits::{convergence_tolerance, MAX_CERTIFY_STEPS};
use crate::triangle::closest_to_origin;
use mink_support::{Real, Support, Vec3};

/// Capacity of the certifying polytope, in vertices (the tetrahedron's 4
/// plus one per step).
pub const CERTIFY_MAX_VERTICES: usize = MAX_CERTIFY_STEPS as usize + 4;
/// Capacity of the certifying polytope, in faces. A closed triangulated
/// polytope of `V` vertices has `2V - 4` faces; the margin absorbs the
/// transient faces of one expansion.
pub const CERTIFY_MAX_FACES: usize = 2 * CERTIFY_MAX_VERTICES;

const _: () = assert!(CERTIFY_MAX_FACES >= 2 * CERTIFY_MAX_VERTICES - 4);
const _: () = assert!(CERTIFY_MAX_VERTICES <= u8::MAX as usize);

/// Barycentric coordinates of `p` in the tetrahedron `t`, or `None` when it
/// is flat.
pub(crate) fn tetra_barycentric<R: Real>(p: Vec3<R>, t: [Vec3<R>; 4]) -> Option<[R; 4]> {
    let vol = |a: Vec3<R>, b: Vec3<R>, c: Vec3<R>, d: Vec3<R>| (b - a).cross(c - a).dot(d - a);
    let total = vol(t[0], t[1], t[2], t[3]);
    if total.abs() <= R::ZERO || !total.finite() {
        return None;
    }
    let l0 = vol(p, t[1], t[2], t[3]) / total;
    let l1 = vol(t[0], p, t[2], t[3]) / total;
    let l2 = vol(t[0], t[1], p, t[3]) / total;
    Some([l0, l1, l2, R::ONE - l0 - l1 - l2])
}

#[derive(Clone, Copy, Debug)]
struct Face<R> {
    v: [u8; 3],
    /// Unit outward normal.
    n: Vec3<R>,
    /// Distance of the face's plane from the origin (meters, >= 0 inside).
    d: R,
}

/// An answer in A's frame: unit normal, depth, witnesses on A and B.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Answer<R> {
    pub normal: Vec3<R>,
    pub depth: R,
    pub p_a: Vec3<R>,
    pub p_b: Vec3<R>,
}

/// What certification concluded.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Certified<R> {
    /// The best answer (the input one or a shallower one found).
    pub answer: Answer<R>,
    /// The proven lower bound of the depth (meters).
    pub lower: R,
    /// `true` when `lower` reached `answer.depth` within the tolerance.
    pub certified: bool,
    /// Expansion steps taken.
    pub steps: u32,
}

/// Expands from the tetrahedron `tet` (unshifted points, holding the
/// origin) for at most `budget` steps, starting from the upper bound
/// `best`. `size` scales the tolerance.
pub(crate) fn certify<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &mut Inflated<'_, '_, R, A, B, I>,
    tet: [Vertex<R>; 4],
    best: Answer<R>,
    size: R,
    budget: u32,
) -> Certified<R> {
    inf.target = Vec3::ZERO;
    let tol = convergence_tolerance::<R>() * size * R::lit(4.0);
    let mut out = Certified {
        answer: best,
        lower: R::ZERO,
        certified: false,
        steps: 0,
    };
    let mut verts = [tet[0]; CERTIFY_MAX_VERTICES];
    verts[..4].copy_from_slice(&tet);
    let mut nv = 4;
    let mut faces = [Face {
        v: [0; 3],
        n: Vec3::ZERO,
        d: R::ZERO,
    }; CERTIFY_MAX_FACES];
    let mut nf = 0;
    for (i, j, k, o) in [
        (0u8, 1u8, 2u8, 3u8),
        (0, 3, 1, 2),
        (0, 2, 3, 1),
        (1, 3, 2, 0),
    ] {
        let Some(mut f) = make_face(&verts, [i, j, k]) else {
            return out;
        };
        if f.n.dot(verts[o as usize].w - verts[i as usize].w) > R::ZERO {
            f = match make_face(&verts, [i, k, j]) {
                Some(f) => f,
                None => return out,
            };
        }
        faces[nf] = f;
        nf += 1;
    }
    let budget = budget.min(MAX_CERTIFY_STEPS);
    loop {
        // The nearest face: its distance is the lower bound.
        let Some(fi) = nearest(&faces[..nf]) else {
            return out;
        };
        let face = faces[fi];
        out.lower = out.lower.max_of(face.d);
        if face.d >= out.answer.depth - tol {
            out.certified = true;
            return out;
        }
        if out.steps >= budget {
            return out;
        }
        out.steps += 1;
        let w = inf.support(face.n);
        let reach = face.n.dot(w.w);
        if reach < out.answer.depth {
            out.answer = face_answer(inf, &verts, &face, reach);
        }
        if reach - face.d <= tol {
            // The nearest face lies on the boundary: it is the minimum.
            out.lower = face.d;
            out.answer = face_answer(inf, &verts, &face, reach);
            out.certified = true;
            return out;
        }
        if nv == CERTIFY_MAX_VERTICES {
            return out;
        }
        verts[nv] = w;
        let new = nv as u8;
        nv += 1;
        if !expand(&verts, &mut faces, &mut nf, new, tol) {
            return out;
        }
    }
}

/// The face through three vertices with its unit normal (by the vertex
/// order) and plane distance; `None` when it has no normal.
fn make_face<R: Real>(verts: &[Vertex<R>], v: [u8; 3]) -> Option<Face<R>> {
    let a = verts[v[0] as usize].w;
    let b = verts[v[1] as usize].w;
    let c = verts[v[2] as usize].w;
    let n = (b - a).cross(c - a).try_normalize()?;
    Some(Face { v, n, d: n.dot(a) })
}

fn nearest<R: Real>(faces: &[Face<R>]) -> Option<usize> {
    let mut best = None;
    let mut d = R::INFINITY;
    for (i, f) in faces.iter().enumerate() {
        if f.d < d {
            d = f.d;
            best = Some(i);
        }
    }
    best
}

/// The answer along a face's normal with the support reach `depth`:
/// witnesses from the origin's closest point on the face.
fn face_answer<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &Inflated<'_, '_, R, A, B, I>,
    verts: &[Vertex<R>],
    face: &Face<R>,
    depth: R,
) -> Answer<R> {
    let [x, y, z] = face.v.map(|i| verts[i as usize]);
    let (_, l) = closest_to_origin(x.w, y.w, z.w);
    let (a1, b1) = inf.witnesses(&x);
    let (a2, b2) = inf.witnesses(&y);
    let (a3, b3) = inf.witnesses(&z);
    Answer {
        normal: face.n,
        depth,
        p_a: a1 * l[0] + a2 * l[1] + a3 * l[2],
        p_b: b1 * l[0] + b2 * l[1] + b3 * l[2],
    }
}

/// Removes the faces the new vertex sees and closes the hole with a fan
/// from the vertex to the horizon. `false` when a capacity is exceeded or
/// the polytope would stop holding the origin.
fn expand<R: Real>(
    verts: &[Vertex<R>],
    faces: &mut [Face<R>; CERTIFY_MAX_FACES],
    nf: &mut usize,
    new: u8,
    tol: R,
) -> bool {
    let p = verts[new as usize].w;
    // The directed edges of the visible faces; a horizon edge is one whose
    // reverse is not among them.
    let mut edges = [[0u8; 2]; CERTIFY_MAX_FACES];
    let mut ne = 0;
    let mut visible = [false; CERTIFY_MAX_FACES];
    for i in 0..*nf {
        let f = &faces[i];
        if f.n.dot(p - verts[f.v[0] as usize].w) > tol / R::lit(16.0) {
            visible[i] = true;
            for e in 0..3 {
                if ne == edges.len() {
                    return false;
                }
                edges[ne] = [f.v[e], f.v[(e + 1) % 3]];
                ne += 1;
            }
        }
    }
    if ne == 0 {
        return false;
    }
    let mut horizon = [[0u8; 2]; CERTIFY_MAX_FACES];
    let mut nh = 0;
    for &[a, b] in &edges[..ne] {
        if !edges[..ne].iter().any(|&[c, d]| c == b && d == a) {
            horizon[nh] = [a, b];
            nh += 1;
        }
    }
    // Drop the visible faces (swap-remove, keeping the flags in step).
    let mut i = 0;
    while i < *nf {
        if visible[i] {
            *nf -= 1;
            faces[i] = faces[*nf];
            visible[i] = visible[*nf];
        } else {
            i += 1;
        }
    }
    for &[a, b] in &horizon[..nh] {
        if *nf == CERTIFY_MAX_FACES {
            return false;
        }
        let Some(f) = make_face(verts, [a, b, new]) else {
            return false;
        };
        if f.d < -tol {
            return false;
        }
        faces[*nf] = f;
        *nf += 1;
    }
    true
}
