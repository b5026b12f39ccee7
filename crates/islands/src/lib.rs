//! # mink-islands
//!
//! Contact islands and hibernation. Each step, the links (rigid bodies) of
//! a scene are split into *islands*: the connected components of the
//! coupling graph whose edges are kinematic (every link to its parent),
//! contacts (the pairs the narrow phase produced) and equality constraints.
//! Each island is an exactly decoupled block of the constraint solve, handed
//! out with its links, contacts and constraints as contiguous ranges. An
//! articulated body is one island; an entity made of several free bodies
//! gives one island per body.
//!
//! Hibernation extends the partition in time. Every step, each awake link's
//! dof velocities, each weighted by its `dof_length` (1 for a translational
//! dof, the swept radius for a rotational one, so that one tolerance in m/s
//! covers both and a small body's spin does not keep it awake), are compared
//! with [`Params::thresh_vel`] (2e-3 m/s by default, 1e-4 m/s in the
//! MuJoCo-compatible preset). A link under it for [`SLEEP_STEPS`] (10)
//! consecutive steps is ready; an island sleeps once all its links are
//! ready, and its dof velocities are zeroed. A sleeping island wakes, the
//! same step, on a contact or constraint with an awake link, when it is
//! joined to a waking island, or on an external wake request; a sleeping
//! island touched only by other sleeping islands stays asleep.
//!
//! ## The world is not a body
//!
//! Fixed links (the ground, static scenery, fixed robot bases) belong to no
//! island and never couple two islands: a contact with the ground, or a
//! kinematic edge to a fixed base, merges nothing. Otherwise every body
//! resting on the floor would be one island. A contact with a fixed link
//! belongs to the island of its moving end.
//!
//! ## In a step of the pipeline
//!
//! 1. Broad phase: a geometry on link `l` carries
//!    [`Islands::broadphase_asleep`]`(l)` (true for sleeping and static
//!    links), so that pairs with no awake side are skipped
//!    ([`Islands::pair_is_active`] says the same per pair).
//! 2. Narrow phase: the contact pairs, as `[link_a, link_b]`.
//! 3. Optionally [`Islands::wake`] with those contacts: islands touched by an
//!    awake body wake now, and the caller re-runs detection for the woken
//!    links (their pairs were skipped while they slept) and appends what it
//!    finds, so a woken stack responds as a whole in this very step.
//! 4. [`Islands::step`]: wakes what the contacts, constraints and external
//!    requests reach, builds the islands of the awake links, and puts to
//!    sleep the islands that have been still long enough.
//! 5. The solver solves [`Islands::awake_islands`], each on its own, and
//!    the caller zeroes the velocities of the links that fell asleep
//!    ([`Islands::zero_slept_dofs`] or [`Islands::slept_links`]).
//!
//! ## Cost
//!
//! Union-find (union by size, path halving) over the awake links and the
//! step's edges, then counting sorts: linear in awake links + edges.
//! Sleeping islands keep their links chained in place and are not touched
//! by a step unless something wakes them, so with most of a scene asleep a
//! step costs what its awake part costs.
//!
//! ## Memory
//!
//! `#![no_std]` and allocation-free: a state lives in one caller-provided
//! `&mut [u32]` of [`Capacity::words`] words; an input past a capacity is
//! refused with an error naming it. Under `alloc`, [`IslandsBuf`] owns a
//! growing buffer.
//!
//! ## Example
//!
//! ```
//! use mink_islands::{Capacity, Islands, Link, Params, StepInput, Topology, NO_PARENT};
//!
//! // Link 0: the ground. Links 1, 2: free boxes (6 dofs each).
//! // Links 3, 4: a two-link pendulum hanging from a fixed base (link 0).
//! let links = [
//!     Link::world(),
//!     Link::free(0, 6),
//!     Link::free(6, 6),
//!     Link::child(0, 12, 1),
//!     Link::child(3, 13, 1),
//! ];
//! // Translational dofs weigh 1; rotational ones their swept radius (m).
//! let dof_length = [1.0, 1.0, 1.0, 0.1, 0.1, 0.1, 1.0, 1.0, 1.0, 0.1, 0.1, 0.1, 0.5, 0.5];
//! let topo = Topology::new(&links, &dof_length).unwrap();
//!
//! let cap = Capacity { links: 5, contacts: 8, constraints: 2 };
//! let mut words = [0u32; 256];
//! assert!(cap.words().unwrap() <= words.len());
//! let mut islands = Islands::new(&mut words[..], &topo, cap, Params::new()).unwrap();
//!
//! // Both boxes rest on the ground; box 2 touches the pendulum's tip.
//! let contacts = [[1, 0], [2, 0], [2, 4]];
//! let mut vel = [0.0_f64; 14];
//! vel[0] = 1.0; // box 1 slides at 1 m/s
//! let input = StepInput { contacts: &contacts, constraints: &[], wake: &[], dof_vel: &vel };
//! let summary = islands.step(&topo, &input).unwrap();
//!
//! // The ground merges nothing: box 1 alone, box 2 with the pendulum.
//! assert_eq!(summary.islands, 2);
//! let first = islands.island(0).unwrap();
//! assert_eq!(first.links, &[1]);
//! assert_eq!(first.contacts, &[0]);
//! let second = islands.island(1).unwrap();
//! assert_eq!(second.links, &[2, 3, 4]);
//! assert_eq!(second.contacts, &[1, 2]);
//! assert_eq!(islands.island_of(0), None); // the ground is in no island
//!
//! // Nine more still steps: box 2 and the pendulum fall asleep together on
//! // their tenth, box 1 keeps sliding.
//! for _ in 0..9 {
//!     islands.step(&topo, &input).unwrap();
//! }
//! assert!(islands.is_asleep(4) && !islands.is_asleep(1));
//! let slept: Vec<u32> = islands.slept_links().collect();
//! assert_eq!(slept, [2, 3, 4]);
//!
//! // A contact from the awake box wakes them in the same step.
//! let contacts = [[1, 2]];
//! let input = StepInput { contacts: &contacts, constraints: &[], wake: &[], dof_vel: &vel };
//! islands.step(&topo, &input).unwrap();
//! assert_eq!(islands.woken_links(), &[2, 3, 4]);
//! assert_eq!(islands.island_of(1), islands.island_of(2));
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

mod debug;

#[cfg(feature = "alloc")]
mod buf;
mod build;
#[cfg(feature = "alloc")]
pub mod check;
mod error;
mod islands;
mod params;
mod sleep;
mod state;
mod storage;
mod topology;
mod union_find;
mod wake;

#[cfg(feature = "alloc")]
pub use buf::IslandsBuf;
pub use error::{CapacityKind, InputList, StepError};
pub use islands::{Island, Islands, LinkState, StepInput, StepSummary, Words};
pub use params::{Params, DEFAULT_THRESH_VEL, MUJOCO_THRESH_VEL, SLEEP_STEPS};
pub use storage::Capacity;
pub use topology::{Link, Topology, TopologyError, MAX_LINKS, NO_PARENT};
