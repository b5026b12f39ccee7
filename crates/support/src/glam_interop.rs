//! Lossless conversions between mink's math types and glam's (feature `glam`).
//!
//! `Vec3<f32>` ↔ `glam::Vec3` and `glam::Vec3A`, `Vec3<f64>` ↔ `glam::DVec3`,
//! `Quat<f32>` ↔ `glam::Quat`, `Quat<f64>` ↔ `glam::DQuat`, `Mat3<f32>` ↔
//! `glam::Mat3`, `Mat3<f64>` ↔ `glam::DMat3`, and `Iso3<f32>` → `glam::Affine3A`,
//! `Iso3<f64>` → `glam::DAffine3`. The reverse affine conversions are
//! `TryFrom`, since an affine map may scale or shear: they succeed only when
//! the linear part is a rotation within [`AFFINE_ROTATION_TOLERANCE_EPS`]
//! epsilons per entry, and copy it exactly.

use crate::{Iso3, Mat3, Quat, Vec3};

/// How far (in multiples of the scalar's epsilon, per entry of `MᵀM − I`
/// and of `det M − 1`) an affine map's linear part may be from a rotation
/// for `TryFrom<Affine3A>`/`TryFrom<DAffine3>` to accept it.
pub const AFFINE_ROTATION_TOLERANCE_EPS: f64 = 64.0;

/// An affine map was refused as a rigid pose: its linear part is not a
/// rotation (it scales, shears or reflects) or is not finite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotRigidError;

impl core::fmt::Display for NotRigidError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("affine map is not a rigid motion (rotation + translation)")
    }
}

#[cfg(feature = "std")]
impl std::error::Error for NotRigidError {}

macro_rules! interop {
    ($r:ty, $gv:ty, $gq:ty, $gm:ty, $ga:ty) => {
        impl From<Vec3<$r>> for $gv {
            #[inline]
            fn from(v: Vec3<$r>) -> Self {
                <$gv>::new(v.x, v.y, v.z)
            }
        }
        impl From<$gv> for Vec3<$r> {
            #[inline]
            fn from(v: $gv) -> Self {
                Vec3::new(v.x, v.y, v.z)
            }
        }
        impl From<Quat<$r>> for $gq {
            #[inline]
            fn from(q: Quat<$r>) -> Self {
                <$gq>::from_xyzw(q.x, q.y, q.z, q.w)
            }
        }
        impl From<$gq> for Quat<$r> {
            #[inline]
            fn from(q: $gq) -> Self {
                Quat::from_wxyz(q.w, q.x, q.y, q.z)
            }
        }
        impl From<Mat3<$r>> for $gm {
            #[inline]
            fn from(m: Mat3<$r>) -> Self {
                <$gm>::from_cols(m.x_axis.into(), m.y_axis.into(), m.z_axis.into())
            }
        }
        impl From<$gm> for Mat3<$r> {
            #[inline]
            fn from(m: $gm) -> Self {
                Mat3::from_cols(m.x_axis.into(), m.y_axis.into(), m.z_axis.into())
            }
        }
        impl From<Iso3<$r>> for $ga {
            #[inline]
            fn from(p: Iso3<$r>) -> Self {
                let m: $gm = p.rotation.into();
                <$ga>::from_mat3_translation(m.into(), p.translation.into())
            }
        }
        impl TryFrom<$ga> for Iso3<$r> {
            type Error = NotRigidError;
            fn try_from(a: $ga) -> Result<Self, NotRigidError> {
                let m: $gm = a.matrix3.into();
                let rotation: Mat3<$r> = m.into();
                let translation: Vec3<$r> = a.translation.into();
                if !rotation.is_finite() || !translation.is_finite() {
                    return Err(NotRigidError);
                }
                let tol = <$r>::EPSILON * (AFFINE_ROTATION_TOLERANCE_EPS as $r);
                let mtm = rotation.transpose_mul_mat(&rotation);
                for i in 0..3 {
                    let col = mtm.col(i);
                    for j in 0..3 {
                        let expected = if i == j { 1.0 } else { 0.0 };
                        if (col.get(j) - expected).abs() > tol {
                            return Err(NotRigidError);
                        }
                    }
                }
                if (rotation.determinant() - 1.0).abs() > tol {
                    return Err(NotRigidError);
                }
                Ok(Iso3::from_parts(rotation, translation))
            }
        }
    };
}

interop!(f32, glam::Vec3, glam::Quat, glam::Mat3, glam::Affine3A);
interop!(f64, glam::DVec3, glam::DQuat, glam::DMat3, glam::DAffine3);

impl From<Vec3<f32>> for glam::Vec3A {
    #[inline]
    fn from(v: Vec3<f32>) -> Self {
        glam::Vec3A::new(v.x, v.y, v.z)
    }
}
impl From<glam::Vec3A> for Vec3<f32> {
    #[inline]
    fn from(v: glam::Vec3A) -> Self {
        Vec3::new(v.x, v.y, v.z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_round_trip_exactly() {
        let v = Vec3::new(1.5_f32, -2.25, 1e-30);
        assert_eq!(Vec3::from(glam::Vec3::from(v)), v);
        assert_eq!(Vec3::from(glam::Vec3A::from(v)), v);
        let d = Vec3::new(1.5_f64, -2.25, 1e-300);
        assert_eq!(Vec3::from(glam::DVec3::from(d)), d);
    }

    #[test]
    fn quaternion_and_matrix_agree_with_glam() {
        let q = Quat::from_wxyz(0.5_f64, 0.5, -0.5, 0.5);
        let gq: glam::DQuat = q.into();
        assert_eq!(Quat::from(gq), q);
        let m: glam::DMat3 = q.to_mat3().into();
        let gm = glam::DMat3::from_quat(gq);
        for (a, b) in m.to_cols_array().iter().zip(gm.to_cols_array().iter()) {
            assert!((a - b).abs() < 1e-15);
        }
        let v = glam::DVec3::new(0.3, -1.0, 2.0);
        let ours = q.to_mat3().mul_vec(v.into());
        let theirs = gq * v;
        assert!((glam::DVec3::from(ours) - theirs).length() < 1e-14);
    }

    #[test]
    fn rigid_affine_round_trips_and_scaled_is_refused() {
        let q = Quat::from_axis_angle(Vec3::new(0.0_f32, 0.6, 0.8), 0.7);
        let pose = Iso3::from_quat(Vec3::new(1.0, 2.0, 3.0), q).unwrap();
        let a: glam::Affine3A = pose.into();
        assert_eq!(Iso3::try_from(a).unwrap(), pose);
        let scaled = glam::Affine3A::from_scale(glam::Vec3::splat(2.0));
        assert_eq!(Iso3::<f32>::try_from(scaled), Err(NotRigidError));
        let mirrored = glam::DAffine3::from_scale(glam::DVec3::new(-1.0, 1.0, 1.0));
        assert_eq!(Iso3::<f64>::try_from(mirrored), Err(NotRigidError));
    }
}
