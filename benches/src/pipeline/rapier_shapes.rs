//! The scenes' shapes and poses as rapier3d colliders.

use super::scenes::{BodyShape, Ground, Pose};
use super::terrain::Terrain;
use rapier3d::parry::utils::Array2;
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

/// A collider builder for the ground, world frame: a half-space, or the
/// terrain's height field placed so that its surface is
/// [`Terrain::height_at`]'s (see [`terrain_collider`]).
pub fn ground_collider(ground: &Ground) -> ColliderBuilder {
    match ground {
        Ground::Plane => ColliderBuilder::new(SharedShape::halfspace(Vector::Z)),
        Ground::HeightField(t) => terrain_collider(t),
    }
}

/// rapier's height field of `t`, posed in the z-up world.
///
/// parry's height field is y-up and centred: entry `(r, c)` of its
/// (rows × columns) grid is the local point
/// `((c / cols - 0.5) sx, h sy, (r / rows - 0.5) sz)` for the scale
/// `(sx, sy, sz)` (cols and rows counting cells), and it splits cell
/// `(r, c)` along the diagonal from entry `(r + 1, c)` to `(r, c + 1)`.
/// A rotation of +90° about x sends local y to world z and local z to
/// world -y, so row `r` is the terrain's sample row `ny - 1 - r`, column
/// `c` its column `c`, and the scale is the grid's extent (heights
/// unscaled); that diagonal is then the terrain's, from sample `(i, j)` to
/// `(i + 1, j + 1)`. The translation puts the grid's centre over the
/// terrain's. The terrain module's tests cast rays down on it.
pub fn terrain_collider(t: &Terrain) -> ColliderBuilder {
    let heights = Array2::from_fn(t.ny, t.nx, |r, c| t.heights[(t.ny - 1 - r) * t.nx + c]);
    let (sx, sy) = t.extent();
    let [cx, cy] = t.centre();
    let rotation = Rotation::from_axis_angle(Vector::X, std::f32::consts::FRAC_PI_2);
    ColliderBuilder::heightfield(heights, Vector::new(sx, 1.0, sy)).position(
        rapier3d::math::Pose::from_parts(Vector::new(cx, cy, 0.0), rotation),
    )
}
