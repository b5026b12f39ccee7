//! The benchmark scenes, described once for both libraries: the bodies'
//! shapes (as plain numbers), their starting poses, and the ground.
//!
//! All scenes are z-up, meters, f32, and deterministic for a seed
//! (mink-testkit's SplitMix64 [`Rng`]). The capsule robots on a terrain
//! are built in [`super::robots`].

use super::robots::Walkers;
use super::terrain::Terrain;
use mink_support::{Quat, Vec3};
use mink_testkit::Rng;

/// A rigid pose: translation (meters) and a unit rotation quaternion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Translation, world frame, meters.
    pub t: [f32; 3],
    /// Rotation quaternion `[w, x, y, z]` (scalar first, as in files).
    pub q: [f32; 4],
}

impl Pose {
    /// The pose of translation `t` and rotation `q` (not validated).
    pub fn new(t: Vec3<f32>, q: Quat<f32>) -> Self {
        Self {
            t: [t.x, t.y, t.z],
            q: [q.w, q.x, q.y, q.z],
        }
    }
}

/// A body's shape, in its local frame, meters.
#[derive(Clone, Debug, PartialEq)]
pub enum BodyShape {
    /// The convex hull of these points (each library builds its own hull).
    Hull(Vec<[f32; 3]>),
    /// A box of these half extents.
    Cuboid([f32; 3]),
    /// A capsule along local z: `radius` and half the segment's length.
    Capsule {
        /// Radius, meters.
        radius: f32,
        /// Half the length of the core segment, meters.
        half_length: f32,
    },
}

/// One body of a scene.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDesc {
    /// Its shape, local frame.
    pub shape: BodyShape,
    /// Its starting pose (recordings replace it frame by frame).
    pub pose: Pose,
    /// The link (body) it belongs to: geometries on one link never collide.
    pub link: u32,
    /// The parent link in an articulation, if any: a geometry does not
    /// collide with its parent link's geometries.
    pub parent_link: Option<u32>,
}

/// What the bodies rest on. It never moves.
#[derive(Clone, Debug, PartialEq)]
pub enum Ground {
    /// The half-space `z <= 0`.
    Plane,
    /// A height-field terrain ([`Terrain`]: heights on a grid, world z up).
    HeightField(Terrain),
}

impl Ground {
    /// The height of the ground's surface at world `(x, y)`, meters: 0 for
    /// the plane, [`Terrain::height_at`] for a terrain.
    pub fn height_at(&self, x: f64, y: f64) -> f64 {
        match self {
            Ground::Plane => 0.0,
            Ground::HeightField(t) => t.height_at(x, y),
        }
    }
}

/// How a scene's bodies move in its recording ([`super::record::record`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Motion {
    /// They fall under rapier3d's physics from their starting poses.
    Fall,
    /// They follow a script (no physics): walking robots.
    Walk(Walkers),
}

/// A scene: bodies and a ground.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneDesc {
    /// Short name, used as the benchmark group's name.
    pub name: String,
    /// The moving bodies.
    pub bodies: Vec<BodyDesc>,
    /// The fixed ground.
    pub ground: Ground,
    /// How the bodies move.
    pub motion: Motion,
}

/// Radius of the sphere the pile's hull points are drawn on, meters (the
/// issue's radius 2, scaled by 1/4 so that default tolerances of both
/// libraries, tuned for meter-sized bodies, fit).
pub const HULL_RADIUS: f64 = 0.5;
/// Points per pile hull (all lie on the sphere, so all are vertices).
pub const HULL_POINTS: usize = 32;
/// Centre-to-centre spacing of the pile's grid, in hull radii: the
/// hulls start 10% of a diameter apart.
const PILE_SPACING: f64 = 2.2;

/// The convex pile: `nx × ny × nz` hulls of [`HULL_POINTS`] random points
/// on a sphere of radius [`HULL_RADIUS`], each with its own points and a
/// random orientation, stacked in a grid above the plane `z = 0` with a
/// small random horizontal offset per hull so the stacks topple.
pub fn convex_pile(nx: usize, ny: usize, nz: usize, seed: u64) -> SceneDesc {
    let mut rng = Rng::new(seed);
    let r = HULL_RADIUS;
    let step = PILE_SPACING * r;
    let mut bodies = Vec::with_capacity(nx * ny * nz);
    for k in 0..nz {
        for j in 0..ny {
            for i in 0..nx {
                let points = rng
                    .points_on_sphere::<f64>(HULL_POINTS, r)
                    .iter()
                    .map(|p| [p.x as f32, p.y as f32, p.z as f32])
                    .collect();
                let jitter = 0.1 * r;
                let t = Vec3::new(
                    (i as f64 - 0.5 * (nx as f64 - 1.0)) * step + rng.range_f64(-jitter, jitter),
                    (j as f64 - 0.5 * (ny as f64 - 1.0)) * step + rng.range_f64(-jitter, jitter),
                    r * 1.1 + k as f64 * step,
                );
                bodies.push(BodyDesc {
                    shape: BodyShape::Hull(points),
                    pose: Pose::new(t.cast(), rng.quat()),
                    link: bodies.len() as u32,
                    parent_link: None,
                });
            }
        }
    }
    SceneDesc {
        name: format!("pile_{}", nx * ny * nz),
        bodies,
        ground: Ground::Plane,
        motion: Motion::Fall,
    }
}

/// Boxes on a plane: `n` boxes with half extents uniform in
/// [0.2, 0.4] m, tilted at random by up to about 30°, in a square grid of
/// columns four boxes high (1 m apart), dropped onto `z = 0`.
pub fn boxes_on_plane(n: usize, seed: u64) -> SceneDesc {
    const LAYERS: usize = 4;
    let mut rng = Rng::new(seed);
    let side = ((n as f64 / LAYERS as f64).sqrt().ceil() as usize).max(1);
    let mut bodies = Vec::with_capacity(n);
    'fill: for k in 0..LAYERS.max(n.div_ceil(side * side)) {
        for j in 0..side {
            for i in 0..side {
                if bodies.len() == n {
                    break 'fill;
                }
                let h = [
                    rng.range_f64(0.2, 0.4) as f32,
                    rng.range_f64(0.2, 0.4) as f32,
                    rng.range_f64(0.2, 0.4) as f32,
                ];
                let t = Vec3::new(
                    (i as f64 - 0.5 * (side as f64 - 1.0)) * 1.0,
                    (j as f64 - 0.5 * (side as f64 - 1.0)) * 1.0,
                    0.5 + k as f64 * 1.0,
                );
                let q = Quat::from_axis_angle(rng.unit_vec::<f64>(), rng.range_f64(-0.5, 0.5));
                bodies.push(BodyDesc {
                    shape: BodyShape::Cuboid(h),
                    pose: Pose::new(t.cast(), q.cast()),
                    link: bodies.len() as u32,
                    parent_link: None,
                });
            }
        }
    }
    SceneDesc {
        name: format!("boxes_{n}"),
        bodies,
        ground: Ground::Plane,
        motion: Motion::Fall,
    }
}
