//! The feature cache over slowly moving pairs, against the uncached query
//! and a brute-force gap along the cached axis.

use crate::common;

use crate::common::{random_hull, tol, world_vertices};
use mink_sat::{
    manifold, manifold_cached, sat, sat_cached, CachedSat, Culling, SatCache, SatStatus,
};
use mink_support::{Iso3, Mat3, Real, Vec3};
use mink_testkit::{for_each_real, Rng};

fn cache_agrees_with_full_sat<R: Real>() {
    let mut rng = Rng::new(0x5a7_3001);
    let margin = 0.02;
    let (mut apart, mut frames) = (0, 0);
    for _ in 0..60 {
        let na = [8, 10, 32][rng.below(3)];
        let nb = [8, 10, 32][rng.below(3)];
        let a = random_hull::<R>(&mut rng, na);
        let b = random_hull::<R>(&mut rng, nb);
        let (sa, sb) = (a.sat(), b.sat());
        let pose_a = rng.pose::<R>(1.0);
        let dir = rng.unit_vec::<R>();
        let mut pose_b = rng.pose::<R>(1.0);
        pose_b.translation = pose_a.translation + dir * R::lit(2.0);
        let spin = Mat3::from_axis_angle(rng.unit_vec::<R>(), R::lit(0.01));
        let (mut cache, mut mcache) = (SatCache::default(), SatCache::default());
        // B approaches A, passes into it and comes back out.
        for frame in 0..120 {
            let step = if frame < 60 { -0.015 } else { 0.015 };
            pose_b.translation += dir * R::lit(step);
            pose_b.rotation = spin.mul_mat(&pose_b.rotation);
            let full = sat(&sa, &pose_a, &sb, &pose_b, Culling::On);
            match sat_cached(&sa, &pose_a, &sb, &pose_b, R::lit(margin), &mut cache) {
                CachedSat::Apart(axis) => {
                    apart += 1;
                    assert!(axis.separation.to_f64() > margin);
                    // The gap along the returned axis, by brute force.
                    let n = axis.normal.cast::<f64>();
                    let hi_a = world_vertices(&a.hull, &pose_a)
                        .iter()
                        .map(|v| n.dot(*v))
                        .fold(f64::MIN, f64::max);
                    let lo_b = world_vertices(&b.hull, &pose_b)
                        .iter()
                        .map(|v| n.dot(*v))
                        .fold(f64::MAX, f64::min);
                    assert!(((lo_b - hi_a) - axis.separation.to_f64()).abs() < tol::<R>() * 10.0);
                    assert!(full.best.separation.to_f64() >= axis.separation.to_f64() - tol::<R>());
                }
                CachedSat::Full(r) => {
                    assert_eq!(r.status, SatStatus::Ok);
                    assert_eq!(r.best.separation, full.best.separation);
                    assert_eq!(cache.feature, Some(full.best.feature));
                }
            }
            let m = manifold(&sa, &pose_a, &sb, &pose_b, R::lit(margin));
            let mc = manifold_cached(&sa, &pose_a, &sb, &pose_b, R::lit(margin), &mut mcache);
            if mc.separation.to_f64() > margin {
                assert!(mc.points.is_empty() && m.points.is_empty());
            } else {
                assert_eq!(m.points, mc.points);
            }
            frames += 1;
        }
    }
    let share = apart as f64 / frames as f64;
    assert!((0.2..0.8).contains(&share), "cache hit share {share}");
}
for_each_real!(cache_agrees_with_full_sat, cache_agrees_with_full_sat);

#[test]
fn non_finite_margin_is_reported() {
    let h = common::box_hull::<f64>(Vec3::splat(0.5));
    let s = h.sat();
    let mut cache = SatCache::default();
    let pose = Iso3::from_translation(Vec3::new(0.0, 0.0, 2.0));
    match sat_cached(&s, &Iso3::IDENTITY, &s, &pose, f64::NAN, &mut cache) {
        CachedSat::Full(r) => assert_eq!(r.status, SatStatus::NonFinite),
        CachedSat::Apart(_) => panic!("NaN margin accepted"),
    }
    assert_eq!(cache, SatCache::default());
}
