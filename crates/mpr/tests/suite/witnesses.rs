//! The witness contract of `penetration`, on the families where it used to
//! break (fuzzing found each): a point at a thin box's centre, coincident
//! ellipsoids and cones, capsules nested in ellipsoids, random
//! overlapping boxes and cylinders, and parallel capsules whose cores are
//! apart, in f32 and f64.
//!
//! The oracle is the shapes' own support functions, not MPR: for a
//! [`MprStatus::Converged`] or [`MprStatus::Unverified`] answer,
//! `p_a - p_b` is `depth * normal` and each witness lies inside its shape
//! (below its support plane along every sampled direction); an answer
//! reported [`MprStatus::IterationCap`] keeps its witnesses inside the
//! shapes. Every answer's depth is the overlap along its normal.

use mink_mpr::{penetration, MprStatus, Penetration};
use mink_support::{
    Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Iso3, Pair, Point, Real, Support, Vec3,
};
use mink_testkit::{for_each_real, hostile_directions, Rng};

/// The support of `s` at `pose` along unit `n` (world frame, meters).
fn world_support<R: Real, S: Support<R>>(s: &S, pose: &Iso3<R>, n: Vec3<R>) -> f64 {
    let local = pose.rotation.transpose_mul(n);
    let mut h = S::Hint::default();
    let p = pose.transform_point(s.support(local, &mut h));
    n.dot(p).to_f64() + s.inflation().to_f64()
}

/// How far `p` lies outside `s` at `pose` along the worst of `dirs`
/// (meters, negative inside).
fn outside<R: Real, S: Support<R>>(s: &S, pose: &Iso3<R>, p: Vec3<R>, dirs: &[Vec3<R>]) -> f64 {
    dirs.iter()
        .map(|&u| u.dot(p).to_f64() - world_support(s, pose, u))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// What one family's sweep saw.
#[derive(Default, Debug)]
struct Tally {
    overlapping: usize,
    unverified: usize,
    capped: usize,
}

/// Checks one answer of A against B (see the module docs); `size` is the
/// pair's size (meters).
#[allow(clippy::too_many_arguments)]
fn check<R: Real, A: Support<R>, B: Support<R>>(
    what: &str,
    p: &Penetration<R>,
    a: &A,
    pose_a: &Iso3<R>,
    b: &B,
    pose_b: &Iso3<R>,
    size: f64,
    dirs: &[Vec3<R>],
    tally: &mut Tally,
) {
    if !p.is_overlapping() {
        return;
    }
    tally.overlapping += 1;
    let tol = 4.0 * mink_mpr::witness_tolerance::<R>().to_f64() * size;
    let n = p.normal;
    let along = world_support(a, pose_a, n) + world_support(b, pose_b, -n);
    let depth = p.depth.to_f64();
    assert!(
        (along - depth).abs() <= tol,
        "{what}: depth {depth} is not the overlap {along} along the normal: {p:?}"
    );
    let out_a = outside(a, pose_a, p.p_a, dirs);
    assert!(out_a <= tol, "{what}: p_a {out_a} m outside A: {p:?}");
    let out_b = outside(b, pose_b, p.p_b, dirs);
    assert!(out_b <= tol, "{what}: p_b {out_b} m outside B: {p:?}");
    match p.status {
        MprStatus::Converged | MprStatus::Unverified => {
            tally.unverified += usize::from(p.status == MprStatus::Unverified);
            let off = (p.p_a - p.p_b - n * p.depth).norm().to_f64();
            assert!(
                off <= tol,
                "{what}: p_a - p_b is {off} m off depth x normal: {p:?}"
            );
        }
        MprStatus::IterationCap => tally.capped += 1,
        s => panic!("{what}: overlapping with status {s:?}"),
    }
}

/// Both orders of one posed pair: `(shape, pose)` for A and for B.
fn both<R: Real, A: Support<R>, B: Support<R>>(
    what: &str,
    (a, pose_a): (&A, &Iso3<R>),
    (b, pose_b): (&B, &Iso3<R>),
    size: f64,
    dirs: &[Vec3<R>],
    tally: &mut Tally,
) {
    let ab = penetration(&mut Pair::new(a, pose_a, b, pose_b), pose_a);
    check(what, &ab, a, pose_a, b, pose_b, size, dirs, tally);
    let ba = penetration(&mut Pair::new(b, pose_b, a, pose_a), pose_b);
    check(what, &ba, b, pose_b, a, pose_a, size, dirs, tally);
}

/// Half-extents or radii, each in `[lo, hi]` (meters).
fn extents<R: Real>(rng: &mut Rng, lo: f64, hi: f64) -> Vec3<R> {
    Vec3::new(rng.range(lo, hi), rng.range(lo, hi), rng.range(lo, hi))
}

/// Sampled unit directions: the hostile set plus random ones.
fn directions<R: Real>(rng: &mut Rng) -> Vec<Vec3<R>> {
    let mut dirs: Vec<Vec3<R>> = hostile_directions::<R>()
        .into_iter()
        .filter_map(|d| d.try_normalize())
        .collect();
    dirs.extend((0..64).map(|_| rng.unit_vec::<R>()));
    dirs
}

fn families<R: Real>() {
    let mut rng = Rng::new(0x0017_e55e);
    let dirs = directions::<R>(&mut rng);
    let cases = 600;

    // A point at (or within a millimetre of) the centre of a box that may
    // be thin along one axis.
    let mut point_box = Tally::default();
    for _ in 0..cases {
        let mut h = [0.0; 3];
        for x in &mut h {
            *x = rng.range_f64(0.2, 1.0);
        }
        h[rng.below(3)] = rng.range_f64(0.002, 0.02);
        let cube = Cuboid::new(Vec3::new(R::lit(h[0]), R::lit(h[1]), R::lit(h[2]))).unwrap();
        let pose_box: Iso3<R> = rng.pose(2.0);
        let off = if rng.chance(0.5) { 0.0 } else { 1e-3 };
        let pose_point = Iso3::from_parts(rng.rotation(), pose_box.translation + rng.in_cube(off));
        both(
            "point-box",
            (&Point, &pose_point),
            (&cube, &pose_box),
            1.0,
            &dirs,
            &mut point_box,
        );
    }

    // Coincident ellipsoids and cones.
    let mut ellipsoid_cone = Tally::default();
    for _ in 0..cases {
        let e = Ellipsoid::new(extents(&mut rng, 0.1, 1.5)).unwrap();
        let c = Cone::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0)).unwrap();
        let pose_e: Iso3<R> = rng.pose(2.0);
        let pose_c = Iso3::from_parts(rng.rotation(), pose_e.translation);
        both(
            "ellipsoid-cone",
            (&e, &pose_e),
            (&c, &pose_c),
            1.5,
            &dirs,
            &mut ellipsoid_cone,
        );
    }

    // Small capsules nested in (or crossing the surface of) ellipsoids.
    let mut ellipsoid_capsule = Tally::default();
    for _ in 0..cases {
        let e = Ellipsoid::new(extents(&mut rng, 0.005, 1.0)).unwrap();
        let c = Capsule::new(rng.range(0.001, 0.3), rng.range(0.001, 0.3)).unwrap();
        let pose_e: Iso3<R> = rng.pose(2.0);
        let pose_c = Iso3::from_parts(rng.rotation(), pose_e.translation + rng.in_cube(0.3));
        both(
            "ellipsoid-capsule",
            (&e, &pose_e),
            (&c, &pose_c),
            1.0,
            &dirs,
            &mut ellipsoid_capsule,
        );
    }

    // Random overlapping boxes and cylinders, deep and shallow.
    let mut polytopes = Tally::default();
    for _ in 0..cases {
        let a = Cuboid::new(extents(&mut rng, 0.1, 1.0)).unwrap();
        let b = Cylinder::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0)).unwrap();
        let pose_a: Iso3<R> = rng.pose(2.0);
        let pose_b = Iso3::from_parts(rng.rotation(), pose_a.translation + rng.in_cube(0.9));
        both(
            "box-cylinder",
            (&a, &pose_a),
            (&b, &pose_b),
            1.5,
            &dirs,
            &mut polytopes,
        );
    }

    // Parallel capsules whose cores are apart but whose radii overlap
    // (robot links side by side): GJK's normal between the parallel
    // segments may be tilted; the depth must still be the overlap along
    // the normal reported.
    let mut parallel = Tally::default();
    for _ in 0..cases {
        let (ra, rb) = (rng.range_f64(0.05, 2.0), rng.range_f64(0.05, 2.0));
        let a = Capsule::new(R::lit(ra), rng.range(0.02, 2.0)).unwrap();
        let b = Capsule::new(R::lit(rb), rng.range(0.02, 2.0)).unwrap();
        let mut pose_a: Iso3<R> = rng.pose(2.0);
        if rng.chance(0.5) {
            // Axis-aligned, where the segments' ends tie.
            pose_a = Iso3::from_translation(pose_a.translation);
        }
        let across = pose_a.rotation.mul_vec(Vec3::X);
        let along = pose_a.rotation.mul_vec(Vec3::Z);
        let gap = rng.range_f64(0.01, 0.99) * (ra + rb);
        let shift = rng.range_f64(-2.0, 2.0);
        let pose_b = Iso3::from_parts(
            pose_a.rotation,
            pose_a.translation + across * R::lit(gap) + along * R::lit(shift),
        );
        both(
            "parallel capsules",
            (&a, &pose_a),
            (&b, &pose_b),
            4.0,
            &dirs,
            &mut parallel,
        );
    }

    // Each family overlaps (the sweep means something) and reaches answers
    // that are not certified; few answers are left unfinished (the
    // passes along the normal converge slowly only on curved pairs whose
    // interior points coincide: in f64, 10% of the ellipsoid–cone ones).
    let families = [
        ("point-box", &point_box),
        ("ellipsoid-cone", &ellipsoid_cone),
        ("ellipsoid-capsule", &ellipsoid_capsule),
        ("box-cylinder", &polytopes),
        ("parallel capsules", &parallel),
    ];
    let (mut overlapping, mut unverified, mut capped) = (0, 0, 0);
    for (name, t) in families {
        eprintln!("{} {name}: {t:?}", core::any::type_name::<R>());
        assert!(t.overlapping > cases, "{name}: {t:?}");
        overlapping += t.overlapping;
        unverified += t.unverified;
        capped += t.capped;
    }
    assert!(unverified > 50, "{families:?}");
    assert!(capped * 20 <= overlapping, "{families:?}");
}

for_each_real!(witnesses_match_depth_and_lie_on_the_shapes, families);
