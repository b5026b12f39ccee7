//! A cylinder along the local z axis.

use crate::error::positive;
use crate::shapes::ellipsoid::unit_direction;
use crate::{
    Aabb, CapacityError, Iso3, Real, ShapeError, Support, SupportSet, Vec3, SUPPORT_SET_CAPACITY,
};

/// How many rim points stand for a flat circular cap (a cylinder's cap, a
/// cone's base) in a support set: the vertices of a regular 12-gon inscribed
/// in the rim, the first at angle 0 (on the local +x axis), so the polygon
/// also contains the rim's ±x and ±y points.
pub const CAP_RIM_POINTS: usize = 12;

// Both caps of a cylinder seen at once (a zero direction) must fit.
const _: () = assert!(2 * CAP_RIM_POINTS <= SUPPORT_SET_CAPACITY);

/// A solid cylinder centred at the local origin, its axis the local z axis:
/// the points with `x² + y² <= radius²` and `|z| <= half_length` (meters).
///
/// The whole cylinder is the core (no inflation). It has two flat caps and a
/// ruled side, so it is neither strictly convex nor a polytope.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Cylinder<R> {
    radius: R,
    half_length: R,
}

impl<R: Real> Cylinder<R> {
    /// A cylinder of radius `radius` and half-height `half_length` along the
    /// local z axis (meters); both must be finite
    /// ([`ShapeError::NonFinite`]) and positive ([`ShapeError::NonPositive`]).
    pub fn new(radius: R, half_length: R) -> Result<Self, ShapeError> {
        Ok(Self {
            radius: positive(radius, "cylinder radius")?,
            half_length: positive(half_length, "cylinder half-length")?,
        })
    }

    /// The radius (meters).
    #[inline(always)]
    pub fn radius(&self) -> R {
        self.radius
    }

    /// Half the height along the local z axis (meters).
    #[inline(always)]
    pub fn half_length(&self) -> R {
        self.half_length
    }
}

impl<R: Real> Support<R> for Cylinder<R> {
    type Hint = ();

    /// The rim point of the cap on the side of `dir.z` (the `+z` cap when
    /// `dir.z >= 0`), in the direction of `dir`'s xy part; the cap's centre
    /// when that part is zero (every point of the cap is then extreme).
    #[inline]
    fn support(&self, dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        let z = if dir.z >= R::ZERO {
            self.half_length
        } else {
            -self.half_length
        };
        match radial_unit(dir) {
            Some(u) => Vec3::new(self.radius * u.x, self.radius * u.y, z),
            None => Vec3::new(R::ZERO, R::ZERO, z),
        }
    }

    #[inline]
    fn interior_point(&self) -> Vec3<R> {
        Vec3::ZERO
    }

    #[inline]
    fn local_aabb(&self) -> Aabb<R> {
        let (r, h) = (self.radius, self.half_length);
        Aabb::from_center_half_extents(Vec3::ZERO, Vec3::new(r, r, h))
    }

    /// Closed form. The cylinder is its axis segment (direction `a`, the
    /// rotated z axis) plus a disc of radius `r` perpendicular to `a`; along
    /// world axis `i` the segment reaches `h |a_i|` and the disc
    /// `r |e_i - a_i a| = r sqrt(1 - a_i²)`.
    #[inline]
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        let a = pose.rotation.z_axis;
        let half = a.abs() * self.half_length + disc_extent(a, self.radius);
        Aabb::from_center_half_extents(pose.translation, half)
    }

    /// Every cap within `tol` of the extreme projection contributes either
    /// its [`CAP_RIM_POINTS`] polygon (when the cap is flat within `tol`
    /// along `dir`, i.e. `2 r |dir_xy| <= tol`; counter-clockwise seen from
    /// `dir`, points individually within `tol`) or its single extreme rim
    /// point. So: a cap's polygon when `dir` is along the axis, the two ends
    /// of the side segment when `dir` is perpendicular to it, one rim point
    /// otherwise.
    fn support_set(
        &self,
        dir: Vec3<R>,
        tol: R,
        out: &mut SupportSet<R>,
    ) -> Result<(), CapacityError> {
        // `tol` is in meters along the unit direction.
        let dir = dir.try_normalize().unwrap_or(dir);
        out.clear();
        let (r, h) = (self.radius, self.half_length);
        let u = radial_unit(dir);
        let rho = u.map_or(R::ZERO, |u| dir.x * u.x + dir.y * u.y);
        let top = dir.z * h + r * rho;
        let bottom = -dir.z * h + r * rho;
        let best = top.max_of(bottom);
        let flat = R::TWO * r * rho <= tol;
        let caps = if dir.z >= R::ZERO {
            [(h, top), (-h, bottom)]
        } else {
            [(-h, bottom), (h, top)]
        };
        for (z, value) in caps {
            // Written so that a NaN `value` skips the cap.
            let reaches = value >= best - tol;
            if !reaches {
                continue;
            }
            if flat {
                push_cap_polygon(r, z, z > R::ZERO, dir, best - tol, out)?;
            } else {
                let u = u.unwrap_or(Vec3::X);
                out.push(Vec3::new(r * u.x, r * u.y, z))?;
            }
        }
        if out.is_empty() {
            // Only a non-finite `dir` gets here.
            out.push(self.support(dir, &mut ()))?;
        }
        Ok(())
    }
}

/// The unit vector along `(dir.x, dir.y, 0)`, or `None` when that part of
/// `dir` is zero or not finite.
#[inline(always)]
pub(crate) fn radial_unit<R: Real>(dir: Vec3<R>) -> Option<Vec3<R>> {
    unit_direction(Vec3::new(dir.x, dir.y, R::ZERO))
}

/// Half-extents, along the world axes, of a disc of radius `r` whose normal
/// is the unit vector `a`: `r sqrt(1 - a_i²)` on axis `i`, computed as
/// `r |(a_j, a_k)|` (equal for a unit `a`), which does not cancel when `a_i`
/// is near 1.
#[inline(always)]
pub(crate) fn disc_extent<R: Real>(a: Vec3<R>, r: R) -> Vec3<R> {
    let s = |u: R, v: R| (u * u + v * v).sqrt() * r;
    Vec3::new(s(a.y, a.z), s(a.x, a.z), s(a.x, a.y))
}

/// Pushes the [`CAP_RIM_POINTS`]-gon of a cap of radius `r` at height `z`
/// whose projection on `dir` is at least `min_value`, in counter-clockwise
/// order about `+z` when `ccw_about_z`, clockwise otherwise (so that a cap
/// is counter-clockwise seen from the side it faces).
pub(crate) fn push_cap_polygon<R: Real>(
    r: R,
    z: R,
    ccw_about_z: bool,
    dir: Vec3<R>,
    min_value: R,
    out: &mut SupportSet<R>,
) -> Result<(), CapacityError> {
    let n = CAP_RIM_POINTS;
    let step = R::PI() * R::TWO / R::lit(n as f64);
    for k in 0..n {
        let index = if ccw_about_z { k } else { (n - k) % n };
        let (s, c) = (step * R::lit(index as f64)).sin_cos();
        let p = Vec3::new(r * c, r * s, z);
        if dir.dot(p) >= min_value {
            out.push(p)?;
        }
    }
    Ok(())
}
