//! The collision-pipeline benchmark's shared parts: scenes described once
//! for both libraries ([`scenes`]; the walking capsule robots and their
//! terrain in [`robots`] and [`terrain`]), their motion recorded once with
//! rapier3d's physics or, for the robots, from a script ([`record`]), and
//! the two replays that time only the collision step on the same shapes and
//! poses: mink's scene step ([`mink_scene`]; [`mink_direct`] runs its
//! phases one by one, to time each) and rapier3d's `CollisionPipeline`
//! ([`rapier_replay`]).

pub mod mink_direct;
pub mod mink_scene;
pub mod mink_shapes;
pub mod rapier_filter;
pub mod rapier_replay;
pub mod rapier_shapes;
pub mod record;
pub mod robots;
pub mod scenes;
pub mod terrain;

/// Contacts found by one step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContactCount {
    /// Pairs with at least one contact point.
    pub pairs: usize,
    /// Contact points over all pairs.
    pub points: usize,
}
