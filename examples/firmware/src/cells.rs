//! The firmware's layout of the support field's cells: one byte per cell.
//!
//! This file is compiled into the firmware (`f32`) and into `build.rs`
//! (`f64`), like `scene.rs`.

use mink_field::{CellStore, FieldError};
use mink_support::{Real, Vec3};

/// Most vertices a byte can index.
pub const BYTE_CELLS_MAX_VERTICES: usize = 1 << 8;

/// A support field's cells, borrowed: a `u8` vertex index per cell,
/// positions read from the hull's own vertex array. The layout of
/// [`CompactCells`](mink_field::CompactCells) with half its bytes, for
/// hulls of at most [`BYTE_CELLS_MAX_VERTICES`] vertices: the firmware's
/// 24 × 24 field of its 32-vertex hull takes 576 bytes of flash instead of
/// 1,152. The same indices, so the same answers.
#[derive(Clone, Copy, Debug)]
pub struct ByteCells<'a, R> {
    /// The winning vertex of each flat cell `i · res + j`.
    indices: &'a [u8],
    /// The hull's vertices (local frame, meters).
    vertices: &'a [Vec3<R>],
}

impl<'a, R: Real> ByteCells<'a, R> {
    /// Borrowed cells over the hull's `vertices` (local frame, meters).
    ///
    /// Refuses an empty or over-large ([`BYTE_CELLS_MAX_VERTICES`]) vertex
    /// array ([`FieldError::VertexCount`]), an index out of range
    /// ([`FieldError::IndexOutOfRange`]) and non-finite vertices
    /// ([`FieldError::NonFinite`]), as `CompactCells::new` does. `O(cells)`.
    pub fn new(indices: &'a [u8], vertices: &'a [Vec3<R>]) -> Result<Self, FieldError> {
        if vertices.is_empty() {
            return Err(FieldError::VertexCount("no vertices"));
        }
        if vertices.len() > BYTE_CELLS_MAX_VERTICES {
            return Err(FieldError::VertexCount(
                "more than 256 vertices in the byte layout",
            ));
        }
        for (at, &index) in indices.iter().enumerate() {
            if usize::from(index) >= vertices.len() {
                return Err(FieldError::IndexOutOfRange {
                    at,
                    index: u32::from(index),
                });
            }
        }
        if !vertices.iter().all(|v| v.is_finite()) {
            return Err(FieldError::NonFinite("hull vertices"));
        }
        Ok(Self { indices, vertices })
    }
}

impl<R: Real> CellStore<R> for ByteCells<'_, R> {
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
        self.indices.len()
    }
}
