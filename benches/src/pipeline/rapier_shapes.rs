//! The scenes' shapes and poses as rapier3d colliders.

use super::scenes::{BodyShape, Ground, Pose};
use rapier3d::prelude::{ColliderBuilder, Rotation, SharedShape, Vector};

/// `pose` as rapier's pose type (the quaternion renormalized).
pub fn pose(pose: &Pose) -> rapier3d::math::Pose {
    let [w, x, y, z] = pose.q;
    let [tx, ty, tz] = pose.t;
    rapier3d::math::Pose::from_parts(
        Vector::new(tx, ty, tz),
        Rotation::from_xyzw(x, y, z, w).normalize(),
    )
}

/// A collider builder for `shape` (local frame). Panics on a hull rapier
/// cannot build (the scenes' hulls are never degenerate).
pub fn body_collider(shape: &BodyShape) -> ColliderBuilder {
    match shape {
        BodyShape::Hull(points) => {
            let pts: Vec<Vector> = points
                .iter()
                .map(|p| Vector::new(p[0], p[1], p[2]))
                .collect();
            ColliderBuilder::convex_hull(&pts).expect("a non-degenerate hull")
        }
        BodyShape::Cuboid(h) => ColliderBuilder::cuboid(h[0], h[1], h[2]),
        BodyShape::Capsule {
            radius,
            half_length,
        } => ColliderBuilder::capsule_z(*half_length, *radius),
    }
}

/// A collider builder for the ground, world frame.
pub fn ground_collider(ground: &Ground) -> ColliderBuilder {
    match ground {
        Ground::Plane => ColliderBuilder::new(SharedShape::halfspace(Vector::Z)),
    }
}
