//! Contact manifolds, mink against parry3d 0.31, same process, same shapes
//! and poses, f32, margin (parry: prediction) 2 cm.
//!
//! Pairs (512 configurations each, a few millimetres deep):
//! - box–box resting: a 0.3 × 0.2 × 0.1 box on a 1 × 1 × 0.5 box's top
//!   face, random yaw, tilt within ±0.02 rad;
//! - box–plane: the same small box on the ground plane;
//! - hull–hull: two 32-vertex hulls (points on a unit sphere), random
//!   rotations, B slid along GJK's normal to 5 mm of overlap;
//! - capsule–box: a capsule (radius 0.1, half length 0.4) lying on the
//!   big box's top face (its axis turned from z into the face), random
//!   yaw and tilt.
//!
//! mink: `mink::contact_manifold` on two `Shape`s (enum dispatch included).
//! parry: `DefaultQueryDispatcher::contact_manifold_convex_convex` into a
//! reused `ContactManifold` whose points are cleared before each call, so
//! its contact recycling never fires (both compute from scratch).
//!
//! Each figure is the mean over the configurations and the median of 15
//! interleaved samples; the ratio is parry's time over mink's (above 1:
//! mink faster). Run: `cargo bench -p mink-benches --bench manifold`.

use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use mink::query::{distance, Body, Method};
use mink::{contact_manifold, ContactParams, Shape};
use mink_benches::peer::ppose;
use mink_support::{Capsule, ConvexHull, Cuboid, HalfSpace, Iso3, Mat3, Vec3};
use mink_testkit::Rng;
use parry3d::math::{Pose, Vec3 as PVec3};
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry3d::shape::{self as pshape, Shape as PShape};

const POSES: usize = 512;
const SAMPLES: usize = 15;
const MARGIN: f32 = 0.02;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Median µs per configuration of each closure (each runs all poses),
/// interleaved samples.
fn timed<const N: usize>(mut fs: [&mut dyn FnMut() -> usize; N]) -> [f64; N] {
    let mut t: [Vec<f64>; N] = std::array::from_fn(|_| Vec::new());
    for _ in 0..SAMPLES {
        for (f, ts) in fs.iter_mut().zip(t.iter_mut()) {
            let start = Instant::now();
            black_box(f());
            ts.push(start.elapsed().as_nanos() as f64 / 1e3 / POSES as f64);
        }
    }
    std::array::from_fn(|i| median(&mut t[i]))
}

/// One benchmarked pair: mink's shapes, parry's, and the poses.
struct Case<'s> {
    name: &'static str,
    a: Shape<'s, f32>,
    b: Shape<'s, f32>,
    pa: &'s dyn PShape,
    pb: &'s dyn PShape,
    poses: Vec<(Iso3<f32>, Iso3<f32>)>,
}

/// A pose resting on the plane `z = top`: the shape turned by `base`,
/// then random yaw and position in `±spread`, tilt within ±0.02 rad, the
/// lowest point 0 to 8 mm below.
fn resting(
    rng: &mut Rng,
    shape: &Shape<'_, f32>,
    base: Mat3<f32>,
    top: f32,
    spread: f64,
) -> Iso3<f32> {
    let rot = Mat3::from_axis_angle(Vec3::X, rng.range(-0.02, 0.02))
        .mul_mat(&Mat3::from_axis_angle(Vec3::Y, rng.range(-0.02, 0.02)))
        .mul_mat(&Mat3::from_axis_angle(Vec3::Z, rng.range(-3.1, 3.1)))
        .mul_mat(&base);
    let mut p = Iso3::from_parts(
        rot,
        Vec3::new(rng.range(-spread, spread), rng.range(-spread, spread), 0.0),
    );
    let low = shape.world_aabb(&p).min.z;
    p.translation.z = top - low - rng.range::<f32>(0.0, 0.008);
    p
}

/// Random rotations, B slid along the distance normal to `depth` of overlap.
fn sunk(
    rng: &mut Rng,
    a: &Shape<'_, f32>,
    b: &Shape<'_, f32>,
    depth: f32,
) -> Vec<(Iso3<f32>, Iso3<f32>)> {
    let mut out = Vec::new();
    while out.len() < POSES {
        let pa = Iso3::from_parts(rng.rotation(), Vec3::ZERO);
        let mut pb = Iso3::from_parts(rng.rotation(), rng.unit_vec::<f32>() * 4.0);
        for _ in 0..8 {
            let d = distance(&Body::new(a, pa), &Body::new(b, pb), Method::Auto);
            let step = -depth - d.distance;
            pb.translation += d.normal * step;
            if step.abs() < 1e-4 {
                out.push((pa, pb));
                break;
            }
        }
    }
    out
}

fn main() {
    let mut rng = Rng::new(6);
    let id = Mat3::IDENTITY;
    let big_h = Vec3::new(1.0f32, 1.0, 0.5);
    let small_h = Vec3::new(0.3f32, 0.2, 0.1);
    let big: Shape<'_, f32> = Cuboid::new(big_h).unwrap().into();
    let small: Shape<'_, f32> = Cuboid::new(small_h).unwrap().into();
    let ground: Shape<'_, f32> = HalfSpace::new(Vec3::Z, 0.0).unwrap().into();
    let rod: Shape<'_, f32> = Capsule::new(0.1, 0.4).unwrap().into();
    let hull = ConvexHull::from_points(&rng.points_on_sphere::<f32>(32, 1.0)).unwrap();
    let hull_shape: Shape<'_, f32> = Shape::Hull(hull.view());

    let p_big = pshape::Cuboid::new(PVec3::new(big_h.x, big_h.y, big_h.z));
    let p_small = pshape::Cuboid::new(PVec3::new(small_h.x, small_h.y, small_h.z));
    let p_ground = pshape::HalfSpace::new(PVec3::Z);
    let p_rod = pshape::Capsule::new_z(0.4, 0.1);
    let hull_pts: Vec<PVec3> = hull
        .view()
        .vertices()
        .iter()
        .map(|p| PVec3::new(p.x, p.y, p.z))
        .collect();
    let p_hull = pshape::ConvexPolyhedron::from_convex_hull(&hull_pts).unwrap();

    // The capsule's axis (z) turned into the horizontal plane.
    let lying = Mat3::from_axis_angle(Vec3::X, core::f32::consts::FRAC_PI_2);
    let on_box = |rng: &mut Rng, s: &Shape<'_, f32>, base| -> Vec<(Iso3<f32>, Iso3<f32>)> {
        (0..POSES)
            .map(|_| (Iso3::IDENTITY, resting(rng, s, base, 0.5, 0.6)))
            .collect()
    };
    let cases = [
        Case {
            name: "box-box resting",
            a: big,
            b: small,
            pa: &p_big,
            pb: &p_small,
            poses: on_box(&mut rng, &small, id),
        },
        Case {
            name: "box-plane",
            a: ground,
            b: small,
            pa: &p_ground,
            pb: &p_small,
            poses: (0..POSES)
                .map(|_| (Iso3::IDENTITY, resting(&mut rng, &small, id, 0.0, 5.0)))
                .collect(),
        },
        Case {
            name: "hull-hull (32 vertices)",
            a: hull_shape,
            b: hull_shape,
            pa: &p_hull,
            pb: &p_hull,
            poses: sunk(&mut rng, &hull_shape, &hull_shape, 0.005),
        },
        Case {
            name: "capsule-box",
            a: big,
            b: rod,
            pa: &p_big,
            pb: &p_rod,
            poses: on_box(&mut rng, &rod, lying),
        },
    ];

    let dispatcher = DefaultQueryDispatcher;
    let params = ContactParams::new().with_margin(MARGIN);
    println!(
        "\ncontact manifolds, µs per pair (f32, {POSES} configurations, margin {MARGIN} m)\n{:<26} {:>9} {:>9} {:>12} {:>7} {:>7}",
        "pair", "mink", "parry", "parry/mink", "mink n", "parry n"
    );
    let mut c = Criterion::default().configure_from_args().sample_size(20);
    for case in &cases {
        let pset: Vec<Pose> = case
            .poses
            .iter()
            .map(|(pa, pb)| ppose(&pa.inv_mul(pb), &id))
            .collect();
        let mut pm: ContactManifold<(), ()> = ContactManifold::new();
        let mut mink_m = || {
            case.poses
                .iter()
                .map(|(pa, pb)| {
                    contact_manifold(&Body::new(&case.a, *pa), &Body::new(&case.b, *pb), &params)
                        .len()
                })
                .sum::<usize>()
        };
        let mut parry_m = || {
            let mut n = 0;
            for p12 in &pset {
                pm.points.clear();
                dispatcher
                    .contact_manifold_convex_convex(
                        p12, case.pa, case.pb, None, None, MARGIN, &mut pm,
                    )
                    .unwrap();
                n += pm.points.len();
            }
            n
        };
        let (nm, np) = (mink_m(), parry_m());
        let [tm, tp] = timed([&mut mink_m, &mut parry_m]);
        println!(
            "{:<26} {tm:>9.3} {tp:>9.3} {:>11.2}x {:>7.2} {:>7.2}",
            case.name,
            tp / tm,
            nm as f64 / POSES as f64,
            np as f64 / POSES as f64
        );
        c.bench_function(&format!("manifold/{}", case.name), |bch| {
            bch.iter(&mut mink_m)
        });
    }
    c.final_summary();
}
