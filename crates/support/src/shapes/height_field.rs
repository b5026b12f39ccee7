//! A height field: a grid of heights borrowed from a slice, seen as a
//! solid terrain made of [`TerrainPrism`]s.

use crate::shapes::triangle::TRIANGLE_DEGENERACY_ULPS;
use crate::{Aabb, Real, ShapeError, TerrainPrism, Vec3};
use core::ops::Range;

/// The constructor refuses a grid whose cells would make prisms this many
/// times closer to degenerate than [`TerrainPrism::new`] accepts (so every
/// cell of an accepted field always gives its two prisms).
const CELL_DEGENERACY_FACTOR: f64 = 2.0;

/// A terrain given as a grid of heights (meters, local `z` up), borrowed
/// from a row-major slice: sample `(i, j)` is `heights[j * nx + i]`, at the
/// local point `(i * dx, j * dy, heights[j * nx + i])`.
///
/// The grid's origin is its first sample: it covers
/// `[0, (nx - 1) dx] × [0, (ny - 1) dy]` in the local xy plane (place it
/// with the pose; a centred grid is a pose translated by half its size).
/// Cell `(i, j)` (`i < nx - 1`, `j < ny - 1`) is the rectangle between
/// samples `(i, j)` and `(i + 1, j + 1)`, split along the diagonal from
/// sample `(i, j)` to sample `(i + 1, j + 1)` into two triangles, as
/// [`TerrainPrism::cell`] does. The terrain is the union of the prisms under
/// those triangles, down to [`HeightField::base`] =
/// `min_height - thickness`: a solid whose top surface is the triangles.
///
/// It borrows its heights and is `Copy`, so it can be `static` data. It is
/// not convex and does not implement [`Support`](crate::Support): contact
/// routines visit its cells ([`HeightField::cell_range`]) and work on their
/// prisms ([`HeightField::cell_prisms`]), which are convex.
///
/// ```
/// use mink_support::{Aabb, HeightField, Vec3};
///
/// // 3 × 2 samples, 0.5 m apart along x, 1 m along y, 1 m thick.
/// let heights = [0.0_f64, 0.1, 0.2, 0.3, 0.4, 0.5];
/// let field = HeightField::new(&heights, 3, 2, 0.5, 1.0, 1.0).unwrap();
/// assert_eq!(field.height(2, 1), Some(0.5));
/// assert_eq!(field.base(), -1.0);
/// // The cells under a box around (0.7, 0.5): only cell (1, 0).
/// let probe = Aabb::new(Vec3::new(0.6, 0.2, 0.0), Vec3::new(0.8, 0.8, 0.5));
/// assert_eq!(field.cell_range(&probe), (1..2, 0..1));
/// // Its two prisms: the top of the first holds samples (1,0), (2,0), (2,1).
/// let [first, _] = field.cell_prisms(1, 0).unwrap();
/// assert_eq!(first.top()[1], Vec3::new(1.0, 0.0, 0.2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeightField<'a, R> {
    heights: &'a [R],
    nx: usize,
    ny: usize,
    dx: R,
    dy: R,
    thickness: R,
    min_height: R,
    max_height: R,
}

impl<'a, R: Real> HeightField<'a, R> {
    /// The height field of `nx × ny` samples `heights` (row-major, x
    /// fastest: sample `(i, j)` is `heights[j * nx + i]`, meters), spaced
    /// `dx` along local x and `dy` along local y (meters), solid down to
    /// `thickness` meters below its lowest sample.
    ///
    /// Refuses fewer than 2 samples along an axis
    /// ([`ShapeError::TooFewPoints`], `needed: 2`, `given` the smaller of
    /// `nx` and `ny`), a slice whose length is not `nx * ny`
    /// ([`ShapeError::Inconsistent`]), a non-finite height, spacing or
    /// thickness ([`ShapeError::NonFinite`]), a spacing or thickness that is
    /// not positive ([`ShapeError::NonPositive`]), and, as
    /// [`ShapeError::Degenerate`], a grid whose extent or depth overflows,
    /// whose cells are too thin for their triangles to have a trustworthy
    /// area (an aspect ratio beyond about `1 / (32 ε)`), or whose thickness
    /// vanishes in rounding next to its heights. An accepted field gives
    /// valid prisms for every cell.
    pub fn new(
        heights: &'a [R],
        nx: usize,
        ny: usize,
        dx: R,
        dy: R,
        thickness: R,
    ) -> Result<Self, ShapeError> {
        if nx < 2 || ny < 2 {
            return Err(ShapeError::TooFewPoints {
                needed: 2,
                given: nx.min(ny),
            });
        }
        if nx.checked_mul(ny) != Some(heights.len()) {
            return Err(ShapeError::Inconsistent(
                "height field: heights.len() differs from nx * ny",
            ));
        }
        let dx = crate::error::positive(dx, "height field spacing dx")?;
        let dy = crate::error::positive(dy, "height field spacing dy")?;
        let thickness = crate::error::positive(thickness, "height field thickness")?;
        let (mut min_height, mut max_height) = (R::INFINITY, -R::INFINITY);
        for &h in heights {
            if !h.finite() {
                return Err(ShapeError::NonFinite("height field height"));
            }
            min_height = min_height.min_of(h);
            max_height = max_height.max_of(h);
        }
        let field = Self {
            heights,
            nx,
            ny,
            dx,
            dy,
            thickness,
            min_height,
            max_height,
        };
        let base = field.base();
        let far = Vec3::new(
            field.sample_x(nx - 1),
            field.sample_y(ny - 1),
            max_height - base,
        );
        if !far.is_finite() {
            return Err(ShapeError::Degenerate("height field extent overflows"));
        }
        // Written so that a NaN also refuses.
        let thick = base < min_height;
        if !thick {
            return Err(ShapeError::Degenerate(
                "height field thickness lost in rounding",
            ));
        }
        if !field.cells_have_area() {
            return Err(ShapeError::Degenerate("height field cells too thin"));
        }
        Ok(field)
    }

    /// Every cell's triangles pass [`TerrainPrism::new`]'s area test with a
    /// factor [`CELL_DEGENERACY_FACTOR`] to spare: with the narrowest and
    /// widest rounded cell sides along each axis, the thinnest triangle's
    /// twice-area `wx · wy` must exceed the limit on its longest edge.
    fn cells_have_area(&self) -> bool {
        let (wx_lo, wx_hi) = width_range(self.nx, |i| self.sample_x(i));
        let (wy_lo, wy_hi) = width_range(self.ny, |j| self.sample_y(j));
        let limit = R::EPSILON
            * R::lit(TRIANGLE_DEGENERACY_ULPS * CELL_DEGENERACY_FACTOR)
            * (wx_hi * wx_hi + wy_hi * wy_hi);
        wx_lo > R::ZERO && wy_lo > R::ZERO && wx_lo * wy_lo > limit
    }

    /// Samples along local x (at least 2).
    #[inline(always)]
    pub fn nx(&self) -> usize {
        self.nx
    }

    /// Samples along local y (at least 2).
    #[inline(always)]
    pub fn ny(&self) -> usize {
        self.ny
    }

    /// Sample spacing along local x (meters, positive).
    #[inline(always)]
    pub fn dx(&self) -> R {
        self.dx
    }

    /// Sample spacing along local y (meters, positive).
    #[inline(always)]
    pub fn dy(&self) -> R {
        self.dy
    }

    /// The heights, row-major as given.
    #[inline(always)]
    pub fn heights(&self) -> &'a [R] {
        self.heights
    }

    /// How far the solid reaches below the lowest sample (meters).
    #[inline(always)]
    pub fn thickness(&self) -> R {
        self.thickness
    }

    /// The lowest sample height (meters, local z).
    #[inline(always)]
    pub fn min_height(&self) -> R {
        self.min_height
    }

    /// The highest sample height (meters, local z).
    #[inline(always)]
    pub fn max_height(&self) -> R {
        self.max_height
    }

    /// The height of the prisms' common base, `min_height - thickness`
    /// (meters, local z).
    #[inline(always)]
    pub fn base(&self) -> R {
        self.min_height - self.thickness
    }

    /// The number of cells along x and y, `(nx - 1, ny - 1)`.
    #[inline(always)]
    pub fn cell_counts(&self) -> (usize, usize) {
        (self.nx - 1, self.ny - 1)
    }

    /// The local x of sample column `i`, `i · dx` (meters; any `i`, also
    /// past the grid).
    #[inline(always)]
    pub fn sample_x(&self, i: usize) -> R {
        R::lit(i as f64) * self.dx
    }

    /// The local y of sample row `j`, `j · dy` (meters; any `j`).
    #[inline(always)]
    pub fn sample_y(&self, j: usize) -> R {
        R::lit(j as f64) * self.dy
    }

    /// The height of sample `(i, j)` (meters), `None` outside the grid.
    #[inline]
    pub fn height(&self, i: usize, j: usize) -> Option<R> {
        if i < self.nx && j < self.ny {
            self.heights.get(j * self.nx + i).copied()
        } else {
            None
        }
    }

    /// The local point of sample `(i, j)`, `None` outside the grid.
    #[inline]
    pub fn sample(&self, i: usize, j: usize) -> Option<Vec3<R>> {
        let h = self.height(i, j)?;
        Some(Vec3::new(self.sample_x(i), self.sample_y(j), h))
    }

    /// The box of the whole solid in the local frame: the grid's xy extent,
    /// from [`HeightField::base`] to [`HeightField::max_height`].
    pub fn local_aabb(&self) -> Aabb<R> {
        Aabb::new(
            Vec3::new(R::ZERO, R::ZERO, self.base()),
            Vec3::new(
                self.sample_x(self.nx - 1),
                self.sample_y(self.ny - 1),
                self.max_height,
            ),
        )
    }

    /// The cells whose closed rectangles meet the local box `aabb` in x and
    /// y, as column and row ranges `(i0..i1, j0..j1)` clamped to the grid.
    /// Both ranges are empty when the box misses the grid's footprint, lies
    /// entirely above [`HeightField::max_height`] or below
    /// [`HeightField::base`], is empty, or has a NaN bound.
    pub fn cell_range(&self, aabb: &Aabb<R>) -> (Range<usize>, Range<usize>) {
        let none = (0..0, 0..0);
        let z_overlaps = aabb.min.z <= self.max_height && aabb.max.z >= self.base();
        if aabb.is_empty() || !z_overlaps {
            return none;
        }
        let (cx, cy) = self.cell_counts();
        let xs = axis_range(aabb.min.x, aabb.max.x, self.dx, cx, |k| self.sample_x(k));
        let ys = axis_range(aabb.min.y, aabb.max.y, self.dy, cy, |k| self.sample_y(k));
        if xs.is_empty() || ys.is_empty() {
            return none;
        }
        (xs, ys)
    }

    /// The two prisms of cell `(i, j)`, as [`TerrainPrism::cell`] splits
    /// it (along the diagonal from sample `(i, j)` to `(i + 1, j + 1)`; the
    /// first prism holds samples `(i, j)`, `(i + 1, j)`, `(i + 1, j + 1)`,
    /// the second `(i, j)`, `(i + 1, j + 1)`, `(i, j + 1)`), down to
    /// [`HeightField::base`]. `None` for a cell outside the grid.
    pub fn cell_prisms(&self, i: usize, j: usize) -> Option<[TerrainPrism<R>; 2]> {
        let (cx, cy) = self.cell_counts();
        if i >= cx || j >= cy {
            return None;
        }
        let (x0, y0) = (self.sample_x(i), self.sample_y(j));
        let heights = [
            self.height(i, j)?,
            self.height(i + 1, j)?,
            self.height(i, j + 1)?,
            self.height(i + 1, j + 1)?,
        ];
        // The sides are differences of the sample coordinates, so that
        // neighbouring cells share their vertices bit for bit.
        let (w, h) = (self.sample_x(i + 1) - x0, self.sample_y(j + 1) - y0);
        let [a, b] = TerrainPrism::cell(x0, y0, w, h, heights, self.base()).ok()?;
        Some([a, b])
    }
}

/// The cells `k` in `0..count` whose closed interval `[at(k), at(k + 1)]`
/// meets `[lo, hi]`: a first guess by division, then corrected against the
/// exact test (at most a step or two each way), so it agrees with
/// `at(k) <= hi && at(k + 1) >= lo` bit for bit.
fn axis_range<R: Real>(
    lo: R,
    hi: R,
    spacing: R,
    count: usize,
    at: impl Fn(usize) -> R,
) -> Range<usize> {
    let ordered = lo <= hi; // false for a NaN bound
    if !ordered || hi < at(0) || lo > at(count) {
        return 0..0;
    }
    // `as usize` saturates (and maps NaN to 0); clamp to the grid first.
    let guess = |v: R| {
        let k = (v / spacing).floor().to_f64();
        k.max(0.0).min(count as f64) as usize
    };
    let mut first = guess(lo).min(count - 1);
    while first > 0 && at(first) >= lo {
        first -= 1;
    }
    while first < count && at(first + 1) < lo {
        first += 1;
    }
    let mut end = guess(hi).min(count - 1) + 1;
    while end < count && at(end) <= hi {
        end += 1;
    }
    while end > first && at(end - 1) > hi {
        end -= 1;
    }
    first..end
}

/// The narrowest and widest rounded gap `at(k + 1) - at(k)` between
/// consecutive samples of `count` (at least 2).
fn width_range<R: Real>(count: usize, at: impl Fn(usize) -> R) -> (R, R) {
    let (mut lo, mut hi) = (R::INFINITY, R::ZERO);
    for k in 0..count.saturating_sub(1) {
        let w = at(k + 1) - at(k);
        lo = lo.min_of(w);
        hi = hi.max_of(w);
    }
    (lo, hi)
}
