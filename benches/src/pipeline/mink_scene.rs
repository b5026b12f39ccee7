//! mink's side of a replay through its scene step ([`mink::scene`]): world
//! AABBs, broad phase, narrow phase ([`mink::collide`] per pair), contacts
//! and islands, in one call. Link 0 is the ground (fixed); body `i` of the
//! scene is on link `link + 1`, a free body (6 dofs) or a child of its
//! parent link.

use super::mink_direct::iso;
use super::mink_shapes::MinkShapes;
use super::scenes::Pose;
use super::ContactCount;
use mink::islands::{Link, Params};
use mink::scene::{GeomDesc, SceneBuf, SceneConfig, SceneDesc, SceneInput};
use mink_support::Iso3;

/// Dofs per body link.
const DOFS: usize = 6;

/// The description's storage: geometries, links and dof lengths.
pub struct MinkSceneData<'a> {
    geoms: Vec<GeomDesc<'a, f32>>,
    links: Vec<Link>,
    dof_length: Vec<f32>,
}

impl<'a> MinkSceneData<'a> {
    /// One geometry per body on its own link plus the ground on link 0 (at
    /// [`MinkShapes::ground_pose`]), each with half of `margin` (meters): a
    /// pair gets contacts within `margin`. Rotational dof lengths are 0.5 m
    /// (the bodies' size).
    pub fn new(shapes: &'a MinkShapes, margin: f32) -> Self {
        let colliders = shapes.colliders();
        let n = shapes.body_count();
        let link_count = (0..n).map(|i| shapes.link(i) + 1).max().unwrap_or(0) as usize + 1;
        let mut links = vec![Link::world(); link_count];
        for i in 0..n {
            let l = shapes.link(i) as usize + 1;
            let start = (DOFS * (l - 1)) as u32;
            links[l] = match shapes.parent_link(i) {
                Some(p) => Link::child(p + 1, start, DOFS as u32),
                None => Link::free(start, DOFS as u32),
            };
        }
        let dof_length = (0..link_count - 1)
            .flat_map(|_| [1.0, 1.0, 1.0, 0.5, 0.5, 0.5])
            .collect();
        let half = margin * 0.5;
        let mut geoms: Vec<GeomDesc<'a, f32>> = colliders[..n]
            .iter()
            .enumerate()
            .map(|(i, c)| GeomDesc::new(*c, shapes.link(i) + 1).with_margin(half))
            .collect();
        geoms.push(
            GeomDesc::new(colliders[n], 0)
                .with_pose(shapes.ground_pose())
                .with_margin(half),
        );
        Self {
            geoms,
            links,
            dof_length,
        }
    }
}

/// A scene in mink's scene step.
pub struct MinkScene<'d> {
    scene: SceneBuf<'d, f32>,
    link_poses: Vec<Iso3<f32>>,
    dof_vel: Vec<f32>,
}

impl<'d> MinkScene<'d> {
    /// The scene of `data`, hibernation off (every step detects every
    /// pair, as a scene that is never still). Panics if mink refuses the
    /// description (the benchmark scenes are valid).
    pub fn new(data: &'d MinkSceneData<'d>) -> Self {
        let desc =
            SceneDesc::new(&data.geoms, &data.links, &data.dof_length, &[]).expect("a valid scene");
        let mut config = SceneConfig::new();
        config.hibernation = Params::no_hibernation();
        Self {
            scene: SceneBuf::new(desc, config).expect("a valid scene"),
            link_poses: vec![Iso3::IDENTITY; data.links.len()],
            dof_vel: vec![0.0; data.dof_length.len()],
        }
    }

    /// Moves body `i` (link `i + 1` in the scenes here) to `poses[i]`.
    pub fn set_poses(&mut self, poses: &[Pose]) {
        for (dst, p) in self.link_poses[1..].iter_mut().zip(poses) {
            *dst = iso(p);
        }
    }

    /// One step on the calling thread. Panics if the step fails (it has
    /// no budget or capacity to run out of).
    pub fn step(&mut self) {
        self.scene
            .step(&SceneInput::new(&self.link_poses, &self.dof_vel))
            .expect("a scene step");
    }

    /// One step with the narrow phase split across the current rayon pool.
    pub fn par_step(&mut self) {
        self.scene
            .par_step(&SceneInput::new(&self.link_poses, &self.dof_vel))
            .expect("a scene step");
    }

    /// The contacts of the last step.
    pub fn contacts(&self) -> ContactCount {
        let r = self.scene.report();
        ContactCount {
            pairs: r.pairs_in_contact,
            points: r.contacts,
        }
    }

    /// The geometry pairs of the last step with at least one contact, as
    /// `(a, b)` with `a < b`, sorted: geometry `i` is body `i`, the ground
    /// is geometry [`MinkShapes::body_count`].
    pub fn touching_pairs(&self) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = self
            .scene
            .contacts()
            .iter()
            .map(|c| {
                let (a, b) = (c.geom_a as usize, c.geom_b as usize);
                (a.min(b), a.max(b))
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Candidate pairs of the last step.
    pub fn candidate_pairs(&self) -> usize {
        self.scene.report().broadphase_pairs
    }
}
