//! The flat arrays a convex hull is made of, and their index type.
//!
//! A hull is a handful of plain slices, so that a hull baked on a host can be
//! written out as `static` arrays and queried on a microcontroller without an
//! allocator. [`HullArrays`] bundles them; [`HullView`](super::HullView)
//! validates and queries them.

use super::lanes::VertexLanes;
use crate::{Real, Vec3};

/// The index type of every hull array: vertex, face and edge indices and the
/// start offsets of the flat per-face and per-vertex lists.
///
/// `u16` halves the topology's memory against `u32`, which matters in the
/// `static` data of a microcontroller and in cache on a host. It bounds every
/// array at [`MAX_HULL_ARRAY_LEN`] entries: the flat face loops and neighbour
/// lists hold two entries per edge, and a hull has at most `3V - 6` edges, so
/// any hull of up to about 10 900 vertices fits (a collision hull usually has
/// tens to a few hundred). The builder refuses larger hulls with
/// [`ShapeError::Capacity`](crate::ShapeError::Capacity). Warm-start hints
/// are `u32`, as for every [`Support`](crate::Support) shape with vertices.
pub type HullIndex = u16;

/// The most entries any hull array may hold (`HullIndex::MAX`): offsets
/// must be able to point one past the last entry.
pub const MAX_HULL_ARRAY_LEN: usize = HullIndex::MAX as usize;

/// The plane of a hull face: the points `p` with `normal · p = offset`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct FacePlane<R> {
    /// Unit outward normal, hull frame.
    pub normal: Vec3<R>,
    /// Signed distance of the plane from the hull frame's origin along
    /// `normal`, meters.
    pub offset: R,
}

impl<R: Real> FacePlane<R> {
    /// A plane from its unit outward normal and offset (not validated).
    #[inline(always)]
    pub const fn new(normal: Vec3<R>, offset: R) -> Self {
        Self { normal, offset }
    }

    /// Signed distance of `p` (hull frame) above the plane, meters:
    /// positive outside the hull.
    #[inline(always)]
    pub fn distance(&self, p: Vec3<R>) -> R {
        self.normal.dot(p) - self.offset
    }
}

/// An edge of a hull: its two end vertices and the two faces it borders.
///
/// Orientation: the edge runs from `vertices[0]` to `vertices[1]` in the
/// counter-clockwise loop (seen from outside) of `faces[0]`, and the other
/// way in the loop of `faces[1]`; on a convex hull the cross product of the
/// two faces' normals, `n0 × n1`, then points along `v1 - v0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct HullEdge {
    /// The end vertices (indices into the vertex array).
    pub vertices: [HullIndex; 2],
    /// The left face (`vertices[0] → vertices[1]` in its loop) and the right
    /// face (indices into the face arrays).
    pub faces: [HullIndex; 2],
}

impl HullEdge {
    /// An edge from its end vertices and its left and right faces.
    #[inline(always)]
    pub const fn new(vertices: [HullIndex; 2], faces: [HullIndex; 2]) -> Self {
        Self { vertices, faces }
    }
}

/// Every array of a convex hull, borrowed: the input of
/// [`HullView::new`](super::HullView::new) and
/// [`HullView::new_unchecked`](super::HullView::new_unchecked).
///
/// With `V` vertices, `F` faces and `E` edges (`V - E + F = 2`):
/// - `vertices`: `V` points, hull frame, meters;
/// - `planes`: `F` face planes, face `f`'s at index `f`;
/// - `face_starts` (`F + 1` entries, first 0, last `2E`, non-decreasing) and
///   `face_vertices` (`2E` entries): face `f`'s vertex loop, counter-clockwise
///   seen from outside, is `face_vertices[face_starts[f]..face_starts[f + 1]]`;
/// - `edges`: `E` edges;
/// - `neighbor_starts` (`V + 1` entries) and `neighbors` (`2E` entries): the
///   vertices sharing an edge with vertex `v` are
///   `neighbors[neighbor_starts[v]..neighbor_starts[v + 1]]`;
/// - `tolerance`: meters, the hull's own flatness: every vertex lies within
///   it of the planes of its faces and at most it above any face plane (the
///   builder sets it; `0` for exact hand-written data). Hill climbing uses it
///   to step across faces that are flat only to within it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullArrays<'a, R> {
    /// The vertices, hull frame, meters.
    pub vertices: &'a [Vec3<R>],
    /// One plane per face.
    pub planes: &'a [FacePlane<R>],
    /// Start of each face's loop in `face_vertices`, plus the end (`F + 1`).
    pub face_starts: &'a [HullIndex],
    /// Every face's vertex loop, counter-clockwise seen from outside.
    pub face_vertices: &'a [HullIndex],
    /// Every edge once.
    pub edges: &'a [HullEdge],
    /// Start of each vertex's list in `neighbors`, plus the end (`V + 1`).
    pub neighbor_starts: &'a [HullIndex],
    /// Every vertex's neighbours (vertices sharing an edge with it).
    pub neighbors: &'a [HullIndex],
    /// The hull's flatness tolerance, meters (`>= 0`).
    pub tolerance: R,
    /// Optional: the vertices again, in blocks of four coordinate by
    /// coordinate ([`VertexLanes`]), for a faster exhaustive support scan.
    /// Empty, or exactly `vertices` as [`VertexLanes::block`] lays them out
    /// (checked by [`HullView::new`](super::HullView::new)).
    pub lanes: &'a [VertexLanes<R>],
}
