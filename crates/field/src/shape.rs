//! The field as a shape: [`Support`] over a field entry, so GJK, EPA and
//! MPR use it unchanged.

use crate::graph::VertexGraph;
use crate::store::CellStore;
use crate::{FieldError, FieldView};
use mink_support::{Real, Support, Vec3};

/// A convex mesh answered by its support field alone: `O(1)` supports,
/// approximate (see
/// [`angular_error_bound`](crate::grid::angular_error_bound)).
///
/// A non-finite direction answers with the vertex of cell 0, a point of
/// the mesh.
#[derive(Clone, Copy, Debug)]
pub struct FieldShape<R, C> {
    field: FieldView<R, C>,
}

impl<R: Real, C: CellStore<R>> FieldShape<R, C> {
    /// The shape answered by `field`.
    pub fn new(field: FieldView<R, C>) -> Self {
        Self { field }
    }

    /// The field.
    pub fn field(&self) -> &FieldView<R, C> {
        &self.field
    }
}

/// The vertex of cell 0: a point of the mesh to answer bad directions with.
#[inline]
fn fallback<R: Real, C: CellStore<R>>(field: &FieldView<R, C>) -> (u32, Vec3<R>) {
    field.cell(0).unwrap_or((0, Vec3::ZERO))
}

impl<R: Real, C: CellStore<R>> Support<R> for FieldShape<R, C> {
    type Hint = ();
    const POLYTOPE: bool = true;

    #[inline(always)]
    fn support(&self, dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        match self.field.query(dir) {
            Ok(hit) => hit.point,
            Err(_) => fallback(&self.field).1,
        }
    }
}

/// A convex mesh answered exactly: the nearest cell's vertex refined by
/// hill-climbing over the hull's vertex graph
/// ([`FieldView::support_exact`]). The hint is the last support
/// vertex, used as a second climb start when it is higher than the field's.
///
/// A non-finite direction answers with the hinted vertex (or cell 0's).
#[derive(Clone, Copy, Debug)]
pub struct ExactFieldShape<R, C, G> {
    field: FieldView<R, C>,
    graph: G,
}

impl<R: Real, C: CellStore<R>, G: VertexGraph<R>> ExactFieldShape<R, C, G> {
    /// The shape answered by `field` refined over `graph`; refuses a graph
    /// whose vertex count differs from the field's.
    pub fn new(field: FieldView<R, C>, graph: G) -> Result<Self, FieldError> {
        let (f, g) = (field.vertex_count(), graph.vertex_count());
        if f != g {
            return Err(FieldError::GraphMismatch { field: f, graph: g });
        }
        Ok(Self { field, graph })
    }

    /// The field.
    pub fn field(&self) -> &FieldView<R, C> {
        &self.field
    }

    /// The vertex graph.
    pub fn graph(&self) -> &G {
        &self.graph
    }
}

impl<R: Real, C: CellStore<R>, G: VertexGraph<R>> Support<R> for ExactFieldShape<R, C, G> {
    type Hint = u32;
    const POLYTOPE: bool = true;

    #[inline(always)]
    fn support(&self, dir: Vec3<R>, hint: &mut u32) -> Vec3<R> {
        match self.field.support_exact(&self.graph, dir, Some(*hint)) {
            Ok(hit) => {
                *hint = hit.index;
                hit.point
            }
            Err(_) => match self.graph.vertex(*hint) {
                Some(p) => p,
                None => fallback(&self.field).1,
            },
        }
    }
}
