//! Nanoseconds per query, mink-gjk against parry3d 0.31, same process, same
//! shapes and poses, f32.
//!
//! Pairs: box–box, sphere–box, capsule–capsule, cylinder–cylinder,
//! hull32–hull32, hull200–hull200 (hulls of random points on a unit sphere).
//! For each pair, 1,024 random poses of B around A: separated ones for
//! `distance` (vs `parry3d::query::distance`), half overlapping for
//! `intersect` (vs `query::intersection_test`), overlapping ones for
//! `penetration_with` (GJK + EPA in a reused default-capacity polytope, vs
//! `query::contact` with zero prediction).
//! Each figure is the mean over the 1,024 poses, and the median of 15
//! interleaved samples of both libraries. parry's cylinder axis is y, so
//! its poses carry a fixed rotation taking y to mink's z.
//!
//! Then the accuracy of both libraries' distances on the separated poses,
//! against an f64 run of mink's GJK at a 1e-12 tolerance, and mink's
//! speed at a tolerance ([`LOOSE_TOLERANCE`]) whose errors are of
//! parry3d's order: parry3d stops when its bounds are within about 1e-3
//! of the distance, mink by default within 3.5e-6 of the shapes' size.
//!
//! Then GJK iterations: plain against Nesterov-accelerated, and cold against
//! warm-started on sequences of small motions (each frame moves B by 1% of
//! its size and turns it by 0.5°).
//!
//! Run: `cargo bench -p mink-benches --bench gjk`.

use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use mink_benches::peer::{ppose, pv};
use mink_gjk::{
    distance, gjk, intersect, penetration_with, GjkCache, GjkSettings, Polytope, Variant,
};
use mink_support::{
    Capsule, ConvexHull, Cuboid, Cylinder, Iso3, Mat3, Pair, Sphere, Support, Vec3,
};
use mink_testkit::Rng;
use parry3d::math::{Pose, Vec3 as PVec3};
use parry3d::query;
use parry3d::shape::{self as pshape, Shape};

const POSES: usize = 1024;
const SAMPLES: usize = 15;

type Poses = Vec<(Iso3<f32>, Iso3<f32>)>;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Median ns per query of `a` and `b`, interleaved samples.
fn paired(mut a: impl FnMut() -> f32, mut b: impl FnMut() -> f32) -> (f64, f64) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..SAMPLES {
        let t = Instant::now();
        black_box(a());
        ta.push(t.elapsed().as_nanos() as f64 / POSES as f64);
        let t = Instant::now();
        black_box(b());
        tb.push(t.elapsed().as_nanos() as f64 / POSES as f64);
    }
    (median(&mut ta), median(&mut tb))
}

/// One benchmarked pair: mink shapes, parry shapes, axis fixes.
struct Case<'s, A, B> {
    name: &'static str,
    a: &'s A,
    b: &'s B,
    pa: &'s dyn Shape,
    pb: &'s dyn Shape,
    fix_a: Mat3<f32>,
    fix_b: Mat3<f32>,
    /// The pair's distance in f64 at a tolerance far below f32's round-off,
    /// for the accuracy table.
    reference: &'s dyn Fn(&Iso3<f32>, &Iso3<f32>) -> f64,
}

/// Random poses of B about A at `pose_a`, with B's centre at a distance in
/// `[lo, hi]` times `reach`, keeping those that `keep` accepts.
fn poses<A: Support<f32>, B: Support<f32>>(
    rng: &mut Rng,
    a: &A,
    b: &B,
    reach: f32,
    lo: f64,
    hi: f64,
    keep: impl Fn(bool) -> bool,
) -> Poses {
    let mut out = Vec::with_capacity(POSES);
    while out.len() < POSES {
        let pose_a: Iso3<f32> = rng.pose(1.0);
        let mut pose_b: Iso3<f32> = rng.pose(0.0);
        let off: Vec3<f32> = rng.unit_vec::<f32>() * (reach * rng.range::<f32>(lo, hi));
        pose_b.translation = pose_a.translation + off;
        let mut pair = Pair::new(a, &pose_a, b, &pose_b);
        if keep(intersect(&mut pair)) {
            out.push((pose_a, pose_b));
        }
    }
    out
}

struct Row {
    pair: &'static str,
    query: &'static str,
    mink: f64,
    parry: f64,
}

/// Worst and mean absolute distance error of each library (f32) on the
/// separated poses, meters, against the f64 reference.
struct Accuracy {
    pair: &'static str,
    mink: (f64, f64),
    parry: (f64, f64),
    /// mink at [`LOOSE_TOLERANCE`]: worst and mean error, then ns per
    /// query against parry3d's in a paired run.
    loose: (f64, f64),
    loose_ns: (f64, f64),
}

/// A GJK tolerance (relative to the shapes' size) whose errors are of the
/// order of parry3d's, for a speed comparison at equal accuracy.
const LOOSE_TOLERANCE: f32 = 1e-3;

/// The f64 distance between `a` and `b` at `pose_a`, `pose_b` (f32 poses
/// widened), with GJK's tolerance at 1e-12 of the size.
fn reference_distance<A: Support<f64>, B: Support<f64>>(
    a: &A,
    b: &B,
    pose_a: &Iso3<f32>,
    pose_b: &Iso3<f32>,
) -> f64 {
    let (pa, pb) = (pose_a.cast::<f64>(), pose_b.cast::<f64>());
    let mut pair = Pair::new(a, &pa, b, &pb);
    let settings = GjkSettings {
        tolerance: 1e-12,
        ..GjkSettings::default()
    };
    gjk(&mut pair, &pa, &settings, &mut GjkCache::default()).distance
}

/// Worst and mean of `errors`.
fn worst_and_mean(errors: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut worst, mut sum, mut n) = (0.0f64, 0.0, 0);
    for e in errors {
        worst = worst.max(e);
        sum += e;
        n += 1;
    }
    (worst, sum / n.max(1) as f64)
}

fn bench_case<A: Support<f32>, B: Support<f32>>(
    rng: &mut Rng,
    c: &Case<'_, A, B>,
    reach: f32,
    rows: &mut Vec<Row>,
    accuracy: &mut Vec<Accuracy>,
) {
    let apart = poses(rng, c.a, c.b, reach, 1.0, 1.6, |hit| !hit);
    let mixed = poses(rng, c.a, c.b, reach, 0.3, 1.3, |_| true);
    let overlap = poses(rng, c.a, c.b, reach, 0.0, 1.0, |hit| hit);
    let conv = |set: &Poses| -> Vec<(Pose, Pose)> {
        set.iter()
            .map(|(a, b)| (ppose(a, &c.fix_a), ppose(b, &c.fix_b)))
            .collect()
    };
    let (p_apart, p_mixed, p_overlap) = (conv(&apart), conv(&mixed), conv(&overlap));

    // One query each, timed below with and without the looser tolerance.
    // `None`: `distance`, the default query; `Some`: `gjk` with settings.
    let mink_distance = |settings: Option<&GjkSettings<f32>>, pa: &Iso3<f32>, pb: &Iso3<f32>| {
        let mut pair = Pair::new(c.a, pa, c.b, pb);
        match settings {
            None => distance(&mut pair, pa).distance,
            Some(s) => gjk(&mut pair, pa, s, &mut GjkCache::default()).distance,
        }
    };
    let parry_distance =
        |pa: &Pose, pb: &Pose| query::distance(pa, c.pa, pb, c.pb).map_or(f32::NAN, |d| d.distance);
    let loose = GjkSettings {
        tolerance: LOOSE_TOLERANCE,
        ..GjkSettings::default()
    };
    let timed = |settings: Option<&GjkSettings<f32>>| {
        paired(
            || {
                apart
                    .iter()
                    .fold(0.0, |acc, (pa, pb)| acc + mink_distance(settings, pa, pb))
            },
            || {
                p_apart
                    .iter()
                    .fold(0.0, |acc, (pa, pb)| acc + parry_distance(pa, pb))
            },
        )
    };

    let exact: Vec<f64> = apart.iter().map(|(a, b)| (c.reference)(a, b)).collect();
    let mink_error = |settings: Option<&GjkSettings<f32>>| {
        worst_and_mean(
            apart
                .iter()
                .zip(&exact)
                .map(|((pa, pb), &d)| (mink_distance(settings, pa, pb) as f64 - d).abs()),
        )
    };
    let parry_error = p_apart
        .iter()
        .zip(&exact)
        .map(|((pa, pb), &d)| (parry_distance(pa, pb) as f64 - d).abs());
    accuracy.push(Accuracy {
        pair: c.name,
        mink: mink_error(None),
        parry: worst_and_mean(parry_error),
        loose: mink_error(Some(&loose)),
        loose_ns: timed(Some(&loose)),
    });

    let (m, p) = timed(None);
    rows.push(Row {
        pair: c.name,
        query: "distance",
        mink: m,
        parry: p,
    });

    let (m, p) = paired(
        || {
            mixed.iter().fold(0.0, |acc, (pa, pb)| {
                let mut pair = Pair::new(c.a, pa, c.b, pb);
                acc + intersect(&mut pair) as u32 as f32
            })
        },
        || {
            p_mixed.iter().fold(0.0, |acc, (pa, pb)| {
                acc + query::intersection_test(pa, c.pa, pb, c.pb)
                    .map(|h| h.intersecting as u32 as f32)
                    .unwrap_or(0.0)
            })
        },
    );
    rows.push(Row {
        pair: c.name,
        query: "intersect",
        mink: m,
        parry: p,
    });

    // EPA's polytope buffer is kept across queries, as a caller would.
    let mut poly: Polytope<f32> = Polytope::new();
    let settings = GjkSettings::default();
    let (m, p) = paired(
        || {
            overlap.iter().fold(0.0, |acc, (pa, pb)| {
                let mut pair = Pair::new(c.a, pa, c.b, pb);
                let mut cache = GjkCache::default();
                acc + penetration_with(&mut pair, pa, &settings, &mut cache, &mut poly).depth
            })
        },
        || {
            p_overlap.iter().fold(0.0, |acc, (pa, pb)| {
                acc + query::contact(pa, c.pa, pb, c.pb, 0.0)
                    .ok()
                    .flatten()
                    .map(|k| k.dist)
                    .unwrap_or(0.0)
            })
        },
    );
    rows.push(Row {
        pair: c.name,
        query: "penetration",
        mink: m,
        parry: p,
    });
}

/// Mean GJK iterations on `set` with `variant`, cold.
fn mean_iterations<A: Support<f32>, B: Support<f32>>(
    a: &A,
    b: &B,
    set: &Poses,
    variant: Variant,
) -> f64 {
    let settings = GjkSettings::default().with_variant(variant);
    let total: u32 = set
        .iter()
        .map(|(pa, pb)| {
            let mut pair = Pair::new(a, pa, b, pb);
            let mut cache = GjkCache::default();
            gjk(&mut pair, pa, &settings, &mut cache).iterations
        })
        .sum();
    total as f64 / set.len() as f64
}

/// Mean GJK iterations over sequences of small motions, cold and warm.
fn warm_iterations<A: Support<f32>, B: Support<f32>>(
    rng: &mut Rng,
    a: &A,
    b: &B,
    start: &Poses,
) -> (f64, f64) {
    let settings = GjkSettings::default();
    let (mut cold, mut warm, mut n) = (0u32, 0u32, 0u32);
    for (pa, pb0) in start.iter().take(128) {
        let mut cache = GjkCache::default();
        let mut pb = *pb0;
        let turn = Mat3::from_axis_angle(rng.unit_vec(), 0.5f32.to_radians());
        let step: Vec3<f32> = rng.unit_vec::<f32>() * 0.01;
        for _ in 0..16 {
            pb.rotation = turn.mul_mat(&pb.rotation);
            pb.translation += step;
            let mut pair = Pair::new(a, pa, b, &pb);
            warm += gjk(&mut pair, pa, &settings, &mut cache).iterations;
            let mut pair = Pair::new(a, pa, b, &pb);
            cold += gjk(&mut pair, pa, &settings, &mut GjkCache::default()).iterations;
            n += 1;
        }
    }
    (cold as f64 / n as f64, warm as f64 / n as f64)
}

fn main() {
    let mut rng = Rng::new(3);
    let mut rows = Vec::new();
    let id = Mat3::IDENTITY;
    // parry's cylinder axis is y: rotate its frame by +90° about x.
    let y_to_z = Mat3::from_axis_angle(Vec3::X, core::f32::consts::FRAC_PI_2);

    let cube = Cuboid::new(Vec3::new(0.5f32, 0.7, 0.9)).unwrap();
    let p_cube = pshape::Cuboid::new(PVec3::new(0.5, 0.7, 0.9));
    let ball = Sphere::new(0.6f32).unwrap();
    let p_ball = pshape::Ball::new(0.6);
    let capsule = Capsule::new(0.3f32, 0.8).unwrap();
    let p_capsule = pshape::Capsule::new_z(0.8, 0.3);
    let cyl = Cylinder::new(0.5f32, 0.7).unwrap();
    let p_cyl = pshape::Cylinder::new(0.7, 0.5);
    let hull_of = |rng: &mut Rng, n: usize| {
        let pts: Vec<Vec3<f32>> = rng.points_on_sphere(n, 1.0);
        let hull = ConvexHull::from_points(&pts).unwrap();
        let ppts: Vec<PVec3> = hull.view().vertices().iter().map(|p| pv(*p)).collect();
        let p_hull = pshape::ConvexPolyhedron::from_convex_hull(&ppts).unwrap();
        let wide: Vec<Vec3<f64>> = hull.view().vertices().iter().map(|p| p.cast()).collect();
        let hull64 = ConvexHull::<f64>::from_points(&wide).unwrap();
        (hull, p_hull, hull64)
    };
    let (h32, p_h32, h32_64) = hull_of(&mut rng, 32);
    let (h200, p_h200, h200_64) = hull_of(&mut rng, 200);
    let (v32, v200) = (h32.view(), h200.view());
    let (w32, w200) = (h32_64.view(), h200_64.view());
    let cube64 = Cuboid::new(Vec3::new(0.5f64, 0.7, 0.9)).unwrap();
    let ball64 = Sphere::new(0.6f64).unwrap();
    let capsule64 = Capsule::new(0.3f64, 0.8).unwrap();
    let cyl64 = Cylinder::new(0.5f64, 0.7).unwrap();
    let mut accuracy = Vec::new();

    let c = Case {
        name: "box-box",
        a: &cube,
        b: &cube,
        pa: &p_cube,
        pb: &p_cube,
        fix_a: id,
        fix_b: id,
        reference: &|a, b| reference_distance(&cube64, &cube64, a, b),
    };
    bench_case(&mut rng, &c, 2.2, &mut rows, &mut accuracy);
    let c = Case {
        name: "sphere-box",
        a: &ball,
        b: &cube,
        pa: &p_ball,
        pb: &p_cube,
        fix_a: id,
        fix_b: id,
        reference: &|a, b| reference_distance(&ball64, &cube64, a, b),
    };
    bench_case(&mut rng, &c, 1.8, &mut rows, &mut accuracy);
    let c = Case {
        name: "capsule-capsule",
        a: &capsule,
        b: &capsule,
        pa: &p_capsule,
        pb: &p_capsule,
        fix_a: id,
        fix_b: id,
        reference: &|a, b| reference_distance(&capsule64, &capsule64, a, b),
    };
    bench_case(&mut rng, &c, 2.2, &mut rows, &mut accuracy);
    let c = Case {
        name: "cylinder-cylinder",
        a: &cyl,
        b: &cyl,
        pa: &p_cyl,
        pb: &p_cyl,
        fix_a: y_to_z,
        fix_b: y_to_z,
        reference: &|a, b| reference_distance(&cyl64, &cyl64, a, b),
    };
    bench_case(&mut rng, &c, 1.8, &mut rows, &mut accuracy);
    let c = Case {
        name: "hull32-hull32",
        a: &v32,
        b: &v32,
        pa: &p_h32,
        pb: &p_h32,
        fix_a: id,
        fix_b: id,
        reference: &|a, b| reference_distance(&w32, &w32, a, b),
    };
    bench_case(&mut rng, &c, 2.0, &mut rows, &mut accuracy);
    let c = Case {
        name: "hull200-hull200",
        a: &v200,
        b: &v200,
        pa: &p_h200,
        pb: &p_h200,
        fix_a: id,
        fix_b: id,
        reference: &|a, b| reference_distance(&w200, &w200, a, b),
    };
    bench_case(&mut rng, &c, 2.0, &mut rows, &mut accuracy);

    println!("\nmink-gjk vs parry3d 0.31, f32, ns per query (mean over {POSES} poses, median of {SAMPLES} samples)");
    println!(
        "{:<18} {:<12} {:>10} {:>10} {:>8}",
        "pair", "query", "mink", "parry3d", "speedup"
    );
    for r in &rows {
        println!(
            "{:<18} {:<12} {:>10.0} {:>10.0} {:>7.2}x",
            r.pair,
            r.query,
            r.mink,
            r.parry,
            r.parry / r.mink
        );
    }

    println!(
        "\ndistance error on the separated poses (f32, meters, worst / mean, against f64 at a 1e-12 tolerance), \
         and mink at tolerance {LOOSE_TOLERANCE:e}, whose errors are of parry3d's order, timed against parry3d (ns per query)"
    );
    println!(
        "{:<18} {:>17} {:>17} {:>17} {:>8} {:>8} {:>8}",
        "pair", "mink", "parry3d", "mink loose", "mink ns", "parry ns", "speedup"
    );
    for a in &accuracy {
        let pair = |(worst, mean): (f64, f64)| format!("{worst:.1e} / {mean:.1e}");
        let (m, p) = a.loose_ns;
        println!(
            "{:<18} {:>17} {:>17} {:>17} {:>8.0} {:>8.0} {:>7.2}x",
            a.pair,
            pair(a.mink),
            pair(a.parry),
            pair(a.loose),
            m,
            p,
            p / m
        );
    }

    println!("\nGJK iterations (distance queries, f32, mean per query)");
    println!(
        "{:<18} {:>8} {:>9} {:>8} {:>8}",
        "pair", "plain", "nesterov", "cold", "warm"
    );
    macro_rules! iters {
        ($name:expr, $a:expr, $b:expr, $reach:expr) => {{
            let set = poses(&mut rng, $a, $b, $reach, 1.0, 1.6, |hit| !hit);
            let plain = mean_iterations($a, $b, &set, Variant::Plain);
            let nest = mean_iterations($a, $b, &set, Variant::Nesterov);
            let (cold, warm) = warm_iterations(&mut rng, $a, $b, &set);
            println!(
                "{:<18} {:>8.2} {:>9.2} {:>8.2} {:>8.2}",
                $name, plain, nest, cold, warm
            );
        }};
    }
    iters!("box-box", &cube, &cube, 2.2);
    iters!("sphere-box", &ball, &cube, 1.8);
    iters!("capsule-capsule", &capsule, &capsule, 2.2);
    iters!("cylinder-cylinder", &cyl, &cyl, 1.8);
    iters!("hull32-hull32", &v32, &v32, 2.0);
    iters!("hull200-hull200", &v200, &v200, 2.0);

    // A short criterion run on one pair, for the regression history.
    let mut crit = Criterion::default()
        .sample_size(10)
        .warm_up_time(std::time::Duration::from_millis(200))
        .measurement_time(std::time::Duration::from_millis(500))
        .configure_from_args();
    let set = poses(&mut rng, &cube, &cube, 2.2, 1.0, 1.6, |hit| !hit);
    crit.bench_function("gjk distance box-box x1024", |bch| {
        bch.iter(|| {
            set.iter().fold(0.0f32, |acc, (pa, pb)| {
                let mut pair = Pair::new(&cube, pa, &cube, pb);
                acc + distance(&mut pair, pa).distance
            })
        })
    });
    crit.final_summary();
}
