//! Independent descriptions of each shape, for checking support functions.
//!
//! An [`Oracle`] says what a shape's core *is*, from its defining
//! inequalities and its vertices or surface samples, without calling the
//! shape's support code: the support point, AABB and support set a shape
//! returns are checked against it. A new shape joins by implementing
//! [`Oracle`] here and adding one arm to the fuzz decoder.

use mink_support::{
    Aabb, CapacityError, Capsule, Cone, ConvexHull, Cuboid, Cylinder, Ellipsoid, Iso3, Point, Real,
    Rounded, Segment, Sphere, Support, SupportSet, TerrainPrism, Triangle, Vec3,
};

/// How far the oracle's sample points describe the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Samples {
    /// The samples are the core's vertices: the core is their convex hull,
    /// so the largest projection over them *is* the support value, and a
    /// support set must contain every vertex within its tolerance.
    Vertices,
    /// The samples lie on the core's surface (a curved shape): the support
    /// value is at least their largest projection.
    Surface,
}

/// Number of samples around a circle (a cylinder's or cone's rim) or per
/// latitude ring of an ellipsoid.
pub const RING_SAMPLES: usize = 48;

/// What a shape's core is, described independently of its support code.
pub trait Oracle<R: Real>: Support<R> + core::fmt::Debug {
    /// `true` when `p` (local frame) belongs to the core within `tol`
    /// (meters), judged by the core's defining inequalities.
    fn core_contains(&self, p: Vec3<R>, tol: R) -> bool;

    /// The shape's size, meters: its largest coordinate magnitude or size
    /// parameter (core and inflation, within a small factor), the scale that
    /// tolerances are relative to. Never overflows for a valid shape.
    fn extent(&self) -> R;

    /// Points of the core (local frame) into `out`, and what they are.
    fn core_samples(&self, out: &mut Vec<Vec3<R>>) -> Samples;

    /// Checks what the shape's constructor promises about its input, and
    /// panics with the reason when it does not hold (a hull built from
    /// points: see [`HullFromPoints`]). Default: nothing to check.
    fn check_construction(&self) {}

    /// A warm-start hint made from a byte, possibly stale or out of range:
    /// the support must cope with any hint. Default: the default hint.
    fn hint_from_byte(&self, byte: u8) -> Self::Hint {
        let _ = byte;
        Self::Hint::default()
    }
}

/// Points in f64, divided by a common scale (the largest coordinate
/// magnitude involved), so that the oracles' products cannot overflow even
/// for shapes near the scalar's largest value.
struct Scaled {
    /// The scale: every scaled coordinate is at most 1 in magnitude.
    m: f64,
}

impl Scaled {
    /// The scale of `points`.
    fn new<R: Real>(points: &[Vec3<R>]) -> Self {
        let m = points
            .iter()
            .fold(f64::MIN_POSITIVE, |m, p| m.max(p.max_abs().to_f64()));
        Self { m }
    }

    /// `v` in f64, scaled.
    fn v<R: Real>(&self, v: Vec3<R>) -> Vec3<f64> {
        let c: Vec3<f64> = v.cast();
        Vec3::new(c.x / self.m, c.y / self.m, c.z / self.m)
    }

    /// A length in f64, scaled.
    fn len<R: Real>(&self, x: R) -> f64 {
        x.to_f64() / self.m
    }
}

/// `true` when `p` is on the inner side of every plane `(unit normal n,
/// point q)`, within `tol`: `n · (p - q) <= tol`.
fn inside_planes(planes: &[(Vec3<f64>, Vec3<f64>)], p: Vec3<f64>, tol: f64) -> bool {
    planes.iter().all(|&(n, q)| n.dot(p - q) <= tol)
}

/// Distance from `p` to the segment `a b`, by clamped projection.
pub fn segment_distance(p: Vec3<f64>, a: Vec3<f64>, b: Vec3<f64>) -> f64 {
    let ab = b - a;
    let len2 = ab.dot(ab);
    let t = if len2 > 0.0 {
        (ab.dot(p - a) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + ab * t - p).norm()
}

/// `true` when `p` is within `tol` of the segment `a b` (any scalar, any
/// magnitude).
fn near_segment<R: Real>(p: Vec3<R>, a: Vec3<R>, b: Vec3<R>, tol: R) -> bool {
    let s = Scaled::new(&[p, a, b]);
    segment_distance(s.v(p), s.v(a), s.v(b)) <= s.len(tol)
}

/// A normal of the triangle `a b c` (any length, either side): the cross
/// product of the two edges at the vertex opposite the longest edge, which
/// stays accurate for slivers (the two long edges of a sliver are nearly
/// parallel, and their cross product would be mostly rounding).
fn triangle_normal(a: Vec3<f64>, b: Vec3<f64>, c: Vec3<f64>) -> Vec3<f64> {
    let pts = [a, b, c];
    let length = |i: usize| (pts[(i + 1) % 3] - pts[i]).norm_squared();
    let longest = (0..3)
        .max_by(|&i, &j| length(i).total_cmp(&length(j)))
        .unwrap_or(0);
    let v = pts[(longest + 2) % 3];
    (pts[longest] - v).cross(pts[(longest + 1) % 3] - v)
}

/// `n` points evenly spaced on the circle of radius `r` at height `z`.
fn ring<R: Real>(r: R, z: R, n: usize, out: &mut Vec<Vec3<R>>) {
    for i in 0..n {
        let angle = R::lit(i as f64 * core::f64::consts::TAU / n as f64);
        out.push(Vec3::new(r * angle.cos(), r * angle.sin(), z));
    }
}

impl<R: Real> Oracle<R> for Point {
    fn core_contains(&self, p: Vec3<R>, tol: R) -> bool {
        p.max_abs() <= tol
    }
    fn extent(&self) -> R {
        R::ZERO
    }
    fn core_samples(&self, out: &mut Vec<Vec3<R>>) -> Samples {
        out.push(Vec3::ZERO);
        Samples::Vertices
    }
}

impl<R: Real> Oracle<R> for Sphere<R> {
    fn core_contains(&self, p: Vec3<R>, tol: R) -> bool {
        p.max_abs() <= tol
    }
    fn extent(&self) -> R {
        self.radius()
    }
    fn core_samples(&self, out: &mut Vec<Vec3<R>>) -> Samples {
        out.push(Vec3::ZERO);
        Samples::Vertices
    }
}

impl<R: Real> Oracle<R> for Cuboid<R> {
    fn core_contains(&self, p: Vec3<R>, tol: R) -> bool {
        let h = self.half_extents();
        p.x.abs() <= h.x + tol && p.y.abs() <= h.y + tol && p.z.abs() <= h.z + tol
    }
    fn extent(&self) -> R {
        self.half_extents().max_element()
    }
    fn core_samples(&self, out: &mut Vec<Vec3<R>>) -> Samples {
        let h = self.half_extents();
        for i in 0..8 {
            let s = |bit: usize, v: R| if i & bit != 0 { v } else { -v };
            out.push(Vec3::new(s(1, h.x), s(2, h.y), s(4, h.z)));
        }
        Samples::Vertices
    }
}

impl<R: Real> Oracle<R> for Capsule<R> {
    fn core_contains(&self, p: Vec3<R>, tol: R) -> bool {
        let h = Vec3::new(R::ZERO, R::ZERO, self.half_length());
        near_segment(p, -h, h, tol)
    }
    fn extent(&self) -> R {
        self.half_length().max_of(self.radius())
    }
    fn core_samples(&self, out: &mut Vec<Vec3<R>>) -> Samples {
        let h = Vec3::new(R::ZERO, R::ZERO, self.half_length());
        out.extend([-h, h]);
        Samples::Vertices
    }
}

impl<R: Real> Oracle<R> for Segment<R> {
    fn core_contains(&self, p: Vec3<R>, tol: R) -> bool {
        near_segment(p, self.a(), self.b(), tol)
    }
    fn extent(&self) -> R {
        self.a().max_abs().max_of(self.b().max_abs())
    }
    fn core_samples(&self, out: &mut Vec<Vec3<R>>) -> Samples {
        out.extend([self.a(), self.b()]);
        Samples::Vertices
    }
}

impl<R: Real> Oracle<R> for Ellipsoid<R> {
    /// `(x/a)² + (y/b)² + (z/c)² <= 1`, with `tol` measured along the
    /// smallest radius (so it is lenient along the others).
    fn core_contains(&self, p: Vec3<R>, tol: R) -> bool {
        let (p, r): (Vec3<f64>, Vec3<f64>) = (p.cast(), self.radii().cast());
        let q = Vec3::new(p.x / r.x, p.y / r.y, p.z / r.z);
        q.norm() <= 1.0 + tol.to_f64() / r.min_element()
    }
    fn extent(&self) -> R {
        self.radii().max_element()
    }
    fn core_samples(&self, out: &mut Vec<Vec3<R>>) -> Samples {
        let r = self.radii();
        let rings = RING_SAMPLES / 2;
        for j in 0..=rings {
            let theta = R::lit(j as f64 * core::f64::consts::PI / rings as f64);
            let mut unit = Vec::new();
            ring(theta.sin(), theta.cos(), RING_SAMPLES, &mut unit);
            out.extend(unit.into_iter().map(|u| u.mul_elem(r)));
        }
        Samples::Surface
    }
}

impl<R: Real> Oracle<R> for Cylinder<R> {
    fn core_contains(&self, p: Vec3<R>, tol: R) -> bool {
        let s = Scaled::new(&[p, Vec3::splat(self.radius().max_of(self.half_length()))]);
        let q = s.v(p);
        let radial = (q.x * q.x + q.y * q.y).sqrt();
        radial <= s.len(self.radius() + tol) && p.z.abs() <= self.half_length() + tol
    }
    fn extent(&self) -> R {
        self.radius().max_of(self.half_length())
    }
    fn core_samples(&self, out: &mut Vec<Vec3<R>>) -> Samples {
        let (r, h) = (self.radius(), self.half_length());
        ring(r, h, RING_SAMPLES, out);
        ring(r, -h, RING_SAMPLES, out);
        Samples::Surface
    }
}

impl<R: Real> Oracle<R> for Cone<R> {
    /// `-h <= z <= h` and `sqrt(x² + y²) <= r (h - z) / 2h`, with `tol`
    /// measured perpendicular to the side.
    fn core_contains(&self, p: Vec3<R>, tol: R) -> bool {
        let s = Scaled::new(&[p, Vec3::splat(self.radius().max_of(self.half_length()))]);
        let (q, r, h, t) = (
            s.v(p),
            s.len(self.radius()),
            s.len(self.half_length()),
            s.len(tol),
        );
        let radial = (q.x * q.x + q.y * q.y).sqrt();
        // The side's outward normal in the (radial, z) plane is (2h, r)/|.|.
        let side = (radial * (h + h) + (q.z - h) * r) / (r * r + 4.0 * h * h).sqrt();
        q.z >= -h - t && q.z <= h + t && side <= t
    }
    fn extent(&self) -> R {
        self.radius().max_of(self.half_length())
    }
    fn core_samples(&self, out: &mut Vec<Vec3<R>>) -> Samples {
        let (r, h) = (self.radius(), self.half_length());
        out.push(Vec3::new(R::ZERO, R::ZERO, h));
        ring(r, -h, RING_SAMPLES, out);
        Samples::Surface
    }
}

impl<R: Real> Oracle<R> for Triangle<R> {
    /// Within `tol` of the triangle's plane (more for a sliver, whose
    /// normal is ill-conditioned), and inside its three edges
    /// (in-plane outward normals) within `tol`. Each edge's outward
    /// normal is `(v - u) × n` for the winding's normal `n`: the same
    /// orientation for all three whatever the triangle's shape (a sliver's
    /// centroid is too close to its edges to orient them by).
    fn core_contains(&self, p: Vec3<R>, tol: R) -> bool {
        let [a, b, c] = self.vertices();
        let s = Scaled::new(&[p, a, b, c]);
        let (p, a, b, c, tol) = (s.v(p), s.v(a), s.v(b), s.v(c), s.len(tol));
        let n = triangle_normal(a, b, c);
        let Some(unit) = n.try_normalize() else {
            return false;
        };
        let edges = [(a, b), (b, c), (c, a)];
        let planes: Vec<_> = edges
            .iter()
            .filter_map(|&(u, v)| (v - u).cross(unit).try_normalize().map(|m| (m, u)))
            .collect();
        // A sliver's normal is known only to `ε` times its longest edge
        // squared over twice its area (the sine of its smallest angle,
        // inverted): a point of the triangle can be that much times its
        // distance from `a` off the computed plane.
        let longest = [(b - a), (c - b), (a - c)]
            .iter()
            .fold(0.0f64, |m, e| m.max(e.norm_squared()));
        let tilt = f64::EPSILON * 8.0 * longest / n.norm();
        let plane_tol = tol + tilt * (p - a).norm();
        unit.dot(p - a).abs() <= plane_tol && planes.len() == 3 && inside_planes(&planes, p, tol)
    }
    fn extent(&self) -> R {
        let [a, b, c] = self.vertices();
        a.max_abs().max_of(b.max_abs()).max_of(c.max_abs())
    }
    fn core_samples(&self, out: &mut Vec<Vec3<R>>) -> Samples {
        out.extend(self.vertices());
        Samples::Vertices
    }
}

impl<R: Real> Oracle<R> for TerrainPrism<R> {
    /// Inside its five face planes (top triangle, base, three vertical
    /// sides) within `tol`. The sides are oriented by the top triangle's
    /// winding seen from above and the top plane faces up, whatever the
    /// triangle's shape (a sliver's vertex mean is too close to its long
    /// sides to orient them by); the top plane allows its normal's
    /// uncertainty on a sliver, as the triangle oracle does.
    fn core_contains(&self, p: Vec3<R>, tol: R) -> bool {
        let verts = self.vertices();
        let s = Scaled::new(&[p, verts[0], verts[1], verts[2], verts[3]]);
        let (p, tol) = (s.v(p), s.len(tol));
        let v = verts.map(|q| s.v(q));
        let [t0, t1, t2] = [v[0], v[1], v[2]];
        let n = triangle_normal(t0, t1, t2);
        // The footprint's winding: the sign of the normal's z (the
        // constructor refuses a footprint of zero area).
        let up = if n.z < 0.0 { -n } else { n };
        let Some(top) = up.try_normalize() else {
            return false;
        };
        let ccw = n.z >= 0.0;
        let mut planes = vec![(-Vec3::Z, v[3])];
        for (u, w) in [(t0, t1), (t1, t2), (t2, t0)] {
            let side = (w - u).cross(Vec3::Z);
            let side = if ccw { side } else { -side };
            planes.extend(side.try_normalize().map(|m| (m, u)));
        }
        let longest = [(t1 - t0), (t2 - t1), (t0 - t2)]
            .iter()
            .fold(0.0f64, |m, e| m.max(e.norm_squared()));
        let tilt = f64::EPSILON * 8.0 * longest / n.norm();
        let top_tol = tol + tilt * (p - t0).norm();
        planes.len() == 4 && top.dot(p - t0) <= top_tol && inside_planes(&planes, p, tol)
    }
    fn extent(&self) -> R {
        self.vertices()
            .iter()
            .fold(R::ZERO, |m, v| m.max_of(v.max_abs()))
    }
    fn core_samples(&self, out: &mut Vec<Vec3<R>>) -> Samples {
        out.extend(self.vertices());
        Samples::Vertices
    }
}

impl<R: Real, S: Oracle<R>> Oracle<R> for Rounded<S, R> {
    fn core_contains(&self, p: Vec3<R>, tol: R) -> bool {
        self.inner().core_contains(p, tol)
    }
    fn extent(&self) -> R {
        self.inner().extent().max_of(self.margin())
    }
    fn core_samples(&self, out: &mut Vec<Vec3<R>>) -> Samples {
        self.inner().core_samples(out)
    }
    /// The inner shape's: rounding sweeps the core by the margin and leaves
    /// the core as it was built.
    fn check_construction(&self) {
        self.inner().check_construction()
    }
    fn hint_from_byte(&self, byte: u8) -> Self::Hint {
        self.inner().hint_from_byte(byte)
    }
}

/// A convex hull together with the points it was built from, so that the
/// hull is checked against its input rather than against itself.
#[derive(Clone, Debug)]
pub struct HullFromPoints<R> {
    /// The hull built from `points`.
    pub hull: ConvexHull<R>,
    /// The input points (local frame, meters).
    pub points: Vec<Vec3<R>>,
}

impl<R: Real> Support<R> for HullFromPoints<R> {
    type Hint = u32;
    const POLYTOPE: bool = true;
    fn support(&self, dir: Vec3<R>, hint: &mut u32) -> Vec3<R> {
        self.hull.support(dir, hint)
    }
    fn inflation(&self) -> R {
        self.hull.inflation()
    }
    fn interior_point(&self) -> Vec3<R> {
        self.hull.interior_point()
    }
    fn local_aabb(&self) -> Aabb<R> {
        self.hull.local_aabb()
    }
    fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        self.hull.world_aabb(pose)
    }
    fn support_set(
        &self,
        dir: Vec3<R>,
        tol: R,
        out: &mut SupportSet<R>,
    ) -> Result<(), CapacityError> {
        self.hull.support_set(dir, tol, out)
    }
}

/// Number of directions of the outer approximation a hull point is tested
/// against.
pub const HULL_TEST_DIRECTIONS: usize = 64;

/// Roundings of the points' size allowed on top of a hull's tolerance when
/// its input points are checked against its face planes (a plane stored in
/// `R` and a dot product in `R`).
pub const CONSTRUCTION_ULPS: f64 = 64.0;

impl<R: Real> Oracle<R> for HullFromPoints<R> {
    /// Inside the input points' hull as seen along [`HULL_TEST_DIRECTIONS`]
    /// spread directions (a Fibonacci sphere): `n · p <= max n · q + tol`
    /// over the input points `q`. Necessary for membership, and independent
    /// of the hull's own planes.
    fn core_contains(&self, p: Vec3<R>, tol: R) -> bool {
        let mut all = self.points.clone();
        all.push(p);
        let s = Scaled::new(&all);
        let (p, tol) = (s.v(p), s.len(tol));
        let q: Vec<Vec3<f64>> = self.points.iter().map(|&v| s.v(v)).collect();
        let golden = core::f64::consts::PI * (3.0 - 5f64.sqrt());
        (0..HULL_TEST_DIRECTIONS).all(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / HULL_TEST_DIRECTIONS as f64;
            let rho = (1.0 - z * z).sqrt();
            let angle = golden * i as f64;
            let n = Vec3::new(rho * angle.cos(), rho * angle.sin(), z);
            let top = q.iter().fold(f64::NEG_INFINITY, |m, v| m.max(n.dot(*v)));
            n.dot(p) <= top + tol
        })
    }
    fn extent(&self) -> R {
        self.points
            .iter()
            .fold(R::ZERO, |m, v| m.max_of(v.max_abs()))
    }
    /// The hull's vertices ([`Oracle::check_construction`] checks that they
    /// are input points and that the input points they leave out are within
    /// the builder's tolerance of every face plane).
    ///
    /// Not the input points themselves: the builder's contract is "every
    /// input point on or below every face plane within the tolerance `τ`",
    /// and near a sharp vertex (a needle's tip) a point within `τ` of every
    /// plane can stand much farther than `τ` beyond the hull (fuzzing found
    /// 14.6 m beyond an f32 needle 131 km long, `τ` = 2.1 m), so the support
    /// is only bound to reach the vertices' extreme. `Surface`, not
    /// `Vertices`: a hull's support set is the best-aligned face's vertices
    /// within the tolerance, not every vertex within it.
    fn core_samples(&self, out: &mut Vec<Vec3<R>>) -> Samples {
        out.extend(self.hull.view().vertices().iter().copied());
        Samples::Surface
    }
    /// Every hull vertex is an input point, and every input point `q` is on
    /// or below every face plane within the hull's tolerance:
    /// `n · q - offset <= τ`, plus [`CONSTRUCTION_ULPS`] roundings of the
    /// points' size (the planes are stored in `R`).
    fn check_construction(&self) {
        let view = self.hull.view();
        for v in view.vertices() {
            assert!(
                self.points.iter().any(|q| q == v),
                "{self:?}: hull vertex {v:?} is not an input point"
            );
        }
        let size = self.extent();
        let slack = view.tolerance() + R::EPSILON * R::lit(CONSTRUCTION_ULPS) * size;
        for (i, plane) in view.planes().iter().enumerate() {
            for q in &self.points {
                let above = plane.normal.dot(*q) - plane.offset;
                assert!(
                    above <= slack,
                    "{self:?}: input point {q:?} is {above:?} above face {i}, \
                     beyond the tolerance {slack:?}"
                );
            }
        }
    }
    fn hint_from_byte(&self, byte: u8) -> u32 {
        u32::from(byte)
    }
}
