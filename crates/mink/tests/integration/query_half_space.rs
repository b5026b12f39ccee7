//! Half-space pairs: checked against the brute-force minimum over a box's
//! corners and against a sphere's closed form, both orders.

use mink::query::{distance, intersect, penetration, Algorithm, Body, Method, Status};
use mink::support::{Cuboid, HalfSpace, Iso3, Real, Sphere, Vec3};
use mink::Shape;
use mink_testkit::{for_each_real, Rng};

const CASES: usize = 2000;

fn half_space_matches_brute_force<R: Real>() {
    let mut rng = Rng::new(0x11);
    let tol = R::EPSILON * R::lit(256.0);
    let mut below = 0;
    for i in 0..CASES {
        let n: Vec3<R> = rng.unit_vec();
        let offset: R = rng.range(-0.5, 0.5);
        let plane = HalfSpace::new(n, offset).unwrap();
        let plane_pose: Iso3<R> = rng.pose(0.5);
        let world_plane = plane.transformed(&plane_pose).unwrap();
        let margin_plane: R = rng.range(0.0, 0.1);
        let margin_shape: R = rng.range(0.0, 0.1);
        let pose: Iso3<R> = rng.pose(1.0);
        let (shape, reference): (Shape<'_, R>, R) = if i % 2 == 0 {
            let half = Vec3::new(
                rng.range(0.1, 0.5),
                rng.range(0.1, 0.5),
                rng.range(0.1, 0.5),
            );
            let cuboid = Cuboid::new(half).unwrap();
            let lowest = cuboid
                .corners()
                .iter()
                .map(|c| world_plane.signed_distance(pose.transform_point(*c)))
                .fold(R::INFINITY, |m, d| m.min_of(d));
            (cuboid.into(), lowest)
        } else {
            let r: R = rng.range(0.1, 0.5);
            let centre = world_plane.signed_distance(pose.translation);
            (Sphere::new(r).unwrap().into(), centre - r)
        };
        let reference = reference - margin_plane - margin_shape;
        let plane_shape: Shape<'_, R> = plane.into();
        let a = Body::new(&plane_shape, plane_pose).with_margin(margin_plane);
        let b = Body::new(&shape, pose).with_margin(margin_shape);
        for method in [Method::Auto, Method::Gjk, Method::Mpr] {
            let ab = distance(&a, &b, method);
            let ba = penetration(&b, &a, method);
            assert_eq!(ab.algorithm, Algorithm::Analytic);
            assert_eq!(ab.status, Status::Exact);
            assert!(
                (ab.distance - reference).abs() < tol,
                "{} vs {reference}",
                ab.distance
            );
            assert!((ab.normal - world_plane.normal()).norm() < tol);
            let gap = ab.p_b - ab.p_a - ab.normal * ab.distance;
            assert!(gap.norm() < tol);
            // p_a lies on the inflated plane.
            assert!((world_plane.signed_distance(ab.p_a) - margin_plane).abs() < tol);
            // Mirrored: same distance, flipped normal, witnesses exchanged.
            assert!((ba.distance - ab.distance).abs() < tol);
            assert!((ba.normal + ab.normal).norm() < tol);
            assert!((ba.p_a - ab.p_b).norm() < tol);
            assert_eq!(intersect(&a, &b, method).intersecting, reference <= R::ZERO);
        }
        if reference < R::ZERO {
            below += 1;
        }
    }
    let rate = below as f64 / CASES as f64;
    assert!((0.2..0.8).contains(&rate), "overlap rate {rate}");
}

for_each_real!(half_space_pairs, half_space_matches_brute_force);

fn two_half_spaces_are_unsupported<R: Real>() {
    let p: Shape<'_, R> = HalfSpace::new(Vec3::Z, R::ZERO).unwrap().into();
    let a = Body::new(&p, Iso3::IDENTITY);
    let d = distance(&a, &a, Method::Auto);
    assert_eq!(d.status, Status::Unsupported);
    assert!(!d.status.is_answer());
    assert_eq!(intersect(&a, &a, Method::Auto).status, Status::Unsupported);
    assert_eq!(p.name(), "plane");
}

for_each_real!(two_half_spaces, two_half_spaces_are_unsupported);
