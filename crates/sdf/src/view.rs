//! The borrowed field and its queries: no allocation, no panic.

use crate::{SdfError, SdfGrid};
use mink_support::{Aabb, Real, Vec3};

/// A signed distance field borrowed from a flat slice of samples: `Copy`,
/// no allocation, usable from `static` data (see [`SdfView::new_unchecked`]).
///
/// The samples are signed distances to the mesh's surface (meters,
/// negative inside) at the points of an [`SdfGrid`]. Between samples the
/// field is their trilinear interpolation; outside the grid's box it is the
/// distance to the box plus the interpolated value at the nearest point of
/// the box. Everything is in the mesh's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SdfView<'a, R> {
    grid: SdfGrid<R>,
    samples: &'a [R],
}

/// The field's answer at a point: signed distance (meters, negative inside)
/// and its gradient (mesh frame, about unit length away from the medial
/// axis and grid corners; zero for the non-finite fallback).
pub type DistanceGradient<R> = (R, Vec3<R>);

impl<'a, R: Real> SdfView<'a, R> {
    /// A view after checking the grid ([`SdfGrid::is_valid`], else
    /// [`SdfError::Geometry`] or [`SdfError::Dimensions`]), that there is
    /// exactly one sample per grid point ([`SdfError::Dimensions`]) and
    /// that every sample is finite ([`SdfError::NonFiniteSample`]).
    pub fn new(grid: SdfGrid<R>, samples: &'a [R]) -> Result<Self, SdfError> {
        if !grid.origin.is_finite() || !grid.cell.finite() || grid.cell <= R::ZERO {
            return Err(SdfError::Geometry);
        }
        if !grid.is_valid() || grid.sample_count() != Some(samples.len()) {
            return Err(SdfError::Dimensions);
        }
        if samples.iter().any(|s| !s.finite()) {
            return Err(SdfError::NonFiniteSample);
        }
        Ok(Self { grid, samples })
    }

    /// A view without any check, for baked `static` data. Queries on an
    /// inconsistent grid or too short a slice answer the non-finite
    /// fallback (`R::MAX`, zero gradient); they never panic.
    pub const fn new_unchecked(grid: SdfGrid<R>, samples: &'a [R]) -> Self {
        Self { grid, samples }
    }

    /// The grid.
    pub fn grid(&self) -> SdfGrid<R> {
        self.grid
    }

    /// The samples (meters, negative inside), flat index
    /// `i + dims[0] (j + dims[1] k)`.
    pub fn samples(&self) -> &'a [R] {
        self.samples
    }

    /// The box spanned by the samples, mesh frame, meters.
    pub fn aabb(&self) -> Aabb<R> {
        self.grid.aabb()
    }

    /// Bytes the samples take (`size_of::<R>()` per sample).
    pub fn sample_bytes(&self) -> usize {
        core::mem::size_of_val(self.samples)
    }

    /// The signed distance at `p` (mesh frame, meters; negative inside).
    ///
    /// Non-finite `p`, a distance that overflows, or unusable unchecked data
    /// give `R::MAX`.
    #[inline]
    pub fn distance(&self, p: Vec3<R>) -> R {
        self.distance_and_gradient(p).0
    }

    /// The gradient of [`SdfView::distance`] at `p` (mesh frame; points
    /// away from the inside, about unit length). Zero where the distance
    /// is `R::MAX`.
    #[inline]
    pub fn gradient(&self, p: Vec3<R>) -> Vec3<R> {
        self.distance_and_gradient(p).1
    }

    /// The signed distance at `p` and its gradient, in one pass.
    ///
    /// Inside the grid's box: the trilinear interpolant of the cell holding
    /// `p` and its exact gradient. Outside: with `q` the point of the box
    /// nearest to `p`, the value at `q` plus `|p - q|`; the gradient is
    /// `(p - q) / |p - q|` along the axes where `p` is outside the box and
    /// the interpolant's along the others. Non-finite `p`, overflow or
    /// unusable unchecked data give `(R::MAX, 0)`; the result is otherwise
    /// always finite.
    pub fn distance_and_gradient(&self, p: Vec3<R>) -> DistanceGradient<R> {
        let fallback = (R::MAX, Vec3::ZERO);
        let g = &self.grid;
        if !p.is_finite() || !g.is_valid() {
            return fallback;
        }
        let Some(count) = g.sample_count() else {
            return fallback;
        };
        if self.samples.len() < count {
            return fallback;
        }
        let inv = R::ONE / g.cell;
        let rel = p - g.origin;
        let mut base = [0usize; 3];
        let mut t = [R::ZERO; 3];
        let mut out = [R::ZERO; 3];
        let mut outside = [false; 3];
        for a in 0..3 {
            let hi_index = g.dims[a] - 1;
            let hi = R::lit(f64::from(hi_index));
            let f = rel.get(a) * inv;
            let fc = if f > hi {
                hi
            } else if f >= R::ZERO {
                f
            } else {
                R::ZERO
            };
            if fc != f {
                outside[a] = true;
                out[a] = rel.get(a) - fc * g.cell;
            }
            let fl = fc.floor();
            let mut i = if fl.finite() { fl.to_f64() as u32 } else { 0 };
            if i >= hi_index {
                i = hi_index - 1;
            }
            base[a] = i as usize;
            t[a] = fc - R::lit(f64::from(i));
        }
        let (nx, ny) = (g.dims[0] as usize, g.dims[1] as usize);
        let at = |dx: usize, dy: usize, dz: usize| -> R {
            let idx = (base[0] + dx) + nx * ((base[1] + dy) + ny * (base[2] + dz));
            self.samples.get(idx).copied().unwrap_or(R::MAX)
        };
        let c = [
            [[at(0, 0, 0), at(0, 0, 1)], [at(0, 1, 0), at(0, 1, 1)]],
            [[at(1, 0, 0), at(1, 0, 1)], [at(1, 1, 0), at(1, 1, 1)]],
        ];
        let [tx, ty, tz] = t;
        let lerp = |a: R, b: R, s: R| a + (b - a) * s;
        // Along z, then y, then x; the partials differentiate one stage.
        let mut cz = [[R::ZERO; 2]; 2];
        let mut dz = [[R::ZERO; 2]; 2];
        for i in 0..2 {
            for j in 0..2 {
                cz[i][j] = lerp(c[i][j][0], c[i][j][1], tz);
                dz[i][j] = c[i][j][1] - c[i][j][0];
            }
        }
        let cy = [lerp(cz[0][0], cz[0][1], ty), lerp(cz[1][0], cz[1][1], ty)];
        let dy = [cz[0][1] - cz[0][0], cz[1][1] - cz[1][0]];
        let dzy = [lerp(dz[0][0], dz[0][1], ty), lerp(dz[1][0], dz[1][1], ty)];
        let value = lerp(cy[0], cy[1], tx);
        let mut grad = Vec3::new(
            (cy[1] - cy[0]) * inv,
            lerp(dy[0], dy[1], tx) * inv,
            lerp(dzy[0], dzy[1], tx) * inv,
        );
        let mut dist = value;
        let off = Vec3::new(out[0], out[1], out[2]);
        let m = off.max_abs();
        // `m` is 0 when `p` is outside by less than the rounding of the
        // clamp: then it is on the box.
        if m > R::ZERO {
            let scaled = Vec3::new(off.x / m, off.y / m, off.z / m);
            let len = m * scaled.norm();
            let unit = scaled * (R::ONE / scaled.norm());
            dist = value + len;
            for a in 0..3 {
                if outside[a] {
                    match a {
                        0 => grad.x = unit.x,
                        1 => grad.y = unit.y,
                        _ => grad.z = unit.z,
                    }
                }
            }
        }
        if !dist.finite() || !grad.is_finite() {
            return fallback;
        }
        (dist, grad)
    }
}
