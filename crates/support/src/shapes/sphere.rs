//! A sphere: a point core swept by its radius.

use crate::error::positive;
use crate::{Aabb, Iso3, Real, ShapeError, Support, Vec3};

/// A sphere of radius `radius` centred at the local origin.
///
/// Its core is the centre point and its [`inflation`](Support::inflation) the
/// radius, so GJK on two spheres is GJK on two points, and exact.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Sphere<R> {
    radius: R,
}

impl<R: Real> Sphere<R> {
    /// A sphere; the radius must be finite and positive (meters).
    pub fn new(radius: R) -> Result<Self, ShapeError> {
        Ok(Self {
            radius: positive(radius, "sphere radius")?,
        })
    }

    /// The radius (meters).
    #[inline(always)]
    pub fn radius(&self) -> R {
        self.radius
    }
}

impl<R: Real> Support<R> for Sphere<R> {
    type Hint = ();
    const STRICTLY_CONVEX: bool = true;

    #[inline(always)]
    fn support(&self, _dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        Vec3::ZERO
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
        Aabb::from_center_half_extents(pose.translation, Vec3::splat(self.radius))
    }
}
