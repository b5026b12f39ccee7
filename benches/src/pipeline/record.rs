//! Recording a scene's motion once, so both libraries replay the same poses.
//!
//! The pile and the boxes fall under rapier3d's full physics (its
//! `PhysicsPipeline`, gravity along -z, 1/60 s steps); the recording keeps
//! every body's pose every few steps. The walking robots follow their
//! script instead ([`Motion::Walk`]), sampled at the same times. Replays
//! never integrate anything: they only set poses and run collision
//! detection.

use super::rapier_shapes::{body_collider, ground_collider};
use super::robots::Walkers;
use super::scenes::{Motion, Pose, SceneDesc};
use rapier3d::prelude::{PhysicsWorld, RigidBodyBuilder, Vector};

/// Simulation time step of a recording, seconds.
pub const RECORD_DT: f32 = 1.0 / 60.0;

/// The poses of every body of a scene over time.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    /// `frames[f][i]` is body `i`'s pose in frame `f` (index of
    /// [`SceneDesc::bodies`]).
    pub frames: Vec<Vec<Pose>>,
}

impl Recording {
    /// Number of frames.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// `true` when there is no frame.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }
}

/// The frames of `scene` after every `every`-th step of [`RECORD_DT`] over
/// `steps` steps (`steps / every` frames; `every` of 0 is taken as 1), as
/// its [`Motion`] says: [`record_fall`] or [`record_script`].
pub fn record(scene: &SceneDesc, steps: usize, every: usize) -> Recording {
    match &scene.motion {
        Motion::Fall => record_fall(scene, steps, every),
        Motion::Walk(walkers) => record_script(scene, walkers, steps, every),
    }
}

/// The poses `walkers` give `scene`'s bodies (on its ground) after every
/// `every`-th step of [`RECORD_DT`] over `steps` steps, no physics: frame
/// `f` is the script at time `(f + 1) · every · RECORD_DT`. `every` of 0
/// is taken as 1.
pub fn record_script(
    scene: &SceneDesc,
    walkers: &Walkers,
    steps: usize,
    every: usize,
) -> Recording {
    let every = every.max(1);
    let frames = (1..=steps / every)
        .map(|f| {
            let t = f64::from(RECORD_DT) * (f * every) as f64;
            walkers.poses(t, &scene.ground)
        })
        .collect();
    Recording { frames }
}

/// Simulates `scene` with rapier3d for `steps` steps of [`RECORD_DT`] and
/// keeps the poses after every `every`-th step (`steps / every` frames;
/// `every` of 0 is taken as 1). Deterministic: same scene, same frames.
/// Panics if a body's shape cannot be built (a degenerate hull).
pub fn record_fall(scene: &SceneDesc, steps: usize, every: usize) -> Recording {
    let every = every.max(1);
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::new(0.0, 0.0, -9.81);
    world.integration_parameters.dt = RECORD_DT;
    world.insert_collider(ground_collider(&scene.ground), None);
    let handles: Vec<_> = scene
        .bodies
        .iter()
        .map(|b| {
            let body = RigidBodyBuilder::dynamic().pose(super::rapier_shapes::pose(&b.pose));
            world.insert(body, body_collider(&b.shape)).0
        })
        .collect();
    let mut frames = Vec::with_capacity(steps / every);
    for step in 1..=steps {
        world.step();
        if step % every == 0 {
            frames.push(
                handles
                    .iter()
                    .map(|h| {
                        let p = world.bodies[*h].position();
                        let (t, q) = (p.translation, p.rotation);
                        Pose {
                            t: [t.x, t.y, t.z],
                            q: [q.w, q.x, q.y, q.z],
                        }
                    })
                    .collect(),
            );
        }
    }
    Recording { frames }
}
