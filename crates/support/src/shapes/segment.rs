//! A line segment: the core of a capsule, and a shape of its own.

use crate::error::finite_vec;
use crate::{Aabb, CapacityError, Iso3, Real, ShapeError, Support, SupportSet, Vec3};

/// The segment between two points `a` and `b` (local frame, meters).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Segment<R> {
    a: Vec3<R>,
    b: Vec3<R>,
}

impl<R: Real> Segment<R> {
    /// A segment; both ends must be finite. Equal ends are allowed (a point).
    pub fn new(a: Vec3<R>, b: Vec3<R>) -> Result<Self, ShapeError> {
        Ok(Self {
            a: finite_vec(a, "segment end a")?,
            b: finite_vec(b, "segment end b")?,
        })
    }

    /// The first end.
    #[inline(always)]
    pub fn a(&self) -> Vec3<R> {
        self.a
    }

    /// The second end.
    #[inline(always)]
    pub fn b(&self) -> Vec3<R> {
        self.b
    }
}

impl<R: Real> Support<R> for Segment<R> {
    type Hint = ();
    const POLYTOPE: bool = true;

    #[inline(always)]
    fn support(&self, dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        if dir.dot(self.b - self.a) > R::ZERO {
            self.b
        } else {
            self.a
        }
    }

    #[inline]
    fn interior_point(&self) -> Vec3<R> {
        // Halve before adding: `a + b` overflows for ends near the largest float.
        self.a * R::HALF + self.b * R::HALF
    }

    #[inline]
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        let a = pose.transform_point(self.a);
        let b = pose.transform_point(self.b);
        Aabb::new(a.min(b), a.max(b))
    }

    /// Both ends when the segment is within `tol` of perpendicular to `dir`,
    /// else the extreme end.
    fn support_set(
        &self,
        dir: Vec3<R>,
        tol: R,
        out: &mut SupportSet<R>,
    ) -> Result<(), CapacityError> {
        // `tol` is in meters along the unit direction.
        let dir = dir.try_normalize().unwrap_or(dir);
        segment_support_set(self.a, self.b, dir, tol, out)
    }
}

/// The support set of the segment `a b` along `dir`: both ends when their
/// projections are within `tol`, else the extreme one.
pub(crate) fn segment_support_set<R: Real>(
    a: Vec3<R>,
    b: Vec3<R>,
    dir: Vec3<R>,
    tol: R,
    out: &mut SupportSet<R>,
) -> Result<(), CapacityError> {
    out.clear();
    let (pa, pb) = (dir.dot(a), dir.dot(b));
    if (pa - pb).abs() <= tol {
        out.push(a)?;
        out.push(b)
    } else if pb > pa {
        out.push(b)
    } else {
        out.push(a)
    }
}
