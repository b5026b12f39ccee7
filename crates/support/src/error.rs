//! Why a shape was refused by its constructor.

/// A shape constructor's refusal, naming what was wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ShapeError {
    /// A parameter (named) is NaN or infinite.
    NonFinite(&'static str),
    /// A size (named) is zero or negative where it must be positive.
    NonPositive(&'static str),
    /// A size (named) is negative where zero is allowed.
    Negative(&'static str),
    /// The points do not span what the shape needs (named: a segment of
    /// zero length, a triangle of zero area, a hull without volume).
    Degenerate(&'static str),
    /// Fewer points than the shape needs (the minimum is given).
    TooFewPoints {
        /// How many points the shape needs at least.
        needed: usize,
        /// How many were given.
        given: usize,
    },
    /// Borrowed arrays (of a hull or a height field) are inconsistent (an
    /// index out of range, sizes that disagree); the text names the array.
    Inconsistent(&'static str),
    /// A fixed capacity was exceeded (named).
    Capacity(&'static str),
}

impl core::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ShapeError::NonFinite(what) => write!(f, "{what} is not finite"),
            ShapeError::NonPositive(what) => write!(f, "{what} must be positive"),
            ShapeError::Negative(what) => write!(f, "{what} must not be negative"),
            ShapeError::Degenerate(what) => write!(f, "degenerate {what}"),
            ShapeError::TooFewPoints { needed, given } => {
                write!(f, "needs at least {needed} points, got {given}")
            }
            ShapeError::Inconsistent(what) => write!(f, "inconsistent data: {what}"),
            ShapeError::Capacity(what) => write!(f, "capacity exceeded: {what}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ShapeError {}

/// Checks a size that must be finite and positive.
pub(crate) fn positive<R: crate::Real>(value: R, what: &'static str) -> Result<R, ShapeError> {
    if !value.finite() {
        Err(ShapeError::NonFinite(what))
    } else if value <= R::ZERO {
        Err(ShapeError::NonPositive(what))
    } else {
        Ok(value)
    }
}

/// Checks a size that must be finite and non-negative.
pub(crate) fn non_negative<R: crate::Real>(value: R, what: &'static str) -> Result<R, ShapeError> {
    if !value.finite() {
        Err(ShapeError::NonFinite(what))
    } else if value < R::ZERO {
        Err(ShapeError::Negative(what))
    } else {
        Ok(value)
    }
}

/// Checks a point or vector that must be finite.
pub(crate) fn finite_vec<R: crate::Real>(
    v: crate::Vec3<R>,
    what: &'static str,
) -> Result<crate::Vec3<R>, ShapeError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(ShapeError::NonFinite(what))
    }
}
