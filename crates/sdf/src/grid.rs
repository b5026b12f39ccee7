//! The regular grid a field is sampled on.

use mink_support::{Aabb, Real, Vec3};

/// A regular grid of `dims[0] × dims[1] × dims[2]` sample points in the
/// mesh's frame: point `(i, j, k)` is at `origin + cell · (i, j, k)`
/// (meters), and its sample is at flat index `i + dims[0] (j + dims[1] k)`.
///
/// Plain data, so a baked grid can be a `static`;
/// [`SdfView::new`](crate::SdfView::new) checks it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct SdfGrid<R> {
    /// The position of sample `(0, 0, 0)`, mesh frame, meters.
    pub origin: Vec3<R>,
    /// The spacing between neighbouring samples, meters (`> 0`).
    pub cell: R,
    /// Samples along x, y and z (each `>= 2`).
    pub dims: [u32; 3],
}

impl<R: Real> SdfGrid<R> {
    /// The number of samples, `None` when it overflows `usize`.
    pub fn sample_count(&self) -> Option<usize> {
        (self.dims[0] as usize)
            .checked_mul(self.dims[1] as usize)?
            .checked_mul(self.dims[2] as usize)
    }

    /// The box spanned by the samples, mesh frame, meters.
    pub fn aabb(&self) -> Aabb<R> {
        let span = |d: u32| R::lit(f64::from(d.max(1) - 1)) * self.cell;
        let max =
            self.origin + Vec3::new(span(self.dims[0]), span(self.dims[1]), span(self.dims[2]));
        Aabb::new(self.origin, max)
    }

    /// The position of sample `(i, j, k)`, mesh frame, meters.
    #[inline]
    pub fn point(&self, i: u32, j: u32, k: u32) -> Vec3<R> {
        let f = |n: u32| R::lit(f64::from(n)) * self.cell;
        self.origin + Vec3::new(f(i), f(j), f(k))
    }

    /// `true` when the grid is usable: finite origin, finite positive cell,
    /// at least 2 samples per axis and a sample count within `usize`.
    pub fn is_valid(&self) -> bool {
        self.origin.is_finite()
            && self.cell.finite()
            && self.cell > R::ZERO
            && self.dims.iter().all(|&d| d >= 2)
            && self.sample_count().is_some()
            && self.aabb().max.is_finite()
    }
}
