//! Many meshes' fields in one set of flat arrays, borrowed (Genesis'
//! struct-of-arrays layout): a query needs no pointer chasing.

use crate::store::{check_indices, FullCells};
use crate::view::FieldHit;
use crate::{FieldError, FieldView, MAX_RESOLUTION, MIN_RESOLUTION};
use mink_support::{Real, Vec3};

/// The fields of `n` meshes, borrowed from flat arrays:
///
/// - `res[g]`: geometry `g`'s resolution,
/// - `cell_start[g]`: offset of its block of `res[g]²` cells (prefix sum,
///   `n + 1` entries, the last the total),
/// - `vertex_count[g]`: its mesh's vertex count,
/// - `points`, `indices`: per cell, the winning vertex's position (local
///   frame of its mesh, meters) and index, all blocks concatenated.
#[derive(Clone, Copy, Debug)]
pub struct FieldSetView<'a, R> {
    res: &'a [u32],
    cell_start: &'a [u32],
    vertex_count: &'a [u32],
    points: &'a [[R; 3]],
    indices: &'a [u32],
}

impl<'a, R: Real> FieldSetView<'a, R> {
    /// A set over the flat arrays described on [`FieldSetView`].
    ///
    /// Refuses arrays of inconsistent lengths, a resolution out of range, a
    /// block whose size is not `res²`, an index out of its mesh and
    /// non-finite positions. `O(cells)`.
    pub fn new(
        res: &'a [u32],
        cell_start: &'a [u32],
        vertex_count: &'a [u32],
        points: &'a [[R; 3]],
        indices: &'a [u32],
    ) -> Result<Self, FieldError> {
        let n = res.len();
        if cell_start.len() != n + 1 {
            return Err(FieldError::Length("cell_start (must be geometries + 1)"));
        }
        if vertex_count.len() != n {
            return Err(FieldError::Length("vertex_count (must be geometries)"));
        }
        if points.len() != indices.len()
            || cell_start.first() != Some(&0)
            || cell_start.last().map(|&c| c as usize) != Some(indices.len())
        {
            return Err(FieldError::Length("cells vs cell_start"));
        }
        for g in 0..n {
            let r = res[g];
            if !(MIN_RESOLUTION..=MAX_RESOLUTION).contains(&r) {
                return Err(FieldError::Resolution(r));
            }
            let (lo, hi) = (cell_start[g] as usize, cell_start[g + 1] as usize);
            if hi < lo || hi - lo != (r as usize) * (r as usize) {
                return Err(FieldError::Length("a geometry's block (must be res²)"));
            }
            if vertex_count[g] == 0 {
                return Err(FieldError::VertexCount("a geometry has no vertices"));
            }
            let block = indices
                .get(lo..hi)
                .ok_or(FieldError::Length("cell_start (not a prefix sum)"))?;
            check_indices(block.iter().copied(), vertex_count[g]).map_err(|e| match e {
                FieldError::IndexOutOfRange { at, index } => {
                    FieldError::IndexOutOfRange { at: at + lo, index }
                }
                other => other,
            })?;
        }
        if !points.iter().all(|p| p.iter().all(|c| c.finite())) {
            return Err(FieldError::NonFinite("cell points"));
        }
        Ok(Self {
            res,
            cell_start,
            vertex_count,
            points,
            indices,
        })
    }

    /// A set over arrays known to be valid (built by this crate).
    #[cfg(feature = "alloc")]
    pub(crate) fn new_unchecked(
        res: &'a [u32],
        cell_start: &'a [u32],
        vertex_count: &'a [u32],
        points: &'a [[R; 3]],
        indices: &'a [u32],
    ) -> Self {
        Self {
            res,
            cell_start,
            vertex_count,
            points,
            indices,
        }
    }

    /// Number of geometries.
    #[inline]
    pub fn len(&self) -> usize {
        self.res.len()
    }

    /// `true` when the set holds no geometry.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.res.is_empty()
    }

    /// Geometry `g`'s field; `None` past the end.
    #[inline]
    pub fn get(&self, g: usize) -> Option<FieldView<R, FullCells<'a, R>>> {
        let res = *self.res.get(g)?;
        let lo = *self.cell_start.get(g)? as usize;
        let hi = *self.cell_start.get(g + 1)? as usize;
        let cells = FullCells::new_unchecked(
            self.points.get(lo..hi)?,
            self.indices.get(lo..hi)?,
            *self.vertex_count.get(g)?,
        );
        Some(FieldView::new_unchecked(res, cells))
    }

    /// The support of geometry `g` along `dir` (its local frame, need not
    /// be unit); see [`FieldView::query`]. Refuses a geometry past the end
    /// and a non-finite `dir`.
    #[inline]
    pub fn query(&self, g: usize, dir: Vec3<R>) -> Result<FieldHit<R>, FieldError> {
        self.get(g).ok_or(FieldError::NoSuchGeometry(g))?.query(dir)
    }

    /// The per-geometry resolutions.
    pub fn resolutions(&self) -> &'a [u32] {
        self.res
    }

    /// The per-geometry cell offsets (`len() + 1` entries).
    pub fn cell_start(&self) -> &'a [u32] {
        self.cell_start
    }
}
