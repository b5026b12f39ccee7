//! Scenes: geometries on links, stepped through broad phase, narrow phase,
//! contacts, islands and hibernation.
//!
//! A scene is described once ([`SceneDesc`]): its geometries
//! ([`GeomDesc`]: a [`Collider`](crate::Collider) on a link at a local
//! pose, with `contype`/`conaffinity` masks and a contact margin in
//! meters), its links ([`Link`](mink_islands::Link): parent, fixed or not,
//! dof range; plus a per-dof length for hibernation) and its equality
//! constraints (link pairs). Each step takes the links' world poses and dof
//! velocities ([`SceneInput`]) and:
//!
//! 1. places every geometry (link pose after local pose) and computes its
//!    world AABB grown by its margin;
//! 2. runs the sweep-and-prune broad phase with the filters of
//!    [`Filters`](mink_broadphase::Filters): same link, parent–child,
//!    `contype`/`conaffinity`, both fixed, both asleep (geometries of
//!    sleeping islands and of fixed links are flagged asleep, so a sleeping
//!    scene costs about its awake part). Past the pair budget, the step
//!    fails with [`BroadPhaseError::PairBudget`](mink_broadphase::BroadPhaseError::PairBudget);
//! 3. runs [`collide`](crate::collide) on each pair with the sum of the two
//!    margins, appending its contacts ([`Contact`]) to one flat buffer in
//!    pair order; a full buffer fails the step with
//!    [`SceneError::ContactCapacity`] (how many were found and kept).
//!    [`SceneBuf`] keeps each pair's GJK state for the next step
//!    ([`SceneConfig::warm_start`], [`collide_cached`](crate::collide_cached)),
//!    so a pair that moved a little converges in fewer iterations;
//! 4. wakes, in the same step, every sleeping island that an awake body now
//!    touches, and detects and appends the woken geometries' contacts;
//! 5. steps the islands ([`mink_islands`]) with one link pair per contact:
//!    islands still for long enough fall asleep.
//!
//! Storage: [`Scene`] runs on caller-provided [`SceneBuffers`] (`no_std`,
//! no allocator, fixed capacities); [`SceneBuf`] (`alloc`) owns growable
//! storage; [`SceneBatch`] (`alloc`) steps many environments of one
//! description, in parallel with the `rayon` feature, which also splits a
//! scene's narrow phase across threads (`par_step`; the same output).
//!
//! Contacts are read back with [`SceneBuf::contacts`] (all),
//! [`SceneBuf::contacts_of`] (one link, oriented so it is side A),
//! [`SceneBuf::contacts_between`] and [`SceneBuf::contacts_of_entity`]
//! (Genesis' `get_contacts(with_entity, exclude_self_contact)`, an entity
//! being an articulation named by its root link).
//!
//! ```
//! use mink::scene::{GeomDesc, SceneBuf, SceneConfig, SceneDesc, SceneInput};
//! use mink::islands::Link;
//! use mink::support::{Cuboid, HalfSpace, Iso3, Sphere, Vec3};
//!
//! // Link 0: the ground (fixed). Links 1 and 2: free bodies, 6 dofs each.
//! let links = [Link::world(), Link::free(0, 6), Link::free(6, 6)];
//! let dof_length = [1.0_f64, 1.0, 1.0, 0.5, 0.5, 0.5, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5];
//! let ground = HalfSpace::new(Vec3::Z, 0.0).unwrap();
//! let cube = Cuboid::new(Vec3::splat(0.5)).unwrap();
//! let ball = Sphere::new(0.25).unwrap();
//! let geoms: [GeomDesc<'_, f64>; 3] = [
//!     GeomDesc::new(mink::Shape::from(ground), 0),
//!     GeomDesc::new(mink::Shape::from(cube), 1).with_margin(0.01),
//!     GeomDesc::new(mink::Shape::from(ball), 2),
//! ];
//! let desc = SceneDesc::new(&geoms, &links, &dof_length, &[]).unwrap();
//! let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
//!
//! // The cube sinks 1 cm into the ground; the ball floats far away.
//! let poses = [
//!     Iso3::IDENTITY,
//!     Iso3::from_translation(Vec3::new(0.0, 0.0, 0.49)),
//!     Iso3::from_translation(Vec3::new(5.0, 0.0, 3.0)),
//! ];
//! let velocities = [0.0; 12];
//! let report = scene.step(&SceneInput::new(&poses, &velocities)).unwrap();
//! // The ground is unbounded: its box meets both bodies' boxes.
//! assert_eq!(report.broadphase_pairs, 2);
//! assert_eq!(report.pairs_in_contact, 1);
//! for c in scene.contacts_of(1) {
//!     // Oriented from the cube (side A) towards the ground.
//!     assert_eq!((c.link_a, c.link_b), (1, 0));
//!     assert!((c.normal.z + 1.0).abs() < 1e-9);
//!     assert!(c.depth > 0.0);
//! }
//! assert_eq!(scene.contacts_between(2, 0).count(), 0);
//!
//! // Still for ten steps: the cube's island and the ball's fall asleep.
//! for _ in 0..10 {
//!     scene.step(&SceneInput::new(&poses, &velocities)).unwrap();
//! }
//! assert!(scene.islands().is_asleep(1));
//! let report = scene.step(&SceneInput::new(&poses, &velocities)).unwrap();
//! assert_eq!(report.broadphase_pairs, 0); // nothing awake to test
//! ```

mod api;
#[cfg(feature = "alloc")]
mod batch;
mod contact;
mod description;
mod fixed;
mod memory;
#[cfg(feature = "alloc")]
mod owned;
#[cfg(feature = "rayon")]
pub mod parallel;
mod points;
mod rays;
mod report;
mod step;
mod storage;
#[cfg(feature = "alloc")]
mod sweep;

pub(crate) use api::scene_api;
#[cfg(feature = "alloc")]
pub use batch::{PaddedContacts, SceneBatch, PADDING_GEOM};
pub use contact::{
    contacts_between, contacts_of, contacts_of_entity, is_self_contact, Contact, ContactsBetween,
    ContactsOf, EntityContacts, EntityFilter,
};
pub use description::{DescError, GeomDesc, SceneDesc, MAX_SCENE_GEOMS};
pub use fixed::Scene;
#[cfg(feature = "alloc")]
pub use owned::SceneBuf;
pub use points::ScenePointHit;
pub use rays::{QueryFilter, SceneRayHit};
pub use report::{SceneConfig, SceneError, SceneInput, StepReport};
pub use step::MAX_WAKE_PASSES;
pub use storage::{SceneBuffers, SceneCapacity};
#[cfg(feature = "alloc")]
pub use sweep::{SweepHit, SweepReport};
