//! Any shape with a swept-sphere margin.

use crate::error::non_negative;
use crate::{Aabb, CapacityError, Iso3, Real, ShapeError, Support, SupportSet, Vec3};

/// Shape `S` swept by a sphere of radius `margin`: the points within
/// `margin` of `S` (a rounded box, a rounded hull...).
///
/// The core stays `S`'s core; the margin adds to `S`'s own inflation, so a
/// `Rounded<Sphere>` is a bigger sphere and GJK stays exact.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Rounded<S, R> {
    inner: S,
    margin: R,
}

impl<S: Support<R>, R: Real> Rounded<S, R> {
    /// `inner` rounded by `margin` (finite, `>= 0`, meters).
    pub fn new(inner: S, margin: R) -> Result<Self, ShapeError> {
        Ok(Self {
            inner,
            margin: non_negative(margin, "rounding margin")?,
        })
    }

    /// The shape being rounded.
    #[inline(always)]
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The margin added on top of the inner shape's own inflation (meters).
    #[inline(always)]
    pub fn margin(&self) -> R {
        self.margin
    }
}

impl<S: Support<R>, R: Real> Support<R> for Rounded<S, R> {
    type Hint = S::Hint;
    const STRICTLY_CONVEX: bool = S::STRICTLY_CONVEX;
    const POLYTOPE: bool = S::POLYTOPE;

    #[inline(always)]
    fn support(&self, dir: Vec3<R>, hint: &mut S::Hint) -> Vec3<R> {
        self.inner.support(dir, hint)
    }

    #[inline(always)]
    fn inflation(&self) -> R {
        self.inner.inflation() + self.margin
    }

    fn interior_point(&self) -> Vec3<R> {
        self.inner.interior_point()
    }

    fn local_aabb(&self) -> Aabb<R> {
        self.inner.local_aabb().inflated(self.margin)
    }

    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        self.inner.world_aabb(pose).inflated(self.margin)
    }

    fn support_set(
        &self,
        dir: Vec3<R>,
        tol: R,
        out: &mut SupportSet<R>,
    ) -> Result<(), CapacityError> {
        self.inner.support_set(dir, tol, out)
    }
}
