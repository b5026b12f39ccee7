//! # mink-sat
//!
//! The separating-axis test (SAT) between convex hulls, with Box3D's
//! inscribed-sphere culling of faces and edges, tightened by the other
//! hull's vertex nearest the contact, and the Gauss-map test that keeps
//! only the edge pairs forming faces of the Minkowski difference.
//!
//! - [`hull_data`]: what SAT needs of a hull, computed once when the hull
//!   is built: the Gauss-map arc of every edge ([`GaussArc`]) and an
//!   inscribed sphere ([`InscribedSphere`]), in flat arrays borrowable from
//!   `static` slices ([`SatArrays`], [`SatHull`]); [`SatData`] builds and
//!   owns them under the `alloc` feature.
//! - [`query`]: [`sat`], the query between two posed hulls: the best face
//!   of A, of B and edge pair, the overall maximum separation, and counters
//!   of what the culling saved ([`SatCounters`]). Its face bounds live in
//!   `bounds` (computed once per query, four faces at a time, and kept for
//!   the edges), its edge stage in `edges`.
//! - [`manifold`](mod@manifold): [`manifold()`], the contact manifold from
//!   the SAT axis: reference and incident faces, clipping, up to 4 points
//!   within a speculative margin with stable [`FeatureId`]s; an edge–edge
//!   contact as one point (face clipping and reduction live in `clip`). Its
//!   SAT query stops at the first axis that separates the hulls by more
//!   than the margin, and skips the features its preference rules out.
//! - [`cache`]: frame-to-frame coherence: the last best feature
//!   ([`SatCache`]) re-tested first by [`sat_cached`] and
//!   [`manifold_cached`], the full SAT (seeded with it) only when it no
//!   longer separates.
//! - `fuzz` (feature `alloc`, which brings mink-gjk as its independent
//!   oracle): the invariants a fuzz target checks, on any pair of hulls
//!   or on bytes.
//!
//! `#![no_std]`; the query allocates nothing and never panics. Normals point
//! from A to B, separations are signed (positive apart), meters, world frame.
//!
//! ```
//! # #[cfg(feature = "alloc")] {
//! use mink_sat::{sat, Culling, SatData, SatFeature};
//! use mink_support::{ConvexHull, Iso3, Vec3};
//!
//! // A unit cube (half-extent 0.5) and the same cube 1.25 m above it.
//! let corners: Vec<Vec3<f64>> = (0..8)
//!     .map(|i| Vec3::new(
//!         if i & 1 == 0 { -0.5 } else { 0.5 },
//!         if i & 2 == 0 { -0.5 } else { 0.5 },
//!         if i & 4 == 0 { -0.5 } else { 0.5 },
//!     ))
//!     .collect();
//! let cube = ConvexHull::from_points(&corners).unwrap();
//! let data = SatData::from_view(&cube.view()).unwrap();
//! let hull = data.with_hull(cube.view()).unwrap();
//!
//! let pose_b = Iso3::from_translation(Vec3::new(0.0, 0.0, 1.25));
//! let r = sat(&hull, &Iso3::IDENTITY, &hull, &pose_b, Culling::On);
//! assert!((r.best.separation - 0.25).abs() < 1e-12);
//! assert!((r.best.normal - Vec3::Z).norm() < 1e-12);
//! assert!(matches!(r.best.feature, SatFeature::FaceA(_)));
//! # }
//! ```
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's example, compiled and run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

#[cfg(feature = "alloc")]
extern crate alloc;

mod bounds;
pub mod cache;
mod clip;
mod edges;
#[cfg(feature = "alloc")]
pub mod fuzz;
pub mod hull_data;
pub mod manifold;
pub mod query;

pub use cache::{manifold_cached, sat_cached, CachedSat, SatCache};
pub use clip::{ContactPoint, FeatureId, MAX_CLIP_VERTICES, MAX_MANIFOLD_POINTS, NO_FEATURE};
#[cfg(feature = "alloc")]
pub use hull_data::SatData;
pub use hull_data::{fill_gauss_arcs, GaussArc, InscribedSphere, SatArrays, SatHull};
pub use manifold::{manifold, Manifold, ManifoldStatus, FEATURE_PREFERENCE_FRACTION};
pub use query::{
    edge_is_candidate, sat, Culling, SatAxis, SatCounters, SatFeature, SatResult, SatStatus,
    ARC_PARALLEL_EPS, CULL_ROUNDING_EPS, EDGE_BATCH_CAPACITY, EDGE_PARALLEL_SQRT_EPS,
    FACE_BOUND_CAPACITY,
};
