//! A triangle: a flat polytope with three vertices.

use crate::error::finite_vec;
use crate::shapes::ellipsoid::unit_direction;
use crate::{Aabb, CapacityError, Iso3, Real, ShapeError, Support, SupportSet, Vec3};

/// A triangle is refused as degenerate when twice its area, `|(b-a)×(c-a)|`,
/// is at most this many epsilons times the square of its longest edge
/// (≈1.9e-6 in f32, ≈3.6e-15 in f64): its sine of the largest angle is then
/// below rounding noise, so it has no trustworthy normal.
pub const TRIANGLE_DEGENERACY_ULPS: f64 = 16.0;

/// The weight of each vertex in a triangle's centroid.
pub(crate) const ONE_THIRD: f64 = 1.0 / 3.0;

/// The triangle with vertices `a`, `b`, `c` (local frame, meters): a flat
/// polytope, the core itself (no inflation).
///
/// Its normal follows the right-hand rule: [`Triangle::normal`] is along
/// `(b - a) × (c - a)`, so `a, b, c` is counter-clockwise seen from the side
/// the normal points to.
///
/// Triangles of zero area (collinear or coincident vertices, within
/// [`TRIANGLE_DEGENERACY_ULPS`]) are refused: they have no normal and no
/// face, and a [`Segment`](crate::Segment) describes them exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Triangle<R> {
    a: Vec3<R>,
    b: Vec3<R>,
    c: Vec3<R>,
}

impl<R: Real> Triangle<R> {
    /// A triangle from its vertices (meters). Refuses a non-finite vertex
    /// ([`ShapeError::NonFinite`] naming it) and a triangle of zero area
    /// ([`ShapeError::Degenerate`], see [`TRIANGLE_DEGENERACY_ULPS`]).
    pub fn new(a: Vec3<R>, b: Vec3<R>, c: Vec3<R>) -> Result<Self, ShapeError> {
        let a = finite_vec(a, "triangle vertex a")?;
        let b = finite_vec(b, "triangle vertex b")?;
        let c = finite_vec(c, "triangle vertex c")?;
        let (ab, ac, bc) = (b - a, c - a, c - b);
        let longest2 = ab
            .norm_squared()
            .max_of(ac.norm_squared())
            .max_of(bc.norm_squared());
        let limit = R::EPSILON * R::lit(TRIANGLE_DEGENERACY_ULPS) * longest2;
        // Written so that a NaN from overflow also refuses.
        let has_area = ab.cross(ac).norm() > limit;
        if !has_area {
            return Err(ShapeError::Degenerate("triangle of zero area"));
        }
        Ok(Self { a, b, c })
    }

    /// The three vertices `[a, b, c]`.
    #[inline(always)]
    pub fn vertices(&self) -> [Vec3<R>; 3] {
        [self.a, self.b, self.c]
    }

    /// The unit normal along `(b - a) × (c - a)`, local frame.
    #[inline]
    pub fn normal(&self) -> Vec3<R> {
        // Never zero: the constructor refused zero area.
        unit_direction((self.b - self.a).cross(self.c - self.a)).unwrap_or(Vec3::Z)
    }

    /// The area (square meters).
    #[inline]
    pub fn area(&self) -> R {
        (self.b - self.a).cross(self.c - self.a).norm() * R::HALF
    }
}

impl<R: Real> Support<R> for Triangle<R> {
    type Hint = ();
    const POLYTOPE: bool = true;

    /// The vertex with the largest projection on `dir` (the first of equal
    /// ones, in the order `a, b, c`; `a` for a non-finite `dir`).
    #[inline(always)]
    fn support(&self, dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        let (da, db, dc) = (dir.dot(self.a), dir.dot(self.b), dir.dot(self.c));
        let (mut p, mut best) = (self.a, da);
        if db > best {
            p = self.b;
            best = db;
        }
        if dc > best {
            p = self.c;
        }
        p
    }

    /// The centroid, each vertex scaled before the sum so that vertices
    /// near the largest finite value do not overflow.
    #[inline]
    fn interior_point(&self) -> Vec3<R> {
        let third = R::lit(ONE_THIRD);
        self.a * third + self.b * third + self.c * third
    }

    /// Closed form: the box of the three transformed vertices.
    #[inline]
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        let a = pose.transform_point(self.a);
        let b = pose.transform_point(self.b);
        let c = pose.transform_point(self.c);
        Aabb::new(a.min(b).min(c), a.max(b).max(c))
    }

    /// The vertices within `tol` of the extreme projection: the whole face
    /// (counter-clockwise seen from `dir`: `a, b, c` when `dir` is on the
    /// normal's side, `a, c, b` otherwise), an edge's two ends, or one vertex.
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
        let facing = dir.dot((self.b - self.a).cross(self.c - self.a)) >= R::ZERO;
        let order = if facing {
            [self.a, self.b, self.c]
        } else {
            [self.a, self.c, self.b]
        };
        for p in order {
            if dir.dot(p) >= best - tol {
                out.push(p)?;
            }
        }
        if out.is_empty() {
            // Only a non-finite `dir` gets here.
            out.push(self.a)?;
        }
        Ok(())
    }
}
