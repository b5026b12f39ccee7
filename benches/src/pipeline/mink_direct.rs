//! mink's collision step assembled from its parts, to time each phase on
//! its own: world AABBs from the colliders, the mink-broadphase sweep, and
//! [`mink::collide`] on every candidate pair (no islands).

use super::mink_shapes::MinkShapes;
use super::scenes::Pose;
use super::ContactCount;
use mink::{collide, Collider, ContactParams, Manifold};
use mink_broadphase::{BroadPhase, CandidatePair, Filters, Geom, NO_LINK};
use mink_support::{Iso3, Quat, Vec3};
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// Time spent in each phase of a step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseTimes {
    /// World AABBs of every collider.
    pub aabbs: Duration,
    /// The broad phase (candidate pairs).
    pub broad: Duration,
    /// The narrow phase (a contact manifold per candidate pair).
    pub narrow: Duration,
}

impl PhaseTimes {
    /// Adds `o` to `self`, phase by phase.
    pub fn add(&mut self, o: &PhaseTimes) {
        self.aabbs += o.aabbs;
        self.broad += o.broad;
        self.narrow += o.narrow;
    }
}

/// A scene in mink, stepped phase by phase. Geometry `i < n` is body `i`;
/// the ground is geometry `n`, fixed.
pub struct MinkDirect<'a> {
    colliders: Vec<Collider<'a, f32>>,
    poses: Vec<Iso3<f32>>,
    geoms: Vec<Geom<f32>>,
    broad: BroadPhase<f32>,
    pairs: Vec<CandidatePair>,
    manifolds: Vec<Manifold<f32>>,
    params: ContactParams<f32>,
}

/// Converts a recorded pose; a quaternion too far from unit length (never
/// in a recording) falls back to the identity rotation.
pub fn iso(p: &Pose) -> Iso3<f32> {
    let [w, x, y, z] = p.q;
    let t = Vec3::new(p.t[0], p.t[1], p.t[2]);
    Iso3::from_quat(t, Quat::from_wxyz(w, x, y, z)).unwrap_or(Iso3::from_translation(t))
}

impl<'a> MinkDirect<'a> {
    /// The scene of `shapes` at its starting poses. `margin` (meters,
    /// `>= 0`) is the pair's speculative contact distance: AABBs are
    /// inflated by half of it each and pairs within it give contacts.
    pub fn new(shapes: &'a MinkShapes, margin: f32) -> Self {
        let colliders = shapes.colliders();
        let n = shapes.body_count();
        let mut poses: Vec<Iso3<f32>> = shapes.start_poses().iter().map(iso).collect();
        poses.push(shapes.ground_pose());
        let geoms = (0..=n)
            .map(|i| {
                let mut g = Geom::new(colliders[i].world_aabb(&poses[i]), i as u32);
                if i == n {
                    g.fixed = true;
                } else {
                    g.link = shapes.link(i);
                    g.parent_link = shapes.parent_link(i).unwrap_or(NO_LINK);
                }
                g
            })
            .collect();
        Self {
            colliders,
            poses,
            geoms,
            broad: BroadPhase::new(),
            pairs: Vec::new(),
            manifolds: Vec::new(),
            params: ContactParams::new().with_margin(margin),
        }
    }

    /// Moves body `i` to `poses[i]`.
    pub fn set_poses(&mut self, poses: &[Pose]) {
        for (dst, p) in self.poses.iter_mut().zip(poses) {
            *dst = iso(p);
        }
    }

    /// One step on the calling thread, with the time of each phase.
    pub fn step_timed(&mut self) -> PhaseTimes {
        let t0 = Instant::now();
        let half = self.params.margin * 0.5;
        let n = self.colliders.len() - 1;
        for ((g, c), p) in self.geoms[..n]
            .iter_mut()
            .zip(&self.colliders)
            .zip(&self.poses)
        {
            g.aabb = c.world_aabb(p).inflated(half);
        }
        let t1 = Instant::now();
        // Only the pair budget can fail, and there is none.
        let _ = self
            .broad
            .update(&self.geoms, &Filters::ALL, &mut self.pairs);
        let t2 = Instant::now();
        self.manifolds.clear();
        let (colliders, poses, params) = (&self.colliders, &self.poses, &self.params);
        self.manifolds.extend(
            self.pairs
                .iter()
                .map(|p| pair_manifold(colliders, poses, params, p)),
        );
        let t3 = Instant::now();
        PhaseTimes {
            aabbs: t1 - t0,
            broad: t2 - t1,
            narrow: t3 - t2,
        }
    }

    /// One step on the calling thread.
    pub fn step(&mut self) {
        self.step_timed();
    }

    /// One step with every phase split across the current rayon pool:
    /// the same contacts as [`Self::step`].
    pub fn par_step(&mut self) {
        let half = self.params.margin * 0.5;
        let n = self.colliders.len() - 1;
        let (colliders, poses) = (&self.colliders, &self.poses);
        self.geoms[..n]
            .par_iter_mut()
            .enumerate()
            .for_each(|(i, g)| g.aabb = colliders[i].world_aabb(&poses[i]).inflated(half));
        let _ = self
            .broad
            .par_update(&self.geoms, &Filters::ALL, &mut self.pairs);
        let params = &self.params;
        self.pairs
            .par_iter()
            .map(|p| pair_manifold(colliders, poses, params, p))
            .collect_into_vec(&mut self.manifolds);
    }

    /// The contacts of the last step.
    pub fn contacts(&self) -> ContactCount {
        let mut count = ContactCount::default();
        for m in &self.manifolds {
            if !m.is_empty() {
                count.pairs += 1;
                count.points += m.len();
            }
        }
        count
    }

    /// Candidate pairs of the last step.
    pub fn candidate_pairs(&self) -> usize {
        self.pairs.len()
    }
}

/// The manifold of candidate pair `p`.
#[inline]
fn pair_manifold(
    colliders: &[Collider<'_, f32>],
    poses: &[Iso3<f32>],
    params: &ContactParams<f32>,
    p: &CandidatePair,
) -> Manifold<f32> {
    let (a, b) = (p.a as usize, p.b as usize);
    let mut m = Manifold::new();
    collide(
        &colliders[a],
        &poses[a],
        &colliders[b],
        &poses[b],
        params,
        mink::contact::MAX_MANIFOLD_POINTS,
        |c| {
            m.push(c);
        },
    );
    m
}
