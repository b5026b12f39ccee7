//! Where a point stands relative to a closed triangle mesh: the nearest
//! point of its triangles, and inside or outside from the first triangle
//! a ray from the point crosses.

use super::{invalid, PointProjection};
use crate::query::Status;
use crate::ray::{mesh_ray_cast, Ray, RayStatus};
use mink_sdf::geometry::closest_on_triangle;
use mink_sdf::MeshView;
use mink_support::{Iso3, Real, Vec3};

/// The direction of the ray that tells inside from outside: any fixed
/// direction works on a closed mesh (the ray's first crossing faces along
/// it exactly when the point is inside); one off every axis and diagonal
/// keeps the ray off the edges of meshes built on a grid.
fn probe_direction<R: Real>() -> Vec3<R> {
    Vec3::new(
        R::lit(0.267_261_2),
        R::lit(0.534_522_5),
        R::lit(0.801_783_7),
    )
}

/// Projects the world point `point` on the closed mesh `mesh` at `pose`
/// (mesh frame to world), as [`project_point`](super::project_point) does
/// on a convex body: the signed distance from the surface (negative
/// inside), the nearest surface point and the unit outward normal there
/// (world frame, [`Status::Exact`]).
///
/// The nearest point is the nearest of every triangle's (one closed-form
/// test per triangle); inside or outside comes from the first triangle a
/// ray from the point crosses ([`mesh_ray_cast`]: a closed, consistently
/// oriented mesh, as [`mink_sdf::TriMesh`] builds, is left through a
/// triangle facing along the ray), so a point within round-off of the
/// surface may come out on either side with a distance of that
/// round-off. The normal is the direction between the point and its
/// projection (away from the surface outside, towards it inside), or the
/// nearest triangle's own normal for a point on the surface. A non-finite
/// point or pose, or a mesh without triangles, gives
/// [`Status::InvalidInput`]; never panics.
pub fn mesh_project_point<R: Real>(
    mesh: &MeshView<'_, R>,
    pose: &Iso3<R>,
    point: Vec3<R>,
) -> PointProjection<R> {
    if !pose.is_finite() || !point.is_finite() {
        return invalid();
    }
    let p = pose.inverse_transform_point(point);
    let mut nearest: Option<(R, Vec3<R>, [Vec3<R>; 3])> = None;
    for t in 0..mesh.triangles().len() {
        let Some(tri) = mesh.triangle(t) else {
            continue;
        };
        let (q, _) = closest_on_triangle(p, &tri);
        let d2 = (p - q).norm_squared();
        if nearest.is_none_or(|(best, _, _)| d2 < best) {
            nearest = Some((d2, q, tri));
        }
    }
    let Some((d2, q, [a, b, c])) = nearest else {
        return invalid();
    };
    let d = d2.sqrt();
    let probe = Ray::new(p, probe_direction());
    let inside = d == R::ZERO
        || mesh_ray_cast(mesh, &Iso3::IDENTITY, &probe, R::INFINITY, true).status
            == RayStatus::Inside;
    let face = (b - a).cross(c - a).normalize_or(Vec3::Z);
    let normal = if d > R::ZERO {
        let away = (p - q) / d;
        if inside {
            -away
        } else {
            away
        }
    } else {
        face
    };
    PointProjection {
        distance: if inside { -d } else { d },
        projection: pose.transform_point(q),
        normal: pose.rotation * normal,
        inside,
        status: Status::Exact,
    }
}
