//! The edge stage of the SAT query: every edge of A and of B is put to its
//! Gauss-arc bounds (see the `query` module's documentation), the
//! survivors are paired in batches held on the stack, and each pair whose
//! Gauss-map arcs cross (a face of the Minkowski difference) gives an axis,
//! its separation the gap between the two edges along it (all four ends
//! projected, see [`edge_pair_gap`]) once it may beat the best pair.
//!
//! A's edges stay in A's frame; B's are bounded in B's frame and only the
//! survivors are mapped into A's frame.

use crate::bounds::{FaceBounds, SCAN_CHUNK};
use crate::hull_data::SatHull;
use crate::query::{SatCounters, EDGE_BATCH_CAPACITY, EDGE_PARALLEL_SQRT_EPS};
use heapless::Vec as HVec;
use mink_support::{HullIndex, Iso3, Real, Vec3};

/// The culling of the edge stage: A's and B's face bounds (their frames)
/// and the separation an edge must be able to reach, meters.
pub(crate) type EdgeCulling<'b, 'h, R> = (&'b FaceBounds<'h, R>, &'b FaceBounds<'h, R>, R);

/// An edge of A: its faces' normals, direction and first vertex, A's frame.
#[derive(Clone, Copy)]
struct EdgeA<R> {
    index: HullIndex,
    n1: Vec3<R>,
    n2: Vec3<R>,
    direction: Vec3<R>,
    origin: Vec3<R>,
}

/// One of B's surviving edges, mapped into A's frame.
#[derive(Clone, Copy)]
struct EdgeB<R> {
    index: HullIndex,
    /// First vertex, A's frame.
    origin: Vec3<R>,
    /// Unit direction, A's frame.
    direction: Vec3<R>,
    /// Minus the left face's normal, A's frame (B's Gauss map is negated in
    /// the Minkowski difference).
    neg_n1: Vec3<R>,
    /// Minus the right face's normal, A's frame.
    neg_n2: Vec3<R>,
}

/// The best edge pair: A's edge, B's edge, separation, unit axis (A's frame).
pub(crate) type BestPair<R> = (HullIndex, HullIndex, R, Vec3<R>);

/// The running state of the edge stage.
pub(crate) struct EdgeSearch<'h, 'a, R> {
    a: &'h SatHull<'a, R>,
    b: &'h SatHull<'a, R>,
    pose_ab: &'h Iso3<R>,
    best: Option<BestPair<R>>,
    parallel: R,
}

impl<'h, 'a, R: Real> EdgeSearch<'h, 'a, R> {
    /// A search between `a` and `b` (`pose_ab`: B in A's frame) with no
    /// pair found yet.
    pub(crate) fn new(a: &'h SatHull<'a, R>, b: &'h SatHull<'a, R>, pose_ab: &'h Iso3<R>) -> Self {
        Self {
            a,
            b,
            pose_ab,
            best: None,
            parallel: R::sqrt_epsilon() * R::lit(EDGE_PARALLEL_SQRT_EPS),
        }
    }

    /// The best pair found.
    pub(crate) fn best(&self) -> Option<BestPair<R>> {
        self.best
    }

    /// The separation of the best pair found.
    pub(crate) fn best_separation(&self) -> Option<R> {
        self.best.map(|b| b.2)
    }

    /// A's edge `i` with the data its pairs need, or `None` when an index
    /// is out of range.
    #[inline(always)]
    fn edge_a(&self, i: usize) -> Option<EdgeA<R>> {
        let ha = self.a.hull();
        let (e, arc) = (ha.edges().get(i)?, self.a.arcs().get(i)?);
        let planes = ha.planes();
        Some(EdgeA {
            index: i as HullIndex,
            n1: planes.get(e.faces[0] as usize)?.normal,
            n2: planes.get(e.faces[1] as usize)?.normal,
            direction: arc.direction,
            origin: *ha.vertices().get(e.vertices[0] as usize)?,
        })
    }

    /// B's edge `j` mapped into A's frame, or `None` when an index is out
    /// of range.
    #[inline(always)]
    fn edge_b(&self, j: usize) -> Option<EdgeB<R>> {
        let hb = self.b.hull();
        let (e, arc) = (hb.edges().get(j)?, self.b.arcs().get(j)?);
        let planes = hb.planes();
        let m1 = planes.get(e.faces[0] as usize)?.normal;
        let m2 = planes.get(e.faces[1] as usize)?.normal;
        let o = *hb.vertices().get(e.vertices[0] as usize)?;
        let rot = self.pose_ab.rotation;
        Some(EdgeB {
            index: j as HullIndex,
            origin: self.pose_ab.transform_point(o),
            direction: rot.mul_vec(arc.direction),
            neg_n1: -rot.mul_vec(m1),
            neg_n2: -rot.mul_vec(m2),
        })
    }

    /// Runs the Gauss-map test on `ea` and `eb` and keeps the pair when it
    /// builds an axis that beats the best so far.
    #[inline(always)]
    fn consider(&mut self, ea: &EdgeA<R>, eb: &EdgeB<R>, counters: &mut SatCounters) {
        // Gauss-map test: the arcs (n1, n2) of A and (-m1, -m2) of B cross.
        // With b×a ∝ -e_A and d×c ∝ -e_B (positive factors), the classic
        // sign conditions become products of these dots, checked
        // cheapest-reject first.
        let c_ea = eb.neg_n1.dot(ea.direction);
        let d_ea = eb.neg_n2.dot(ea.direction);
        if c_ea * d_ea >= R::ZERO {
            return;
        }
        let a_eb = ea.n1.dot(eb.direction);
        let b_eb = ea.n2.dot(eb.direction);
        if !(a_eb * b_eb < R::ZERO && c_ea * b_eb > R::ZERO) {
            return;
        }
        let l = ea.direction.cross(eb.direction);
        let len = l.norm();
        if len < self.parallel {
            return;
        }
        counters.minkowski_faces += 1;
        let mut n = l / len;
        // The crossing lies on A's arc, which is shorter than a half
        // circle: the axis out of A has a positive dot with n1 + n2.
        if n.dot(ea.n1 + ea.n2) < R::ZERO {
            n = -n;
        }
        // The gap from the edges' first vertices bounds the edges' gap from
        // above (see `edge_pair_gap`): only a pair that beats the best by it
        // is measured at all four ends.
        let s = n.dot(eb.origin - ea.origin);
        if self.best.is_some_and(|(_, _, bs, _)| s <= bs) {
            return;
        }
        let s = edge_pair_gap(self.a, self.b, self.pose_ab, (ea.index, eb.index), n).unwrap_or(s);
        if self.best.is_none_or(|(_, _, bs, _)| s > bs) {
            self.best = Some((ea.index, eb.index, s, n));
        }
    }

    /// Evaluates the pair of A's edge `i` and B's edge `j` alone (a cached
    /// feature), so that its separation raises the bar for every other
    /// edge. Counts nothing.
    pub(crate) fn evaluate_pair(&mut self, i: HullIndex, j: HullIndex) {
        let mut scratch = SatCounters::default();
        let (ea, eb) = (self.edge_a(i as usize), self.edge_b(j as usize));
        if let (Some(ea), Some(eb)) = (ea, eb) {
            self.consider(&ea, &eb, &mut scratch);
        }
    }

    /// Culls every edge of A and B by `culling` (none: every edge kept) and
    /// tests every pair of survivors, in batches of at most
    /// [`EDGE_BATCH_CAPACITY`] edges of each hull (B's survivors are
    /// recomputed for each batch of A's, which only happens past that
    /// many survivors). B's edges are not looked at when no edge of A
    /// survives.
    pub(crate) fn run(
        &mut self,
        culling: Option<EdgeCulling<'_, '_, R>>,
        counters: &mut SatCounters,
    ) {
        let na = self.a.hull().edges().len().min(self.a.arcs().len());
        let nb = self.b.hull().edges().len().min(self.b.arcs().len());
        let mut tally = Tally::default();
        let mut batch_a: HVec<EdgeA<R>, EDGE_BATCH_CAPACITY> = HVec::new();
        let mut next = 0;
        while next < na {
            let end = (next + SCAN_CHUNK).min(na);
            let mut idx = [0 as HullIndex; SCAN_CHUNK];
            let n = survivors(self.a, culling.map(|c| (c.0, c.2)), next, end, &mut idx);
            for &i in idx.iter().take(n) {
                if let Some(e) = self.edge_a(i as usize) {
                    // At most SCAN_CHUNK pushes since the last flush left room.
                    let _ = batch_a.push(e);
                }
            }
            next = end;
            if batch_a.len() + SCAN_CHUNK > EDGE_BATCH_CAPACITY || next >= na {
                tally.kept_a += batch_a.len() as u32;
                if !batch_a.is_empty() {
                    self.pair_with_b(&batch_a, culling, &mut tally, counters);
                    batch_a.clear();
                }
            }
        }
        counters.edges_culled_a = na as u32 - tally.kept_a;
        // B's edges count only when they were looked at.
        counters.edges_culled_b = if tally.b_seen {
            nb as u32 - tally.kept_b
        } else {
            0
        };
        counters.edge_pairs_tested = tally.pairs;
        counters.edge_pairs_culled = (na as u64 * nb as u64).saturating_sub(tally.pairs);
    }

    /// Pairs every edge of `batch_a` with every surviving edge of B.
    fn pair_with_b(
        &mut self,
        batch_a: &[EdgeA<R>],
        culling: Option<EdgeCulling<'_, '_, R>>,
        tally: &mut Tally,
        counters: &mut SatCounters,
    ) {
        let nb = self.b.hull().edges().len().min(self.b.arcs().len());
        let count_b = !tally.b_seen;
        tally.b_seen = true;
        let mut batch_b: HVec<EdgeB<R>, EDGE_BATCH_CAPACITY> = HVec::new();
        let mut next = 0;
        while next < nb {
            let end = (next + SCAN_CHUNK).min(nb);
            let mut idx = [0 as HullIndex; SCAN_CHUNK];
            let n = survivors(self.b, culling.map(|c| (c.1, c.2)), next, end, &mut idx);
            for &j in idx.iter().take(n) {
                if let Some(e) = self.edge_b(j as usize) {
                    let _ = batch_b.push(e);
                }
            }
            next = end;
            if batch_b.len() + SCAN_CHUNK > EDGE_BATCH_CAPACITY || next >= nb {
                if count_b {
                    tally.kept_b += batch_b.len() as u32;
                }
                tally.pairs += (batch_a.len() * batch_b.len()) as u64;
                for ea in batch_a {
                    for eb in &batch_b {
                        self.consider(ea, eb, counters);
                    }
                }
                batch_b.clear();
            }
        }
    }
}

/// The gap along the unit axis `n` (A's frame) between A's edge `i` and
/// B's edge `j` (`pose_ab`: B in A's frame): the least of `n·(q - p)` over
/// both ends `p` of A's edge and both ends `q` of B's. `None` when an index
/// is out of range.
///
/// This is the hulls' gap along `n` when `n` lies on both edges' Gauss arcs
/// (each edge is then its hull's extreme feature along `n`), and it never
/// exceeds the gap measured from either edge's first vertex alone. The two
/// differ when `n` is not quite perpendicular to an edge: the axis is built
/// from the arcs' poles, and the pole of a knife edge (two faces with
/// nearly opposite normals, so `|n_left × n_right|` is tiny) is off the
/// edge's line by the normals' rounding over the sine of the dihedral
/// angle, up to `1e-10` rad in `f64` at a dihedral of `1e-6`; along a
/// metre-long edge the far end then stands that many metres above the
/// first one.
pub(crate) fn edge_pair_gap<R: Real>(
    a: &SatHull<'_, R>,
    b: &SatHull<'_, R>,
    pose_ab: &Iso3<R>,
    (i, j): (HullIndex, HullIndex),
    n: Vec3<R>,
) -> Option<R> {
    let (ha, hb) = (a.hull(), b.hull());
    let (ea, eb) = (ha.edges().get(i as usize)?, hb.edges().get(j as usize)?);
    let end_a = |k: usize| ha.vertices().get(ea.vertices[k] as usize).copied();
    let end_b = |k: usize| {
        hb.vertices()
            .get(eb.vertices[k] as usize)
            .map(|&q| pose_ab.transform_point(q))
    };
    let (p0, p1, q0, q1) = (end_a(0)?, end_a(1)?, end_b(0)?, end_b(1)?);
    let gap = |p: Vec3<R>, q: Vec3<R>| n.dot(q - p);
    Some(
        gap(p0, q0)
            .min_of(gap(p0, q1))
            .min_of(gap(p1, q0))
            .min_of(gap(p1, q1)),
    )
}

/// What the edge stage counts as it goes.
#[derive(Default)]
struct Tally {
    kept_a: u32,
    kept_b: u32,
    /// Whether B's edges were looked at (at least one edge of A survived).
    b_seen: bool,
    pairs: u64,
}

/// The numbers of `hull`'s edges `start..end` (at most [`SCAN_CHUNK`] of
/// them) that survive `culling` (the hull's face bounds and the separation
/// an edge must be able to reach; none: every edge), written to the front
/// of `out`; returns how many. The quick scan goes first, then the exact
/// test of each edge's Gauss arc against its two faces' bounds.
#[inline(always)]
fn survivors<R: Real>(
    hull: &SatHull<'_, R>,
    culling: Option<(&FaceBounds<'_, R>, R)>,
    start: usize,
    end: usize,
    out: &mut [HullIndex; SCAN_CHUNK],
) -> usize {
    let (edges, arcs) = (hull.hull().edges(), hull.arcs());
    let Some((bounds, floor)) = culling else {
        let n = end.saturating_sub(start).min(SCAN_CHUNK);
        for (k, slot) in out.iter_mut().take(n).enumerate() {
            *slot = (start + k) as HullIndex;
        }
        return n;
    };
    let Some(chunk) = edges.get(start..end) else {
        return 0;
    };
    let n = bounds.scan_edges(chunk, start, floor, out);
    let mut kept = 0;
    for k in 0..n.min(SCAN_CHUNK) {
        let i = out[k] as usize;
        let reaches = match (edges.get(i), arcs.get(i)) {
            (Some(e), Some(arc)) => {
                let (f1, f2) = (e.faces[0] as usize, e.faces[1] as usize);
                bounds.edge_reaches(f1, f2, arc.cos, floor)
            }
            _ => false,
        };
        if reaches {
            out[kept] = out[k];
            kept += 1;
        }
    }
    kept
}
