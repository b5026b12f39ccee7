//! What the shape enum's pair dispatch costs: per-query time of
//! `mink::distance` / `mink::penetration` on two `Shape`s against the direct
//! generic call (`mink_gjk::distance`, `mink_mpr::penetration`) on the same
//! concrete types and poses, and the analytic sphere–sphere and
//! capsule–capsule paths against GJK on the same inputs (f64, 1,024 random
//! poses drawn per batch, kept when apart, resp. overlapping).
//!
//! `cargo bench -p mink-benches --bench dispatch`. The summary printed at
//! the end divides the median of repeated batches by the batch size and gives the
//! ratios (dispatch overhead should stay under 5%).

use criterion::{criterion_group, criterion_main, Criterion};
use mink::query::{distance, penetration, Body, Method};
use mink::Shape;
use mink_support::{Capsule, Cuboid, Cylinder, Iso3, Pair, Rounded, Sphere, Vec3};
use mink_testkit::Rng;
use std::hint::black_box;
use std::time::{Duration, Instant};

const POSES: usize = 1024;
const REPEATS: usize = 31;

fn poses(seed: u64, half: f64) -> Vec<(Iso3<f64>, Iso3<f64>)> {
    let mut rng = Rng::new(seed);
    (0..POSES)
        .map(|_| (rng.pose(half), rng.pose(half)))
        .collect()
}

/// Median over repeats of one batch's time, in ns per query (`n` queries
/// per batch).
fn per_query(n: usize, mut batch: impl FnMut() -> f64) -> f64 {
    let mut times: Vec<f64> = (0..REPEATS)
        .map(|_| {
            let start = Instant::now();
            black_box(batch());
            start.elapsed().as_secs_f64() / n as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[REPEATS / 2] * 1e9
}

fn bench(c: &mut Criterion) {
    let cuboid = Cuboid::new(Vec3::new(0.5, 0.3, 0.4)).unwrap();
    let cylinder = Cylinder::new(0.3, 0.5).unwrap();
    let sphere = Sphere::new(0.4).unwrap();
    let capsule = Capsule::new(0.2, 0.5).unwrap();
    let (sh_box, sh_cyl): (Shape<'_, f64>, Shape<'_, f64>) = (cuboid.into(), cylinder.into());
    let (sh_sph, sh_cap): (Shape<'_, f64>, Shape<'_, f64>) = (sphere.into(), capsule.into());
    let apart = poses(1, 2.0);
    let overlapping = poses(2, 0.3);
    // The enum path wraps each shape in `Rounded` (the margin); the direct
    // call uses the same wrapping so that only the dispatch differs.
    let rb = Rounded::new(&cuboid, 0.0).unwrap();
    let rc = Rounded::new(&cylinder, 0.0).unwrap();
    // Keep only the poses that are truly apart (resp. overlapping), so that
    // both paths do the same work (an overlapping "distance" query also
    // runs MPR on the enum path).
    let apart: Vec<_> = apart
        .into_iter()
        .filter(|(pa, pb)| mink_gjk::distance(&mut Pair::new(&rb, pa, &rc, pb), pa).distance > 0.0)
        .collect();
    let overlapping: Vec<_> = overlapping
        .into_iter()
        .filter(|(pa, pb)| mink_mpr::penetration(&mut Pair::new(&rb, pa, &rc, pb), pa).depth > 0.0)
        .collect();

    let enum_distance = || {
        apart.iter().fold(0.0, |s, (pa, pb)| {
            s + distance(
                &Body::new(&sh_box, *pa),
                &Body::new(&sh_cyl, *pb),
                Method::Auto,
            )
            .distance
        })
    };
    let direct_distance = || {
        apart.iter().fold(0.0, |s, (pa, pb)| {
            s + mink_gjk::distance(&mut Pair::new(&rb, pa, &rc, pb), pa).distance
        })
    };
    let enum_penetration = || {
        overlapping.iter().fold(0.0, |s, (pa, pb)| {
            s + penetration(
                &Body::new(&sh_box, *pa),
                &Body::new(&sh_cyl, *pb),
                Method::Auto,
            )
            .distance
        })
    };
    let direct_penetration = || {
        overlapping.iter().fold(0.0, |s, (pa, pb)| {
            s + mink_mpr::penetration(&mut Pair::new(&rb, pa, &rc, pb), pa).depth
        })
    };
    let analytic = |a: &Shape<'_, f64>, b: &Shape<'_, f64>, m: Method| {
        apart.iter().fold(0.0, |s, (pa, pb)| {
            s + distance(&Body::new(a, *pa), &Body::new(b, *pb), m).distance
        })
    };

    let mut g = c.benchmark_group("dispatch");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(800));
    g.bench_function("box-cylinder distance, enum", |b| b.iter(enum_distance));
    g.bench_function("box-cylinder distance, direct", |b| b.iter(direct_distance));
    g.bench_function("box-cylinder penetration, enum", |b| {
        b.iter(enum_penetration)
    });
    g.bench_function("box-cylinder penetration, direct", |b| {
        b.iter(direct_penetration)
    });
    g.finish();

    let rows = [
        (
            "box-cylinder distance: enum / direct GJK",
            per_query(apart.len(), enum_distance),
            per_query(apart.len(), direct_distance),
        ),
        (
            "box-cylinder penetration: enum / direct MPR",
            per_query(overlapping.len(), enum_penetration),
            per_query(overlapping.len(), direct_penetration),
        ),
        (
            "sphere-sphere distance: analytic / GJK",
            per_query(apart.len(), || analytic(&sh_sph, &sh_sph, Method::Auto)),
            per_query(apart.len(), || analytic(&sh_sph, &sh_sph, Method::Gjk)),
        ),
        (
            "capsule-capsule distance: analytic / GJK",
            per_query(apart.len(), || analytic(&sh_cap, &sh_cap, Method::Auto)),
            per_query(apart.len(), || analytic(&sh_cap, &sh_cap, Method::Gjk)),
        ),
    ];
    println!("\n| query | ns/query | ns/query (reference) | ratio |");
    println!("|---|---:|---:|---:|");
    for (name, ours, reference) in rows {
        println!(
            "| {name} | {ours:.1} | {reference:.1} | {:.3} |",
            ours / reference
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
