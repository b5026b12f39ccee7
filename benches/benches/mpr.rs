//! MPR against parry3d and against mink's GJK+EPA, in the same process on the
//! same inputs: per-query time over 1,024 random overlapping poses (f32,
//! parry's scalar) for box–box, sphere–box, capsule–capsule,
//! cylinder–cylinder, hull32–hull32 and hull200–hull200.
//!
//! `cargo bench -p mink-benches --bench mpr`. Criterion reports each batch
//! of 1,024 queries; the summary printed at the end divides the median of
//! repeated batches by 1,024 and gives the ratios.

use criterion::{criterion_group, criterion_main, Criterion};
use mink_support::{Capsule, ConvexHull, Cuboid, Cylinder, Iso3, Pair, Sphere, Support, Vec3};
use mink_testkit::Rng;
use parry3d::math::{Pose, Rot3, Vec3 as PVec3};
use parry3d::query;
use parry3d::shape::{self as pshape, Shape};
use std::hint::black_box;
use std::time::{Duration, Instant};

const POSES: usize = 1024;

fn to_parry(pose: &Iso3<f32>) -> Pose {
    let q = pose.quat();
    let t = pose.translation;
    Pose::from_parts(
        PVec3::new(t.x, t.y, t.z),
        Rot3::from_xyzw(q.x, q.y, q.z, q.w),
    )
}

fn pvec(v: Vec3<f32>) -> PVec3 {
    PVec3::new(v.x, v.y, v.z)
}

/// Parry's cylinders run along their local y axis, mink's along z: parry's
/// pose is mink's composed with a quarter turn about x (y to z).
fn y_to_z() -> Iso3<f32> {
    Iso3::from_parts(
        mink_support::Mat3::from_axis_angle(Vec3::X, core::f32::consts::FRAC_PI_2),
        Vec3::ZERO,
    )
}

/// One benchmarked pair: mink shapes, parry shapes, and overlapping poses.
struct Case<A, B> {
    name: &'static str,
    a: A,
    b: B,
    pa: Box<dyn Shape>,
    pb: Box<dyn Shape>,
    poses: Vec<(Iso3<f32>, Iso3<f32>)>,
    parry_poses: Vec<(Pose, Pose)>,
}

impl<A: Support<f32>, B: Support<f32>> Case<A, B> {
    /// Samples poses (A within 1 m of the origin, B within `reach` of A)
    /// until `POSES` overlap; `fix` is applied on the right of each parry
    /// pose (axis conventions).
    fn new(
        name: &'static str,
        a: A,
        b: B,
        pa: Box<dyn Shape>,
        pb: Box<dyn Shape>,
        fix: (Iso3<f32>, Iso3<f32>),
        reach: f64,
        rng: &mut Rng,
    ) -> Self {
        let mut poses = Vec::new();
        let mut parry_poses = Vec::new();
        while poses.len() < POSES {
            let pose_a: Iso3<f32> = rng.pose(1.0);
            let t = pose_a.translation + rng.unit_vec::<f32>() * rng.range::<f32>(0.0, reach);
            let pose_b = Iso3::from_parts(rng.rotation(), t);
            let (qa, qb) = (to_parry(&pose_a.mul(&fix.0)), to_parry(&pose_b.mul(&fix.1)));
            // Overlapping by parry's own verdict (the peer decides).
            match query::contact(&qa, &*pa, &qb, &*pb, 0.0) {
                Ok(Some(c)) if c.dist < -1e-3 => {}
                _ => continue,
            }
            poses.push((pose_a, pose_b));
            parry_poses.push((qa, qb));
        }
        Self {
            name,
            a,
            b,
            pa,
            pb,
            poses,
            parry_poses,
        }
    }

    fn mpr_penetration(&self) -> f32 {
        let mut sum = 0.0;
        for (pa, pb) in &self.poses {
            sum += mink_mpr::penetration(&mut Pair::new(&self.a, pa, &self.b, pb), pa).depth;
        }
        sum
    }

    fn mpr_intersect(&self) -> usize {
        self.poses
            .iter()
            .filter(|(pa, pb)| {
                mink_mpr::intersect(&mut Pair::new(&self.a, pa, &self.b, pb)).overlapping
            })
            .count()
    }

    fn gjk_epa(&self) -> f32 {
        let mut sum = 0.0;
        for (pa, pb) in &self.poses {
            sum += mink_gjk::penetration(&mut Pair::new(&self.a, pa, &self.b, pb), pa).depth;
        }
        sum
    }

    fn parry_contact(&self) -> f32 {
        let mut sum = 0.0;
        for (qa, qb) in &self.parry_poses {
            if let Ok(Some(c)) = query::contact(qa, &*self.pa, qb, &*self.pb, 0.0) {
                sum += c.dist;
            }
        }
        sum
    }

    fn parry_intersection(&self) -> usize {
        self.parry_poses
            .iter()
            .filter(|(qa, qb)| {
                query::intersection_test(qa, &*self.pa, qb, &*self.pb).is_ok_and(|i| i.intersecting)
            })
            .count()
    }

    /// Sanity: every pose overlaps for MPR too, and MPR's depth agrees with
    /// parry's on average.
    fn check(&self) {
        assert_eq!(
            self.mpr_intersect(),
            POSES,
            "{}: MPR intersect missed overlaps",
            self.name
        );
        let ours = self.mpr_penetration() / POSES as f32;
        let theirs = -self.parry_contact() / POSES as f32;
        println!("{}: mean depth mpr {ours:.5} parry {theirs:.5}", self.name);
    }

    fn bench(&self, c: &mut Criterion) {
        let mut g = c.benchmark_group(self.name);
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(100))
            .measurement_time(Duration::from_millis(300));
        g.bench_function("mpr_penetration", |b| {
            b.iter(|| black_box(self.mpr_penetration()))
        });
        g.bench_function("parry_contact", |b| {
            b.iter(|| black_box(self.parry_contact()))
        });
        g.bench_function("gjk_epa", |b| b.iter(|| black_box(self.gjk_epa())));
        g.bench_function("mpr_intersect", |b| {
            b.iter(|| black_box(self.mpr_intersect()))
        });
        g.bench_function("parry_intersection_test", |b| {
            b.iter(|| black_box(self.parry_intersection()))
        });
        g.finish();
    }

    /// Median over repeated batches of one batch's time, per query (ns).
    fn median_ns<T>(&self, f: impl Fn() -> T) -> f64 {
        let mut t: Vec<f64> = (0..9)
            .map(|_| {
                let s = Instant::now();
                black_box(f());
                s.elapsed().as_nanos() as f64 / POSES as f64
            })
            .collect();
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    }

    fn summary(&self) {
        let mpr = self.median_ns(|| self.mpr_penetration());
        let parry = self.median_ns(|| self.parry_contact());
        let gjk = self.median_ns(|| self.gjk_epa());
        let inter = self.median_ns(|| self.mpr_intersect());
        let pinter = self.median_ns(|| self.parry_intersection());
        println!(
            "| {} | {mpr:.0} | {parry:.0} | {:.1}x | {gjk:.0} | {:.1}x | {inter:.0} | {pinter:.0} | {:.1}x |",
            self.name,
            parry / mpr,
            gjk / mpr,
            pinter / inter
        );
    }
}

fn run(c: &mut Criterion) {
    let mut rng = Rng::new(2024);
    let boxes = Case::new(
        "box-box",
        Cuboid::new(Vec3::new(0.5f32, 0.4, 0.3)).unwrap(),
        Cuboid::new(Vec3::new(0.6f32, 0.3, 0.45)).unwrap(),
        Box::new(pshape::Cuboid::new(PVec3::new(0.5, 0.4, 0.3))),
        Box::new(pshape::Cuboid::new(PVec3::new(0.6, 0.3, 0.45))),
        (Iso3::IDENTITY, Iso3::IDENTITY),
        1.1,
        &mut rng,
    );
    let sphere_box = Case::new(
        "sphere-box",
        Sphere::new(0.4f32).unwrap(),
        Cuboid::new(Vec3::new(0.5f32, 0.4, 0.3)).unwrap(),
        Box::new(pshape::Ball::new(0.4)),
        Box::new(pshape::Cuboid::new(PVec3::new(0.5, 0.4, 0.3))),
        (Iso3::IDENTITY, Iso3::IDENTITY),
        0.9,
        &mut rng,
    );
    let capsules = Case::new(
        "capsule-capsule",
        Capsule::new(0.2f32, 0.5).unwrap(),
        Capsule::new(0.25f32, 0.4).unwrap(),
        Box::new(pshape::Capsule::new_z(0.5, 0.2)),
        Box::new(pshape::Capsule::new_z(0.4, 0.25)),
        (Iso3::IDENTITY, Iso3::IDENTITY),
        1.0,
        &mut rng,
    );
    let cylinders = Case::new(
        "cylinder-cylinder",
        Cylinder::new(0.4f32, 0.5).unwrap(),
        Cylinder::new(0.3f32, 0.6).unwrap(),
        Box::new(pshape::Cylinder::new(0.5, 0.4)),
        Box::new(pshape::Cylinder::new(0.6, 0.3)),
        (y_to_z(), y_to_z()),
        1.0,
        &mut rng,
    );
    let pts32: Vec<Vec3<f32>> = rng.points_on_sphere(32, 0.5);
    let pts200: Vec<Vec3<f32>> = rng.points_on_sphere(200, 0.5);
    let h32 = ConvexHull::from_points(&pts32).unwrap();
    let h200 = ConvexHull::from_points(&pts200).unwrap();
    let poly = |p: &[Vec3<f32>]| -> Box<dyn Shape> {
        let v: Vec<PVec3> = p.iter().map(|x| pvec(*x)).collect();
        Box::new(pshape::ConvexPolyhedron::from_convex_hull(&v).unwrap())
    };
    let hulls32 = Case::new(
        "hull32-hull32",
        h32.view(),
        h32.view(),
        poly(&pts32),
        poly(&pts32),
        (Iso3::IDENTITY, Iso3::IDENTITY),
        0.9,
        &mut rng,
    );
    let hulls200 = Case::new(
        "hull200-hull200",
        h200.view(),
        h200.view(),
        poly(&pts200),
        poly(&pts200),
        (Iso3::IDENTITY, Iso3::IDENTITY),
        0.9,
        &mut rng,
    );

    boxes.check();
    sphere_box.check();
    capsules.check();
    cylinders.check();
    hulls32.check();
    hulls200.check();
    boxes.bench(c);
    sphere_box.bench(c);
    capsules.bench(c);
    cylinders.bench(c);
    hulls32.bench(c);
    hulls200.bench(c);
    println!("\nper query, ns (median of 9 batches of {POSES} overlapping poses, f32)");
    println!("| pair | MPR penetration | parry contact | parry / MPR | mink GJK+EPA | GJK+EPA / MPR | MPR intersect | parry intersection_test | parry / MPR |");
    println!("|---|---|---|---|---|---|---|---|---|");
    boxes.summary();
    sphere_box.summary();
    capsules.summary();
    cylinders.summary();
    hulls32.summary();
    hulls200.summary();
}

criterion_group!(benches, run);
criterion_main!(benches);
