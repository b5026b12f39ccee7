//! A 3-vector.

use crate::Real;
use core::ops::{Add, AddAssign, Div, Index, Mul, MulAssign, Neg, Sub, SubAssign};

/// A 3D vector or point: meters when it is a position, unitless when a
/// direction.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[repr(C)]
pub struct Vec3<R> {
    /// x component.
    pub x: R,
    /// y component.
    pub y: R,
    /// z component.
    pub z: R,
}

impl<R: Real> Vec3<R> {
    /// The zero vector.
    pub const ZERO: Self = Self::new(R::ZERO, R::ZERO, R::ZERO);
    /// The unit x axis.
    pub const X: Self = Self::new(R::ONE, R::ZERO, R::ZERO);
    /// The unit y axis.
    pub const Y: Self = Self::new(R::ZERO, R::ONE, R::ZERO);
    /// The unit z axis.
    pub const Z: Self = Self::new(R::ZERO, R::ZERO, R::ONE);

    /// A vector from its components.
    #[inline(always)]
    pub const fn new(x: R, y: R, z: R) -> Self {
        Self { x, y, z }
    }

    /// All three components set to `v`.
    #[inline(always)]
    pub const fn splat(v: R) -> Self {
        Self::new(v, v, v)
    }

    /// From an array `[x, y, z]`.
    #[inline(always)]
    pub const fn from_array(a: [R; 3]) -> Self {
        Self::new(a[0], a[1], a[2])
    }

    /// As an array `[x, y, z]`.
    #[inline(always)]
    pub const fn to_array(self) -> [R; 3] {
        [self.x, self.y, self.z]
    }

    /// Converts the components to another scalar (through `f64`).
    #[inline]
    pub fn cast<S: Real>(self) -> Vec3<S> {
        Vec3::new(
            S::lit(self.x.to_f64()),
            S::lit(self.y.to_f64()),
            S::lit(self.z.to_f64()),
        )
    }

    /// Dot product.
    #[inline(always)]
    pub fn dot(self, o: Self) -> R {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// Cross product `self × o` (right-handed).
    #[inline(always)]
    pub fn cross(self, o: Self) -> Self {
        Self::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }

    /// Squared Euclidean length.
    #[inline(always)]
    pub fn norm_squared(self) -> R {
        self.dot(self)
    }

    /// Euclidean length.
    #[inline(always)]
    pub fn norm(self) -> R {
        self.norm_squared().sqrt()
    }

    /// The unit vector along `self`, or `None` when `self` is zero or not
    /// finite. Exact in direction for every finite length, including lengths
    /// whose square overflows or underflows (those are rescaled first).
    #[inline]
    pub fn try_normalize(self) -> Option<Self> {
        let n2 = self.norm_squared();
        if n2 >= R::min_positive_value() && n2 <= R::MAX {
            return Some(self * (R::ONE / n2.sqrt()));
        }
        // Rescale by the largest component (component-wise division, since
        // `1 / m` may overflow for a subnormal `m`), then normalize.
        let m = self.max_abs();
        if !(m > R::ZERO && m.finite()) {
            return None;
        }
        let s = Self::new(self.x / m, self.y / m, self.z / m);
        Some(s * (R::ONE / s.norm()))
    }

    /// The unit vector along `self`, or `fallback` when it has none
    /// (see [`Vec3::try_normalize`]).
    #[inline]
    pub fn normalize_or(self, fallback: Self) -> Self {
        self.try_normalize().unwrap_or(fallback)
    }

    /// Component-wise product.
    #[inline(always)]
    pub fn mul_elem(self, o: Self) -> Self {
        Self::new(self.x * o.x, self.y * o.y, self.z * o.z)
    }

    /// Component-wise minimum.
    #[inline(always)]
    pub fn min(self, o: Self) -> Self {
        Self::new(self.x.min_of(o.x), self.y.min_of(o.y), self.z.min_of(o.z))
    }

    /// Component-wise maximum.
    #[inline(always)]
    pub fn max(self, o: Self) -> Self {
        Self::new(self.x.max_of(o.x), self.y.max_of(o.y), self.z.max_of(o.z))
    }

    /// Component-wise absolute value.
    #[inline(always)]
    pub fn abs(self) -> Self {
        Self::new(self.x.abs(), self.y.abs(), self.z.abs())
    }

    /// The largest component.
    #[inline(always)]
    pub fn max_element(self) -> R {
        self.x.max_of(self.y).max_of(self.z)
    }

    /// The smallest component.
    #[inline(always)]
    pub fn min_element(self) -> R {
        self.x.min_of(self.y).min_of(self.z)
    }

    /// The largest absolute component: a cheap, scale-aware size measure.
    #[inline(always)]
    pub fn max_abs(self) -> R {
        self.abs().max_element()
    }

    /// `true` when all components are finite.
    #[inline(always)]
    pub fn is_finite(self) -> bool {
        self.finite_probe() == R::ZERO
    }

    /// `±0` when every component is finite, NaN otherwise: the sum of the
    /// components times zero (a finite number times zero is a zero; an
    /// infinity or a NaN times zero is NaN). Branch-free, and sums of
    /// probes test many vectors with one comparison
    /// ([`Mat3::is_finite`](crate::Mat3::is_finite)).
    #[inline(always)]
    pub(crate) fn finite_probe(self) -> R {
        self.x * R::ZERO + self.y * R::ZERO + self.z * R::ZERO
    }

    /// Linear interpolation: `self` at `t = 0`, `o` at `t = 1`.
    #[inline(always)]
    pub fn lerp(self, o: Self, t: R) -> Self {
        self + (o - self) * t
    }

    /// Distance between two points.
    #[inline(always)]
    pub fn distance(self, o: Self) -> R {
        (self - o).norm()
    }

    /// A unit vector orthogonal to `self` (which must be nonzero); stable for
    /// every direction (picks the axis least aligned with `self`).
    #[inline]
    pub fn any_orthonormal(self) -> Self {
        let a = self.abs();
        let other = if a.x <= a.y && a.x <= a.z {
            Self::X
        } else if a.y <= a.z {
            Self::Y
        } else {
            Self::Z
        };
        self.cross(other).normalize_or(Self::X)
    }

    /// Component by index 0, 1, 2 (any other index returns `z`).
    #[inline(always)]
    pub fn get(self, i: usize) -> R {
        match i {
            0 => self.x,
            1 => self.y,
            _ => self.z,
        }
    }
}

impl<R: Real> Add for Vec3<R> {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Self::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}
impl<R: Real> Sub for Vec3<R> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Self::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}
impl<R: Real> Neg for Vec3<R> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self::new(-self.x, -self.y, -self.z)
    }
}
impl<R: Real> Mul<R> for Vec3<R> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, s: R) -> Self {
        Self::new(self.x * s, self.y * s, self.z * s)
    }
}
impl<R: Real> Div<R> for Vec3<R> {
    type Output = Self;
    #[inline(always)]
    fn div(self, s: R) -> Self {
        let inv = R::ONE / s;
        Self::new(self.x * inv, self.y * inv, self.z * inv)
    }
}
impl<R: Real> AddAssign for Vec3<R> {
    #[inline(always)]
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}
impl<R: Real> SubAssign for Vec3<R> {
    #[inline(always)]
    fn sub_assign(&mut self, o: Self) {
        *self = *self - o;
    }
}
impl<R: Real> MulAssign<R> for Vec3<R> {
    #[inline(always)]
    fn mul_assign(&mut self, s: R) {
        *self = *self * s;
    }
}
impl<R> Index<usize> for Vec3<R> {
    type Output = R;
    /// Component by index; panics on an index above 2 (like an array).
    #[inline(always)]
    fn index(&self, i: usize) -> &R {
        match i {
            0 => &self.x,
            1 => &self.y,
            2 => &self.z,
            _ => panic!("Vec3 index out of range"),
        }
    }
}
impl<R: Real> From<[R; 3]> for Vec3<R> {
    #[inline(always)]
    fn from(a: [R; 3]) -> Self {
        Self::from_array(a)
    }
}
impl<R: Real> From<Vec3<R>> for [R; 3] {
    #[inline(always)]
    fn from(v: Vec3<R>) -> Self {
        v.to_array()
    }
}
