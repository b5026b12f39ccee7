//! The half-space's analytic path against brute force: for every shape at
//! random poses, `deepest_point` finds the minimum of `n·x - d` over dense
//! samples of the whole shape, returns a point of the shape on that level,
//! and the half-space's own outward normal; in f32 and f64.

use crate::support_common;

use crate::support_common::{fp_tol, max_dot, Reference, Visitor, V};
use mink_support::{HalfSpace, Iso3, Real, Support, Vec3};
use mink_testkit::{for_each_real, Rng};

/// Random (half-space, pose) trials per shape instance.
const TRIALS: usize = 150;

struct DeepestCheck {
    rng: Rng,
    trials: usize,
    touching: usize,
}

impl<R: Real> Visitor<R> for DeepestCheck {
    fn visit<S: Support<R>>(&mut self, shape: &S, r: &Reference) {
        let name = &r.name;
        for _ in 0..TRIALS {
            let n: Vec3<R> = self.rng.unit_vec::<R>() * self.rng.range(0.5, 2.0);
            let hs = HalfSpace::new(n, self.rng.range(-3.0, 1.0)).unwrap();
            let pose: Iso3<R> = self.rng.pose(2.0);
            let tol = fp_tol::<R>(r.size + 6.0);
            let c = hs.deepest_point(shape, &pose).expect("finite pose");
            let (n64, d64): (V, f64) = (hs.normal().cast(), hs.offset().to_f64());
            let pose64: Iso3<f64> = pose.cast();
            // Brute force: min over the whole shape of n·x - d, as the core
            // samples' minimum plus the ball's.
            let local_n = pose64.inverse_transform_vector(n64);
            let min_core = -max_dot(&r.core, -local_n) + n64.dot(pose64.translation);
            let min_ball = -max_dot(&r.ball, -local_n);
            let brute = min_core + min_ball - d64;
            let got = c.distance.to_f64();
            assert!(
                got <= brute + tol,
                "{name}: distance {got} above brute force {brute}"
            );
            assert!(
                got >= brute - r.spacing() - tol,
                "{name}: distance {got} below brute force {brute}"
            );
            // The point is on the shape and at that distance.
            let p = c.point.cast::<f64>();
            let out = (r.outside)(pose64.inverse_transform_point(p));
            assert!(
                out <= tol,
                "{name}: deepest point {p:?} outside the shape by {out}"
            );
            assert!(
                (n64.dot(p) - d64 - got).abs() <= tol,
                "{name}: distance vs point"
            );
            assert_eq!(c.normal, hs.normal());
            assert_eq!(c.depth(), -c.distance);
            let on_plane = hs.signed_distance(c.point_on_plane()).to_f64();
            assert!(
                on_plane.abs() <= tol,
                "{name}: point_on_plane off by {on_plane}"
            );
            self.trials += 1;
            if got <= 0.0 {
                self.touching += 1;
            }
        }
        // A non-finite pose is refused, never NaN.
        let mut bad: Iso3<R> = self.rng.pose(1.0);
        bad.translation.y = R::nan();
        let hs = HalfSpace::new(Vec3::Z, R::ZERO).unwrap();
        assert_eq!(hs.deepest_point(shape, &bad), None);
        bad.translation.y = R::ZERO;
        bad.rotation.x_axis.z = R::INFINITY;
        assert_eq!(hs.deepest_point(shape, &bad), None);
    }
}

fn deepest_point_matches_brute_force<R: Real>() {
    let mut check = DeepestCheck {
        rng: Rng::new(0x4A1F_0001),
        trials: 0,
        touching: 0,
    };
    support_common::for_each_shape::<R, _>(&mut Rng::new(0x4A1F_0002), &mut check);
    // Offsets and poses are drawn so that both outcomes are common.
    let rate = check.touching as f64 / check.trials as f64;
    assert!(
        (0.3..0.7).contains(&rate),
        "penetrating in {rate} of trials"
    );
}
for_each_real!(
    deepest_point_matches_brute_force,
    deepest_point_matches_brute_force
);

fn signed_distance_and_transform<R: Real>() {
    let mut rng = Rng::new(0x4A1F_0003);
    for _ in 0..2000 {
        let n: Vec3<R> = rng.unit_vec::<R>() * rng.range(0.1, 10.0);
        let d: R = rng.range(-3.0, 3.0);
        let hs = HalfSpace::new(n, d).unwrap();
        let p: Vec3<R> = rng.in_cube(5.0);
        // Against the unnormalized definition: (n·p - d) / |n|.
        let (n64, p64) = (n.cast::<f64>(), p.cast::<f64>());
        let want = (n64.dot(p64) - d.to_f64()) / n64.norm();
        let tol = fp_tol::<R>(10.0);
        let got = hs.signed_distance(p).to_f64();
        assert!((got - want).abs() <= tol, "{got} vs {want}");
        // Moving both the half-space and the point by a pose keeps the
        // signed distance.
        let pose: Iso3<R> = rng.pose(3.0);
        let moved = hs.transformed(&pose).unwrap();
        let after = moved.signed_distance(pose.transform_point(p)).to_f64();
        assert!((after - got).abs() <= 2.0 * tol, "{after} vs {got}");
    }
    let hs = HalfSpace::new(Vec3::<R>::Z, R::ONE).unwrap();
    let mut bad = Iso3::IDENTITY;
    bad.translation.x = R::INFINITY;
    assert_eq!(hs.transformed(&bad), None);
}
for_each_real!(signed_distance_and_transform, signed_distance_and_transform);
