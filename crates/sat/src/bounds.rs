//! The culling bounds of one hull's faces, kept for its edges.
//!
//! For a face `f` of hull H (plane `n·x = offset`, H's frame) and the other
//! hull O, two upper bounds on how far O can lie above the plane:
//! through O's inscribed ball `(c, r)`, `n·c - offset - r`, and through a
//! vertex `p` of O, `n·p - offset`. Each bounds the separation along `n`
//! (see the `query` module). The values stored are `n·c - offset` and
//! `n·p - offset`, plus H's flatness tolerance: then they are upper
//! bounds on `n·(c - o)` and `n·(p - o)` for every vertex `o` of the face,
//! which is what an edge's Gauss-arc bound takes at the arc's two ends. An
//! edge of H borders two faces, so its bound needs no vertex and no
//! normal: only the two faces' stored values and the arc's cosine.

use crate::query::{edge_is_candidate, FACE_BOUND_CAPACITY};
use mink_support::{FacePlane, HullEdge, HullIndex, Real, Vec3};

/// How many edges [`FaceBounds::scan_edges`] looks at in one go (a power
/// of two).
pub(crate) const SCAN_CHUNK: usize = 16;

const _: () = assert!(SCAN_CHUNK.is_power_of_two() && FACE_BOUND_CAPACITY.is_power_of_two());

/// The bounds of one hull's faces against the other hull, hull frame,
/// meters: stored when the hull has at most [`FACE_BOUND_CAPACITY`] faces,
/// recomputed when asked for otherwise.
pub(crate) struct FaceBounds<'h, R> {
    planes: &'h [FacePlane<R>],
    /// The other hull's inscribed-sphere centre, this hull's frame.
    centre: Vec3<R>,
    /// The other hull's inscribed-sphere radius.
    radius: R,
    /// The other hull's vertex the point values go through, this frame.
    near: Vec3<R>,
    /// This hull's flatness tolerance.
    tol: R,
    /// The face with the largest bound.
    seed: usize,
    /// Whether every face's values are stored.
    stored: bool,
    sphere: [R; FACE_BOUND_CAPACITY],
    point: [R; FACE_BOUND_CAPACITY],
}

impl<'h, R: Real> FaceBounds<'h, R> {
    /// The bounds of the faces `planes` (tolerance `tol`) against a hull
    /// whose inscribed sphere is `(centre, radius)` and which has the
    /// vertex `near`, all in this frame, not computed yet.
    #[inline(always)]
    pub(crate) fn new(
        planes: &'h [FacePlane<R>],
        tol: R,
        centre: Vec3<R>,
        radius: R,
        near: Vec3<R>,
    ) -> Self {
        Self {
            planes,
            centre,
            radius,
            near,
            tol,
            seed: 0,
            stored: planes.len() <= FACE_BOUND_CAPACITY,
            sphere: [R::ZERO; FACE_BOUND_CAPACITY],
            point: [R::ZERO; FACE_BOUND_CAPACITY],
        }
    }

    /// Computes both values of every face in one pass (stored when they
    /// all fit) and the seed. Four faces at a time, each lane keeping its
    /// own best, so the loop has no data-dependent branch.
    #[inline(always)]
    pub(crate) fn compute(&mut self) {
        let (c, q, tol, r) = (self.centre, self.near, self.tol, self.radius);
        let mut best = [-R::INFINITY; 4];
        let mut seed = [0u32; 4];
        let stored = if self.stored { self.planes } else { &[] };
        let mut chunks = stored.chunks_exact(4);
        let lanes = self
            .sphere
            .chunks_exact_mut(4)
            .zip(self.point.chunks_exact_mut(4));
        for (k, (chunk, (s4, u4))) in (&mut chunks).zip(lanes).enumerate() {
            for lane in 0..4 {
                let p = chunk[lane];
                let s = p.normal.dot(c) - p.offset + tol;
                let u = p.normal.dot(q) - p.offset + tol;
                s4[lane] = s;
                u4[lane] = u;
                let bound = (s - r).min_of(u);
                let better = bound > best[lane];
                best[lane] = if better { bound } else { best[lane] };
                seed[lane] = if better {
                    (4 * k + lane) as u32
                } else {
                    seed[lane]
                };
            }
        }
        let done = stored.len() - chunks.remainder().len();
        for (f, p) in self.planes.iter().enumerate().skip(done) {
            let s = p.normal.dot(c) - p.offset + tol;
            let u = p.normal.dot(q) - p.offset + tol;
            if self.stored {
                self.sphere[f % FACE_BOUND_CAPACITY] = s;
                self.point[f % FACE_BOUND_CAPACITY] = u;
            }
            let bound = (s - r).min_of(u);
            if bound > best[0] {
                best[0] = bound;
                seed[0] = f as u32;
            }
        }
        let mut winner = (seed[0], best[0]);
        for lane in 1..4 {
            if best[lane] > winner.1 || (best[lane] == winner.1 && seed[lane] < winner.0) {
                winner = (seed[lane], best[lane]);
            }
        }
        self.seed = winner.0 as usize;
    }

    /// Whether every face's values are stored (then [`FaceBounds::reaching`]
    /// answers for four faces at once).
    pub(crate) fn stored(&self) -> bool {
        self.stored
    }

    /// Which of the faces `4 k .. 4 k + 4` have a bound of at least
    /// `threshold`, as the low four bits (bit `i` for face `4 k + i`; the
    /// faces past the last are unspecified). Needs the values stored.
    #[inline(always)]
    pub(crate) fn reaching(&self, k: usize, threshold: R) -> u32 {
        let mut mask = 0;
        for lane in 0..4 {
            let f = (4 * k + lane) % FACE_BOUND_CAPACITY;
            let bound = (self.sphere[f] - self.radius).min_of(self.point[f]);
            mask |= ((bound >= threshold) as u32) << lane;
        }
        mask
    }

    /// The face with the largest bound: the one the other hull is most
    /// likely to lie above (0 without faces).
    pub(crate) fn seed(&self) -> usize {
        self.seed
    }

    /// The sphere value of face `f`, `n·c - offset + tol` (the face's
    /// separation bound is this less the radius).
    #[inline(always)]
    fn sphere(&self, f: usize) -> R {
        if self.stored {
            self.sphere[f % FACE_BOUND_CAPACITY]
        } else {
            self.recompute(f, self.centre)
        }
    }

    /// The point value of face `f`, `n·near - offset + tol`.
    #[inline(always)]
    fn point(&self, f: usize) -> R {
        if self.stored {
            self.point[f % FACE_BOUND_CAPACITY]
        } else {
            self.recompute(f, self.near)
        }
    }

    /// `n·q - offset + tol` for face `f` (infinite when out of range).
    #[cold]
    #[inline(never)]
    fn recompute(&self, f: usize, q: Vec3<R>) -> R {
        self.planes
            .get(f)
            .map_or(R::INFINITY, |p| p.normal.dot(q) - p.offset + self.tol)
    }

    /// The bound on the separation along the normal of face `f`, through
    /// the sphere and through the vertex.
    #[inline(always)]
    pub(crate) fn face_bound(&self, f: usize) -> R {
        (self.sphere(f) - self.radius).min_of(self.point(f))
    }

    /// The cheapest test of the edges `edges` (at most [`SCAN_CHUNK`],
    /// numbered from `base`): writes into `out`
    /// the numbers of those that may build an axis reaching `floor`, and
    /// returns how many. An edge is out when both its faces' point values
    /// are negative and below `floor` (see [`arc_reaches`]): most edges of
    /// a hull face away from the other and stop here. Written without
    /// branches, so random outcomes cost no misprediction.
    #[inline(never)]
    pub(crate) fn scan_edges(
        &self,
        edges: &[HullEdge],
        base: usize,
        floor: R,
        out: &mut [HullIndex; SCAN_CHUNK],
    ) -> usize {
        let lim = floor.min_of(R::ZERO);
        let mut n = 0;
        if self.stored {
            // Indices past the stored faces (inconsistent unchecked data)
            // wrap: a meaningless answer, never a panic.
            let value = |f: HullIndex| self.point[f as usize % FACE_BOUND_CAPACITY];
            let mut one = |k: usize, e: &HullEdge| {
                let u = value(e.faces[0]).max_of(value(e.faces[1]));
                // n <= k < SCAN_CHUNK: the mask never wraps.
                out[n % SCAN_CHUNK] = (base + k) as HullIndex;
                n += (u >= lim) as usize;
            };
            if let Ok(full) = <&[HullEdge; SCAN_CHUNK]>::try_from(edges) {
                // A whole chunk: a fixed trip count, unrolled.
                for (k, e) in full.iter().enumerate() {
                    one(k, e);
                }
            } else {
                for (k, e) in edges.iter().enumerate() {
                    one(k, e);
                }
            }
        } else {
            for (k, e) in edges.iter().enumerate() {
                let u = self
                    .point(e.faces[0] as usize)
                    .max_of(self.point(e.faces[1] as usize));
                out[n % SCAN_CHUNK] = (base + k) as HullIndex;
                n += (u >= lim) as usize;
            }
        }
        n
    }

    /// `true` when an edge between faces `f1` and `f2` (arc cosine `cos`)
    /// can build an axis whose separation reaches `floor`, by both bounds:
    /// `n·(p - o)` and `n·(c - o) - r` on the arc. The radius moves to the
    /// other side: the arc bound is exact only for a linear function of
    /// `n`, and `n·(c - o)` is one.
    #[inline(always)]
    pub(crate) fn edge_reaches(&self, f1: usize, f2: usize, cos: R, floor: R) -> bool {
        arc_reaches(self.point(f1), self.point(f2), cos, floor)
            && arc_reaches(self.sphere(f1), self.sphere(f2), cos, floor + self.radius)
    }
}

/// [`edge_is_candidate`] with a quick rejection first: when both ends are
/// negative and below `bound`, so is the whole arc. A unit `n = α n1 + β
/// n2` on the arc has `α, β >= 0` and `α + β >= |n| = 1`, so
/// `n·d = α a1 + β a2 <= (α + β) max(a1, a2) <= max(a1, a2)` when that is
/// negative.
#[inline(always)]
pub(crate) fn arc_reaches<R: Real>(a1: R, a2: R, cos: R, bound: R) -> bool {
    if a1.max_of(a2) < bound.min_of(R::ZERO) {
        return false;
    }
    edge_is_candidate(a1, a2, cos, bound)
}
