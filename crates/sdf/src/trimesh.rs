//! The owned, validated closed triangle mesh (feature `alloc`).

use crate::{MeshError, MeshView};
use alloc::vec;
use alloc::vec::Vec;
use mink_support::{Real, Vec3};

/// A triangle is degenerate when twice its area, `|(b - a) × (c - a)|`, is
/// at most this many [`Real::EPSILON`] times the squared diagonal of the
/// mesh's AABB (a relative tolerance valid in `f32` and `f64`).
pub const DEGENERATE_AREA_EPS: f64 = 16.0;

/// The mesh encloses no volume when six times its volume is at most this
/// many [`Real::EPSILON`] times the cubed diagonal of its AABB.
pub const ZERO_VOLUME_EPS: f64 = 16.0;

/// A closed, consistently oriented triangle mesh, validated and welded: the
/// input of [`OwnedSdf::build`](crate::OwnedSdf::build) and the owner of a
/// [`MeshView`].
///
/// Built by [`TriMesh::new`]: vertices at exactly the same position are
/// welded into one (so a "triangle soup" with a copy of each corner per
/// triangle is accepted), vertices no triangle uses are dropped, and a mesh
/// whose triangles are all wound clockwise seen from outside (negative
/// volume) is flipped. Everything is in the mesh's frame, meters.
#[derive(Clone, Debug, PartialEq)]
pub struct TriMesh<R> {
    vertices: Vec<Vec3<R>>,
    triangles: Vec<[u32; 3]>,
    edges: Vec<[u32; 2]>,
    /// For each triangle, the edge index of its sides `k → k + 1`.
    triangle_edges: Vec<[u32; 3]>,
}

/// `-0` and `+0` weld together: compare bit patterns of `x + 0`.
fn key<R: Real>(v: Vec3<R>) -> [u64; 3] {
    let k = |x: R| (x + R::ZERO).to_f64().to_bits();
    [k(v.x), k(v.y), k(v.z)]
}

impl<R: Real> TriMesh<R> {
    /// Validates and welds a mesh: `vertices` (mesh frame, meters) and
    /// `triangles` (three indices into `vertices`, counter-clockwise seen
    /// from outside, or all clockwise).
    ///
    /// Refuses, in this order: [`MeshError::Empty`], [`MeshError::TooLarge`],
    /// [`MeshError::NonFinite`], [`MeshError::IndexOutOfRange`],
    /// [`MeshError::DegenerateTriangle`] (after welding: two equal corners,
    /// or an area under [`DEGENERATE_AREA_EPS`]), an edge bordering one
    /// triangle ([`MeshError::OpenEdge`]), more than two
    /// ([`MeshError::NonManifoldEdge`]) or two running the same way
    /// ([`MeshError::InconsistentOrientation`]), and
    /// [`MeshError::ZeroVolume`]. Several closed components, nested or not,
    /// are accepted; a vertex shared by two components that meet only there
    /// is accepted too (its sign is then decided by one of them).
    pub fn new(vertices: &[Vec3<R>], triangles: &[[u32; 3]]) -> Result<Self, MeshError> {
        if vertices.is_empty() || triangles.is_empty() {
            return Err(MeshError::Empty);
        }
        if vertices.len() > u32::MAX as usize || triangles.len() > (u32::MAX / 3) as usize {
            return Err(MeshError::TooLarge);
        }
        if let Some(i) = vertices.iter().position(|v| !v.is_finite()) {
            return Err(MeshError::NonFinite { vertex: i });
        }
        let n = vertices.len();
        if let Some(t) = triangles
            .iter()
            .position(|t| t.iter().any(|&i| i as usize >= n))
        {
            return Err(MeshError::IndexOutOfRange { triangle: t });
        }

        // Weld equal positions, then keep only the vertices in use.
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_unstable_by_key(|&i| key(vertices[i as usize]));
        let mut weld = vec![0u32; n];
        let mut first = 0usize;
        for k in 0..n {
            if key(vertices[order[k] as usize]) != key(vertices[order[first] as usize]) {
                first = k;
            }
            weld[order[k] as usize] = order[first];
        }
        let mut new_index = vec![u32::MAX; n];
        let mut out_vertices = Vec::new();
        let mut out_triangles = Vec::with_capacity(triangles.len());
        for t in triangles {
            let mut w = [0u32; 3];
            for k in 0..3 {
                let rep = weld[t[k] as usize] as usize;
                if new_index[rep] == u32::MAX {
                    new_index[rep] = out_vertices.len() as u32;
                    out_vertices.push(vertices[rep]);
                }
                w[k] = new_index[rep];
            }
            out_triangles.push(w);
        }

        let aabb = out_vertices
            .iter()
            .fold(mink_support::Aabb::EMPTY, |b, &v| b.including(v));
        // Relative to the AABB's centre and diagonal, so that tiny and huge
        // meshes neither underflow nor overflow.
        let centre = aabb.center();
        let half = aabb.half_extents();
        let m = half.max_abs();
        let scaled = Vec3::new(half.x / m, half.y / m, half.z / m);
        let inv = R::ONE / (scaled.norm() * R::TWO);
        let unit = |v: Vec3<R>| {
            let d = v - centre;
            Vec3::new(d.x / m, d.y / m, d.z / m) * inv
        };
        let area_tol = R::lit(DEGENERATE_AREA_EPS) * R::EPSILON;
        let mut six_volume = R::ZERO;
        for (i, t) in out_triangles.iter().enumerate() {
            if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
                return Err(MeshError::DegenerateTriangle { triangle: i });
            }
            let [a, b, c] = t.map(|k| unit(out_vertices[k as usize]));
            let cross = (b - a).cross(c - a);
            let area = cross.norm();
            if area.is_nan() || area <= area_tol {
                return Err(MeshError::DegenerateTriangle { triangle: i });
            }
            six_volume += a.dot(b.cross(c));
        }

        // Every undirected edge: exactly two uses, one each way.
        let mut directed: Vec<(u32, u32, bool, u32)> = Vec::with_capacity(3 * out_triangles.len());
        for (i, t) in out_triangles.iter().enumerate() {
            for k in 0..3 {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                directed.push((a.min(b), a.max(b), a < b, (3 * i + k) as u32));
            }
        }
        directed.sort_unstable();
        let mut edges = Vec::with_capacity(directed.len() / 2);
        let mut triangle_edges = vec![[0u32; 3]; out_triangles.len()];
        let mut k = 0;
        while k < directed.len() {
            let (a, b, _, _) = directed[k];
            let mut end = k;
            while end < directed.len() && directed[end].0 == a && directed[end].1 == b {
                end += 1;
            }
            match end - k {
                1 => return Err(MeshError::OpenEdge { a, b }),
                2 => {}
                _ => return Err(MeshError::NonManifoldEdge { a, b }),
            }
            if directed[k].2 == directed[k + 1].2 {
                return Err(MeshError::InconsistentOrientation { a, b });
            }
            let id = edges.len() as u32;
            edges.push([a, b]);
            for d in &directed[k..end] {
                triangle_edges[(d.3 / 3) as usize][(d.3 % 3) as usize] = id;
            }
            k = end;
        }

        let vol_tol = R::lit(ZERO_VOLUME_EPS) * R::EPSILON;
        if six_volume.is_nan() || six_volume.abs() <= vol_tol {
            return Err(MeshError::ZeroVolume);
        }
        if six_volume < R::ZERO {
            // Swapping corners 1 and 2 turns side k→k+1 into: side 0 (0→2)
            // was side 2, side 1 (2→1) was side 1, side 2 (1→0) was side 0.
            for (t, e) in out_triangles.iter_mut().zip(triangle_edges.iter_mut()) {
                t.swap(1, 2);
                e.swap(0, 2);
            }
        }
        Ok(Self {
            vertices: out_vertices,
            triangles: out_triangles,
            edges,
            triangle_edges,
        })
    }

    /// The borrowed view of this mesh.
    pub fn view(&self) -> MeshView<'_, R> {
        MeshView::new_unchecked(&self.vertices, &self.triangles, &self.edges)
    }

    /// The welded vertices, mesh frame, meters.
    pub fn vertices(&self) -> &[Vec3<R>] {
        &self.vertices
    }

    /// The triangles (indices into [`TriMesh::vertices`], counter-clockwise
    /// seen from outside).
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// The unique undirected edges (lower index first).
    pub fn edges(&self) -> &[[u32; 2]] {
        &self.edges
    }

    /// For each triangle, the index in [`TriMesh::edges`] of its sides
    /// corner `k` → corner `k + 1`, for `k = 0, 1, 2`.
    pub fn triangle_edges(&self) -> &[[u32; 3]] {
        &self.triangle_edges
    }
}
