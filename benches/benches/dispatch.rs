//! What the shape enum's pair dispatch costs: per-query time of
//! `mink::distance` / `mink::penetration` on two `Shape`s against the direct
//! generic call (`mink_gjk::distance`, `mink_mpr::penetration`) on the same
//! concrete types and poses, and the analytic sphere–sphere and
//! capsule–capsule paths against GJK on the same inputs (f64, 1,024 random
//! poses drawn per batch, kept when apart, resp. overlapping).
//!
//! The same enum-dispatched queries then run in f32 against parry3d 0.31's
//! `query::distance` and `query::contact` (zero prediction) on the same
//! shapes and poses.
//!
//! `cargo bench -p mink-benches --bench dispatch`. The summary printed at
//! the end divides the median of repeated batches by the batch size and gives the
//! ratios (dispatch overhead should stay under 5%; below 1 against parry3d
//! means mink is faster).

use criterion::{criterion_group, criterion_main, Criterion};
use mink::query::{distance, penetration, Body, Method};
use mink::Shape;
use mink_benches::peer::{ppose, y_to_z};
use mink_support::{Capsule, Cuboid, Cylinder, Iso3, Mat3, Pair, Rounded, Sphere, Vec3};
use mink_testkit::Rng;
use parry3d::math::Vec3 as PVec3;
use parry3d::query;
use parry3d::shape::{self as pshape, Shape as PShape};
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

/// One batch's time in ns per query (`n` queries per batch).
fn batch_ns(n: usize, batch: &mut impl FnMut() -> f64) -> f64 {
    let start = Instant::now();
    black_box(batch());
    start.elapsed().as_secs_f64() * 1e9 / n as f64
}

/// Medians of `a` and `b` in ns per query, their batches interleaved
/// (a, b, a, b, ...) so that both see the same machine load.
fn paired(n: usize, mut a: impl FnMut() -> f64, mut b: impl FnMut() -> f64) -> (f64, f64) {
    let mut ta = Vec::with_capacity(REPEATS);
    let mut tb = Vec::with_capacity(REPEATS);
    for _ in 0..REPEATS {
        ta.push(batch_ns(n, &mut a));
        tb.push(batch_ns(n, &mut b));
    }
    ta.sort_by(f64::total_cmp);
    tb.sort_by(f64::total_cmp);
    (ta[REPEATS / 2], tb[REPEATS / 2])
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
                Method::Mpr,
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

    let row = |name: &str, (ours, reference): (f64, f64)| (name.to_string(), ours, reference);
    let rows = [
        row(
            "box-cylinder distance: enum / direct GJK",
            paired(apart.len(), enum_distance, direct_distance),
        ),
        row(
            "box-cylinder penetration: enum / direct MPR",
            paired(overlapping.len(), enum_penetration, direct_penetration),
        ),
        row(
            "sphere-sphere distance: analytic / GJK",
            paired(
                apart.len(),
                || analytic(&sh_sph, &sh_sph, Method::Auto),
                || analytic(&sh_sph, &sh_sph, Method::Gjk),
            ),
        ),
        row(
            "capsule-capsule distance: analytic / GJK",
            paired(
                apart.len(),
                || analytic(&sh_cap, &sh_cap, Method::Auto),
                || analytic(&sh_cap, &sh_cap, Method::Gjk),
            ),
        ),
    ];
    let rows: Vec<(String, f64, f64)> = rows.into_iter().chain(against_parry()).collect();
    println!("\n| query | ns/query | ns/query (reference) | ratio |");
    println!("|---|---:|---:|---:|");
    for (name, ours, reference) in rows {
        println!(
            "| {name} | {ours:.1} | {reference:.1} | {:.3} |",
            ours / reference
        );
    }
}

/// One pair for the comparison with parry3d: mink's shapes and parry's, with
/// the frame fix of each parry shape.
struct PeerPair<'s> {
    name: &'static str,
    a: Shape<'s, f32>,
    b: Shape<'s, f32>,
    pa: &'s dyn PShape,
    pb: &'s dyn PShape,
    fix_a: Mat3<f32>,
    fix_b: Mat3<f32>,
}

/// The enum-dispatched `distance` and `penetration` (f32, `Method::Auto`)
/// against parry3d's `query::distance` and `query::contact`, same poses:
/// rows of (name, mink ns/query, parry ns/query).
fn against_parry() -> Vec<(String, f64, f64)> {
    let id = Mat3::IDENTITY;
    let p_box = pshape::Cuboid::new(PVec3::new(0.5, 0.3, 0.4));
    let p_cyl = pshape::Cylinder::new(0.5, 0.3);
    let p_ball = pshape::Ball::new(0.4);
    let p_capsule = pshape::Capsule::new_z(0.5, 0.2);
    let cuboid: Shape<'_, f32> = Cuboid::new(Vec3::new(0.5, 0.3, 0.4)).unwrap().into();
    let cylinder: Shape<'_, f32> = Cylinder::new(0.3, 0.5).unwrap().into();
    let ball: Shape<'_, f32> = Sphere::new(0.4).unwrap().into();
    let capsule: Shape<'_, f32> = Capsule::new(0.2, 0.5).unwrap().into();
    let pairs = [
        PeerPair {
            name: "box-cylinder",
            a: cuboid,
            b: cylinder,
            pa: &p_box,
            pb: &p_cyl,
            fix_a: id,
            fix_b: y_to_z(),
        },
        PeerPair {
            name: "sphere-box",
            a: ball,
            b: cuboid,
            pa: &p_ball,
            pb: &p_box,
            fix_a: id,
            fix_b: id,
        },
        PeerPair {
            name: "sphere-sphere",
            a: ball,
            b: ball,
            pa: &p_ball,
            pb: &p_ball,
            fix_a: id,
            fix_b: id,
        },
        PeerPair {
            name: "capsule-capsule",
            a: capsule,
            b: capsule,
            pa: &p_capsule,
            pb: &p_capsule,
            fix_a: id,
            fix_b: id,
        },
    ];
    let mut rows = Vec::new();
    for (seed, pair) in (10..).zip(&pairs) {
        let mut rng = Rng::new(seed);
        let draw = |rng: &mut Rng, half: f64| -> Vec<(Iso3<f32>, Iso3<f32>)> {
            (0..POSES)
                .map(|_| (rng.pose(half), rng.pose(half)))
                .collect()
        };
        let peer =
            |p: &(Iso3<f32>, Iso3<f32>)| (ppose(&p.0, &pair.fix_a), ppose(&p.1, &pair.fix_b));
        let apart: Vec<_> = draw(&mut rng, 2.0)
            .into_iter()
            .filter(|p| {
                let (qa, qb) = peer(p);
                query::distance(&qa, pair.pa, &qb, pair.pb).is_ok_and(|d| d.distance > 0.0)
            })
            .collect();
        let overlapping: Vec<_> = draw(&mut rng, 0.3)
            .into_iter()
            .filter(|p| {
                let (qa, qb) = peer(p);
                matches!(query::contact(&qa, pair.pa, &qb, pair.pb, 0.0), Ok(Some(c)) if c.dist < 0.0)
            })
            .collect();
        let apart_peer: Vec<_> = apart.iter().map(peer).collect();
        let overlapping_peer: Vec<_> = overlapping.iter().map(peer).collect();
        let (a, b) = (&pair.a, &pair.b);
        let mink_query = |poses: &[(Iso3<f32>, Iso3<f32>)], deep: bool| {
            poses.iter().fold(0.0, |s, (pa, pb)| {
                let (ba, bb) = (Body::new(a, *pa), Body::new(b, *pb));
                let r = if deep {
                    penetration(&ba, &bb, Method::Auto)
                } else {
                    distance(&ba, &bb, Method::Auto)
                };
                s + f64::from(r.distance)
            })
        };
        let (ours, peer) = paired(
            apart.len(),
            || mink_query(&apart, false),
            || {
                apart_peer.iter().fold(0.0, |s, (qa, qb)| {
                    s + query::distance(qa, pair.pa, qb, pair.pb)
                        .map_or(0.0, |d| f64::from(d.distance))
                })
            },
        );
        rows.push((
            format!("{} distance (f32): mink enum / parry3d", pair.name),
            ours,
            peer,
        ));
        let (ours, peer) = paired(
            overlapping.len(),
            || mink_query(&overlapping, true),
            || {
                overlapping_peer.iter().fold(0.0, |s, (qa, qb)| {
                    let c = query::contact(qa, pair.pa, qb, pair.pb, 0.0).unwrap();
                    s + c.map_or(0.0, |c| f64::from(c.dist))
                })
            },
        );
        rows.push((
            format!(
                "{} penetration (f32): mink enum / parry3d contact",
                pair.name
            ),
            ours,
            peer,
        ));
    }
    rows
}

criterion_group!(benches, bench);
criterion_main!(benches);
