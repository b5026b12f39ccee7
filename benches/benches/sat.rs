//! Microseconds per call, mink-sat against mink's GJK and parry3d 0.31's
//! contact manifolds, same process, same hulls and poses, f32.
//!
//! Box3D's measurement: hulls "complex" (32 random points on a unit
//! sphere), "rock" (10 random points in a unit ball) and "cylinder" (64
//! points: two rings of 32 on a cylinder of radius 0.25 and length 2), plus
//! "box" (an 8-vertex hull of a 0.5 × 0.7 × 0.9 box; parry gets its
//! `Cuboid`). For each pair, 512 configurations: both hulls randomly
//! rotated, B placed in a random direction and slid along GJK's normal to
//! about 1 cm of distance (inside the speculative band: SAT and GJK get no
//! early out). Per call:
//! - SAT with culling and without culling (axis and separation only);
//! - mink's GJK distance (`mink_gjk::distance`, closest points, cold);
//! - mink's contact manifold (`mink_sat::manifold`, margin 2 cm) against
//!   parry's `contact_manifold_pfm_pfm` (hulls) or
//!   `contact_manifold_cuboid_cuboid` (boxes) with prediction 2 cm, from
//!   scratch (the reused parry manifold's points are cleared before each
//!   call, so its contact recycling never fires);
//! - the same two manifolds warm, on a moving pair: each configuration
//!   alternates between its pose and B turned by 0.5° about its centre and
//!   moved by 1 mm, with one `SatCache` (`mink_sat::manifold_cached`) and
//!   one parry `ContactManifold` (its normal seeds GJK, its points are
//!   recycled when they moved less than parry's 1 mm / 1° thresholds) kept
//!   per configuration across calls;
//! - the share of face tests and edge pairs culled.
//!
//! Each figure is the mean over the 512 configurations and the median of
//! 11 interleaved samples.
//!
//! Run: `cargo bench -p mink-benches --bench sat`.

use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use mink_gjk::{distance, GjkStatus};
use mink_sat::{manifold, manifold_cached, sat, Culling, SatCache, SatData, SatHull};
use mink_support::{ConvexHull, Iso3, Mat3, Pair, Real, Vec3};
use mink_testkit::Rng;
use parry3d::math::{Pose, Vec3 as PVec3};
use parry3d::query::details::{contact_manifold_cuboid_cuboid, contact_manifold_pfm_pfm};
use parry3d::query::ContactManifold;
use parry3d::shape::{self as pshape};

const POSES: usize = 512;
const SAMPLES: usize = 11;
const GAP: f32 = 0.01;
const MARGIN: f32 = 0.02;
/// The warm runs' motion between two calls: a turn of B about its centre
/// (radians) and a shift (meters).
const TURN: f32 = 0.5 * std::f32::consts::PI / 180.0;
const SHIFT: f32 = 0.001;

fn pv(v: Vec3<f32>) -> PVec3 {
    PVec3::new(v.x, v.y, v.z)
}

fn ppose(p: &Iso3<f32>) -> Pose {
    let q = p.quat();
    let rot = parry3d::glamx::Rot3::from_xyzw(q.x, q.y, q.z, q.w).normalize();
    Pose::from_parts(pv(p.translation), rot)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Median µs per call of each closure (each runs all poses), interleaved.
fn timed<const N: usize>(mut fs: [&mut dyn FnMut() -> f32; N]) -> [f64; N] {
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

struct Shape {
    hull: ConvexHull<f32>,
    data: SatData<f32>,
    parry: pshape::ConvexPolyhedron,
    cuboid: Option<pshape::Cuboid>,
}

impl Shape {
    fn new(points: &[Vec3<f32>], cuboid: Option<pshape::Cuboid>) -> Self {
        let hull = ConvexHull::from_points(points).unwrap();
        let data = SatData::from_view(&hull.view()).unwrap();
        let pts: Vec<PVec3> = hull.view().vertices().iter().map(|p| pv(*p)).collect();
        let parry = pshape::ConvexPolyhedron::from_convex_hull(&pts).unwrap();
        Self {
            hull,
            data,
            parry,
            cuboid,
        }
    }

    fn sat(&self) -> SatHull<'_, f32> {
        self.data.with_hull(self.hull.view()).unwrap()
    }
}

/// Random rotations, B slid along GJK's normal to about `GAP` from A.
fn poses(rng: &mut Rng, a: &Shape, b: &Shape) -> Vec<(Iso3<f32>, Iso3<f32>)> {
    let (va, vb) = (a.hull.view(), b.hull.view());
    let mut out = Vec::new();
    while out.len() < POSES {
        let pa = Iso3::from_parts(rng.rotation(), Vec3::ZERO);
        let mut pb = Iso3::from_parts(rng.rotation(), rng.unit_vec::<f32>() * 4.0);
        let mut ok = false;
        for _ in 0..6 {
            let d = distance(&mut Pair::new(&va, &pa, &vb, &pb), &pa);
            if d.status != GjkStatus::Converged {
                break;
            }
            let step = GAP - d.distance;
            pb.translation += d.normal * step;
            if step.abs() < 1e-4 {
                ok = true;
                break;
            }
        }
        if ok {
            out.push((pa, pb));
        }
    }
    out
}

fn bench_pair(rng: &mut Rng, name: &str, a: &Shape, b: &Shape) {
    let set = poses(rng, a, b);
    let (sa, sb) = (a.sat(), b.sat());
    let (va, vb) = (a.hull.view(), b.hull.view());
    let (mut faces, mut pairs) = (0.0, 0.0);
    for (pa, pb) in &set {
        let r = sat(&sa, pa, &sb, pb, Culling::On);
        faces += r.counters.face_cull_ratio();
        pairs += r.counters.edge_pair_cull_ratio();
    }
    let n = set.len() as f64;
    let pset: Vec<Pose> = set.iter().map(|(pa, pb)| ppose(&pa.inv_mul(pb))).collect();
    // The moved poses of the warm runs.
    let moved: Vec<Iso3<f32>> = set
        .iter()
        .map(|(_, pb)| {
            let turn = Mat3::from_axis_angle(rng.unit_vec::<f32>(), TURN);
            let centre = pb.transform_point(b.data.arrays().sphere.center);
            let rotation = turn.mul_mat(&pb.rotation);
            let t = centre - rotation.mul_vec(b.data.arrays().sphere.center);
            Iso3::from_parts(rotation, t + rng.unit_vec::<f32>() * SHIFT)
        })
        .collect();
    let pmoved: Vec<Pose> = set
        .iter()
        .zip(&moved)
        .map(|((pa, _), pb)| ppose(&pa.inv_mul(pb)))
        .collect();
    let mut caches = vec![SatCache::default(); set.len()];
    let mut pms: Vec<ContactManifold<(), ()>> =
        (0..set.len()).map(|_| ContactManifold::new()).collect();
    let (mut flip_m, mut flip_p) = (false, false);
    let mut pm: ContactManifold<(), ()> = ContactManifold::new();
    let mut sat_on = || {
        set.iter()
            .map(|(pa, pb)| sat(&sa, pa, &sb, pb, Culling::On).best.separation)
            .sum::<f32>()
    };
    let mut sat_off = || {
        set.iter()
            .map(|(pa, pb)| sat(&sa, pa, &sb, pb, Culling::Off).best.separation)
            .sum::<f32>()
    };
    let mut gjk = || {
        set.iter()
            .map(|(pa, pb)| distance(&mut Pair::new(&va, pa, &vb, pb), pa).distance)
            .sum::<f32>()
    };
    let mut mink_m = || {
        set.iter()
            .map(|(pa, pb)| manifold(&sa, pa, &sb, pb, MARGIN).points.len() as f32)
            .sum::<f32>()
    };
    let mut parry_m = || {
        let mut acc = 0.0;
        for p12 in &pset {
            pm.points.clear();
            match (&a.cuboid, &b.cuboid) {
                (Some(ca), Some(cb)) => {
                    contact_manifold_cuboid_cuboid(p12, ca, cb, MARGIN, &mut pm)
                }
                _ => contact_manifold_pfm_pfm(
                    p12, &a.parry, 0.0, None, &b.parry, 0.0, None, MARGIN, &mut pm,
                ),
            }
            acc += pm.points.len() as f32;
        }
        acc
    };
    let mut mink_warm = || {
        flip_m = !flip_m;
        let mut acc = 0.0;
        for (k, ((pa, pb), cache)) in set.iter().zip(caches.iter_mut()).enumerate() {
            let pb = if flip_m { &moved[k] } else { pb };
            acc += manifold_cached(&sa, pa, &sb, pb, MARGIN, cache)
                .points
                .len() as f32;
        }
        acc
    };
    let mut parry_warm = || {
        flip_p = !flip_p;
        let mut acc = 0.0;
        for (k, pm) in pms.iter_mut().enumerate() {
            let p12 = if flip_p { &pmoved[k] } else { &pset[k] };
            match (&a.cuboid, &b.cuboid) {
                (Some(ca), Some(cb)) => contact_manifold_cuboid_cuboid(p12, ca, cb, MARGIN, pm),
                _ => contact_manifold_pfm_pfm(
                    p12, &a.parry, 0.0, None, &b.parry, 0.0, None, MARGIN, pm,
                ),
            }
            acc += pm.points.len() as f32;
        }
        acc
    };
    let [t_on, t_off, t_gjk, t_mm, t_pm, t_mw, t_pw] = timed([
        &mut sat_on,
        &mut sat_off,
        &mut gjk,
        &mut mink_m,
        &mut parry_m,
        &mut mink_warm,
        &mut parry_warm,
    ]);
    println!(
        "{name:<18} {t_on:>7.3} {t_off:>7.2} {t_gjk:>7.3} {:>6.2}x {t_mm:>7.3} {t_pm:>7.3} {:>6.2}x {t_mw:>7.3} {t_pw:>7.3} {:>6.2}x {:>6.1}% {:>6.1}%",
        t_on / t_gjk,
        t_pm / t_mm,
        t_pw / t_mw,
        100.0 * faces / n,
        100.0 * pairs / n,
    );
}

fn ring_points(rng: &mut Rng, n: usize, radius: f32, half: f32) -> Vec<Vec3<f32>> {
    let phase = rng.range_f64(0.0, 1.0);
    (0..n)
        .flat_map(|k| {
            let a = ((k as f64 + phase) * std::f64::consts::TAU / n as f64) as f32;
            [-half, half].map(|z| Vec3::new(radius * a.cos(), radius * a.sin(), z))
        })
        .collect()
}

fn main() {
    let mut rng = Rng::new(4);
    let complex = Shape::new(&rng.points_on_sphere::<f32>(32, 1.0), None);
    let rock = Shape::new(&rng.points_in_ball::<f32>(10, 1.0), None);
    let cylinder = Shape::new(&ring_points(&mut rng, 32, 0.25, 1.0), None);
    let h = Vec3::new(0.5f32, 0.7, 0.9);
    let corners: Vec<Vec3<f32>> = (0..8)
        .map(|i| {
            let s = |bit: i32, v: f32| if i & bit == 0 { -v } else { v };
            Vec3::new(s(1, h.x), s(2, h.y), s(4, h.z))
        })
        .collect();
    let boxy = Shape::new(&corners, Some(pshape::Cuboid::new(pv(h))));
    for (name, s) in [
        ("complex", &complex),
        ("rock", &rock),
        ("cylinder", &cylinder),
        ("box", &boxy),
    ] {
        let v = s.hull.view();
        println!(
            "{name}: {} vertices, {} faces, {} edges, inscribed radius {:.3}",
            v.vertex_count(),
            v.face_count(),
            v.edges().len(),
            s.data.arrays().sphere.radius.to_f64()
        );
    }
    println!(
        "\nµs per call, near touching (1 cm); SAT/GJK and parry/mink manifold ratios, from scratch and warm; % culled\n{:<18} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "pair", "sat", "sat-nc", "gjk", "sat/gjk", "mfold", "parry", "parry/m", "m-warm", "p-warm", "p/m", "faces", "edges"
    );
    bench_pair(&mut rng, "complex-complex", &complex, &complex);
    bench_pair(&mut rng, "rock-rock", &rock, &rock);
    bench_pair(&mut rng, "cylinder-cylinder", &cylinder, &cylinder);
    bench_pair(&mut rng, "complex-rock", &complex, &rock);
    bench_pair(&mut rng, "box-box", &boxy, &boxy);

    // A short criterion run on one pair, for the regression history.
    let set = poses(&mut rng, &complex, &complex);
    let s = complex.sat();
    let mut crit = Criterion::default()
        .sample_size(10)
        .warm_up_time(std::time::Duration::from_millis(200))
        .measurement_time(std::time::Duration::from_millis(500))
        .configure_from_args();
    crit.bench_function("sat culled hull32-hull32 x512", |bch| {
        bch.iter(|| {
            set.iter()
                .map(|(pa, pb)| sat(&s, pa, &s, pb, Culling::On).best.separation)
                .sum::<f32>()
        })
    });
    crit.final_summary();
}
