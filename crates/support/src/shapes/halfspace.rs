//! A half-space: everything on one side of a plane.

use crate::error::finite_vec;
use crate::shapes::ellipsoid::unit_direction;
use crate::{Iso3, Real, ShapeError, Support, Vec3};

/// The half-space `{ x : normal · x <= offset }`: a plane with unit outward
/// normal `normal`, at signed distance `offset` (meters) from the origin
/// along that normal, and everything behind it.
///
/// It is unbounded, so it does not implement [`Support`]: shapes meet it
/// through the analytic path, [`HalfSpace::deepest_point`], which needs only
/// the other shape's support along `-normal`.
///
/// Its frame is whichever frame `normal` and `offset` are given in (usually
/// the world); [`HalfSpace::transformed`] moves it to a parent frame.
///
/// ```
/// use mink_support::{Cuboid, HalfSpace, Iso3, Vec3};
///
/// // The ground: everything below z = 0.
/// let ground = HalfSpace::new(Vec3::new(0.0_f64, 0.0, 1.0), 0.0).unwrap();
/// // A 1 m cube whose centre is 0.4 m up: it sinks 0.1 m into the ground.
/// let cube = Cuboid::new(Vec3::splat(0.5)).unwrap();
/// let pose = Iso3::from_translation(Vec3::new(0.0, 0.0, 0.4));
/// let contact = ground.deepest_point(&cube, &pose).unwrap();
/// assert!((contact.depth() - 0.1).abs() < 1e-12);
/// assert_eq!(contact.normal, Vec3::new(0.0, 0.0, 1.0));
/// assert!((contact.point.z + 0.1).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct HalfSpace<R> {
    normal: Vec3<R>,
    offset: R,
}

/// Where a shape reaches deepest into a [`HalfSpace`], from
/// [`HalfSpace::deepest_point`]. Everything in the half-space's frame
/// (usually the world), meters.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct HalfSpaceContact<R> {
    /// Signed distance of the shape from the plane: positive when the whole
    /// shape is outside (the gap), negative when it reaches inside (minus the
    /// penetration depth).
    pub distance: R,
    /// The shape's point farthest into the half-space (on the whole shape,
    /// inflation included).
    pub point: Vec3<R>,
    /// The half-space's unit outward normal: it points from the half-space
    /// towards the shape (from A to B with the half-space as A).
    pub normal: Vec3<R>,
}

impl<R: Real> HalfSpaceContact<R> {
    /// The penetration depth, `-distance` (meters; negative when apart).
    #[inline(always)]
    pub fn depth(&self) -> R {
        -self.distance
    }

    /// [`HalfSpaceContact::point`] projected on the plane: the matching
    /// point on the half-space's boundary.
    #[inline(always)]
    pub fn point_on_plane(&self) -> Vec3<R> {
        self.point - self.normal * self.distance
    }
}

impl<R: Real> HalfSpace<R> {
    /// The half-space `{ x : normal · x <= offset }`. A non-unit `normal` is
    /// accepted: normal and offset are both divided by its length, which
    /// keeps the same set of points. Refuses a non-finite normal or offset
    /// ([`ShapeError::NonFinite`]) and a zero normal
    /// ([`ShapeError::Degenerate`]).
    pub fn new(normal: Vec3<R>, offset: R) -> Result<Self, ShapeError> {
        let n = finite_vec(normal, "half-space normal")?;
        if !offset.finite() {
            return Err(ShapeError::NonFinite("half-space offset"));
        }
        let unit =
            unit_direction(n).ok_or(ShapeError::Degenerate("half-space normal of zero length"))?;
        // offset / |n| with |n| = m |n / m|, m the largest magnitude, so that
        // neither a huge nor a tiny normal overflows on the way.
        let m = n.max_abs();
        let scaled_length = unit.dot(Vec3::new(n.x / m, n.y / m, n.z / m));
        let offset = offset / m / scaled_length;
        if !offset.finite() {
            return Err(ShapeError::NonFinite("half-space offset"));
        }
        Ok(Self {
            normal: unit,
            offset,
        })
    }

    /// As [`HalfSpace::new`], except that a finite normal already of unit
    /// length, to within `8 ε` in its squared length (as every normal
    /// `new` stores is), is kept bit for bit with its offset: reading back
    /// a written half-space gives the same one.
    #[cfg(feature = "serde")]
    pub(crate) fn from_stored(normal: Vec3<R>, offset: R) -> Result<Self, ShapeError> {
        let unit = (normal.norm_squared() - R::ONE).abs() <= R::lit(8.0) * R::EPSILON;
        if unit && normal.is_finite() && offset.finite() {
            return Ok(Self { normal, offset });
        }
        Self::new(normal, offset)
    }

    /// The half-space whose boundary plane passes through `point` with
    /// outward normal `normal` (normalized here). Errors as
    /// [`HalfSpace::new`], naming the point when it is not finite.
    pub fn from_point_normal(point: Vec3<R>, normal: Vec3<R>) -> Result<Self, ShapeError> {
        let p = finite_vec(point, "half-space point")?;
        let n = finite_vec(normal, "half-space normal")?;
        let unit =
            unit_direction(n).ok_or(ShapeError::Degenerate("half-space normal of zero length"))?;
        Self::new(unit, unit.dot(p))
    }

    /// The unit outward normal (the half-space's frame).
    #[inline(always)]
    pub fn normal(&self) -> Vec3<R> {
        self.normal
    }

    /// The boundary plane's signed distance from the origin along the
    /// normal (meters).
    #[inline(always)]
    pub fn offset(&self) -> R {
        self.offset
    }

    /// Signed distance of `p` (the half-space's frame, meters) from the
    /// boundary plane: positive outside, negative inside. NaN in gives NaN
    /// out; validate points upstream.
    #[inline(always)]
    pub fn signed_distance(&self, p: Vec3<R>) -> R {
        self.normal.dot(p) - self.offset
    }

    /// This half-space, given in a frame whose pose in a parent frame is
    /// `pose`, expressed in the parent frame. `None` when the pose is not
    /// finite.
    pub fn transformed(&self, pose: &Iso3<R>) -> Option<Self> {
        if !pose.is_finite() {
            return None;
        }
        let normal = unit_direction(pose.transform_vector(self.normal))?;
        let offset = self.offset + normal.dot(pose.translation);
        offset.finite().then_some(Self { normal, offset })
    }

    /// The point of `shape` (at `pose`, shape frame to the half-space's
    /// frame) that reaches deepest into the half-space, with the signed
    /// distance and normal: the core's support along `-normal` (rotated into
    /// the shape's frame), pushed by the shape's inflation along `-normal`.
    ///
    /// Everything returned is in the half-space's frame, meters. `None` when
    /// the pose is not finite or the result overflows; never NaN.
    pub fn deepest_point<S: Support<R>>(
        &self,
        shape: &S,
        pose: &Iso3<R>,
    ) -> Option<HalfSpaceContact<R>> {
        if !pose.is_finite() {
            return None;
        }
        let mut hint = S::Hint::default();
        let local = pose.inverse_transform_vector(-self.normal);
        let core = pose.transform_point(shape.support(local, &mut hint));
        let point = core - self.normal * shape.inflation();
        let distance = self.signed_distance(point);
        (point.is_finite() && distance.finite()).then_some(HalfSpaceContact {
            distance,
            point,
            normal: self.normal,
        })
    }
}
