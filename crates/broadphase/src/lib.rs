//! # mink-broadphase
//!
//! Sweep and prune over world AABBs, with collision filters and a pair
//! budget. Each frame takes one [`Geom`] per geometry (its world AABB, link,
//! parent link, `contype`/`conaffinity`, fixed and asleep flags) and reports
//! the candidate pairs, each once, in a deterministic order: exactly the
//! pairs whose closed AABBs overlap and that the filters keep, as brute force
//! over all pairs would find them ([`brute_force_pairs`], and the fuzz
//! harness [`fuzz::fuzz_broadphase`], check it).
//!
//! - **Sweep with a grid.** The sweep axis is the one of greatest spread of
//!   box centres. A single sweep over boxes spread in 3D tests about
//!   `N^(2/3)` interval overlaps per box, so the plane across the sweep axis
//!   is cut into cells about twice a median box wide, and each cell's column
//!   is swept on its own (boxes too large for the grid go to a list swept on
//!   its own and queried against the columns). A pair found in two columns
//!   is reported only in the one holding the corner `max(min_a, min_b)`.
//! - **Coherence.** The awake boxes stay in sweep order from frame to frame;
//!   a full frame re-sorts them by insertion (about linear when boxes move a
//!   little) and falls back to a full sort on the first frame, on a new
//!   sweep axis, or past a shift budget.
//! - **Incremental frames.** A full frame keeps its columns and its pairs.
//!   While at most half the awake geometries changed since (and the awake
//!   and sleeping sets and the filters stay the same), a frame keeps the
//!   stored pairs between unchanged geometries and queries only the changed
//!   ones against the stored columns and among themselves
//!   ([`FrameReport::incremental`]). The pair set is exactly the one a full
//!   frame finds.
//! - **Filters** ([`Filters`]): same link, parent–child links, MuJoCo's
//!   `contype`/`conaffinity` rule, both fixed, both asleep.
//! - **Sleeping** geometries leave the sweep: they sit in columns of their
//!   own, rebuilt only when the sleeping set changes, and each awake box
//!   queries them. A scene that mostly sleeps costs about its awake part.
//! - **Pair budget.** The output capacity: past it, the frame returns
//!   [`BroadPhaseError::PairBudget`] with the pairs found and kept, keeping
//!   the first ones in the usual order. Nothing is dropped silently.
//! - **Storage.** [`SweepAndPrune`] runs on caller-provided [`Buffers`]
//!   (`no_std`, no allocator); [`BroadPhase`] (`alloc`) owns growing ones.
//!   With `rayon`: a parallel sweep with exactly the serial output, parallel
//!   AABB updates, and many independent scenes per call.
//!
//! ```
//! use mink_broadphase::{BroadPhase, CandidatePair, Filters, Geom};
//! use mink_support::{Aabb, Vec3};
//!
//! let cube = |x: f32, link| {
//!     let c = Vec3::new(x, 0.0, 0.0);
//!     Geom::new(Aabb::from_center_half_extents(c, Vec3::splat(0.5)), link)
//! };
//! let mut geoms = vec![cube(0.0, 0), cube(0.8, 1), cube(5.0, 2), cube(5.5, 2)];
//! let mut broad = BroadPhase::new();
//! let mut pairs = Vec::new();
//! broad.update(&geoms, &Filters::ALL, &mut pairs).unwrap();
//! // Boxes 2 and 3 overlap but share a link.
//! assert_eq!(pairs, [CandidatePair::new(0, 1)]);
//!
//! // Both asleep: the pair is dropped, and neither is swept any more.
//! geoms[0].asleep = true;
//! geoms[1].asleep = true;
//! let report = broad.update(&geoms, &Filters::ALL, &mut pairs).unwrap();
//! assert!(pairs.is_empty());
//! assert_eq!(report.asleep, 2);
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

mod aabbs;
#[cfg(feature = "alloc")]
mod batch;
mod columns;
mod error;
mod filter;
#[cfg(feature = "alloc")]
pub mod fuzz;
mod geom;
pub mod grid;
mod incremental;
pub mod order;
#[cfg(feature = "alloc")]
mod owned;
mod pairs;
#[cfg(feature = "rayon")]
pub mod parallel;
#[cfg(feature = "alloc")]
mod reference;
mod sap;
mod sweep_and_prune;

#[cfg(feature = "rayon")]
pub use aabbs::par_update_world_aabbs;
pub use aabbs::update_world_aabbs;
#[cfg(feature = "alloc")]
pub use batch::update_batch;
pub use columns::Entry;
pub use error::BroadPhaseError;
pub use filter::{FilterKey, Filters};
pub use geom::{Geom, NO_LINK};
pub use order::Slot;
#[cfg(feature = "alloc")]
pub use owned::BroadPhase;
pub use pairs::CandidatePair;
#[cfg(feature = "rayon")]
pub use parallel::par_update_batch;
#[cfg(feature = "alloc")]
pub use reference::brute_force_pairs;
pub use sap::{Buffers, FrameReport, ENTRIES_PER_GEOM, MAX_DIRTY_FRACTION_INV, MAX_GEOMS};
pub use sweep_and_prune::SweepAndPrune;
