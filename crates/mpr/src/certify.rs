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

/// Budgets up to this many certification steps (the default,
/// [`DEFAULT_CERTIFY_STEPS`](crate::DEFAULT_CERTIFY_STEPS), among them) run
/// in the small polytope: [`CERTIFY_SMALL_VERTICES`] vertices and
/// [`CERTIFY_SMALL_FACES`] faces on the stack, 0.8 KB in `f32` and
/// 1.6 KB in `f64`, instead of the full polytope's 3.6 KB and 7.2 KB
/// ([`CERTIFY_MAX_VERTICES`] of 60 or 120 bytes, [`CERTIFY_MAX_FACES`] of
/// 20 or 40). Larger budgets run in the full one. The answer is the same.
pub const CERTIFY_SMALL_STEPS: u32 = 4;
/// Capacity of the small certifying polytope, in vertices.
pub const CERTIFY_SMALL_VERTICES: usize = CERTIFY_SMALL_STEPS as usize + 4;
/// Capacity of the small certifying polytope, in faces.
pub const CERTIFY_SMALL_FACES: usize = 2 * CERTIFY_SMALL_VERTICES;

const _: () = assert!(CERTIFY_SMALL_STEPS <= MAX_CERTIFY_STEPS);
const _: () = assert!(crate::DEFAULT_CERTIFY_STEPS <= CERTIFY_SMALL_STEPS);
const _: () = assert!(CERTIFY_SMALL_FACES >= 2 * CERTIFY_SMALL_VERTICES - 4);
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

impl<R: Real> Face<R> {
    /// A placeholder for an unused slot.
    const EMPTY: Self = Self {
        v: [0; 3],
        n: Vec3::ZERO,
        d: R::ZERO,
    };
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
    /// The answer of a face that replaces the input one (shallower, or on
    /// the boundary); `None` keeps the input answer.
    pub better: Option<Answer<R>>,
    /// The depth of the best answer (the input one or `better`), meters.
    pub depth: R,
    /// The proven lower bound of the depth (meters).
    pub lower: R,
    /// `true` when `lower` reached `depth` within the tolerance.
    pub certified: bool,
    /// Expansion steps taken.
    pub steps: u32,
}

/// Expands from the tetrahedron `tet` (unshifted points, holding the
/// origin) for at most `budget` steps, starting from the upper bound
/// `depth` (the depth of the answer to certify). `size` scales the
/// tolerance.
///
/// The polytope lives on the stack, sized for the budget: up to
/// [`CERTIFY_SMALL_STEPS`] steps (the default budget is within it) in
/// [`CERTIFY_SMALL_VERTICES`] vertices, more in the full
/// [`CERTIFY_MAX_VERTICES`]. Neither capacity can be reached within its
/// budget, so both give the same answer.
pub(crate) fn certify<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &mut Inflated<'_, '_, R, A, B, I>,
    tet: [Vertex<R>; 4],
    depth: R,
    size: R,
    budget: u32,
) -> Certified<R> {
    let budget = budget.min(MAX_CERTIFY_STEPS);
    if budget <= CERTIFY_SMALL_STEPS {
        certify_small(inf, tet, depth, size, budget)
    } else {
        certify_full(inf, tet, depth, size, budget)
    }
}

/// [`certify`] in the small polytope (a frame of its own, so the full
/// polytope's stack is not reserved when it is not used).
#[inline(never)]
fn certify_small<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &mut Inflated<'_, '_, R, A, B, I>,
    tet: [Vertex<R>; 4],
    depth: R,
    size: R,
    budget: u32,
) -> Certified<R> {
    let mut verts = [tet[0]; CERTIFY_SMALL_VERTICES];
    let mut faces = [Face::EMPTY; CERTIFY_SMALL_FACES];
    certify_in(inf, tet, depth, size, budget, &mut verts, &mut faces)
}

/// [`certify`] in the full polytope.
#[inline(never)]
fn certify_full<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &mut Inflated<'_, '_, R, A, B, I>,
    tet: [Vertex<R>; 4],
    depth: R,
    size: R,
    budget: u32,
) -> Certified<R> {
    let mut verts = [tet[0]; CERTIFY_MAX_VERTICES];
    let mut faces = [Face::EMPTY; CERTIFY_MAX_FACES];
    certify_in(inf, tet, depth, size, budget, &mut verts, &mut faces)
}

/// The expansion loop of [`certify`] in the given polytope buffers
/// (capacities `verts.len()`, `faces.len()`); compiled once per pair, not
/// once per capacity.
#[inline(never)]
fn certify_in<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    inf: &mut Inflated<'_, '_, R, A, B, I>,
    tet: [Vertex<R>; 4],
    depth: R,
    size: R,
    budget: u32,
    verts: &mut [Vertex<R>],
    faces: &mut [Face<R>],
) -> Certified<R> {
    inf.target = Vec3::ZERO;
    let tol = convergence_tolerance::<R>() * size * R::lit(4.0);
    let mut out = Certified {
        better: None,
        depth,
        lower: R::ZERO,
        certified: false,
        steps: 0,
    };
    verts[..4].copy_from_slice(&tet);
    let mut nv = 4;
    let mut nf = 0;
    for (i, j, k, o) in [
        (0u8, 1u8, 2u8, 3u8),
        (0, 3, 1, 2),
        (0, 2, 3, 1),
        (1, 3, 2, 0),
    ] {
        let Some(mut f) = make_face(verts, [i, j, k]) else {
            return out;
        };
        if f.n.dot(verts[o as usize].w - verts[i as usize].w) > R::ZERO {
            // The face `[i, k, j]`: swapping the edges of the cross product
            // negates it exactly, and so its unit normal and plane
            // distance, bit for bit.
            f = Face {
                v: [i, k, j],
                n: -f.n,
                d: -f.d,
            };
        }
        faces[nf] = f;
        nf += 1;
    }
    loop {
        // The nearest face: its distance is the lower bound.
        let Some(fi) = nearest(&faces[..nf]) else {
            return out;
        };
        let face = faces[fi];
        out.lower = out.lower.max_of(face.d);
        if face.d >= out.depth - tol {
            out.certified = true;
            return out;
        }
        if out.steps >= budget {
            return out;
        }
        out.steps += 1;
        let w = inf.support(face.n);
        let reach = face.n.dot(w.w);
        if reach < out.depth {
            out.better = Some(face_answer(inf, verts, &face, reach));
            out.depth = reach;
        }
        if reach - face.d <= tol {
            // The nearest face lies on the boundary: it is the minimum.
            out.lower = face.d;
            out.better = Some(face_answer(inf, verts, &face, reach));
            out.depth = reach;
            out.certified = true;
            return out;
        }
        if nv == verts.len() {
            return out;
        }
        verts[nv] = w;
        let new = nv as u8;
        nv += 1;
        if !expand(verts, faces, &mut nf, new, tol) {
            return out;
        }
    }
}

/// The face through three vertices with its unit normal (by the vertex
/// order) and plane distance; `None` when it has no normal.
#[cfg_attr(not(target_os = "none"), inline(always))]
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
    let [x, y, z] = face.v.map(|i| &verts[i as usize]);
    let (_, l) = closest_to_origin(x.w, y.w, z.w);
    let (p_a, p_b) = inf.mixed_witnesses([x, y, z], l);
    Answer {
        normal: face.n,
        depth,
        p_a,
        p_b,
    }
}

/// `faces[to] = faces[from]`, field by field. The two slots may be the
/// same, so the plain struct copy compiles to a `memmove` call, and the
/// whole `memmove` (1.5 KB of flash on a Cortex-M4F) would be linked
/// for this one 20-byte copy.
#[inline(always)]
fn move_face<R: Real>(faces: &mut [Face<R>], from: usize, to: usize) {
    let Face { v, n, d } = faces[from];
    let slot = &mut faces[to];
    slot.v = v;
    slot.n = n;
    slot.d = d;
}

/// Words of the directed-edge set of [`expand`]: one bit per ordered pair
/// of polytope vertices.
const EDGE_WORDS: usize = (CERTIFY_MAX_VERTICES * CERTIFY_MAX_VERTICES).div_ceil(64);

/// Removes the faces the new vertex sees and closes the hole with a fan
/// from the vertex to the horizon. `false` when a capacity is exceeded or
/// the polytope would stop holding the origin.
fn expand<R: Real>(
    verts: &[Vertex<R>],
    faces: &mut [Face<R>],
    nf: &mut usize,
    new: u8,
    tol: R,
) -> bool {
    let p = verts[new as usize].w;
    // The directed edges of the visible faces, in a list and as a set (bit
    // `a * stride + b` for the edge from `a` to `b`); a horizon edge is one
    // whose reverse is not among them.
    let stride = verts.len();
    let mut seen = [0u64; EDGE_WORDS];
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
                let (a, b) = (f.v[e], f.v[(e + 1) % 3]);
                edges[ne] = [a, b];
                ne += 1;
                let bit = a as usize * stride + b as usize;
                seen[bit / 64] |= 1 << (bit % 64);
            }
        }
    }
    if ne == 0 {
        return false;
    }
    // Drop the visible faces (swap-remove, keeping the flags in step).
    let mut i = 0;
    while i < *nf {
        if visible[i] {
            *nf -= 1;
            move_face(faces, *nf, i);
            visible[i] = visible[*nf];
        } else {
            i += 1;
        }
    }
    for &[a, b] in &edges[..ne] {
        let reverse = b as usize * stride + a as usize;
        if seen[reverse / 64] & (1 << (reverse % 64)) != 0 {
            continue; // inside the visible region, not on the horizon
        }
        if *nf == faces.len() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use mink_support::{Cuboid, Pair};
    use mink_testkit::{for_each_real, Rng};

    /// For every budget the small polytope holds, the small and the full
    /// polytope reach the same answer, bound, verdict and step count, on
    /// random deep box–box overlaps (the claim that lets [`certify`] pick
    /// the capacity by budget). Also checks that a budget of zero steps
    /// leaves the answer as given and that the bound never exceeds it.
    fn small_matches_full<R: Real>() {
        let mut rng = Rng::new(0x5eed_ce27);
        let dirs = [
            Vec3::new(R::ONE, R::ONE, R::ONE),
            Vec3::new(R::ONE, -R::ONE, -R::ONE),
            Vec3::new(-R::ONE, R::ONE, -R::ONE),
            Vec3::new(-R::ONE, -R::ONE, R::ONE),
        ];
        let (mut improved, mut bounded) = (0, 0);
        let cases = 300;
        for _ in 0..cases {
            let a = Cuboid::new(Vec3::new(
                rng.range(0.3, 1.0),
                rng.range(0.3, 1.0),
                rng.range(0.3, 1.0),
            ))
            .unwrap();
            let b = Cuboid::new(Vec3::new(
                rng.range(0.3, 1.0),
                rng.range(0.3, 1.0),
                rng.range(0.3, 1.0),
            ))
            .unwrap();
            let pose_a = rng.pose::<R>(0.1);
            let pose_b = rng.pose::<R>(0.1);
            let mut pair = Pair::new(&a, &pose_a, &b, &pose_b);
            let mut inf = Inflated::new(&mut pair);
            // Deep overlap (centres within 0.2 m, half-extents >= 0.3 m):
            // the supports along a regular tetrahedron's directions hold
            // the origin.
            let tet = dirs.map(|d| inf.support(d));
            let n = Vec3::X;
            let depth = inf.support(n).w.dot(n);
            let size = R::ONE;
            for budget in 0..=CERTIFY_SMALL_STEPS {
                let s = certify_small(&mut inf, tet, depth, size, budget);
                let f = certify_full(&mut inf, tet, depth, size, budget);
                assert_eq!(s.steps, f.steps);
                assert_eq!(s.certified, f.certified);
                assert_eq!(s.lower.to_f64().to_bits(), f.lower.to_f64().to_bits());
                assert_eq!(s.depth.to_f64().to_bits(), f.depth.to_f64().to_bits());
                let normal = |c: &Certified<R>| c.better.map_or(n, |a| a.normal);
                assert_eq!(normal(&s), normal(&f));
                // The depth reported is the better answer's, when there is one.
                if let Some(b) = s.better {
                    assert_eq!(b.depth.to_f64().to_bits(), s.depth.to_f64().to_bits());
                }
                assert!(s.steps <= budget);
                assert!(s.lower <= s.depth);
                assert!(s.depth <= depth);
                if budget == 0 {
                    assert_eq!(s.depth.to_f64(), depth.to_f64());
                }
                if budget == CERTIFY_SMALL_STEPS {
                    improved += usize::from(s.depth < depth);
                    bounded += usize::from(s.lower > R::ZERO);
                }
            }
        }
        // The sample means something: the expansion ran (a positive lower
        // bound: the tetrahedron held the origin) and found shallower
        // faces than the arbitrary first normal in some cases, not all.
        assert!(bounded > cases * 9 / 10, "{bounded} of {cases} bounded");
        assert!(
            improved > cases / 10 && improved < cases,
            "{improved} of {cases} improved"
        );
    }

    for_each_real!(small_polytope_matches_full, small_matches_full);
}
