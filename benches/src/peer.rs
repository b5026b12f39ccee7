//! Conversions from mink's types to parry3d's (f32), for the benchmarks that
//! run both libraries on the same shapes and poses.

use mink_support::{Iso3, Mat3, Vec3};
use parry3d::math::{Pose, Vec3 as PVec3};

/// parry's vector for a mink vector.
pub fn pv(v: Vec3<f32>) -> PVec3 {
    PVec3::new(v.x, v.y, v.z)
}

/// parry's pose for a mink pose, with `fix` applied first in the local
/// frame (parry's cylinders and cones run along y, mink's along z).
pub fn ppose(p: &Iso3<f32>, fix: &Mat3<f32>) -> Pose {
    let q = Iso3::from_parts(p.rotation.mul_mat(fix), p.translation).quat();
    let rot = parry3d::glamx::Rot3::from_xyzw(q.x, q.y, q.z, q.w).normalize();
    Pose::from_parts(pv(p.translation), rot)
}

/// The frame fix for parry's y-axis cylinders and cones: +90° about x.
pub fn y_to_z() -> Mat3<f32> {
    Mat3::from_axis_angle(Vec3::X, core::f32::consts::FRAC_PI_2)
}
