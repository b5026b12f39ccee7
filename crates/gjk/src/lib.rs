//! # mink-gjk
//!
//! GJK and EPA for any pair of convex shapes that implement
//! [`mink_support::Support`]: intersection ([`intersect`]), signed distance
//! with witnesses and normal ([`distance`], [`gjk`]), early-stop modes for a
//! collision pipeline ([`Stop`]), Nesterov acceleration ([`Variant`]), a
//! per-pair warm-start cache that re-poses the last query's simplex
//! ([`GjkCache`]), and penetration depth by EPA
//! ([`penetration`], [`epa`]) in a fixed-capacity buffer ([`Polytope`]),
//! ray casts against any convex shape ([`ray_cast`]), and shape casts of
//! two moving shapes, translating and turning, by conservative advancement
//! ([`shape_cast`], [`advance`]).
//!
//! Every query is generic over the scalar (`f32`, `f64`) and over the pair
//! type [`MinkowskiDiff`](mink_support::MinkowskiDiff), so each shape pair
//! compiles to its own loop with inlined support calls. GJK and EPA work in
//! A's frame on the shapes' *cores* (a sphere's centre, a capsule's
//! segment) and correct by the inflation radii at the end, so sphere–sphere
//! and capsule–capsule are exact. Results are mapped to the world with the
//! `pose_a` argument. Normals point from A to B; distances are signed
//! (negative when overlapping); meters throughout.
//!
//! `#![no_std]`, no allocation, no panic, every loop capped
//! ([`MAX_GJK_ITERATIONS`], [`MAX_EPA_ITERATIONS`]) with a status that says
//! so, and non-finite input gives a `NonFinite` status instead of NaN.
//!
//! ```
//! use mink_gjk::{distance, intersect, penetration, GjkStatus};
//! use mink_support::{Capsule, Cuboid, Iso3, Pair, Sphere, Vec3};
//!
//! let cuboid = Cuboid::new(Vec3::new(1.0_f64, 1.0, 1.0)).unwrap();
//! let ball = Sphere::new(0.5).unwrap();
//! let pose_a = Iso3::IDENTITY;
//! let pose_b = Iso3::from_translation(Vec3::new(3.0, 0.0, 0.0));
//!
//! let mut pair = Pair::new(&cuboid, &pose_a, &ball, &pose_b);
//! let d = distance(&mut pair, &pose_a);
//! assert_eq!(d.status, GjkStatus::Converged);
//! assert!((d.distance - 1.5).abs() < 1e-9);
//! assert!((d.normal - Vec3::X).norm() < 1e-9);
//! assert!(!intersect(&mut pair));
//!
//! // Overlapping capsule: EPA gives the depth and the normal from A to B.
//! let capsule = Capsule::new(0.5, 1.0).unwrap();
//! let pose_c = Iso3::from_translation(Vec3::new(0.0, 0.0, 1.25));
//! let mut pair = Pair::new(&cuboid, &pose_a, &capsule, &pose_c);
//! let p = penetration(&mut pair, &pose_a);
//! assert!((p.depth - 1.25).abs() < 1e-6);
//! assert!((p.normal - Vec3::Z).norm() < 1e-6);
//! ```
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's example, compiled and run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod cache;
mod cast;
mod epa;
mod gjk;
mod ray;
mod result;
mod settings;
mod simplex;

pub use cache::GjkCache;
pub use cast::{
    advance, bounding_radius, cast_scale, cast_tolerance, shape_cast, CastStatus, Motion, Moving,
    ShapeCast, MAX_CAST_ITERATIONS,
};
pub use epa::{
    epa, penetration, penetration_with, Polytope, EPA_DEFAULT_FACES, EPA_DEFAULT_VERTICES,
    EPA_FIRST_VERTICES,
};
pub use gjk::{distance, distance_with, gjk, intersect, WARM_REFRESH};
pub use ray::{ray_cast, Ray, RayCast, RayStatus};
pub use result::{Distance, EpaStatus, GjkStatus, Penetration};
pub use settings::{
    epa_tolerance, gjk_tolerance, GjkSettings, Stop, Variant, EPA_TOLERANCE, EPA_TOLERANCE_ULPS,
    GJK_TOLERANCE_FACTOR, MAX_EPA_ITERATIONS, MAX_GJK_ITERATIONS,
};
pub use simplex::Simplex;
