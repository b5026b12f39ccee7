//! The sentinels and counters of the persistent state.

/// Words per link in the interleaved `node` array: the fields a union or
/// an edge lookup reads together share a cache line.
pub(crate) const NODE_WORDS: usize = 4;
/// `node` field: union-find parent.
pub(crate) const UF: usize = 0;
/// `node` field: union-find tree size (at roots).
pub(crate) const SIZE: usize = 1;
/// `node` field: `AWAKE`, `STATIC`, or the slot of the sleeping island
/// holding the link.
pub(crate) const STATUS: usize = 2;
/// `node` field: the link's island in the last step (valid where its stamp
/// matches), or during labelling the island of a root.
pub(crate) const ISLAND: usize = 3;

/// Index of `field` of `link` in the `node` array.
#[inline(always)]
pub(crate) fn at(link: u32, field: usize) -> usize {
    link as usize * NODE_WORDS + field
}

/// `status` of an awake link.
pub(crate) const AWAKE: u32 = u32::MAX;
/// `status` of a fixed (static) link. Any smaller value is a sleeping
/// island's slot.
pub(crate) const STATIC: u32 = u32::MAX - 1;
/// "None": the end of a chain, an unlabelled root, a contact in no island.
pub(crate) const NONE: u32 = u32::MAX;
/// `still` of a link woken (or asked to wake) since the last step: the next
/// step sets its counter to 0 whatever its speed.
pub(crate) const WOKEN: u32 = u32::MAX;

/// `island_flags` bit: some link of the island is not ready to sleep.
pub(crate) const UNREADY: u32 = 1;
/// `island_flags` bit: the island fell asleep at the end of the step.
pub(crate) const SLEEPS: u32 = 2;

/// The scalar part of the state, next to its arrays.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Counters {
    /// Length of the awake list.
    pub awake_len: u32,
    /// `true` when the awake list lives in `awake_b`.
    pub awake_in_b: bool,
    /// Length of the pending (woken) list.
    pub pending_len: u32,
    /// `true` when the pending list is the last step's output.
    pub pending_is_output: bool,
    /// Slots handed out so far (the free list recycles the rest).
    pub slot_fresh: u32,
    /// Head of the free-slot list.
    pub slot_free_head: u32,
    /// Sleeping islands.
    pub sleeping: u32,
    /// The current step's stamp (never 0, the stamp of no step).
    pub stamp: u32,
    /// Islands built by the last step.
    pub islands: u32,
    /// Islands put to sleep by the last step.
    pub slept: u32,
    /// Contacts handed to the last step.
    pub contacts: u32,
    /// Constraints handed to the last step.
    pub constraints: u32,
}
