//! Closed triangle meshes of convex shapes (feature `alloc`), so that a
//! convex hull or a box gets a field of its own.

use crate::{MeshError, TriMesh};
use alloc::vec::Vec;
use mink_support::{Cuboid, HullView, Real, Vec3};

impl<R: Real> TriMesh<R> {
    /// The closed mesh of a convex hull (hull frame, meters): each face's
    /// counter-clockwise loop fanned from its first vertex.
    ///
    /// Errors as [`TriMesh::new`]: a face loop with three consecutive
    /// collinear vertices can give a degenerate fan triangle
    /// ([`MeshError::DegenerateTriangle`]).
    pub fn from_hull(hull: &HullView<'_, R>) -> Result<Self, MeshError> {
        let mut triangles = Vec::new();
        for f in 0..hull.face_count() {
            let lp = hull.face(f);
            for k in 1..lp.len().saturating_sub(1) {
                triangles.push([u32::from(lp[0]), u32::from(lp[k]), u32::from(lp[k + 1])]);
            }
        }
        Self::new(hull.vertices(), &triangles)
    }

    /// The closed mesh of a box (its frame, meters): 8 corners, 12
    /// triangles.
    pub fn from_cuboid(cuboid: &Cuboid<R>) -> Result<Self, MeshError> {
        let h = cuboid.half_extents();
        let corners: Vec<Vec3<R>> = (0..8)
            .map(|i| {
                let s = |bit: u32, x: R| if i & bit != 0 { x } else { -x };
                Vec3::new(s(1, h.x), s(2, h.y), s(4, h.z))
            })
            .collect();
        // Corner index bits: 1 = +x, 2 = +y, 4 = +z; each face as two
        // triangles wound counter-clockwise seen from outside.
        const QUADS: [[u32; 4]; 6] = [
            [0, 4, 6, 2], // -x
            [1, 3, 7, 5], // +x
            [0, 1, 5, 4], // -y
            [2, 6, 7, 3], // +y
            [0, 2, 3, 1], // -z
            [4, 5, 7, 6], // +z
        ];
        let mut triangles = Vec::with_capacity(12);
        for q in QUADS {
            triangles.push([q[0], q[1], q[2]]);
            triangles.push([q[0], q[2], q[3]]);
        }
        Self::new(&corners, &triangles)
    }
}
