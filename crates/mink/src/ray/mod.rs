//! Ray casts against a body: where a ray first meets its shape (the
//! margin included), the point and the outward normal there, world frame.
//!
//! One table names how each shape answers (`ray/routine.rs`): closed forms for
//! the sphere, box, capsule, cylinder, cone, ellipsoid, half-space,
//! triangle and terrain prism (each in its own file, as the chord of the ray's line through
//! the shape), and GJK's ray cast ([`mink_gjk::ray_cast`], exact on the
//! inflation) for hulls, segments, points, rounded boxes, a
//! user's own shape and every shape with a margin its closed form does not
//! cover. The table is generated from the one shape list, so a new shape
//! gets GJK's cast until the table names a closed form for it.
//!
//! ```
//! use mink::ray::{ray_cast, Ray, RayStatus};
//! use mink::support::{Cuboid, Iso3, Vec3};
//! use mink::{Body, Shape};
//!
//! let crate_box: Shape<f64> = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap().into();
//! let body = Body::new(&crate_box, Iso3::from_translation(Vec3::new(0.0, 0.0, 2.0)));
//! // A range sensor at the origin looking up.
//! let ray = Ray::new(Vec3::ZERO, Vec3::Z);
//! let hit = ray_cast(&body, &ray, 10.0, true);
//! assert_eq!(hit.status, RayStatus::Hit);
//! assert!((hit.toi - 1.5).abs() < 1e-12);
//! assert_eq!(hit.normal, -Vec3::Z);
//! ```

mod capsule;
mod chord;
mod cone;
mod cuboid;
mod cylinder;
mod ellipsoid;
mod half_space;
mod height_field;
mod mesh;
mod orient;

pub(crate) mod routine;
mod sphere;
mod terrain_prism;
mod triangle;

pub(crate) use chord::aabb_chord;
pub use height_field::height_field_ray_cast;
pub use mesh::mesh_ray_cast;
pub use mink_gjk::{Ray, RayCast, RayStatus};

use crate::query::Body;
use mink_support::{Real, Support};

/// Casts `ray` (world frame) against `body`, its margin included: the
/// first `t` in `[0, max_toi]` at which `ray.at(t)` is on the body's
/// surface, that point and the unit outward normal there
/// ([`RayStatus::Hit`]). `t` is in units of the ray direction's length.
///
/// A ray that starts inside (or on the surface) gives
/// [`RayStatus::Inside`] (`toi` 0, `point` the origin, `normal` zero) when
/// `solid`, else the point where it leaves the body, with the outward
/// normal there (a [`RayStatus::Hit`]; a miss when that is past `max_toi`,
/// or never, in a half-space). Closed forms are exact up to rounding; GJK's
/// cast is within its relative tolerance ([`mink_gjk::gjk_tolerance`]) of
/// the shape's size and never past the surface. A zero or non-finite
/// direction, a non-finite origin or pose, a negative or non-finite margin
/// or a negative or NaN `max_toi` gives [`RayStatus::NonFinite`]; never
/// NaN, never a panic.
pub fn ray_cast<R: Real, U: Support<R>>(
    body: &Body<'_, '_, R, U>,
    ray: &Ray<R>,
    max_toi: R,
    solid: bool,
) -> RayCast<R> {
    let side = body.side();
    if !side.valid() || !ray.is_valid() || !(max_toi >= R::ZERO) {
        return RayCast::non_finite();
    }
    routine::cast_shape(
        body.shape,
        &side,
        &routine::RayQuery {
            ray: *ray,
            max_toi,
            solid,
        },
    )
}
