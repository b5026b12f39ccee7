//! The owned convex hull (feature `alloc`): built from points, or copied
//! from validated arrays, and queried through its [`HullView`].

use super::build::quickhull;
use super::lanes::VertexLanes;
use super::merge::{finish, HullData};
use super::topology::{FacePlane, HullArrays, HullEdge, HullIndex};
use super::view::HullView;
use crate::{Aabb, CapacityError, Iso3, Real, ShapeError, Support, SupportSet, Vec3};
use alloc::vec::Vec;

/// A convex hull that owns its arrays. Build one with
/// [`ConvexHull::from_points`]; query it directly (it implements
/// [`Support`]) or through [`ConvexHull::view`], whose arrays can also be
/// written out as `static` data for [`HullView::new_unchecked`].
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexHull<R> {
    vertices: Vec<Vec3<R>>,
    planes: Vec<FacePlane<R>>,
    face_starts: Vec<HullIndex>,
    face_vertices: Vec<HullIndex>,
    edges: Vec<HullEdge>,
    neighbor_starts: Vec<HullIndex>,
    neighbors: Vec<HullIndex>,
    tolerance: R,
    lanes: Vec<VertexLanes<R>>,
}

impl<R: Real> ConvexHull<R> {
    /// The convex hull of `points` (local frame, meters), by quickhull.
    ///
    /// The hull's vertices are input points. The exact convex hull is built
    /// first (in `f64`, with an exact orientation predicate, so coincident,
    /// collinear and coplanar points cannot break it), then neighbouring
    /// triangles whose vertices lie within the tolerance `τ` of one plane
    /// are merged into one planar face (a cube sampled by many points has
    /// six quads) and vertices within `τ` of a straight edge are dropped;
    /// `τ` = [`HULL_TOLERANCE_FACTOR`](super::HULL_TOLERANCE_FACTOR) ×
    /// `R::EPSILON` × the largest absolute coordinate. Every input point ends
    /// on or below every face plane to within [`HullView::tolerance`]. That
    /// is a bound per plane, not a distance to the hull: next to a very sharp
    /// vertex (the tip of a needle thousands of times longer than it is
    /// thick) a left-out point within `τ` of every plane may stand farther
    /// than `τ` from the hull.
    ///
    /// Errors: [`ShapeError::TooFewPoints`] below 4 points,
    /// [`ShapeError::NonFinite`] for a NaN or infinite coordinate,
    /// [`ShapeError::Degenerate`] when the points have no volume (the text
    /// says "coincide", "collinear" or "coplanar": the points lie within
    /// `τ` of one point, line or plane), and [`ShapeError::Capacity`] for a
    /// hull too large for [`HullIndex`](super::HullIndex) (about 10 900
    /// vertices) or a coordinate beyond
    /// [`MAX_HULL_COORDINATE`](super::MAX_HULL_COORDINATE).
    pub fn from_points(points: &[Vec3<R>]) -> Result<Self, ShapeError> {
        let data: HullData<R> = finish(quickhull(points)?)?;
        let hull = Self {
            vertices: data.vertices,
            planes: data.planes,
            face_starts: data.face_starts,
            face_vertices: data.face_vertices,
            edges: data.edges,
            neighbor_starts: data.neighbor_starts,
            neighbors: data.neighbors,
            tolerance: data.tolerance,
            lanes: Vec::new(),
        };
        let hull = hull.with_lanes();
        // The builder's output is checked like anyone's arrays.
        HullView::new(hull.arrays())?;
        Ok(hull)
    }

    /// An owned copy of `arrays`, after the checks of [`HullView::new`]
    /// (whose errors it returns).
    pub fn from_arrays(arrays: HullArrays<'_, R>) -> Result<Self, ShapeError> {
        HullView::new(arrays)?;
        Ok(Self {
            vertices: arrays.vertices.to_vec(),
            planes: arrays.planes.to_vec(),
            face_starts: arrays.face_starts.to_vec(),
            face_vertices: arrays.face_vertices.to_vec(),
            edges: arrays.edges.to_vec(),
            neighbor_starts: arrays.neighbor_starts.to_vec(),
            neighbors: arrays.neighbors.to_vec(),
            tolerance: arrays.tolerance,
            lanes: Vec::new(),
        }
        .with_lanes())
    }

    /// `self` with its [`VertexLanes`] built from its vertices.
    fn with_lanes(mut self) -> Self {
        let blocks = VertexLanes::<R>::blocks_for(self.vertices.len());
        self.lanes = (0..blocks)
            .map(|b| VertexLanes::block(&self.vertices, b))
            .collect();
        self
    }

    /// The arrays, borrowed.
    pub fn arrays(&self) -> HullArrays<'_, R> {
        HullArrays {
            vertices: &self.vertices,
            planes: &self.planes,
            face_starts: &self.face_starts,
            face_vertices: &self.face_vertices,
            edges: &self.edges,
            neighbor_starts: &self.neighbor_starts,
            neighbors: &self.neighbors,
            tolerance: self.tolerance,
            lanes: &self.lanes,
        }
    }

    /// The hull as a borrowed view (already validated).
    #[inline(always)]
    pub fn view(&self) -> HullView<'_, R> {
        HullView::new_unchecked(self.arrays())
    }
}

impl<R: Real> Support<R> for ConvexHull<R> {
    /// A vertex index, as for [`HullView`].
    type Hint = u32;
    const POLYTOPE: bool = true;

    /// As [`HullView`]'s support.
    #[inline]
    fn support(&self, dir: Vec3<R>, hint: &mut u32) -> Vec3<R> {
        self.view().support(dir, hint)
    }

    /// As [`HullView`]'s (the vertex centroid).
    fn interior_point(&self) -> Vec3<R> {
        self.view().interior_point()
    }

    /// As [`HullView`]'s (the vertices' coordinate range).
    fn local_aabb(&self) -> Aabb<R> {
        self.view().local_aabb()
    }

    /// As [`HullView`]'s (exact).
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        self.view().world_aabb(pose)
    }

    /// As [`HullView`]'s (a vertex, an edge or a face loop).
    fn support_set(
        &self,
        dir: Vec3<R>,
        tol: R,
        out: &mut SupportSet<R>,
    ) -> Result<(), CapacityError> {
        self.view().support_set(dir, tol, out)
    }
}
