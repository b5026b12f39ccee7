//! The `Support` trait: the one question every convex shape answers.

use crate::{Aabb, Iso3, Real, Vec3};

/// Capacity of a [`SupportSet`]: the most points a support set holds.
pub const SUPPORT_SET_CAPACITY: usize = 32;

/// A support set did not fit in its [`SUPPORT_SET_CAPACITY`]: the points that
/// fit were kept, the rest dropped, and this error says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CapacityError {
    /// The capacity that was exceeded.
    pub capacity: usize,
}

impl core::fmt::Display for CapacityError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "capacity of {} exceeded", self.capacity)
    }
}

/// The points of a shape's core that are extreme along a direction, within a
/// tolerance: a single point for a strictly convex shape, an edge's two ends,
/// or a face's vertices. Used to build contact patches.
#[derive(Clone, Debug, Default)]
pub struct SupportSet<R> {
    points: heapless::Vec<Vec3<R>, SUPPORT_SET_CAPACITY>,
}

impl<R: Real> SupportSet<R> {
    /// An empty set.
    pub const fn new() -> Self {
        Self {
            points: heapless::Vec::new(),
        }
    }

    /// Removes every point.
    pub fn clear(&mut self) {
        self.points.clear();
    }

    /// Appends a point; when full, the point is not stored and the error
    /// names the capacity.
    pub fn push(&mut self, p: Vec3<R>) -> Result<(), CapacityError> {
        self.points.push(p).map_err(|_| CapacityError {
            capacity: SUPPORT_SET_CAPACITY,
        })
    }

    /// The points, in the order the shape produced them (a face's vertices
    /// in counter-clockwise order seen from outside, for polytopes).
    pub fn points(&self) -> &[Vec3<R>] {
        &self.points
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// `true` when there are no points.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

/// A convex shape described by its support function.
///
/// The shape is a *core* (a point, a segment, a polytope, an ellipsoid...)
/// swept by a sphere of radius [`Support::inflation`]: a sphere is a point
/// core with inflation `radius`, a capsule a segment core. GJK, EPA and MPR
/// run on the cores and correct by the radii afterwards, so rounded shapes are
/// exact rather than approximated.
///
/// Everything is in the shape's local frame, in meters.
pub trait Support<R: Real> {
    /// Warm-start state for [`Support::support`]: `()` for primitives, a
    /// vertex index for hulls. Callers keep one per shape and query sequence.
    type Hint: Copy + Default + core::fmt::Debug;

    /// `true` when the full shape (core plus inflation) has exactly one
    /// support point in every direction (sphere, ellipsoid, capsule is not).
    const STRICTLY_CONVEX: bool = false;

    /// `true` when the core is a polytope (finitely many vertices): GJK's
    /// Nesterov acceleration then uses its normalization heuristic.
    const POLYTOPE: bool = false;

    /// The point of the core farthest along `dir`, in the local frame.
    ///
    /// `dir` need not be unit length. For a zero or non-finite `dir` the
    /// result is still a point of the core (which one is unspecified), so a
    /// query never produces NaN from a finite shape.
    fn support(&self, dir: Vec3<R>, hint: &mut Self::Hint) -> Vec3<R>;

    /// Radius of the sphere swept over the core (meters, `>= 0`).
    #[inline(always)]
    fn inflation(&self) -> R {
        R::ZERO
    }

    /// A point strictly inside the core when it has volume (on it otherwise),
    /// local frame. MPR starts from it. The default averages the supports
    /// along the six axis directions, which is inside any convex core.
    fn interior_point(&self) -> Vec3<R> {
        let mut h = Self::Hint::default();
        let mut sum = Vec3::ZERO;
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            sum += self.support(axis, &mut h) + self.support(-axis, &mut h);
        }
        sum * (R::ONE / R::lit(6.0))
    }

    /// The AABB of the whole shape (core and inflation), local frame.
    fn local_aabb(&self) -> Aabb<R> {
        self.world_aabb(&Iso3::IDENTITY)
    }

    /// The tight AABB of the whole shape at `pose` (shape frame to world).
    ///
    /// The default asks the support along the six world axis directions,
    /// which is exact for every convex shape; shapes with a cheaper closed
    /// form override it.
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        let mut h = Self::Hint::default();
        let r = self.inflation();
        let mut min = Vec3::ZERO;
        let mut max = Vec3::ZERO;
        for i in 0..3 {
            let axis = pose.rotation.row(i);
            let hi = axis.dot(self.support(axis, &mut h));
            let lo = axis.dot(self.support(-axis, &mut h));
            let t = pose.translation.get(i);
            set(&mut max, i, t + hi + r);
            set(&mut min, i, t + lo - r);
        }
        Aabb::new(min, max)
    }

    /// Every point of the core whose projection on the unit direction
    /// `dir / |dir|` is within `tol` meters of the maximum, into `out`
    /// (cleared first).
    ///
    /// The default is the single support point; shapes with flat faces or
    /// straight edges override it. Returns the capacity error, with the
    /// points that fit kept, when the set is larger than
    /// [`SUPPORT_SET_CAPACITY`].
    fn support_set(
        &self,
        dir: Vec3<R>,
        tol: R,
        out: &mut SupportSet<R>,
    ) -> Result<(), CapacityError> {
        let _ = tol;
        out.clear();
        let mut h = Self::Hint::default();
        out.push(self.support(dir, &mut h))
    }
}

#[inline(always)]
fn set<R: Real>(v: &mut Vec3<R>, i: usize, value: R) {
    match i {
        0 => v.x = value,
        1 => v.y = value,
        _ => v.z = value,
    }
}

impl<R: Real, S: Support<R> + ?Sized> Support<R> for &S {
    type Hint = S::Hint;
    const STRICTLY_CONVEX: bool = S::STRICTLY_CONVEX;
    const POLYTOPE: bool = S::POLYTOPE;

    #[inline(always)]
    fn support(&self, dir: Vec3<R>, hint: &mut Self::Hint) -> Vec3<R> {
        (**self).support(dir, hint)
    }
    #[inline(always)]
    fn inflation(&self) -> R {
        (**self).inflation()
    }
    fn interior_point(&self) -> Vec3<R> {
        (**self).interior_point()
    }
    fn local_aabb(&self) -> Aabb<R> {
        (**self).local_aabb()
    }
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        (**self).world_aabb(pose)
    }
    fn support_set(
        &self,
        dir: Vec3<R>,
        tol: R,
        out: &mut SupportSet<R>,
    ) -> Result<(), CapacityError> {
        (**self).support_set(dir, tol, out)
    }
}
