//! Why a step (or a wake pass, or building a state) was refused.

/// Which capacity an input overflowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CapacityKind {
    /// The link capacity differs from the topology's link count.
    Links,
    /// More contacts than [`Capacity::contacts`](crate::Capacity::contacts).
    Contacts,
    /// More constraints than
    /// [`Capacity::constraints`](crate::Capacity::constraints).
    Constraints,
    /// The buffer handed to [`Islands::new`](crate::Islands::new) is shorter
    /// than [`Capacity::words`](crate::Capacity::words) (or that size
    /// overflows).
    Words,
}

/// Which input list held a bad link index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum InputList {
    /// The contact pairs.
    Contacts,
    /// The equality-constraint pairs.
    Constraints,
    /// The external wake requests.
    WakeRequests,
}

/// A refused call. Nothing in the state changes when a call is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum StepError {
    /// An input does not fit the capacity named.
    Capacity(CapacityKind),
    /// Entry `index` of the named list refers to a link that does not exist.
    LinkOutOfRange {
        /// The list.
        list: InputList,
        /// The entry's position in the list.
        index: u32,
    },
    /// The topology has a different number of links than the state was
    /// built for.
    TopologyMismatch,
    /// The velocity array is shorter than the topology's dof count.
    VelocityTooShort,
}

impl core::fmt::Display for StepError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            StepError::Capacity(kind) => write!(f, "capacity exceeded: {kind:?}"),
            StepError::LinkOutOfRange { list, index } => {
                write!(f, "{list:?}[{index}] names a link out of range")
            }
            StepError::TopologyMismatch => write!(f, "topology link count differs from state"),
            StepError::VelocityTooShort => write!(f, "velocity array shorter than dof count"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for StepError {}
