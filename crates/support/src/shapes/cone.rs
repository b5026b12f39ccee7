//! A cone along the local z axis, apex up.

use crate::error::positive;
use crate::shapes::cylinder::{disc_extent, push_cap_polygon, radial_unit, CAP_RIM_POINTS};
use crate::{Aabb, CapacityError, Iso3, Real, ShapeError, Support, SupportSet, Vec3};

/// A solid right circular cone along the local z axis: apex at
/// `(0, 0, +half_length)`, base disc of radius `radius` centred at
/// `(0, 0, -half_length)` (meters).
///
/// The whole cone is the core (no inflation). It has a flat base, a ruled
/// side and a sharp apex, so it is neither strictly convex nor a polytope.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Cone<R> {
    radius: R,
    half_length: R,
}

impl<R: Real> Cone<R> {
    /// A cone with base radius `radius` and half-height `half_length` along
    /// the local z axis (meters); both must be finite
    /// ([`ShapeError::NonFinite`]) and positive ([`ShapeError::NonPositive`]).
    pub fn new(radius: R, half_length: R) -> Result<Self, ShapeError> {
        Ok(Self {
            radius: positive(radius, "cone radius")?,
            half_length: positive(half_length, "cone half-length")?,
        })
    }

    /// The radius of the base disc (meters).
    #[inline(always)]
    pub fn radius(&self) -> R {
        self.radius
    }

    /// Half the height along the local z axis (meters).
    #[inline(always)]
    pub fn half_length(&self) -> R {
        self.half_length
    }

    /// The apex, `(0, 0, half_length)`, local frame.
    #[inline(always)]
    pub fn apex(&self) -> Vec3<R> {
        Vec3::new(R::ZERO, R::ZERO, self.half_length)
    }
}

impl<R: Real> Support<R> for Cone<R> {
    type Hint = ();

    // The cone is the hull of the apex and the base rim, so the support is
    // the apex or the base rim point along dir's xy part u, whichever
    // projects farther: apex d·(0,0,h) = d_z h, rim d·(r u, -h) = r |d_xy| - d_z h.
    #[inline]
    fn support(&self, dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        let (r, h) = (self.radius, self.half_length);
        let apex_value = dir.z * h;
        match radial_unit(dir) {
            Some(u) => {
                let rho = dir.x * u.x + dir.y * u.y;
                if r * rho - apex_value > apex_value {
                    Vec3::new(r * u.x, r * u.y, -h)
                } else {
                    self.apex()
                }
            }
            None if dir.z > R::ZERO => self.apex(),
            // Straight down (the whole base is extreme), zero or non-finite.
            None => Vec3::new(R::ZERO, R::ZERO, -h),
        }
    }

    /// The centroid of the solid cone, `(0, 0, -half_length / 2)`.
    #[inline]
    fn interior_point(&self) -> Vec3<R> {
        Vec3::new(R::ZERO, R::ZERO, -self.half_length * R::HALF)
    }

    #[inline]
    fn local_aabb(&self) -> Aabb<R> {
        let (r, h) = (self.radius, self.half_length);
        Aabb::from_center_half_extents(Vec3::ZERO, Vec3::new(r, r, h))
    }

    /// Closed form: the box of the apex `t + h a` and of the base disc
    /// (centre `t - h a`, radius `r`, normal `a`, the rotated z axis), whose
    /// extent along world axis `i` is `r sqrt(1 - a_i²)`.
    #[inline]
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        let a = pose.rotation.z_axis;
        let axis = a * self.half_length;
        let apex = pose.translation + axis;
        let base = pose.translation - axis;
        let disc = disc_extent(a, self.radius);
        Aabb::new(apex.min(base - disc), apex.max(base + disc))
    }

    /// The base's [`CAP_RIM_POINTS`] polygon when `dir` points down the axis
    /// within `tol` (counter-clockwise seen from `dir`, points individually
    /// within `tol`), a generator segment (base rim point, then apex) when
    /// `dir` is perpendicular to the side, else the apex or one rim point.
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
        let apex_value = dir.z * h;
        let rim_value = r * rho - apex_value;
        let best = apex_value.max_of(rim_value);
        if rim_value >= best - tol {
            if R::TWO * r * rho <= tol {
                push_cap_polygon(r, -h, dir.z >= R::ZERO, dir, best - tol, out)?;
            } else {
                let u = u.unwrap_or(Vec3::X);
                out.push(Vec3::new(r * u.x, r * u.y, -h))?;
            }
        }
        if apex_value >= best - tol {
            out.push(self.apex())?;
        }
        if out.is_empty() {
            // Only a non-finite `dir` gets here.
            out.push(self.support(dir, &mut ()))?;
        }
        Ok(())
    }
}

// The base polygon plus the apex (a zero direction) must fit.
const _: () = assert!(CAP_RIM_POINTS < crate::SUPPORT_SET_CAPACITY);
