//! The exact mode: a field lookup refined by hill-climbing.

use crate::graph::{climb_prescaled, Climb, ClimbStatus, VertexGraph};
use crate::grid::{bracket, cell_coords, nearest};
use crate::store::CellStore;
use crate::view::{prescale, FieldHit};
use crate::{FieldError, FieldView};
use mink_support::{Real, Vec3};

/// The field's answer and the exact answer side by side.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ExactHit<R> {
    /// What the field alone answered.
    pub field: FieldHit<R>,
    /// Index of the exact support vertex.
    pub index: u32,
    /// Its position (local frame, meters).
    pub point: Vec3<R>,
    /// Climb steps from the field's vertex (0 when the field was exact).
    pub steps: u32,
    /// Whether the climb converged (always, on a hull graph).
    pub status: ClimbStatus,
}

impl<R: Real> ExactHit<R> {
    /// The field's support-value error along `dir` (meters times `|dir|`,
    /// `>= 0` up to rounding when the climb converged):
    /// `dir · point − dir · field.point`. Pass the query's direction scaled
    /// to a moderate length (e.g. unit) to keep the products finite.
    #[inline]
    pub fn field_error(&self, dir: Vec3<R>) -> R {
        dir.dot(self.point) - dir.dot(self.field.point)
    }
}

impl<R: Real, C: CellStore<R>> FieldView<R, C> {
    /// The exact support along `dir` (local frame, need not be unit): the
    /// field's vertex, then steepest-ascent climbing over `graph`, the
    /// hull's vertex graph (same vertex numbering as the field).
    ///
    /// Refuses a non-finite `dir` and a graph whose vertex count differs
    /// from the field's.
    #[inline]
    pub fn query_exact<G: VertexGraph<R>>(
        &self,
        graph: &G,
        dir: Vec3<R>,
    ) -> Result<ExactHit<R>, FieldError> {
        self.query_exact_from(graph, dir, None)
    }

    /// [`FieldView::query_exact`] with a warm-start vertex: the climb starts
    /// from whichever of `hint` (when given and in range) and the field's
    /// vertex is higher along `dir`.
    #[inline]
    pub fn query_exact_from<G: VertexGraph<R>>(
        &self,
        graph: &G,
        dir: Vec3<R>,
        hint: Option<u32>,
    ) -> Result<ExactHit<R>, FieldError> {
        let (field_n, graph_n) = (self.vertex_count(), graph.vertex_count());
        if field_n != graph_n {
            return Err(FieldError::GraphMismatch {
                field: field_n,
                graph: graph_n,
            });
        }
        let d = prescale(dir)?;
        let (u, v) = cell_coords(d, &self.scale);
        let field = self.best_of(d, bracket(u, v, self.res()));
        let mut start = field.index;
        if let Some(h) = hint {
            if let Some(p) = graph.vertex(h) {
                if d.dot(p) > d.dot(field.point) {
                    start = h;
                }
            }
        }
        let c = climb_prescaled(graph, d, start);
        Ok(ExactHit {
            field,
            index: c.index,
            point: c.point,
            steps: c.steps,
            status: c.status,
        })
    }

    /// The exact support along `dir` on the lean path: the vertex of the
    /// single nearest cell, refined by climbing over `graph` (or from
    /// `hint` when it is higher). Same answer as
    /// [`FieldView::query_exact`] (the exact support), without the
    /// field-only answer and its tie count; this is what
    /// [`ExactFieldShape`](crate::ExactFieldShape) calls.
    ///
    /// Refuses a non-finite `dir` and a graph whose vertex count differs
    /// from the field's.
    #[inline]
    pub fn support_exact<G: VertexGraph<R>>(
        &self,
        graph: &G,
        dir: Vec3<R>,
        hint: Option<u32>,
    ) -> Result<Climb<R>, FieldError> {
        let (field_n, graph_n) = (self.vertex_count(), graph.vertex_count());
        if field_n != graph_n {
            return Err(FieldError::GraphMismatch {
                field: field_n,
                graph: graph_n,
            });
        }
        let d = prescale(dir)?;
        let (u, v) = cell_coords(d, &self.scale);
        let mut start = self
            .cell(nearest(u, v, self.res()) as usize)
            .map_or(0, |(i, _)| i);
        if let Some(h) = hint {
            if let (Some(p), Some(q)) = (graph.vertex(h), graph.vertex(start)) {
                if d.dot(p) > d.dot(q) {
                    start = h;
                }
            }
        }
        Ok(climb_prescaled(graph, d, start))
    }
}
