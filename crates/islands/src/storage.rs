//! Where the islands live: one caller-provided `u32` buffer, carved into
//! named arrays.
//!
//! Persistent arrays (link status, still counters, sleeping islands, the
//! awake list) come first and keep their place when the contact or
//! constraint capacity changes; per-step scratch and outputs follow.

/// The capacities a state is built for. Every input beyond them is refused
/// with [`StepError::Capacity`](crate::StepError::Capacity) naming which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Capacity {
    /// Number of links (exactly the topology's link count).
    pub links: usize,
    /// Most contacts a step may hand in.
    pub contacts: usize,
    /// Most equality constraints a step may hand in.
    pub constraints: usize,
}

/// The arrays indexed by link (or by sleeping-island slot or island, of
/// which there are never more than links).
const PER_LINK_WORDS: usize = 22;
/// Per contact: its island, and its place in the island-ordered list.
const PER_CONTACT_WORDS: usize = 3;
/// Per constraint: same as contacts.
const PER_CONSTRAINT_WORDS: usize = 3;
/// The three range-start arrays have one extra entry each.
const EXTRA_WORDS: usize = 3;

impl Capacity {
    /// The number of `u32` words a buffer needs for these capacities:
    /// `22 * links + 3 * contacts + 3 * constraints + 3`, or `None` on
    /// overflow.
    pub const fn words(&self) -> Option<usize> {
        let Some(l) = self.links.checked_mul(PER_LINK_WORDS) else {
            return None;
        };
        let Some(c) = self.contacts.checked_mul(PER_CONTACT_WORDS) else {
            return None;
        };
        let Some(k) = self.constraints.checked_mul(PER_CONSTRAINT_WORDS) else {
            return None;
        };
        let Some(lc) = l.checked_add(c) else {
            return None;
        };
        let Some(lck) = lc.checked_add(k) else {
            return None;
        };
        lck.checked_add(EXTRA_WORDS)
    }
}

/// Declares the named arrays once; expands into the mutable [`Parts`], the
/// shared [`View`], and the functions carving a buffer into either.
macro_rules! regions {
    (|$n:ident, $c:ident, $k:ident| $($(#[$m:meta])* $name:ident : $len:expr,)*) => {
        /// The named arrays of one state, borrowed mutably for one call.
        pub(crate) struct Parts<'a> {
            $($(#[$m])* pub $name: &'a mut [u32],)*
        }

        /// The named arrays of one state, borrowed for reading (the queries
        /// read only some of them).
        #[allow(dead_code)]
        pub(crate) struct View<'a> {
            $($(#[$m])* pub $name: &'a [u32],)*
        }

        /// Carves `words` (at least `cap.words()` long, checked by the
        /// caller; a shorter buffer gives short arrays) into the arrays.
        pub(crate) fn split<'a>(words: &'a mut [u32], cap: &Capacity) -> Parts<'a> {
            let ($n, $c, $k) = (cap.links, cap.contacts, cap.constraints);
            let mut rest = words;
            $(let $name = take_mut(&mut rest, $len);)*
            Parts { $($name,)* }
        }

        /// Like [`split`], read-only.
        pub(crate) fn view<'a>(words: &'a [u32], cap: &Capacity) -> View<'a> {
            let ($n, $c, $k) = (cap.links, cap.contacts, cap.constraints);
            let mut rest = words;
            $(let $name = take_ref(&mut rest, $len);)*
            View { $($name,)* }
        }
    };
}

/// Takes the next `n` words (fewer if short) off the front of `rest`.
fn take_mut<'a>(rest: &mut &'a mut [u32], n: usize) -> &'a mut [u32] {
    let all = core::mem::take(rest);
    let (head, tail) = all.split_at_mut(n.min(all.len()));
    *rest = tail;
    head
}

/// Takes the next `n` words (fewer if short) off the front of `rest`.
fn take_ref<'a>(rest: &mut &'a [u32], n: usize) -> &'a [u32] {
    let (head, tail) = rest.split_at(n.min(rest.len()));
    *rest = tail;
    head
}

regions! { |n, c, k|
    // --- per link, interleaved (keep it first: queries read it directly) ---
    /// Per link `NODE_WORDS` words: union-find parent and size (scratch),
    /// status (persistent), island (output); see `state::at`.
    node: 4 * n,
    // --- persistent, per link ---
    /// Consecutive still steps (saturating at `SLEEP_STEPS`), or `WOKEN`.
    still: n,
    /// Next link of the same sleeping island (`NONE` at the end).
    sleep_next: n,
    /// Double-buffered ascending list of awake links.
    awake_a: n,
    /// The other half of the double buffer.
    awake_b: n,
    /// Links woken since the last step (sorted by the step).
    pending: n,
    /// Per link: the stamp of the last step that gave it an island.
    stamp: n,
    // --- persistent, per sleeping-island slot ---
    /// First link of the island.
    slot_head: n,
    /// Number of links of the island.
    slot_len: n,
    /// Free-list link of an unused slot.
    slot_free: n,
    /// Wake mark of the slot during a wake pass (0 otherwise).
    slot_mark: n,
    // --- scratch and outputs, per link ---
    /// Links grouped by island.
    island_links: n,
    /// Per wake pass: whether a union-find root reaches a woken island.
    wake_flag: n,
    /// Per wake pass: slots marked for waking.
    marked: n,
    /// Islands put to sleep by the last step.
    slept: n,
    /// Per island: flags (`UNREADY`, `SLEEPS`).
    island_flags: n,
    /// Per island + 1: start of its links in `island_links`.
    link_start: n + 1,
    /// Per island + 1: start of its contacts in `island_contacts`.
    contact_start: n + 1,
    /// Per island + 1: start of its constraints in `island_constraints`.
    constraint_start: n + 1,
    // --- per contact / constraint (last, so they can grow in place) ---
    /// Island of each contact (`NONE` when it joins no awake island).
    contact_island: c,
    /// Contact indices grouped by island.
    island_contacts: c,
    /// Island of each constraint.
    constraint_island: k,
    /// Constraint indices grouped by island.
    island_constraints: k,
    /// Per wake pass: edges between two different sleeping islands.
    sleeping_edges: c + k,
}
