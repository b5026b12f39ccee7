//! A capsule: a segment core along the local z axis, swept by its radius.

use crate::error::{non_negative, positive};
use crate::math::{closest_segment_points, core_normal};
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

    /// The two ends of the core segment for the capsule at `pose` (capsule
    /// frame to world), world frame, `-z` end first: for finite poses the
    /// same points as `pose.transform_point` of [`Capsule::segment_ends`]
    /// (up to the sign of a zero coordinate), in three multiplications
    /// instead of eighteen.
    #[inline(always)]
    fn world_segment(&self, pose: &Iso3<R>) -> (Vec3<R>, Vec3<R>) {
        let axis = pose.rotation.z_axis * self.half_length;
        (pose.translation - axis, pose.translation + axis)
    }

    /// The signed distance between this capsule (A) at `pose_a` and the
    /// capsule `b` at `pose_b` (both poses shape frame to world), in closed
    /// form: the closest points of the two core segments
    /// ([`closest_segment_points`]), then the radii.
    ///
    /// Everything is in the world frame (the poses' frame), meters. The
    /// answer follows mink's conventions: `distance` is the gap when apart
    /// and minus the penetration depth when overlapping, `normal` is unit
    /// and points from A towards B, `p_a` lies on A's surface and `p_b` on
    /// B's, and `p_b - p_a = distance * normal` (see [`CapsuleDistance`]).
    /// Exact up to rounding (no iteration, no tolerance); the same answer
    /// GJK converges to on the capsules' cores.
    ///
    /// When the cores touch or cross (their closest points are within 64
    /// ulps of the largest end coordinate of each other), the depth is the
    /// sum of the radii and the normal is perpendicular to
    /// both cores (to the one with a length when the other is a point),
    /// turned towards B's centre; for two coincident points it is the
    /// direction from A's centre to B's, or `+x` when those coincide too.
    ///
    /// Returns `None` when a pose is not finite or the answer overflows
    /// (coordinates near the largest float); never panics.
    pub fn distance_to_capsule(
        &self,
        pose_a: &Iso3<R>,
        b: &Capsule<R>,
        pose_b: &Iso3<R>,
    ) -> Option<CapsuleDistance<R>> {
        let (p0, p1) = self.world_segment(pose_a);
        let (q0, q1) = b.world_segment(pose_b);
        let (ca, cb) = closest_segment_points(p0, p1, q0, q1);
        let delta = cb - ca;
        let normal = core_normal(ca, cb, (p0, p1), (q0, q1));
        let (ra, rb) = (self.radius, b.radius);
        let answer = CapsuleDistance {
            distance: delta.dot(normal) - ra - rb,
            normal,
            p_a: ca + normal * ra,
            p_b: cb - normal * rb,
        };
        let finite = answer.distance.finite()
            && answer.normal.is_finite()
            && answer.p_a.is_finite()
            && answer.p_b.is_finite();
        finite.then_some(answer)
    }
}

/// The signed distance between two capsules and where it is attained, from
/// [`Capsule::distance_to_capsule`]. World frame, meters.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CapsuleDistance<R> {
    /// Signed distance: the gap when apart (positive), minus the
    /// penetration depth when overlapping (negative), zero when touching.
    pub distance: R,
    /// Unit normal, from A towards B: translating B by
    /// `-distance · normal` makes the capsules touch.
    pub normal: Vec3<R>,
    /// The point of A's surface closest to B (apart) or deepest in B
    /// (overlapping): A's core point plus `radius_a · normal`.
    pub p_a: Vec3<R>,
    /// The point of B's surface closest to A (apart) or deepest in A
    /// (overlapping): B's core point minus `radius_b · normal`.
    pub p_b: Vec3<R>,
}

impl<R: Real> Support<R> for Capsule<R> {
    type Hint = ();
    // The core is a segment: two vertices. Its support set within a
    // tolerance is every point of the capsule's surface that can touch a
    // flat face within it, so a capsule needs no perturbation to find its
    // contact patch.
    const POLYTOPE: bool = true;

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
