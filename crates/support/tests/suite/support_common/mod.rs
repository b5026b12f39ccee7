//! Shared by the `support_*`, `aabb_*` and `pair_*` tests: every shape of
//! mink-support with a reference description that shares no code with its
//! support function — parametric surface samples written here, the exact
//! vertices of polytopes, and an implicit "how far outside" measure.
//!
//! Everything in a reference is `f64`, computed from the shape's parameters
//! (read through its accessors), in the shape's local frame.
#![allow(dead_code)]

use mink_support::{
    Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Point, Real, Rounded, Segment, Sphere, Support,
    TerrainPrism, Triangle, Vec3,
};
use mink_testkit::Rng;
use std::f64::consts::PI;

/// A point or vector in the reference's `f64`.
pub type V = Vec3<f64>;

/// A shape's reference: the whole shape is the Minkowski sum of the core
/// samples' hull and the ball samples' hull.
pub struct Reference {
    /// What the shape is, for failure messages.
    pub name: String,
    /// Dense samples on the core's surface (on the core itself when it is
    /// a point, a segment or a triangle).
    pub core: Vec<V>,
    /// Every point of the core's surface is within this distance of a core
    /// sample (meters).
    pub core_spacing: f64,
    /// Samples on the sphere of radius `inflation` (the origin alone when
    /// the inflation is zero).
    pub ball: Vec<V>,
    /// Every point of that sphere is within this distance of a ball sample.
    pub ball_spacing: f64,
    /// The shape's inflation radius.
    pub inflation: f64,
    /// The core's vertices when it is a polytope.
    pub vertices: Option<Vec<V>>,
    /// How far `p` lies outside the whole shape (meters): `<= 0` inside,
    /// positive outside (a distance to a face, an edge or a bounding plane,
    /// never more than a few times smaller than the true distance for the
    /// proportions generated here).
    pub outside: Box<dyn Fn(V) -> f64>,
    /// A length scale for rounding tolerances (meters).
    pub size: f64,
    /// `true` when the whole shape has no volume (a point, a segment, a
    /// triangle, none of them inflated).
    pub flat: bool,
    /// `true` when `support_set` returns every vertex within the tolerance
    /// (the primitives); a hull returns one vertex, one edge or one face
    /// loop, which for a large tolerance can be fewer.
    pub complete_sets: bool,
}

impl Reference {
    /// `max over the whole shape of d·x` by brute force over the samples,
    /// for a unit `d`.
    pub fn max_along(&self, d: V) -> f64 {
        max_dot(&self.core, d) + max_dot(&self.ball, d)
    }

    /// How much [`Reference::max_along`] may fall short of the true maximum.
    pub fn spacing(&self) -> f64 {
        self.core_spacing + self.ball_spacing
    }

    /// The rounding tolerance for results computed in `R` on this shape.
    pub fn tol<R: Real>(&self) -> f64 {
        fp_tol::<R>(self.size)
    }
}

/// Tolerance for rounding in `R` on quantities of size `size` (meters).
pub fn fp_tol<R: Real>(size: f64) -> f64 {
    R::EPSILON.to_f64() * 64.0 * size.max(1.0)
}

/// `max_i d·p_i`.
pub fn max_dot(points: &[V], d: V) -> f64 {
    points
        .iter()
        .map(|p| p.dot(d))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Visits every shape kind, a few random instances of each, with its
/// reference. Implemented by each test.
pub trait Visitor<R: Real> {
    /// Called once per shape instance.
    fn visit<S: Support<R>>(&mut self, shape: &S, reference: &Reference);
}

/// How many random instances of each shape kind [`for_each_shape`] makes.
pub const INSTANCES: usize = 3;

/// Calls `v` on every shape kind of mink-support, [`INSTANCES`] random
/// instances of each (one of the point).
pub fn for_each_shape<R: Real, T: Visitor<R>>(rng: &mut Rng, v: &mut T) {
    for_each_shape_n(rng, INSTANCES, v);
}

/// Calls `v` on every shape kind of mink-support, `instances` random
/// instances of each (one of the point).
pub fn for_each_shape_n<R: Real, T: Visitor<R>>(rng: &mut Rng, instances: usize, v: &mut T) {
    let point = Point;
    v.visit::<Point>(&point, &point_ref());
    for _ in 0..instances {
        let s = Sphere::<R>::new(rng.range(0.2, 2.0)).unwrap();
        v.visit(&s, &sphere_ref(s.radius().to_f64()));

        let c = Cuboid::<R>::new(Vec3::new(
            rng.range(0.2, 2.0),
            rng.range(0.2, 2.0),
            rng.range(0.2, 2.0),
        ))
        .unwrap();
        v.visit(&c, &cuboid_ref(c.half_extents().cast(), 0.0));

        let cap = Capsule::<R>::new(rng.range(0.2, 1.0), rng.range(0.0, 1.5)).unwrap();
        v.visit(
            &cap,
            &capsule_ref(cap.radius().to_f64(), cap.half_length().to_f64()),
        );

        let seg = Segment::<R>::new(rng.in_cube(1.5), rng.in_cube(1.5)).unwrap();
        v.visit(&seg, &segment_ref(seg.a().cast(), seg.b().cast(), 0.0));

        let e = Ellipsoid::<R>::new(Vec3::new(
            rng.range(0.2, 2.0),
            rng.range(0.2, 2.0),
            rng.range(0.2, 2.0),
        ))
        .unwrap();
        v.visit(&e, &ellipsoid_ref(e.radii().cast()));

        let cy = Cylinder::<R>::new(rng.range(0.2, 2.0), rng.range(0.2, 2.0)).unwrap();
        v.visit(
            &cy,
            &cylinder_ref(cy.radius().to_f64(), cy.half_length().to_f64(), 0.0),
        );

        let co = Cone::<R>::new(rng.range(0.2, 2.0), rng.range(0.2, 2.0)).unwrap();
        v.visit(
            &co,
            &cone_ref(co.radius().to_f64(), co.half_length().to_f64()),
        );

        let t = random_triangle::<R>(rng);
        v.visit(&t, &triangle_ref(t.vertices().map(|p| p.cast()), 0.0));

        let p = random_prism::<R>(rng);
        v.visit(&p, &prism_ref(p.top().map(|q| q.cast()), p.base().to_f64()));

        let m: R = rng.range(0.05, 0.5);
        let rc = Rounded::new(c, m).unwrap();
        v.visit(&rc, &cuboid_ref(c.half_extents().cast(), m.to_f64()));
        let ry = Rounded::new(cy, m).unwrap();
        v.visit(
            &ry,
            &cylinder_ref(cy.radius().to_f64(), cy.half_length().to_f64(), m.to_f64()),
        );
        let rt = Rounded::new(t, m).unwrap();
        v.visit(
            &rt,
            &triangle_ref(t.vertices().map(|p| p.cast()), m.to_f64()),
        );
        let rs = Rounded::new(seg, m).unwrap();
        v.visit(
            &rs,
            &segment_ref(seg.a().cast(), seg.b().cast(), m.to_f64()),
        );

        #[cfg(feature = "alloc")]
        {
            let points = hull_points::<R>(rng);
            let hull = mink_support::ConvexHull::from_points(&points).unwrap();
            let reference = hull_ref(&points);
            v.visit(&hull, &reference);
            v.visit(&hull.view(), &reference);
        }
    }
}

/// Shape kinds [`for_each_shape_n`] visits per instance (the point aside):
/// 13, plus the owned hull and its view with the `alloc` feature.
pub const KINDS: usize = if cfg!(feature = "alloc") { 15 } else { 13 };

/// How many shapes [`for_each_shape_n`] visits for `instances`.
pub fn shape_count(instances: usize) -> usize {
    1 + instances * KINDS
}

/// 40 points on a random ellipsoid (all of them hull vertices) around a
/// random centre.
pub fn hull_points<R: Real>(rng: &mut Rng) -> Vec<Vec3<R>> {
    let radii = V::new(
        rng.range_f64(0.3, 1.5),
        rng.range_f64(0.3, 1.5),
        rng.range_f64(0.3, 1.5),
    );
    let centre: V = rng.in_cube(0.5);
    (0..40)
        .map(|_| (rng.unit_vec::<f64>().mul_elem(radii) + centre).cast())
        .collect()
}

/// The convex hull of `points`: its facet planes found by brute force over
/// every triple of points (a plane with every point on one side), sharing
/// nothing with the hull builder.
pub fn hull_ref<R: Real>(points: &[Vec3<R>]) -> Reference {
    let pts: Vec<V> = points.iter().map(|p| p.cast()).collect();
    let mut planes: Vec<(V, f64)> = Vec::new();
    let n = pts.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let normal = (pts[j] - pts[i]).cross(pts[k] - pts[i]);
                if normal.norm() < 1e-9 {
                    continue;
                }
                let normal = normal / normal.norm();
                let offset = normal.dot(pts[i]);
                let above = pts.iter().all(|p| normal.dot(*p) <= offset + 1e-9);
                let below = pts.iter().all(|p| normal.dot(*p) >= offset - 1e-9);
                if above {
                    planes.push((normal, offset));
                } else if below {
                    planes.push((-normal, -offset));
                }
            }
        }
    }
    assert!(planes.len() >= 4, "brute-force hull has no volume");
    let size = pts.iter().map(|p| p.max_abs()).fold(0.0, f64::max);
    let mut r = with_ball(
        format!("hull of {} points", pts.len()),
        pts.clone(),
        0.0,
        0.0,
        Some(pts),
        Box::new(move |p: V| {
            planes
                .iter()
                .map(|(n, d)| n.dot(p) - d)
                .fold(f64::NEG_INFINITY, f64::max)
        }),
        size,
    );
    r.complete_sets = false;
    r
}

/// A random triangle with vertices in a cube of half-size 1.5, not too thin.
pub fn random_triangle<R: Real>(rng: &mut Rng) -> Triangle<R> {
    loop {
        let (a, b, c): (Vec3<R>, Vec3<R>, Vec3<R>) =
            (rng.in_cube(1.5), rng.in_cube(1.5), rng.in_cube(1.5));
        let area2 = (b - a).cross(c - a).norm().to_f64();
        if area2 > 0.3 {
            if let Ok(t) = Triangle::new(a, b, c) {
                return t;
            }
        }
    }
}

/// A random terrain prism: a triangle over a random footprint with heights
/// in `[0, 1]` and a base in `[-1, 0]`.
pub fn random_prism<R: Real>(rng: &mut Rng) -> TerrainPrism<R> {
    loop {
        let mut p = || -> Vec3<R> {
            Vec3::new(
                rng.range(-1.5, 1.5),
                rng.range(-1.5, 1.5),
                rng.range(0.0, 1.0),
            )
        };
        let top = [p(), p(), p()];
        let ab = top[1] - top[0];
        let ac = top[2] - top[0];
        let area2 = (ab.x * ac.y - ab.y * ac.x).abs().to_f64();
        if area2 > 0.3 {
            let base = rng.range(-1.0, 0.0);
            if let Ok(prism) = TerrainPrism::new(top, base) {
                return prism;
            }
        }
    }
}

// ---- samplers: parametric surfaces -----------------------------------

/// A latitude-longitude grid on the unit sphere: `n + 1` latitudes (poles
/// included), `2n` longitudes (a multiple of 4 when `n` is even, so the ±x
/// and ±y points are samples). Every point of the sphere is within `π / n`
/// of a sample.
pub fn unit_sphere(n: usize) -> (Vec<V>, f64) {
    let mut pts = Vec::new();
    for i in 0..=n {
        let theta = PI * i as f64 / n as f64;
        let count = if i == 0 || i == n { 1 } else { 2 * n };
        for j in 0..count {
            let phi = PI * j as f64 / n as f64;
            pts.push(V::new(
                theta.sin() * phi.cos(),
                theta.sin() * phi.sin(),
                theta.cos(),
            ));
        }
    }
    (pts, PI / n as f64)
}

/// Ball samples of radius `r`: a sphere grid, or the origin when `r == 0`.
pub fn ball(r: f64) -> (Vec<V>, f64) {
    if r == 0.0 {
        return (vec![V::ZERO], 0.0);
    }
    let (pts, spacing) = unit_sphere(40);
    (pts.into_iter().map(|p| p * r).collect(), spacing * r)
}

/// A grid of `(k + 1)²` points on the parallelogram `o + s u + t v`,
/// `s, t ∈ [0, 1]`, and its spacing.
pub fn quad(o: V, u: V, v: V, k: usize, out: &mut Vec<V>) -> f64 {
    for i in 0..=k {
        for j in 0..=k {
            out.push(o + u * (i as f64 / k as f64) + v * (j as f64 / k as f64));
        }
    }
    (u.norm() + v.norm()) / (2.0 * k as f64)
}

/// A barycentric grid on the triangle `a b c` (vertices included) and its
/// spacing.
pub fn triangle_grid(a: V, b: V, c: V, k: usize, out: &mut Vec<V>) -> f64 {
    for i in 0..=k {
        for j in 0..=(k - i) {
            out.push(a + (b - a) * (i as f64 / k as f64) + (c - a) * (j as f64 / k as f64));
        }
    }
    let longest = (b - a).norm().max((c - a).norm()).max((c - b).norm());
    longest / k as f64
}

/// Distance from `p` to the segment `a b`.
pub fn dist_segment(p: V, a: V, b: V) -> f64 {
    let ab = b - a;
    let l2 = ab.norm_squared();
    let t = if l2 > 0.0 {
        ((p - a).dot(ab) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + ab * t - p).norm()
}

/// Distance from `p` to the (solid, flat) triangle `a b c`.
pub fn dist_triangle(p: V, a: V, b: V, c: V) -> f64 {
    let n = (b - a).cross(c - a);
    let nn = n / n.norm();
    let h = (p - a).dot(nn);
    let q = p - nn * h;
    let inside = (b - a).cross(q - a).dot(n) >= 0.0
        && (c - b).cross(q - b).dot(n) >= 0.0
        && (a - c).cross(q - c).dot(n) >= 0.0;
    if inside {
        h.abs()
    } else {
        dist_segment(p, a, b)
            .min(dist_segment(p, b, c))
            .min(dist_segment(p, c, a))
    }
}

fn with_ball(
    name: String,
    core: Vec<V>,
    core_spacing: f64,
    inflation: f64,
    vertices: Option<Vec<V>>,
    outside: Box<dyn Fn(V) -> f64>,
    size: f64,
) -> Reference {
    let (ball, ball_spacing) = ball(inflation);
    Reference {
        name,
        core,
        core_spacing,
        ball,
        ball_spacing,
        inflation,
        vertices,
        outside,
        size: size + inflation,
        flat: false,
        complete_sets: true,
    }
}

// ---- references, one per shape kind -----------------------------------

/// The point at the origin.
pub fn point_ref() -> Reference {
    let mut r = with_ball(
        "point".into(),
        vec![V::ZERO],
        0.0,
        0.0,
        Some(vec![V::ZERO]),
        Box::new(|p: V| p.norm()),
        1.0,
    );
    r.flat = true;
    r
}

/// A sphere of radius `r`: a point core and a ball.
pub fn sphere_ref(r: f64) -> Reference {
    with_ball(
        format!("sphere r={r}"),
        vec![V::ZERO],
        0.0,
        r,
        None,
        Box::new(move |p: V| p.norm() - r),
        r,
    )
}

/// A box with half-extents `h`, rounded by `m` (0 for a plain box).
pub fn cuboid_ref(h: V, m: f64) -> Reference {
    let mut core = Vec::new();
    let k = 24;
    let mut spacing: f64 = 0.0;
    for axis in 0..3 {
        let (i, j) = ((axis + 1) % 3, (axis + 2) % 3);
        for s in [-1.0, 1.0] {
            let mut o = [0.0; 3];
            o[axis] = s * h.get(axis);
            o[i] = -h.get(i);
            o[j] = -h.get(j);
            let mut u = [0.0; 3];
            u[i] = 2.0 * h.get(i);
            let mut v = [0.0; 3];
            v[j] = 2.0 * h.get(j);
            spacing = spacing.max(quad(o.into(), u.into(), v.into(), k, &mut core));
        }
    }
    let corners: Vec<V> = (0..8)
        .map(|c| {
            V::new(
                if c & 1 != 0 { h.x } else { -h.x },
                if c & 2 != 0 { h.y } else { -h.y },
                if c & 4 != 0 { h.z } else { -h.z },
            )
        })
        .collect();
    let outside: Box<dyn Fn(V) -> f64> = if m == 0.0 {
        Box::new(move |p: V| (p.abs() - h).max_element())
    } else {
        Box::new(move |p: V| (p.abs() - h).max(V::ZERO).norm() - m)
    };
    with_ball(
        format!("box h={h:?} rounded by {m}"),
        core,
        spacing,
        m,
        Some(corners),
        outside,
        h.max_element(),
    )
}

/// A capsule of radius `r` and half-length `h`: a segment core and a ball.
pub fn capsule_ref(r: f64, h: f64) -> Reference {
    let mut r_ = segment_ref(V::new(0.0, 0.0, -h), V::new(0.0, 0.0, h), r);
    r_.name = format!("capsule r={r} h={h}");
    r_
}

/// The segment `a b` rounded by `m` (0 for a plain segment).
pub fn segment_ref(a: V, b: V, m: f64) -> Reference {
    let k = 200;
    let core: Vec<V> = (0..=k).map(|i| a.lerp(b, i as f64 / k as f64)).collect();
    let mut r = with_ball(
        format!("segment {a:?} {b:?} rounded by {m}"),
        core,
        (b - a).norm() / (2.0 * k as f64),
        m,
        Some(vec![a, b]),
        Box::new(move |p: V| dist_segment(p, a, b) - m),
        a.max_abs().max(b.max_abs()),
    );
    r.flat = m == 0.0;
    r
}

/// An ellipsoid with semi-axes `r`.
pub fn ellipsoid_ref(r: V) -> Reference {
    let (sphere, spacing) = unit_sphere(80);
    let core = sphere.into_iter().map(|p| p.mul_elem(r)).collect();
    with_ball(
        format!("ellipsoid r={r:?}"),
        core,
        spacing * r.max_element(),
        0.0,
        None,
        // Radial distance to the surface: at least the true distance.
        Box::new(move |p: V| {
            let s = V::new(p.x / r.x, p.y / r.y, p.z / r.z).norm();
            if s > 0.0 {
                p.norm() * (1.0 - 1.0 / s)
            } else {
                -r.min_element()
            }
        }),
        r.max_element(),
    )
}

fn disc(r: f64, z: f64, rings: usize, around: usize, out: &mut Vec<V>) {
    for i in 0..=rings {
        let rho = r * i as f64 / rings as f64;
        for j in 0..around {
            let phi = 2.0 * PI * j as f64 / around as f64;
            out.push(V::new(rho * phi.cos(), rho * phi.sin(), z));
        }
    }
}

/// A cylinder of radius `r` and half-length `h` along z, rounded by `m`.
pub fn cylinder_ref(r: f64, h: f64, m: f64) -> Reference {
    let (around, along, rings) = (256, 40, 40);
    let mut core = Vec::new();
    for i in 0..=along {
        let z = -h + 2.0 * h * i as f64 / along as f64;
        for j in 0..around {
            let phi = 2.0 * PI * j as f64 / around as f64;
            core.push(V::new(r * phi.cos(), r * phi.sin(), z));
        }
    }
    disc(r, h, rings, around, &mut core);
    disc(r, -h, rings, around, &mut core);
    let spacing = (PI * r / around as f64)
        .max(h / along as f64)
        .max(r / rings as f64)
        * 1.5;
    let outside: Box<dyn Fn(V) -> f64> = if m == 0.0 {
        Box::new(move |p: V| (p.x.hypot(p.y) - r).max(p.z.abs() - h))
    } else {
        Box::new(move |p: V| {
            let a = (p.x.hypot(p.y) - r).max(0.0);
            let b = (p.z.abs() - h).max(0.0);
            a.hypot(b) - m
        })
    };
    with_ball(
        format!("cylinder r={r} h={h} rounded by {m}"),
        core,
        spacing,
        m,
        None,
        outside,
        r.max(h),
    )
}

/// A cone of base radius `r` and half-length `h`, apex at `+h`.
pub fn cone_ref(r: f64, h: f64) -> Reference {
    let (around, along, rings) = (256, 60, 40);
    let mut core = vec![V::new(0.0, 0.0, h)];
    for i in 1..=along {
        let t = i as f64 / along as f64;
        for j in 0..around {
            let phi = 2.0 * PI * j as f64 / around as f64;
            core.push(V::new(
                t * r * phi.cos(),
                t * r * phi.sin(),
                h - 2.0 * h * t,
            ));
        }
    }
    disc(r, -h, rings, around, &mut core);
    let slant = r.hypot(2.0 * h);
    let spacing = (PI * r / around as f64)
        .max(slant / along as f64)
        .max(r / rings as f64)
        * 1.5;
    with_ball(
        format!("cone r={r} h={h}"),
        core,
        spacing,
        0.0,
        None,
        // Inside when |z| <= h and the radius is within the cone's at z.
        Box::new(move |p: V| (p.z.abs() - h).max(p.x.hypot(p.y) - r * (h - p.z) / (2.0 * h))),
        r.max(h),
    )
}

/// The triangle `v`, rounded by `m`.
pub fn triangle_ref(v: [V; 3], m: f64) -> Reference {
    let [a, b, c] = v;
    let mut core = Vec::new();
    let spacing = triangle_grid(a, b, c, 80, &mut core);
    let mut r = with_ball(
        format!("triangle {v:?} rounded by {m}"),
        core,
        spacing,
        m,
        Some(v.to_vec()),
        Box::new(move |p: V| dist_triangle(p, a, b, c) - m),
        a.max_abs().max(b.max_abs()).max(c.max_abs()),
    );
    r.flat = m == 0.0;
    r
}

/// The prism under the triangle `top` down to `base`.
pub fn prism_ref(top: [V; 3], base: f64) -> Reference {
    let [a, b, c] = top;
    let down = |p: V| V::new(p.x, p.y, base);
    let mut core = Vec::new();
    let mut spacing: f64 = triangle_grid(a, b, c, 60, &mut core);
    spacing = spacing.max(triangle_grid(down(a), down(b), down(c), 60, &mut core));
    for (p, q) in [(a, b), (b, c), (c, a)] {
        // The side quad p q down(q) down(p), as a grid of segments.
        let k = 60;
        for i in 0..=k {
            let t = i as f64 / k as f64;
            let top = p.lerp(q, t);
            let bottom = down(top);
            for j in 0..=k {
                core.push(bottom.lerp(top, j as f64 / k as f64));
            }
        }
        spacing = spacing.max(((q - p).norm() + (p.z - base).max(q.z - base)) / (2.0 * k as f64));
    }
    let mut vertices = top.to_vec();
    vertices.extend(top.iter().map(|p| down(*p)));
    // Outside measure: beyond a footprint edge (xy distance), above the top
    // plane (vertical distance) or below the base.
    let ccw = (b - a).x * (c - a).y - (b - a).y * (c - a).x > 0.0;
    let n = (b - a).cross(c - a);
    let outside = move |p: V| {
        let mut worst = base - p.z;
        for (u, w) in [(a, b), (b, c), (c, a)] {
            let e = w - u;
            let len = e.x.hypot(e.y);
            let cross = e.x * (p.y - u.y) - e.y * (p.x - u.x);
            let out = if ccw { -cross } else { cross } / len;
            worst = worst.max(out);
        }
        // Top plane n·(x - a) = 0 with n.z != 0 (the footprint has area).
        let z_top = a.z - (n.x * (p.x - a.x) + n.y * (p.y - a.y)) / n.z;
        worst.max(p.z - z_top)
    };
    with_ball(
        format!("prism {top:?} base {base}"),
        core,
        spacing,
        0.0,
        Some(vertices),
        Box::new(outside),
        a.max_abs()
            .max(b.max_abs())
            .max(c.max_abs())
            .max(base.abs()),
    )
}
