//! Columns of boxes sorted along the sweep axis: building them, sweeping
//! each against itself, and querying one box against them.

use crate::filter::FilterKey;
use crate::grid::{axes, Grid, MAX_SPAN_CELLS};
use crate::pairs::{CandidatePair, PairSink};
use crate::{Filters, Geom};
use mink_support::{Aabb, Real};

/// A box as listed in one column: its bounds along the sweep axis `s` and
/// the grid axes `u`, `v`, its geometry id, and the cell of its lower
/// corner (the filter fields stay in a per-geometry array, read only for
/// boxes that overlap, so that the columns stay small).
///
/// Opaque storage for [`Buffers`](crate::Buffers); create with `Default`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Entry<R> {
    min_s: R,
    max_s: R,
    /// The largest `max_s` of this entry and those before it in its column
    /// (non-decreasing, so a query can binary-search where to start).
    reach: R,
    min_u: R,
    max_u: R,
    min_v: R,
    max_v: R,
    id: u32,
    cell_u: u16,
    cell_v: u16,
}

impl<R: Real> Entry<R> {
    #[inline(always)]
    fn new(geom: &Geom<R>, id: u32, sweep: usize, cells: [usize; 4]) -> Self {
        let [s, u, v] = axes(sweep);
        let (lo, hi) = (geom.aabb.min, geom.aabb.max);
        Self {
            min_s: lo.get(s),
            max_s: hi.get(s),
            reach: hi.get(s),
            min_u: lo.get(u),
            max_u: hi.get(u),
            min_v: lo.get(v),
            max_v: hi.get(v),
            id,
            cell_u: cells[0] as u16,
            cell_v: cells[2] as u16,
        }
    }

    /// Sweep order: by `min_s`, ties by id (a total order on finite keys).
    #[inline(always)]
    fn before(&self, o: &Self) -> bool {
        self.min_s < o.min_s || (self.min_s == o.min_s && self.id < o.id)
    }

    #[inline(always)]
    fn overlaps_uv(&self, o: &Self) -> bool {
        self.min_u <= o.max_u
            && o.min_u <= self.max_u
            && self.min_v <= o.max_v
            && o.min_v <= self.max_v
    }
}

/// The cells `[u0, u1, v0, v1]` a box covers in `grid`.
#[inline(always)]
fn cells_of<R: Real>(grid: &Grid<R>, aabb: &Aabb<R>) -> [usize; 4] {
    let [_, u, v] = axes(grid.sweep);
    [
        grid.cell(0, aabb.min.get(u)),
        grid.cell(0, aabb.max.get(u)),
        grid.cell(1, aabb.min.get(v)),
        grid.cell(1, aabb.max.get(v)),
    ]
}

#[inline(always)]
fn is_large(cells: &[usize; 4]) -> bool {
    cells[1] - cells[0] >= MAX_SPAN_CELLS || cells[3] - cells[2] >= MAX_SPAN_CELLS
}

/// Reports the pair of geometries `i` (filter fields `ka`) and `j` if the
/// filters keep it.
#[inline(always)]
fn emit<S: PairSink>(
    keys: &[FilterKey],
    ka: Option<&FilterKey>,
    i: u32,
    j: u32,
    filters: &Filters,
    sink: &mut S,
) {
    if let (Some(a), Some(b)) = (ka, keys.get(j as usize)) {
        if filters.keeps_keys(a, b) {
            sink.push(CandidatePair::new(i, j));
        }
    }
}

/// How many entries and large boxes [`build`] wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Built {
    pub(crate) entries: usize,
    pub(crate) large: usize,
}

/// Lists boxes into the columns of `grid`: `starts` (length at least
/// columns + 2) receives the column offsets, `entries` the listed boxes
/// column by column, `large` the boxes that span more than
/// [`MAX_SPAN_CELLS`] cells on a grid axis. Within a column and in `large`,
/// boxes keep the order `boxes` yields them in. Boxes that do not fit the
/// buffers are skipped, so the buffers must hold `MAX_SPAN_CELLS^2` entries
/// per box (checked by the caller).
pub(crate) fn build<'g, R: Real, I>(
    grid: &Grid<R>,
    boxes: impl Fn() -> I,
    entries: &mut [Entry<R>],
    starts: &mut [u32],
    large: &mut [Entry<R>],
) -> Built
where
    I: Iterator<Item = (u32, &'g Geom<R>)>,
{
    let columns = grid.columns();
    let Some(starts) = starts.get_mut(..columns + 2) else {
        return Built::default();
    };
    starts.fill(0);
    // Count into starts[c + 2], so that after the prefix sum starts[c + 1]
    // is column c's start and serves as its write cursor; after the scatter
    // starts[c + 1] is column c's end, i.e. column c + 1's start.
    for (_, geom) in boxes() {
        let cells = cells_of(grid, &geom.aabb);
        if is_large(&cells) {
            continue;
        }
        for cu in cells[0]..=cells[1] {
            for cv in cells[2]..=cells[3] {
                if let Some(n) = starts.get_mut(grid.column(cu, cv) + 2) {
                    *n += 1;
                }
            }
        }
    }
    let mut total = 0u32;
    for n in starts.iter_mut() {
        total += *n;
        *n = total;
    }
    let mut n_large = 0;
    for (id, geom) in boxes() {
        let cells = cells_of(grid, &geom.aabb);
        let entry = Entry::new(geom, id, grid.sweep, cells);
        if is_large(&cells) {
            if let Some(slot) = large.get_mut(n_large) {
                *slot = Entry {
                    cell_u: 0,
                    cell_v: 0,
                    ..entry
                };
                n_large += 1;
            }
            continue;
        }
        for cu in cells[0]..=cells[1] {
            for cv in cells[2]..=cells[3] {
                if let Some(cursor) = starts.get_mut(grid.column(cu, cv) + 1) {
                    if let Some(slot) = entries.get_mut(*cursor as usize) {
                        *slot = entry;
                    }
                    *cursor += 1;
                }
            }
        }
    }
    Built {
        entries: (total as usize).min(entries.len()),
        large: n_large,
    }
}

/// Sorts every column of a built set (and nothing else) into sweep order.
pub(crate) fn sort_columns<R: Real>(entries: &mut [Entry<R>], starts: &[u32], columns: usize) {
    for c in 0..columns {
        if let Some(col) = column_mut(entries, starts, c) {
            sort_entries(col);
        }
    }
}

/// Sorts entries into sweep order.
pub(crate) fn sort_entries<R: Real>(col: &mut [Entry<R>]) {
    col.sort_unstable_by(|a, b| {
        if a.before(b) {
            core::cmp::Ordering::Less
        } else if b.before(a) {
            core::cmp::Ordering::Greater
        } else {
            core::cmp::Ordering::Equal
        }
    });
}

fn column_mut<'e, R>(
    entries: &'e mut [Entry<R>],
    starts: &[u32],
    c: usize,
) -> Option<&'e mut [Entry<R>]> {
    let lo = *starts.get(c)? as usize;
    let hi = *starts.get(c + 1)? as usize;
    entries.get_mut(lo..hi)
}

/// Fills in every entry's `reach` (running maximum of `max_s` down its
/// column); entries must already be in sweep order.
pub(crate) fn set_reach<R: Real>(entries: &mut [Entry<R>], starts: &[u32], columns: usize) {
    for c in 0..columns {
        if let Some(col) = column_mut(entries, starts, c) {
            set_reach_in(col);
        }
    }
}

/// [`set_reach`] for one column.
pub(crate) fn set_reach_in<R: Real>(col: &mut [Entry<R>]) {
    let mut reach = -R::INFINITY;
    for e in col {
        reach = reach.max(e.max_s);
        e.reach = reach;
    }
}

/// A built set of columns, read-only.
#[derive(Clone, Copy)]
pub(crate) struct Columns<'a, R> {
    pub(crate) grid: Grid<R>,
    pub(crate) entries: &'a [Entry<R>],
    /// Column offsets (`columns + 1` used); empty for a single column
    /// holding all of `entries`.
    pub(crate) starts: &'a [u32],
    /// Every geometry's filter fields, by id.
    pub(crate) keys: &'a [FilterKey],
}

impl<'a, R: Real> Columns<'a, R> {
    /// A single column (no grid): the list of large boxes.
    pub(crate) fn single(sweep: usize, entries: &'a [Entry<R>], keys: &'a [FilterKey]) -> Self {
        Self {
            grid: Grid::single(sweep),
            entries,
            starts: &[],
            keys,
        }
    }

    /// The entries of column `c`, in sweep order.
    #[inline(always)]
    pub(crate) fn column(&self, c: usize) -> &'a [Entry<R>] {
        if self.starts.is_empty() {
            return if c == 0 { self.entries } else { &[] };
        }
        match (self.starts.get(c), self.starts.get(c + 1)) {
            (Some(&lo), Some(&hi)) => self.entries.get(lo as usize..hi as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Number of columns.
    pub(crate) fn count(&self) -> usize {
        self.grid.columns()
    }

    /// Reports every pair of boxes of column `c` that overlap and whose
    /// lower corner `max(min_a, min_b)` lies in this column.
    pub(crate) fn sweep_column<S: PairSink>(&self, c: usize, filters: &Filters, sink: &mut S) {
        let dims_v = self.grid.dims[1];
        let (cu, cv) = ((c / dims_v) as u16, (c % dims_v) as u16);
        let col = self.column(c);
        for (i, a) in col.iter().enumerate() {
            for b in col.get(i + 1..).unwrap_or(&[]) {
                if b.min_s > a.max_s {
                    break;
                }
                if a.overlaps_uv(b) && a.cell_u.max(b.cell_u) == cu && a.cell_v.max(b.cell_v) == cv
                {
                    emit(
                        self.keys,
                        self.keys.get(a.id as usize),
                        a.id,
                        b.id,
                        filters,
                        sink,
                    );
                }
            }
        }
    }

    /// Reports every box of these columns that overlaps geometry `id`
    /// (which must not be listed here) and that `listed` accepts (by id),
    /// each once, by a binary search in each column it covers.
    pub(crate) fn query<S: PairSink>(
        &self,
        id: u32,
        geom: &Geom<R>,
        filters: &Filters,
        listed: impl Fn(u32) -> bool,
        sink: &mut S,
    ) {
        let cells = cells_of(&self.grid, &geom.aabb);
        let q = Entry::new(geom, id, self.grid.sweep, cells);
        let kq = self.keys.get(id as usize);
        for cu in cells[0]..=cells[1] {
            for cv in cells[2]..=cells[3] {
                let col = self.column(self.grid.column(cu, cv));
                let start = col.partition_point(|e| e.reach < q.min_s);
                for e in col.get(start..).unwrap_or(&[]) {
                    if e.min_s > q.max_s {
                        break;
                    }
                    if e.max_s >= q.min_s
                        && q.overlaps_uv(e)
                        && q.cell_u.max(e.cell_u) as usize == cu
                        && q.cell_v.max(e.cell_v) as usize == cv
                        && listed(e.id)
                    {
                        emit(self.keys, kq, id, e.id, filters, sink);
                    }
                }
            }
        }
    }
}

impl<R: Real> Columns<'_, R> {
    /// Reports every pair of a box in `queries`' column `c` (query boxes on
    /// the same grid, each column in sweep order) and a box in this column
    /// `c` (that `listed` accepts, by id) that overlap, found in this column
    /// by the corner rule. The query
    /// boxes advance a cursor through the column by galloping, so a column
    /// costs about the entries near the queries, not the whole column.
    pub(crate) fn sweep_queries<S: PairSink>(
        &self,
        queries: &Columns<'_, R>,
        c: usize,
        filters: &Filters,
        listed: impl Fn(u32) -> bool,
        sink: &mut S,
    ) {
        let dims_v = self.grid.dims[1];
        let (cu, cv) = ((c / dims_v) as u16, (c % dims_v) as u16);
        let col = self.column(c);
        let mut cursor = 0;
        for q in queries.column(c) {
            cursor = gallop(col, cursor, q.min_s);
            let Some(rest) = col.get(cursor..) else {
                break;
            };
            let kq = self.keys.get(q.id as usize);
            for e in rest {
                if e.min_s > q.max_s {
                    break;
                }
                if e.max_s >= q.min_s
                    && q.overlaps_uv(e)
                    && q.cell_u.max(e.cell_u) == cu
                    && q.cell_v.max(e.cell_v) == cv
                    && listed(e.id)
                {
                    emit(self.keys, kq, q.id, e.id, filters, sink);
                }
            }
        }
    }
}

/// The first index at or after `from` whose entry's reach is at least `x`
/// (reach is non-decreasing down a column): steps of 1, 2, 4, ... then a
/// binary search in the last step, so a small advance touches little.
#[inline(always)]
fn gallop<R: Real>(col: &[Entry<R>], from: usize, x: R) -> usize {
    let mut lo = from;
    let mut step = 1;
    // Invariant: every entry before `lo` has reach < x. The step doubles,
    // so a slice of any length is left within `usize::BITS` rounds.
    for _ in 0..usize::BITS {
        match col.get(lo + step - 1) {
            Some(e) if e.reach < x => {
                lo += step;
                step *= 2;
            }
            _ => break,
        }
    }
    let hi = (lo + step).min(col.len());
    lo + col
        .get(lo..hi)
        .map_or(0, |w| w.partition_point(|e| e.reach < x))
}

impl<R> Entry<R> {
    /// The geometry id.
    #[inline(always)]
    pub(crate) fn id(&self) -> u32 {
        self.id
    }
}
