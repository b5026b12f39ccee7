//! A point: the core of a sphere, and a shape of its own (a probe).

use crate::{Aabb, Iso3, Real, Support, Vec3};

/// A single point at the local origin.
///
/// Its support is the origin in every direction. Rounded by a radius
/// ([`Rounded`](crate::Rounded)) it becomes a sphere, which is how
/// [`Sphere`](crate::Sphere) is built.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Point;

impl<R: Real> Support<R> for Point {
    type Hint = ();
    const POLYTOPE: bool = true;

    #[inline(always)]
    fn support(&self, _dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        Vec3::ZERO
    }

    #[inline]
    fn interior_point(&self) -> Vec3<R> {
        Vec3::ZERO
    }

    #[inline]
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        Aabb::new(pose.translation, pose.translation)
    }
}
