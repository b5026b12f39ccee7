//! # mink-field
//!
//! The support field for convex meshes: the support point of a mesh along
//! any direction in `O(1)` of its vertex count, from a precomputed grid of
//! directions, as in Genesis, plus what Genesis does not have: an exact
//! mode, the field as a [`Support`](mink_support::Support) shape, and
//! baking to static data for microcontrollers.
//!
//! - [`grid`]: Genesis' latitude–longitude grid of `res × res` directions
//!   (default [`DEFAULT_RESOLUTION`] = 180), flat cell `i · res + j`, and a
//!   cheap inverse map with the same layout.
//! - [`FieldView`]: one mesh's field over borrowed cells ([`FullCells`]:
//!   position and index per cell, Genesis' layout; [`CompactCells`]: a
//!   `u16` index per cell, positions from the hull; [`BlobCells`]: read in
//!   place from a baked byte blob). [`FieldView::query`] returns the best of
//!   the four cells bracketing the direction and the count of tied
//!   vertices; no allocation, no panic.
//! - Exact mode: [`FieldView::support_exact`] climbs the hull's vertex
//!   graph ([`VertexGraph`]: [`HullGraph`], mink-support's `HullView`, a
//!   blob's graph) from the nearest cell's vertex; [`FieldView::query_exact`]
//!   returns the field's answer and the exact one side by side
//!   ([`ExactHit`], with [`ExactHit::field_error`]).
//! - [`FieldShape`] and [`ExactFieldShape`] implement `Support`, so GJK,
//!   EPA and MPR use a field with no other change.
//! - [`FieldSetView`]: many meshes in flat arrays with per-geometry offsets.
//! - With `alloc`: building ([`SupportField`], [`FieldSet`]; `rayon`
//!   parallelizes over cells and meshes) and writing blobs ([`blob`]); with
//!   `std`: [`bake`] reads a mesh (OBJ or JSON) and writes Rust statics or a
//!   blob (`cargo xtask bake-field MESH OUT`).
//!
//! ## Accuracy
//!
//! A field answer is the support of a sampled direction near the query, so
//! a feature narrower than a cell can be missed. Its support-value error
//! along a unit direction is at most
//! [`grid::angular_error_bound`]`(res)` (`1.5 π / res` rad) times the mesh's
//! diameter; the exact mode has none. Measured on random hulls of 32 to
//! 5,000 vertices (spheres, balls, flat slivers), 100,000 random unit
//! directions each, `f64` (`cargo test -p mink-field --test accuracy
//! field_error -- --nocapture`):
//!
//! | resolution | bound (rad) | worst error / diameter | mean error / diameter | queries exact |
//! |---:|---:|---:|---:|---:|
//! | 45 | 1.05e-1 | 1.3e-2 | 4.2e-5 | 95.4 % |
//! | 90 | 5.24e-2 | 3.6e-3 | 6.1e-6 | 98.8 % |
//! | 180 | 2.62e-2 | 1.4e-3 | 4.4e-7 | 99.8 % |
//! | 360 | 1.32e-2 | 4.0e-4 | 2.9e-8 | 99.95 % |
//!
//! ## Memory per mesh
//!
//! | resolution | cells | full, `f32` (16 B/cell) | full, `f64` (28 B/cell) | compact (2 B/cell) |
//! |---:|---:|---:|---:|---:|
//! | 45 | 2,025 | 32,400 B | 56,700 B | 4,050 B |
//! | 90 | 8,100 | 129,600 B | 226,800 B | 16,200 B |
//! | 180 | 32,400 | 518,400 B | 907,200 B | 64,800 B |
//! | 360 | 129,600 | 2,073,600 B | 3,628,800 B | 259,200 B |
//!
//! independent of the vertex count (the compact layout borrows the hull's
//! vertices, `12 n` bytes in `f32`, which the hull stores anyway).
//!
//! ## Example
//!
//! ```
//! # #[cfg(feature = "alloc")] {
//! use mink_field::{HullGraph, SupportField};
//! use mink_support::Vec3;
//!
//! // A unit cube's corners and their edge graph (neighbours differ in one bit).
//! let corners: Vec<Vec3<f64>> = (0..8)
//!     .map(|i| Vec3::new(
//!         if i & 1 != 0 { 1.0 } else { -1.0 },
//!         if i & 2 != 0 { 1.0 } else { -1.0 },
//!         if i & 4 != 0 { 1.0 } else { -1.0 },
//!     ))
//!     .collect();
//! let offsets: Vec<u32> = (0..=8).map(|i| 3 * i).collect();
//! let neighbours: Vec<u32> = (0..8u32).flat_map(|i| [i ^ 1, i ^ 2, i ^ 4]).collect();
//! let graph = HullGraph::new(&corners, &offsets, &neighbours).unwrap();
//!
//! let field = SupportField::build(&corners, 90).unwrap();
//! let view = field.view();
//! let dir = Vec3::new(0.3, -0.9, 0.2);
//! let hit = view.query(dir).unwrap();
//! assert_eq!(hit.point, Vec3::new(1.0, -1.0, 1.0));
//!
//! let exact = view.query_exact(&graph, dir).unwrap();
//! assert_eq!(exact.point, hit.point);
//! assert_eq!(exact.field_error(dir), 0.0);
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
#[cfg(feature = "std")]
extern crate std;

mod error;
mod exact;
pub mod graph;
pub mod grid;
mod set;
mod shape;
mod store;
mod view;

#[cfg(feature = "std")]
pub mod bake;
pub mod blob;
#[cfg(feature = "alloc")]
mod build;
#[cfg(feature = "alloc")]
pub mod fuzz;

pub use blob::{BlobCells, FieldBlob};
#[cfg(feature = "alloc")]
pub use build::{FieldSet, SupportField};
pub use error::FieldError;
pub use exact::ExactHit;
pub use graph::{climb, Climb, ClimbStatus, HullGraph, VertexGraph, MAX_CLIMB_ITERATIONS};
pub use grid::{DEFAULT_RESOLUTION, MAX_RESOLUTION, MIN_RESOLUTION};
pub use set::FieldSetView;
pub use shape::{ExactFieldShape, FieldShape};
pub use store::{CellStore, CompactCells, FullCells, COMPACT_MAX_VERTICES};
pub use view::{prescale, FieldHit, FieldView, TIE_EPSILONS};
