//! A terrain prism: one height-field triangle extruded down to a base.

use crate::error::finite_vec;
use crate::shapes::ellipsoid::unit_direction;
use crate::shapes::triangle::{ONE_THIRD, TRIANGLE_DEGENERACY_ULPS};
use crate::{Aabb, CapacityError, Iso3, Real, ShapeError, Support, SupportSet, Vec3};

/// One triangle of a height field extruded straight down (along the local
/// `-z` axis) to the height `base`: a convex polytope with six vertices,
/// the three top vertices and their vertical projections on `z = base`.
///
/// The local frame is the height field's own: `z` is up, meters. A height
/// field's cell is two prisms ([`TerrainPrism::cell`]); giving terrain a
/// thickness down to a common base keeps an object that sinks below the
/// surface in contact with the cell instead of passing through it.
///
/// The core is the whole prism (no inflation).
///
/// ```
/// use mink_support::{Support, TerrainPrism, Vec3};
///
/// // A 1 m cell with corner heights 0, 0.1, 0.2, 0.3, thick down to z = -1.
/// let [a, b] = TerrainPrism::cell(0.0_f64, 0.0, 1.0, 1.0, [0.0, 0.1, 0.2, 0.3], -1.0).unwrap();
/// // Straight up: the highest corner; straight down: the base.
/// assert_eq!(a.support(Vec3::new(0.0, 0.0, 1.0), &mut ()).z, 0.3);
/// assert_eq!(b.support(Vec3::new(0.0, 0.0, -1.0), &mut ()).z, -1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TerrainPrism<R> {
    top: [Vec3<R>; 3],
    base: R,
}

impl<R: Real> TerrainPrism<R> {
    /// The prism under the triangle `top` (local frame, meters) down to the
    /// height `base`.
    ///
    /// Refuses a non-finite vertex or base ([`ShapeError::NonFinite`]), a
    /// triangle whose footprint in the xy plane has zero area (within
    /// [`TRIANGLE_DEGENERACY_ULPS`]), a base above the lowest top vertex, and
    /// a prism of zero height (all three top vertices at the base), each as
    /// [`ShapeError::Degenerate`] naming the reason. A base equal to the
    /// lowest top vertex is allowed (that vertical edge has zero length).
    pub fn new(top: [Vec3<R>; 3], base: R) -> Result<Self, ShapeError> {
        for p in top {
            finite_vec(p, "terrain prism top vertex")?;
        }
        if !base.finite() {
            return Err(ShapeError::NonFinite("terrain prism base"));
        }
        let [a, b, c] = top;
        let (ab, ac, bc) = (b - a, c - a, c - b);
        let len2 = |v: Vec3<R>| v.x * v.x + v.y * v.y;
        let longest2 = len2(ab).max_of(len2(ac)).max_of(len2(bc));
        let twice_area = (ab.x * ac.y - ab.y * ac.x).abs();
        // Written so that a NaN from overflow also refuses.
        let has_area = twice_area > R::EPSILON * R::lit(TRIANGLE_DEGENERACY_ULPS) * longest2;
        if !has_area {
            return Err(ShapeError::Degenerate(
                "terrain prism footprint of zero area",
            ));
        }
        let (low, high) = (a.z.min_of(b.z).min_of(c.z), a.z.max_of(b.z).max_of(c.z));
        if base > low {
            return Err(ShapeError::Degenerate(
                "terrain prism base above its top triangle",
            ));
        }
        let has_height = high > base;
        if !has_height {
            return Err(ShapeError::Degenerate("terrain prism of zero height"));
        }
        Ok(Self { top, base })
    }

    /// The two prisms of a rectangular height-field cell with its low corner
    /// at `(x, y)`, sides `size_x` and `size_y` (meters, positive), corner
    /// heights `heights = [h00, h10, h01, h11]` (`h_ij` at
    /// `(x + i size_x, y + j size_y)`) and base height `base`.
    ///
    /// The cell is split along its diagonal from `(x, y)` to
    /// `(x + size_x, y + size_y)`; both top triangles are counter-clockwise
    /// seen from above. Errors as [`TerrainPrism::new`], plus
    /// [`ShapeError::NonPositive`] for a side that is not positive.
    pub fn cell(
        x: R,
        y: R,
        size_x: R,
        size_y: R,
        heights: [R; 4],
        base: R,
    ) -> Result<[Self; 2], ShapeError> {
        crate::error::positive(size_x, "terrain cell size x")?;
        crate::error::positive(size_y, "terrain cell size y")?;
        let [h00, h10, h01, h11] = heights;
        let p00 = Vec3::new(x, y, h00);
        let p10 = Vec3::new(x + size_x, y, h10);
        let p01 = Vec3::new(x, y + size_y, h01);
        let p11 = Vec3::new(x + size_x, y + size_y, h11);
        Ok([
            Self::new([p00, p10, p11], base)?,
            Self::new([p00, p11, p01], base)?,
        ])
    }

    /// The top triangle's vertices, as given.
    #[inline(always)]
    pub fn top(&self) -> [Vec3<R>; 3] {
        self.top
    }

    /// The base height (meters, local z).
    #[inline(always)]
    pub fn base(&self) -> R {
        self.base
    }

    /// The six vertices: the top triangle's, then their projections on the
    /// base in the same order.
    pub fn vertices(&self) -> [Vec3<R>; 6] {
        let t = self.top;
        core::array::from_fn(|i| match i {
            0..=2 => t[i],
            _ => {
                let p = t[i - 3];
                Vec3::new(p.x, p.y, self.base)
            }
        })
    }
}

impl<R: Real> Support<R> for TerrainPrism<R> {
    type Hint = ();
    const POLYTOPE: bool = true;

    // Each vertical edge (top vertex above its base vertex, top z >= base)
    // reaches farthest along dir at its top end when dir.z > 0, else at its
    // base end; the support is the best of those three candidates.
    #[inline]
    fn support(&self, dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        let up = dir.z > R::ZERO;
        let candidate = |p: Vec3<R>| {
            if up {
                p
            } else {
                Vec3::new(p.x, p.y, self.base)
            }
        };
        let [a, b, c] = self.top;
        let (mut best, mut best_value) = (candidate(a), dir.dot(candidate(a)));
        for p in [candidate(b), candidate(c)] {
            let value = dir.dot(p);
            if value > best_value {
                best = p;
                best_value = value;
            }
        }
        best
    }

    /// The mean of the six vertices: strictly inside, since the prism has
    /// volume.
    #[inline]
    fn interior_point(&self) -> Vec3<R> {
        let [a, b, c] = self.top;
        // Scale before adding: the sum of three coordinates near the largest
        // float would overflow.
        let third = R::lit(ONE_THIRD);
        let mean = a * third + b * third + c * third;
        Vec3::new(mean.x, mean.y, mean.z * R::HALF + self.base * R::HALF)
    }

    /// Closed form: the box of the six transformed vertices.
    #[inline]
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        let v = self.vertices();
        let first = pose.transform_point(v[0]);
        let mut bounds = Aabb::new(first, first);
        for p in &v[1..] {
            bounds = bounds.including(pose.transform_point(*p));
        }
        bounds
    }

    /// The vertices within `tol` of the extreme projection: a face (the top
    /// or bottom triangle, or a side quad), an edge's two ends or one vertex;
    /// three or more are ordered counter-clockwise seen from `dir`. A top
    /// vertex lying on the base appears once.
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
        let mut pts = [Vec3::ZERO; 6];
        let mut n = 0;
        for (i, p) in self.vertices().into_iter().enumerate() {
            // A base vertex equal to its top vertex (a top vertex at the
            // base height) is listed once.
            let repeated = i >= 3 && self.top.get(i - 3) == Some(&p);
            if !repeated && dir.dot(p) >= best - tol {
                pts[n] = p;
                n += 1;
            }
        }
        if n == 0 {
            // Only a non-finite `dir` gets here.
            return out.push(self.support(dir, &mut ()));
        }
        if n >= 3 {
            order_ccw(&mut pts[..n], dir);
        }
        for p in &pts[..n] {
            out.push(*p)?;
        }
        Ok(())
    }
}

/// Sorts points by angle about their centroid, counter-clockwise seen from
/// the tip of `dir` (insertion sort: at most six points).
fn order_ccw<R: Real>(pts: &mut [Vec3<R>], dir: Vec3<R>) {
    let mut c = Vec3::ZERO;
    for p in pts.iter() {
        c += *p;
    }
    c *= R::ONE / R::lit(pts.len() as f64);
    let normal = unit_direction(dir).unwrap_or(Vec3::Z);
    let u = normal.any_orthonormal();
    let v = normal.cross(u);
    let key = |p: Vec3<R>| {
        let d = p - c;
        d.dot(v).atan2(d.dot(u))
    };
    for i in 1..pts.len() {
        let mut j = i;
        while j > 0 && key(pts[j - 1]) > key(pts[j]) {
            pts.swap(j - 1, j);
            j -= 1;
        }
    }
}
