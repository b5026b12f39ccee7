//! Analytic answers: sphere–sphere, sphere–box, box–box along the axes,
//! capsule–capsule, in random poses, for f32 and f64.

use mink_mpr::{intersect, penetration, MprStatus};
use mink_support::{Capsule, Cuboid, Iso3, Pair, Real, Sphere, Vec3};
use mink_testkit::{for_each_real, Rng};

/// Tolerance for results that should be exact to rounding (meters, for
/// shapes of about 1 m): 1e-4 in f32, 1e-9 in f64.
fn exact_tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS < 30 {
        1e-4
    } else {
        1e-9
    }
}

fn sphere_sphere<R: Real>() {
    let mut rng = Rng::new(11);
    let tol = exact_tol::<R>();
    let mut overlaps = 0;
    let n = 3000;
    for _ in 0..n {
        let ra = rng.range_f64(0.1, 1.0);
        let rb = rng.range_f64(0.1, 1.0);
        let a = Sphere::new(R::lit(ra)).unwrap();
        let b = Sphere::new(R::lit(rb)).unwrap();
        let pose_a: Iso3<R> = rng.pose(2.0);
        let dir: Vec3<R> = rng.unit_vec();
        let dist = rng.range_f64(0.0, 1.4) * (ra + rb);
        let pose_b = Iso3::from_parts(rng.rotation(), pose_a.translation + dir * R::lit(dist));
        let mut pair = Pair::new(&a, &pose_a, &b, &pose_b);
        let hit = penetration(&mut pair, &pose_a);
        let boolean = intersect(&mut Pair::new(&a, &pose_a, &b, &pose_b));
        // The exact answer, from the (rounded) centres actually used.
        let centre_gap = (pose_b.translation - pose_a.translation).norm().to_f64();
        let depth = ra + rb - centre_gap;
        if depth.abs() < 10.0 * tol {
            continue; // touching: either verdict is right
        }
        assert_eq!(hit.is_overlapping(), depth > 0.0, "verdict, depth {depth}");
        assert_eq!(boolean.overlapping, depth > 0.0);
        if depth > 0.0 {
            overlaps += 1;
            assert_eq!(hit.status, MprStatus::Converged);
            assert!(
                (hit.depth.to_f64() - depth).abs() < tol,
                "{} vs {depth}",
                hit.depth
            );
            if centre_gap > 1e-3 {
                let n_true = (pose_b.translation - pose_a.translation) / R::lit(centre_gap);
                assert!(
                    (hit.normal - n_true).norm().to_f64() < tol * 10.0,
                    "normal {:?} vs {:?}",
                    hit.normal,
                    n_true
                );
                // Witnesses on the surfaces, along the normal.
                let pa = pose_a.translation + n_true * R::lit(ra);
                let pb = pose_b.translation - n_true * R::lit(rb);
                assert!((hit.p_a - pa).norm().to_f64() < tol * 10.0);
                assert!((hit.p_b - pb).norm().to_f64() < tol * 10.0);
            }
        }
    }
    let rate = overlaps as f64 / n as f64;
    assert!((0.55..0.85).contains(&rate), "overlap rate {rate}");
}
for_each_real!(sphere_sphere_is_exact, sphere_sphere);

/// Closest point of an axis-aligned box (half extents h, at the origin) to p.
fn clamp_to_box(p: [f64; 3], h: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|i| p[i].clamp(-h[i], h[i]))
}

fn sphere_box<R: Real>() {
    let mut rng = Rng::new(12);
    let tol = exact_tol::<R>() * 10.0;
    let n = 3000;
    let mut overlaps = 0;
    for _ in 0..n {
        let h = [
            rng.range_f64(0.2, 1.0),
            rng.range_f64(0.2, 1.0),
            rng.range_f64(0.2, 1.0),
        ];
        let r = rng.range_f64(0.1, 0.6);
        let cube = Cuboid::new(Vec3::new(R::lit(h[0]), R::lit(h[1]), R::lit(h[2]))).unwrap();
        let ball = Sphere::new(R::lit(r)).unwrap();
        // Centre of the ball in the box's frame: near the surface, outside.
        let c = [0, 1, 2].map(|i| rng.range_f64(-1.0, 1.0) * (h[i] + r));
        let q = clamp_to_box(c, h);
        let d = ((c[0] - q[0]).powi(2) + (c[1] - q[1]).powi(2) + (c[2] - q[2]).powi(2)).sqrt();
        if d < 1e-3 {
            continue; // centre inside the box: covered by the deep tests
        }
        let depth = r - d;
        if depth.abs() < tol {
            continue;
        }
        let pose_a: Iso3<R> = rng.pose(2.0);
        let local_c = Vec3::new(R::lit(c[0]), R::lit(c[1]), R::lit(c[2]));
        let pose_b = Iso3::from_parts(rng.rotation(), pose_a.transform_point(local_c));
        let mut pair = Pair::new(&cube, &pose_a, &ball, &pose_b);
        let hit = penetration(&mut pair, &pose_a);
        assert_eq!(hit.is_overlapping(), depth > 0.0, "depth {depth}");
        if depth > 0.0 {
            overlaps += 1;
            assert_eq!(hit.status, MprStatus::Converged);
            assert!(
                (hit.depth.to_f64() - depth).abs() < tol,
                "depth {} vs {depth}",
                hit.depth
            );
            let n_local = [0, 1, 2].map(|i| (c[i] - q[i]) / d);
            let n_true = pose_a.rotation.mul_vec(Vec3::new(
                R::lit(n_local[0]),
                R::lit(n_local[1]),
                R::lit(n_local[2]),
            ));
            assert!((hit.normal - n_true).norm().to_f64() < tol * 10.0, "normal");
        }
    }
    assert!(overlaps > n / 5, "only {overlaps} overlaps");
}
for_each_real!(sphere_box_matches_closest_point, sphere_box);

fn box_box_axes<R: Real>() {
    let mut rng = Rng::new(13);
    let tol = exact_tol::<R>();
    for _ in 0..2000 {
        let ha = [
            rng.range_f64(0.2, 1.0),
            rng.range_f64(0.2, 1.0),
            rng.range_f64(0.2, 1.0),
        ];
        let hb = [
            rng.range_f64(0.2, 1.0),
            rng.range_f64(0.2, 1.0),
            rng.range_f64(0.2, 1.0),
        ];
        let a = Cuboid::new(Vec3::new(R::lit(ha[0]), R::lit(ha[1]), R::lit(ha[2]))).unwrap();
        let b = Cuboid::new(Vec3::new(R::lit(hb[0]), R::lit(hb[1]), R::lit(hb[2]))).unwrap();
        // Axis-aligned boxes offset mostly along one axis, overlapping by
        // less than 10% of the smaller box there (the shallow regime MPR is
        // held to; deep overlaps are measured in the deviation test): the
        // depth is the smallest overlap over the three axes.
        let axis = rng.below(3);
        let mut off = [0.0; 3];
        for i in 0..3 {
            let reach = ha[i] + hb[i];
            let shallow = rng.range_f64(0.005, 0.1) * 2.0 * ha[i].min(hb[i]);
            off[i] = if i == axis {
                reach - shallow
            } else {
                rng.range_f64(-0.3, 0.3) * reach
            };
            if rng.chance(0.5) {
                off[i] = -off[i];
            }
        }
        let overlaps: Vec<f64> = (0..3).map(|i| ha[i] + hb[i] - off[i].abs()).collect();
        let (best, depth) =
            overlaps.iter().enumerate().fold(
                (0, f64::MAX),
                |acc, (i, &o)| if o < acc.1 { (i, o) } else { acc },
            );
        let second = overlaps
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != best)
            .map(|(_, &o)| o)
            .fold(f64::MAX, f64::min);
        if second - depth < 1e-3 {
            continue; // two axes tie: the normal is ambiguous
        }
        let pose_a: Iso3<R> = rng.pose(2.0);
        let t = Vec3::new(R::lit(off[0]), R::lit(off[1]), R::lit(off[2]));
        let pose_b = Iso3::from_parts(pose_a.rotation, pose_a.transform_point(t));
        let mut pair = Pair::new(&a, &pose_a, &b, &pose_b);
        let hit = penetration(&mut pair, &pose_a);
        assert!(hit.is_overlapping(), "{hit:?} {ha:?} {hb:?} {off:?}");
        assert!(
            (hit.depth.to_f64() - depth).abs() < tol,
            "depth {} vs {depth} ({:?})",
            hit.depth,
            hit.status
        );
        let mut n_local = [0.0; 3];
        n_local[best] = off[best].signum();
        let n_true = pose_a.rotation.mul_vec(Vec3::new(
            R::lit(n_local[0]),
            R::lit(n_local[1]),
            R::lit(n_local[2]),
        ));
        assert!(
            (hit.normal - n_true).norm().to_f64() < tol * 10.0,
            "normal {:?} vs {:?}",
            hit.normal,
            n_true
        );
    }
}
for_each_real!(box_box_along_axes, box_box_axes);

/// Closest distance between segments [p0, p1] and [q0, q1], by dense
/// sampling of one parameter and the exact clamp of the other (f64).
fn segment_distance(p0: Vec3<f64>, p1: Vec3<f64>, q0: Vec3<f64>, q1: Vec3<f64>) -> f64 {
    let dq = q1 - q0;
    let along = |x: Vec3<f64>| {
        let t = ((x - q0).dot(dq) / dq.norm_squared()).clamp(0.0, 1.0);
        (q0 + dq * t - x).norm()
    };
    mink_testkit::min_convex_on_unit_interval(|s| along(p0 + (p1 - p0) * s))
}

fn capsule_capsule<R: Real>() {
    let mut rng = Rng::new(14);
    let tol = exact_tol::<R>() * 10.0;
    let n = 3000;
    let mut overlaps = 0;
    for _ in 0..n {
        let (ra, la) = (rng.range_f64(0.1, 0.5), rng.range_f64(0.1, 1.0));
        let (rb, lb) = (rng.range_f64(0.1, 0.5), rng.range_f64(0.1, 1.0));
        let a = Capsule::new(R::lit(ra), R::lit(la)).unwrap();
        let b = Capsule::new(R::lit(rb), R::lit(lb)).unwrap();
        let pose_a: Iso3<R> = rng.pose(1.0);
        let pose_b: Iso3<R> =
            Iso3::from_parts(rng.rotation(), pose_a.translation + rng.in_cube(1.2));
        let ends = |p: &Iso3<R>, l: f64| {
            let e = p.rotation.col(2) * R::lit(l);
            (
                (p.translation - e).cast::<f64>(),
                (p.translation + e).cast::<f64>(),
            )
        };
        let (p0, p1) = ends(&pose_a, la);
        let (q0, q1) = ends(&pose_b, lb);
        let dist = segment_distance(p0, p1, q0, q1);
        let depth = ra + rb - dist;
        if depth.abs() < tol || dist < 1e-3 {
            continue; // touching, or cores crossing (no unique normal)
        }
        let hit = penetration(&mut Pair::new(&a, &pose_a, &b, &pose_b), &pose_a);
        assert_eq!(
            hit.is_overlapping(),
            depth > 0.0,
            "depth {depth}, {hit:?}, {pose_a:?} {pose_b:?} {ra} {la} {rb} {lb}"
        );
        if depth > 0.0 {
            overlaps += 1;
            assert_eq!(hit.status, MprStatus::Converged);
            assert!(
                (hit.depth.to_f64() - depth).abs() < tol,
                "depth {} vs {depth}",
                hit.depth
            );
        }
    }
    let rate = overlaps as f64 / n as f64;
    assert!((0.2..0.8).contains(&rate), "overlap rate {rate}");
}
for_each_real!(capsule_capsule_matches_segment_distance, capsule_capsule);
