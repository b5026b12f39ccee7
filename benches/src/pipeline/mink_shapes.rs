//! The scenes' shapes as mink colliders. Hulls are built once and owned
//! here, as is a terrain's grid of heights; the colliders borrow them.

use super::scenes::{BodyShape, Ground, Pose, SceneDesc};
use super::terrain::TERRAIN_THICKNESS;
use mink::{Collider, Shape};
use mink_support::{Capsule, ConvexHull, Cuboid, HalfSpace, HeightField, Iso3, Vec3};

/// The owned data behind a scene's mink colliders.
pub struct MinkShapes {
    shapes: Vec<BodyShape>,
    hulls: Vec<Option<ConvexHull<f32>>>,
    links: Vec<(u32, Option<u32>)>,
    start: Vec<Pose>,
    ground: Ground,
}

impl MinkShapes {
    /// Builds the hulls of `scene`. Panics on a shape mink refuses (the
    /// scenes never make one).
    pub fn new(scene: &SceneDesc) -> Self {
        let hulls = scene
            .bodies
            .iter()
            .map(|b| match &b.shape {
                BodyShape::Hull(points) => {
                    let pts: Vec<Vec3<f32>> = points.iter().map(|p| Vec3::from_array(*p)).collect();
                    Some(ConvexHull::from_points(&pts).expect("a non-degenerate hull"))
                }
                _ => None,
            })
            .collect();
        Self {
            shapes: scene.bodies.iter().map(|b| b.shape.clone()).collect(),
            hulls,
            links: scene
                .bodies
                .iter()
                .map(|b| (b.link, b.parent_link))
                .collect(),
            start: scene.bodies.iter().map(|b| b.pose).collect(),
            ground: scene.ground.clone(),
        }
    }

    /// Number of bodies (the ground not counted).
    pub fn body_count(&self) -> usize {
        self.shapes.len()
    }

    /// Body `i`'s link.
    pub fn link(&self, i: usize) -> u32 {
        self.links[i].0
    }

    /// Body `i`'s parent link, if any.
    pub fn parent_link(&self, i: usize) -> Option<u32> {
        self.links[i].1
    }

    /// The bodies' starting poses.
    pub fn start_poses(&self) -> &[Pose] {
        &self.start
    }

    /// Where the ground's collider sits in the world (its shape frame to
    /// world): the identity for the plane; for a terrain, the translation
    /// to its first sample (mink's height field starts at its local origin).
    pub fn ground_pose(&self) -> Iso3<f32> {
        match &self.ground {
            Ground::Plane => Iso3::IDENTITY,
            Ground::HeightField(t) => {
                Iso3::from_translation(Vec3::new(t.origin[0], t.origin[1], 0.0))
            }
        }
    }

    /// One collider per body (scene order), then the ground's (at
    /// [`Self::ground_pose`]). Panics on a shape mink refuses.
    pub fn colliders(&self) -> Vec<Collider<'_, f32>> {
        let mut out: Vec<Collider<'_, f32>> = self
            .shapes
            .iter()
            .zip(&self.hulls)
            .map(|(s, h)| {
                let shape: Shape<'_, f32> = match (s, h) {
                    (_, Some(hull)) => Shape::Hull(hull.view()),
                    (BodyShape::Cuboid(e), _) => {
                        Cuboid::new(Vec3::from_array(*e)).expect("valid box").into()
                    }
                    (
                        BodyShape::Capsule {
                            radius,
                            half_length,
                        },
                        _,
                    ) => Capsule::new(*radius, *half_length)
                        .expect("valid capsule")
                        .into(),
                    (BodyShape::Hull(_), None) => unreachable!("hulls are built in new"),
                };
                shape.into()
            })
            .collect();
        out.push(match &self.ground {
            Ground::Plane => Collider::Convex(Shape::HalfSpace(
                HalfSpace::new(Vec3::Z, 0.0).expect("valid plane"),
            )),
            Ground::HeightField(t) => Collider::HeightField(
                HeightField::new(&t.heights, t.nx, t.ny, t.dx, t.dy, TERRAIN_THICKNESS)
                    .expect("a valid terrain"),
            ),
        });
        out
    }
}
