//! A hull's vertices in blocks of four, coordinate by coordinate
//! (structure of arrays), for the exhaustive support scan.
//!
//! With the vertices stored as `[x, y, z]` triples, a scan computes one dot
//! product at a time. With four x's, four y's and four z's side by side, the
//! compiler computes four at once (one SIMD multiply-add chain on any target
//! with 4-lane `f32` vectors, two 2-lane ones for `f64`) and keeps four
//! running maxima in one register: a 32-vertex scan takes about half the
//! instructions of the triple layout (`cargo bench -p mink-benches --bench
//! support`).

use crate::{Real, Vec3};

/// Four consecutive vertices of a hull, coordinate by coordinate: vertex
/// `4 b + k` of block `b` is `(x[k], y[k], z[k])`, hull frame, meters. The
/// last block of a hull whose vertex count is not a multiple of four repeats
/// the last vertex in its unused lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VertexLanes<R> {
    /// The four vertices' x coordinates.
    pub x: [R; 4],
    /// The four vertices' y coordinates.
    pub y: [R; 4],
    /// The four vertices' z coordinates.
    pub z: [R; 4],
}

impl<R: Real> VertexLanes<R> {
    /// Block `block` of `vertices` (vertices `4 block .. 4 block + 4`), the
    /// missing ones replaced by the last vertex; all zero when `vertices`
    /// is empty.
    pub fn block(vertices: &[Vec3<R>], block: usize) -> Self {
        let last = vertices.last().copied().unwrap_or(Vec3::ZERO);
        let at = |k: usize| vertices.get(4 * block + k).copied().unwrap_or(last);
        let (a, b, c, d) = (at(0), at(1), at(2), at(3));
        Self {
            x: [a.x, b.x, c.x, d.x],
            y: [a.y, b.y, c.y, d.y],
            z: [a.z, b.z, c.z, d.z],
        }
    }

    /// How many blocks hold `vertex_count` vertices.
    #[inline(always)]
    pub const fn blocks_for(vertex_count: usize) -> usize {
        vertex_count.div_ceil(4)
    }

    /// `true` when `lanes` is exactly `vertices` in blocks (as
    /// [`VertexLanes::block`] builds them), compared bit for bit.
    pub fn match_vertices(lanes: &[Self], vertices: &[Vec3<R>]) -> bool {
        lanes.len() == Self::blocks_for(vertices.len())
            && lanes
                .iter()
                .enumerate()
                .all(|(b, l)| *l == Self::block(vertices, b))
    }
}

/// The index of a vertex with the largest projection on `d` (finite,
/// non-zero), the first such vertex on ties, over `lanes` holding
/// `vertex_count >= 1` vertices. Four running maxima, one per lane, each
/// keeping its first best block; merged with ties going to the smaller
/// vertex index, so the answer is the first best vertex of a single pass,
/// and a padding lane (a copy of the last vertex, at a larger index) never
/// wins.
#[inline]
pub(crate) fn scan_lanes<R: Real>(
    lanes: &[VertexLanes<R>],
    d: Vec3<R>,
    vertex_count: usize,
) -> u32 {
    // Block numbers are kept as scalars so that the select is one vector
    // blend with the maxima's (exact: at most 2¹⁴ blocks).
    let mut best_block = [R::ZERO; 4];
    let mut best_value = [-R::INFINITY; 4];
    let mut block = R::ZERO;
    for l in lanes {
        let mut value = [R::ZERO; 4];
        for k in 0..4 {
            value[k] = d.x * l.x[k] + d.y * l.y[k] + d.z * l.z[k];
        }
        for k in 0..4 {
            let better = value[k] > best_value[k];
            best_block[k] = if better { block } else { best_block[k] };
            best_value[k] = if better { value[k] } else { best_value[k] };
        }
        block += R::ONE;
    }
    let four = R::lit(4.0);
    let mut winner = R::INFINITY;
    let mut winner_value = -R::INFINITY;
    for k in 0..4 {
        let index = best_block[k] * four + R::lit(k as f64);
        let value = best_value[k];
        if value > winner_value || (value == winner_value && index < winner) {
            winner = index;
            winner_value = value;
        }
    }
    let last = vertex_count.saturating_sub(1) as u32;
    if winner.finite() {
        (winner.to_f64() as u32).min(last)
    } else {
        0
    }
}

/// The smallest and largest projections of the vertices in `lanes` on each
/// of `axes` (`lo[i]`, `hi[i]` for `axes[i]`), in one pass: four running
/// minima and maxima per axis, merged at the end. Padding lanes repeat the
/// last vertex, so they never widen the range. `(+inf, -inf)` per axis
/// for empty `lanes`.
///
/// Each projection is `a.x * x + a.y * y + a.z * z` in that order, as
/// [`Mat3::mul_vec`](crate::Mat3::mul_vec) rounds a rotated vertex's
/// coordinate, so an AABB built from it holds every transformed vertex
/// bit for bit.
#[inline]
pub(crate) fn extent_lanes<R: Real>(
    lanes: &[VertexLanes<R>],
    axes: [Vec3<R>; 3],
) -> ([R; 3], [R; 3]) {
    let mut lo = [[R::INFINITY; 4]; 3];
    let mut hi = [[-R::INFINITY; 4]; 3];
    for l in lanes {
        for (i, a) in axes.iter().enumerate() {
            for k in 0..4 {
                let value = a.x * l.x[k] + a.y * l.y[k] + a.z * l.z[k];
                lo[i][k] = if value < lo[i][k] { value } else { lo[i][k] };
                hi[i][k] = if value > hi[i][k] { value } else { hi[i][k] };
            }
        }
    }
    merge_ranges(lo, hi)
}

/// The smallest and largest vertex coordinates in `lanes` (`lo[i]`,
/// `hi[i]` for coordinate `i`), exact: [`extent_lanes`] along the axes
/// without the products.
#[inline]
pub(crate) fn coordinate_range_lanes<R: Real>(lanes: &[VertexLanes<R>]) -> ([R; 3], [R; 3]) {
    let mut lo = [[R::INFINITY; 4]; 3];
    let mut hi = [[-R::INFINITY; 4]; 3];
    for l in lanes {
        for (i, coord) in [&l.x, &l.y, &l.z].into_iter().enumerate() {
            for k in 0..4 {
                let value = coord[k];
                lo[i][k] = if value < lo[i][k] { value } else { lo[i][k] };
                hi[i][k] = if value > hi[i][k] { value } else { hi[i][k] };
            }
        }
    }
    merge_ranges(lo, hi)
}

/// Four lanes of running minima and maxima per axis, merged.
#[inline(always)]
fn merge_ranges<R: Real>(lo: [[R; 4]; 3], hi: [[R; 4]; 3]) -> ([R; 3], [R; 3]) {
    let fold = |v: [R; 4], pick: fn(R, R) -> R| pick(pick(v[0], v[1]), pick(v[2], v[3]));
    let mut out_lo = [R::INFINITY; 3];
    let mut out_hi = [-R::INFINITY; 3];
    for i in 0..3 {
        out_lo[i] = fold(lo[i], |a, b| if b < a { b } else { a });
        out_hi[i] = fold(hi[i], |a, b| if b > a { b } else { a });
    }
    (out_lo, out_hi)
}
