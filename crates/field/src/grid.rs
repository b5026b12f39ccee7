//! The latitude–longitude grid of sample directions, and the inverse map
//! from a direction to continuous cell coordinates.
//!
//! The layout is Genesis': cell `(i, j)` of a field of resolution `res`
//! samples the unit direction at
//!
//! ```text
//! θ = i / res · 2π − π   ∈ [−π, π)     (longitude, about +z)
//! φ = j / res · π        ∈ [0, π)      (colatitude, from +z)
//! d = (sin φ cos θ, sin φ sin θ, cos φ)
//! ```
//!
//! and is stored at flat index `i · res + j` (θ-major). A field built here
//! and one built by Genesis at the same resolution are interchangeable.
//!
//! The inverse map needs `θ = atan2(y, x)` and `φ = acos(z / |d|)`. Library
//! `atan2`/`acos` dominate the cost of a field query, so [`cell_coords`]
//! uses `φ = atan2(√(x² + y²), z)` (no `acos`), a half-angle form of
//! `atan2` with a single select (no unpredictable octant branches), and a
//! five-term odd polynomial for the arctangent, whose angle error is at most
//! [`LOCATE_MAX_ERROR`]; [`cell_coords_libm`] is the reference with the
//! library functions, for measurement. The query only needs the cell
//! coordinates to pick four bracketing cells, so a tiny angle error widens
//! the documented error bound by that angle and nothing else.

use mink_support::{Real, Vec3};

/// The default resolution: `180 × 180 = 32,400` cells, as in Genesis.
pub const DEFAULT_RESOLUTION: u32 = 180;

/// The smallest resolution accepted: `8 × 8` cells (below it the error
/// bound of [`angular_error_bound`] does not hold near −z).
pub const MIN_RESOLUTION: u32 = 8;

/// The largest resolution accepted: `4096 × 4096` cells (16.7 M cells, a
/// flat cell index still fits a `u32` with room for many meshes).
pub const MAX_RESOLUTION: u32 = 4096;

/// Largest angle error (radians) of [`cell_coords`]' angles, with margin
/// for rounding in `f32`: the polynomial is within `1.0e-5` rad of `atan`
/// on `[-1, 1]` (Abramowitz & Stegun 4.4.47) and the half-angle form
/// doubles it.
pub const LOCATE_MAX_ERROR: f64 = 3.0e-5;

// Abramowitz & Stegun 4.4.47: atan(t) ≈ t·(A1 + A3 t² + A5 t⁴ + A7 t⁶ + A9 t⁸)
// for |t| ≤ 1, absolute error ≤ 1e-5 rad.
const ATAN_A1: f64 = 0.999_866_0;
const ATAN_A3: f64 = -0.330_299_5;
const ATAN_A5: f64 = 0.180_141_0;
const ATAN_A7: f64 = -0.085_133_0;
const ATAN_A9: f64 = 0.020_835_1;

/// The unit direction sampled by cell `(i, j)` of a field of resolution
/// `res` (Genesis' mapping, see the module docs), computed in `f64`.
///
/// `i` and `j` are taken modulo nothing: values `>= res` give the direction
/// the formula gives (outside the sampled range for `j`).
pub fn cell_direction(res: u32, i: u32, j: u32) -> Vec3<f64> {
    let r = f64::from(res.max(1));
    let theta = f64::from(i) / r * 2.0 * core::f64::consts::PI - core::f64::consts::PI;
    let phi = f64::from(j) / r * core::f64::consts::PI;
    let (sp, cp) = (num_traits::Float::sin(phi), num_traits::Float::cos(phi));
    let (st, ct) = (num_traits::Float::sin(theta), num_traits::Float::cos(theta));
    Vec3::new(sp * ct, sp * st, cp)
}

/// Scale factors from angles to cell coordinates, precomputed per field:
/// `u = (θ + π) · res / 2π`, `v = φ · res / π`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct GridScale<R> {
    /// `res / 2π` (cells per radian of longitude).
    pub u_per_rad: R,
    /// `res / π` (cells per radian of colatitude).
    pub v_per_rad: R,
    /// `res / 2`: the `u` coordinate of `θ = 0`.
    pub u_offset: R,
}

impl<R: Real> GridScale<R> {
    /// The scale factors for resolution `res` (three multiplications, cheap
    /// enough to recompute per query).
    #[inline(always)]
    pub fn new(res: u32) -> Self {
        let r: R = num_traits::NumCast::from(res).unwrap_or(R::ZERO);
        let v_per_rad = r * R::FRAC_1_PI();
        Self {
            u_per_rad: v_per_rad * R::HALF,
            v_per_rad,
            u_offset: r * R::HALF,
        }
    }
}

/// `atan(t)` for `t` in `[-1, 1]` (an odd polynomial), within `1e-5` rad.
#[inline(always)]
fn atan_unit<R: Real>(t: R) -> R {
    let t2 = t * t;
    let p = R::lit(ATAN_A7) + t2 * R::lit(ATAN_A9);
    let p = R::lit(ATAN_A5) + t2 * p;
    let p = R::lit(ATAN_A3) + t2 * p;
    t * (R::lit(ATAN_A1) + t2 * p)
}

/// `atan2(y, x)` in `[-π, π]` within [`LOCATE_MAX_ERROR`]; `0` when both
/// are zero. Inputs must be finite and not huge (their squares must not
/// overflow).
///
/// Half-angle form, with one select instead of octant branches (random
/// directions make octant branches unpredictable): with `r = √(x² + y²)`,
/// `t = y / (r + |x|) = tan(α / 2)` for `α = atan2(y, |x|) ∈ [−π/2, π/2]`,
/// so `|t| ≤ 1` and the polynomial applies directly; then
/// `atan2(y, x) = 2 atan t` for `x ≥ 0` and `±π − 2 atan t` (the sign of
/// `y`) for `x < 0`.
#[inline(always)]
pub fn atan2_fast<R: Real>(y: R, x: R) -> R {
    let r = (x * x + y * y).sqrt();
    half_angle(y, x, r)
}

/// [`atan2_fast`] given `r = √(x² + y²)`.
#[inline(always)]
fn half_angle<R: Real>(y: R, x: R, r: R) -> R {
    let t = y / (r + x.abs()).max_of(R::min_positive_value());
    let a = R::TWO * atan_unit(t);
    if x >= R::ZERO {
        a
    } else {
        R::PI().copysign(y) - a
    }
}

/// Continuous cell coordinates `(u, v)` of direction `d` (need not be unit,
/// must be finite and is best pre-scaled to a largest component near 1):
/// `u ∈ [0, res]` along θ, `v ∈ [0, res]` along φ, with the polynomial
/// arctangent (error ≤ [`LOCATE_MAX_ERROR`] rad in either angle).
///
/// A zero `d` gives the north pole `(res / 2, 0)`.
#[inline(always)]
pub fn cell_coords<R: Real>(d: Vec3<R>, scale: &GridScale<R>) -> (R, R) {
    let rho = (d.x * d.x + d.y * d.y).sqrt();
    let theta = half_angle(d.y, d.x, rho);
    let norm = (rho * rho + d.z * d.z).sqrt();
    let phi = half_angle(rho, d.z, norm);
    (
        theta * scale.u_per_rad + scale.u_offset,
        phi * scale.v_per_rad,
    )
}

/// Continuous cell coordinates as Genesis computes them, with the library
/// `atan2` and `acos` (the reference for [`cell_coords`]): `d` is normalized
/// first. A zero `d` gives `(res / 2, res / 2)`.
#[inline]
pub fn cell_coords_libm<R: Real>(d: Vec3<R>, scale: &GridScale<R>) -> (R, R) {
    let n = d.norm();
    let z = if n > R::ZERO { d.z / n } else { R::ZERO };
    let z = z.max_of(-R::ONE).min_of(R::ONE);
    let theta = d.y.atan2(d.x);
    let phi = z.acos();
    (
        theta * scale.u_per_rad + scale.u_offset,
        phi * scale.v_per_rad,
    )
}

/// The four cells bracketing continuous coordinates `(u, v)`, as flat
/// indices `i · res + j`: `i ∈ {⌊u⌋, ⌊u⌋ + 1}` wrapped modulo `res` (the
/// θ = ±π seam), `j ∈ {⌊v⌋, ⌊v⌋ + 1}` clamped to `res − 1` (the grid has no
/// row at φ = π, so directions within `π / res` of −z use the last row).
///
/// Out-of-range or NaN coordinates are clamped into the grid, so every
/// returned index is below `res²`.
///
/// Same layout as Genesis, different rule at the edges: Genesis takes
/// `floor`/`ceil` (one cell when the coordinate is an integer) and keeps
/// `j` within `[1, res − 2]`, so directions within `2π / res` of −z are
/// answered from the second-to-last row; here `⌊·⌋ + 1` always brackets and
/// the last row is used, which keeps the error within
/// [`angular_error_bound`].
#[inline(always)]
pub fn bracket<R: Real>(u: R, v: R, res: u32) -> [u32; 4] {
    let res = res.max(1);
    // `floor_index` is at most `res`, so one conditional subtraction wraps
    // it (an integer `%` costs more than the rest of the bracket).
    let i0 = floor_index(u, res);
    let i0 = if i0 >= res { i0 - res } else { i0 };
    let i1 = if i0 + 1 >= res { 0 } else { i0 + 1 };
    let j0 = floor_index(v, res).min(res - 1);
    let j1 = (j0 + 1).min(res - 1);
    [i0 * res + j0, i1 * res + j0, i0 * res + j1, i1 * res + j1]
}

/// The cell nearest to continuous coordinates `(u, v)` (each rounded to the
/// nearest integer, θ wrapped, φ clamped), as a flat index below `res²`.
#[inline(always)]
pub fn nearest<R: Real>(u: R, v: R, res: u32) -> u32 {
    let res = res.max(1);
    let i = floor_index(u + R::HALF, res);
    let i = if i >= res { i - res } else { i };
    let j = floor_index(v + R::HALF, res).min(res - 1);
    i * res + j
}

/// `⌊x⌋` as an index in `[0, res]`; NaN and negatives give 0. For
/// `x >= 0` the float-to-integer conversion truncates, which is the floor,
/// and avoids a `floor` call (a library call on x86-64 without SSE4.1).
#[inline(always)]
fn floor_index<R: Real>(x: R, res: u32) -> u32 {
    if x >= R::ZERO {
        x.to_u32().unwrap_or(res).min(res)
    } else {
        0
    }
}

/// An upper bound on the angle (radians) between a unit direction and the
/// nearest of the four cells [`bracket`] picks from [`cell_coords`], for
/// resolution `res`: `1.5 · π / res` plus twice [`LOCATE_MAX_ERROR`].
///
/// Derivation: the bracketing cells lie within half a cell of the direction
/// in each angle, `|Δθ| ≤ π / res` and `|Δφ| ≤ π / 2res`. The path that
/// first moves along the meridian (length `|Δφ|`) then along the cell's
/// parallel (length `sin φ_c · |Δθ| ≤ |Δθ|`) bounds the arc. In the cap
/// around −z that has no row of its own, the last row is within `π / res`
/// in φ and `sin(π / res) · π / res` along its parallel, which is below the
/// same bound for `res ≥ 8` ([`MIN_RESOLUTION`]). The polynomial arctangent
/// moves each angle by at most [`LOCATE_MAX_ERROR`].
///
/// For a field answer `v_c` (the support of cell direction `c`) and the true
/// support `v*` of a unit `d`, `d·v* − d·v_c ≤ |d − c| · |v* − v_c|`, so the
/// support-value error of a field query is at most this angle times the
/// mesh's diameter (times `|d|` for a non-unit `d`).
pub fn angular_error_bound(res: u32) -> f64 {
    let r = f64::from(res.max(1));
    1.5 * core::f64::consts::PI / r + 2.0 * LOCATE_MAX_ERROR
}
