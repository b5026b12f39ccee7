//! Incremental frames: when few awake geometries changed since the last
//! full frame, reuse its pairs instead of sweeping everything again.
//!
//! A full frame stores its pairs (the base pairs) and keeps its columns.
//! While the awake and sleeping sets, the filters and the sweep axis stay
//! the same, every later frame marks the geometries whose record changed
//! (dirty, until the next full frame) and reports, in this order:
//! 1. the base pairs between two clean geometries (unchanged since, so their
//!    pairs are too),
//! 2. each dirty geometry against the clean boxes of the base columns (where
//!    its own stale entry is skipped; the dirty boxes are listed in columns
//!    on the base grid, and each column is walked once), then against the
//!    sleeping set,
//! 3. the dirty geometries among themselves, swept in columns of their own on
//!    the base grid.
//!
//! A frame then costs one pass over the geometries plus work proportional to
//! the base pairs and to the dirty set, instead of a sort, a listing and a
//! sweep of every box. Past [`MAX_DIRTY_FRACTION_INV`] the full frame runs
//! again.
//!
//! [`MAX_DIRTY_FRACTION_INV`]: crate::sap::MAX_DIRTY_FRACTION_INV

use crate::columns::{self, Columns, Entry};
use crate::pairs::{CandidatePair, PairSink};
use crate::sap::{Buffers, SapState, DIRTY};
use crate::{Filters, Geom};
use mink_support::Real;

/// What the last full frame left for the incremental frames.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BaseState {
    /// The base pairs are complete (they all fit in their buffer).
    pub(crate) valid: bool,
    /// How many base pairs are stored.
    pub(crate) pairs: usize,
    /// The filters they were found with.
    pub(crate) filters: Filters,
}

impl Default for BaseState {
    fn default() -> Self {
        Self {
            valid: false,
            pairs: 0,
            filters: Filters::NONE,
        }
    }
}

/// Passes pairs on to a sink and keeps a copy of those that fit in `store`.
pub(crate) struct TeeSink<'s, 'a, S> {
    inner: &'s mut S,
    store: &'a mut [CandidatePair],
    stored: usize,
    found: usize,
}

impl<'s, 'a, S: PairSink> TeeSink<'s, 'a, S> {
    pub(crate) fn new(inner: &'s mut S, store: &'a mut [CandidatePair]) -> Self {
        Self {
            inner,
            store,
            stored: 0,
            found: 0,
        }
    }

    /// The store back, with the pairs stored and found.
    pub(crate) fn finish(self) -> (&'a mut [CandidatePair], usize, usize) {
        (self.store, self.stored, self.found)
    }
}

impl<S: PairSink> PairSink for TeeSink<'_, '_, S> {
    #[inline(always)]
    fn push(&mut self, pair: CandidatePair) {
        if let Some(slot) = self.store.get_mut(self.stored) {
            *slot = pair;
            self.stored += 1;
        }
        self.found += 1;
        self.inner.push(pair);
    }
}

/// Lists the dirty geometries into their own columns on the base grid
/// (each column and the large list sorted, with reach).
pub(crate) fn list_dirty<R: Real>(st: &mut SapState<R>, b: &mut Buffers<'_, R>, geoms: &[Geom<R>]) {
    let grid = st.awake_grid;
    let dirty = &b.dirty[..st.n_dirty];
    let built = columns::build(
        &grid,
        || {
            dirty
                .iter()
                .filter_map(|&d| geoms.get(d as usize).map(|g| (d, g)))
        },
        b.dirty_entries,
        b.dirty_starts,
        b.dirty_large,
    );
    columns::sort_columns(b.dirty_entries, b.dirty_starts, grid.columns());
    columns::set_reach(b.dirty_entries, b.dirty_starts, grid.columns());
    let large = &mut b.dirty_large[..built.large];
    columns::sort_entries(large);
    columns::set_reach_in(large);
    st.dirty_entries = built.entries;
    st.dirty_large = built.large;
}

/// An incremental frame's views, ready to report pairs.
pub(crate) struct IncFrame<'a, R> {
    pub(crate) base_pairs: &'a [CandidatePair],
    pub(crate) roles: &'a [u8],
    pub(crate) dirty: &'a [u32],
    pub(crate) geoms: &'a [Geom<R>],
    pub(crate) base: Columns<'a, R>,
    pub(crate) base_large: Columns<'a, R>,
    pub(crate) sleep: Columns<'a, R>,
    pub(crate) sleep_large: Columns<'a, R>,
    pub(crate) changed: Columns<'a, R>,
    pub(crate) changed_large: Columns<'a, R>,
}

/// The views of an incremental frame prepared by `prepare`.
pub(crate) fn inc_frame<'a, R: Real>(
    st: &SapState<R>,
    b: &'a Buffers<'_, R>,
    geoms: &'a [Geom<R>],
) -> IncFrame<'a, R> {
    let grid = st.awake_grid;
    let sleep_grid = st.sleep.grid;
    IncFrame {
        base_pairs: &b.base_pairs[..st.base.pairs],
        roles: b.roles,
        dirty: &b.dirty[..st.n_dirty],
        geoms,
        base: Columns {
            grid,
            entries: &b.entries[..st.awake_entries],
            starts: &b.starts[..grid.columns() + 1],
            keys: b.keys,
        },
        base_large: Columns::single(grid.sweep, &b.large[..st.awake_large], b.keys),
        sleep: Columns {
            grid: sleep_grid,
            entries: &b.sleep_entries[..st.sleep.entries],
            starts: &b.sleep_starts[..sleep_grid.columns() + 1],
            keys: b.keys,
        },
        sleep_large: Columns::single(sleep_grid.sweep, &b.sleep_large[..st.sleep.large], b.keys),
        changed: Columns {
            grid,
            entries: &b.dirty_entries[..st.dirty_entries],
            starts: &b.dirty_starts[..grid.columns() + 1],
            keys: b.keys,
        },
        changed_large: Columns::single(grid.sweep, &b.dirty_large[..st.dirty_large], b.keys),
    }
}

impl<R: Real> IncFrame<'_, R> {
    #[inline(always)]
    fn clean(&self, id: u32) -> bool {
        self.roles.get(id as usize).is_some_and(|&r| r & DIRTY == 0)
    }

    /// Step 1 for a range of base pairs.
    pub(crate) fn clean_pairs<S: PairSink>(&self, pairs: &[CandidatePair], sink: &mut S) {
        for &p in pairs {
            if self.clean(p.a) && self.clean(p.b) {
                sink.push(p);
            }
        }
    }

    /// Step 2 in base column `c`: the dirty boxes listed there against the
    /// clean base boxes, by a merged walk down the column.
    pub(crate) fn dirty_vs_base_column<S: PairSink>(
        &self,
        c: usize,
        filters: &Filters,
        sink: &mut S,
    ) {
        let clean = |id: u32| self.clean(id);
        self.base
            .sweep_queries(&self.changed, c, filters, clean, sink);
    }

    /// Step 2, the rest: the dirty boxes too large for the columns against
    /// the clean base columns, and every dirty box against the large base
    /// boxes.
    pub(crate) fn dirty_vs_base_rest<S: PairSink>(&self, filters: &Filters, sink: &mut S) {
        let clean = |id: u32| self.clean(id);
        for e in self.changed_large.entries {
            let id = e.id();
            if let Some(g) = self.geoms.get(id as usize) {
                self.base.query(id, g, filters, clean, sink);
            }
        }
        if !self.base_large.entries.is_empty() {
            for &d in self.dirty {
                if let Some(g) = self.geoms.get(d as usize) {
                    self.base_large.query(d, g, filters, clean, sink);
                }
            }
        }
    }

    /// Step 2 for some dirty geometries: against the sleeping set.
    pub(crate) fn dirty_vs_sleeping<S: PairSink>(
        &self,
        dirty: &[u32],
        filters: &Filters,
        sink: &mut S,
    ) {
        for &d in dirty {
            if let Some(g) = self.geoms.get(d as usize) {
                self.sleep.query(d, g, filters, |_| true, sink);
                self.sleep_large.query(d, g, filters, |_| true, sink);
            }
        }
    }

    /// `true` when there is a sleeping set to query.
    pub(crate) fn has_sleepers(&self) -> bool {
        !self.sleep.entries.is_empty() || !self.sleep_large.entries.is_empty()
    }

    /// Step 3, the large dirty boxes: among themselves and against the dirty
    /// columns.
    pub(crate) fn dirty_large<S: PairSink>(&self, filters: &Filters, sink: &mut S) {
        self.changed_large.sweep_column(0, filters, sink);
        for e in self.changed_large.entries {
            self.large_vs_changed(e, filters, sink);
        }
    }

    fn large_vs_changed<S: PairSink>(&self, e: &Entry<R>, filters: &Filters, sink: &mut S) {
        let id = e.id();
        if let Some(g) = self.geoms.get(id as usize) {
            self.changed.query(id, g, filters, |_| true, sink);
        }
    }

    /// Reports every pair, serially, in the output order (see the module
    /// documentation).
    pub(crate) fn emit<S: PairSink>(&self, filters: &Filters, sink: &mut S) {
        self.clean_pairs(self.base_pairs, sink);
        for c in 0..self.changed.count() {
            self.dirty_vs_base_column(c, filters, sink);
        }
        self.dirty_vs_base_rest(filters, sink);
        if self.has_sleepers() {
            self.dirty_vs_sleeping(self.dirty, filters, sink);
        }
        for c in 0..self.changed.count() {
            self.changed.sweep_column(c, filters, sink);
        }
        self.dirty_large(filters, sink);
    }
}
