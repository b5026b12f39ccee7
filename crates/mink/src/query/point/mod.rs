//! Point queries: where a world point stands relative to a body (signed
//! distance, the closest surface point, the outward normal there).

mod height_field;
mod mesh;

pub use height_field::height_field_project_point;
pub use mesh::mesh_project_point;

use super::{distance, Body, Method, Status};
use crate::shape::Shape;
use mink_support::{Iso3, Point, Real, Support, Vec3};

/// Where a point stands relative to a body, world frame, meters.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PointProjection<R> {
    /// Signed distance from the body's surface (its margin included):
    /// positive outside, minus the distance to the surface inside.
    pub distance: R,
    /// The closest point of the body's surface.
    pub projection: Vec3<R>,
    /// The unit outward normal of the surface at `projection` (from the
    /// surface towards the point when it is outside).
    pub normal: Vec3<R>,
    /// `true` when the point is inside the body (`distance < 0`) or on
    /// its surface (`distance == 0`).
    pub inside: bool,
    /// How the answer was found: [`Status::Exact`] or
    /// [`Status::Converged`] for a proven one, as [`distance`] reports it;
    /// [`Status::InvalidInput`] for a non-finite point, pose or margin
    /// (every other field zero, the normal `+x`, `inside` false).
    pub status: Status,
}

/// Projects the world point `point` on `body`: its signed distance from
/// the body's surface, the closest surface point and the outward normal
/// there (see [`PointProjection`]). Answered through the pair table as the
/// distance from a [`Point`] shape, so by a closed form where the pair has
/// one and by GJK (outside) or the certified penetration query (inside)
/// otherwise.
///
/// ```
/// use mink::query::{project_point, Body};
/// use mink::support::{Cuboid, Iso3, Vec3};
/// use mink::Shape;
///
/// let cube: Shape<f64> = Cuboid::new(Vec3::new(1.0, 1.0, 1.0)).unwrap().into();
/// let body = Body::new(&cube, Iso3::IDENTITY);
/// let p = project_point(&body, Vec3::new(0.0, 0.0, 0.25));
/// assert!(p.inside);
/// assert!((p.distance + 0.75).abs() < 1e-9);
/// assert!((p.projection - Vec3::new(0.0, 0.0, 1.0)).norm() < 1e-9);
/// assert!((p.normal - Vec3::Z).norm() < 1e-9);
/// ```
pub fn project_point<R: Real, U: Support<R>>(
    body: &Body<'_, '_, R, U>,
    point: Vec3<R>,
) -> PointProjection<R> {
    let probe: Shape<'_, R, U> = Shape::Point(Point);
    let at = Body::new(&probe, Iso3::from_translation(point));
    let d = distance(&at, body, Method::Auto);
    if !d.status.is_answer() || !point.is_finite() {
        return PointProjection {
            distance: R::ZERO,
            projection: Vec3::ZERO,
            normal: Vec3::X,
            inside: false,
            status: if d.status.is_answer() {
                Status::InvalidInput
            } else {
                d.status
            },
        };
    }
    PointProjection {
        distance: d.distance,
        projection: d.p_b,
        // The pair's normal runs from the point towards the body, apart
        // and overlapping alike: the surface's outward normal is its
        // reverse.
        normal: -d.normal,
        inside: d.distance <= R::ZERO,
        status: d.status,
    }
}

/// The answer for bad input: every field zero, the normal `+x`, outside,
/// [`Status::InvalidInput`].
fn invalid<R: Real>() -> PointProjection<R> {
    PointProjection {
        distance: R::ZERO,
        projection: Vec3::ZERO,
        normal: Vec3::X,
        inside: false,
        status: Status::InvalidInput,
    }
}
