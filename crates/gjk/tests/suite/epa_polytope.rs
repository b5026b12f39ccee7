//! EPA's polytope on a curved difference, at capacities from the default
//! down to 8 vertices: two balls given as ellipsoids with equal radii (full
//! shapes, no inflation, so EPA does all the work), from barely touching to
//! nearly concentric. The depth is `ra + rb - |c|` exactly. The polytope is
//! inside the difference, so a run stopped by its capacity still returns a
//! lower bound; and every support point lies on the difference's sphere, so
//! the polytope stays a closed triangulated sphere with `2V - 4` faces
//! whatever faces the expansions replaced.

use mink_gjk::{penetration_with, EpaStatus, GjkCache, GjkSettings, Polytope};
use mink_support::{Ellipsoid, Iso3, Pair, Real, Vec3};
use mink_testkit::{for_each_real, Rng};

/// Absolute depth tolerance for balls of radius about 1 (meters): EPA's
/// relative tolerance times the size, with margin.
fn tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS > 30 {
        1e-6
    } else {
        2e-3
    }
}

/// Runs one pair in `poly`; checks the answer against the exact depth and
/// the polytope's face count; returns the status.
fn check<R: Real, const V: usize, const F: usize>(
    a: &Ellipsoid<R>,
    pa: &Iso3<R>,
    b: &Ellipsoid<R>,
    pb: &Iso3<R>,
    exact: f64,
    dir: Vec3<f64>,
    poly: &mut Polytope<R, V, F>,
) -> EpaStatus {
    let mut pair = Pair::new(a, pa, b, pb);
    let p = penetration_with(
        &mut pair,
        pa,
        &GjkSettings::default(),
        &mut GjkCache::default(),
        poly,
    );
    let depth = p.depth.to_f64();
    let what = format!("V = {V}, exact depth {exact}: {p:?}");
    assert!(poly.vertex_count() <= V && poly.face_count() <= F, "{what}");
    match p.status {
        EpaStatus::Converged => {
            assert!((depth - exact).abs() <= tol::<R>(), "{what}");
            let along = p.normal.cast::<f64>().dot(dir);
            assert!(1.0 - along <= tol::<R>(), "normal off by {along}: {what}");
        }
        EpaStatus::CapacityReached => {
            // The closest face of a polytope inside the difference.
            assert!(depth <= exact + tol::<R>() && depth >= 0.0, "{what}");
        }
        _ => panic!("unexpected status: {what}"),
    }
    if poly.vertex_count() >= 4 {
        assert_eq!(
            poly.face_count(),
            2 * poly.vertex_count() - 4,
            "not a closed triangulated sphere: {what}"
        );
    }
    p.status
}

fn balls<R: Real>() {
    let mut rng = Rng::new(17);
    let mut big: Polytope<R> = Polytope::new();
    let mut mid: Polytope<R, 32, 60> = Polytope::new();
    let mut tiny: Polytope<R, 8, 12> = Polytope::new();
    let (mut converged, mut capped_tiny) = (0, 0);
    let cases = 400;
    for _ in 0..cases {
        let (ra, rb) = (rng.range_f64(0.2, 1.5), rng.range_f64(0.2, 1.5));
        let dir: Vec3<f64> = rng.unit_vec();
        let gap = (ra + rb) * rng.range_f64(0.02, 0.98);
        let a = Ellipsoid::new(Vec3::splat(R::lit(ra))).unwrap();
        let b = Ellipsoid::new(Vec3::splat(R::lit(rb))).unwrap();
        let pa: Iso3<R> = rng.pose(1.0);
        let mut pb: Iso3<R> = rng.pose(0.0);
        pb.translation = pa.translation + (dir * gap).cast();
        // The direction and depth of the rounded poses.
        let c = (pb.translation - pa.translation).cast::<f64>();
        let (dir, exact) = (c / c.norm(), ra + rb - c.norm());
        if check(&a, &pa, &b, &pb, exact, dir, &mut big) == EpaStatus::Converged {
            converged += 1;
        }
        check(&a, &pa, &b, &pb, exact, dir, &mut mid);
        if check(&a, &pa, &b, &pb, exact, dir, &mut tiny) == EpaStatus::CapacityReached {
            capped_tiny += 1;
        }
    }
    assert!(
        converged * 10 >= cases * 9,
        "{converged} of {cases} converged"
    );
    assert!(
        capped_tiny * 10 >= cases * 9,
        "{capped_tiny} of {cases} capped"
    );
}
for_each_real!(balls_at_every_capacity, balls);
