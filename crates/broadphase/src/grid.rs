//! The grid of columns: the sweep axis, and the two other axes cut into cells.
//!
//! A single sweep along one axis over boxes spread in 3D tests every pair
//! whose intervals overlap on that axis: with `N` boxes in a cube, each
//! overlapping a few others, that is about `N^(2/3)` interval overlaps per box
//! (thousands at `N = 100,000` for three real ones). So the plane across the
//! sweep axis is cut into a grid of cells about the size of a typical box;
//! each cell's column is swept on its own, and a box that straddles cells is
//! listed in each (at most [`MAX_SPAN_CELLS`] per axis; larger boxes go to a
//! separate list). A pair found in several columns is reported only in the
//! one holding the corner `max(min_a, min_b)` of the two boxes, i.e. the
//! column `(max(cell_u(a.min), cell_u(b.min)), max(cell_v(a.min),
//! cell_v(b.min)))`, since the cell function is monotone.

use mink_support::{Aabb, Real};

/// A box listed in more than this many cells along a grid axis goes to the
/// list of large boxes instead of the columns.
pub const MAX_SPAN_CELLS: usize = 2;

/// The cell width, as a multiple of the median box width along that axis.
/// About 2: a median box straddles at most two cells per axis, and a column
/// holds only a few boxes per box length along the sweep axis.
pub const CELL_WIDTH_PER_MEDIAN_BOX: f64 = 2.0;

/// At most this many cells along one grid axis (cells are packed in 16 bits).
pub const MAX_CELLS_PER_AXIS: usize = 1024;

/// At least this many boxes per column on average: finer grids only add
/// empty columns to walk.
pub const MIN_BOXES_PER_COLUMN: usize = 2;

/// How many box widths are sampled (evenly through the set) to estimate the
/// median width.
pub const WIDTH_SAMPLES: usize = 127;

/// The sweep axis changes only when another axis' spread of box centres
/// (variance) exceeds the current one's by this factor, so that a scene with
/// two equal spreads does not flip axes (and re-sort fully) every frame.
pub const AXIS_SWITCH_RATIO: f64 = 1.5;

/// The axis order for a sweep axis: `[s, u, v]`.
#[inline(always)]
pub(crate) fn axes(sweep: usize) -> [usize; 3] {
    match sweep {
        0 => [0, 1, 2],
        1 => [1, 2, 0],
        _ => [2, 0, 1],
    }
}

/// Running statistics of a set of boxes, to choose a sweep axis and a grid.
pub(crate) struct GridStats<R> {
    count: usize,
    reference: [R; 3],
    sum: [R; 3],
    sum_sq: [R; 3],
    min_lo: [R; 3],
    max_lo: [R; 3],
    widths: [[R; WIDTH_SAMPLES]; 3],
    n_widths: usize,
    stride: usize,
    /// Boxes to skip before the next width sample.
    countdown: usize,
}

impl<R: Real> GridStats<R> {
    /// Statistics for a set of at most `capacity` boxes.
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            count: 0,
            reference: [R::ZERO; 3],
            sum: [R::ZERO; 3],
            sum_sq: [R::ZERO; 3],
            min_lo: [R::INFINITY; 3],
            max_lo: [-R::INFINITY; 3],
            widths: [[R::ZERO; WIDTH_SAMPLES]; 3],
            n_widths: 0,
            stride: capacity / WIDTH_SAMPLES + 1,
            countdown: 0,
        }
    }

    /// Adds a box (one of at most `capacity`).
    #[inline(always)]
    pub(crate) fn add(&mut self, aabb: &Aabb<R>) {
        let lo = aabb.min.to_array();
        let hi = aabb.max.to_array();
        if self.count == 0 {
            for k in 0..3 {
                self.reference[k] = (lo[k] + hi[k]) * R::HALF;
            }
        }
        self.count += 1;
        for k in 0..3 {
            // Centres relative to the first one, against cancellation in f32.
            let c = (lo[k] + hi[k]) * R::HALF - self.reference[k];
            self.sum[k] += c;
            self.sum_sq[k] += c * c;
            self.min_lo[k] = self.min_lo[k].min(lo[k]);
            self.max_lo[k] = self.max_lo[k].max(lo[k]);
        }
        if self.countdown == 0 && self.n_widths < WIDTH_SAMPLES {
            for k in 0..3 {
                self.widths[k][self.n_widths] = hi[k] - lo[k];
            }
            self.n_widths += 1;
            self.countdown = self.stride;
        }
        self.countdown = self.countdown.saturating_sub(1);
    }

    /// The axis with the greatest variance of box centres, keeping `current`
    /// unless another beats it by [`AXIS_SWITCH_RATIO`].
    pub(crate) fn sweep_axis(&self, current: Option<usize>) -> usize {
        let n = R::lit(self.count.max(1) as f64);
        let var = |k: usize| {
            let mean = self.sum[k] / n;
            self.sum_sq[k] / n - mean * mean
        };
        let mut best = 0;
        for k in 1..3 {
            if var(k) > var(best) {
                best = k;
            }
        }
        match current {
            Some(c) if c < 3 && var(best) <= var(c) * R::lit(AXIS_SWITCH_RATIO) => c,
            _ => best,
        }
    }

    /// The grid across `sweep` for this set, with at most `max_columns`
    /// columns (at least 1).
    pub(crate) fn grid(&mut self, sweep: usize, max_columns: usize) -> Grid<R> {
        let [_, u, v] = axes(sweep);
        let limit = (self.count / MIN_BOXES_PER_COLUMN).min(max_columns).max(1);
        let mut dims = [1usize; 2];
        let mut inv = [R::ZERO; 2];
        let mut origin = [R::ZERO; 2];
        for (slot, k) in [u, v].into_iter().enumerate() {
            if self.count == 0 {
                continue;
            }
            origin[slot] = self.min_lo[k];
            let range = self.max_lo[k] - self.min_lo[k];
            let samples = &mut self.widths[k][..self.n_widths];
            let median = if samples.is_empty() {
                R::ZERO
            } else {
                let mid = samples.len() / 2;
                samples.select_nth_unstable_by(mid, |a, b| {
                    a.partial_cmp(b).unwrap_or(core::cmp::Ordering::Equal)
                });
                samples[mid]
            };
            let cell = median * R::lit(CELL_WIDTH_PER_MEDIAN_BOX);
            let wanted = if range > R::ZERO && cell > R::ZERO {
                (range / cell).ceil().to_f64()
            } else if range > R::ZERO {
                MAX_CELLS_PER_AXIS as f64
            } else {
                1.0
            };
            // Saturating float-to-int conversion; NaN gives 0.
            dims[slot] = (wanted as usize).clamp(1, MAX_CELLS_PER_AXIS);
        }
        // Coarsen both axes evenly until the grid fits the column budget.
        let mut guard = 0;
        while dims[0] * dims[1] > limit && guard < MAX_GRID_COARSENINGS {
            let scale = libm_sqrt::<R>(limit as f64 / (dims[0] * dims[1]) as f64);
            dims[0] = ((dims[0] as f64 * scale) as usize).max(1);
            dims[1] = ((dims[1] as f64 * scale) as usize).max(1);
            guard += 1;
        }
        if dims[0] * dims[1] > limit {
            // Only reached if the rounding above stalls: one column always
            // fits (slower, never wrong).
            dims = [1, 1];
        }
        for (slot, k) in [u, v].into_iter().enumerate() {
            let range = self.max_lo[k] - self.min_lo[k];
            inv[slot] = if dims[slot] > 1 && range > R::ZERO {
                R::lit(dims[slot] as f64) / range
            } else {
                dims[slot] = 1;
                R::ZERO
            };
        }
        Grid {
            sweep,
            dims,
            inv,
            origin,
        }
    }
}

/// Coarsening rounds before falling back to halving (each round lands within
/// rounding of the budget, so two suffice in practice).
const MAX_GRID_COARSENINGS: usize = 4;

fn libm_sqrt<R: Real>(x: f64) -> f64 {
    R::lit(x).sqrt().to_f64()
}

/// A grid of columns across a sweep axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Grid<R> {
    /// The sweep axis (0, 1, 2 for x, y, z).
    pub(crate) sweep: usize,
    /// Cells along the two grid axes `u`, `v`.
    pub(crate) dims: [usize; 2],
    /// Cells per meter along `u`, `v` (0 for a single cell).
    pub(crate) inv: [R; 2],
    /// The lower edge of cell 0 along `u`, `v`.
    pub(crate) origin: [R; 2],
}

impl<R: Real> Grid<R> {
    /// The one-column grid (for the list of large boxes).
    pub(crate) fn single(sweep: usize) -> Self {
        Self {
            sweep,
            dims: [1, 1],
            inv: [R::ZERO; 2],
            origin: [R::ZERO; 2],
        }
    }

    /// Number of columns.
    #[inline(always)]
    pub(crate) fn columns(&self) -> usize {
        self.dims[0] * self.dims[1]
    }

    /// The cell of coordinate `x` along grid axis `slot`: monotone
    /// non-decreasing in `x`, clamped to the grid.
    #[inline(always)]
    pub(crate) fn cell(&self, slot: usize, x: R) -> usize {
        let t = ((x - self.origin[slot]) * self.inv[slot]).to_f64();
        if t > 0.0 {
            (t as usize).min(self.dims[slot] - 1)
        } else {
            0
        }
    }

    /// The column index of cells `(cu, cv)`.
    #[inline(always)]
    pub(crate) fn column(&self, cu: usize, cv: usize) -> usize {
        cu * self.dims[1] + cv
    }
}
