//! The hard starts libccd's and MuJoCo's MPR stumble on, bad input, and
//! differences without volume.

use mink_mpr::{
    intersect, penetration, penetration_with, MprSettings, MprStatus, MAX_CERTIFY_STEPS,
    MAX_RESEED_PASSES,
};
use mink_support::{
    Capsule, Cuboid, Iso3, Mat3, Pair, Point, Real, Segment, Sphere, Support, Vec3,
};
use mink_testkit::{for_each_real, Rng};

fn tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS < 30 {
        1e-4
    } else {
        1e-9
    }
}

/// Full certification: the answer must be the minimum.
fn full() -> MprSettings {
    MprSettings {
        reseed_passes: MAX_RESEED_PASSES,
        certify_steps: MAX_CERTIFY_STEPS,
        ..MprSettings::default()
    }
}

/// The default answer is honest: a separating translation no shallower
/// than the truth, a lower bound no deeper, and right when it says so.
fn check_default<R: Real, A: Support<R>, B: Support<R>>(
    a: &A,
    pose_a: &Iso3<R>,
    b: &B,
    pose_b: &Iso3<R>,
    depth: f64,
) {
    let hit = penetration(&mut Pair::new(a, pose_a, b, pose_b), pose_a);
    assert!(hit.is_overlapping(), "{hit:?}");
    assert!(
        hit.depth.to_f64() >= depth - tol::<R>(),
        "{hit:?} vs {depth}"
    );
    assert!(
        hit.depth_lower_bound.to_f64() <= depth + tol::<R>(),
        "{hit:?} vs {depth}"
    );
    if hit.status == MprStatus::Converged {
        assert!(
            (hit.depth.to_f64() - depth).abs() < tol::<R>(),
            "{hit:?} vs {depth}"
        );
    } else {
        assert_eq!(hit.status, MprStatus::Unverified, "{hit:?}");
    }
}

fn v<R: Real>(x: f64, y: f64, z: f64) -> Vec3<R> {
    Vec3::new(R::lit(x), R::lit(y), R::lit(z))
}

/// Same centre, both boxes axis-aligned or rotated about z: the interior
/// point is the origin; the depth is the smallest half-sum of extents.
fn coincident_centres<R: Real>() {
    let a = Cuboid::new(v::<R>(1.0, 0.5, 0.8)).unwrap();
    let b = Cuboid::new(v::<R>(0.3, 0.6, 0.2)).unwrap();
    for angle in [0.0, 0.3, 1.0, core::f64::consts::FRAC_PI_2] {
        let pose_a = Iso3::IDENTITY;
        let pose_b = Iso3::from_parts(Mat3::from_axis_angle(Vec3::Z, R::lit(angle)), Vec3::ZERO);
        let hit = penetration_with(&mut Pair::new(&a, &pose_a, &b, &pose_b), &pose_a, &full());
        assert!(intersect(&mut Pair::new(&a, &pose_a, &b, &pose_b)).overlapping);
        assert_eq!(hit.status, MprStatus::Converged, "angle {angle}: {hit:?}");
        // B's half extents seen along A's axes, rotated by `angle` about z.
        let (s, c) = (angle.sin().abs(), angle.cos().abs());
        let overlaps = [1.0 + 0.3 * c + 0.6 * s, 0.5 + 0.3 * s + 0.6 * c, 0.8 + 0.2];
        let depth = overlaps.iter().cloned().fold(f64::MAX, f64::min);
        let axis = overlaps.iter().position(|&o| o == depth).unwrap();
        assert!(
            (hit.depth.to_f64() - depth).abs() < tol::<R>(),
            "angle {angle}: {hit:?}"
        );
        assert!(
            (hit.normal.get(axis).abs().to_f64() - 1.0).abs() < tol::<R>(),
            "angle {angle}: {hit:?}"
        );
        check_default(&a, &pose_a, &b, &pose_b, depth);
    }
    // Same centre, two spheres: depth is the radii sum, any unit normal.
    let s = Sphere::new(R::lit(0.5)).unwrap();
    let hit = penetration(
        &mut Pair::new(&s, &Iso3::IDENTITY, &s, &Iso3::IDENTITY),
        &Iso3::IDENTITY,
    );
    assert!(hit.is_overlapping());
    assert!((hit.depth.to_f64() - 1.0).abs() < tol::<R>(), "{hit:?}");
    assert!((hit.normal.norm().to_f64() - 1.0).abs() < tol::<R>());
    // Nearly coincident: a tiny offset.
    let pose_b = Iso3::from_translation(v::<R>(1e-7, -2e-7, 0.0));
    let hit = penetration_with(
        &mut Pair::new(&a, &Iso3::IDENTITY, &b, &pose_b),
        &Iso3::IDENTITY,
        &full(),
    );
    assert_eq!(hit.status, MprStatus::Converged, "{hit:?}");
    assert!((hit.depth.to_f64() - 1.0).abs() < 1e-3);
}
for_each_real!(coincident_centres_overlap, coincident_centres);

/// Axis-aligned equal boxes offset along a diagonal: the ray through the
/// origin passes exactly through edges and vertices of the difference, and
/// flat faces lie parallel to the portal.
fn origin_on_edges<R: Real>() {
    let a = Cuboid::new(v::<R>(0.5, 0.5, 0.5)).unwrap();
    let offsets = [
        (0.5, 0.5, 0.0),
        (0.5, 0.5, 0.5),
        (0.9, 0.0, 0.0),
        (0.25, 0.25, 0.25),
        (0.9, 0.9, 0.0),
        (0.3, 0.3, 0.9),
    ];
    for (x, y, z) in offsets {
        for sign in [1.0, -1.0] {
            let pose_b = Iso3::from_translation(v::<R>(x * sign, y * sign, z * sign));
            let hit = penetration_with(
                &mut Pair::new(&a, &Iso3::IDENTITY, &a, &pose_b),
                &Iso3::IDENTITY,
                &full(),
            );
            let depth = [x, y, z]
                .iter()
                .map(|c: &f64| 1.0 - c.abs())
                .fold(f64::MAX, f64::min);
            check_default(&a, &Iso3::IDENTITY, &a, &pose_b, depth);
            assert_eq!(hit.status, MprStatus::Converged, "{x} {y} {z}: {hit:?}");
            assert!(
                (hit.depth.to_f64() - depth).abs() < tol::<R>(),
                "{x} {y} {z}: {} vs {depth}",
                hit.depth
            );
            assert!(intersect(&mut Pair::new(&a, &Iso3::IDENTITY, &a, &pose_b)).overlapping);
        }
    }
    // Touching exactly face to face: separated (touching is not overlap),
    // and both queries agree.
    let pose_b = Iso3::from_translation(v::<R>(1.0, 0.2, 0.0));
    let hit = penetration(
        &mut Pair::new(&a, &Iso3::IDENTITY, &a, &pose_b),
        &Iso3::IDENTITY,
    );
    let boolean = intersect(&mut Pair::new(&a, &Iso3::IDENTITY, &a, &pose_b));
    assert_eq!(hit.is_overlapping(), boolean.overlapping);
    assert!(hit.depth.to_f64() < tol::<R>());
}
for_each_real!(origin_on_portal_edges_and_faces, origin_on_edges);

fn non_finite<R: Real>() {
    let a = Cuboid::new(v::<R>(0.5, 0.5, 0.5)).unwrap();
    let bad = [
        Iso3::from_translation(Vec3::new(R::nan(), R::ZERO, R::ZERO)),
        Iso3::from_translation(Vec3::splat(R::INFINITY)),
        Iso3::from_parts(
            Mat3::from_cols(Vec3::splat(R::nan()), Vec3::Y, Vec3::Z),
            Vec3::ZERO,
        ),
    ];
    for pose in bad {
        let hit = penetration(
            &mut Pair::new(&a, &Iso3::IDENTITY, &a, &pose),
            &Iso3::IDENTITY,
        );
        assert_eq!(hit.status, MprStatus::NonFinite);
        assert_eq!(hit.depth, R::ZERO);
        assert!(hit.normal.is_finite() && hit.position.is_finite());
        let b = intersect(&mut Pair::new(&a, &Iso3::IDENTITY, &a, &pose));
        assert_eq!(b.status, MprStatus::NonFinite);
        assert!(!b.overlapping);
        // A bad pose for A itself.
        let hit = penetration(&mut Pair::new(&a, &pose, &a, &Iso3::IDENTITY), &pose);
        assert_eq!(hit.status, MprStatus::NonFinite);
    }
}
for_each_real!(non_finite_input_is_an_error, non_finite);

/// Differences without volume: segment–segment, point–segment, point–point
/// (no inflation). Never overlapping, never panicking; their inflated
/// versions (capsules, spheres) are exact.
fn degenerate<R: Real>() {
    let mut rng = Rng::new(5);
    let seg = Segment::new(v::<R>(-0.5, 0.0, 0.0), v::<R>(0.5, 0.0, 0.0)).unwrap();
    for _ in 0..500 {
        let pose_b: Iso3<R> = rng.pose(0.6);
        for hit in [
            penetration(
                &mut Pair::new(&seg, &Iso3::IDENTITY, &seg, &pose_b),
                &Iso3::IDENTITY,
            ),
            penetration(
                &mut Pair::new(&Point, &Iso3::IDENTITY, &seg, &pose_b),
                &Iso3::IDENTITY,
            ),
            penetration(
                &mut Pair::new(&Point, &Iso3::IDENTITY, &Point, &pose_b),
                &Iso3::IDENTITY,
            ),
        ] {
            assert!(!hit.is_overlapping(), "{hit:?}");
            assert!(
                matches!(hit.status, MprStatus::Separated | MprStatus::Degenerate),
                "{hit:?}"
            );
            assert_eq!(hit.depth, R::ZERO);
        }
    }
    // Crossing segments exactly: the difference is a flat parallelogram
    // holding the origin.
    let cross = Iso3::from_parts(Mat3::from_axis_angle(Vec3::Z, R::lit(1.0)), Vec3::ZERO);
    let hit = penetration(
        &mut Pair::new(&seg, &Iso3::IDENTITY, &seg, &cross),
        &Iso3::IDENTITY,
    );
    assert!(!hit.is_overlapping());
    // The same crossing as capsules: the cores overlap and have no volume,
    // so MPR runs on the inflated difference; depth is the radii sum.
    let cap = Capsule::new(R::lit(0.1), R::lit(0.5)).unwrap();
    let tilt = Iso3::from_parts(Mat3::from_axis_angle(Vec3::X, R::lit(1.0)), Vec3::ZERO);
    let hit = penetration(
        &mut Pair::new(&cap, &Iso3::IDENTITY, &cap, &tilt),
        &Iso3::IDENTITY,
    );
    assert!(hit.is_overlapping(), "{hit:?}");
    assert!((hit.depth.to_f64() - 0.2).abs() < 1e-3, "{hit:?}");
}
for_each_real!(degenerate_differences, degenerate);

/// Deep penetration without certification is flagged; with it, converged.
fn deep_flagged<R: Real>() {
    let a = Cuboid::new(v::<R>(2.0, 0.2, 0.2)).unwrap();
    let b = Cuboid::new(v::<R>(0.2, 0.2, 2.0)).unwrap();
    // Long thin boxes crossing off-centre: the ray between the centres runs
    // along x, the minimum translation along y or z.
    let pose_b = Iso3::from_translation(v::<R>(1.0, 0.05, 1.0));
    let classic = MprSettings {
        reseed_passes: 0,
        certify_steps: 0,
        ..MprSettings::default()
    };
    let hit = penetration_with(
        &mut Pair::new(&a, &Iso3::IDENTITY, &b, &pose_b),
        &Iso3::IDENTITY,
        &classic,
    );
    assert!(hit.is_overlapping());
    let settings = MprSettings {
        certify_steps: MAX_CERTIFY_STEPS,
        ..MprSettings::default()
    };
    let full = penetration_with(
        &mut Pair::new(&a, &Iso3::IDENTITY, &b, &pose_b),
        &Iso3::IDENTITY,
        &settings,
    );
    assert_eq!(full.status, MprStatus::Converged);
    // The default answer is right or says it is not proven.
    let default = penetration(
        &mut Pair::new(&a, &Iso3::IDENTITY, &b, &pose_b),
        &Iso3::IDENTITY,
    );
    assert!(
        default.status == MprStatus::Unverified
            || (default.depth.to_f64() - 0.35).abs() < tol::<R>()
    );
    assert!(default.depth_lower_bound.to_f64() <= 0.35 + tol::<R>());
    // True depth: y overlap 0.4 - 0.05 = 0.35 (x: 2.2 - 1 = 1.2, z: 1.2).
    assert!((full.depth.to_f64() - 0.35).abs() < tol::<R>(), "{full:?}");
    assert!(full.iterations <= 64 + MAX_CERTIFY_STEPS * 2);
    if (hit.depth.to_f64() - 0.35).abs() > 1e-3 {
        assert_eq!(
            hit.status,
            MprStatus::Unverified,
            "a wrong classic answer must be flagged"
        );
        assert!(hit.depth_lower_bound <= full.depth);
    }
}
for_each_real!(deep_penetration_is_flagged_or_certified, deep_flagged);
