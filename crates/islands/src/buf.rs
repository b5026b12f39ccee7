//! The owning state, under `alloc`: the same [`Islands`] in a `Vec<u32>`
//! that grows as contacts and constraints do.

use alloc::vec::Vec;

use mink_support::Real;

use crate::error::StepError;
use crate::islands::Islands;
use crate::params::Params;
use crate::storage::Capacity;
use crate::topology::Topology;

/// [`Islands`] owning its buffer: no capacity to plan, contacts and
/// constraints grow as needed.
pub type IslandsBuf<R> = Islands<Vec<u32>, R>;

impl<R: Real> Islands<Vec<u32>, R> {
    /// An owning state for `topo`, every moving link awake. Refused only
    /// when the buffer size overflows (`CapacityKind::Words`).
    pub fn owned(topo: &Topology<'_, R>, params: Params<R>) -> Result<Self, StepError> {
        let cap = Capacity {
            links: topo.link_count(),
            contacts: 0,
            constraints: 0,
        };
        Islands::new(Vec::new(), topo, cap, params)
    }
}
