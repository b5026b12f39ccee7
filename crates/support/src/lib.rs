//! # mink-support
//!
//! The foundation of mink: the scalar ([`Real`], `f32` or `f64`), small math
//! types ([`Vec3`], [`Mat3`], [`Quat`], [`Iso3`]), every shape with its
//! support function ([`Support`]), the Minkowski difference of two shapes that
//! GJK, EPA and MPR iterate on ([`MinkowskiDiff`]), and AABBs ([`Aabb`]).
//!
//! `#![no_std]` and allocation-free; the `alloc` feature adds the convex-hull
//! builder and owned hulls.
//!
//! Conventions: right-handed, meters; capsule, cylinder and cone axes are the
//! local z axis; normals point from A to B.
//!
//! ```
//! use mink_support::{Capsule, Cuboid, Iso3, Pair, Support, Vec3};
//!
//! let cuboid = Cuboid::new(Vec3::new(1.0_f64, 0.5, 0.25)).unwrap();
//! // The corner farthest along a direction that need not be unit length:
//! let p = cuboid.support(Vec3::new(2.0, -1.0, 3.0), &mut ());
//! assert_eq!(p, Vec3::new(1.0, -0.5, 0.25));
//!
//! // A capsule is a segment core plus an inflation radius.
//! let capsule = Capsule::new(0.1, 0.5).unwrap();
//! assert_eq!(capsule.inflation(), 0.1);
//!
//! // The Minkowski difference of the box and the capsule 3 m away along x.
//! let pose_b = Iso3::from_translation(Vec3::new(3.0, 0.0, 0.0));
//! let mut pair = Pair::new(&cuboid, &Iso3::IDENTITY, &capsule, &pose_b);
//! let s = pair.support(Vec3::new(1.0, 0.0, 0.0));
//! assert_eq!(s.w, s.a - s.b);
//! ```
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's example, compiled and run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

#[cfg(feature = "alloc")]
#[allow(unused_extern_crates)]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod aabb;
#[cfg(feature = "arbitrary")]
pub mod arbitrary_impls;
mod error;
#[cfg(feature = "glam")]
pub mod glam_interop;
pub mod math;
mod pair;
mod real;
#[cfg(feature = "serde")]
pub mod serde_impls;
pub mod shapes;
mod support;

pub use aabb::Aabb;
pub use error::ShapeError;
pub use math::{closest_segment_points, core_normal, Iso3, Mat3, Quat, QuatError, Vec3};
pub use pair::{IdentityPair, MinkowskiDiff, Pair, SupportPoint};
pub use real::{MaybeDefmt, Real};
pub use shapes::capsule::{Capsule, CapsuleDistance};
pub use shapes::cone::Cone;
pub use shapes::cuboid::Cuboid;
pub use shapes::cylinder::{Cylinder, CAP_RIM_POINTS};
pub use shapes::ellipsoid::Ellipsoid;
pub use shapes::halfspace::{HalfSpace, HalfSpaceContact};
pub use shapes::height_field::HeightField;
#[cfg(feature = "alloc")]
pub use shapes::hull::ConvexHull;
pub use shapes::hull::{
    ClimbError, FacePlane, HullArrays, HullEdge, HullIndex, HullView, VertexLanes,
};
pub use shapes::point::Point;
pub use shapes::prism::TerrainPrism;
pub use shapes::rounded::Rounded;
pub use shapes::segment::Segment;
pub use shapes::sphere::Sphere;
pub use shapes::triangle::{Triangle, TRIANGLE_DEGENERACY_ULPS};
pub use support::{CapacityError, Support, SupportSet, SUPPORT_SET_CAPACITY};
