//! One broad-phase frame over caller-provided storage: classify and check
//! the geometries, keep the sleeping set's columns, keep the awake boxes in
//! sweep order, list them into columns, and report the pairs.

use crate::columns::{self, Columns, Entry};
use crate::filter::FilterKey;
use crate::grid::{Grid, GridStats, MAX_SPAN_CELLS};
use crate::incremental::{BaseState, TeeSink};
use crate::order::{self, Slot};
use crate::pairs::{CandidatePair, PairSink};
use crate::{BroadPhaseError, Filters, Geom};
use mink_support::Real;

/// The largest number of geometries one broad phase handles (ids are `u32`
/// and column offsets count [`ENTRIES_PER_GEOM`] entries per geometry).
pub const MAX_GEOMS: usize = 1 << 28;

/// Column entries needed per geometry: a box is listed in at most
/// `MAX_SPAN_CELLS` cells along each of the two grid axes.
pub const ENTRIES_PER_GEOM: usize = MAX_SPAN_CELLS * MAX_SPAN_CELLS;

const _: () = assert!(MAX_GEOMS * ENTRIES_PER_GEOM <= u32::MAX as usize);

/// Role bit: the geometry is in the awake sweep order.
const IN_ORDER: u8 = 1;
/// Role bit: the geometry is in the sleeping set's columns.
const SLEEPING: u8 = 2;
/// Role bit: the geometry changed since the last full frame.
pub(crate) const DIRTY: u8 = 4;

/// A frame reuses the last full frame's pairs only while at most one awake
/// geometry in this many has changed since; past it, the full frame (sort,
/// columns, sweep) is cheaper than filtering and re-querying.
pub const MAX_DIRTY_FRACTION_INV: usize = 2;

/// Caller-provided storage for [`SweepAndPrune`](crate::SweepAndPrune), for
/// a scene of up to `n` geometries. It holds state from one frame to the
/// next (the sweep order, the sleeping set), so keep the same buffers
/// between frames. Lengths (at least): `order`, `ranks`, `roles`,
/// `snapshot`, `keys`, `large`, `sleep_large`, `dirty`, `dirty_large`: `n`;
/// `entries`, `sleep_entries`, `dirty_entries`: `ENTRIES_PER_GEOM * n`;
/// `starts`, `sleep_starts`, `dirty_starts`: `n + 2`. Longer is fine;
/// shorter is refused with [`BroadPhaseError::StorageTooSmall`].
/// `base_pairs` may have any length: frames whose pairs fit in it let the
/// next frames reuse them (see [`FrameReport::incremental`]); a short one
/// only costs speed.
#[derive(Debug)]
pub struct Buffers<'a, R> {
    /// The awake geometries in sweep order.
    pub order: &'a mut [Slot<R>],
    /// Per geometry: the position of its slot in `order`.
    pub ranks: &'a mut [u32],
    /// Per geometry: where it is listed.
    pub roles: &'a mut [u8],
    /// Per geometry: its record when last listed (to spot changes).
    pub snapshot: &'a mut [Geom<R>],
    /// Per geometry: its filter fields.
    pub keys: &'a mut [FilterKey],
    /// The awake boxes listed in columns.
    pub entries: &'a mut [Entry<R>],
    /// The awake columns' offsets.
    pub starts: &'a mut [u32],
    /// The awake boxes too large for the columns.
    pub large: &'a mut [Entry<R>],
    /// The sleeping boxes listed in columns.
    pub sleep_entries: &'a mut [Entry<R>],
    /// The sleeping columns' offsets.
    pub sleep_starts: &'a mut [u32],
    /// The sleeping boxes too large for the columns.
    pub sleep_large: &'a mut [Entry<R>],
    /// The geometries changed since the last full frame.
    pub dirty: &'a mut [u32],
    /// The changed boxes listed in columns (also scratch for the sleeping
    /// queries of a full frame).
    pub dirty_entries: &'a mut [Entry<R>],
    /// The changed boxes' column offsets.
    pub dirty_starts: &'a mut [u32],
    /// The changed boxes too large for the columns.
    pub dirty_large: &'a mut [Entry<R>],
    /// The pairs of the last full frame.
    pub base_pairs: &'a mut [CandidatePair],
}

impl<R: Real> Buffers<'_, R> {
    /// `Ok` when every buffer is long enough for `n` geometries, else the
    /// first one that is too short.
    pub fn check(&self, n: usize) -> Result<(), BroadPhaseError> {
        let need = |buffer: &'static str, given: usize, needed: usize| {
            if given < needed {
                Err(BroadPhaseError::StorageTooSmall {
                    buffer,
                    needed,
                    given,
                })
            } else {
                Ok(())
            }
        };
        need("order", self.order.len(), n)?;
        need("ranks", self.ranks.len(), n)?;
        need("roles", self.roles.len(), n)?;
        need("snapshot", self.snapshot.len(), n)?;
        need("keys", self.keys.len(), n)?;
        need("entries", self.entries.len(), ENTRIES_PER_GEOM * n)?;
        need("starts", self.starts.len(), n + 2)?;
        need("large", self.large.len(), n)?;
        need(
            "sleep_entries",
            self.sleep_entries.len(),
            ENTRIES_PER_GEOM * n,
        )?;
        need("sleep_starts", self.sleep_starts.len(), n + 2)?;
        need("sleep_large", self.sleep_large.len(), n)?;
        need("dirty", self.dirty.len(), n)?;
        need(
            "dirty_entries",
            self.dirty_entries.len(),
            ENTRIES_PER_GEOM * n,
        )?;
        need("dirty_starts", self.dirty_starts.len(), n + 2)?;
        need("dirty_large", self.dirty_large.len(), n)
    }
}

/// What one frame did (counts, and which paths it took).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FrameReport {
    /// Pairs reported.
    pub pairs: usize,
    /// Geometries in the sweep (awake, or all when the sleep filter is off).
    pub awake: usize,
    /// Sleeping geometries (kept out of the sweep).
    pub asleep: usize,
    /// The sweep order was fully sorted (first frame, new sweep axis, or the
    /// insertion sort's budget ran out) rather than re-sorted by insertion.
    pub full_sort: bool,
    /// The sleeping set changed and its columns were rebuilt.
    pub sleep_rebuilt: bool,
    /// The sweep axis (0, 1, 2 for x, y, z).
    pub sweep_axis: usize,
    /// Columns of the awake grid.
    pub columns: usize,
    /// Awake boxes too large for the columns (swept on their own).
    pub large: usize,
    /// The frame reused the pairs of the last full frame: it kept those
    /// between unchanged geometries and queried only the `changed` ones
    /// (same membership, filters and sweep axis as that frame, and few
    /// changes since).
    pub incremental: bool,
    /// Awake geometries changed since the last full frame (incremental
    /// frames only).
    pub changed: usize,
}

/// The sleeping set's columns, kept until the set changes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SleepSet<R> {
    pub(crate) grid: Grid<R>,
    pub(crate) entries: usize,
    pub(crate) large: usize,
}

/// The small state a broad phase keeps between frames (besides its buffers).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SapState<R> {
    n: usize,
    initialized: bool,
    pub(crate) axis: usize,
    n_order: usize,
    /// Some slot of the order was vacated and not yet compacted away.
    vacated: bool,
    pub(crate) awake_grid: Grid<R>,
    pub(crate) awake_entries: usize,
    pub(crate) awake_large: usize,
    pub(crate) sleep: SleepSet<R>,
    pub(crate) base: BaseState,
    pub(crate) n_dirty: usize,
    pub(crate) dirty_entries: usize,
    pub(crate) dirty_large: usize,
}

impl<R: Real> SapState<R> {
    pub(crate) fn new() -> Self {
        Self {
            n: 0,
            initialized: false,
            axis: 0,
            n_order: 0,
            vacated: false,
            awake_grid: Grid::single(0),
            awake_entries: 0,
            awake_large: 0,
            sleep: SleepSet {
                grid: Grid::single(0),
                entries: 0,
                large: 0,
            },
            base: BaseState::default(),
            n_dirty: 0,
            dirty_entries: 0,
            dirty_large: 0,
        }
    }

    /// Forgets the order, so the next frame sorts fully (for a caller who
    /// knows everything moved).
    pub(crate) fn reset(&mut self) {
        self.n = 0;
        self.initialized = false;
    }
}

/// The awake columns of one frame, ready to report pairs.
pub(crate) struct Frame<'a, R> {
    pub(crate) awake: Columns<'a, R>,
    pub(crate) large: Columns<'a, R>,
    order: &'a [Slot<R>],
    ranks: &'a [u32],
}

/// The sleeping set and the awake boxes listed on its grid.
pub(crate) struct SleepFrame<'a, R> {
    pub(crate) sleep: Columns<'a, R>,
    pub(crate) sleep_large: Columns<'a, R>,
    pub(crate) queries: Columns<'a, R>,
    pub(crate) large_queries: &'a [Entry<R>],
    pub(crate) order: &'a [Slot<R>],
    ranks: &'a [u32],
}

#[inline(always)]
fn passive<R>(g: &Geom<R>, filters: &Filters) -> bool {
    filters.both_asleep && g.asleep
}

/// A slot id marking a slot whose geometry left the sweep (fell asleep).
const VACATED: u32 = u32::MAX;

const _: () = assert!(MAX_GEOMS < VACATED as usize);

/// Runs everything before the pair reporting; `full_sort` sorts the order
/// (serial or parallel).
///
/// Pass 1 walks the geometries in id order (sequential memory): it checks
/// the bounds of every geometry that changed and lists each changed awake
/// geometry as dirty; a full frame
/// then rewrites only the dirty geometries' slots of the sweep order
/// (through `ranks`), so that only moved boxes are touched out of order. An
/// invalid AABB stops the frame; what pass 1 already wrote is consistent
/// (snapshots, keys and the dirty list agree).
pub(crate) fn prepare<R: Real>(
    st: &mut SapState<R>,
    b: &mut Buffers<'_, R>,
    geoms: &[Geom<R>],
    filters: &Filters,
    full_sort: impl Fn(&mut [Slot<R>]),
) -> Result<FrameReport, BroadPhaseError> {
    let n = geoms.len();
    if n > MAX_GEOMS {
        return Err(BroadPhaseError::TooManyGeoms { count: n });
    }
    b.check(n)?;
    if n != st.n || !st.initialized {
        *st = SapState::new();
        st.n = n;
        b.roles[..n].fill(0);
    }
    let mut report = FrameReport::default();
    let axis = st.axis;
    let slot = |id: usize, g: &Geom<R>| Slot {
        key: g.aabb.min.get(axis),
        id: id as u32,
        geom: *g,
    };

    let (mut sleep_changed, mut joined) = (false, false);
    let invalid = |i: usize| BroadPhaseError::InvalidAabb { geom: i as u32 };
    for (i, (g, (role, (snap, &rank)))) in geoms
        .iter()
        .zip(
            b.roles
                .iter_mut()
                .zip(b.snapshot.iter_mut().zip(b.ranks.iter())),
        )
        .enumerate()
    {
        if passive(g, filters) {
            report.asleep += 1;
            if *role & SLEEPING == 0 || *snap != *g {
                if !g.has_valid_aabb() {
                    return Err(invalid(i));
                }
                sleep_changed = true;
            }
            if *role & IN_ORDER != 0 {
                // Leaves the sweep: vacate its slot.
                if let Some(s) = b.order.get_mut(rank as usize) {
                    s.id = VACATED;
                }
                *role &= !IN_ORDER;
                st.vacated = true;
            }
            continue;
        }
        if *role & IN_ORDER == 0 {
            if !g.has_valid_aabb() {
                return Err(invalid(i));
            }
            joined = true;
        } else if *snap != *g {
            if !g.has_valid_aabb() {
                return Err(invalid(i));
            }
            *snap = *g;
            if let Some(k) = b.keys.get_mut(i) {
                *k = FilterKey::of(g);
            }
            // Its slot in the order is refreshed by the next full frame.
            if *role & DIRTY == 0 {
                if let Some(d) = b.dirty.get_mut(st.n_dirty) {
                    *d = i as u32;
                    st.n_dirty += 1;
                    *role |= DIRTY;
                } else {
                    // Cannot happen (one entry per geometry), but if it
                    // did, the change must not be missed.
                    st.base.valid = false;
                    if let Some(s) = b.order.get_mut(rank as usize) {
                        *s = slot(i, g);
                    }
                }
            }
        }
        sleep_changed |= *role & SLEEPING != 0;
        report.awake += 1;
    }

    if sleep_changed {
        rebuild_sleeping(st, b, geoms, filters);
        report.sleep_rebuilt = true;
    }

    // The sweep axis is kept between full frames: the clean boxes have not
    // moved, and the dirty ones are at most a fraction of the set.
    report.sweep_axis = st.axis;
    if st.base.valid
        && st.initialized
        && !sleep_changed
        && !joined
        && !st.vacated
        && st.base.filters == *filters
        && st.n_dirty * MAX_DIRTY_FRACTION_INV <= report.awake
    {
        crate::incremental::list_dirty(st, b, geoms);
        report.incremental = true;
        report.changed = st.n_dirty;
        report.columns = st.awake_grid.columns();
        report.large = st.awake_large;
        return Ok(report);
    }
    // A full frame: the awake set's statistics choose the sweep axis and
    // the grid.
    let mut stats = GridStats::new(n);
    for g in geoms {
        if !passive(g, filters) {
            stats.add(&g.aabb);
        }
    }
    let new_axis = stats.sweep_axis(st.initialized.then_some(st.axis));

    // Refresh the changed geometries' slots and forget the changes; the
    // columns are rebuilt.
    st.base.valid = false;
    for &d in &b.dirty[..st.n_dirty] {
        let d = d as usize;
        if let (Some(role), Some(g), Some(&rank)) =
            (b.roles.get_mut(d), geoms.get(d), b.ranks.get(d))
        {
            if *role & IN_ORDER != 0 {
                if let Some(s) = b.order.get_mut(rank as usize) {
                    *s = slot(d, g);
                }
            }
            *role &= !DIRTY;
        }
    }
    st.n_dirty = 0;

    // The awake sweep order: refreshed in pass 1 and re-sorted by
    // insertion, or rebuilt and fully sorted.
    let mut w = st.n_order;
    let coherent = st.initialized && new_axis == axis;
    let left = st.vacated;
    st.vacated = false;
    if coherent {
        if left {
            w = 0;
            for r in 0..st.n_order {
                let s = b.order[r];
                if s.id != VACATED {
                    b.order[w] = s;
                    w += 1;
                }
            }
        }
        if joined {
            for (i, (g, (role, snap))) in geoms
                .iter()
                .zip(b.roles.iter_mut().zip(b.snapshot.iter_mut()))
                .enumerate()
            {
                if !passive(g, filters) && *role & IN_ORDER == 0 {
                    if let Some(s) = b.order.get_mut(w) {
                        *s = slot(i, g);
                        w += 1;
                    }
                    *snap = *g;
                    *role |= IN_ORDER;
                    if let Some(k) = b.keys.get_mut(i) {
                        *k = FilterKey::of(g);
                    }
                }
            }
        }
        if left || joined {
            order::set_ranks(&b.order[..w], b.ranks);
        }
    } else {
        w = 0;
        let key = |id: usize, g: &Geom<R>| Slot {
            key: g.aabb.min.get(new_axis),
            id: id as u32,
            geom: *g,
        };
        for (i, (g, (role, snap))) in geoms
            .iter()
            .zip(b.roles.iter_mut().zip(b.snapshot.iter_mut()))
            .enumerate()
        {
            if passive(g, filters) {
                *role &= !IN_ORDER;
            } else {
                if let Some(s) = b.order.get_mut(w) {
                    *s = key(i, g);
                    w += 1;
                }
                *snap = *g;
                *role |= IN_ORDER;
                if let Some(k) = b.keys.get_mut(i) {
                    *k = FilterKey::of(g);
                }
            }
        }
    }
    let sorted_by_insertion = coherent && order::insertion_sort(&mut b.order[..w], b.ranks);
    if !sorted_by_insertion {
        full_sort(&mut b.order[..w]);
        order::set_ranks(&b.order[..w], b.ranks);
        report.full_sort = true;
    }
    st.n_order = w;
    st.axis = new_axis;
    st.initialized = true;
    let axis = new_axis;

    // The awake columns, rebuilt from the order every frame (linear).
    let grid = stats.grid(axis, b.starts.len().saturating_sub(2));
    let slots = &b.order[..w];
    let built = columns::build(
        &grid,
        || slots.iter().map(|s| (s.id, &s.geom)),
        b.entries,
        b.starts,
        b.large,
    );
    // Large boxes, and the changed boxes of the next frames, query the
    // columns, which needs each entry's reach.
    columns::set_reach(b.entries, b.starts, grid.columns());
    columns::set_reach_in(&mut b.large[..built.large]);
    st.awake_grid = grid;
    st.awake_entries = built.entries;
    st.awake_large = built.large;
    report.sweep_axis = axis;
    report.columns = grid.columns();
    report.large = built.large;
    Ok(report)
}

/// The awake columns built by [`prepare`], ready to report pairs.
pub(crate) fn awake_frame<'b, R: Real>(st: &SapState<R>, b: &'b Buffers<'_, R>) -> Frame<'b, R> {
    let grid = st.awake_grid;
    let order = &b.order[..st.n_order];
    Frame {
        awake: Columns {
            grid,
            entries: &b.entries[..st.awake_entries],
            starts: &b.starts[..grid.columns() + 1],
            keys: b.keys,
        },
        large: Columns::single(grid.sweep, &b.large[..st.awake_large], b.keys),
        order,
        ranks: b.ranks,
    }
}

/// The sleeping columns and the awake boxes listed on their grid (in the
/// changed boxes' buffers, free during a full frame), or `None` when nothing
/// sleeps.
pub(crate) fn sleep_frame<'b, R: Real>(
    st: &SapState<R>,
    b: &'b mut Buffers<'_, R>,
) -> Option<SleepFrame<'b, R>> {
    if st.sleep.entries == 0 && st.sleep.large == 0 {
        return None;
    }
    let grid = st.sleep.grid;
    let order = &b.order[..st.n_order];
    let built = columns::build(
        &grid,
        || order.iter().map(|s| (s.id, &s.geom)),
        b.dirty_entries,
        b.dirty_starts,
        b.dirty_large,
    );
    if grid.sweep != st.axis {
        // The order is sorted along another axis: sort each list.
        columns::sort_columns(b.dirty_entries, b.dirty_starts, grid.columns());
    }
    let b: &'b Buffers<'_, R> = b;
    let order = &b.order[..st.n_order];
    Some(SleepFrame {
        sleep: Columns {
            grid,
            entries: &b.sleep_entries[..st.sleep.entries],
            starts: &b.sleep_starts[..grid.columns() + 1],
            keys: b.keys,
        },
        sleep_large: Columns::single(grid.sweep, &b.sleep_large[..st.sleep.large], b.keys),
        queries: Columns {
            grid,
            entries: &b.dirty_entries[..built.entries],
            starts: &b.dirty_starts[..grid.columns() + 1],
            keys: b.keys,
        },
        large_queries: &b.dirty_large[..built.large],
        order,
        ranks: b.ranks,
    })
}

/// Lists the sleeping geometries into their own columns (on their own
/// grid), each column sorted and with its reach, and records their bounds.
fn rebuild_sleeping<R: Real>(
    st: &mut SapState<R>,
    b: &mut Buffers<'_, R>,
    geoms: &[Geom<R>],
    filters: &Filters,
) {
    let n = geoms.len();
    let mut stats = GridStats::new(n);
    for (g, (role, (snap, key))) in geoms.iter().zip(
        b.roles
            .iter_mut()
            .zip(b.snapshot.iter_mut().zip(b.keys.iter_mut())),
    ) {
        if passive(g, filters) {
            stats.add(&g.aabb);
            *role |= SLEEPING;
            *snap = *g;
            *key = FilterKey::of(g);
        } else {
            *role &= !SLEEPING;
        }
    }
    let axis = stats.sweep_axis(None);
    // The awake boxes are listed on this grid too, in the changed boxes'
    // offsets.
    let max_columns = b
        .sleep_starts
        .len()
        .min(b.dirty_starts.len())
        .saturating_sub(2);
    let grid = stats.grid(axis, max_columns);
    let built = columns::build(
        &grid,
        || {
            geoms
                .iter()
                .enumerate()
                .filter(|(_, g)| passive(g, filters))
                .map(|(i, g)| (i as u32, g))
        },
        b.sleep_entries,
        b.sleep_starts,
        b.sleep_large,
    );
    columns::sort_columns(b.sleep_entries, b.sleep_starts, grid.columns());
    columns::set_reach(b.sleep_entries, b.sleep_starts, grid.columns());
    let large = &mut b.sleep_large[..built.large];
    columns::sort_entries(large);
    columns::set_reach_in(large);
    st.sleep = SleepSet {
        grid,
        entries: built.entries,
        large: built.large,
    };
}

impl<R: Real> Frame<'_, R> {
    /// Reports the awake pairs, serially, in the output order: each awake
    /// column in turn, the large boxes among themselves, then the large
    /// boxes against the columns.
    pub(crate) fn emit<S: PairSink>(&self, filters: &Filters, sink: &mut S) {
        for c in 0..self.awake.count() {
            self.awake.sweep_column(c, filters, sink);
        }
        self.large.sweep_column(0, filters, sink);
        for e in self.large.entries {
            self.large_vs_columns(e, filters, sink);
        }
    }

    /// One large awake box against the awake columns.
    #[inline]
    pub(crate) fn large_vs_columns<S: PairSink>(
        &self,
        e: &Entry<R>,
        filters: &Filters,
        sink: &mut S,
    ) {
        if let Some(s) = self.order.get(rank_of(self.ranks, e)) {
            self.awake.query(s.id, &s.geom, filters, |_| true, sink);
        }
    }
}

/// The position in the sweep order of an entry's geometry.
#[inline(always)]
fn rank_of<R>(ranks: &[u32], e: &Entry<R>) -> usize {
    ranks
        .get(e.id() as usize)
        .map_or(usize::MAX, |&r| r as usize)
}

impl<R: Real> SleepFrame<'_, R> {
    /// Reports the awake–sleeping pairs, serially, in the output order:
    /// each sleeping column against the awake boxes listed on it, the awake
    /// boxes too large for that grid, then every awake box (in sweep order)
    /// against the sleeping boxes too large for the columns.
    pub(crate) fn emit<S: PairSink>(&self, filters: &Filters, sink: &mut S) {
        for c in 0..self.sleep.count() {
            self.sleep
                .sweep_queries(&self.queries, c, filters, |_| true, sink);
        }
        for e in self.large_queries {
            self.large_query(e, filters, sink);
        }
        if !self.sleep_large.entries.is_empty() {
            for s in self.order {
                self.sleep_large
                    .query(s.id, &s.geom, filters, |_| true, sink);
            }
        }
    }

    /// One awake box too large for the sleeping grid against its columns.
    #[inline]
    pub(crate) fn large_query<S: PairSink>(&self, e: &Entry<R>, filters: &Filters, sink: &mut S) {
        if let Some(s) = self.order.get(rank_of(self.ranks, e)) {
            self.sleep.query(s.id, &s.geom, filters, |_| true, sink);
        }
    }
}

/// Runs one frame into `sink`: [`prepare`], then either the incremental
/// report (reused pairs plus the changed boxes' queries) or the full one
/// (every column, the sleeping queries), stored as the new base pairs when
/// they fit. `parallel` splits the reporting across threads (same output).
/// Returns the report and the number of pairs the full frame needed to store
/// (0 after an incremental frame).
pub(crate) fn run_frame<R: Real, S: PairSink>(
    st: &mut SapState<R>,
    b: &mut Buffers<'_, R>,
    geoms: &[Geom<R>],
    filters: &Filters,
    sink: &mut S,
    parallel: bool,
) -> Result<(FrameReport, usize), BroadPhaseError> {
    #[cfg(feature = "rayon")]
    let full_sort = if parallel {
        order::par_full_sort
    } else {
        order::full_sort
    };
    #[cfg(not(feature = "rayon"))]
    let full_sort = order::full_sort;
    let report = prepare(st, b, geoms, filters, full_sort)?;
    if report.incremental {
        let frame = crate::incremental::inc_frame(st, b, geoms);
        if parallel {
            frame.par_emit(filters, sink);
        } else {
            frame.emit(filters, sink);
        }
        return Ok((report, 0));
    }
    let store = core::mem::take(&mut b.base_pairs);
    let mut tee = TeeSink::new(sink, store);
    let awake = awake_frame(st, b);
    if parallel {
        awake.par_emit(filters, &mut tee);
    } else {
        awake.emit(filters, &mut tee);
    }
    if let Some(frame) = sleep_frame(st, b) {
        if parallel {
            frame.par_emit(filters, &mut tee);
        } else {
            frame.emit(filters, &mut tee);
        }
    }
    let (store, stored, found) = tee.finish();
    b.base_pairs = store;
    st.base = BaseState {
        valid: stored == found,
        pairs: stored,
        filters: *filters,
    };
    Ok((report, found))
}

#[cfg(not(feature = "rayon"))]
impl<R: Real> Frame<'_, R> {
    /// Without `rayon`, the serial report.
    pub(crate) fn par_emit<S: PairSink>(&self, filters: &Filters, sink: &mut S) {
        self.emit(filters, sink);
    }
}

#[cfg(not(feature = "rayon"))]
impl<R: Real> SleepFrame<'_, R> {
    /// Without `rayon`, the serial report.
    pub(crate) fn par_emit<S: PairSink>(&self, filters: &Filters, sink: &mut S) {
        self.emit(filters, sink);
    }
}

#[cfg(not(feature = "rayon"))]
impl<R: Real> crate::incremental::IncFrame<'_, R> {
    /// Without `rayon`, the serial report.
    pub(crate) fn par_emit<S: PairSink>(&self, filters: &Filters, sink: &mut S) {
        self.emit(filters, sink);
    }
}
