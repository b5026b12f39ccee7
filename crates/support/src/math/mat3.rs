//! A 3×3 matrix, column-major (as glam), used for rotations.

use super::Vec3;
use crate::Real;
use core::ops::Mul;

/// A 3×3 matrix stored as three columns.
///
/// mink uses it for rotations: `m * v` rotates `v` into the parent frame and
/// [`Mat3::transpose_mul`] rotates back, which for a rotation is the inverse.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct Mat3<R> {
    /// First column: the image of the x axis.
    pub x_axis: Vec3<R>,
    /// Second column: the image of the y axis.
    pub y_axis: Vec3<R>,
    /// Third column: the image of the z axis.
    pub z_axis: Vec3<R>,
}

impl<R: Real> Default for Mat3<R> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<R: Real> Mat3<R> {
    /// The identity matrix.
    pub const IDENTITY: Self = Self::from_cols(Vec3::X, Vec3::Y, Vec3::Z);

    /// A matrix from its three columns.
    #[inline(always)]
    pub const fn from_cols(x_axis: Vec3<R>, y_axis: Vec3<R>, z_axis: Vec3<R>) -> Self {
        Self {
            x_axis,
            y_axis,
            z_axis,
        }
    }

    /// A matrix from its three rows.
    #[inline]
    pub fn from_rows(r0: Vec3<R>, r1: Vec3<R>, r2: Vec3<R>) -> Self {
        Self::from_cols(r0, r1, r2).transpose()
    }

    /// Row `i` (0, 1 or 2; any other index gives row 2).
    #[inline(always)]
    pub fn row(&self, i: usize) -> Vec3<R> {
        Vec3::new(self.x_axis.get(i), self.y_axis.get(i), self.z_axis.get(i))
    }

    /// Column `i` (0, 1 or 2; any other index gives column 2).
    #[inline(always)]
    pub fn col(&self, i: usize) -> Vec3<R> {
        match i {
            0 => self.x_axis,
            1 => self.y_axis,
            _ => self.z_axis,
        }
    }

    /// The transpose (for a rotation, its inverse).
    #[inline]
    pub fn transpose(&self) -> Self {
        Self::from_cols(self.row(0), self.row(1), self.row(2))
    }

    /// `self * v`.
    #[inline(always)]
    pub fn mul_vec(&self, v: Vec3<R>) -> Vec3<R> {
        self.x_axis * v.x + self.y_axis * v.y + self.z_axis * v.z
    }

    /// `selfᵀ * v`: for a rotation, rotates `v` from the parent frame into
    /// the local frame.
    #[inline(always)]
    pub fn transpose_mul(&self, v: Vec3<R>) -> Vec3<R> {
        Vec3::new(self.x_axis.dot(v), self.y_axis.dot(v), self.z_axis.dot(v))
    }

    /// Matrix product `self * o`.
    #[inline]
    pub fn mul_mat(&self, o: &Self) -> Self {
        Self::from_cols(
            self.mul_vec(o.x_axis),
            self.mul_vec(o.y_axis),
            self.mul_vec(o.z_axis),
        )
    }

    /// `selfᵀ * o`.
    #[inline]
    pub fn transpose_mul_mat(&self, o: &Self) -> Self {
        Self::from_cols(
            self.transpose_mul(o.x_axis),
            self.transpose_mul(o.y_axis),
            self.transpose_mul(o.z_axis),
        )
    }

    /// The matrix with every entry replaced by its absolute value (used for
    /// tight AABBs of rotated boxes).
    #[inline]
    pub fn abs(&self) -> Self {
        Self::from_cols(self.x_axis.abs(), self.y_axis.abs(), self.z_axis.abs())
    }

    /// The determinant.
    #[inline]
    pub fn determinant(&self) -> R {
        self.x_axis.dot(self.y_axis.cross(self.z_axis))
    }

    /// `true` when all entries are finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.finite_probe() == R::ZERO
    }

    /// `±0` when every entry is finite, NaN otherwise (see
    /// `Vec3::finite_probe`).
    #[inline(always)]
    pub(crate) fn finite_probe(&self) -> R {
        self.x_axis.finite_probe() + self.y_axis.finite_probe() + self.z_axis.finite_probe()
    }

    /// A rotation by `angle` radians about the unit `axis` (Rodrigues).
    pub fn from_axis_angle(axis: Vec3<R>, angle: R) -> Self {
        let (s, c) = angle.sin_cos();
        let t = R::ONE - c;
        let (x, y, z) = (axis.x, axis.y, axis.z);
        Self::from_cols(
            Vec3::new(t * x * x + c, t * x * y + s * z, t * x * z - s * y),
            Vec3::new(t * x * y - s * z, t * y * y + c, t * y * z + s * x),
            Vec3::new(t * x * z + s * y, t * y * z - s * x, t * z * z + c),
        )
    }

    /// Converts the entries to another scalar.
    #[inline]
    pub fn cast<S: Real>(&self) -> Mat3<S> {
        Mat3::from_cols(self.x_axis.cast(), self.y_axis.cast(), self.z_axis.cast())
    }
}

impl<R: Real> Mul<Vec3<R>> for Mat3<R> {
    type Output = Vec3<R>;
    #[inline(always)]
    fn mul(self, v: Vec3<R>) -> Vec3<R> {
        self.mul_vec(v)
    }
}

impl<R: Real> Mul for Mat3<R> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        self.mul_mat(&o)
    }
}
