//! rapier3d's side of a replay: its `CollisionPipeline` (broad phase and
//! narrow phase, no dynamics) on colliders with no rigid body, moved to
//! each recorded frame's poses.

use super::rapier_shapes::{body_collider, ground_collider, pose};
use super::scenes::{Pose, SceneDesc};
use super::ContactCount;
use rapier3d::prelude::{
    ActiveCollisionTypes, BroadPhaseBvh, ColliderHandle, ColliderSet, CollisionPipeline,
    IntegrationParameters, IslandManager, NarrowPhase, RigidBodySet,
};

/// rapier3d's default contact prediction distance, meters (2 mm): the
/// speculative distance both replays use.
pub fn prediction_distance() -> f32 {
    IntegrationParameters::default().prediction_distance()
}

/// A scene in rapier3d's collision pipeline.
pub struct RapierReplay {
    colliders: ColliderSet,
    bodies: RigidBodySet,
    handles: Vec<ColliderHandle>,
    current: Vec<Pose>,
    pipeline: CollisionPipeline,
    broad: BroadPhaseBvh,
    narrow: NarrowPhase,
    islands: IslandManager,
    prediction: f32,
}

impl RapierReplay {
    /// The scene's bodies as parentless colliders at their starting poses,
    /// plus the ground; contacts are predicted within rapier's default
    /// prediction distance ([`Self::prediction`]). Nothing is computed until
    /// the first [`Self::step`].
    pub fn new(scene: &SceneDesc) -> Self {
        let mut colliders = ColliderSet::new();
        colliders.insert(
            ground_collider(&scene.ground).active_collision_types(ActiveCollisionTypes::all()),
        );
        let handles = scene
            .bodies
            .iter()
            .map(|b| {
                // Parentless colliders count as fixed: let every pair of
                // them collide (rapier skips fixed–fixed pairs by default).
                let c = body_collider(&b.shape)
                    .position(pose(&b.pose))
                    .active_collision_types(ActiveCollisionTypes::all());
                colliders.insert(c)
            })
            .collect();
        Self {
            colliders,
            bodies: RigidBodySet::new(),
            handles,
            current: scene.bodies.iter().map(|b| b.pose).collect(),
            pipeline: CollisionPipeline::new(),
            broad: BroadPhaseBvh::new(),
            narrow: NarrowPhase::new(),
            islands: IslandManager::new(),
            prediction: prediction_distance(),
        }
    }

    /// The speculative contact distance, meters (rapier's default, 2 mm).
    pub fn prediction(&self) -> f32 {
        self.prediction
    }

    /// Moves every body to `poses` (one per body, scene order). Bodies whose
    /// pose did not change are not touched, so rapier sees them unmodified
    /// (as an application would leave a body at rest alone).
    pub fn set_poses(&mut self, poses: &[Pose]) {
        for ((h, cur), p) in self.handles.iter().zip(&mut self.current).zip(poses) {
            if cur != p {
                *cur = *p;
                if let Some(c) = self.colliders.get_mut(*h) {
                    c.set_position(pose(p));
                }
            }
        }
    }

    /// One collision step: broad phase and narrow phase for the current
    /// poses, on the calling thread's rayon pool (rapier is built with its
    /// `parallel` feature: a one-thread pool runs it serially).
    pub fn step(&mut self) {
        self.pipeline.step(
            self.prediction,
            &mut self.islands,
            &mut self.broad,
            &mut self.narrow,
            &mut self.bodies,
            &mut self.colliders,
            &(),
            &(),
        );
    }

    /// The contacts of the last step: pairs with at least one manifold
    /// point, and the points (all within the prediction distance).
    pub fn contacts(&self) -> ContactCount {
        let mut count = ContactCount::default();
        for pair in self.narrow.contact_pairs() {
            let points: usize = pair.manifolds().iter().map(|m| m.points.len()).sum();
            if points > 0 {
                count.pairs += 1;
                count.points += points;
            }
        }
        count
    }
}
