//! # mink
//!
//! Collision detection for people who write robot controllers on
//! microcontrollers, fuzz physics code, or build their own engines: a
//! `#![no_std]`, allocation-free, monomorphized core, generic over the scalar
//! (`f32` or `f64`).
//!
//! This umbrella crate re-exports the workspace's crates and adds what needs
//! all of them: the [`Shape`] enum for scenes of mixed shapes, and one pair
//! table that resolves a pair of shapes to their concrete types once per
//! call and runs the pair's routine on them, fully monomorphized. Every
//! query kind is a method of that routine: the queries on two shapes
//! ([`distance`], [`penetration`], [`intersect`], in [`query`]; analytic,
//! GJK, MPR or GJK+EPA per pair, chosen at compile time), the contact
//! manifolds ([`contact_manifold`], [`collide`], the [`scene`]), and your
//! own queries ([`dispatch_pair`] with a [`PairVisitor`], below). Queries
//! on one shape resolve it once the same way, from the same shape list:
//! ray casts ([`ray_cast`], in [`ray`]) and point projections
//! ([`project_point`]).
//!
//! | crate | what it does |
//! |---|---|
//! | [`support`] | scalar, math, shapes and their support functions, Minkowski pairs, AABBs |
//! | [`field`] | support field: O(1) support queries for convex meshes |
//! | [`gjk`] | GJK distance/intersection and EPA penetration |
//! | [`mpr`] | Minkowski Portal Refinement penetration |
//! | [`sat`] | separating-axis test and contact manifolds for polytopes |
//! | [`broadphase`] | sweep-and-prune broad phase with collision filters |
//! | [`sdf`] | signed distance fields of closed triangle meshes: non-convex mesh contacts ([`Collider::Mesh`]) and the deep-penetration fallback ([`collider::deep`]) |
//! | [`islands`] | contact islands and hibernation |
//!
//! ```
//! use mink::{dispatch_pair, PairVisitor, Shape};
//! use mink::support::{Capsule, Cuboid, HalfSpace, Iso3, Pair, Real, Support, Vec3};
//!
//! /// Separation of A and B along a fixed axis, by support points: a query
//! /// written once, run on whatever concrete pair the shapes turn out to be.
//! struct GapAlongX<R: Real> {
//!     pose_a: Iso3<R>,
//!     pose_b: Iso3<R>,
//! }
//!
//! impl<R: Real> PairVisitor<R> for GapAlongX<R> {
//!     type Output = R;
//!     fn convex<A: Support<R>, B: Support<R>>(self, a: &A, b: &B) -> R {
//!         let mut pair = Pair::new(a, &self.pose_a, b, &self.pose_b);
//!         let s = pair.support(Vec3::X); // the point of A ⊖ B farthest along +x
//!         -s.w.x - pair.inflation()
//!     }
//!     // A half-space is unbounded: no finite gap in general (not measured here).
//!     fn half_space<S: Support<R>>(self, _: &HalfSpace<R>, _: &S, _: bool) -> R {
//!         -R::INFINITY
//!     }
//!     fn half_spaces(self, _: &HalfSpace<R>, _: &HalfSpace<R>) -> R {
//!         -R::INFINITY
//!     }
//! }
//!
//! let a: Shape<f64> = Cuboid::new(Vec3::splat(0.5)).unwrap().into();
//! let b: Shape<f64> = Capsule::new(0.25, 1.0).unwrap().into();
//! let query = GapAlongX {
//!     pose_a: Iso3::IDENTITY,
//!     pose_b: Iso3::from_translation(Vec3::new(2.0, 0.0, 0.0)),
//! };
//! // Box face at x = 0.5, capsule surface at x = 2 - 0.25.
//! assert!((dispatch_pair(&a, &b, query) - 1.25).abs() < 1e-12);
//! ```
#![no_std]

/// The crate README's example, compiled and run as a doctest so that it
/// stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct CrateReadmeDoctests;

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

pub use mink_broadphase as broadphase;
pub use mink_field as field;
pub use mink_gjk as gjk;
pub use mink_islands as islands;
pub use mink_mpr as mpr;
pub use mink_sat as sat;
pub use mink_sdf as sdf;
pub use mink_support as support;

pub mod cast;
pub mod collider;
pub mod contact;
#[cfg(all(debug_assertions, not(test), not(fuzzing), not(target_os = "none")))]
#[doc(hidden)]
pub mod instances;
#[cfg(feature = "alloc")]
pub mod owned;
mod pair;
pub mod query;
pub mod ray;
pub mod scene;
mod shape;
mod visitor;

pub use cast::shape_cast;
pub use collider::{collide, collide_cached, Collider};
pub use contact::{contact_manifold, ContactParams, ContactPoint, Manifold};
pub use query::{distance, intersect, penetration, project_point, Body, Method};
pub use ray::ray_cast;
pub use shape::{dispatch_pair, NoCustomShape, Shape};
pub use visitor::PairVisitor;

/// The README's Rust example, compiled and run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
