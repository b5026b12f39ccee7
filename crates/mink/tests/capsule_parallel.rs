//! Capsule–capsule's closed form on parallel cores: coincident capsules
//! (the same pose), collinear ones (B slid along A's axis) and nearly
//! parallel ones (B turned by 1e-9 to 1e-3 rad), plus random poses, in
//! `f32` and `f64`, checked against the capsules' own support functions:
//! the depth is the overlap along the normal, `p_a - p_b = depth × normal`,
//! the depth is at most the overlap along 200 sampled directions (the true
//! depth is the least overlap over every direction), and with the cores
//! crossing or sharing a line it is the radii's sum.

use mink::query::{penetration, Body, Method, Status};
use mink::support::{Capsule, Iso3, Mat3, Real, Vec3};
use mink::Shape;
use mink_testkit::Rng;

/// The reach of a capsule of radius `r` and half-length `h` at `pose`
/// along the world unit `n` (f64).
fn reach<R: Real>(r: f64, h: f64, pose: &Iso3<R>, n: Vec3<f64>) -> f64 {
    let c = pose.translation.cast::<f64>();
    let axis = pose.rotation.cast::<f64>().mul_vec(Vec3::Z);
    c.dot(n) + h * axis.dot(n).abs() + r
}

/// Unit directions on a Fibonacci sphere.
fn sphere(k: usize) -> Vec<Vec3<f64>> {
    (0..k)
        .map(|i| {
            let z = 1.0 - (2.0 * i as f64 + 1.0) / k as f64;
            let s = (1.0 - z * z).sqrt();
            let phi = i as f64 * 2.399_963_229_728_653;
            Vec3::new(s * phi.cos(), s * phi.sin(), z)
        })
        .collect()
}

const POSES: usize = 2_500;

fn parallel_capsules<R: Real>() {
    let mut rng = Rng::new(0xca9_5012);
    let dirs = sphere(200);
    let mut wrong = 0;
    let mut first = None;
    let mut checked = 0;
    for i in 0..POSES {
        let (ra, ha) = (rng.range_f64(0.01, 0.5), rng.range_f64(0.01, 2.0));
        let (rb, hb) = (rng.range_f64(0.01, 0.5), rng.range_f64(0.01, 2.0));
        let a: Shape<'_, R> = Capsule::new(R::lit(ra), R::lit(ha)).unwrap().into();
        let b: Shape<'_, R> = Capsule::new(R::lit(rb), R::lit(hb)).unwrap().into();
        let pose_a = rng.pose::<R>(3.0);
        let axis = pose_a.rotation.mul_vec(Vec3::Z);
        let (pose_b, on_line) = match i % 4 {
            0 => (pose_a, true),
            1 => {
                let t = rng.range_f64(-(ha + hb), ha + hb) * 0.9;
                let p = Iso3::from_parts(pose_a.rotation, pose_a.translation + axis * R::lit(t));
                (p, true)
            }
            2 => {
                let angle = [1e-9, 1e-7, 1e-5, 1e-3][rng.below(4)];
                let turn = Mat3::from_axis_angle(rng.unit_vec::<R>(), R::lit(angle));
                let p = Iso3::from_parts(turn.mul_mat(&pose_a.rotation), pose_a.translation);
                (p, false)
            }
            _ => (
                Iso3::from_parts(rng.rotation(), pose_a.translation + rng.in_cube::<R>(1.0)),
                false,
            ),
        };
        let p = penetration(&Body::new(&a, pose_a), &Body::new(&b, pose_b), Method::Auto);
        let size = ha.max(hb) + ra + rb + pose_a.translation.cast::<f64>().norm();
        let tol = (1e-6 + 16_000.0 * R::EPSILON.to_f64()) * size;
        let n = p.normal.cast::<f64>();
        let d = -p.distance.to_f64();
        let along = |m: Vec3<f64>| reach(ra, ha, &pose_a, m) + reach(rb, hb, &pose_b, -m);
        let sampled = dirs.iter().map(|&m| along(m)).fold(f64::INFINITY, f64::min);
        let miss = (p.p_a.cast::<f64>() - p.p_b.cast::<f64>() - n * d).norm();
        let err = if p.status != Status::Exact {
            Some(format!("status {:?}", p.status))
        } else if (along(n) - d).abs() > tol {
            Some(format!("depth {d} vs overlap {} along n", along(n)))
        } else if miss > tol {
            Some(format!("p_a - p_b is {miss} from depth × normal"))
        } else if d > sampled + tol {
            Some(format!("depth {d} above the sampled overlap {sampled}"))
        } else if on_line && (d - (ra + rb)).abs() > tol {
            Some(format!("depth {d} is not the radii's sum {}", ra + rb))
        } else {
            None
        };
        checked += 1;
        if let Some(e) = err {
            wrong += 1;
            first.get_or_insert(format!("#{i}: {e}"));
        }
    }
    assert_eq!(checked, POSES);
    assert!(wrong == 0, "{wrong} of {POSES} wrong; first {first:?}");
}

#[test]
fn capsule_capsule_parallel_cores_f32() {
    parallel_capsules::<f32>();
}

/// Open: in f64, 278 of 2,500 nearly parallel poses give a closed-form
/// depth off the overlap along its normal (up to 2%); f32 passes.
#[test]
#[ignore = "open bug: the capsule-capsule closed form on nearly parallel cores in f64 (issue 32)"]
fn capsule_capsule_parallel_cores_f64() {
    parallel_capsules::<f64>();
}
