//! Where a field's cells live: the [`CellStore`] trait and its two borrowed
//! layouts, full ([`FullCells`]: position and index per cell, Genesis'
//! layout) and compact ([`CompactCells`]: a `u16` index per cell, positions
//! read from the hull's vertex array).

use crate::FieldError;
use mink_support::{Real, Vec3};

/// Read access to a field's cells: the winning vertex (index and position
/// in the mesh's local frame, meters) of each flat cell `i · res + j`.
///
/// Implementations validate on construction so that every stored index is
/// below [`CellStore::vertex_count`] and every position is finite; queries
/// rely on it and never index out of bounds regardless.
pub trait CellStore<R: Real>: Copy {
    /// Number of cells (`res²` for a valid field).
    fn cell_count(&self) -> usize;

    /// Number of vertices of the mesh the indices refer to.
    fn vertex_count(&self) -> u32;

    /// The winning vertex of flat cell `k`: its index and its position
    /// (local frame, meters); `None` when `k` is out of range.
    fn cell(&self, k: usize) -> Option<(u32, Vec3<R>)>;

    /// Bytes of cell data this layout stores (excluding any vertex array
    /// it borrows from the hull).
    fn cell_bytes(&self) -> usize;
}

/// Genesis' layout, borrowed: per cell, the winning vertex's position
/// (`[x, y, z]`, local frame, meters) and its index in the mesh.
#[derive(Clone, Copy, Debug)]
pub struct FullCells<'a, R> {
    points: &'a [[R; 3]],
    indices: &'a [u32],
    vertex_count: u32,
}

impl<'a, R: Real> FullCells<'a, R> {
    /// Borrowed cells of a mesh of `vertex_count` vertices.
    ///
    /// Refuses arrays of different lengths, an index `>= vertex_count`, a
    /// zero `vertex_count` and non-finite positions. `O(cells)`.
    pub fn new(
        points: &'a [[R; 3]],
        indices: &'a [u32],
        vertex_count: u32,
    ) -> Result<Self, FieldError> {
        if points.len() != indices.len() {
            return Err(FieldError::Length("cell points vs cell indices"));
        }
        if vertex_count == 0 {
            return Err(FieldError::VertexCount("no vertices"));
        }
        check_indices(indices.iter().copied(), vertex_count)?;
        if !points.iter().all(|p| p.iter().all(|c| c.finite())) {
            return Err(FieldError::NonFinite("cell points"));
        }
        Ok(Self {
            points,
            indices,
            vertex_count,
        })
    }

    /// Cells already validated (by a set that owns the check).
    pub(crate) fn new_unchecked(
        points: &'a [[R; 3]],
        indices: &'a [u32],
        vertex_count: u32,
    ) -> Self {
        Self {
            points,
            indices,
            vertex_count,
        }
    }

    /// The cell positions (local frame, meters).
    pub fn points(&self) -> &'a [[R; 3]] {
        self.points
    }

    /// The cell vertex indices.
    pub fn indices(&self) -> &'a [u32] {
        self.indices
    }
}

impl<R: Real> CellStore<R> for FullCells<'_, R> {
    #[inline(always)]
    fn cell_count(&self) -> usize {
        self.indices.len()
    }
    #[inline(always)]
    fn vertex_count(&self) -> u32 {
        self.vertex_count
    }
    #[inline(always)]
    fn cell(&self, k: usize) -> Option<(u32, Vec3<R>)> {
        let p = self.points.get(k)?;
        let i = *self.indices.get(k)?;
        Some((i, Vec3::from_array(*p)))
    }
    fn cell_bytes(&self) -> usize {
        self.indices.len() * (3 * core::mem::size_of::<R>() + 4)
    }
}

/// The compact layout, borrowed: a `u16` vertex index per cell, positions
/// read from the hull's own vertex array (so at most 65,536 vertices).
///
/// At resolution 180 this is 64,800 bytes per mesh instead of 518,400 for
/// the full layout in `f32`; a query pays one more dependent load per cell.
#[derive(Clone, Copy, Debug)]
pub struct CompactCells<'a, R> {
    indices: &'a [u16],
    vertices: &'a [Vec3<R>],
}

/// Most vertices the compact layout can index.
pub const COMPACT_MAX_VERTICES: usize = 1 << 16;

impl<'a, R: Real> CompactCells<'a, R> {
    /// Borrowed compact cells over the hull's `vertices` (local frame,
    /// meters).
    ///
    /// Refuses an empty or over-large ([`COMPACT_MAX_VERTICES`]) vertex
    /// array, an index out of range and non-finite vertices. `O(cells)`.
    pub fn new(indices: &'a [u16], vertices: &'a [Vec3<R>]) -> Result<Self, FieldError> {
        if vertices.is_empty() {
            return Err(FieldError::VertexCount("no vertices"));
        }
        if vertices.len() > COMPACT_MAX_VERTICES {
            return Err(FieldError::VertexCount(
                "more than 65,536 vertices in the compact layout",
            ));
        }
        check_indices(indices.iter().map(|&i| u32::from(i)), vertices.len() as u32)?;
        if !vertices.iter().all(|v| v.is_finite()) {
            return Err(FieldError::NonFinite("hull vertices"));
        }
        Ok(Self { indices, vertices })
    }

    /// The cell vertex indices.
    pub fn indices(&self) -> &'a [u16] {
        self.indices
    }

    /// The hull vertices the indices refer to (local frame, meters).
    pub fn vertices(&self) -> &'a [Vec3<R>] {
        self.vertices
    }
}

impl<R: Real> CellStore<R> for CompactCells<'_, R> {
    #[inline(always)]
    fn cell_count(&self) -> usize {
        self.indices.len()
    }
    #[inline(always)]
    fn vertex_count(&self) -> u32 {
        self.vertices.len() as u32
    }
    #[inline(always)]
    fn cell(&self, k: usize) -> Option<(u32, Vec3<R>)> {
        let i = *self.indices.get(k)?;
        let p = *self.vertices.get(usize::from(i))?;
        Some((u32::from(i), p))
    }
    fn cell_bytes(&self) -> usize {
        self.indices.len() * 2
    }
}

/// Checks that every index is below `n`, naming the first that is not.
pub(crate) fn check_indices(indices: impl Iterator<Item = u32>, n: u32) -> Result<(), FieldError> {
    for (at, index) in indices.enumerate() {
        if index >= n {
            return Err(FieldError::IndexOutOfRange { at, index });
        }
    }
    Ok(())
}
