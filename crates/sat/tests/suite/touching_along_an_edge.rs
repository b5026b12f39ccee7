//! Two hulls touching along a shared edge (issue 32, found by the
//! `sat_manifold` fuzz target): A (7 vertices) and B (a tetrahedron) share
//! the vertex (-1, -1, -1) and run along the diagonal from it, B's edge
//! 2.7 m long and A's 0.8 m, B turned 3.3 mrad from A about their frames'
//! common origin. SAT's axis is a face of A whose plane holds B's diagonal
//! edge; the hulls overlap by round-off, no face gives a clipped point,
//! and the last resort took B's deepest vertex, the far end of its edge,
//! whose foot on A's plane lies 1.2 m outside A. Among the vertices within
//! round-off of the deepest, the one over the reference face is now taken.
//! The pair at the fuzz input's poses, then moved rigidly as a whole
//! (1,000 motions, three margins), f32 and f64; before the fix f32 failed
//! at the input's own poses and f64 after 30 motions. References: the
//! hulls' own face planes (the fuzzing harness's `check_pair`, whose
//! verdict oracle is GJK).

use crate::common::TestHull;
use mink_sat::fuzz::check_pair;
use mink_support::{Iso3, Mat3, Real, Vec3};
use mink_testkit::{for_each_real, Rng};

const A: [[f64; 3]; 7] = [
    [0.7224079, -0.98843366, -1.0],
    [0.5981689, -0.7371786, 0.66506445],
    [-0.8606851, -0.99389637, -1.0],
    [-1.0, -1.0, -1.0],
    [-1.0, -1.0, -0.54509807],
    [-0.54509807, -0.54509807, -0.54509807],
    [-1.0, -0.9999695, -0.9531243],
];

const B: [[f64; 3]; 4] = [
    [-1.0, 0.5686275, 0.5686275],
    [0.5686275, 0.5686275, 0.5686275],
    [-0.99389637, -0.9218738, -1.0],
    [-1.0, -1.0, -1.0],
];

fn hull<R: Real>(points: &[[f64; 3]]) -> TestHull<R> {
    let pts: Vec<Vec3<R>> = points.iter().map(|&p| Vec3::from_array(p).cast()).collect();
    TestHull::from_points(&pts)
}

/// The fuzz input's poses: both at (-3, -3, -3), A's rotation a cyclic
/// permutation of the axes, B's the same turned by 3.3 mrad.
fn fuzz_poses() -> (Iso3<f64>, Iso3<f64>) {
    let t = Vec3::splat(-3.0);
    let a = Mat3::from_cols(
        Vec3::new(-1.5258789e-5, 1.0, 1.5258789e-5),
        Vec3::new(1.5258789e-5, -1.5258789e-5, 1.0),
        Vec3::new(1.0, 1.5258789e-5, -1.5258789e-5),
    );
    let b = Mat3::from_cols(
        Vec3::new(-0.0023194551, 0.99999475, 0.0023247302),
        Vec3::new(0.0023247302, -0.0023194551, 0.99999475),
        Vec3::new(0.99999475, 0.0023247302, -0.0023194551),
    );
    (Iso3::from_parts(a, t), Iso3::from_parts(b, t))
}

fn shared_edge<R: Real>() {
    let (a, b) = (hull::<R>(&A), hull::<R>(&B));
    let (sa, sb) = (a.sat(), b.sat());
    let (fa, fb) = fuzz_poses();
    let mut rng = Rng::new(0x5a7_ed9e);
    for case in 0..1000 {
        // The pair as the fuzz input had it, then moved rigidly as a whole
        // (the relative pose kept, up to rounding).
        let motion = if case == 0 {
            Iso3::IDENTITY
        } else {
            rng.pose::<f64>(3.0)
        };
        let (pa, pb): (Iso3<R>, Iso3<R>) = (motion.mul(&fa).cast(), motion.mul(&fb).cast());
        let margin = R::lit([0.0, 0.01, 0.1][case % 3]);
        check_pair(&sa, &pa, &sb, &pb, margin)
            .unwrap_or_else(|v| panic!("case {case}: {v}: {pa:?} {pb:?} margin {margin}"));
    }
}
for_each_real!(shared_edge, shared_edge);
