//! The awake boxes in sweep order, kept from frame to frame.
//!
//! Each frame the previous order is refreshed with the new bounds and
//! re-sorted by insertion: when boxes move a little, each moves a few places
//! and the sort costs about `O(n)`. Insertion sort is quadratic on a
//! shuffled list, so it gives up after [`INSERTION_SHIFTS_PER_BOX`] shifts
//! per box and the list is fully sorted instead (as on the first frame).

use crate::{Geom, NO_LINK};
use mink_support::{Aabb, Real};

/// The insertion sort's budget, in element shifts per box; past it the
/// frame falls back to a full `O(n log n)` sort. A full sort of `n` boxes
/// costs about `log2(n)` comparisons per box, so a budget of a few shifts
/// per box keeps the coherent path from ever being the slower one.
pub const INSERTION_SHIFTS_PER_BOX: usize = 4;

/// Extra shifts allowed on top of the per-box budget (small scenes).
pub const INSERTION_SHIFTS_BASE: usize = 64;

/// One awake geometry in sweep order: its key (`min` along the sweep axis),
/// id and a copy of its record (so that the sweep reads geometries in sweep
/// order, not scattered by id).
///
/// Opaque storage for [`Buffers`](crate::Buffers); create with `Default`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slot<R> {
    pub(crate) key: R,
    pub(crate) id: u32,
    pub(crate) geom: Geom<R>,
}

impl<R: Real> Default for Slot<R> {
    fn default() -> Self {
        Self {
            key: R::ZERO,
            id: 0,
            geom: Geom {
                aabb: Aabb::EMPTY,
                link: NO_LINK,
                parent_link: NO_LINK,
                contype: 0,
                conaffinity: 0,
                fixed: false,
                asleep: false,
            },
        }
    }
}

impl<R: Real> Slot<R> {
    /// Sweep order: by key, ties by id (a total order on finite keys).
    #[inline(always)]
    fn before(&self, o: &Self) -> bool {
        self.key < o.key || (self.key == o.key && self.id < o.id)
    }
}

/// Sorts `slots` by insertion within the shift budget, keeping
/// `ranks[id]` = position of geometry `id`'s slot; returns `false` (leaving
/// a permutation of the input, ranks stale) when the budget ran out.
pub(crate) fn insertion_sort<R: Real>(slots: &mut [Slot<R>], ranks: &mut [u32]) -> bool {
    let budget = slots.len() * INSERTION_SHIFTS_PER_BOX + INSERTION_SHIFTS_BASE;
    let mut shifts = 0usize;
    for k in 1..slots.len() {
        let x = slots[k];
        if !x.before(&slots[k - 1]) {
            continue;
        }
        let mut j = k;
        while j > 0 && x.before(&slots[j - 1]) {
            let moved = slots[j - 1];
            slots[j] = moved;
            if let Some(r) = ranks.get_mut(moved.id as usize) {
                *r = j as u32;
            }
            j -= 1;
        }
        slots[j] = x;
        if let Some(r) = ranks.get_mut(x.id as usize) {
            *r = j as u32;
        }
        shifts += k - j;
        if shifts > budget {
            return false;
        }
    }
    true
}

/// Sets `ranks[id]` to the position of geometry `id`'s slot.
pub(crate) fn set_ranks<R>(slots: &[Slot<R>], ranks: &mut [u32]) {
    for (k, s) in slots.iter().enumerate() {
        if let Some(r) = ranks.get_mut(s.id as usize) {
            *r = k as u32;
        }
    }
}

/// Sorts `slots` into sweep order.
pub(crate) fn full_sort<R: Real>(slots: &mut [Slot<R>]) {
    slots.sort_unstable_by(|a, b| {
        if a.before(b) {
            core::cmp::Ordering::Less
        } else if b.before(a) {
            core::cmp::Ordering::Greater
        } else {
            core::cmp::Ordering::Equal
        }
    });
}

/// Sorts `slots` in parallel into sweep order.
#[cfg(feature = "rayon")]
pub(crate) fn par_full_sort<R: Real>(slots: &mut [Slot<R>]) {
    use rayon::slice::ParallelSliceMut;
    slots.par_sort_unstable_by(|a, b| {
        if a.before(b) {
            core::cmp::Ordering::Less
        } else if b.before(a) {
            core::cmp::Ordering::Greater
        } else {
            core::cmp::Ordering::Equal
        }
    });
}
