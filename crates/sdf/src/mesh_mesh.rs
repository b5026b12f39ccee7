//! Contacts between two meshes, each against the other's field.

use crate::contact::{Contact, Pool, SdfBody, MERGE_CELL_FRACTION};
use crate::sample::{Pass, Side};
use mink_support::{Iso3, Real};

/// Contacts between mesh A at `pose_a` and mesh B at `pose_b` (mesh frames
/// to world), written to `out`; returns how many were written.
///
/// Vertex–face: every vertex of each mesh is looked up in the other's
/// field. Edge–edge: along every edge of each mesh that can come within the
/// margin, the field is minimized by [`EDGE_SAMPLES`](crate::EDGE_SAMPLES)
/// samples and [`EDGE_REFINE_STEPS`](crate::EDGE_REFINE_STEPS)
/// golden-section steps, and an interior minimum below both ends is a
/// candidate. Candidates within `margin` (meters; negative counts as 0) are
/// kept, the deepest [`POOL_CAPACITY`](crate::POOL_CAPACITY) of them, and
/// reduced to at most `out.len()` (and
/// [`MAX_MANIFOLD_POINTS`](crate::MAX_MANIFOLD_POINTS)) points: the deepest,
/// then repeatedly the one farthest from those chosen. Each normal is the
/// normalized gradient of the field the point was looked up in, pointing
/// from A to B; see [`Contact`] for the other fields.
///
/// Accuracy is the fields': distances within the interpolation error of
/// their resolution. Features finer than a cell are smoothed over. No
/// allocation; a non-finite pose or margin writes nothing and returns 0.
pub fn mesh_mesh_contacts<R: Real>(
    a: &SdfBody<'_, R>,
    pose_a: &Iso3<R>,
    b: &SdfBody<'_, R>,
    pose_b: &Iso3<R>,
    margin: R,
    out: &mut [Contact<R>],
) -> usize {
    if !pose_a.is_finite() || !pose_b.is_finite() || !margin.finite() {
        return 0;
    }
    let margin = margin.max_of(R::ZERO);
    let mut pool = Pool::new();
    let on_b = Pass::new(&b.field, pose_b, pose_a, Side::A, margin);
    let on_a = Pass::new(&a.field, pose_a, pose_b, Side::B, margin);
    on_b.vertices(&a.mesh, &mut pool);
    on_a.vertices(&b.mesh, &mut pool);
    on_b.edges(&a.mesh, &mut pool);
    on_a.edges(&b.mesh, &mut pool);
    let cell = a.field.grid().cell.min_of(b.field.grid().cell);
    pool.reduce(cell * R::lit(MERGE_CELL_FRACTION), out)
}
