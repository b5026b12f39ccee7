//! GJK distance between shapes whose flat faces are flush (coplanar): a
//! box beside a cylinder standing on the same floor, two boxes, two
//! cylinders cap on cap, separated sideways. Support functions tie on the
//! shared plane, which makes thin ("sliver") simplices: the pose class
//! where GJK used to end `Degenerate` (issue 32). Seeded, f32 and f64.
//!
//! With the faces flush the shapes' height ranges overlap or touch, so the
//! distance is that of their footprints in the floor plane: a rectangle or
//! a disc. The reference is that 2D distance in f64 (closed form for two
//! discs, brute force over vertices and edges otherwise), sharing no code
//! with GJK. Each pose is built from the gap: B's footprint is slid along a
//! random ray until its distance to A's is the drawn gap (bisection; the
//! distance is non-decreasing along the ray).

use mink_gjk::{distance, gjk_tolerance, GjkStatus};
use mink_support::{Cuboid, Cylinder, Iso3, Mat3, Pair, Real, Support, Vec3};
use mink_testkit::{for_each_real, Rng};

/// Poses per pair kind and scalar.
const CASES: usize = 4000;

/// A 2D footprint in the floor plane (f64): a rectangle (centre, half
/// extents, angle) or a disc (centre, radius).
#[derive(Clone, Copy, Debug)]
enum Foot {
    Rect {
        c: [f64; 2],
        h: [f64; 2],
        angle: f64,
    },
    Disc {
        c: [f64; 2],
        r: f64,
    },
}

fn sub(p: [f64; 2], q: [f64; 2]) -> [f64; 2] {
    [p[0] - q[0], p[1] - q[1]]
}

fn dot(p: [f64; 2], q: [f64; 2]) -> f64 {
    p[0] * q[0] + p[1] * q[1]
}

/// The point of segment `a b` closest to `p`.
fn closest_on_segment(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    let d = sub(b, a);
    let t = (dot(sub(p, a), d) / dot(d, d)).clamp(0.0, 1.0);
    [a[0] + d[0] * t, a[1] + d[1] * t]
}

impl Foot {
    fn moved(self, by: [f64; 2]) -> Foot {
        match self {
            Foot::Rect { c, h, angle } => Foot::Rect {
                c: [c[0] + by[0], c[1] + by[1]],
                h,
                angle,
            },
            Foot::Disc { c, r } => Foot::Disc {
                c: [c[0] + by[0], c[1] + by[1]],
                r,
            },
        }
    }

    /// The rectangle's corners, counter-clockwise.
    fn corners(c: [f64; 2], h: [f64; 2], angle: f64) -> [[f64; 2]; 4] {
        let (s, k) = angle.sin_cos();
        [[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]].map(|[x, y]| {
            let (x, y) = (x * h[0], y * h[1]);
            [c[0] + k * x - s * y, c[1] + s * x + k * y]
        })
    }

    fn inside_rect(p: [f64; 2], c: [f64; 2], h: [f64; 2], angle: f64) -> bool {
        let (s, k) = angle.sin_cos();
        let d = sub(p, c);
        let (x, y) = (k * d[0] + s * d[1], -s * d[0] + k * d[1]);
        x.abs() <= h[0] && y.abs() <= h[1]
    }
}

/// Distance between two footprints and the unit normal from `a` to `b`
/// (`None` when they overlap).
fn foot_distance(a: Foot, b: Foot) -> Option<(f64, [f64; 2])> {
    // Closest pair (point on a, point on b) by brute force over features.
    let pair = match (a, b) {
        (Foot::Disc { c: ca, r: ra }, Foot::Disc { c: cb, r: rb }) => {
            let d = sub(cb, ca);
            let n = dot(d, d).sqrt();
            if n <= ra + rb {
                return None;
            }
            return Some((n - ra - rb, [d[0] / n, d[1] / n]));
        }
        (Foot::Rect { c, h, angle }, Foot::Disc { c: cb, r })
        | (Foot::Disc { c: cb, r }, Foot::Rect { c, h, angle }) => {
            if Foot::inside_rect(cb, c, h, angle) {
                return None;
            }
            let k = Foot::corners(c, h, angle);
            let mut best = (f64::INFINITY, [0.0; 2]);
            for i in 0..4 {
                let q = closest_on_segment(cb, k[i], k[(i + 1) % 4]);
                let d = sub(cb, q);
                let n = dot(d, d).sqrt();
                if n < best.0 {
                    best = (n, [d[0] / n, d[1] / n]);
                }
            }
            if best.0 <= r {
                return None;
            }
            let flip = matches!(a, Foot::Disc { .. });
            let n = if flip {
                [-best.1[0], -best.1[1]]
            } else {
                best.1
            };
            (best.0 - r, n)
        }
        (
            Foot::Rect {
                c: c1,
                h: h1,
                angle: a1,
            },
            Foot::Rect {
                c: c2,
                h: h2,
                angle: a2,
            },
        ) => {
            let (k1, k2) = (Foot::corners(c1, h1, a1), Foot::corners(c2, h2, a2));
            // Overlapping: a corner inside the other, or crossing edges.
            let cross = |o: [f64; 2], p: [f64; 2], q: [f64; 2]| {
                let (u, v) = (sub(p, o), sub(q, o));
                u[0] * v[1] - u[1] * v[0]
            };
            let crossing = (0..16).any(|e| {
                let (p, q) = (k1[e / 4], k1[(e / 4 + 1) % 4]);
                let (r, t) = (k2[e % 4], k2[(e % 4 + 1) % 4]);
                cross(p, q, r) * cross(p, q, t) <= 0.0 && cross(r, t, p) * cross(r, t, q) <= 0.0
            });
            if crossing
                || k1.iter().any(|&p| Foot::inside_rect(p, c2, h2, a2))
                || k2.iter().any(|&p| Foot::inside_rect(p, c1, h1, a1))
            {
                return None;
            }
            let mut best = (f64::INFINITY, [0.0; 2]);
            for i in 0..4 {
                for j in 0..4 {
                    // Vertex of 1 against edge of 2, and the reverse.
                    let q = closest_on_segment(k1[i], k2[j], k2[(j + 1) % 4]);
                    let d = sub(q, k1[i]);
                    let n = dot(d, d).sqrt();
                    if n < best.0 {
                        best = (n, [d[0] / n, d[1] / n]);
                    }
                    let q = closest_on_segment(k2[i], k1[j], k1[(j + 1) % 4]);
                    let d = sub(k2[i], q);
                    let n = dot(d, d).sqrt();
                    if n < best.0 {
                        best = (n, [d[0] / n, d[1] / n]);
                    }
                }
            }
            best
        }
    };
    Some(pair)
}

/// The offset along `dir` (unit) that puts `b` at distance `gap` from `a`.
fn slide(a: Foot, b: Foot, dir: [f64; 2], gap: f64) -> f64 {
    let at = |s: f64| foot_distance(a, b.moved([dir[0] * s, dir[1] * s])).map_or(0.0, |d| d.0);
    let (mut lo, mut hi) = (0.0, 1.0);
    while at(hi) < gap {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if at(mid) < gap {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// Which shapes stand side by side.
#[derive(Clone, Copy, Debug)]
enum Kinds {
    BoxCylinder,
    BoxBox,
    CylinderCylinder,
}

/// A shape of the sweep, f64 sizes: a box (half extents) or a cylinder
/// (radius, half length), axis along the floor's normal.
#[derive(Clone, Copy, Debug)]
enum Body {
    Box([f64; 3]),
    Cylinder(f64, f64),
}

impl Body {
    fn random(rng: &mut Rng, cylinder: bool) -> Body {
        let mut s = || rng.range_f64(0.05, 1.5);
        if cylinder {
            Body::Cylinder(s(), s())
        } else {
            Body::Box([s(), s(), s()])
        }
    }

    fn half_height(self) -> f64 {
        match self {
            Body::Box(h) => h[2],
            Body::Cylinder(_, h) => h,
        }
    }

    fn foot(self, angle: f64) -> Foot {
        match self {
            Body::Box(h) => Foot::Rect {
                c: [0.0; 2],
                h: [h[0], h[1]],
                angle,
            },
            Body::Cylinder(r, _) => Foot::Disc { c: [0.0; 2], r },
        }
    }
}

/// One flush pose: both bodies, their world poses (f64) and the reference
/// distance and normal (world, from A to B).
struct Case {
    a: Body,
    b: Body,
    pa: Iso3<f64>,
    pb: Iso3<f64>,
    gap: f64,
    normal: Vec3<f64>,
}

fn random_case(rng: &mut Rng, kinds: Kinds) -> Case {
    let (ca, cb) = match kinds {
        Kinds::BoxCylinder => (false, true),
        Kinds::BoxBox => (false, false),
        Kinds::CylinderCylinder => (true, true),
    };
    let (mut a, mut b) = (Body::random(rng, ca), Body::random(rng, cb));
    if rng.chance(0.5) {
        core::mem::swap(&mut a, &mut b);
    }
    let tau = core::f64::consts::TAU;
    let (ta, tb) = (rng.range_f64(0.0, tau), rng.range_f64(0.0, tau));
    // Mostly exact quarter turns or none: the tie-richest poses.
    let (ta, tb) = match rng.below(4) {
        0 => (0.0, 0.0),
        1 => (ta, ta + tau / 4.0 * rng.below(4) as f64),
        _ => (ta, tb),
    };
    let gap = rng.range_f64(0.01, 1.0);
    let phi = rng.range_f64(0.0, tau);
    let dir = [phi.cos(), phi.sin()];
    let (fa, fb) = (a.foot(ta), b.foot(tb));
    let s = slide(fa, fb, dir, gap);
    let (gap, n2) = foot_distance(fa, fb.moved([dir[0] * s, dir[1] * s])).unwrap();
    // The floor is z = 0. Both stand on it, or B stands on A's top face
    // level (its bottom flush with A's top), or both hang from it.
    let (ha, hb) = (a.half_height(), b.half_height());
    let (za, zb) = match rng.below(3) {
        0 => (ha, hb),
        1 => (-ha, hb),
        _ => (-ha, -hb),
    };
    // Half the poses turned and moved as a whole.
    let world = if rng.chance(0.5) {
        rng.pose::<f64>(3.0)
    } else {
        Iso3::IDENTITY
    };
    let local = |angle: f64, t: Vec3<f64>| {
        world.mul(&Iso3::from_parts(Mat3::from_axis_angle(Vec3::Z, angle), t))
    };
    let pa = local(ta, Vec3::new(0.0, 0.0, za));
    let pb = local(tb, Vec3::new(dir[0] * s, dir[1] * s, zb));
    let normal = world.transform_vector(Vec3::new(n2[0], n2[1], 0.0));
    Case {
        a,
        b,
        pa,
        pb,
        gap,
        normal,
    }
}

/// GJK's answer on a case, in scalar `R`.
fn run<R: Real>(c: &Case) -> mink_gjk::Distance<R> {
    fn go<R: Real, A: Support<R>, B: Support<R>>(
        a: &A,
        pa: &Iso3<R>,
        b: &B,
        pb: &Iso3<R>,
    ) -> mink_gjk::Distance<R> {
        let mut pair = Pair::new(a, pa, b, pb);
        distance(&mut pair, pa)
    }
    let (pa, pb) = (c.pa.cast::<R>(), c.pb.cast::<R>());
    let cuboid = |h: [f64; 3]| Cuboid::new(Vec3::from_array(h).cast::<R>()).unwrap();
    let cylinder = |r: f64, h: f64| Cylinder::new(R::lit(r), R::lit(h)).unwrap();
    match (c.a, c.b) {
        (Body::Box(x), Body::Box(y)) => go(&cuboid(x), &pa, &cuboid(y), &pb),
        (Body::Box(x), Body::Cylinder(r, h)) => go(&cuboid(x), &pa, &cylinder(r, h), &pb),
        (Body::Cylinder(r, h), Body::Box(y)) => go(&cylinder(r, h), &pa, &cuboid(y), &pb),
        (Body::Cylinder(r, h), Body::Cylinder(s, k)) => {
            go(&cylinder(r, h), &pa, &cylinder(s, k), &pb)
        }
    }
}

/// What a sweep found: endings that were not `Converged` (and how many
/// of them `Degenerate`), answers off the reference, the worst errors, and
/// the first failure's description.
#[derive(Default)]
struct Tally {
    not_converged: usize,
    degenerate: usize,
    off: usize,
    worst_distance: f64,
    worst_normal: f64,
    first: Option<String>,
}

/// Runs the sweep for one pair kind.
fn sweep<R: Real>(kinds: Kinds, seed: u64) -> Tally {
    let mut rng = Rng::new(seed);
    let mut t = Tally::default();
    // GJK's tolerance times the scene size (the largest coordinate is
    // under 8 m), plus the round-off of casting the poses to `R`.
    let scale = 8.0;
    let rel = gjk_tolerance::<R>().to_f64() + 64.0 * R::EPSILON.to_f64();
    for i in 0..CASES {
        let c = random_case(&mut rng, kinds);
        let d = run::<R>(&c);
        let err = (d.distance.to_f64() - c.gap).abs();
        let n = d.normal.cast::<f64>();
        let angle = n.cross(c.normal).norm().atan2(n.dot(c.normal));
        // The normal of a converged answer: with `v` the closest point
        // found and `v*` the true one, `|v - v*|² <= |v|² - |v*|²`
        // (convexity), so the angle is within about `sqrt(2 tol / gap)`.
        let bound = (2.0 * rel * scale / c.gap).sqrt() * 2.0 + 1e3 * R::EPSILON.to_f64();
        t.worst_distance = t.worst_distance.max(err / scale);
        t.worst_normal = t.worst_normal.max(angle);
        let converged = d.status == GjkStatus::Converged;
        let close = err <= rel * scale && angle <= bound;
        t.not_converged += usize::from(!converged);
        t.degenerate += usize::from(d.status == GjkStatus::Degenerate);
        t.off += usize::from(!close);
        if (!converged || !close) && t.first.is_none() {
            t.first = Some(format!(
                "{kinds:?} case {i}: {:?} after {} iterations, distance {:?} vs {} \
                 (error {err:e}), normal {angle:e} rad off (bound {bound:e})",
                d.status, d.iterations, d.distance, c.gap
            ));
        }
    }
    t
}

/// Zero endings other than `Converged`, every answer within tolerance.
fn flush<R: Real>(kinds: Kinds, seed: u64) {
    let t = sweep::<R>(kinds, seed);
    eprintln!(
        "{kinds:?} {}: of {CASES}, {} not converged ({} degenerate), {} off the reference; \
         worst distance error {:e} of the size, worst normal {:e} rad",
        core::any::type_name::<R>(),
        t.not_converged,
        t.degenerate,
        t.off,
        t.worst_distance,
        t.worst_normal,
    );
    assert!(
        t.not_converged == 0 && t.off == 0,
        "{} not converged ({} degenerate), {} off; first: {}",
        t.not_converged,
        t.degenerate,
        t.off,
        t.first.unwrap_or_default()
    );
}

fn box_cylinder<R: Real>() {
    flush::<R>(Kinds::BoxCylinder, 0x32_b0c);
}
for_each_real!(box_beside_cylinder, box_cylinder);

fn box_box<R: Real>() {
    flush::<R>(Kinds::BoxBox, 0x32_b0b);
}
for_each_real!(box_beside_box, box_box);

fn cylinder_cylinder<R: Real>() {
    flush::<R>(Kinds::CylinderCylinder, 0x32_c0c);
}
for_each_real!(cylinder_beside_cylinder, cylinder_cylinder);
