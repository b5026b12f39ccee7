//! Shared helpers for mink-gjk's integration tests: a test-only shape enum
//! with pair dispatch, random shapes, and references that share no code
//! with GJK/EPA (support-plane certificates, brute-force feature distances,
//! SAT depths, exact segment–segment distance).
#![allow(dead_code)]

use mink_support::{
    Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Iso3, Point, Real, Rounded, Segment, Sphere,
    Support, Vec3,
};
use mink_testkit::Rng;

/// A shape of any kind, for tests.
#[derive(Clone, Debug)]
pub enum AnyShape<R: Real> {
    Point(Point),
    Sphere(Sphere<R>),
    Cuboid(Cuboid<R>),
    Capsule(Capsule<R>),
    Segment(Segment<R>),
    Cylinder(Cylinder<R>),
    Cone(Cone<R>),
    Ellipsoid(Ellipsoid<R>),
    RoundedBox(Rounded<Cuboid<R>, R>),
}

/// A generic operation on a concrete pair of shapes.
pub trait PairVisitor<R: Real> {
    type Out;
    fn visit<A: Support<R>, B: Support<R>>(self, a: &A, b: &B) -> Self::Out;
}

/// A generic operation on one concrete shape.
pub trait ShapeVisitor<R: Real> {
    type Out;
    fn visit<A: Support<R>>(self, a: &A) -> Self::Out;
}

macro_rules! each_shape {
    ($s:expr, $a:ident => $body:expr) => {
        match $s {
            AnyShape::Point($a) => $body,
            AnyShape::Sphere($a) => $body,
            AnyShape::Cuboid($a) => $body,
            AnyShape::Capsule($a) => $body,
            AnyShape::Segment($a) => $body,
            AnyShape::Cylinder($a) => $body,
            AnyShape::Cone($a) => $body,
            AnyShape::Ellipsoid($a) => $body,
            AnyShape::RoundedBox($a) => $body,
        }
    };
}

struct Second<'b, R: Real, V> {
    b: &'b AnyShape<R>,
    v: V,
}

impl<'b, R: Real, V: PairVisitor<R>> ShapeVisitor<R> for Second<'b, R, V> {
    type Out = V::Out;
    fn visit<A: Support<R>>(self, a: &A) -> V::Out {
        let v = self.v;
        each_shape!(self.b, b => v.visit(a, b))
    }
}

impl<R: Real> AnyShape<R> {
    pub fn visit<V: ShapeVisitor<R>>(&self, v: V) -> V::Out {
        each_shape!(self, a => v.visit(a))
    }

    pub fn name(&self) -> &'static str {
        match self {
            AnyShape::Point(_) => "point",
            AnyShape::Sphere(_) => "sphere",
            AnyShape::Cuboid(_) => "box",
            AnyShape::Capsule(_) => "capsule",
            AnyShape::Segment(_) => "segment",
            AnyShape::Cylinder(_) => "cylinder",
            AnyShape::Cone(_) => "cone",
            AnyShape::Ellipsoid(_) => "ellipsoid",
            AnyShape::RoundedBox(_) => "rounded-box",
        }
    }

    /// `true` for shapes with volume (EPA and GJK verdicts agree on them).
    pub fn solid(&self) -> bool {
        !matches!(self, AnyShape::Point(_) | AnyShape::Segment(_))
    }

    /// Support value `h(n) = max over the full shape of n·x`, world frame,
    /// in f64 (through the shape's support function, not through GJK).
    pub fn h(&self, pose: &Iso3<R>, n: Vec3<f64>) -> f64 {
        struct H<R: Real> {
            pose: Iso3<R>,
            n: Vec3<f64>,
        }
        impl<R: Real> ShapeVisitor<R> for H<R> {
            type Out = f64;
            fn visit<A: Support<R>>(self, a: &A) -> f64 {
                let pose = self.pose.cast::<f64>();
                let local = pose.inverse_transform_vector(self.n).cast::<R>();
                let mut hint = A::Hint::default();
                let p = pose.transform_point(a.support(local, &mut hint).cast::<f64>());
                self.n.dot(p) + a.inflation().to_f64() * self.n.norm()
            }
        }
        self.visit(H { pose: *pose, n })
    }

    /// A rough size: the radius of a bounding sphere about the origin.
    pub fn size(&self) -> f64 {
        let mut m = 0.0f64;
        for d in [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::X, -Vec3::Y, -Vec3::Z] {
            m = m.max(self.h(&Iso3::IDENTITY, d));
        }
        m * 3f64.sqrt()
    }
}

/// Runs a visitor on a pair of shapes.
pub fn with_pair<R: Real, V: PairVisitor<R>>(a: &AnyShape<R>, b: &AnyShape<R>, v: V) -> V::Out {
    a.visit(Second { b, v })
}

/// A random shape of a random kind, sizes in `[0.2, 2]` times `scale`.
pub fn random_shape<R: Real>(rng: &mut Rng, scale: f64) -> AnyShape<R> {
    let kind = rng.below(9);
    random_shape_of(rng, kind, scale)
}

/// A random shape of kind `kind` (0..9, in [`AnyShape`]'s order).
pub fn random_shape_of<R: Real>(rng: &mut Rng, kind: usize, scale: f64) -> AnyShape<R> {
    let mut s = || R::lit(rng.range_f64(0.2, 2.0) * scale);
    match kind {
        0 => AnyShape::Point(Point),
        1 => AnyShape::Sphere(Sphere::new(s()).unwrap()),
        2 => AnyShape::Cuboid(Cuboid::new(Vec3::new(s(), s(), s())).unwrap()),
        3 => AnyShape::Capsule(Capsule::new(s() * R::HALF, s()).unwrap()),
        4 => {
            let a = Vec3::new(s(), s(), s()) - Vec3::splat(R::lit(scale));
            let b = Vec3::new(s(), s(), s()) - Vec3::splat(R::lit(scale));
            AnyShape::Segment(Segment::new(a, b).unwrap())
        }
        5 => AnyShape::Cylinder(Cylinder::new(s(), s()).unwrap()),
        6 => AnyShape::Cone(Cone::new(s(), s()).unwrap()),
        7 => AnyShape::Ellipsoid(Ellipsoid::new(Vec3::new(s(), s(), s())).unwrap()),
        _ => {
            let c = Cuboid::new(Vec3::new(s(), s(), s())).unwrap();
            AnyShape::RoundedBox(Rounded::new(c, s() * R::lit(0.2)).unwrap())
        }
    }
}

/// `gap(n) = min over B of n·y - max over A of n·x` for a unit `n`: a lower
/// bound on the distance for every `n`, equal to it for the true normal.
pub fn gap<R: Real>(
    a: &AnyShape<R>,
    pa: &Iso3<R>,
    b: &AnyShape<R>,
    pb: &Iso3<R>,
    n: Vec3<f64>,
) -> f64 {
    -b.h(pb, -n) - a.h(pa, n)
}

/// The support of `s` at `pose` along the world unit `n`, in f64 (its
/// inflation included).
pub fn reach<R: Real, S: Support<R>>(s: &S, pose: &Iso3<R>, n: Vec3<f64>) -> f64 {
    let local = pose.rotation.transpose_mul(n.cast());
    let p = pose.transform_point(s.support(local, &mut S::Hint::default()));
    n.dot(p.cast()) + s.inflation().to_f64()
}

/// The gap between any two `Support` shapes along the world unit `n` (from
/// A to B): how far apart the support planes normal to `n` hold them.
pub fn support_gap<R: Real, A: Support<R>, B: Support<R>>(
    a: &A,
    pa: &Iso3<R>,
    b: &B,
    pb: &Iso3<R>,
    n: Vec3<f64>,
) -> f64 {
    -(reach(a, pa, n) + reach(b, pb, -n))
}

/// The directions a certificate search tries: the given ones plus a
/// Fibonacci sphere of `count` directions.
pub fn sphere_dirs(count: usize) -> Vec<Vec3<f64>> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..count)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / count as f64;
            let r = (1.0 - z * z).sqrt();
            let t = golden * i as f64;
            Vec3::new(r * t.cos(), r * t.sin(), z)
        })
        .collect()
}

/// The smallest overlap `h_A(n) + h_B(-n)` over directions near `n` and a
/// sphere of directions, refined by local search: an upper bound on the
/// penetration depth found independently of EPA.
pub fn min_overlap_search<R: Real>(
    a: &AnyShape<R>,
    pa: &Iso3<R>,
    b: &AnyShape<R>,
    pb: &Iso3<R>,
    start: Vec3<f64>,
) -> (f64, Vec3<f64>) {
    let ov = |n: Vec3<f64>| a.h(pa, n) + b.h(pb, -n);
    let mut best = (ov(start), start);
    for d in sphere_dirs(400) {
        let o = ov(d);
        if o < best.0 {
            best = (o, d);
        }
    }
    // Local refinement by shrinking random perturbations.
    let mut step = 0.2;
    let mut rng = Rng::new(7);
    while step > 1e-7 {
        let mut improved = false;
        for _ in 0..24 {
            let d = (best.1 + rng.unit_vec::<f64>() * step).normalize_or(best.1);
            let o = ov(d);
            if o < best.0 {
                best = (o, d);
                improved = true;
            }
        }
        if !improved {
            step *= 0.5;
        }
    }
    best
}

/// Distance between point `p` and segment `a b` (clamped projection).
pub fn point_segment(p: Vec3<f64>, a: Vec3<f64>, b: Vec3<f64>) -> f64 {
    let d = b - a;
    let dd = d.norm_squared();
    let t = if dd > 0.0 {
        ((p - a).dot(d) / dd).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + d * t - p).norm()
}

/// Exact distance between segments `p0 p1` and `q0 q1`: the minimum of the
/// convex quadratic `|p(s) - q(t)|²` over the unit square, either at its
/// interior stationary point or on the square's boundary (four
/// point–segment distances).
pub fn segment_segment(p0: Vec3<f64>, p1: Vec3<f64>, q0: Vec3<f64>, q1: Vec3<f64>) -> f64 {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, b) = (d1.dot(d1), d2.dot(d2), d1.dot(d2));
    let (c, f) = (d1.dot(r), d2.dot(r));
    let det = a * e - b * b;
    let mut best = point_segment(p0, q0, q1)
        .min(point_segment(p1, q0, q1))
        .min(point_segment(q0, p0, p1))
        .min(point_segment(q1, p0, p1));
    if det > 1e-14 * a * e {
        // Stationary point of s²a - 2stb + t²e + 2sc - 2tf + r·r.
        let s = (b * f - c * e) / det;
        let t = (a * f - b * c) / det;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            best = best.min((p0 + d1 * s - q0 - d2 * t).norm());
        }
    }
    best
}

/// Distance from `p` to triangle `a b c`: the plane projection when it lies
/// inside (barycentrics from the 2×2 normal equations), else the nearest
/// edge.
pub fn point_triangle(p: Vec3<f64>, a: Vec3<f64>, b: Vec3<f64>, c: Vec3<f64>) -> f64 {
    let (u, v, w) = (b - a, c - a, p - a);
    let (uu, uv, vv) = (u.dot(u), u.dot(v), v.dot(v));
    let (wu, wv) = (w.dot(u), w.dot(v));
    let det = uu * vv - uv * uv;
    let edges = point_segment(p, a, b)
        .min(point_segment(p, b, c))
        .min(point_segment(p, c, a));
    if det > 1e-14 * uu * vv {
        let s = (vv * wu - uv * wv) / det;
        let t = (uu * wv - uv * wu) / det;
        if s >= 0.0 && t >= 0.0 && s + t <= 1.0 {
            return (a + u * s + v * t - p).norm().min(edges);
        }
    }
    edges
}

/// A convex polytope in f64, world frame: vertices and the triangles of its
/// boundary (indices), found by brute force (every triple whose plane has
/// all vertices on one side).
#[derive(Clone, Debug)]
pub struct Poly {
    pub v: Vec<Vec3<f64>>,
    pub tris: Vec<[usize; 3]>,
    /// Outward unit normals of `tris`.
    pub normals: Vec<Vec3<f64>>,
}

impl Poly {
    pub fn from_points(v: Vec<Vec3<f64>>) -> Poly {
        let n = v.len();
        let size = v.iter().map(|p| p.norm()).fold(0.0, f64::max);
        let eps = 1e-9 * size.max(1e-300);
        let mut tris = Vec::new();
        let mut normals = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    let nn = (v[j] - v[i]).cross(v[k] - v[i]);
                    let Some(nu) = nn.try_normalize() else {
                        continue;
                    };
                    let (mut pos, mut neg) = (false, false);
                    for p in &v {
                        let s = nu.dot(*p - v[i]);
                        pos |= s > eps;
                        neg |= s < -eps;
                    }
                    if pos && neg {
                        continue;
                    }
                    tris.push([i, j, k]);
                    normals.push(if pos { -nu } else { nu });
                }
            }
        }
        Poly { v, tris, normals }
    }

    /// The edges of the triangles (unique unordered pairs).
    pub fn edges(&self) -> Vec<[usize; 2]> {
        let mut e: Vec<[usize; 2]> = Vec::new();
        for t in &self.tris {
            for (i, j) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                let k = [i.min(j), i.max(j)];
                if !e.contains(&k) {
                    e.push(k);
                }
            }
        }
        e
    }

    pub fn h(&self, n: Vec3<f64>) -> f64 {
        self.v.iter().map(|p| n.dot(*p)).fold(f64::MIN, f64::max)
    }
}

/// Brute-force distance between two separated convex polytopes: the minimum
/// over vertex–triangle pairs (both ways) and edge–edge pairs.
pub fn poly_distance(a: &Poly, b: &Poly) -> f64 {
    let mut best = f64::INFINITY;
    for (p, q) in [(a, b), (b, a)] {
        for v in &p.v {
            for t in &q.tris {
                best = best.min(point_triangle(*v, q.v[t[0]], q.v[t[1]], q.v[t[2]]));
            }
        }
    }
    let (ea, eb) = (a.edges(), b.edges());
    for e in &ea {
        for f in &eb {
            best = best.min(segment_segment(a.v[e[0]], a.v[e[1]], b.v[f[0]], b.v[f[1]]));
        }
    }
    best
}

/// SAT penetration depth of two overlapping convex polytopes: the minimum
/// overlap `h_A(n) + h_B(-n)` over face normals of both and cross products
/// of edge pairs (both signs), with its axis (from A to B).
pub fn sat_depth(a: &Poly, b: &Poly) -> (f64, Vec3<f64>) {
    let mut axes: Vec<Vec3<f64>> = Vec::new();
    axes.extend(a.normals.iter().copied());
    axes.extend(b.normals.iter().copied());
    for e in a.edges() {
        for f in b.edges() {
            let c = (a.v[e[1]] - a.v[e[0]]).cross(b.v[f[1]] - b.v[f[0]]);
            if let Some(c) = c.try_normalize() {
                axes.push(c);
            }
        }
    }
    let mut best = (f64::INFINITY, Vec3::X);
    for n in axes {
        for n in [n, -n] {
            let o = a.h(n) + b.h(-n);
            if o < best.0 {
                best = (o, n);
            }
        }
    }
    best
}

/// The world-frame polytope of a box.
pub fn box_poly<R: Real>(c: &Cuboid<R>, pose: &Iso3<R>) -> Poly {
    let pose = pose.cast::<f64>();
    Poly::from_points(
        c.corners()
            .iter()
            .map(|p| pose.transform_point(p.cast::<f64>()))
            .collect(),
    )
}

/// A random pose whose translation is uniform in a cube of half-size `half`.
pub fn pose<R: Real>(rng: &mut Rng, half: f64) -> Iso3<R> {
    rng.pose::<f64>(half).cast()
}
