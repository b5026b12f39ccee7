//! Building fields (behind `alloc`; `rayon` parallelizes over cells and
//! over meshes).

use crate::grid::cell_direction;
use crate::set::FieldSetView;
use crate::store::{CompactCells, FullCells, COMPACT_MAX_VERTICES};
use crate::{FieldError, FieldView, MAX_RESOLUTION, MIN_RESOLUTION};
use alloc::vec::Vec;
use mink_support::{Real, Vec3};

/// The index of the vertex farthest along `d` (the first on ties, like
/// NumPy's `argmax`, so fields match Genesis'), from vertices as `f64`.
#[inline]
fn argmax(xs: &[f64], ys: &[f64], zs: &[f64], d: Vec3<f64>) -> u32 {
    let mut best = f64::NEG_INFINITY;
    let mut arg = 0u32;
    for k in 0..xs.len() {
        let s = d.x * xs[k] + d.y * ys[k] + d.z * zs[k];
        if s > best {
            best = s;
            arg = k as u32;
        }
    }
    arg
}

/// The vertices, checked and split into `f64` coordinate arrays.
fn prepare<R: Real>(vertices: &[Vec3<R>]) -> Result<[Vec<f64>; 3], FieldError> {
    if vertices.is_empty() || vertices.len() > u32::MAX as usize {
        return Err(FieldError::VertexCount("mesh vertices"));
    }
    if !vertices.iter().all(|v| v.is_finite()) {
        return Err(FieldError::NonFinite("mesh vertices"));
    }
    Ok([
        vertices.iter().map(|v| v.x.to_f64()).collect(),
        vertices.iter().map(|v| v.y.to_f64()).collect(),
        vertices.iter().map(|v| v.z.to_f64()).collect(),
    ])
}

/// Fills one θ-row (`res` cells) of winning indices.
fn fill_row(res: u32, i: u32, v: &[Vec<f64>; 3], out: &mut [u32]) {
    for (j, slot) in out.iter_mut().enumerate() {
        *slot = argmax(&v[0], &v[1], &v[2], cell_direction(res, i, j as u32));
    }
}

fn check_res(res: u32) -> Result<(), FieldError> {
    if (MIN_RESOLUTION..=MAX_RESOLUTION).contains(&res) {
        Ok(())
    } else {
        Err(FieldError::Resolution(res))
    }
}

/// Winning vertex index per cell, single-threaded.
fn indices_serial<R: Real>(vertices: &[Vec3<R>], res: u32) -> Result<Vec<u32>, FieldError> {
    check_res(res)?;
    let v = prepare(vertices)?;
    let mut out = alloc::vec![0u32; (res as usize) * (res as usize)];
    for (i, row) in out.chunks_mut(res as usize).enumerate() {
        fill_row(res, i as u32, &v, row);
    }
    Ok(out)
}

/// Winning vertex index per cell, rows in parallel.
#[cfg(feature = "rayon")]
fn indices_parallel<R: Real>(vertices: &[Vec3<R>], res: u32) -> Result<Vec<u32>, FieldError> {
    use rayon::prelude::*;
    check_res(res)?;
    let v = prepare(vertices)?;
    let mut out = alloc::vec![0u32; (res as usize) * (res as usize)];
    out.par_chunks_mut(res as usize)
        .enumerate()
        .for_each(|(i, row)| fill_row(res, i as u32, &v, row));
    Ok(out)
}

/// A support field over one mesh, owned.
///
/// Cells are in Genesis' layout ([`crate::grid`]): the position (mesh's
/// local frame, meters) and index of the winning vertex per cell.
#[derive(Clone, Debug, PartialEq)]
pub struct SupportField<R> {
    res: u32,
    vertex_count: u32,
    points: Vec<[R; 3]>,
    indices: Vec<u32>,
}

impl<R: Real> SupportField<R> {
    /// Builds the field of the convex hull of `vertices` (local frame,
    /// meters) at resolution `res` ([`DEFAULT_RESOLUTION`](crate::DEFAULT_RESOLUTION)
    /// is 180): for every cell, the vertex farthest along its direction,
    /// computed in `f64`, the first one on ties. Vertices inside the hull
    /// never win except on ties, so passing the hull's vertices or the
    /// whole point cloud gives the same support values.
    ///
    /// With the `rayon` feature, rows of cells are built in parallel.
    /// `O(res² · n)`. Refuses an empty or non-finite vertex array and a
    /// resolution out of range.
    pub fn build(vertices: &[Vec3<R>], res: u32) -> Result<Self, FieldError> {
        #[cfg(feature = "rayon")]
        let indices = indices_parallel(vertices, res)?;
        #[cfg(not(feature = "rayon"))]
        let indices = indices_serial(vertices, res)?;
        Ok(Self::from_indices(vertices, res, indices))
    }

    /// [`SupportField::build`] on the calling thread only, whatever the
    /// features.
    pub fn build_serial(vertices: &[Vec3<R>], res: u32) -> Result<Self, FieldError> {
        let indices = indices_serial(vertices, res)?;
        Ok(Self::from_indices(vertices, res, indices))
    }

    fn from_indices(vertices: &[Vec3<R>], res: u32, indices: Vec<u32>) -> Self {
        let points = indices
            .iter()
            .map(|&i| {
                vertices
                    .get(i as usize)
                    .copied()
                    .unwrap_or(Vec3::ZERO)
                    .to_array()
            })
            .collect();
        Self {
            res,
            vertex_count: vertices.len() as u32,
            points,
            indices,
        }
    }

    /// The resolution.
    pub fn res(&self) -> u32 {
        self.res
    }

    /// Number of vertices of the mesh.
    pub fn vertex_count(&self) -> u32 {
        self.vertex_count
    }

    /// The winning positions per cell (local frame, meters).
    pub fn points(&self) -> &[[R; 3]] {
        &self.points
    }

    /// The winning vertex indices per cell.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    /// The borrowed view that answers queries.
    pub fn view(&self) -> FieldView<R, FullCells<'_, R>> {
        let cells = FullCells::new_unchecked(&self.points, &self.indices, self.vertex_count);
        // The resolution, cell count and indices were checked when building.
        FieldView::new_unchecked(self.res, cells)
    }

    /// The cell indices as `u16`, for the compact layout
    /// ([`CompactCells`]); refuses meshes of more than 65,536 vertices.
    pub fn compact_indices(&self) -> Result<Vec<u16>, FieldError> {
        if self.vertex_count as usize > COMPACT_MAX_VERTICES {
            return Err(FieldError::VertexCount(
                "more than 65,536 vertices in the compact layout",
            ));
        }
        Ok(self.indices.iter().map(|&i| i as u16).collect())
    }

    /// A compact view: `indices` from [`SupportField::compact_indices`]
    /// over the same `vertices` the field was built from.
    pub fn compact_view<'a>(
        &self,
        indices: &'a [u16],
        vertices: &'a [Vec3<R>],
    ) -> Result<FieldView<R, CompactCells<'a, R>>, FieldError> {
        FieldView::new(self.res, CompactCells::new(indices, vertices)?)
    }

    /// Bytes of cell data in the full layout: `res² · (3 · size_of::<R>() + 4)`.
    pub fn bytes(&self) -> usize {
        self.indices.len() * (3 * core::mem::size_of::<R>() + 4)
    }
}

/// The fields of many meshes in flat arrays with per-geometry offsets
/// (Genesis' layout), owned. See [`FieldSetView`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FieldSet<R> {
    res: Vec<u32>,
    cell_start: Vec<u32>,
    vertex_count: Vec<u32>,
    points: Vec<[R; 3]>,
    indices: Vec<u32>,
}

impl<R: Real> FieldSet<R> {
    /// Builds one field per mesh (each a vertex array in its own local
    /// frame, meters), all at resolution `res`, and concatenates them.
    ///
    /// With `rayon`, meshes are built in parallel (each single-threaded).
    /// Refuses what [`SupportField::build`] refuses, and sets whose total
    /// cell count does not fit a `u32` offset.
    pub fn build(meshes: &[&[Vec3<R>]], res: u32) -> Result<Self, FieldError> {
        #[cfg(feature = "rayon")]
        let fields: Result<Vec<_>, _> = {
            use rayon::prelude::*;
            meshes
                .par_iter()
                .map(|m| SupportField::build_serial(m, res))
                .collect()
        };
        #[cfg(not(feature = "rayon"))]
        let fields: Result<Vec<_>, _> = meshes
            .iter()
            .map(|m| SupportField::build_serial(m, res))
            .collect();
        Self::from_fields(&fields?)
    }

    /// Concatenates already-built fields (of any resolutions).
    pub fn from_fields(fields: &[SupportField<R>]) -> Result<Self, FieldError> {
        let mut set = Self {
            cell_start: alloc::vec![0],
            ..Self::default()
        };
        for f in fields {
            let end = set.indices.len() + f.indices.len();
            let end =
                u32::try_from(end).map_err(|_| FieldError::Length("total cells exceed u32"))?;
            set.res.push(f.res);
            set.vertex_count.push(f.vertex_count);
            set.points.extend_from_slice(&f.points);
            set.indices.extend_from_slice(&f.indices);
            set.cell_start.push(end);
        }
        Ok(set)
    }

    /// The borrowed view that answers queries.
    pub fn view(&self) -> FieldSetView<'_, R> {
        // Concatenated from valid fields with a running prefix sum.
        FieldSetView::new_unchecked(
            &self.res,
            &self.cell_start,
            &self.vertex_count,
            &self.points,
            &self.indices,
        )
    }

    /// Number of geometries.
    pub fn len(&self) -> usize {
        self.res.len()
    }

    /// `true` when empty.
    pub fn is_empty(&self) -> bool {
        self.res.is_empty()
    }

    /// The flat arrays `(res, cell_start, vertex_count, points, indices)`.
    #[allow(clippy::type_complexity)]
    pub fn arrays(&self) -> (&[u32], &[u32], &[u32], &[[R; 3]], &[u32]) {
        (
            &self.res,
            &self.cell_start,
            &self.vertex_count,
            &self.points,
            &self.indices,
        )
    }
}
