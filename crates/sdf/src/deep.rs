//! Deep penetration of two convex meshes from their fields: the fallback
//! when a convex pair is driven too deep for the usual algorithms' budget.

use crate::contact::{Pool, SdfBody};
use crate::sample::{Pass, Side};
use crate::{sample_direction, MeshView, CONVEX_SAMPLE_DIRECTIONS};
use mink_support::{Iso3, Real, Vec3};

/// Pattern-search steps refining the best candidate axis (each tries four
/// neighbours at the current angle, halving it when none is better).
pub const DEEP_REFINE_ITERATIONS: usize = 32;

/// The starting angle of the axis refinement, radians.
pub const DEEP_REFINE_START_ANGLE: f64 = 0.1;

/// Candidate axes refined, at most: the best distinct ones (the overlap has
/// a local minimum at every face of the Minkowski difference, so one start
/// can stall on the wrong face).
pub const DEEP_STARTS: usize = 8;

/// Candidate axes closer than this angle (radians) count as one start.
pub const DEEP_DISTINCT_ANGLE: f64 = 0.05;

/// The penetration of two overlapping convex meshes, world frame, meters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeepPenetration<R> {
    /// Unit normal from A towards B: moving B by `depth · normal` (or A by
    /// the opposite) separates them.
    pub normal: Vec3<R>,
    /// The overlap of the two meshes' projections on `normal`, meters
    /// (`> 0`): an upper bound on the exact penetration depth, equal to it
    /// when `normal` is the optimal axis.
    pub depth: R,
    /// The deepest point the field found, meters (`<= depth` up to the
    /// fields' interpolation error): a lower bound on the depth.
    pub field_depth: R,
    /// `point_b + depth · normal`: where B's deepest vertex ends up when
    /// the pair is separated, on the plane of A's extreme vertex along
    /// `normal`, world frame.
    pub point_a: Vec3<R>,
    /// B's vertex farthest against `normal`, world frame.
    pub point_b: Vec3<R>,
}

/// The overlap of mesh A's and mesh B's vertex projections on the unit
/// world axis `n` (from A to B), meshes at `pose_a` and `pose_b`: how far B
/// must move along `n` to clear A (meters; negative when the projections
/// are apart by that much). For convex meshes, an upper bound on the
/// penetration depth, equal to it on the optimal axis.
pub fn projection_overlap<R: Real>(
    a: &MeshView<'_, R>,
    pose_a: &Iso3<R>,
    b: &MeshView<'_, R>,
    pose_b: &Iso3<R>,
    n: Vec3<R>,
) -> R {
    a.extreme_vertex(pose_a, n).0 + b.extreme_vertex(pose_b, -n).0
}

/// The penetration of convex mesh A at `pose_a` and convex mesh B at
/// `pose_b` (frames to world), or `None` when they do not overlap (or a
/// pose is not finite, or a mesh has no vertex).
///
/// Every vertex and edge of each mesh is sampled against the other's
/// field, as in [`mesh_mesh_contacts`](crate::mesh_mesh_contacts) with a
/// zero margin; the gradients at the deepest points are candidate axes
/// (the nearest face's normal at a vertex deep inside a convex mesh), with
/// the [`sample_direction`]s in world, A's and B's frames. Each is scored
/// by the overlap of the two meshes' vertex projections; the best
/// [`DEEP_STARTS`] distinct ones are refined by a pattern search on the
/// sphere ([`DEEP_REFINE_ITERATIONS`]) and the smallest overlap wins. Cost:
/// about 1,500 projections of both vertex sets. For convex meshes the exact depth is the
/// smallest overlap over all axes, so [`DeepPenetration::depth`] is never
/// below it; it is exact when the search reaches the optimal axis (a face
/// normal or an edge pair's cross product). No allocation, no panic.
pub fn convex_convex_deep<R: Real>(
    a: &SdfBody<'_, R>,
    pose_a: &Iso3<R>,
    b: &SdfBody<'_, R>,
    pose_b: &Iso3<R>,
) -> Option<DeepPenetration<R>> {
    if !pose_a.is_finite()
        || !pose_b.is_finite()
        || a.mesh.vertices().is_empty()
        || b.mesh.vertices().is_empty()
    {
        return None;
    }
    let mut pool = Pool::new();
    let on_b = Pass::new(&b.field, pose_b, pose_a, Side::A, R::ZERO);
    let on_a = Pass::new(&a.field, pose_a, pose_b, Side::B, R::ZERO);
    on_b.vertices(&a.mesh, &mut pool);
    on_a.vertices(&b.mesh, &mut pool);
    on_b.edges(&a.mesh, &mut pool);
    on_a.edges(&b.mesh, &mut pool);
    let cost = |n: Vec3<R>| projection_overlap(&a.mesh, pose_a, &b.mesh, pose_b, n);

    // Candidate axes: the field's normals at the deepest points, then the
    // sample directions in world, A's and B's frames (so a box's faces
    // are among them). The best few distinct ones start a refinement.
    let mut starts = [(R::MAX, Vec3::ZERO); DEEP_STARTS];
    let mut field_depth = R::ZERO;
    let mut offer = |n: Vec3<R>| {
        let o = cost(n);
        if o.is_nan() || o >= starts[DEEP_STARTS - 1].0 {
            return;
        }
        let near = R::ONE - R::lit(DEEP_DISTINCT_ANGLE * DEEP_DISTINCT_ANGLE) * R::HALF;
        if let Some(k) = starts.iter().position(|s| s.1.dot(n) > near) {
            if o < starts[k].0 {
                starts[k] = (o, n);
            }
        } else {
            starts[DEEP_STARTS - 1] = (o, n);
        }
        starts.sort_unstable_by(|x, y| x.0.partial_cmp(&y.0).unwrap_or(core::cmp::Ordering::Equal));
    };
    for c in pool.items() {
        field_depth = field_depth.max_of(c.depth());
        offer(c.normal);
    }
    if pool.items().is_empty() {
        return None;
    }
    for i in 0..CONVEX_SAMPLE_DIRECTIONS + 14 {
        let d = sample_direction::<R>(i);
        offer(d);
        offer(pose_a.rotation.mul_vec(d));
        offer(pose_b.rotation.mul_vec(d));
    }

    let mut best = R::MAX;
    let mut best_n = Vec3::ZERO;
    for &(start_cost, start_n) in starts.iter() {
        if start_cost.is_nan() || start_cost >= R::MAX {
            continue;
        }
        let (mut here, mut n_here) = (start_cost, start_n);
        let mut angle = R::lit(DEEP_REFINE_START_ANGLE);
        for _ in 0..DEEP_REFINE_ITERATIONS {
            let u = n_here.any_orthonormal();
            let w = n_here.cross(u);
            let mut moved = false;
            for dir in [u, -u, w, -w] {
                let n = (n_here + dir * angle).normalize_or(n_here);
                let o = cost(n);
                if o < here {
                    here = o;
                    n_here = n;
                    moved = true;
                }
            }
            if !moved {
                angle *= R::HALF;
            }
        }
        if here < best {
            best = here;
            best_n = n_here;
        }
    }
    if !best.finite() || best <= R::ZERO {
        return None;
    }
    let point_b = b.mesh.extreme_vertex(pose_b, -best_n).1;
    Some(DeepPenetration {
        normal: best_n,
        depth: best,
        field_depth,
        point_a: point_b + best_n * best,
        point_b,
    })
}
