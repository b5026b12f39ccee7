//! EPA's polytope: vertices, triangular faces with their neighbours, and
//! the expansion step (horizon and cone), in fixed arrays.
//!
//! Each face knows the face across each of its edges, so the faces that see
//! a new point are found by walking from the closest one through its
//! neighbours (the cost is the number of faces seen, not the polytope's
//! size), and the new faces are stitched to the old ones and to each other
//! as they are made. Removed faces' slots are reused by the new faces, and
//! any left over go to a free list: nothing is moved.

use crate::EpaStatus;
use mink_support::{Real, SupportPoint, Vec3};

/// Default vertex capacity of a [`Polytope`]: enough for the default
/// tolerance on deep contacts of curved shapes (an ellipsoid 1.2 m deep in
/// another needs over 256); polytope pairs use a few dozen.
pub const EPA_DEFAULT_VERTICES: usize = 384;
/// Default face capacity of a [`Polytope`] (a closed triangulated polytope
/// with `V` vertices has `2V - 4` faces).
pub const EPA_DEFAULT_FACES: usize = 2 * EPA_DEFAULT_VERTICES - 4;

/// No face: the end of the free list (face indices stay below it).
const NONE: u16 = u16::MAX;

/// A face of the polytope: three vertex indices, counter-clockwise seen from
/// outside, the faces across its edges, its outward unit normal and its
/// plane's distance to the origin.
///
/// A face too thin to have a normal has `n = 0` and `d = ∞`, so it is never
/// expanded nor seen; a free slot has the same, and links the next free
/// slot in `adj[0]`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Face<R> {
    pub(super) v: [u16; 3],
    /// `adj[i]`: the face across edge `(v[i], v[i + 1])` (indices mod 3).
    adj: [u16; 3],
    pub(super) n: Vec3<R>,
    pub(super) d: R,
    /// Marked as seeing the point being added (then replaced).
    seen: bool,
}

impl<R: Real> Face<R> {
    /// What a slot holds before its first use (all zero bits, so that a new
    /// buffer is one `memset`); never read as a face.
    const BLANK: Self = Self {
        v: [0; 3],
        adj: [0; 3],
        n: Vec3::ZERO,
        d: R::ZERO,
        seen: false,
    };

    const FREE: Self = Self {
        v: [0; 3],
        adj: [NONE; 3],
        n: Vec3::ZERO,
        d: R::INFINITY,
        seen: false,
    };
}

/// The next edge index of a face, counter-clockwise.
#[inline(always)]
fn next3(i: usize) -> usize {
    if i >= 2 {
        0
    } else {
        i + 1
    }
}

/// An edge of the horizon: the directed edge `(p, q)` of a face that sees
/// the new point, the face `g` across it (which does not see it), `g`'s
/// edge index `j` for `(q, p)`, and the slot `s` of the new face on it.
#[derive(Clone, Copy, Debug, Default)]
struct Edge {
    p: u16,
    q: u16,
    g: u16,
    j: u16,
    s: u16,
}

/// The EPA polytope's storage: `V` vertices and `F` faces in fixed arrays
/// (no allocation). Build one with [`Polytope::new`] and reuse it across
/// queries; the defaults take about 46 KB in f32 and 67 KB in f64 (keep
/// one per thread, or pick smaller capacities on a microcontroller: EPA
/// then stops earlier on curved shapes, with [`EpaStatus::CapacityReached`]).
///
/// Size with `F = 2V - 4`: about `120 V` bytes in f32 and `176 V` in f64
/// (24 or 48 per vertex; 48 or 64 per face: the face with its normal and
/// its three neighbours, 32 or 48, and 16 of scratch for one expansion),
/// so `Polytope<f32, 32, 60>` takes about 3.7 KB and
/// `Polytope<f32, 48, 92>` about 5.6 KB: polytope pairs rarely need more
/// than a few dozen vertices.
///
/// `V` must be at least 4, and `F >= 2V - 4` below 65535 (so `V` is at
/// most 32769); checked at compile time when [`Polytope::new`] is
/// instantiated.
#[derive(Clone, Debug)]
pub struct Polytope<R, const V: usize = EPA_DEFAULT_VERTICES, const F: usize = EPA_DEFAULT_FACES> {
    pub(super) w: [Vec3<R>; V],
    pub(super) a: [Vec3<R>; V],
    pub(super) nv: usize,
    faces: [Face<R>; F],
    /// Live faces.
    nf: usize,
    /// Slots ever used in this query: every live face is in `faces[..top]`.
    top: usize,
    /// First free slot below `top`, or [`NONE`].
    free: u16,
    /// Horizon of the expansion under way, in loop order.
    edges: [Edge; F],
    /// The walk's pending (face, edge) pairs.
    stack: [[u16; 2]; F],
    /// The faces that see the new point.
    seen: [u16; F],
}

impl<R: Real, const V: usize, const F: usize> Default for Polytope<R, V, F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Real, const V: usize, const F: usize> Polytope<R, V, F> {
    const CAPACITY_OK: () = assert!(V >= 4 && F + 4 >= 2 * V && F < NONE as usize);

    /// An empty polytope buffer.
    pub fn new() -> Self {
        let () = Self::CAPACITY_OK;
        Self {
            w: [Vec3::ZERO; V],
            a: [Vec3::ZERO; V],
            nv: 0,
            faces: [Face::BLANK; F],
            nf: 0,
            top: 0,
            free: NONE,
            edges: [Edge::default(); F],
            stack: [[0; 2]; F],
            seen: [0; F],
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

    /// Forgets every vertex and face.
    #[inline]
    pub(super) fn clear(&mut self) {
        self.nv = 0;
        self.nf = 0;
        self.top = 0;
        self.free = NONE;
    }

    #[inline(always)]
    pub(super) fn push_vertex(&mut self, sp: &SupportPoint<R>) -> Option<u16> {
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
    pub(super) fn vw(&self, i: u16) -> Vec3<R> {
        self.w.get(i as usize).copied().unwrap_or(Vec3::ZERO)
    }

    /// The live faces' slots hold them; the others hold free faces
    /// (`d = ∞`), so a scan over them finds only live faces.
    #[inline(always)]
    pub(super) fn slots(&self) -> &[Face<R>] {
        &self.faces[..self.top.min(F)]
    }

    /// Face `i` (a free face when out of range).
    #[inline(always)]
    pub(super) fn face(&self, i: usize) -> Face<R> {
        self.faces.get(i).copied().unwrap_or(Face::FREE)
    }

    /// Writes face `(i, j, k)` with neighbours `adj` into slot `s`; a face
    /// too thin to have a normal gets an infinite distance, so it is never
    /// expanded nor seen.
    #[inline(always)]
    fn write_face(&mut self, s: usize, v: [u16; 3], adj: [u16; 3]) {
        let (p, q, r) = (self.vw(v[0]), self.vw(v[1]), self.vw(v[2]));
        let (n, d) = match (q - p).cross(r - p).try_normalize() {
            Some(n) => (n, n.dot(p)),
            None => (Vec3::ZERO, R::INFINITY),
        };
        if let Some(f) = self.faces.get_mut(s) {
            *f = Face {
                v,
                adj,
                n,
                d,
                seen: false,
            };
        }
    }

    /// Makes the four faces of the tetrahedron on vertices 0 to 3, first
    /// swapping vertices 1 and 2 when its volume is negative, so that
    /// `det(w1 - w0, w2 - w0, w3 - w0) > 0` (a flat one is the caller's to
    /// refuse).
    pub(super) fn tetrahedron(&mut self) {
        let [p, q, r, s] = [self.w[0], self.w[1], self.w[2], self.w[3]];
        if (q - p).dot((r - p).cross(s - p)) < R::ZERO {
            self.w.swap(1, 2);
            self.a.swap(1, 2);
        }
        // With positive volume, face (0,1,2) seen from 3 is clockwise: these
        // are the outward (counter-clockwise from outside) orders, and the
        // faces across each one's edges.
        let faces = [
            ([0, 2, 1], [2, 3, 1]),
            ([0, 1, 3], [0, 3, 2]),
            ([0, 3, 2], [1, 3, 0]),
            ([1, 2, 3], [0, 2, 1]),
        ];
        for (s, (v, adj)) in faces.into_iter().enumerate() {
            self.write_face(s, v, adj);
        }
        self.nf = 4;
        self.top = 4;
        self.free = NONE;
        debug_assert!(self.linked(), "EPA tetrahedron adjacency broken");
    }

    /// Index of the live face closest to the origin (a free slot when every
    /// face is too thin to have a normal: its distance is infinite).
    ///
    /// Four running minima (slots `i ≡ lane mod 4`), so the comparisons do
    /// not wait on each other, merged with ties going to the smaller index:
    /// the same face as a single pass keeping the first minimum.
    #[inline(always)]
    pub(super) fn closest_face(&self) -> usize {
        let slots = self.slots();
        let mut low = [R::INFINITY; 4];
        let mut at = [0usize; 4];
        let mut chunks = slots.chunks_exact(4);
        let mut base = 0;
        for chunk in &mut chunks {
            for lane in 0..4 {
                // Selects, so that the loop compiles without branches.
                let d = chunk[lane].d;
                let better = d < low[lane];
                at[lane] = if better { base + lane } else { at[lane] };
                low[lane] = if better { d } else { low[lane] };
            }
            base += 4;
        }
        for (lane, f) in chunks.remainder().iter().enumerate() {
            if f.d < low[lane] {
                low[lane] = f.d;
                at[lane] = base + lane;
            }
        }
        let mut best = at[0];
        let mut best_d = low[0];
        for lane in 1..4 {
            let (i, d) = (at[lane], low[lane]);
            if d < best_d || (d == best_d && d < R::INFINITY && i < best) {
                best = i;
                best_d = d;
            }
        }
        best
    }

    /// Finds the faces that see `w` (beyond their plane by more than
    /// `eps`) and are connected to face `start` through seen faces, marks
    /// them, and stores the horizon (edges from a seen face to an unseen
    /// one, in the seen face's orientation) in loop order. Returns the
    /// number of seen faces and of horizon edges.
    ///
    /// The walk enters each seen face through one edge and goes on through
    /// its other two, counter-clockwise, depth first: the horizon edges come
    /// out in order around the seen region. When that region is not a disk
    /// (round-off on nearly coplanar faces), the edges do not form one loop
    /// and the result is [`EpaStatus::Degenerate`]; a full buffer is
    /// [`EpaStatus::CapacityReached`]. Nothing but the marks is changed.
    fn horizon(&mut self, start: usize, w: Vec3<R>, eps: R) -> Result<(usize, usize), EpaStatus> {
        let full = EpaStatus::CapacityReached;
        let broken = EpaStatus::Degenerate;
        let first = self.faces.get_mut(start).ok_or(broken)?;
        first.seen = true;
        *self.seen.first_mut().ok_or(full)? = start as u16;
        let mut nseen = 1;
        let mut ne = 0;
        let mut top = 0;
        for i in [2, 1, 0] {
            *self.stack.get_mut(top).ok_or(full)? = [start as u16, i];
            top += 1;
        }
        while top > 0 {
            top -= 1;
            let [f, i] = self.stack[top];
            let face = &self.faces[f as usize];
            let i = i as usize;
            let (p, q, g) = (face.v[i], face.v[next3(i)], face.adj[i]);
            let other = self.faces.get_mut(g as usize).ok_or(broken)?;
            if other.seen {
                continue;
            }
            // g's edge (q, p): q's place in g (branch-free), then a check.
            let j = usize::from(other.v[1] == q) + 2 * usize::from(other.v[2] == q);
            if other.v.get(j) != Some(&q) || other.v[next3(j)] != p {
                return Err(broken);
            }
            if other.n.dot(w) - other.d > eps {
                other.seen = true;
                *self.seen.get_mut(nseen).ok_or(full)? = g;
                nseen += 1;
                for k in [next3(next3(j)), next3(j)] {
                    *self.stack.get_mut(top).ok_or(full)? = [g, k as u16];
                    top += 1;
                }
            } else {
                *self.edges.get_mut(ne).ok_or(full)? = Edge {
                    p,
                    q,
                    g,
                    j: j as u16,
                    s: NONE,
                };
                ne += 1;
            }
        }
        // One loop: each edge starts where the previous one ends.
        let edges = &self.edges[..ne];
        let mut closed = ne >= 3;
        let mut end = edges.last().map_or(NONE, |e| e.q);
        for e in edges {
            closed &= e.p == end;
            end = e.q;
        }
        if closed {
            Ok((nseen, ne))
        } else {
            Err(broken)
        }
    }

    /// Takes a free slot: from the free list, else the first never used.
    #[inline(always)]
    fn take_slot(&mut self) -> Option<u16> {
        if self.free != NONE {
            let s = self.free;
            self.free = self.face(s as usize).adj[0];
            return Some(s);
        }
        if self.top < F {
            self.top += 1;
            return Some((self.top - 1) as u16);
        }
        None
    }

    /// Adds the support point `sp` seen from face `best`: the faces that
    /// see it are replaced by the cone from it over their horizon. `eps` is
    /// how far beyond a face's plane the point must be to be seen.
    ///
    /// Checks everything before changing anything, so an error leaves the
    /// polytope as it was: [`EpaStatus::CapacityReached`] when the vertex or
    /// the faces do not fit, [`EpaStatus::Degenerate`] when round-off broke
    /// the horizon.
    pub(super) fn expand(
        &mut self,
        best: usize,
        sp: &SupportPoint<R>,
        eps: R,
    ) -> Result<(), EpaStatus> {
        if self.nv >= V {
            return Err(EpaStatus::CapacityReached);
        }
        let (nseen, ne) = match self.horizon(best, sp.w, eps) {
            Ok((nseen, ne)) if self.nf + ne <= F + nseen => (nseen, ne),
            walk => {
                self.unmark();
                return Err(walk.err().unwrap_or(EpaStatus::CapacityReached));
            }
        };
        let iw = self.push_vertex(sp).ok_or(EpaStatus::CapacityReached)?;
        // Slots: the seen faces' first, then free ones (there are enough:
        // at most F faces live afterwards).
        for k in 0..ne {
            let s = match self.seen.get(k) {
                Some(&s) if k < nseen => s,
                _ => self.take_slot().ok_or(EpaStatus::CapacityReached)?,
            };
            self.edges[k].s = s;
        }
        for k in ne..nseen {
            let s = self.seen[k];
            if let Some(f) = self.faces.get_mut(s as usize) {
                *f = Face::FREE;
                f.adj[0] = self.free;
                self.free = s;
            }
        }
        // Face k is (p, q, iw): across (p, q) the old face g, across
        // (q, iw) the next new face, across (iw, p) the previous one.
        let mut prev = self.edges[ne - 1].s;
        for k in 0..ne {
            let e = self.edges[k];
            let next = self.edges[if k + 1 < ne { k + 1 } else { 0 }].s;
            self.write_face(e.s as usize, [e.p, e.q, iw], [e.g, next, prev]);
            if let Some(g) = self.faces.get_mut(e.g as usize) {
                g.adj[e.j as usize] = e.s;
            }
            prev = e.s;
        }
        self.nf = self.nf - nseen + ne;
        debug_assert!(self.linked(), "EPA polytope adjacency broken");
        Ok(())
    }

    /// Debug check of the topology: the live faces (those with neighbours)
    /// number `nf`, and each one's neighbours are live and hold the same
    /// edge reversed, with this face across it. Used by `debug_assert!`
    /// only (compiled out of release builds).
    fn linked(&self) -> bool {
        let mut live = 0;
        for (s, f) in self.slots().iter().enumerate() {
            if f.adj[1] == NONE {
                continue;
            }
            live += 1;
            for i in 0..3 {
                let (p, q) = (f.v[i], f.v[next3(i)]);
                let Some(g) = self.faces.get(f.adj[i] as usize) else {
                    return false;
                };
                let back =
                    (0..3).any(|j| g.v[j] == q && g.v[next3(j)] == p && g.adj[j] as usize == s);
                if g.adj[1] == NONE || !back || f.seen {
                    return false;
                }
            }
        }
        live == self.nf
    }

    /// Clears the marks of a walk that is not followed by an expansion.
    fn unmark(&mut self) {
        let top = self.top.min(F);
        for f in &mut self.faces[..top] {
            f.seen = false;
        }
    }
}
