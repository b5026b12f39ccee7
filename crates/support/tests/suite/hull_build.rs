//! The quickhull builder: every invariant of the result checked by brute
//! force on random clouds (ball, sphere, cube surface, near-coplanar jitter),
//! exact shapes from degenerate-looking input, and refusals.

use crate::hull_common::*;
use mink_support::shapes::hull::HULL_TOLERANCE_FACTOR;
use mink_support::{ConvexHull, Real, ShapeError, Vec3};
use mink_testkit::{for_each_real, Rng};

fn build<R: Real>(pts: &[Vec3<R>]) -> ConvexHull<R> {
    match ConvexHull::from_points(pts) {
        Ok(h) => h,
        Err(e) => panic!("hull of {} points refused: {e}", pts.len()),
    }
}

/// The builder's `τ` for a cloud, from its documented formula.
fn tau<R: Real>(pts: &[Vec3<R>]) -> f64 {
    let scale = pts
        .iter()
        .fold(0.0f64, |m, p| m.max(p.cast::<f64>().max_abs()));
    HULL_TOLERANCE_FACTOR * R::EPSILON.to_f64() * scale
}

fn random_clouds<R: Real>() {
    let mut rng = Rng::new(0x4855_4c4c);
    for case in 0..120 {
        let n = [4, 5, 8, 20, 100, 400][case % 6];
        let r = rng.range_f64(0.01, 100.0);
        let center = rng.in_cube::<f64>(3.0 * r);
        let pts: Vec<Vec3<R>> = match case % 3 {
            0 => rng.points_in_ball::<f64>(n, r),
            1 => rng.points_on_sphere::<f64>(n, r),
            _ => clipped_ball::<f64>(&mut rng, n, r),
        }
        .into_iter()
        .map(|p| (p + center).cast())
        .collect();
        let hull = build(&pts);
        check_hull(&hull, &pts);
        if case % 3 == 1 && n >= 8 {
            // Points on a sphere are all corners (none is within τ of the
            // others' hull at these sizes).
            assert_eq!(hull.view().vertex_count(), n, "case {case}");
        }
    }
}
for_each_real!(random_clouds_satisfy_every_invariant, random_clouds);

fn large_clouds<R: Real>() {
    let mut rng = Rng::new(77);
    let sphere: Vec<Vec3<R>> = rng.points_on_sphere(5000, 1.0);
    let hull = build(&sphere);
    check_hull(&hull, &sphere);
    // At this density a few points sit within τ of their neighbours' hull
    // and are dropped (containment above still covers them).
    assert!(
        hull.view().vertex_count() >= 4950,
        "{}",
        hull.view().vertex_count()
    );
    let ball: Vec<Vec3<R>> = rng.points_in_ball(5000, 3.0);
    check_hull(&build(&ball), &ball);
}
for_each_real!(large_clouds_satisfy_every_invariant, large_clouds);

fn grid_gives_a_cube<R: Real>() {
    let mut pts = Vec::new();
    for i in 0..27 {
        let c = |k: u32| ((i / 3_i32.pow(k)) % 3 - 1) as f64;
        pts.push(Vec3::new(c(0), c(1), c(2)).cast::<R>());
    }
    let mut rng = Rng::new(5);
    for round in 0..20 {
        // Any order, and scaled and shifted.
        for i in (1..pts.len()).rev() {
            pts.swap(i, rng.below(i + 1));
        }
        let s = R::lit([1.0, 0.001, 1000.0, 0.37][round % 4]);
        let shift = rng.in_cube::<R>(5.0);
        let input: Vec<Vec3<R>> = pts.iter().map(|p| *p * s + shift).collect();
        let hull = build(&input);
        check_hull(&hull, &input);
        let v = hull.view();
        assert_eq!(
            (v.vertex_count(), v.face_count(), v.edges().len()),
            (8, 6, 12)
        );
        for f in 0..6 {
            assert_eq!(v.face(f).len(), 4);
        }
    }
}
for_each_real!(grid_of_27_points_is_a_cube, grid_gives_a_cube);

fn cube_surfaces<R: Real>() {
    let mut rng = Rng::new(11);
    for case in 0..40 {
        let n = [50, 500, 3000][case % 3];
        let h = rng.range_f64(0.05, 20.0);
        let rot = rng.rotation::<f64>();
        let exact: Vec<Vec3<R>> = cube_surface::<f64>(&mut rng, n, h)
            .into_iter()
            .map(|p| p.cast())
            .collect();
        // Axis-aligned: exactly coplanar points.
        let hull = build(&exact);
        check_hull(&hull, &exact);
        let v = hull.view();
        assert_eq!(
            (v.vertex_count(), v.face_count(), v.edges().len()),
            (8, 6, 12),
            "case {case}"
        );
        // Rotated: coplanar only to within rounding.
        let rotated: Vec<Vec3<R>> = exact
            .iter()
            .map(|p| rot.mul_vec(p.cast::<f64>()).cast())
            .collect();
        let hull = build(&rotated);
        check_hull(&hull, &rotated);
        let v = hull.view();
        assert_eq!(
            (v.vertex_count(), v.face_count(), v.edges().len()),
            (8, 6, 12),
            "rotated case {case}"
        );
    }
}
for_each_real!(cube_surface_points_give_six_quads, cube_surfaces);

fn near_coplanar<R: Real>() {
    let mut rng = Rng::new(13);
    for case in 0..40 {
        let h = rng.range_f64(0.1, 10.0);
        let base = cube_surface::<f64>(&mut rng, 400, h);
        let t = tau(&base.iter().map(|p| p.cast::<R>()).collect::<Vec<_>>());
        // Noise well under τ: still exactly a cube, no slivers.
        let small: Vec<Vec3<R>> = jitter::<f64>(&mut rng, &base, t / 16.0)
            .into_iter()
            .map(|p| p.cast())
            .collect();
        let hull = build(&small);
        check_hull(&hull, &small);
        let v = hull.view();
        assert_eq!((v.vertex_count(), v.face_count()), (8, 6), "case {case}");
        // Noise around τ and well above it: a valid hull, whatever its faces.
        for amp in [t, 10.0 * t, 1000.0 * t] {
            let noisy: Vec<Vec3<R>> = jitter::<f64>(&mut rng, &base, amp)
                .into_iter()
                .map(|p| p.cast())
                .collect();
            check_hull(&build(&noisy), &noisy);
        }
    }
}
for_each_real!(near_coplanar_jitter_is_merged_or_valid, near_coplanar);

fn prisms<R: Real>() {
    let mut rng = Rng::new(17);
    for case in 0..30 {
        let k = [3, 5, 8, 17, 40][case % 5];
        let (r, h) = (rng.range_f64(0.1, 5.0), rng.range_f64(0.1, 5.0));
        let pts: Vec<Vec3<R>> = prism(&mut rng, k, r, h, 300);
        let hull = build(&pts);
        check_hull(&hull, &pts);
        let v = hull.view();
        // Two k-gon caps and k side quads.
        assert_eq!(
            (v.vertex_count(), v.face_count()),
            (2 * k, k + 2),
            "case {case} (k = {k})"
        );
    }
}
for_each_real!(prisms_keep_their_polygon_caps, prisms);

fn refusals<R: Real>() {
    let mut rng = Rng::new(19);
    let p = |x: f64, y: f64, z: f64| Vec3::new(R::lit(x), R::lit(y), R::lit(z));
    for n in 0..4 {
        let pts: Vec<Vec3<R>> = rng.points_in_ball(n, 1.0);
        assert_eq!(
            ConvexHull::from_points(&pts),
            Err(ShapeError::TooFewPoints {
                needed: 4,
                given: n
            })
        );
    }
    let degenerate = |pts: &[Vec3<R>], word: &str| match ConvexHull::from_points(pts) {
        Err(ShapeError::Degenerate(msg)) => assert!(msg.contains(word), "{msg} (wanted {word})"),
        other => panic!("wanted a degenerate-{word} refusal, got {other:?}"),
    };
    for _ in 0..50 {
        let n = 4 + rng.below(200);
        let origin = rng.in_cube::<f64>(10.0);
        let rot = rng.rotation::<f64>();
        let (u, w) = (rot.mul_vec(Vec3::X), rot.mul_vec(Vec3::Y));
        let s = rng.range_f64(0.01, 100.0);
        let plane: Vec<Vec3<R>> = (0..n)
            .map(|_| (origin + u * rng.range_f64(-s, s) + w * rng.range_f64(-s, s)).cast())
            .collect();
        degenerate(&plane, "coplanar");
        let line: Vec<Vec3<R>> = (0..n)
            .map(|_| (origin + u * rng.range_f64(-s, s)).cast())
            .collect();
        degenerate(&line, "collinear");
        let same: Vec<Vec3<R>> = vec![origin.cast(); n];
        degenerate(&same, "coincide");
    }
    // Exactly coplanar on an axis plane, and a 2-D grid.
    let flat: Vec<Vec3<R>> = (0..30)
        .map(|i| p((i % 6) as f64, (i / 6) as f64, 2.0))
        .collect();
    degenerate(&flat, "coplanar");
    for bad in [R::nan(), R::INFINITY, -R::INFINITY] {
        let mut pts: Vec<Vec3<R>> = rng.points_in_ball(10, 1.0);
        pts[7].y = bad;
        assert_eq!(
            ConvexHull::from_points(&pts),
            Err(ShapeError::NonFinite("hull point"))
        );
    }
}
for_each_real!(degenerate_input_is_refused, refusals);

fn hostile<R: Real>() {
    let mut rng = Rng::new(0xdead);
    let mut refused = 0;
    for case in 0..700 {
        let kind = case % 7;
        let pts = hostile_cloud::<R>(&mut rng, kind);
        match ConvexHull::from_points(&pts) {
            Ok(hull) => check_hull(&hull, &pts),
            // Only a slab thinner than τ may be refused, as flat.
            Err(ShapeError::Degenerate(msg)) if kind == 4 && msg.contains("coplanar") => {
                refused += 1
            }
            Err(e) => panic!("case {case} (kind {kind}): {e}"),
        }
    }
    assert!(refused < 10, "{refused} slabs refused");
}
for_each_real!(hostile_clouds_satisfy_every_invariant, hostile);

/// Few points whose coordinates span eight orders of magnitude (a needle
/// 100 km long with centimetre-scale points beside it), the family fuzzing
/// found an input point above a merged face plane by more than the
/// tolerance the builder stored: every invariant, containment within the
/// stored tolerance included, holds.
fn mixed_scales<R: Real>() {
    let mut rng = Rng::new(0x6e65_6564);
    let mut built = 0;
    for case in 0..1500 {
        let n = 4 + rng.below(24);
        // A slab a few τ thick (τ of the cloud's largest coordinate,
        // 1e5 m) whose in-plane coordinates are log-uniform over eight
        // orders of magnitude.
        let thickness = rng.range_f64(0.5, 6.0) * HULL_TOLERANCE_FACTOR * R::EPSILON.to_f64() * 1e5;
        let signed = |rng: &mut Rng, lo: f64, hi: f64| {
            let m = 10f64.powf(rng.range_f64(lo, hi));
            if rng.chance(0.5) {
                m
            } else {
                -m
            }
        };
        let mut pts: Vec<Vec3<R>> = vec![Vec3::new(1e5, 0.0, 0.0).cast()];
        for _ in 0..n {
            let (x, y) = (signed(&mut rng, -3.0, 4.9), signed(&mut rng, -3.0, 4.0));
            let z = if rng.chance(0.5) {
                thickness
            } else {
                rng.range_f64(0.0, thickness)
            };
            pts.push(Vec3::new(x, y, z).cast());
        }
        match ConvexHull::from_points(&pts) {
            Ok(hull) => {
                check_hull(&hull, &pts);
                built += 1;
            }
            Err(ShapeError::Degenerate(_)) => {}
            Err(e) => panic!("case {case}: {e}"),
        }
    }
    assert!(built > 1000, "only {built} of 1500 clouds built");
}
for_each_real!(mixed_scale_clouds_satisfy_every_invariant, mixed_scales);

/// The cloud fuzzing found (`fuzz/corpus/support_points/regress-needle-point-above-merged-face`):
/// a sliver 131 km long and 1 m thick in f32, where the point
/// (0.004, 7281, 0.889) ended 3.15 m above a merged face while the stored
/// tolerance was 2.13 m. Every input point is within the stored tolerance
/// of every face plane.
#[test]
fn f32_sliver_keeps_every_point_within_the_tolerance() {
    let raw: [[f32; 3]; 27] = [
        [337.5, -0.015625, 1.0],
        [0.109375, 0.0036010742, 4.2915344e-5],
        [849.375, 0.00021362305, -0.02911377],
        [131224.0, -0.00013446808, 1.0],
        [1.0, 1.0, 1.0],
        [-0.06162262, 0.4375, -0.02911377],
        [4248.0, 1840.0, 1.0],
        [1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0],
        [-0.0621109, 1840.4375, 1.0],
        [1.0, 1.0, 1.0],
        [0.001709938, -0.5, 1.0],
        [1.0, 0.018382072, -0.048820496],
        [0.0040359497, 7281.0, 0.88879395],
        [1.9962158, 0.0, 0.010986328],
        [0.005432129, 3.9453125, -0.015625],
        [309.9375, 1840.0, 0.0023422241],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
    ];
    let pts: Vec<Vec3<f32>> = raw.iter().map(|p| Vec3::new(p[0], p[1], p[2])).collect();
    check_hull(&build(&pts), &pts);
}
