//! Nanoseconds per support call, mink against parry3d 0.31's
//! `local_support_point`, on the same shapes and directions, in f32.
//!
//! Every shape answers the same 1,024 random unit directions. Hulls (points
//! on a sphere) of 32, 48, 64, 200, 1,000 and 5,000 vertices are measured by mink's
//! automatic choice, by exhaustive scan and by hill climbing, the latter both
//! on random directions (each call warm-started from the previous, unrelated
//! answer) and on a coherent sequence (directions turning by about 2° a call,
//! as inside GJK). parry's `ConvexPolyhedron` scans its vertices.
//!
//! Run: `cargo bench -p mink-benches --bench support`. A table of medians
//! (interleaved samples of both libraries) and ratios is printed first, then
//! criterion measures the mink side.

use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use mink_support::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Ellipsoid, Segment, Sphere, Support, TerrainPrism,
    Triangle, Vec3,
};
use mink_testkit::Rng;
use parry3d::math::Vec3 as PVec3;
use parry3d::shape::{self as pshape, SupportMap};

const DIRECTIONS: usize = 1024;
const SAMPLES: usize = 31;

fn pv(v: Vec3<f32>) -> PVec3 {
    PVec3::new(v.x, v.y, v.z)
}

/// Median over `SAMPLES` interleaved samples of ns per call for `a` and `b`.
fn paired(
    mut a: impl FnMut() -> f32,
    mut b: Option<&mut dyn FnMut() -> f32>,
) -> (f64, Option<f64>) {
    let mut ta = Vec::with_capacity(SAMPLES);
    let mut tb = Vec::with_capacity(SAMPLES);
    let reps = 20;
    for _ in 0..SAMPLES {
        let t = Instant::now();
        for _ in 0..reps {
            black_box(a());
        }
        ta.push(t.elapsed().as_nanos() as f64 / (reps * DIRECTIONS) as f64);
        if let Some(b) = b.as_deref_mut() {
            let t = Instant::now();
            for _ in 0..reps {
                black_box(b());
            }
            tb.push(t.elapsed().as_nanos() as f64 / (reps * DIRECTIONS) as f64);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|x, y| x.total_cmp(y));
        v[v.len() / 2]
    };
    let ma = median(&mut ta);
    let mb = if tb.is_empty() {
        None
    } else {
        Some(median(&mut tb))
    };
    (ma, mb)
}

/// Sums the support points' x over all directions (so nothing is elided).
fn mink_sum<S: Support<f32>>(shape: &S, dirs: &[Vec3<f32>]) -> f32 {
    let mut hint = S::Hint::default();
    let mut acc = 0.0;
    for d in black_box(dirs) {
        let p = black_box(shape.support(*d, &mut hint));
        acc += p.x + p.y + p.z;
    }
    acc
}

fn parry_sum<S: SupportMap>(shape: &S, dirs: &[PVec3]) -> f32 {
    let mut acc = 0.0;
    for d in black_box(dirs) {
        let p = black_box(shape.local_support_point(*d));
        acc += p.x + p.y + p.z;
    }
    acc
}

struct Row {
    name: String,
    mink: f64,
    parry: Option<f64>,
}

fn row(
    rows: &mut Vec<Row>,
    name: &str,
    a: impl FnMut() -> f32,
    b: Option<&mut dyn FnMut() -> f32>,
) {
    let (mink, parry) = paired(a, b);
    rows.push(Row {
        name: name.to_string(),
        mink,
        parry,
    });
}

fn coherent_directions(rng: &mut Rng) -> Vec<Vec3<f32>> {
    let mut d = rng.unit_vec::<f64>();
    (0..DIRECTIONS)
        .map(|_| {
            let kick = rng.unit_vec::<f64>() * 0.035;
            d = (d + kick).normalize_or(Vec3::X);
            d.cast()
        })
        .collect()
}

fn main() {
    let mut rng = Rng::new(2026);
    let dirs: Vec<Vec3<f32>> = (0..DIRECTIONS).map(|_| rng.unit_vec()).collect();
    let pdirs: Vec<PVec3> = dirs.iter().map(|d| pv(*d)).collect();
    let coherent = coherent_directions(&mut rng);
    let pcoherent: Vec<PVec3> = coherent.iter().map(|d| pv(*d)).collect();
    let mut rows = Vec::new();

    // Primitives, with parry's equivalent. parry's ball and capsule answer on
    // the full rounded surface; mink's sphere is a point core and its capsule
    // a segment core, with the radius applied once by GJK/EPA/MPR, so mink
    // does (almost) no work per call there, by design.
    let sphere = Sphere::new(0.5_f32).unwrap();
    let p_ball = pshape::Ball::new(0.5);
    row(
        &mut rows,
        "sphere",
        || mink_sum(&sphere, &dirs),
        Some(&mut || parry_sum(&p_ball, &pdirs)),
    );
    let cuboid = Cuboid::new(Vec3::new(0.5_f32, 0.3, 0.2)).unwrap();
    let p_cuboid = pshape::Cuboid::new(PVec3::new(0.5, 0.3, 0.2));
    row(
        &mut rows,
        "box",
        || mink_sum(&cuboid, &dirs),
        Some(&mut || parry_sum(&p_cuboid, &pdirs)),
    );
    let capsule = Capsule::new(0.2_f32, 0.5).unwrap();
    let p_capsule = pshape::Capsule::new_z(0.5, 0.2);
    row(
        &mut rows,
        "capsule",
        || mink_sum(&capsule, &dirs),
        Some(&mut || parry_sum(&p_capsule, &pdirs)),
    );
    let cylinder = Cylinder::new(0.3_f32, 0.5).unwrap();
    let p_cylinder = pshape::Cylinder::new(0.5, 0.3);
    // parry's cylinder axis is y: rotate the directions for it.
    let pdirs_y: Vec<PVec3> = dirs.iter().map(|d| PVec3::new(d.x, d.z, d.y)).collect();
    row(
        &mut rows,
        "cylinder",
        || mink_sum(&cylinder, &dirs),
        Some(&mut || parry_sum(&p_cylinder, &pdirs_y)),
    );
    let cone = Cone::new(0.3_f32, 0.5).unwrap();
    let p_cone = pshape::Cone::new(0.5, 0.3);
    row(
        &mut rows,
        "cone",
        || mink_sum(&cone, &dirs),
        Some(&mut || parry_sum(&p_cone, &pdirs_y)),
    );
    let ellipsoid = Ellipsoid::new(Vec3::new(0.5_f32, 0.3, 0.2)).unwrap();
    row(
        &mut rows,
        "ellipsoid (no parry equivalent)",
        || mink_sum(&ellipsoid, &dirs),
        None,
    );
    let a = Vec3::new(-0.5_f32, 0.1, 0.0);
    let b = Vec3::new(0.4_f32, -0.2, 0.3);
    let c = Vec3::new(0.1_f32, 0.6, -0.2);
    let segment = Segment::new(a, b).unwrap();
    let p_segment = pshape::Segment::new(pv(a), pv(b));
    row(
        &mut rows,
        "segment",
        || mink_sum(&segment, &dirs),
        Some(&mut || parry_sum(&p_segment, &pdirs)),
    );
    let triangle = Triangle::new(a, b, c).unwrap();
    let p_triangle = pshape::Triangle::new(pv(a), pv(b), pv(c));
    row(
        &mut rows,
        "triangle",
        || mink_sum(&triangle, &dirs),
        Some(&mut || parry_sum(&p_triangle, &pdirs)),
    );

    let prism = TerrainPrism::new([a, b, c], -1.0).unwrap();
    row(
        &mut rows,
        "terrain prism (no parry equivalent)",
        || mink_sum(&prism, &dirs),
        None,
    );

    // Hulls of points on a sphere.
    for &n in &[32usize, 48, 64, 96, 128, 200, 1000, 5000] {
        let points: Vec<Vec3<f32>> = rng.points_on_sphere(n, 1.0);
        let hull = ConvexHull::from_points(&points).unwrap();
        let view = hull.view();
        let ppoints: Vec<PVec3> = hull.view().vertices().iter().map(|p| pv(*p)).collect();
        let p_hull = pshape::ConvexPolyhedron::from_convex_hull(&ppoints).unwrap();
        let v = view.vertex_count();
        row(
            &mut rows,
            &format!("hull {v} (auto)"),
            || mink_sum(&view, &dirs),
            Some(&mut || parry_sum(&p_hull, &pdirs)),
        );
        row(
            &mut rows,
            &format!("hull {v} (scan)"),
            || {
                black_box(&dirs)
                    .iter()
                    .map(|d| view.support_scan(*d) as f32)
                    .sum()
            },
            Some(&mut || parry_sum(&p_hull, &pdirs)),
        );
        row(
            &mut rows,
            &format!("hull {v} (hill climb, random dirs)"),
            || {
                let mut h = 0u32;
                let mut acc = 0.0;
                for d in black_box(&dirs) {
                    h = view.support_hill_climb(*d, h).unwrap_or(h);
                    acc += h as f32;
                }
                acc
            },
            Some(&mut || parry_sum(&p_hull, &pdirs)),
        );
        row(
            &mut rows,
            &format!("hull {v} (hill climb, coherent dirs)"),
            || {
                let mut h = 0u32;
                let mut acc = 0.0;
                for d in black_box(&coherent) {
                    h = view.support_hill_climb(*d, h).unwrap_or(h);
                    acc += h as f32;
                }
                acc
            },
            Some(&mut || parry_sum(&p_hull, &pcoherent)),
        );
    }

    println!("\nns per support call, f32, median of {SAMPLES} interleaved samples of {DIRECTIONS} directions");
    println!("| shape | mink ns | parry3d ns | parry3d / mink |");
    println!("|---|---:|---:|---:|");
    for r in &rows {
        match r.parry {
            Some(p) => println!(
                "| {} | {:.1} | {:.1} | {:.1}× |",
                r.name,
                r.mink,
                p,
                p / r.mink
            ),
            None => println!("| {} | {:.1} | — | — |", r.name, r.mink),
        }
    }
    println!();

    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_millis(700))
        .configure_from_args();
    c.bench_function("support/box x1024", |bch| {
        bch.iter(|| mink_sum(&cuboid, &dirs))
    });
    c.bench_function("support/capsule x1024", |bch| {
        bch.iter(|| mink_sum(&capsule, &dirs))
    });
    c.bench_function("support/cylinder x1024", |bch| {
        bch.iter(|| mink_sum(&cylinder, &dirs))
    });
    c.final_summary();
}
