//! The borrowed triangle mesh: a `Copy` view over flat arrays.

use mink_support::{Aabb, Iso3, Real, Vec3};

/// A closed triangle mesh borrowed from flat arrays: vertices (mesh frame,
/// meters), triangles (three vertex indices, counter-clockwise seen from
/// outside) and the unique undirected edges (two vertex indices, lower
/// first). `Copy`, no allocation, usable from `static` data.
///
/// An owned [`TriMesh`](crate::TriMesh) (feature `alloc`) validates a mesh
/// and hands out its view. [`MeshView::new`] only checks that every index
/// is in range; contacts read the vertices and edges, never the topology,
/// so an unchecked view of bad data gives meaningless contacts, never a
/// panic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshView<'a, R> {
    vertices: &'a [Vec3<R>],
    triangles: &'a [[u32; 3]],
    edges: &'a [[u32; 2]],
}

impl<'a, R: Real> MeshView<'a, R> {
    /// A view over the arrays after checking that every triangle and edge
    /// index names a vertex; `None` when one does not.
    pub fn new(
        vertices: &'a [Vec3<R>],
        triangles: &'a [[u32; 3]],
        edges: &'a [[u32; 2]],
    ) -> Option<Self> {
        let n = vertices.len();
        let ok = triangles.iter().flatten().all(|&i| (i as usize) < n)
            && edges.iter().flatten().all(|&i| (i as usize) < n);
        ok.then_some(Self {
            vertices,
            triangles,
            edges,
        })
    }

    /// A view over the arrays without any check, for baked `static` data.
    /// Out-of-range indices are skipped by every query.
    pub const fn new_unchecked(
        vertices: &'a [Vec3<R>],
        triangles: &'a [[u32; 3]],
        edges: &'a [[u32; 2]],
    ) -> Self {
        Self {
            vertices,
            triangles,
            edges,
        }
    }

    /// The vertices, mesh frame, meters.
    pub fn vertices(&self) -> &'a [Vec3<R>] {
        self.vertices
    }

    /// The vertex farthest along the world direction `n` with the mesh at
    /// `pose` (mesh frame to world): `(n · v, v)` with `v` in world
    /// coordinates. `n` need not be unit (the first value scales with it);
    /// a mesh without vertices gives `(-R::MAX, pose.translation)`.
    pub fn extreme_vertex(&self, pose: &Iso3<R>, n: Vec3<R>) -> (R, Vec3<R>) {
        let local = pose.rotation.transpose_mul(n);
        let mut best = -R::MAX;
        let mut at = Vec3::ZERO;
        for &v in self.vertices {
            let s = local.dot(v);
            if s > best {
                best = s;
                at = v;
            }
        }
        (best + n.dot(pose.translation), pose.transform_point(at))
    }

    /// The triangles (vertex indices, counter-clockwise seen from outside).
    pub fn triangles(&self) -> &'a [[u32; 3]] {
        self.triangles
    }

    /// The unique undirected edges (vertex indices, lower first).
    pub fn edges(&self) -> &'a [[u32; 2]] {
        self.edges
    }

    /// Vertex `i`, or `None` when out of range.
    #[inline]
    pub fn vertex(&self, i: u32) -> Option<Vec3<R>> {
        self.vertices.get(i as usize).copied()
    }

    /// The end points of edge `e`, or `None` when it or its indices are out
    /// of range.
    #[inline]
    pub fn edge(&self, e: usize) -> Option<[Vec3<R>; 2]> {
        let [a, b] = *self.edges.get(e)?;
        Some([self.vertex(a)?, self.vertex(b)?])
    }

    /// The three corners of triangle `t`, or `None` when it or its indices
    /// are out of range.
    #[inline]
    pub fn triangle(&self, t: usize) -> Option<[Vec3<R>; 3]> {
        let [a, b, c] = *self.triangles.get(t)?;
        Some([self.vertex(a)?, self.vertex(b)?, self.vertex(c)?])
    }

    /// The AABB of the vertices, mesh frame ([`Aabb::EMPTY`] when there are
    /// none).
    pub fn aabb(&self) -> Aabb<R> {
        self.vertices
            .iter()
            .fold(Aabb::EMPTY, |b, &v| b.including(v))
    }
}
