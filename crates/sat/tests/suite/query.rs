//! The SAT query against a brute force over every axis, against itself
//! without culling, and against GJK's distance.

use crate::common;

use crate::common::{box_hull, brute_force, random_hull, tol, TestHull};
use mink_gjk::{distance, GjkStatus};
use mink_sat::{sat, Culling, SatFeature, SatStatus};
use mink_support::{Iso3, Pair, Real, Vec3};
use mink_testkit::{for_each_real, Rng};

/// Moves `pose_b` along GJK's normal so the hulls are `gap` apart (one
/// correction step; good to within GJK's tolerance for hulls).
fn slide_to_gap<R: Real>(
    a: &TestHull<R>,
    pose_a: &Iso3<R>,
    b: &TestHull<R>,
    pose_b: &mut Iso3<R>,
    gap: f64,
) -> bool {
    let (va, vb) = (a.hull.view(), b.hull.view());
    for _ in 0..4 {
        let mut pair = Pair::new(&va, pose_a, &vb, pose_b);
        let d = distance(&mut pair, pose_a);
        if d.status != GjkStatus::Converged {
            return false;
        }
        let step = R::lit(gap) - d.distance;
        pose_b.translation += d.normal * step;
        if step.abs() < R::lit(1e-3 * gap) {
            return true;
        }
    }
    true
}

fn max_separation_matches_brute_force<R: Real>() {
    let mut rng = Rng::new(0x5a7_0001);
    let (mut apart, mut total) = (0, 0);
    for case in 0..1200 {
        let n = [4, 6, 10, 16, 32][rng.below(5)];
        let a = random_hull::<R>(&mut rng, n);
        let n_b = [4, 8, 10, 32][rng.below(4)];
        let b = random_hull::<R>(&mut rng, n_b);
        let pose_a = rng.pose::<R>(2.0);
        let mut pose_b = rng.pose::<R>(2.0);
        match case % 3 {
            // Near touching, the benchmark's regime.
            0 => {
                pose_b.translation = pose_a.translation + rng.unit_vec::<R>() * R::lit(3.0);
                if !slide_to_gap(&a, &pose_a, &b, &mut pose_b, 0.01) {
                    continue;
                }
            }
            // Centres 0 to 2 m apart: overlapping and separated.
            1 => {
                let k = rng.range_f64(0.0, 2.0);
                pose_b.translation = pose_a.translation + rng.unit_vec::<R>() * R::lit(k);
            }
            // Anywhere in a small cube.
            _ => pose_b.translation = pose_a.translation + rng.in_cube::<R>(1.2),
        }
        let (sa, sb) = (a.sat(), b.sat());
        let brute = brute_force(&a.hull, &pose_a, &b.hull, &pose_b, tol::<R>() * 0.1);
        let expected = brute.minkowski_faces;
        // Overlapping, the plain brute force over every axis agrees;
        // apart, it is an upper bound.
        assert!(expected <= brute.all_axes + tol::<R>());
        if brute.all_axes < 0.0 {
            assert!(
                (expected - brute.all_axes).abs() <= tol::<R>(),
                "case {case}"
            );
        }
        let on = sat(&sa, &pose_a, &sb, &pose_b, Culling::On);
        let off = sat(&sa, &pose_a, &sb, &pose_b, Culling::Off);
        assert_eq!(on.status, SatStatus::Ok);
        for r in [&on, &off] {
            let got = r.best.separation.to_f64();
            assert!(
                (got - expected).abs() <= tol::<R>(),
                "case {case}: sat {got} brute {expected} ({:?})",
                r.best.feature
            );
            // The normal is unit and its separation is the real gap along it.
            assert!((r.best.normal.norm().to_f64() - 1.0).abs() < tol::<R>());
            let wa = common::world_vertices(&a.hull, &pose_a);
            let wb = common::world_vertices(&b.hull, &pose_b);
            let n = r.best.normal.cast::<f64>();
            let hi_a = wa.iter().map(|v| n.dot(*v)).fold(f64::MIN, f64::max);
            let lo_b = wb.iter().map(|v| n.dot(*v)).fold(f64::MAX, f64::min);
            assert!(
                ((lo_b - hi_a) - got).abs() <= tol::<R>() * 4.0,
                "case {case}: gap along normal {} vs {got}",
                lo_b - hi_a
            );
        }
        assert!(off.counters.faces_culled == 0 && off.counters.edge_pairs_culled == 0);
        total += 1;
        if expected > 0.0 {
            apart += 1;
        }
    }
    let share = apart as f64 / total as f64;
    assert!(total > 1100, "{total} usable cases");
    assert!((0.3..0.8).contains(&share), "separated share {share}");
}
for_each_real!(
    max_separation_matches_brute_force,
    max_separation_matches_brute_force
);

fn separation_below_gjk_distance<R: Real>() {
    let mut rng = Rng::new(0x5a7_0002);
    let mut checked = 0;
    for _ in 0..1500 {
        let n_a = [4, 10, 32][rng.below(3)];
        let a = random_hull::<R>(&mut rng, n_a);
        let n_b = [4, 10, 32][rng.below(3)];
        let b = random_hull::<R>(&mut rng, n_b);
        let pose_a = rng.pose::<R>(1.0);
        let mut pose_b = rng.pose::<R>(1.0);
        pose_b.translation =
            pose_a.translation + rng.unit_vec::<R>() * R::lit(rng.range_f64(1.0, 4.0));
        let r = sat(&a.sat(), &pose_a, &b.sat(), &pose_b, Culling::On);
        if r.best.separation <= R::ZERO {
            continue;
        }
        let (va, vb) = (a.hull.view(), b.hull.view());
        let d = distance(&mut Pair::new(&va, &pose_a, &vb, &pose_b), &pose_a);
        assert_eq!(d.status, GjkStatus::Converged);
        let (s, g) = (r.best.separation.to_f64(), d.distance.to_f64());
        assert!(s <= g + tol::<R>() * 10.0, "sat {s} > gjk {g}");
        checked += 1;
    }
    assert!(checked > 700, "{checked} separated cases");
}
for_each_real!(separation_below_gjk_distance, separation_below_gjk_distance);

/// B's lowest vertex placed `h` above the centroid of a face of A: the
/// distance is exactly `h` (all of A is below the face plane and the foot
/// is inside the face), and SAT must find it on that face.
fn face_contact_equals_gjk<R: Real>() {
    let mut rng = Rng::new(0x5a7_0003);
    for case in 0..1000 {
        let n_a = [6, 10, 32][rng.below(3)];
        let a = random_hull::<R>(&mut rng, n_a);
        let n_b = [4, 10, 32][rng.below(3)];
        let b = random_hull::<R>(&mut rng, n_b);
        let va = a.hull.view();
        let f = rng.below(va.face_count());
        let plane = va.planes()[f];
        let lp = va.face(f);
        let mut foot = Vec3::ZERO;
        for &i in lp {
            foot += va.vertices()[i as usize];
        }
        foot = foot / R::lit(lp.len() as f64);
        let h = R::lit(rng.range_f64(0.001, 0.5));
        let pose_a = rng.pose::<R>(1.0);
        let rot_b = rng.rotation::<R>();
        // B's vertex lowest along -n (world), then B translated to put it at
        // foot + h n.
        let n_world = pose_a.rotation.mul_vec(plane.normal);
        let local_dir = rot_b.transpose_mul(n_world);
        let low = b
            .hull
            .view()
            .vertices()
            .iter()
            .copied()
            .min_by(|p, q| local_dir.dot(*p).partial_cmp(&local_dir.dot(*q)).unwrap())
            .unwrap();
        let target = pose_a.transform_point(foot) + n_world * h;
        let pose_b = Iso3::from_parts(rot_b, target - rot_b.mul_vec(low));
        let r = sat(&a.sat(), &pose_a, &b.sat(), &pose_b, Culling::On);
        let d = distance(
            &mut Pair::new(&va, &pose_a, &b.hull.view(), &pose_b),
            &pose_a,
        );
        let (s, g) = (r.best.separation.to_f64(), d.distance.to_f64());
        assert!(
            (s - h.to_f64()).abs() <= tol::<R>() * 10.0,
            "case {case}: sat {s}, h {h}"
        );
        assert!(
            (g - s).abs() <= tol::<R>() * 10.0,
            "case {case}: gjk {g} sat {s}"
        );
    }
}
for_each_real!(face_contact_equals_gjk, face_contact_equals_gjk);

/// Box3D's measurement regime: 32-point hulls slid to about 1 cm. The
/// culling must skip most face tests and nearly all edge pairs.
fn culling_rates_near_touching<R: Real>() {
    let mut rng = Rng::new(0x5a7_0004);
    let (mut faces, mut pairs, mut count) = (0.0, 0.0, 0);
    for _ in 0..300 {
        let a = TestHull::from_points(&rng.points_on_sphere::<R>(32, 1.0));
        let b = TestHull::from_points(&rng.points_on_sphere::<R>(32, 1.0));
        let pose_a = rng.pose::<R>(1.0);
        let mut pose_b = rng.pose::<R>(1.0);
        pose_b.translation = pose_a.translation + rng.unit_vec::<R>() * R::lit(3.0);
        if !slide_to_gap(&a, &pose_a, &b, &mut pose_b, 0.01) {
            continue;
        }
        let r = sat(&a.sat(), &pose_a, &b.sat(), &pose_b, Culling::On);
        faces += r.counters.face_cull_ratio();
        pairs += r.counters.edge_pair_cull_ratio();
        count += 1;
    }
    let (faces, pairs) = (faces / count as f64, pairs / count as f64);
    std::println!("near-touching 32-point hulls: {faces:.3} faces, {pairs:.3} edge pairs culled");
    assert!(count > 280);
    assert!(faces >= 0.8, "face cull ratio {faces}");
    assert!(pairs >= 0.95, "edge-pair cull ratio {pairs}");
}
for_each_real!(culling_rates_near_touching, culling_rates_near_touching);

fn boxes_face_and_edge_features<R: Real>() {
    let cube = box_hull::<R>(Vec3::splat(R::HALF));
    let s = cube.sat();
    // Stacked: face contact, 0.1 m apart.
    let up = Iso3::from_translation(Vec3::new(R::lit(0.2), R::ZERO, R::lit(1.1)));
    let r = sat(&s, &Iso3::IDENTITY, &s, &up, Culling::On);
    assert!((r.best.separation - R::lit(0.1)).abs() < R::lit(tol::<R>()));
    assert!((r.best.normal - Vec3::Z).norm() < R::lit(tol::<R>()));
    // Crossed edges: B rotated 45° about x and z... about z then x so an
    // edge of B crosses the top edge of A.
    let rot =
        mink_support::Mat3::from_axis_angle(Vec3::X, R::lit(core::f64::consts::FRAC_PI_4)).mul_mat(
            &mink_support::Mat3::from_axis_angle(Vec3::Z, R::lit(core::f64::consts::FRAC_PI_4)),
        );
    let gap = 0.05;
    let h = 0.5 * 2f64.sqrt();
    // A's top edge along x at (y, z) = (0.5, 0.5), rotated: diagonal height.
    let rot_a = mink_support::Mat3::from_axis_angle(Vec3::X, R::lit(core::f64::consts::FRAC_PI_4));
    let pose_a = Iso3::from_parts(rot_a, Vec3::ZERO);
    let pose_b = Iso3::from_parts(
        mink_support::Mat3::from_axis_angle(Vec3::Y, R::lit(core::f64::consts::FRAC_PI_4)),
        Vec3::new(R::ZERO, R::ZERO, R::lit(2.0 * h + gap)),
    );
    let _ = rot;
    let r = sat(&s, &pose_a, &s, &pose_b, Culling::On);
    assert!(
        matches!(r.best.feature, SatFeature::EdgePair(_, _)),
        "{:?}",
        r.best.feature
    );
    assert!((r.best.separation.to_f64() - gap).abs() < tol::<R>() * 10.0);
    assert!((r.best.normal - Vec3::Z).norm().to_f64() < tol::<R>() * 10.0);
}
for_each_real!(boxes_face_and_edge_features, boxes_face_and_edge_features);

#[test]
fn non_finite_pose_is_reported() {
    let cube = box_hull::<f64>(Vec3::splat(0.5));
    let s = cube.sat();
    let bad = Iso3::from_translation(Vec3::new(f64::NAN, 0.0, 0.0));
    let r = sat(&s, &Iso3::IDENTITY, &s, &bad, Culling::On);
    assert_eq!(r.status, SatStatus::NonFinite);
    assert!(r.best.separation.is_finite() && r.best.normal.is_finite());
}
