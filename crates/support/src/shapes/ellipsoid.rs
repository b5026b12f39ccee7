//! An ellipsoid: a strictly convex core with three semi-axes.

use crate::error::finite_vec;
use crate::{Aabb, Iso3, Real, ShapeError, Support, Vec3};

/// An ellipsoid centred at the local origin with its semi-axes along the
/// local axes: the points with `(x/a)² + (y/b)² + (z/c)² <= 1`, where
/// `(a, b, c)` are the radii in meters.
///
/// The whole ellipsoid is the core (no inflation), and it is strictly convex:
/// every direction has exactly one support point.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Ellipsoid<R> {
    radii: Vec3<R>,
}

impl<R: Real> Ellipsoid<R> {
    /// An ellipsoid with semi-axes `radii = (a, b, c)` along the local x, y
    /// and z axes (meters). Every radius must be finite
    /// ([`ShapeError::NonFinite`]) and positive ([`ShapeError::NonPositive`]).
    pub fn new(radii: Vec3<R>) -> Result<Self, ShapeError> {
        let r = finite_vec(radii, "ellipsoid radii")?;
        if r.min_element() <= R::ZERO {
            return Err(ShapeError::NonPositive("ellipsoid radii"));
        }
        Ok(Self { radii: r })
    }

    /// The semi-axes `(a, b, c)` along the local x, y, z axes (meters).
    #[inline(always)]
    pub fn radii(&self) -> Vec3<R> {
        self.radii
    }
}

impl<R: Real> Support<R> for Ellipsoid<R> {
    type Hint = ();
    const STRICTLY_CONVEX: bool = true;

    // With D = diag(a, b, c) the ellipsoid is { D u : |u| <= 1 }, so
    // max d·(D u) = max (D d)·u is reached at u = D d / |D d|, and the
    // support point is D (D d) / |D d|. Scale-invariant in d.
    #[inline]
    fn support(&self, dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        let r = self.radii;
        if let Some(u) = unit_direction(r.mul_elem(dir)) {
            return r.mul_elem(u);
        }
        // `D d` was zero, subnormal-tiny, overflowing or not finite: rescale
        // `d` first so that a finite nonzero direction still gets its exact
        // answer; zero and non-finite directions get the +z pole.
        match unit_direction(dir).and_then(|d| unit_direction(r.mul_elem(d))) {
            Some(u) => r.mul_elem(u),
            None => Vec3::new(R::ZERO, R::ZERO, r.z),
        }
    }

    #[inline]
    fn interior_point(&self) -> Vec3<R> {
        Vec3::ZERO
    }

    #[inline]
    fn local_aabb(&self) -> Aabb<R> {
        Aabb::from_center_half_extents(Vec3::ZERO, self.radii)
    }

    /// Closed form: the extent along world axis `i` is the support value
    /// along row `i` of the rotation (that axis in the local frame),
    /// `|D row_i|`.
    #[inline]
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        // Each half-extent is the norm of a rotation row scaled by the
        // radii, taken on radii divided by the largest one and scaled back:
        // the squares of radii near `R::MIN_POSITIVE` would underflow to a
        // zero-size box, those of radii above `sqrt(R::MAX)` overflow.
        let m = &pose.rotation;
        let largest = self.radii.max_element();
        let (a, b, c) = (self.radii.x, self.radii.y, self.radii.z);
        let r = Vec3::new(a / largest, b / largest, c / largest);
        let half = Vec3::new(
            m.row(0).mul_elem(r).norm(),
            m.row(1).mul_elem(r).norm(),
            m.row(2).mul_elem(r).norm(),
        ) * largest;
        Aabb::from_center_half_extents(pose.translation, half)
    }
}

/// The unit vector along `v`, computed without overflow or loss of precision
/// for any finite nonzero `v` (huge or subnormal components included);
/// `None` for a zero or non-finite `v`.
///
/// Shared by the curved shapes (ellipsoid, cylinder, cone) and the
/// half-space, whose support functions normalize a direction.
#[inline]
pub(crate) fn unit_direction<R: Real>(v: Vec3<R>) -> Option<Vec3<R>> {
    let n2 = v.norm_squared();
    if n2.is_normal() {
        return Some(v * (R::ONE / n2.sqrt()));
    }
    // Slow path: divide by the largest magnitude so the largest component is
    // exactly ±1 and the squared norm lies in [1, 3].
    if !v.is_finite() {
        return None;
    }
    let m = v.max_abs();
    if m <= R::ZERO {
        return None;
    }
    let w = Vec3::new(v.x / m, v.y / m, v.z / m);
    Some(w * (R::ONE / w.norm()))
}
