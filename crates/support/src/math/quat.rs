//! A rotation quaternion.

use super::{Mat3, Vec3};
use crate::Real;

/// A quaternion `w + xi + yj + zk`; mink uses unit quaternions as rotations.
///
/// Stored `x, y, z, w` in memory (as glam); written `[w, x, y, z]` in files
/// (see the query format).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Quat<R> {
    /// i component.
    pub x: R,
    /// j component.
    pub y: R,
    /// k component.
    pub z: R,
    /// Scalar component.
    pub w: R,
}

/// Why a quaternion was refused as a rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum QuatError {
    /// A component is NaN or infinite.
    NonFinite,
    /// The norm differs from 1 by more than the tolerance of
    /// [`Quat::UNIT_TOLERANCE_ULPS`] relative epsilons.
    NotUnit,
}

impl core::fmt::Display for QuatError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            QuatError::NonFinite => f.write_str("quaternion has a non-finite component"),
            QuatError::NotUnit => f.write_str("quaternion is not of unit length"),
        }
    }
}

impl<R: Real> Default for Quat<R> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<R: Real> Quat<R> {
    /// The identity rotation.
    pub const IDENTITY: Self = Self {
        x: R::ZERO,
        y: R::ZERO,
        z: R::ZERO,
        w: R::ONE,
    };

    /// How far from 1 a quaternion's norm may be, in multiples of the
    /// scalar's epsilon times 1000 (≈1.2e-4 in f32, ≈2.2e-13 in f64), before
    /// [`Quat::try_unit`] refuses it. Within the tolerance it is renormalized.
    pub const UNIT_TOLERANCE_ULPS: f64 = 1000.0;

    /// A quaternion from its components, scalar first (the file order).
    #[inline(always)]
    pub const fn from_wxyz(w: R, x: R, y: R, z: R) -> Self {
        Self { x, y, z, w }
    }

    /// Validates a rotation: finite, unit length within the tolerance of
    /// [`Quat::UNIT_TOLERANCE_ULPS`], and renormalized.
    pub fn try_unit(self) -> Result<Self, QuatError> {
        if !(self.x.finite() && self.y.finite() && self.z.finite() && self.w.finite()) {
            return Err(QuatError::NonFinite);
        }
        let n2 = self.x * self.x + self.y * self.y + self.z * self.z + self.w * self.w;
        let tol = R::EPSILON * R::lit(Self::UNIT_TOLERANCE_ULPS);
        if (n2 - R::ONE).abs() > R::TWO * tol {
            return Err(QuatError::NotUnit);
        }
        let inv = R::ONE / n2.sqrt();
        Ok(Self::from_wxyz(
            self.w * inv,
            self.x * inv,
            self.y * inv,
            self.z * inv,
        ))
    }

    /// Normalizes any nonzero finite quaternion; `None` for zero or
    /// non-finite input.
    pub fn normalize(self) -> Option<Self> {
        let n = (self.x * self.x + self.y * self.y + self.z * self.z + self.w * self.w).sqrt();
        if n > R::EPSILON && n.finite() {
            let inv = R::ONE / n;
            Some(Self::from_wxyz(
                self.w * inv,
                self.x * inv,
                self.y * inv,
                self.z * inv,
            ))
        } else {
            None
        }
    }

    /// The rotation of `angle` radians about the unit `axis`.
    pub fn from_axis_angle(axis: Vec3<R>, angle: R) -> Self {
        let (s, c) = (angle * R::HALF).sin_cos();
        Self::from_wxyz(c, axis.x * s, axis.y * s, axis.z * s)
    }

    /// The rotation matrix of this (unit) quaternion.
    pub fn to_mat3(self) -> Mat3<R> {
        let (x, y, z, w) = (self.x, self.y, self.z, self.w);
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (xx, yy, zz) = (x * x2, y * y2, z * z2);
        let (xy, xz, yz) = (x * y2, x * z2, y * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        Mat3::from_cols(
            Vec3::new(R::ONE - (yy + zz), xy + wz, xz - wy),
            Vec3::new(xy - wz, R::ONE - (xx + zz), yz + wx),
            Vec3::new(xz + wy, yz - wx, R::ONE - (xx + yy)),
        )
    }

    /// The unit quaternion of a rotation matrix (Shepperd's method, stable
    /// for every rotation).
    pub fn from_mat3(m: &Mat3<R>) -> Self {
        let (m00, m11, m22) = (m.x_axis.x, m.y_axis.y, m.z_axis.z);
        let trace = m00 + m11 + m22;
        let quarter = R::HALF * R::HALF;
        let q = if trace > R::ZERO {
            let s = (trace + R::ONE).sqrt() * R::TWO;
            Self::from_wxyz(
                quarter * s,
                (m.y_axis.z - m.z_axis.y) / s,
                (m.z_axis.x - m.x_axis.z) / s,
                (m.x_axis.y - m.y_axis.x) / s,
            )
        } else if m00 > m11 && m00 > m22 {
            let s = (R::ONE + m00 - m11 - m22).sqrt() * R::TWO;
            Self::from_wxyz(
                (m.y_axis.z - m.z_axis.y) / s,
                quarter * s,
                (m.y_axis.x + m.x_axis.y) / s,
                (m.z_axis.x + m.x_axis.z) / s,
            )
        } else if m11 > m22 {
            let s = (R::ONE + m11 - m00 - m22).sqrt() * R::TWO;
            Self::from_wxyz(
                (m.z_axis.x - m.x_axis.z) / s,
                (m.y_axis.x + m.x_axis.y) / s,
                quarter * s,
                (m.z_axis.y + m.y_axis.z) / s,
            )
        } else {
            let s = (R::ONE + m22 - m00 - m11).sqrt() * R::TWO;
            Self::from_wxyz(
                (m.x_axis.y - m.y_axis.x) / s,
                (m.z_axis.x + m.x_axis.z) / s,
                (m.z_axis.y + m.y_axis.z) / s,
                quarter * s,
            )
        };
        q.normalize().unwrap_or(Self::IDENTITY)
    }

    /// Converts the components to another scalar.
    #[inline]
    pub fn cast<S: Real>(self) -> Quat<S> {
        Quat::from_wxyz(
            S::lit(self.w.to_f64()),
            S::lit(self.x.to_f64()),
            S::lit(self.y.to_f64()),
            S::lit(self.z.to_f64()),
        )
    }
}
