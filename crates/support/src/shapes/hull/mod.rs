//! Convex hulls: flat arrays a microcontroller can keep in `static` data, a
//! borrowed [`HullView`] that answers [`Support`](crate::Support) queries,
//! and (feature `alloc`) the owned [`ConvexHull`] with its quickhull builder.
//!
//! - [`topology`]: the arrays ([`HullArrays`]) and their index type
//!   ([`HullIndex`], `u16`);
//! - `view`: [`HullView`], validation and accessors;
//! - `support`: the support function (scan or hill climbing);
//! - `lanes`: [`VertexLanes`], the vertices in blocks of four for the scan;
//! - `build`, `merge`, `predicates`: quickhull in `f64` with an exact
//!   orientation predicate, merged into planar faces;
//! - `owned`: [`ConvexHull`].
//!
//! ```
//! # #[cfg(feature = "alloc")] {
//! use mink_support::{ConvexHull, Support, Vec3};
//!
//! // The 27 points of a 3×3×3 grid: their hull is a cube of 6 square faces.
//! let mut points = Vec::new();
//! for i in 0..27 {
//!     let c = |k: i32| ((i / 3_i32.pow(k as u32)) % 3 - 1) as f32;
//!     points.push(Vec3::new(c(0), c(1), c(2)));
//! }
//! let hull = ConvexHull::from_points(&points).unwrap();
//! let view = hull.view();
//! assert_eq!((view.vertex_count(), view.face_count(), view.edges().len()), (8, 6, 12));
//!
//! let mut hint = 0; // warm start: keep it across queries
//! let p = view.support(Vec3::new(1.0, 2.0, -3.0), &mut hint);
//! assert_eq!(p, Vec3::new(1.0, 1.0, -1.0));
//! # }
//! ```

#[cfg(feature = "alloc")]
mod build;
mod lanes;
#[cfg(feature = "alloc")]
mod merge;
#[cfg(feature = "alloc")]
mod owned;
#[cfg(feature = "alloc")]
mod predicates;
mod support;
pub mod topology;
mod view;

#[cfg(feature = "alloc")]
pub use build::{HULL_TOLERANCE_FACTOR, MAX_HULL_COORDINATE};
pub use lanes::VertexLanes;
#[cfg(feature = "alloc")]
pub use merge::{HULL_FLATNESS_MARGIN, HULL_STORAGE_ROUNDING_EPS};
#[cfg(feature = "alloc")]
pub use owned::ConvexHull;
pub use support::{
    ClimbError, DIRECTION_RANGE_HIGH, DIRECTION_RANGE_LOW, HULL_AABB_TRANSFORM_MAX_VERTICES,
    HULL_SCAN_MAX_VERTICES, MAX_HILL_CLIMB_ITERATIONS, MAX_PLATEAU_VERTICES,
    PROJECTION_ROUNDING_EPS,
};
pub use topology::{FacePlane, HullArrays, HullEdge, HullIndex, MAX_HULL_ARRAY_LEN};
pub use view::{HullView, UNIT_NORMAL_TOLERANCE_EPS};
