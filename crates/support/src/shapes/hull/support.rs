//! The hull's support function: an exhaustive scan for small hulls, hill
//! climbing over the vertex neighbour lists for large ones.

use super::lanes::{coordinate_range_lanes, extent_lanes, scan_lanes};
use super::topology::HullIndex;
use super::view::HullView;
use crate::{Aabb, CapacityError, Iso3, Real, Support, SupportSet, Vec3};

/// Hulls with at most this many vertices answer [`Support::support`] by an
/// exhaustive scan; larger ones by hill climbing from the hint.
///
/// Measured with `cargo bench -p mink-benches --bench support` (hulls of
/// random points on a sphere, `f32`, ns per call, the scan over the hull's
/// [`VertexLanes`](super::VertexLanes)): the scan costs 19, 26, 38, 51 and
/// 57 ns at 32, 48, 64, 96 and 128 vertices (102 at 200); a climb from an
/// unrelated hint (the first call of every query) 64, 57, 86, 105 and 80
/// ns, one along directions turning by 2° a call about 30 to 35 ns
/// whatever the size. A GJK or MPR query makes about five calls, the first
/// cold: the scan wins up to about 64 vertices and the climb beyond.
pub const HULL_SCAN_MAX_VERTICES: usize = 64;

/// Hulls with at most this many vertices compute their world AABB by
/// transforming every vertex (a few nanoseconds each, no branches);
/// larger ones by six support calls. Six climbs over a 32-vertex hull cost
/// several times the 32 transforms, so the threshold is well above the
/// support scan's.
pub const HULL_AABB_TRANSFORM_MAX_VERTICES: usize = 64;

/// The most vertex visits one hill climb may make (moves plus plateau
/// steps) before giving up with [`ClimbError::IterationCap`]. A climb on a
/// hull of `V` vertices takes `O(sqrt V)` moves from a cold start, and a
/// few from a warm one.
pub const MAX_HILL_CLIMB_ITERATIONS: usize = 4096;

/// The most vertices a hill climb explores on a plateau (vertices tied with
/// the best within the hull's tolerance, such as a flat face seen head-on)
/// before giving up with [`ClimbError::PlateauCapacity`]: a face of up to
/// this many vertices seen head-on. The search keeps them on the stack
/// (256 bytes with `u16` indices).
pub const MAX_PLATEAU_VERTICES: usize = 128;

/// Rounding slack between two projections `dir · v`, in units of
/// [`Real::EPSILON`] times `|dir|₁ |v|∞`: twice the error bound of a
/// three-term dot product, with margin.
pub const PROJECTION_ROUNDING_EPS: f64 = 8.0;

/// Directions whose largest component lies in
/// `[DIRECTION_RANGE_LOW, DIRECTION_RANGE_HIGH]` are used as given; others
/// are first divided by that component. `2⁻⁶⁰`: a product with a coordinate
/// of a meter or more stays far from `f32`'s (and `f64`'s) underflow.
pub const DIRECTION_RANGE_LOW: f64 = 8.673_617_379_884_035e-19;
/// See [`DIRECTION_RANGE_LOW`]; `2⁶⁰`: products with coordinates up to
/// `10¹⁸` m stay finite in `f32`.
pub const DIRECTION_RANGE_HIGH: f64 = 1.152_921_504_606_847e18;

/// Why [`HullView::support_hill_climb`] stopped without an answer it can
/// vouch for. Each carries the best vertex found so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ClimbError {
    /// [`MAX_HILL_CLIMB_ITERATIONS`] vertex visits were not enough.
    IterationCap {
        /// The best vertex found.
        best: u32,
    },
    /// A plateau held more than [`MAX_PLATEAU_VERTICES`] vertices.
    PlateauCapacity {
        /// The best vertex found.
        best: u32,
    },
    /// The hull has no vertices (only possible through
    /// [`HullView::new_unchecked`]).
    Empty,
}

/// `dir` rescaled so that its projections neither overflow nor underflow:
/// unchanged between [`DIRECTION_RANGE_LOW`] and [`DIRECTION_RANGE_HIGH`] (so
/// projections are bit-identical to `dir · v`), divided by its largest
/// component outside it. `None` for a
/// zero or non-finite direction, where every vertex is a support point.
///
/// The usual case is one range test; the rest is out of line, so that no
/// division (which a select would compute on every call) delays the scan.
#[inline(always)]
fn conditioned<R: Real>(dir: Vec3<R>) -> Option<Vec3<R>> {
    let m = dir.max_abs();
    if m >= R::lit(DIRECTION_RANGE_LOW) && m <= R::lit(DIRECTION_RANGE_HIGH) {
        Some(dir)
    } else {
        rescaled(dir, m)
    }
}

/// [`conditioned`] for a direction whose largest component `m` is outside
/// the range (or not finite, or zero).
#[cold]
#[inline(never)]
fn rescaled<R: Real>(dir: Vec3<R>, m: R) -> Option<Vec3<R>> {
    if !m.finite() || m <= R::ZERO {
        return None;
    }
    Some(Vec3::new(dir.x / m, dir.y / m, dir.z / m))
}

impl<R: Real> HullView<'_, R> {
    /// The index of a vertex with the largest projection on `dir` (any
    /// length), by scanning every vertex; the first such vertex on ties.
    /// For a zero or non-finite `dir` returns 0. Returns 0 also for a hull
    /// without vertices (check [`HullView::vertex_count`]). A hull with
    /// [`VertexLanes`](super::VertexLanes) scans them, four vertices at a
    /// time, with the same answer.
    pub fn support_scan(&self, dir: Vec3<R>) -> u32 {
        let Some(d) = conditioned(dir) else {
            return 0;
        };
        let lanes = self.arrays().lanes;
        if !lanes.is_empty() {
            return scan_lanes(lanes, d, self.vertex_count());
        }
        // Four independent running maxima (vertices i ≡ lane mod 4), so the
        // compare-and-select chains overlap instead of waiting on each other;
        // merged at the end with ties going to the smaller index, which keeps
        // "the first such vertex" of a single pass.
        let vs = self.vertices();
        let mut best = [0usize; 4];
        let mut best_value = [-R::INFINITY; 4];
        let mut chunks = vs.chunks_exact(4);
        let mut base = 0usize;
        for chunk in &mut chunks {
            for lane in 0..4 {
                // Written as selects so that the loop compiles without branches.
                let value = d.dot(chunk[lane]);
                let better = value > best_value[lane];
                best[lane] = if better { base + lane } else { best[lane] };
                best_value[lane] = if better { value } else { best_value[lane] };
            }
            base += 4;
        }
        for (lane, v) in chunks.remainder().iter().enumerate() {
            let value = d.dot(*v);
            if value > best_value[lane] {
                best[lane] = base + lane;
                best_value[lane] = value;
            }
        }
        let mut winner = best[0];
        let mut winner_value = best_value[0];
        for lane in 1..4 {
            let (i, value) = (best[lane], best_value[lane]);
            if value > winner_value || (value == winner_value && i < winner) {
                winner = i;
                winner_value = value;
            }
        }
        winner as u32
    }

    /// The index of a vertex with the largest projection on `dir` (any
    /// length), by hill climbing over the neighbour lists from vertex
    /// `start` (a previous answer makes a good start; an out-of-range one
    /// starts at 0).
    ///
    /// The answer's projection equals the scan's maximum exactly: at a
    /// vertex no neighbour improves on, the climb explores the plateau of
    /// vertices within the hull's tolerance of it (a flat face seen
    /// head-on, faces flat only to within the tolerance), which on a convex
    /// hull connects it to every better vertex. For a zero or non-finite
    /// `dir` returns `start`. Errors, each with the best vertex so far, when
    /// a cap is hit ([`MAX_HILL_CLIMB_ITERATIONS`],
    /// [`MAX_PLATEAU_VERTICES`]); [`ClimbError::Empty`] without vertices.
    pub fn support_hill_climb(&self, dir: Vec3<R>, start: u32) -> Result<u32, ClimbError> {
        let vs = self.vertices();
        if vs.is_empty() {
            return Err(ClimbError::Empty);
        }
        let mut cur = if (start as usize) < vs.len() {
            start
        } else {
            0
        };
        let Some(d) = conditioned(dir) else {
            return Ok(cur);
        };
        let value = |i: HullIndex| vs.get(i as usize).map_or(-R::INFINITY, |v| d.dot(*v));
        let d_l1 = d.x.abs() + d.y.abs() + d.z.abs();
        let flat = d_l1 * R::TWO * self.tolerance();
        let rounding = d_l1 * R::EPSILON * R::lit(PROJECTION_ROUNDING_EPS);
        let mut cur_value = vs.get(cur as usize).map_or(-R::INFINITY, |v| d.dot(*v));
        let mut visits = 0usize;
        while visits < MAX_HILL_CLIMB_ITERATIONS {
            // Steepest ascent: move to the best neighbour while one improves.
            let mut next = cur;
            let mut next_value = cur_value;
            let mut near_tie = false;
            let slack = flat + rounding * vs.get(cur as usize).map_or(R::ZERO, |v| v.max_abs());
            for &n in self.neighbors(cur as usize) {
                let nv = value(n);
                if nv > next_value {
                    next_value = nv;
                    next = n as u32;
                } else if nv >= cur_value - slack {
                    near_tie = true;
                }
            }
            visits += 1;
            if next != cur {
                cur = next;
                cur_value = next_value;
                continue;
            }
            if !near_tie {
                return Ok(cur);
            }
            // A local maximum with near-ties: explore the plateau of
            // vertices within `slack` of it. On a convex hull the vertices
            // above any level form a connected subgraph, so a better vertex,
            // if any, is reachable through this plateau.
            match self.explore_plateau(cur, cur_value, slack, &value, &mut visits) {
                Plateau::Better(i, v) => {
                    cur = i;
                    cur_value = v;
                }
                Plateau::Done => return Ok(cur),
                Plateau::Full => return Err(ClimbError::PlateauCapacity { best: cur }),
            }
        }
        Err(ClimbError::IterationCap { best: cur })
    }

    /// Breadth-first search from `top` over the vertices whose projection is
    /// at least `top_value - slack`, stopping at the first one better than
    /// `top_value`.
    fn explore_plateau(
        &self,
        top: u32,
        top_value: R,
        slack: R,
        value: &impl Fn(HullIndex) -> R,
        visits: &mut usize,
    ) -> Plateau<R> {
        let mut seen = [0 as HullIndex; MAX_PLATEAU_VERTICES];
        seen[0] = top as HullIndex;
        let mut len = 1usize;
        let mut head = 0usize;
        while head < len && *visits < MAX_HILL_CLIMB_ITERATIONS {
            let v = seen.get(head).copied().unwrap_or(0);
            head += 1;
            *visits += 1;
            for &n in self.neighbors(v as usize) {
                let nv = value(n);
                if nv > top_value {
                    return Plateau::Better(n as u32, nv);
                }
                if nv >= top_value - slack && !seen[..len].contains(&n) {
                    match seen.get_mut(len) {
                        Some(slot) => *slot = n,
                        None => return Plateau::Full,
                    }
                    len += 1;
                }
            }
        }
        if head < len {
            Plateau::Full
        } else {
            Plateau::Done
        }
    }

    /// Index of a support vertex, choosing the scan or the climb by
    /// [`HULL_SCAN_MAX_VERTICES`]; a climb that hits a cap falls back to
    /// the scan, so the answer is always exact.
    #[inline]
    pub fn support_index(&self, dir: Vec3<R>, hint: u32) -> u32 {
        if self.vertex_count() <= HULL_SCAN_MAX_VERTICES {
            return self.support_scan(dir);
        }
        match self.support_hill_climb(dir, hint) {
            Ok(i) => i,
            Err(_) => self.support_scan(dir),
        }
    }
}

enum Plateau<R> {
    Better(u32, R),
    Done,
    Full,
}

impl<R: Real> Support<R> for HullView<'_, R> {
    /// The index of the last support vertex: the next climb starts there.
    type Hint = u32;
    const POLYTOPE: bool = true;

    /// A vertex with the largest projection on `dir` (see
    /// [`HullView::support_index`]), whose index is left in `hint`; for a
    /// zero or non-finite `dir`, some vertex. The origin only for a hull
    /// without vertices.
    #[inline]
    fn support(&self, dir: Vec3<R>, hint: &mut u32) -> Vec3<R> {
        let i = self.support_index(dir, *hint);
        *hint = i;
        self.vertex(i).unwrap_or(Vec3::ZERO)
    }

    /// The vertex centroid ([`HullView::vertex_centroid`]).
    fn interior_point(&self) -> Vec3<R> {
        self.vertex_centroid()
    }

    /// The smallest and largest vertex coordinates: exact, no rotation
    /// (four vertices at a time over the [`VertexLanes`](super::VertexLanes)
    /// when the hull has them). An empty box for a hull without vertices.
    fn local_aabb(&self) -> Aabb<R> {
        let vs = self.vertices();
        let Some(&first) = vs.first() else {
            return Aabb::EMPTY;
        };
        let lanes = self.arrays().lanes;
        if !lanes.is_empty() {
            let (lo, hi) = coordinate_range_lanes(lanes);
            return Aabb::new(
                Vec3::new(lo[0], lo[1], lo[2]),
                Vec3::new(hi[0], hi[1], hi[2]),
            );
        }
        let (mut min, mut max) = (first, first);
        for &v in vs {
            min = min.min(v);
            max = max.max(v);
        }
        Aabb::new(min, max)
    }

    /// Exact: every vertex rotated for hulls of up to
    /// [`HULL_AABB_TRANSFORM_MAX_VERTICES`] (four at a time over the
    /// [`VertexLanes`](super::VertexLanes) when the hull has them), six
    /// support calls for larger ones. An empty box for a hull without
    /// vertices.
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        let vs = self.vertices();
        let lanes = self.arrays().lanes;
        if !vs.is_empty() && !lanes.is_empty() && vs.len() <= HULL_AABB_TRANSFORM_MAX_VERTICES {
            let rows = [0, 1, 2].map(|i| pose.rotation.row(i));
            let (lo, hi) = extent_lanes(lanes, rows);
            let t = pose.translation;
            return Aabb::new(
                Vec3::new(lo[0], lo[1], lo[2]) + t,
                Vec3::new(hi[0], hi[1], hi[2]) + t,
            );
        }
        if vs.len() <= HULL_AABB_TRANSFORM_MAX_VERTICES {
            let mut aabb = Aabb::EMPTY;
            for &v in vs {
                aabb = aabb.including(pose.transform_point(v));
            }
            return aabb;
        }
        let mut hint = 0u32;
        let corner = |axis: Vec3<R>, hint: &mut u32| pose.transform_point(self.support(axis, hint));
        let (x, y, z) = (
            pose.rotation.row(0),
            pose.rotation.row(1),
            pose.rotation.row(2),
        );
        let max = Vec3::new(
            corner(x, &mut hint).x,
            corner(y, &mut hint).y,
            corner(z, &mut hint).z,
        );
        let min = Vec3::new(
            corner(-x, &mut hint).x,
            corner(-y, &mut hint).y,
            corner(-z, &mut hint).z,
        );
        Aabb::new(min, max)
    }

    /// The vertices whose projection on `dir` is within `tol * |dir|` of the
    /// maximum: a single vertex, an edge's two ends, or (three or more) the
    /// loop of the face containing the support vertex whose normal is most
    /// aligned with `dir`, counter-clockwise seen from outside. A zero or
    /// non-finite `dir` gives one vertex.
    fn support_set(
        &self,
        dir: Vec3<R>,
        tol: R,
        out: &mut SupportSet<R>,
    ) -> Result<(), CapacityError> {
        out.clear();
        if self.vertex_count() == 0 {
            return Ok(());
        }
        let top = self.support_index(dir, 0);
        let top_point = self.vertex(top).unwrap_or(Vec3::ZERO);
        let Some(d) = conditioned(dir) else {
            return out.push(top_point);
        };
        let cut = d.dot(top_point) - tol.abs() * d.norm();
        let mut close = [0 as HullIndex; 2];
        let mut n_close = 0usize;
        for &n in self.neighbors(top as usize) {
            if self.vertex(n as u32).is_some_and(|p| d.dot(p) >= cut) {
                if let Some(slot) = close.get_mut(n_close) {
                    *slot = n;
                }
                n_close += 1;
            }
        }
        match n_close {
            0 => out.push(top_point),
            1 => {
                out.push(top_point)?;
                out.push(self.vertex(close[0] as u32).unwrap_or(top_point))
            }
            _ => {
                // The loop of the face most aligned with `d`, keeping only
                // the vertices within `tol` (a sub-sequence of a CCW loop is
                // still CCW): a face tilted away from `d` contributes the
                // part of it that is extreme, never points below the cut.
                let face = self.best_face_at(top, d);
                for &v in self.face(face) {
                    if let Some(p) = self.vertex(v as u32).filter(|p| d.dot(*p) >= cut) {
                        out.push(p)?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl<R: Real> HullView<'_, R> {
    /// The face whose loop contains vertex `v` and whose normal is most
    /// aligned with `d` (face 0 when none contains it).
    fn best_face_at(&self, v: u32, d: Vec3<R>) -> usize {
        let mut best = 0usize;
        let mut best_value = -R::INFINITY;
        for (f, plane) in self.planes().iter().enumerate() {
            let value = plane.normal.dot(d);
            if value > best_value && self.face(f).contains(&(v as HullIndex)) {
                best_value = value;
                best = f;
            }
        }
        best
    }
}
