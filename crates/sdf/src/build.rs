//! Building a field from a validated mesh (feature `alloc`; `rayon`
//! parallelizes over z slices).

use crate::bvh::{Bvh, Nearest};
use crate::geometry::TriFeature;
use crate::{SdfError, SdfGrid, SdfView, TriMesh};
use alloc::vec;
use alloc::vec::Vec;
use mink_support::{Real, Vec3};

/// The fewest samples along the grid's longest axis.
pub const MIN_RESOLUTION: u32 = 2;

/// The most samples along the grid's longest axis (512³ samples is 512 MiB
/// in `f32`).
pub const MAX_RESOLUTION: u32 = 512;

/// How to lay the grid over a mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SdfOptions<R> {
    /// Samples along the longest axis of the padded mesh box, in
    /// `MIN_RESOLUTION..=MAX_RESOLUTION`; the other axes get the same
    /// spacing (so a flat mesh gets few samples across).
    pub resolution: u32,
    /// Meters added around the mesh's AABB on every side (`>= 0`): the
    /// field is exact-to-interpolation within the padded box and
    /// extrapolated (box distance plus boundary value) beyond it, so pad by
    /// at least the contact margin.
    pub padding: R,
}

impl<R: Real> SdfOptions<R> {
    /// Options with `resolution` samples along the longest axis and
    /// `padding` meters around the mesh.
    pub fn new(resolution: u32, padding: R) -> Self {
        Self {
            resolution,
            padding,
        }
    }
}

/// An owned signed distance field: the grid and its samples.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnedSdf<R> {
    grid: SdfGrid<R>,
    samples: Vec<R>,
}

/// Per-mesh data for the sign: angle-weighted pseudonormals of faces,
/// edges and vertices (Bærentzen and Aanæs): for a closed, consistently
/// oriented mesh, the nearest point's feature pseudonormal `n` gives the
/// sign of `(p - nearest) · n` as the side `p` is on.
struct Pseudonormals<R> {
    face: Vec<Vec3<R>>,
    edge: Vec<Vec3<R>>,
    vertex: Vec<Vec3<R>>,
}

impl<R: Real> Pseudonormals<R> {
    fn new(mesh: &TriMesh<R>, v: &[Vec3<R>]) -> Self {
        let mut face = Vec::with_capacity(mesh.triangles().len());
        let mut edge = vec![Vec3::ZERO; mesh.edges().len()];
        let mut vertex = vec![Vec3::ZERO; v.len()];
        for (t, e) in mesh.triangles().iter().zip(mesh.triangle_edges()) {
            let p = t.map(|i| v[i as usize]);
            let n = (p[1] - p[0]).cross(p[2] - p[0]).normalize_or(Vec3::ZERO);
            face.push(n);
            for k in 0..3 {
                edge[e[k] as usize] += n;
                let u = (p[(k + 1) % 3] - p[k]).normalize_or(Vec3::ZERO);
                let w = (p[(k + 2) % 3] - p[k]).normalize_or(Vec3::ZERO);
                let angle = u.cross(w).norm().atan2(u.dot(w));
                vertex[t[k] as usize] += n * angle;
            }
        }
        Self { face, edge, vertex }
    }

    fn of(&self, mesh: &TriMesh<R>, near: &Nearest<R>) -> Vec3<R> {
        let t = near.tri as usize;
        match near.feature {
            TriFeature::Face => self.face[t],
            TriFeature::Edge(k) => self.edge[mesh.triangle_edges()[t][k as usize] as usize],
            TriFeature::Vertex(k) => self.vertex[mesh.triangles()[t][k as usize] as usize],
        }
    }
}

/// The grid over `mesh` for `options`.
fn layout<R: Real>(mesh: &TriMesh<R>, options: &SdfOptions<R>) -> Result<SdfGrid<R>, SdfError> {
    if !(MIN_RESOLUTION..=MAX_RESOLUTION).contains(&options.resolution) {
        return Err(SdfError::Resolution);
    }
    if !options.padding.finite() || options.padding < R::ZERO {
        return Err(SdfError::Geometry);
    }
    let b = mesh.view().aabb().inflated(options.padding);
    let ext = b.max - b.min;
    let longest = ext.max_element();
    let cell = longest / R::lit(f64::from(options.resolution - 1));
    if !cell.finite() || cell <= R::ZERO {
        return Err(SdfError::Geometry);
    }
    let mut dims = [0u32; 3];
    let mut origin = b.min;
    for a in 0..3 {
        let n = (ext.get(a) / cell)
            .ceil()
            .to_f64()
            .clamp(1.0, f64::from(options.resolution - 1));
        dims[a] = n as u32 + 1;
        let span = R::lit(n) * cell;
        let o = b.min.get(a) - (span - ext.get(a)) * R::HALF;
        match a {
            0 => origin.x = o,
            1 => origin.y = o,
            _ => origin.z = o,
        }
    }
    let grid = SdfGrid { origin, cell, dims };
    if !grid.is_valid() {
        return Err(SdfError::Geometry);
    }
    Ok(grid)
}

/// The mesh moved and scaled to its AABB's centre and half diagonal, where
/// the distance computations run, so that neither tiny nor huge meshes
/// underflow or overflow in squared lengths.
struct Frame<R> {
    centre: Vec3<R>,
    scale: R,
}

impl<R: Real> Frame<R> {
    fn of(mesh: &TriMesh<R>) -> Self {
        let b = mesh.view().aabb();
        let half = b.half_extents();
        let m = half.max_abs();
        let unit = Vec3::new(half.x / m, half.y / m, half.z / m);
        Self {
            centre: b.center(),
            scale: m * unit.norm(),
        }
    }
    fn to_unit(&self, p: Vec3<R>) -> Vec3<R> {
        let d = p - self.centre;
        Vec3::new(d.x / self.scale, d.y / self.scale, d.z / self.scale)
    }
}

/// What every slice reads.
struct Shared<'m, R> {
    mesh: &'m TriMesh<R>,
    bvh: Bvh<R>,
    normals: Pseudonormals<R>,
    frame: Frame<R>,
    grid: SdfGrid<R>,
}

/// Fills one z slice of samples.
fn fill_slice<R: Real>(sh: &Shared<'_, R>, k: u32, slice: &mut [R]) {
    let (mesh, bvh, normals, grid) = (sh.mesh, &sh.bvh, &sh.normals, &sh.grid);
    let nx = grid.dims[0] as usize;
    for (j, row) in slice.chunks_mut(nx).enumerate() {
        let mut guess = 0u32;
        for (i, s) in row.iter_mut().enumerate() {
            let p = sh.frame.to_unit(grid.point(i as u32, j as u32, k));
            let near = bvh.nearest(p, bvh.nearest_on(p, guess));
            guess = near.tri;
            let d = near.d2.sqrt() * sh.frame.scale;
            let side = (p - near.point).dot(normals.of(mesh, &near));
            *s = if side < R::ZERO { -d } else { d };
        }
    }
}

impl<R: Real> OwnedSdf<R> {
    /// The signed distance field of `mesh` (its frame, meters): exact
    /// point–triangle distances at every grid point (nearest triangle from
    /// an AABB tree), signed by the angle-weighted pseudonormal of the
    /// nearest feature. With the `rayon` feature, z slices are built in
    /// parallel (same samples as [`OwnedSdf::build_serial`]).
    ///
    /// Errors: [`SdfError::Resolution`] outside
    /// [`MIN_RESOLUTION`]`..=`[`MAX_RESOLUTION`], [`SdfError::Geometry`]
    /// for a negative or non-finite padding or a grid whose extent
    /// overflows.
    pub fn build(mesh: &TriMesh<R>, options: SdfOptions<R>) -> Result<Self, SdfError> {
        #[cfg(feature = "rayon")]
        {
            Self::build_with(mesh, options, true)
        }
        #[cfg(not(feature = "rayon"))]
        {
            Self::build_with(mesh, options, false)
        }
    }

    /// [`OwnedSdf::build`] on the calling thread only.
    pub fn build_serial(mesh: &TriMesh<R>, options: SdfOptions<R>) -> Result<Self, SdfError> {
        Self::build_with(mesh, options, false)
    }

    fn build_with(
        mesh: &TriMesh<R>,
        options: SdfOptions<R>,
        parallel: bool,
    ) -> Result<Self, SdfError> {
        let grid = layout(mesh, &options)?;
        let count = grid.sample_count().ok_or(SdfError::Dimensions)?;
        let frame = Frame::of(mesh);
        let unit: Vec<Vec3<R>> = mesh.vertices().iter().map(|&v| frame.to_unit(v)).collect();
        let tris: Vec<[Vec3<R>; 3]> = mesh
            .triangles()
            .iter()
            .map(|t| t.map(|i| unit[i as usize]))
            .collect();
        let shared = Shared {
            mesh,
            bvh: Bvh::new(tris),
            normals: Pseudonormals::new(mesh, &unit),
            frame,
            grid,
        };
        let mut samples = vec![R::ZERO; count];
        let slice_len = grid.dims[0] as usize * grid.dims[1] as usize;
        let _ = parallel;
        #[cfg(feature = "rayon")]
        if parallel {
            use rayon::prelude::*;
            samples
                .par_chunks_mut(slice_len)
                .enumerate()
                .for_each(|(k, s)| fill_slice(&shared, k as u32, s));
            return Ok(Self { grid, samples });
        }
        for (k, s) in samples.chunks_mut(slice_len).enumerate() {
            fill_slice(&shared, k as u32, s);
        }
        Ok(Self { grid, samples })
    }

    /// The borrowed view, for queries.
    pub fn view(&self) -> SdfView<'_, R> {
        SdfView::new_unchecked(self.grid, &self.samples)
    }

    /// The grid.
    pub fn grid(&self) -> SdfGrid<R> {
        self.grid
    }

    /// The samples (meters, negative inside), flat index
    /// `i + dims[0] (j + dims[1] k)`.
    pub fn samples(&self) -> &[R] {
        &self.samples
    }
}
