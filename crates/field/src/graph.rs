//! Hill-climbing over a convex hull's vertex graph: the exact refinement.
//!
//! On a convex polytope the vertex-edge graph has no false local maxima: a
//! vertex whose neighbours are all no higher along `d` is a support along
//! `d`. Starting from the field's vertex, which is already at or next to
//! the answer, a steepest-ascent walk reaches the exact support in a step or
//! two, so the exact answer costs little more than the lookup.

use crate::store::check_indices;
use crate::view::prescale;
use crate::FieldError;
use mink_support::{Real, Vec3};

/// Cap on the steps of one climb. Every step strictly increases the
/// support value, so a climb on a valid hull graph takes fewer steps than
/// it has vertices; reaching the cap means the graph is not a convex
/// hull's and is reported as [`ClimbStatus::IterationCap`].
pub const MAX_CLIMB_ITERATIONS: u32 = 1 << 16;

/// A mesh's vertices and, per vertex, its neighbours along the hull's
/// edges: what hill-climbing walks.
pub trait VertexGraph<R: Real> {
    /// The neighbours of one vertex, as vertex indices.
    type Neighbours<'s>: Iterator<Item = u32>
    where
        Self: 's;

    /// Number of vertices.
    fn vertex_count(&self) -> u32;

    /// Vertex `i` (local frame, meters); `None` when out of range.
    fn vertex(&self, i: u32) -> Option<Vec3<R>>;

    /// The neighbours of vertex `i` (empty when out of range).
    fn neighbours(&self, i: u32) -> Self::Neighbours<'_>;
}

/// A vertex graph in compressed-row form, borrowed: vertex `i`'s
/// neighbours are `neighbours[offsets[i]..offsets[i + 1]]`.
#[derive(Clone, Copy, Debug)]
pub struct HullGraph<'a, R> {
    vertices: &'a [Vec3<R>],
    offsets: &'a [u32],
    neighbours: &'a [u32],
}

impl<'a, R: Real> HullGraph<'a, R> {
    /// A graph over `vertices` (local frame, meters).
    ///
    /// Refuses: no vertices, `offsets.len() != vertices.len() + 1`,
    /// decreasing offsets, a last offset other than `neighbours.len()`, a
    /// neighbour index out of range, non-finite vertices. `O(n + edges)`.
    /// The graph must be the hull's edge graph (or contain it) for climbs
    /// to be exact; that is not checked.
    pub fn new(
        vertices: &'a [Vec3<R>],
        offsets: &'a [u32],
        neighbours: &'a [u32],
    ) -> Result<Self, FieldError> {
        if vertices.is_empty() || vertices.len() > u32::MAX as usize {
            return Err(FieldError::VertexCount("graph vertices"));
        }
        if offsets.len() != vertices.len() + 1 {
            return Err(FieldError::Length("graph offsets (must be vertices + 1)"));
        }
        if offsets.first() != Some(&0)
            || offsets.windows(2).any(|w| w[0] > w[1])
            || offsets.last().map(|&o| o as usize) != Some(neighbours.len())
        {
            return Err(FieldError::Length("graph offsets (not a prefix sum)"));
        }
        check_indices(neighbours.iter().copied(), vertices.len() as u32)?;
        if !vertices.iter().all(|v| v.is_finite()) {
            return Err(FieldError::NonFinite("graph vertices"));
        }
        Ok(Self {
            vertices,
            offsets,
            neighbours,
        })
    }

    /// The vertices (local frame, meters).
    pub fn vertices(&self) -> &'a [Vec3<R>] {
        self.vertices
    }

    /// The neighbour-list offsets (`vertices + 1` entries).
    pub fn offsets(&self) -> &'a [u32] {
        self.offsets
    }

    /// The concatenated neighbour lists.
    pub fn neighbour_lists(&self) -> &'a [u32] {
        self.neighbours
    }
}

impl<R: Real> VertexGraph<R> for HullGraph<'_, R> {
    type Neighbours<'s>
        = core::iter::Copied<core::slice::Iter<'s, u32>>
    where
        Self: 's;

    #[inline(always)]
    fn vertex_count(&self) -> u32 {
        self.vertices.len() as u32
    }

    #[inline(always)]
    fn vertex(&self, i: u32) -> Option<Vec3<R>> {
        self.vertices.get(i as usize).copied()
    }

    #[inline(always)]
    fn neighbours(&self, i: u32) -> Self::Neighbours<'_> {
        let i = i as usize;
        let lo = self.offsets.get(i).copied().unwrap_or(0) as usize;
        let hi = self.offsets.get(i + 1).copied().unwrap_or(0) as usize;
        self.neighbours.get(lo..hi).unwrap_or(&[]).iter().copied()
    }
}

/// How a climb ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ClimbStatus {
    /// No neighbour is higher: on a hull graph, the exact support.
    Converged,
    /// [`MAX_CLIMB_ITERATIONS`] steps were taken (not a hull graph); the
    /// highest vertex reached is returned.
    IterationCap,
}

/// The result of a climb.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Climb<R> {
    /// Index of the vertex reached.
    pub index: u32,
    /// Its position (local frame, meters).
    pub point: Vec3<R>,
    /// Steps taken (vertices moved to).
    pub steps: u32,
    /// Whether the climb converged.
    pub status: ClimbStatus,
}

/// Steepest-ascent hill-climbing along `dir` (local frame, need not be
/// unit) from vertex `start` (vertex 0 when out of range).
///
/// Refuses a non-finite `dir`. A zero `dir` returns `start` at once.
#[inline]
pub fn climb<R: Real, G: VertexGraph<R>>(
    graph: &G,
    dir: Vec3<R>,
    start: u32,
) -> Result<Climb<R>, FieldError> {
    let d = prescale(dir)?;
    Ok(climb_prescaled(graph, d, start))
}

/// [`climb`] for a direction already checked finite and pre-scaled.
#[inline(always)]
pub(crate) fn climb_prescaled<R: Real, G: VertexGraph<R>>(
    graph: &G,
    d: Vec3<R>,
    start: u32,
) -> Climb<R> {
    let (mut index, mut point) = match graph.vertex(start) {
        Some(p) => (start, p),
        None => (0, graph.vertex(0).unwrap_or(Vec3::ZERO)),
    };
    let mut value = d.dot(point);
    let mut steps = 0;
    while steps < MAX_CLIMB_ITERATIONS {
        let mut next = None;
        for n in graph.neighbours(index) {
            if let Some(p) = graph.vertex(n) {
                let s = d.dot(p);
                if s > value {
                    value = s;
                    next = Some((n, p));
                }
            }
        }
        match next {
            Some((n, p)) => {
                index = n;
                point = p;
                steps += 1;
            }
            None => {
                return Climb {
                    index,
                    point,
                    steps,
                    status: ClimbStatus::Converged,
                }
            }
        }
    }
    Climb {
        index,
        point,
        steps,
        status: ClimbStatus::IterationCap,
    }
}

/// The neighbours of a [`HullView`](mink_support::HullView) vertex, widened
/// to `u32`.
pub type HullViewNeighbours<'s> =
    core::iter::Map<core::iter::Copied<core::slice::Iter<'s, u16>>, fn(u16) -> u32>;

/// mink-support's hull is a vertex graph: its vertices and the neighbour
/// lists along its edges.
impl<R: Real> VertexGraph<R> for mink_support::HullView<'_, R> {
    type Neighbours<'s>
        = HullViewNeighbours<'s>
    where
        Self: 's;

    #[inline(always)]
    fn vertex_count(&self) -> u32 {
        mink_support::HullView::vertex_count(self) as u32
    }

    #[inline(always)]
    fn vertex(&self, i: u32) -> Option<Vec3<R>> {
        mink_support::HullView::vertex(self, i)
    }

    #[inline(always)]
    fn neighbours(&self, i: u32) -> Self::Neighbours<'_> {
        self.neighbors(i as usize)
            .iter()
            .copied()
            .map(u32::from as fn(u16) -> u32)
    }
}
