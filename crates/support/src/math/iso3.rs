//! A rigid transform (rotation and translation).

use super::{Mat3, Quat, QuatError, Vec3};
use crate::Real;

/// A rigid pose: `p_parent = rotation * p_local + translation`.
///
/// The rotation is kept as a matrix, since every support query rotates a
/// direction into a shape's frame and back, and a matrix does that in nine
/// multiplications. Build one from a quaternion with [`Iso3::from_quat`],
/// which validates it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct Iso3<R> {
    /// Rotation from the local frame to the parent frame (orthonormal).
    pub rotation: Mat3<R>,
    /// Position of the local origin in the parent frame, meters.
    pub translation: Vec3<R>,
}

impl<R: Real> Default for Iso3<R> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<R: Real> Iso3<R> {
    /// The identity pose.
    pub const IDENTITY: Self = Self {
        rotation: Mat3::IDENTITY,
        translation: Vec3::ZERO,
    };

    /// A pure translation.
    #[inline]
    pub const fn from_translation(translation: Vec3<R>) -> Self {
        Self {
            rotation: Mat3::IDENTITY,
            translation,
        }
    }

    /// A pose from an orthonormal rotation matrix and a translation. The
    /// matrix is trusted; use [`Iso3::from_quat`] for validated input.
    #[inline]
    pub const fn from_parts(rotation: Mat3<R>, translation: Vec3<R>) -> Self {
        Self {
            rotation,
            translation,
        }
    }

    /// A pose from a translation and a rotation quaternion, which must be
    /// finite and of unit length within [`Quat::UNIT_TOLERANCE_ULPS`]; a
    /// non-finite translation is refused as [`QuatError::NonFinite`].
    pub fn from_quat(translation: Vec3<R>, rotation: Quat<R>) -> Result<Self, QuatError> {
        if !translation.is_finite() {
            return Err(QuatError::NonFinite);
        }
        let q = rotation.try_unit()?;
        Ok(Self::from_parts(q.to_mat3(), translation))
    }

    /// The rotation as a unit quaternion.
    pub fn quat(&self) -> Quat<R> {
        Quat::from_mat3(&self.rotation)
    }

    /// Maps a point from the local frame to the parent frame.
    #[inline(always)]
    pub fn transform_point(&self, p: Vec3<R>) -> Vec3<R> {
        self.rotation.mul_vec(p) + self.translation
    }

    /// Rotates a vector from the local frame to the parent frame.
    #[inline(always)]
    pub fn transform_vector(&self, v: Vec3<R>) -> Vec3<R> {
        self.rotation.mul_vec(v)
    }

    /// Maps a point from the parent frame into the local frame.
    #[inline(always)]
    pub fn inverse_transform_point(&self, p: Vec3<R>) -> Vec3<R> {
        self.rotation.transpose_mul(p - self.translation)
    }

    /// Rotates a vector from the parent frame into the local frame.
    #[inline(always)]
    pub fn inverse_transform_vector(&self, v: Vec3<R>) -> Vec3<R> {
        self.rotation.transpose_mul(v)
    }

    /// The inverse pose.
    #[inline]
    pub fn inverse(&self) -> Self {
        let rt = self.rotation.transpose();
        Self::from_parts(rt, -rt.mul_vec(self.translation))
    }

    /// Composition `self * o`: first `o`, then `self`.
    #[inline]
    pub fn mul(&self, o: &Self) -> Self {
        Self::from_parts(
            self.rotation.mul_mat(&o.rotation),
            self.transform_point(o.translation),
        )
    }

    /// `self⁻¹ * o`: the pose of `o` in the frame of `self` (the `pose_ab` of
    /// a pair, with `self` the pose of A and `o` the pose of B).
    #[inline]
    pub fn inv_mul(&self, o: &Self) -> Self {
        Self::from_parts(
            self.rotation.transpose_mul_mat(&o.rotation),
            self.inverse_transform_point(o.translation),
        )
    }

    /// `true` when rotation and translation are finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.rotation.finite_probe() + self.translation.finite_probe() == R::ZERO
    }

    /// `true` when this is exactly the identity pose.
    #[inline]
    pub fn is_identity(&self) -> bool {
        *self == Self::IDENTITY
    }

    /// Converts to another scalar.
    #[inline]
    pub fn cast<S: Real>(&self) -> Iso3<S> {
        Iso3::from_parts(self.rotation.cast(), self.translation.cast())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The branch-free checks against `f64::is_finite` entry by entry, for
    /// every special value in every slot.
    #[test]
    fn finiteness_matches_every_entry() {
        let specials = [
            0.0,
            -0.0,
            1.5,
            -f64::MAX,
            f64::MAX,
            f64::MIN_POSITIVE / 4.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for slot in 0..12 {
            for &x in &specials {
                let mut e = [0.25_f64; 12];
                e[slot] = x;
                let col = |i: usize| Vec3::new(e[i], e[i + 1], e[i + 2]);
                let pose = Iso3::from_parts(Mat3::from_cols(col(0), col(3), col(6)), col(9));
                let expected = x.is_finite();
                assert_eq!(pose.is_finite(), expected, "slot {slot}, {x}");
                assert_eq!(pose.rotation.is_finite(), expected || slot >= 9);
                assert_eq!(col(slot / 3 * 3).is_finite(), expected);
            }
        }
        // Finite entries whose sum would overflow are still finite.
        let big = Vec3::splat(f64::MAX);
        assert!(Iso3::from_parts(Mat3::from_cols(big, big, big), big).is_finite());
        assert!(Vec3::splat(f32::MAX).is_finite());
    }
}
