//! A capsule: a segment core along the local z axis, swept by its radius.

use crate::error::{non_negative, positive};
use crate::shapes::segment::segment_support_set;
use crate::{Aabb, CapacityError, Iso3, Real, ShapeError, Support, SupportSet, Vec3};

/// A capsule: the points within `radius` of the segment from
/// `(0, 0, -half_length)` to `(0, 0, +half_length)`.
///
/// Its core is that segment and its [`inflation`](Support::inflation) the
/// radius, so GJK between capsules is GJK between segments, and exact.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Capsule<R> {
    radius: R,
    half_length: R,
}

impl<R: Real> Capsule<R> {
    /// A capsule; `radius` must be finite and positive, `half_length`
    /// finite and non-negative (zero gives a sphere), meters.
    pub fn new(radius: R, half_length: R) -> Result<Self, ShapeError> {
        Ok(Self {
            radius: positive(radius, "capsule radius")?,
            half_length: non_negative(half_length, "capsule half-length")?,
        })
    }

    /// The radius (meters).
    #[inline(always)]
    pub fn radius(&self) -> R {
        self.radius
    }

    /// Half the length of the core segment (meters).
    #[inline(always)]
    pub fn half_length(&self) -> R {
        self.half_length
    }

    /// The two ends of the core segment, local frame (`-z` end first).
    #[inline(always)]
    pub fn segment_ends(&self) -> (Vec3<R>, Vec3<R>) {
        let h = Vec3::new(R::ZERO, R::ZERO, self.half_length);
        (-h, h)
    }
}

impl<R: Real> Support<R> for Capsule<R> {
    type Hint = ();

    #[inline(always)]
    fn support(&self, dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        let z = if dir.z > R::ZERO {
            self.half_length
        } else {
            -self.half_length
        };
        Vec3::new(R::ZERO, R::ZERO, z)
    }

    #[inline(always)]
    fn inflation(&self) -> R {
        self.radius
    }

    #[inline]
    fn interior_point(&self) -> Vec3<R> {
        Vec3::ZERO
    }

    #[inline]
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        let axis = pose.rotation.z_axis * self.half_length;
        let h = axis.abs() + Vec3::splat(self.radius);
        Aabb::from_center_half_extents(pose.translation, h)
    }

    fn support_set(
        &self,
        dir: Vec3<R>,
        tol: R,
        out: &mut SupportSet<R>,
    ) -> Result<(), CapacityError> {
        // `tol` is in meters along the unit direction.
        let dir = dir.try_normalize().unwrap_or(dir);
        let (a, b) = self.segment_ends();
        segment_support_set(a, b, dir, tol, out)
    }
}
