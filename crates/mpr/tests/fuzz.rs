//! The fuzzing harness (`mink_mpr::fuzz`) on thousands of seeded random
//! cases: random shape pairs and poses for f32 and f64, and random bytes.

use mink_mpr::fuzz::{check_bytes, check_pair};
use mink_support::{
    Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Iso3, Point, Real, Rounded, Segment, Sphere,
    Support,
};
use mink_testkit::{for_each_real, Rng};

fn run_pair<R: Real, A: Support<R>, B: Support<R>>(
    a: &A,
    b: &B,
    rng: &mut Rng,
    n: usize,
) -> (usize, usize) {
    // Tolerance on depths (meters, shapes of about 1 m).
    let tol = R::lit(if R::MANTISSA_BITS < 30 { 2e-3 } else { 1e-6 });
    let mut overlaps = 0;
    for _ in 0..n {
        let pose_a: Iso3<R> = rng.pose(1.0);
        let pose_b = if rng.chance(0.1) {
            Iso3::from_translation(pose_a.translation + rng.in_cube(1.0)) // axis-aligned ties
        } else {
            Iso3::from_parts(rng.rotation(), pose_a.translation + rng.in_cube(1.0))
        };
        match check_pair(a, &pose_a, b, &pose_b, tol) {
            Ok(hit) => overlaps += hit.is_overlapping() as usize,
            Err(e) => panic!("{e}: {pose_a:?} {pose_b:?}"),
        }
    }
    (overlaps, n)
}

fn random_pairs<R: Real>() {
    let mut rng = Rng::new(7);
    let v = |x: f64, y: f64, z: f64| mink_support::Vec3::new(R::lit(x), R::lit(y), R::lit(z));
    let cube = Cuboid::new(v(0.5, 0.3, 0.4)).unwrap();
    let ball = Sphere::new(R::lit(0.4)).unwrap();
    let cap = Capsule::new(R::lit(0.2), R::lit(0.4)).unwrap();
    let cyl = Cylinder::new(R::lit(0.3), R::lit(0.4)).unwrap();
    let cone = Cone::new(R::lit(0.4), R::lit(0.4)).unwrap();
    let ell = Ellipsoid::new(v(0.5, 0.3, 0.2)).unwrap();
    let seg = Segment::new(v(-0.4, 0.0, 0.0), v(0.4, 0.1, 0.0)).unwrap();
    let rounded = Rounded::new(cube, R::lit(0.1)).unwrap();
    let mut total = (0, 0);
    let mut add = |r: (usize, usize)| {
        total.0 += r.0;
        total.1 += r.1;
    };
    add(run_pair(&cube, &cube, &mut rng, 600));
    add(run_pair(&cube, &ball, &mut rng, 400));
    add(run_pair(&cap, &cap, &mut rng, 400));
    add(run_pair(&cyl, &cyl, &mut rng, 400));
    add(run_pair(&cone, &cube, &mut rng, 400));
    add(run_pair(&ell, &cyl, &mut rng, 400));
    add(run_pair(&seg, &cube, &mut rng, 400));
    add(run_pair(&rounded, &cap, &mut rng, 400));
    add(run_pair(&Point, &ell, &mut rng, 300));
    add(run_pair(&ball, &ball, &mut rng, 300));
    let rate = total.0 as f64 / total.1 as f64;
    assert!((0.3..0.8).contains(&rate), "overlap rate {rate}");
}
for_each_real!(fuzz_harness_on_random_pairs, random_pairs);

#[test]
fn fuzz_harness_on_random_bytes() {
    let mut rng = Rng::new(8);
    for len in 0..4000usize {
        let bytes: Vec<u8> = (0..len % 48).map(|_| rng.next_u64() as u8).collect();
        if let Err(e) = check_bytes(&bytes) {
            panic!("{e}: {bytes:?}");
        }
    }
}
