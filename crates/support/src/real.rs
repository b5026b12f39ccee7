//! The scalar type every algorithm is generic over.
//!
//! [`Real`] is implemented for `f32` and `f64`. Float functions (`sqrt`,
//! `abs`, `atan2`, ...) come from [`num_traits::Float`], which num-traits
//! backs with `libm` when there is no `std`: this module is the one place that
//! decides the math backend.

use core::fmt::{Debug, Display};
use core::ops::{AddAssign, DivAssign, MulAssign, SubAssign};
use num_traits::{Float, FloatConst};

/// Extra bounds required of [`Real`] when the `defmt` feature is on, so that
/// every public type generic over `R` can derive `defmt::Format`.
#[cfg(feature = "defmt")]
pub trait MaybeDefmt: defmt::Format {}
#[cfg(feature = "defmt")]
impl<T: defmt::Format> MaybeDefmt for T {}
/// Extra bounds required of [`Real`] when the `defmt` feature is on (none now).
#[cfg(not(feature = "defmt"))]
pub trait MaybeDefmt {}
#[cfg(not(feature = "defmt"))]
impl<T> MaybeDefmt for T {}

/// A floating-point scalar: `f32` or `f64`.
///
/// Tolerances in mink are derived from [`Real::EPSILON`] and the size of the
/// shapes involved, never written as a bare literal that is right for only one
/// of the two precisions.
pub trait Real:
    Float
    + FloatConst
    + Copy
    + Default
    + Debug
    + Display
    + Send
    + Sync
    + 'static
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
    + MaybeDefmt
{
    /// `0`.
    const ZERO: Self;
    /// `1`.
    const ONE: Self;
    /// `2`.
    const TWO: Self;
    /// `0.5`.
    const HALF: Self;
    /// Machine epsilon: the gap between 1 and the next representable value.
    const EPSILON: Self;
    /// The largest finite value.
    const MAX: Self;
    /// Positive infinity.
    const INFINITY: Self;
    /// Number of bits in the significand (24 for `f32`, 53 for `f64`).
    const MANTISSA_BITS: u32;

    /// Converts an `f64` constant to this scalar (rounding for `f32`).
    ///
    /// Meant for documented constants, not for values on a hot path.
    fn lit(x: f64) -> Self;

    /// Converts to `f64` (exact for both precisions).
    fn to_f64(self) -> f64;

    /// `true` when the value is neither infinite nor NaN.
    #[inline(always)]
    fn finite(self) -> bool {
        Float::is_finite(self)
    }

    /// Square root of [`Real::EPSILON`]: the classic relative tolerance for
    /// quantities computed from squared lengths (about `3.5e-4` in f32 and
    /// `1.5e-8` in f64).
    #[inline(always)]
    fn sqrt_epsilon() -> Self {
        Float::sqrt(Self::EPSILON)
    }

    /// The larger of two values; NaN-safe in that a NaN `other` returns `self`.
    #[inline(always)]
    fn max_of(self, other: Self) -> Self {
        if other > self {
            other
        } else {
            self
        }
    }

    /// The smaller of two values; NaN-safe in that a NaN `other` returns `self`.
    #[inline(always)]
    fn min_of(self, other: Self) -> Self {
        if other < self {
            other
        } else {
            self
        }
    }
}

macro_rules! impl_real {
    ($t:ty, $bits:expr) => {
        impl Real for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const TWO: Self = 2.0;
            const HALF: Self = 0.5;
            const EPSILON: Self = <$t>::EPSILON;
            const MAX: Self = <$t>::MAX;
            const INFINITY: Self = <$t>::INFINITY;
            const MANTISSA_BITS: u32 = $bits;

            #[inline(always)]
            fn lit(x: f64) -> Self {
                x as $t
            }

            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    };
}

impl_real!(f32, 24);
impl_real!(f64, 53);
