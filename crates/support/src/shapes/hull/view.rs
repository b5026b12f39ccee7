//! The borrowed convex hull: a `Copy` view over flat arrays.

use super::lanes::VertexLanes;
use super::topology::{FacePlane, HullArrays, HullEdge, HullIndex, MAX_HULL_ARRAY_LEN};
use crate::{Real, ShapeError, Vec3};

/// How far a stored face normal's squared length may be from 1, in units of
/// [`Real::EPSILON`]: a normal computed in `f64` and rounded to `f32` is well
/// within it.
pub const UNIT_NORMAL_TOLERANCE_EPS: f64 = 64.0;

/// A convex hull borrowed from flat arrays ([`HullArrays`]): `Copy`, no
/// allocation, usable from `static` data.
///
/// Build one with [`HullView::new`], which checks the arrays, or with the
/// `const` [`HullView::new_unchecked`] for baked `static` data; an owned
/// [`ConvexHull`](super::ConvexHull) (feature `alloc`) hands out its view.
/// Every query is safe on inconsistent unchecked data: it never panics and
/// never loops unbounded, though its answers are then meaningless.
///
/// Everything is in the hull's local frame, meters. The hull's core is the
/// polytope itself ([`inflation`](crate::Support::inflation) 0); wrap it in
/// [`Rounded`](crate::Rounded) for a rounded hull.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullView<'a, R> {
    arrays: HullArrays<'a, R>,
}

/// The entries `starts[i]..starts[i + 1]` of `list`, or an empty slice when
/// the offsets are missing, reversed or out of range.
#[inline(always)]
pub(crate) fn sublist<'a>(
    starts: &[HullIndex],
    list: &'a [HullIndex],
    i: usize,
) -> &'a [HullIndex] {
    match (starts.get(i), starts.get(i + 1)) {
        (Some(&a), Some(&b)) => list.get(a as usize..b as usize).unwrap_or(&[]),
        _ => &[],
    }
}

impl<'a, R: Real> HullView<'a, R> {
    /// A view over `arrays`, after checking that they describe a closed
    /// polyhedron (see [`HullArrays`] for the layout):
    /// - at least 4 vertices and 4 faces, every array within
    ///   [`MAX_HULL_ARRAY_LEN`](super::MAX_HULL_ARRAY_LEN), sizes that agree
    ///   (`F + 1` face starts, `V + 1` neighbour starts, `2E` loop and
    ///   neighbour entries, `V - E + F = 2`);
    /// - finite vertices and planes, unit normals, a finite `tolerance >= 0`;
    /// - offsets starting at 0, non-decreasing, ending at their list's
    ///   length; faces of at least 3 vertices; every index in range;
    /// - each edge joins two distinct vertices, borders two distinct faces,
    ///   runs `v0 → v1` in its left face's loop and `v1 → v0` in its right
    ///   face's, and each end lists the other as a neighbour.
    ///
    /// It does not check convexity or planarity (the builder guarantees them
    /// to within `tolerance`). Errors are [`ShapeError::TooFewPoints`],
    /// [`ShapeError::NonFinite`], [`ShapeError::Negative`] and
    /// [`ShapeError::Inconsistent`] naming the array at fault.
    pub fn new(arrays: HullArrays<'a, R>) -> Result<Self, ShapeError> {
        validate(&arrays)?;
        Ok(Self { arrays })
    }

    /// A view over `arrays` without any check, for `static` data produced
    /// by the builder. Queries on inconsistent arrays do not panic, but their
    /// answers are meaningless; prefer [`HullView::new`] when in doubt.
    #[inline(always)]
    pub const fn new_unchecked(arrays: HullArrays<'a, R>) -> Self {
        Self { arrays }
    }

    /// The arrays behind the view.
    #[inline(always)]
    pub fn arrays(&self) -> HullArrays<'a, R> {
        self.arrays
    }

    /// The vertices, hull frame, meters.
    #[inline(always)]
    pub fn vertices(&self) -> &'a [Vec3<R>] {
        self.arrays.vertices
    }

    /// Vertex `i`, or `None` when out of range.
    #[inline(always)]
    pub fn vertex(&self, i: u32) -> Option<Vec3<R>> {
        self.arrays.vertices.get(i as usize).copied()
    }

    /// Number of vertices.
    #[inline(always)]
    pub fn vertex_count(&self) -> usize {
        self.arrays.vertices.len()
    }

    /// Number of faces (planes).
    #[inline(always)]
    pub fn face_count(&self) -> usize {
        self.arrays.planes.len()
    }

    /// The face planes, face `f`'s at index `f`.
    #[inline(always)]
    pub fn planes(&self) -> &'a [FacePlane<R>] {
        self.arrays.planes
    }

    /// Face `f`'s vertex loop (indices into [`HullView::vertices`]),
    /// counter-clockwise seen from outside; empty when `f` is out of range.
    #[inline(always)]
    pub fn face(&self, f: usize) -> &'a [HullIndex] {
        sublist(self.arrays.face_starts, self.arrays.face_vertices, f)
    }

    /// Every edge once.
    #[inline(always)]
    pub fn edges(&self) -> &'a [HullEdge] {
        self.arrays.edges
    }

    /// The vertices sharing an edge with vertex `v`; empty when `v` is out
    /// of range.
    #[inline(always)]
    pub fn neighbors(&self, v: usize) -> &'a [HullIndex] {
        sublist(self.arrays.neighbor_starts, self.arrays.neighbors, v)
    }

    /// The hull's flatness tolerance, meters (see [`HullArrays::tolerance`]).
    #[inline(always)]
    pub fn tolerance(&self) -> R {
        self.arrays.tolerance
    }

    /// The average of the vertices (hull frame, meters): strictly inside a
    /// hull with volume. The origin for a hull without vertices.
    pub fn vertex_centroid(&self) -> Vec3<R> {
        let vs = self.arrays.vertices;
        if vs.is_empty() {
            return Vec3::ZERO;
        }
        // Scale each vertex before adding, so coordinates near the largest
        // float cannot overflow the sum.
        let inv = R::ONE / R::lit(vs.len() as f64);
        let mut sum = Vec3::ZERO;
        for &v in vs {
            sum += v * inv;
        }
        sum
    }
}

fn inconsistent<T>(what: &'static str) -> Result<T, ShapeError> {
    Err(ShapeError::Inconsistent(what))
}

/// Checks one start-offset array against its list: `count + 1` entries,
/// starting at 0, non-decreasing, ending at `list_len`, each range at least
/// `min_len` long.
fn check_starts(
    starts: &[HullIndex],
    count: usize,
    list_len: usize,
    min_len: usize,
    what: &'static str,
) -> Result<(), ShapeError> {
    if starts.len() != count + 1
        || starts.first() != Some(&0)
        || starts.last().map(|&s| s as usize) != Some(list_len)
    {
        return inconsistent(what);
    }
    for w in starts.windows(2) {
        if (w[1] as usize) < w[0] as usize + min_len {
            return inconsistent(what);
        }
    }
    Ok(())
}

/// `true` when `a → b` are consecutive (cyclically) in `lp`.
fn has_directed_edge(lp: &[HullIndex], a: HullIndex, b: HullIndex) -> bool {
    let n = lp.len();
    (0..n).any(|i| lp[i] == a && lp[(i + 1) % n] == b)
}

fn validate<R: Real>(h: &HullArrays<'_, R>) -> Result<(), ShapeError> {
    let (nv, nf, ne) = (h.vertices.len(), h.planes.len(), h.edges.len());
    if nv < 4 {
        return Err(ShapeError::TooFewPoints {
            needed: 4,
            given: nv,
        });
    }
    if nf < 4 {
        return inconsistent("planes: a closed hull has at least 4 faces");
    }
    let lens = [nv + 1, nf + 1, ne, h.face_vertices.len(), h.neighbors.len()];
    if lens.iter().any(|&l| l > MAX_HULL_ARRAY_LEN) {
        return Err(ShapeError::Capacity(
            "hull arrays longer than MAX_HULL_ARRAY_LEN",
        ));
    }
    if nv + nf != ne + 2 {
        return inconsistent("edges: V - E + F must be 2");
    }
    if h.face_vertices.len() != 2 * ne {
        return inconsistent("face_vertices: must hold two entries per edge");
    }
    if h.neighbors.len() != 2 * ne {
        return inconsistent("neighbors: must hold two entries per edge");
    }
    if !h.tolerance.finite() {
        return Err(ShapeError::NonFinite("hull tolerance"));
    }
    if h.tolerance < R::ZERO {
        return Err(ShapeError::Negative("hull tolerance"));
    }
    if h.vertices.iter().any(|v| !v.is_finite()) {
        return Err(ShapeError::NonFinite("hull vertex"));
    }
    if !h.lanes.is_empty() && !VertexLanes::match_vertices(h.lanes, h.vertices) {
        return inconsistent("lanes: must be empty or the vertices in blocks of four");
    }
    let unit_tol = R::EPSILON * R::lit(UNIT_NORMAL_TOLERANCE_EPS);
    for p in h.planes {
        if !p.normal.is_finite() || !p.offset.finite() {
            return Err(ShapeError::NonFinite("hull face plane"));
        }
        if (p.normal.norm_squared() - R::ONE).abs() > unit_tol {
            return inconsistent("planes: normals must be unit length");
        }
    }
    check_starts(h.face_starts, nf, h.face_vertices.len(), 3, "face_starts")?;
    check_starts(
        h.neighbor_starts,
        nv,
        h.neighbors.len(),
        1,
        "neighbor_starts",
    )?;
    if h.face_vertices.iter().any(|&v| v as usize >= nv) {
        return inconsistent("face_vertices: vertex index out of range");
    }
    if h.neighbors.iter().any(|&v| v as usize >= nv) {
        return inconsistent("neighbors: vertex index out of range");
    }
    for e in h.edges {
        let [a, b] = e.vertices;
        let [f, g] = e.faces;
        if a == b || a as usize >= nv || b as usize >= nv {
            return inconsistent("edges: vertices out of range or equal");
        }
        if f == g || f as usize >= nf || g as usize >= nf {
            return inconsistent("edges: faces out of range or equal");
        }
        let left = sublist(h.face_starts, h.face_vertices, f as usize);
        let right = sublist(h.face_starts, h.face_vertices, g as usize);
        if !has_directed_edge(left, a, b) || !has_directed_edge(right, b, a) {
            return inconsistent("edges: not in their faces' loops");
        }
        let na = sublist(h.neighbor_starts, h.neighbors, a as usize);
        let nb = sublist(h.neighbor_starts, h.neighbors, b as usize);
        if !na.contains(&b) || !nb.contains(&a) {
            return inconsistent("neighbors: an edge's ends must list each other");
        }
    }
    Ok(())
}
