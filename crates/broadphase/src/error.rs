//! Why a broad-phase frame was refused or cut short.

/// A broad-phase failure, naming what was wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BroadPhaseError {
    /// Geometry `geom` has a non-finite AABB or one with `min > max`. The
    /// frame was not run; the broad phase keeps its previous state.
    InvalidAabb {
        /// The index of the offending geometry.
        geom: u32,
    },
    /// More geometries than [`MAX_GEOMS`](crate::MAX_GEOMS).
    TooManyGeoms {
        /// How many were given.
        count: usize,
    },
    /// A caller-provided buffer (named) is shorter than the scene needs; see
    /// [`Buffers`](crate::Buffers) for the lengths.
    StorageTooSmall {
        /// The name of the buffer.
        buffer: &'static str,
        /// The length it needs.
        needed: usize,
        /// The length it has.
        given: usize,
    },
    /// The pair budget was exceeded: `found` pairs overlap and pass the
    /// filters, and only the first `kept` of them (in the usual output
    /// order) were written. The frame itself ran completely.
    PairBudget {
        /// How many pairs the frame found.
        found: usize,
        /// How many fit in the budget and were kept.
        kept: usize,
    },
}

impl core::fmt::Display for BroadPhaseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::InvalidAabb { geom } => {
                write!(f, "geometry {geom} has a non-finite or inverted AABB")
            }
            Self::TooManyGeoms { count } => write!(f, "{count} geometries is too many"),
            Self::StorageTooSmall {
                buffer,
                needed,
                given,
            } => write!(f, "buffer `{buffer}` holds {given}, needs {needed}"),
            Self::PairBudget { found, kept } => {
                write!(f, "pair budget exceeded: {found} pairs found, {kept} kept")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BroadPhaseError {}
