//! Against mink-gjk's GJK+EPA (an independent algorithm) on every shape
//! pair kind, f32 and f64: the same verdict away from touching; a converged
//! MPR answer has EPA's depth; an unverified one brackets it.

use mink_mpr::{intersect, penetration, MprStatus};
use mink_support::{
    Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Iso3, Pair, Real, Rounded, Sphere, Support, Vec3,
};
use mink_testkit::{for_each_real, Rng};

fn compare<R: Real, A: Support<R>, B: Support<R>>(
    name: &str,
    a: &A,
    b: &B,
    rng: &mut Rng,
    n: usize,
) -> (usize, usize, usize) {
    // Depth tolerance (meters, shapes of about 1 m): EPA on curved surfaces
    // stops at its own tolerance, so this is looser than rounding.
    let tol = if R::MANTISSA_BITS < 30 { 2e-3 } else { 1e-4 };
    let (mut overlaps, mut converged, mut shallow_converged) = (0, 0, 0);
    for _ in 0..n {
        let pose_a: Iso3<R> = rng.pose(1.0);
        let pose_b = Iso3::from_parts(rng.rotation(), pose_a.translation + rng.in_cube(0.9));
        let ours = penetration(&mut Pair::new(a, &pose_a, b, &pose_b), &pose_a);
        let boolean = intersect(&mut Pair::new(a, &pose_a, b, &pose_b));
        let epa = mink_gjk::penetration(&mut Pair::new(a, &pose_a, b, &pose_b), &pose_a);
        let d = epa.depth.to_f64();
        if d.abs() < tol {
            continue; // touching: either verdict is right
        }
        assert_eq!(
            ours.is_overlapping(),
            d > 0.0,
            "{name}: EPA {epa:?}, MPR {ours:?}"
        );
        assert_eq!(
            boolean.overlapping,
            d > 0.0,
            "{name}: EPA {epa:?}, intersect {boolean:?}"
        );
        if d <= 0.0 || epa.status != mink_gjk::EpaStatus::Converged {
            continue;
        }
        overlaps += 1;
        let ours_d = ours.depth.to_f64();
        assert!(ours_d >= d - tol, "{name}: MPR {ours_d} below EPA {d}");
        assert!(
            ours.depth_lower_bound.to_f64() <= d + tol,
            "{name}: lower bound {} above EPA {d}",
            ours.depth_lower_bound
        );
        if ours.status == MprStatus::Converged {
            converged += 1;
            assert!(
                (ours_d - d).abs() < tol,
                "{name}: MPR {ours:?} vs EPA {epa:?}"
            );
            if d < 0.1 {
                shallow_converged += 1;
            }
        }
    }
    (overlaps, converged, shallow_converged)
}

fn all_pairs<R: Real>() {
    let mut rng = Rng::new(31);
    let v = |x: f64, y: f64, z: f64| Vec3::new(R::lit(x), R::lit(y), R::lit(z));
    let cube = Cuboid::new(v(0.5, 0.3, 0.4)).unwrap();
    let ball = Sphere::new(R::lit(0.4)).unwrap();
    let cap = Capsule::new(R::lit(0.2), R::lit(0.4)).unwrap();
    let cyl = Cylinder::new(R::lit(0.3), R::lit(0.4)).unwrap();
    let cone = Cone::new(R::lit(0.4), R::lit(0.4)).unwrap();
    let ell = Ellipsoid::new(v(0.5, 0.3, 0.25)).unwrap();
    let rounded = Rounded::new(cube, R::lit(0.1)).unwrap();
    let mut total = (0, 0);
    let mut add = |(o, c, _): (usize, usize, usize)| {
        total.0 += o;
        total.1 += c;
    };
    add(compare("box-box", &cube, &cube, &mut rng, 500));
    add(compare("sphere-box", &ball, &cube, &mut rng, 500));
    add(compare("capsule-capsule", &cap, &cap, &mut rng, 500));
    add(compare("cylinder-cylinder", &cyl, &cyl, &mut rng, 500));
    add(compare("cone-box", &cone, &cube, &mut rng, 500));
    add(compare("ellipsoid-cylinder", &ell, &cyl, &mut rng, 500));
    add(compare("rounded-capsule", &rounded, &cap, &mut rng, 500));
    // The comparison means something only if enough cases overlap and
    // enough answers are certified.
    assert!(total.0 > 1000, "only {} overlaps", total.0);
    assert!(
        total.1 * 4 > total.0,
        "only {} of {} converged",
        total.1,
        total.0
    );
}
for_each_real!(agrees_with_gjk_epa, all_pairs);
