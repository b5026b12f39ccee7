//! A box.

use crate::error::finite_vec;
use crate::shapes::ellipsoid::unit_direction;
use crate::{Aabb, CapacityError, Iso3, Real, ShapeError, Support, SupportSet, Vec3};

/// A box centred at the local origin, aligned with the local axes, with
/// half-extents `half_extents` (meters). Named `Cuboid` so as not to shadow
/// `alloc::boxed::Box`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Cuboid<R> {
    half_extents: Vec3<R>,
}

impl<R: Real> Cuboid<R> {
    /// A box; every half-extent must be finite and positive (meters).
    pub fn new(half_extents: Vec3<R>) -> Result<Self, ShapeError> {
        let h = finite_vec(half_extents, "box half-extents")?;
        if h.min_element() <= R::ZERO {
            return Err(ShapeError::NonPositive("box half-extents"));
        }
        Ok(Self { half_extents: h })
    }

    /// The half-extents (meters).
    #[inline(always)]
    pub fn half_extents(&self) -> Vec3<R> {
        self.half_extents
    }

    /// The corner numbers of [`Cuboid::corners`] in the order that walks
    /// each face's boundary: the Gray-code order 0, 1, 3, 2 around the
    /// `-z` square, then 6, 7, 5, 4 around the `+z` one, so that the four
    /// corners of any face come in order around it (the order
    /// [`Support::support_set`] lists them in, up to the sense).
    pub const FACE_WALK: [usize; 8] = [0, 1, 3, 2, 6, 7, 5, 4];

    /// The eight corners, local frame; corner `i` has `+x` when bit 0 of `i`
    /// is set, `+y` for bit 1, `+z` for bit 2.
    pub fn corners(&self) -> [Vec3<R>; 8] {
        let h = self.half_extents;
        core::array::from_fn(|i| {
            Vec3::new(
                if i & 1 != 0 { h.x } else { -h.x },
                if i & 2 != 0 { h.y } else { -h.y },
                if i & 4 != 0 { h.z } else { -h.z },
            )
        })
    }
}

/// `h` when `d >= 0`, `-h` otherwise (NaN picks `-h`: still on the box).
#[inline(always)]
fn pick<R: Real>(d: R, h: R) -> R {
    if d >= R::ZERO {
        h
    } else {
        -h
    }
}

impl<R: Real> Support<R> for Cuboid<R> {
    type Hint = ();
    const POLYTOPE: bool = true;

    #[inline(always)]
    fn support(&self, dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        let h = self.half_extents;
        Vec3::new(pick(dir.x, h.x), pick(dir.y, h.y), pick(dir.z, h.z))
    }

    #[inline]
    fn interior_point(&self) -> Vec3<R> {
        Vec3::ZERO
    }

    #[inline]
    fn local_aabb(&self) -> Aabb<R> {
        Aabb::from_center_half_extents(Vec3::ZERO, self.half_extents)
    }

    #[inline]
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        self.local_aabb().transformed(pose)
    }

    /// The corners within `tol` of the extreme projection: one corner, an
    /// edge's two ends, or a face's four corners (counter-clockwise seen from
    /// outside, for a face).
    fn support_set(
        &self,
        dir: Vec3<R>,
        tol: R,
        out: &mut SupportSet<R>,
    ) -> Result<(), CapacityError> {
        // `tol` is in meters along the unit direction.
        let dir = dir.try_normalize().unwrap_or(dir);
        out.clear();
        let best = {
            let mut h = ();
            dir.dot(self.support(dir, &mut h))
        };
        // Visit corners in an order that walks each face's boundary.
        let corners = self.corners();
        let mut face = [Vec3::ZERO; 8];
        let mut n = 0;
        // Bits shared by every corner taken (`common`) and set in any
        // (`any`): four corners with a bit in `common` or missing from
        // `any` lie on one face.
        let (mut common, mut any) = (0b111usize, 0usize);
        for i in Self::FACE_WALK {
            let c = corners[i];
            if dir.dot(c) >= best - tol {
                face[n] = c;
                n += 1;
                common &= i;
                any |= i;
            }
        }
        if n == 0 {
            // Only a non-finite `dir` gets here: still return a corner.
            return out.push(self.support(dir, &mut ()));
        }
        if n == 4 {
            if common != 0 || any != 0b111 {
                // A face, visited along its boundary: only the sense of
                // the walk may need turning.
                orient_quad_ccw(&mut face, dir);
            } else {
                order_quad_ccw(&mut face, dir);
            }
        }
        for p in &face[..n] {
            out.push(*p)?;
        }
        Ok(())
    }
}

/// Reverses the first four points, a quadrilateral listed along its
/// boundary, when they turn clockwise about `normal`; a flat or non-finite
/// turn leaves them as they are.
fn orient_quad_ccw<R: Real>(pts: &mut [Vec3<R>; 8], normal: Vec3<R>) {
    let turn = (pts[1] - pts[0]).cross(pts[2] - pts[1]).dot(normal);
    if turn < R::ZERO {
        pts[..4].reverse();
    }
}

/// Orders four coplanar points counter-clockwise about `normal`.
fn order_quad_ccw<R: Real>(pts: &mut [Vec3<R>; 8], normal: Vec3<R>) {
    // Unit length first: with a very long or very short `normal`, `v` below
    // would dwarf or vanish next to `u` and the angles collapse to ties.
    let normal = unit_direction(normal).unwrap_or(Vec3::Z);
    let c = (pts[0] + pts[1] + pts[2] + pts[3]) * R::lit(0.25);
    let u = (pts[0] - c).normalize_or(normal.any_orthonormal());
    let v = normal.cross(u);
    let key = |p: Vec3<R>| {
        let d = p - c;
        d.dot(v).atan2(d.dot(u))
    };
    // Insertion sort of four by angle.
    for i in 1..4 {
        let mut j = i;
        while j > 0 && key(pts[j - 1]) > key(pts[j]) {
            pts.swap(j - 1, j);
            j -= 1;
        }
    }
}
