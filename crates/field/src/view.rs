//! A support field over one mesh, borrowed: the O(1) query.

use crate::grid::{bracket, cell_coords, cell_coords_libm, GridScale};
use crate::store::CellStore;
use crate::{FieldError, MAX_RESOLUTION, MIN_RESOLUTION};
use mink_support::{Real, Vec3};

/// Relative tolerance for counting tied vertices, in units of
/// [`Real::EPSILON`]: two cells tie when their support values differ by at
/// most `TIE_EPSILONS · ε · m`, `m` the largest coordinate magnitude among
/// the four candidates (the query direction is pre-scaled to a largest
/// component of 1, so this covers the rounding of a three-term dot product
/// with margin). Typical value: `16 · ε`, `1.9e-6 · m` in `f32`.
pub const TIE_EPSILONS: f64 = 16.0;

/// The answer of a field query.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FieldHit<R> {
    /// Index of the winning vertex in the mesh (always below the mesh's
    /// vertex count).
    pub index: u32,
    /// Its position, in the mesh's local frame (meters).
    pub point: Vec3<R>,
    /// How many distinct vertices among the four bracketing cells tie for
    /// the best support value (within [`TIE_EPSILONS`]); `1` for a clear
    /// winner. GJK can perturb its direction when this exceeds 1.
    pub ties: u32,
}

/// A support field over one mesh: `res × res` cells in Genesis' layout
/// ([`crate::grid`]), read through a [`CellStore`] (full or compact layout,
/// static data, a blob).
///
/// Queries are `O(1)` in the vertex count: four cells, one of which is
/// returned. The answer is approximate; see
/// [`angular_error_bound`](crate::grid::angular_error_bound) for its bound
/// and [`FieldView::query_exact`] for the exact answer.
#[derive(Clone, Copy, Debug)]
pub struct FieldView<R, C> {
    res: u32,
    pub(crate) scale: GridScale<R>,
    cells: C,
}

impl<R: Real, C: CellStore<R>> FieldView<R, C> {
    /// A field of resolution `res` over `cells`.
    ///
    /// Refuses a resolution outside `MIN_RESOLUTION..=MAX_RESOLUTION` and a
    /// cell count other than `res²`.
    pub fn new(res: u32, cells: C) -> Result<Self, FieldError> {
        if !(MIN_RESOLUTION..=MAX_RESOLUTION).contains(&res) {
            return Err(FieldError::Resolution(res));
        }
        if cells.cell_count() != (res as usize) * (res as usize) {
            return Err(FieldError::Length("cells (must be res²)"));
        }
        Ok(Self {
            res,
            scale: GridScale::new(res),
            cells,
        })
    }

    /// A field whose resolution and cell count are known to be valid.
    #[inline]
    pub(crate) fn new_unchecked(res: u32, cells: C) -> Self {
        Self {
            res,
            scale: GridScale::new(res),
            cells,
        }
    }

    /// The resolution (cells per angle).
    #[inline]
    pub fn res(&self) -> u32 {
        self.res
    }

    /// The cell storage.
    #[inline]
    pub fn cells(&self) -> &C {
        &self.cells
    }

    /// Number of vertices of the mesh.
    #[inline]
    pub fn vertex_count(&self) -> u32 {
        self.cells.vertex_count()
    }

    /// The support of the mesh along `dir` (local frame, need not be unit):
    /// the best of the four cells bracketing `dir`, `O(1)`.
    ///
    /// A zero `dir` answers with a vertex of the north-pole cells (every
    /// vertex is a support of the zero direction). A non-finite `dir` is
    /// refused with [`FieldError::NonFiniteDirection`].
    #[inline]
    pub fn query(&self, dir: Vec3<R>) -> Result<FieldHit<R>, FieldError> {
        let d = prescale(dir)?;
        let (u, v) = cell_coords(d, &self.scale);
        Ok(self.best_of(d, bracket(u, v, self.res)))
    }

    /// [`FieldView::query`] with Genesis' cell computation (library `atan2`
    /// and `acos`) instead of the polynomial one: the reference for
    /// measuring the cheaper computation. Same contract.
    #[inline]
    pub fn query_libm(&self, dir: Vec3<R>) -> Result<FieldHit<R>, FieldError> {
        let d = prescale(dir)?;
        let (u, v) = cell_coords_libm(d, &self.scale);
        Ok(self.best_of(d, bracket(u, v, self.res)))
    }

    /// The winning vertex of flat cell `k = i · res + j`; `None` out of
    /// range.
    #[inline]
    pub fn cell(&self, k: usize) -> Option<(u32, Vec3<R>)> {
        self.cells.cell(k)
    }

    /// The best of four cells along the pre-scaled `d`, with the tie count.
    #[inline(always)]
    pub(crate) fn best_of(&self, d: Vec3<R>, cells: [u32; 4]) -> FieldHit<R> {
        // Stores validate their indices, so `cell` never fails on a bracket;
        // the fallback only keeps a foreign store's `None` from panicking.
        let c = cells.map(|k| self.cells.cell(k as usize).unwrap_or((0, Vec3::ZERO)));
        let s = c.map(|(_, p)| d.dot(p));
        let mut b = 0;
        for a in 1..4 {
            if s[a] > s[b] {
                b = a;
            }
        }
        let mag = c.iter().fold(R::ZERO, |m, (_, p)| m.max_of(p.max_abs()));
        let threshold = s[b] - R::lit(TIE_EPSILONS) * R::EPSILON * mag;
        let mut ties = 0;
        for a in 0..4 {
            let distinct = !c[..a].iter().any(|e| e.0 == c[a].0);
            if distinct && s[a] >= threshold {
                ties += 1;
            }
        }
        FieldHit {
            index: c[b].0,
            point: c[b].1,
            ties: ties.max(1),
        }
    }
}

/// Scales `dir` (any frame) so that its largest component has magnitude 1 (keeps dot
/// products and the cell computation free of overflow and underflow); zero
/// stays zero; non-finite is refused.
#[inline(always)]
pub fn prescale<R: Real>(dir: Vec3<R>) -> Result<Vec3<R>, FieldError> {
    let m = dir.max_abs();
    if !m.finite() || !dir.is_finite() {
        return Err(FieldError::NonFiniteDirection);
    }
    if m <= R::ZERO {
        return Ok(Vec3::ZERO);
    }
    let inv = R::ONE / m;
    if inv.finite() {
        Ok(dir * inv)
    } else {
        Ok(Vec3::new(dir.x / m, dir.y / m, dir.z / m))
    }
}
