//! A face contact whose incident face is one of two nearly coplanar faces
//! (issue 32, found by the `sat_manifold` fuzz target): hull A's top is
//! split into two triangles 1e-4 rad apart, hull B is a thin wedge whose
//! reference face lies over the one of them that is *not* the most
//! anti-parallel. Clipping only that face gave no point, and the last
//! resort put one point at A's deepest vertex with its foot on B's plane
//! but 0.17 m outside B. The manifold must keep every contact's points on
//! both surfaces and keep the deepest point, at any common pose of the
//! pair, in both scalars. References: the hulls' own face planes (the
//! fuzzing harness's `check_pair`, whose verdict oracle is GJK) and the
//! SAT separation, which the points' depths must reach.

use crate::common::TestHull;
use mink_sat::fuzz::check_pair;
use mink_sat::{manifold, SatFeature};
use mink_support::{Iso3, Real, Vec3};
use mink_testkit::{for_each_real, Rng};

/// A of 9 vertices about 2 m across; its faces through (0.52, 0.098,
/// 0.098), (0.246, 0.098, 0.098) and (-0.152, 0.098, 0.098) are the split
/// top.
const A: [[f64; 3]; 9] = [
    [0.77376974, -0.02027924, 0.8254673],
    [0.52239263, 0.0980087, 0.09803922],
    [0.24647897, 0.09803922, 0.09803922],
    [-0.1519646, 0.09803922, 0.09803922],
    [-0.9957275, -1.0, -1.0],
    [-1.0, -1.0, -1.0],
    [-1.0, -1.0, 0.9921874],
    [-0.9804074, -1.0, -1.0],
    [-1.0, 0.016769664, 0.019607844],
];

/// B, a wedge 0.078 m thick whose face on `y = 0.0196` lies over A's top.
const B: [[f64; 3]; 5] = [
    [0.05085832, 0.019607844, 0.019607844],
    [0.019607844, 0.019607844, 1.0],
    [-0.7500267, 0.019607844, 0.019607844],
    [0.09803922, 0.09803922, 0.09803922],
    [0.09895476, 0.09803922, 0.09803922],
];

fn hull<R: Real>(points: &[[f64; 3]]) -> TestHull<R> {
    let pts: Vec<Vec3<R>> = points.iter().map(|&p| Vec3::from_array(p).cast()).collect();
    TestHull::from_points(&pts)
}

fn split_top_face<R: Real>() {
    let (a, b) = (hull::<R>(&A), hull::<R>(&B));
    let (sa, sb) = (a.sat(), b.sat());
    let tol = if R::MANTISSA_BITS > 30 { 1e-9 } else { 2e-5 };
    let mut rng = Rng::new(0x5a7_c0f1);
    for case in 0..400 {
        // The pair at one common pose (the fuzz input had both at a
        // quarter turn about (1, 1, 1)); the margin up to 0.1 m.
        let pose: Iso3<R> = if case == 0 {
            Iso3::IDENTITY
        } else {
            rng.pose::<R>(3.0)
        };
        let margin = R::lit(rng.range_f64(0.0, 0.1));
        let what = format!("case {case}, pose {pose:?}, margin {margin}");
        check_pair(&sa, &pose, &sb, &pose, margin).unwrap_or_else(|v| panic!("{what}: {v}"));
        let m = manifold(&sa, &pose, &sb, &pose, margin);
        assert!(
            matches!(m.feature, SatFeature::FaceB(_) | SatFeature::FaceA(_)),
            "{what}: {m:?}"
        );
        let deepest = m
            .points
            .iter()
            .map(|c| c.separation.to_f64())
            .fold(f64::INFINITY, f64::min);
        // B's whole thickness: the hulls overlap by 0.0784 m.
        assert!(
            (m.separation.to_f64() + 0.078431).abs() < 1e-4,
            "{what}: {m:?}"
        );
        assert!(
            (deepest - m.separation.to_f64()).abs() <= tol,
            "{what}: deepest point {deepest} of {m:?}"
        );
    }
}
for_each_real!(split_top_face, split_top_face);
