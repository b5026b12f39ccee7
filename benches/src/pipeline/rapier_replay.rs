//! rapier3d's side of a replay: its `CollisionPipeline` (broad phase and
//! narrow phase, no dynamics) on colliders with no rigid body, moved to
//! each recorded frame's poses. Colliders of adjacent links of an
//! articulation give no contacts ([`super::rapier_filter`]).

use super::rapier_filter::{ground_data, link_data, LinkFilter};
use super::rapier_shapes::{body_collider, ground_collider, pose};
use super::scenes::{Pose, SceneDesc};
use super::ContactCount;
use rapier3d::prelude::{
    ActiveCollisionTypes, BroadPhaseBvh, ColliderHandle, ColliderSet, CollisionPipeline,
    ContactPair, IntegrationParameters, IslandManager, NarrowPhase, RigidBodySet,
};

/// rapier3d's default contact prediction distance, meters (2 cm: 0.02 times
/// its default length unit of 1 m): the speculative distance both replays
/// use.
pub fn prediction_distance() -> f32 {
    IntegrationParameters::default().prediction_distance()
}

/// A scene in rapier3d's collision pipeline.
pub struct RapierReplay {
    colliders: ColliderSet,
    ground: ColliderHandle,
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
        let ground = colliders.insert(ground_data(
            ground_collider(&scene.ground).active_collision_types(ActiveCollisionTypes::all()),
        ));
        let handles = scene
            .bodies
            .iter()
            .map(|b| {
                // Parentless colliders count as fixed: let every pair of
                // them collide (rapier skips fixed–fixed pairs by default).
                let c = body_collider(&b.shape)
                    .position(pose(&b.pose))
                    .active_collision_types(ActiveCollisionTypes::all());
                colliders.insert(link_data(c, b))
            })
            .collect();
        Self {
            colliders,
            ground,
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

    /// The speculative contact distance, meters (rapier's default, 2 cm).
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
    /// poses (parent–child pairs dropped by [`LinkFilter`]), on the calling
    /// thread's rayon pool (rapier is built with its `parallel` feature: a
    /// one-thread pool runs it serially).
    pub fn step(&mut self) {
        self.pipeline.step(
            self.prediction,
            &mut self.islands,
            &mut self.broad,
            &mut self.narrow,
            &mut self.bodies,
            &mut self.colliders,
            &LinkFilter,
            &(),
        );
    }

    /// The contacts of the last step: the manifold points closer than the
    /// prediction distance (those rapier turns into solver contacts), and
    /// the pairs with at least one. Manifolds may hold points further
    /// apart (a height field's per-triangle manifolds keep points tens of
    /// centimeters away); they are not counted.
    pub fn contacts(&self) -> ContactCount {
        let mut count = ContactCount::default();
        for pair in self.narrow.contact_pairs() {
            let points = self.close_points(pair);
            if points > 0 {
                count.pairs += 1;
                count.points += points;
            }
        }
        count
    }

    /// The manifold points of `pair` closer than the prediction distance.
    fn close_points(&self, pair: &ContactPair) -> usize {
        pair.manifolds()
            .iter()
            .map(|m| m.points.iter().filter(|p| p.dist < self.prediction).count())
            .sum()
    }

    /// The collider pairs of the last step with at least one contact
    /// point closer than the prediction distance (as [`Self::contacts`]),
    /// as `(a, b)` with `a < b`, sorted: body `i` is `i`, the ground is the
    /// body count (as [`super::mink_scene::MinkScene::touching_pairs`]).
    pub fn touching_pairs(&self) -> Vec<(usize, usize)> {
        let index: std::collections::HashMap<ColliderHandle, usize> = self
            .handles
            .iter()
            .enumerate()
            .map(|(i, h)| (*h, i))
            .chain([(self.ground, self.handles.len())])
            .collect();
        let mut out: Vec<(usize, usize)> = self
            .narrow
            .contact_pairs()
            .filter(|p| self.close_points(p) > 0)
            .filter_map(|p| {
                let (a, b) = (*index.get(&p.collider1)?, *index.get(&p.collider2)?);
                Some((a.min(b), a.max(b)))
            })
            .collect();
        out.sort_unstable();
        out
    }
}
