//! Support-field benchmarks: ns per support query (field, field + exact
//! refinement, hill climbing alone, exhaustive scan, parry3d's
//! `local_support_point`) on hulls of 32 to 5,000 vertices; build time per
//! mesh per resolution, single-threaded and with rayon; bytes per mesh; GJK
//! distance on hull pairs with field-backed shapes against plain hulls.
//!
//! `cargo bench -p mink-benches --bench field` (about 2 minutes). A summary
//! table with the ratios, timed in this process on the same directions,
//! is printed first.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mink_field::{ExactFieldShape, FieldShape, SupportField};
use mink_support::{ConvexHull, HullView, Iso3, Pair, Support, Vec3};
use mink_testkit::Rng;
use parry3d::shape::{ConvexPolyhedron, SupportMap};
use std::hint::black_box;
use std::time::{Duration, Instant};

const SIZES: [usize; 4] = [32, 200, 1000, 5000];
const DIRS: usize = 1024;
const RES: u32 = 180;

struct Case {
    n: usize,
    hull: ConvexHull<f32>,
    field: SupportField<f32>,
    parry: ConvexPolyhedron,
    dirs: Vec<Vec3<f32>>,
    /// A slow random walk of directions, as GJK's successive queries.
    walk: Vec<Vec3<f32>>,
}

fn case(n: usize) -> Case {
    let mut rng = Rng::new(n as u64);
    let pts: Vec<Vec3<f32>> = rng.points_on_sphere(n, 1.0);
    let hull = ConvexHull::from_points(&pts).unwrap();
    let field = SupportField::build(hull.view().vertices(), RES).unwrap();
    let pv: Vec<_> = hull
        .view()
        .vertices()
        .iter()
        .map(|v| parry3d::math::Vector::new(v.x, v.y, v.z))
        .collect();
    let parry = ConvexPolyhedron::from_convex_hull(&pv).unwrap();
    let dirs = (0..DIRS).map(|_| rng.unit_vec()).collect();
    let mut d: Vec3<f32> = rng.unit_vec();
    let walk = (0..DIRS)
        .map(|_| {
            d = (d + rng.unit_vec::<f32>() * 0.05).normalize_or(Vec3::X);
            d
        })
        .collect();
    Case {
        n,
        hull,
        field,
        parry,
        dirs,
        walk,
    }
}

/// ns per call of `f` over the directions: the fastest of repeated passes
/// within `budget` (the machines are shared; the minimum is the least
/// disturbed pass).
fn time_ns(dirs: &[Vec3<f32>], budget: Duration, mut f: impl FnMut(Vec3<f32>) -> f32) -> f64 {
    let mut best = f64::INFINITY;
    let mut acc = 0.0f32;
    let start = Instant::now();
    while start.elapsed() < budget {
        let t = Instant::now();
        for &d in dirs {
            acc += f(black_box(d));
        }
        best = best.min(t.elapsed().as_nanos() as f64 / dirs.len() as f64);
    }
    black_box(acc);
    best
}

fn summary(cases: &[Case]) {
    let budget = Duration::from_millis(150);
    println!("\nns per support query (f32, res {RES}, unit directions), this process:");
    println!(
        "{:>5} | {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} | {:>10} {:>11} {:>11} {:>11}",
        "n",
        "field",
        "libm",
        "compact",
        "exact",
        "f+exact",
        "climb",
        "scan",
        "parry",
        "scan/field",
        "parry/field",
        "climb/field",
        "exact/field"
    );
    for c in cases {
        let view = c.hull.view();
        let fv = c.field.view();
        let idx = c.field.compact_indices().unwrap();
        let compact = c.field.compact_view(&idx, view.vertices()).unwrap();
        let field = time_ns(&c.dirs, budget, |d| fv.query(d).unwrap().point.x);
        let libm = time_ns(&c.dirs, budget, |d| fv.query_libm(d).unwrap().point.x);
        let comp = time_ns(&c.dirs, budget, |d| compact.query(d).unwrap().point.x);
        let exact = time_ns(&c.dirs, budget, |d| {
            fv.support_exact(&view, d, None).unwrap().point.x
        });
        let both = time_ns(&c.dirs, budget, |d| {
            fv.query_exact(&view, d).unwrap().point.x
        });
        let mut hint = 0u32;
        let climb = time_ns(&c.dirs, budget, |d| {
            hint = view.support_hill_climb(d, hint).unwrap_or(0);
            hint as f32
        });
        let scan = time_ns(&c.dirs, budget, |d| view.support_scan(d) as f32);
        let parry = time_ns(&c.dirs, budget, |d| {
            c.parry
                .local_support_point(parry3d::math::Vector::new(d.x, d.y, d.z))
                .x
        });
        println!(
            "{:>5} | {field:>7.1} {libm:>7.1} {comp:>7.1} {exact:>7.1} {both:>7.1} {climb:>7.1} {scan:>7.1} {parry:>7.1} | {:>10.1} {:>11.1} {:>11.1} {:>11.2}",
            c.n,
            scan / field,
            parry / field,
            climb / field,
            exact / field
        );
    }
    println!(
        "(exact: nearest cell + climb, `support_exact`; f+exact: both answers side by side, `query_exact`)"
    );
    println!("\nsame, on a slow random walk of directions (cache-warm, as in GJK):");
    println!(
        "{:>5} | {:>7} {:>7} {:>7} {:>7}",
        "n", "field", "exact", "climb", "scan"
    );
    for c in cases {
        let view = c.hull.view();
        let fv = c.field.view();
        let field = time_ns(&c.walk, budget, |d| fv.query(d).unwrap().point.x);
        let exact = time_ns(&c.walk, budget, |d| {
            fv.query_exact(&view, d).unwrap().point.x
        });
        let mut hint = 0u32;
        let climb = time_ns(&c.walk, budget, |d| {
            hint = view.support_hill_climb(d, hint).unwrap_or(0);
            hint as f32
        });
        let scan = time_ns(&c.walk, budget, |d| view.support_scan(d) as f32);
        println!(
            "{:>5} | {field:>7.1} {exact:>7.1} {climb:>7.1} {scan:>7.1}",
            c.n
        );
    }
    println!("\nbuild time per mesh, n = 5000 (one build each, ms):");
    println!("  res |  serial |  rayon");
    let v = cases[3].hull.view().vertices();
    for res in [45u32, 90, 180, 360] {
        let t = Instant::now();
        black_box(SupportField::build_serial(v, res).unwrap());
        let serial = t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        black_box(SupportField::build(v, res).unwrap());
        let rayon = t.elapsed().as_secs_f64() * 1e3;
        println!("{res:>5} | {serial:>7.1} | {rayon:>6.1}");
    }
    println!("\nbytes per mesh (cells only; compact borrows the hull's vertices):");
    println!("  res |  full f32 |  full f64 | compact u16");
    for res in [45usize, 90, 180, 360] {
        let cells = res * res;
        println!(
            "{res:>5} | {:>9} | {:>9} | {:>11}",
            cells * 16,
            cells * 28,
            cells * 2
        );
    }
    let c = &cases[2];
    let f = &c.field;
    println!(
        "  measured: n = {} at {RES}: full f32 {} B, compact {} B",
        c.n,
        f.bytes(),
        2 * f.indices().len()
    );
}

fn queries(c: &mut Criterion, cases: &[Case]) {
    let mut g = c.benchmark_group("field/query");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(600));
    for case in cases {
        let view = case.hull.view();
        let fv = case.field.view();
        let dirs = &case.dirs;
        let mut i = 0;
        let mut next = move || {
            i = (i + 1) % DIRS;
            black_box(dirs[i])
        };
        g.bench_function(BenchmarkId::new("field", case.n), |b| {
            b.iter(|| fv.query(next()))
        });
        g.bench_function(BenchmarkId::new("field_exact", case.n), |b| {
            b.iter(|| fv.support_exact(&view, next(), None))
        });
        let mut hint = 0u32;
        g.bench_function(BenchmarkId::new("hill_climb", case.n), |b| {
            b.iter(|| {
                hint = view.support_hill_climb(next(), hint).unwrap_or(0);
                hint
            })
        });
        g.bench_function(BenchmarkId::new("scan", case.n), |b| {
            b.iter(|| view.support_scan(next()))
        });
        g.bench_function(BenchmarkId::new("parry3d", case.n), |b| {
            b.iter(|| {
                let d = next();
                case.parry
                    .local_support_point(parry3d::math::Vector::new(d.x, d.y, d.z))
            })
        });
    }
    g.finish();
}

fn builds(c: &mut Criterion) {
    let mut g = c.benchmark_group("field/build");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(100))
        .measurement_time(Duration::from_millis(800));
    let mut rng = Rng::new(1);
    let pts: Vec<Vec3<f32>> = rng.points_on_sphere(200, 1.0);
    let hull = ConvexHull::from_points(&pts).unwrap();
    let v = hull.view().vertices();
    for res in [45u32, 90, 180, 360] {
        g.bench_function(BenchmarkId::new("serial_n200", res), |b| {
            b.iter(|| SupportField::build_serial(v, res).unwrap())
        });
        g.bench_function(BenchmarkId::new("rayon_n200", res), |b| {
            b.iter(|| SupportField::build(v, res).unwrap())
        });
    }
    g.finish();
}

fn gjk_pairs(c: &mut Criterion, cases: &[Case]) {
    let mut g = c.benchmark_group("field/gjk_distance");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(600));
    let mut rng = Rng::new(77);
    let poses: Vec<Iso3<f32>> = (0..64)
        .map(|_| {
            let p: Iso3<f32> = rng.pose(0.0);
            Iso3::from_parts(p.rotation, rng.unit_vec::<f32>() * 2.5)
        })
        .collect();
    for case in &cases[1..] {
        let view = case.hull.view();
        let fv = case.field.view();
        let field = FieldShape::new(fv);
        let exact = ExactFieldShape::new(fv, view).unwrap();
        fn run<S: Support<f32>>(s: &S, poses: &[Iso3<f32>]) -> f32 {
            let mut acc = 0.0;
            for pose in poses {
                let mut pair = Pair::new(s, &Iso3::IDENTITY, s, pose);
                acc += mink_gjk::distance(&mut pair, &Iso3::IDENTITY).distance;
            }
            acc
        }
        g.bench_function(BenchmarkId::new("hull_x64", case.n), |b| {
            b.iter(|| run::<HullView<'_, f32>>(&view, &poses))
        });
        g.bench_function(BenchmarkId::new("field_x64", case.n), |b| {
            b.iter(|| run(&field, &poses))
        });
        g.bench_function(BenchmarkId::new("field_exact_x64", case.n), |b| {
            b.iter(|| run(&exact, &poses))
        });
    }
    g.finish();
}

fn all(c: &mut Criterion) {
    let cases: Vec<Case> = SIZES.iter().map(|&n| case(n)).collect();
    summary(&cases);
    queries(c, &cases);
    builds(c);
    gjk_pairs(c, &cases);
}

criterion_group!(benches, all);
criterion_main!(benches);
