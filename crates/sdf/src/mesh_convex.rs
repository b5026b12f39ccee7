//! Contacts between a mesh and a convex shape known by its support
//! function.

use crate::contact::{Contact, Pool, SdfBody, MERGE_CELL_FRACTION};
use crate::sample::{Pass, Side};
use mink_support::{Iso3, Real, Support, Vec3};

/// Directions, spread evenly over the sphere (a Fibonacci spiral), whose
/// support points sample the convex shape's surface; the 6 axis and 8
/// diagonal directions are added, so every corner of a box is sampled.
pub const CONVEX_SAMPLE_DIRECTIONS: usize = 128;

/// The `i`-th sample direction (unit, convex shape's frame), for `i` in
/// `0..CONVEX_SAMPLE_DIRECTIONS + 14`.
pub fn sample_direction<R: Real>(i: usize) -> Vec3<R> {
    let n = CONVEX_SAMPLE_DIRECTIONS;
    if i < n {
        let z = R::ONE - R::lit((2 * i + 1) as f64 / n as f64);
        let r = (R::ONE - z * z).max_of(R::ZERO).sqrt();
        // The golden angle, π (3 - √5).
        let phi = R::lit(i as f64 * 2.399_963_229_728_653);
        return Vec3::new(r * phi.cos(), r * phi.sin(), z);
    }
    let k = i - n;
    if k < 6 {
        let s = if k.is_multiple_of(2) { R::ONE } else { -R::ONE };
        return match k / 2 {
            0 => Vec3::new(s, R::ZERO, R::ZERO),
            1 => Vec3::new(R::ZERO, s, R::ZERO),
            _ => Vec3::new(R::ZERO, R::ZERO, s),
        };
    }
    let c = (k - 6) % 8;
    let sign = |bit: usize| if c & bit != 0 { -R::ONE } else { R::ONE };
    Vec3::new(sign(1), sign(2), sign(4)) * (R::ONE / R::lit(3.0).sqrt())
}

/// Contacts between mesh A at `pose_a` and convex shape B at `pose_b`
/// (frames to world), written to `out`; returns how many were written.
///
/// B's surface is sampled by its support points (plus its inflation along
/// the direction) along the [`sample_direction`]s, each looked up in A's
/// field; the candidates within `margin` are pooled and reduced as in
/// [`mesh_mesh_contacts`](crate::mesh_mesh_contacts). Normals are A's field
/// gradient, A to B. For a polytope this samples its vertices; for curved
/// shapes a spread of surface points.
///
/// Every point reported is a real point of B within the margin of A (to
/// the field's accuracy), but the sampling only sees B's extreme points: a
/// mesh feature pressing into the middle of a wide flat face of B is
/// missed. For polytopes where that matters, make B's mesh
/// ([`TriMesh::from_hull`](crate::TriMesh::from_hull),
/// [`TriMesh::from_cuboid`](crate::TriMesh::from_cuboid)) and field and use
/// [`mesh_mesh_contacts`](crate::mesh_mesh_contacts). No allocation; a
/// non-finite pose or margin writes nothing and returns 0.
pub fn mesh_convex_contacts<R: Real, S: Support<R>>(
    a: &SdfBody<'_, R>,
    pose_a: &Iso3<R>,
    b: &S,
    pose_b: &Iso3<R>,
    margin: R,
    out: &mut [Contact<R>],
) -> usize {
    if !pose_a.is_finite() || !pose_b.is_finite() || !margin.finite() {
        return 0;
    }
    let margin = margin.max_of(R::ZERO);
    let mut pool = Pool::new();
    let on_a = Pass::new(&a.field, pose_a, pose_b, Side::B, margin);
    let mut hint = S::Hint::default();
    let r = b.inflation();
    for i in 0..CONVEX_SAMPLE_DIRECTIONS + 14 {
        let d = sample_direction::<R>(i);
        let s = b.support(d, &mut hint) + d * r;
        on_a.point(s, &mut pool);
    }
    pool.reduce(a.field.grid().cell * R::lit(MERGE_CELL_FRACTION), out)
}
