//! Polytopes against brute force: when separated, the distance equals the
//! minimum over vertex–triangle and edge–edge pairs of the two triangulated
//! hulls; when overlapping, the depth equals the minimum overlap over all
//! SAT axes (face normals of both, cross products of edge pairs). Boxes and
//! random hulls (12 to 24 points), f32 and f64, Nesterov and plain GJK.

use crate::common::{box_poly, poly_distance, pose, sat_depth, Poly};
use mink_gjk::{gjk, penetration, EpaStatus, GjkCache, GjkSettings, GjkStatus, Variant};
use mink_support::{ConvexHull, Cuboid, Iso3, Pair, Real, Support, Vec3};
use mink_testkit::{for_each_real, Rng};

fn tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS > 30 {
        1e-7
    } else {
        2e-3
    }
}

/// Checks one pair against the brute-force references; returns whether it
/// overlaps.
fn check<R: Real, A: Support<R>, B: Support<R>>(
    a: &A,
    pa: &Iso3<R>,
    b: &B,
    pb: &Iso3<R>,
    qa: &Poly,
    qb: &Poly,
    what: &str,
) -> bool {
    let (depth_sat, axis) = sat_depth(qa, qb);
    let overlapping = depth_sat > 0.0;
    for variant in [Variant::Plain, Variant::Nesterov] {
        let mut pair = Pair::new(a, pa, b, pb);
        let settings = GjkSettings::default().with_variant(variant);
        let d = gjk(&mut pair, pa, &settings, &mut GjkCache::default());
        if !overlapping {
            let reference = poly_distance(qa, qb);
            assert_eq!(d.status, GjkStatus::Converged, "{what} {variant:?}");
            assert!(
                (d.distance.to_f64() - reference).abs() <= tol::<R>(),
                "{what} {variant:?}: distance {} vs brute force {reference}",
                d.distance
            );
        } else if depth_sat > tol::<R>() {
            assert_eq!(d.status, GjkStatus::Intersecting, "{what} {variant:?}");
        }
    }
    if overlapping {
        let mut pair = Pair::new(a, pa, b, pb);
        let p = penetration(&mut pair, pa);
        assert_eq!(p.status, EpaStatus::Converged, "{what}");
        assert!(
            (p.depth.to_f64() - depth_sat).abs() <= tol::<R>() * 10.0,
            "{what}: depth {} vs SAT {depth_sat} along {axis:?}",
            p.depth
        );
    }
    overlapping
}

fn boxes<R: Real>() {
    let mut rng = Rng::new(11);
    let mut hits = 0;
    let n = 1500;
    for i in 0..n {
        let h = |rng: &mut Rng| {
            Vec3::new(
                rng.range_f64(0.2, 1.5),
                rng.range_f64(0.2, 1.5),
                rng.range_f64(0.2, 1.5),
            )
        };
        let a = Cuboid::new(h(&mut rng).cast::<R>()).unwrap();
        let b = Cuboid::new(h(&mut rng).cast::<R>()).unwrap();
        let pa: Iso3<R> = pose(&mut rng, 2.0);
        let mut pb: Iso3<R> = pose(&mut rng, 0.0);
        pb.translation = pa.translation + (rng.unit_vec::<f64>() * rng.range_f64(0.3, 3.5)).cast();
        let (qa, qb) = (box_poly(&a, &pa), box_poly(&b, &pb));
        hits += check(&a, &pa, &b, &pb, &qa, &qb, &format!("boxes {i}")) as usize;
    }
    assert!((n / 5..n * 4 / 5).contains(&hits), "{hits} overlaps of {n}");
}
for_each_real!(boxes_brute_force, boxes);

fn hulls<R: Real>() {
    let mut rng = Rng::new(12);
    let mut hits = 0;
    let n = 400;
    for i in 0..n {
        let make = |rng: &mut Rng| {
            let k = 12 + rng.below(13);
            let radius = rng.range_f64(0.5, 1.5);
            let pts: Vec<Vec3<R>> = rng.points_in_ball(k, radius);
            ConvexHull::from_points(&pts).unwrap()
        };
        let (ha, hb) = (make(&mut rng), make(&mut rng));
        let pa: Iso3<R> = pose(&mut rng, 2.0);
        let mut pb: Iso3<R> = pose(&mut rng, 0.0);
        pb.translation = pa.translation + (rng.unit_vec::<f64>() * rng.range_f64(0.2, 2.5)).cast();
        let world = |h: &ConvexHull<R>, p: &Iso3<R>| {
            let p = p.cast::<f64>();
            Poly::from_points(
                h.view()
                    .vertices()
                    .iter()
                    .map(|v| p.transform_point(v.cast()))
                    .collect(),
            )
        };
        let (qa, qb) = (world(&ha, &pa), world(&hb, &pb));
        let (va, vb) = (ha.view(), hb.view());
        hits += check(&va, &pa, &vb, &pb, &qa, &qb, &format!("hulls {i}")) as usize;
    }
    assert!((n / 5..n * 4 / 5).contains(&hits), "{hits} overlaps of {n}");
}
for_each_real!(hulls_brute_force, hulls);
