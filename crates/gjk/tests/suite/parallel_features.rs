//! GJK's normal between parallel flat features near touching: two
//! capsules whose axes are parallel and overlap along their length, a gap
//! from 1 µm to 1 cm between their surfaces. The distance is exact to the
//! tolerance whatever the simplex, but the normal used to be only the
//! square root of it: GJK could stop on one vertex of the difference's
//! flat side, the normal tilted by the ends' offset over the distance
//! (2e-3 rad in f32 on 4 m capsules), and along that normal the capsules
//! overlapped by 8 mm although they were apart (issue 32, found through
//! `mink_mpr::penetration`, which returns GJK's normal for apart cores).
//!
//! The reference is closed form and shares no code with GJK: the axes'
//! offset across them, minus the radii, is the distance, and the unit
//! offset is the normal. Checked, in f32 and f64, over seeded poses in
//! both orders (half of them level, one in four axis-aligned): the distance, the normal's angle, and the gap along the
//! normal measured from the shapes' supports (the normal separates them by
//! the distance, within the tolerance).

use crate::common::support_gap;
use mink_gjk::{distance, GjkStatus};
use mink_support::{Capsule, Iso3, Pair, Real, Vec3};
use mink_testkit::{for_each_real, Rng};

/// Poses per scalar.
const CASES: usize = 4000;

/// Tolerance on the distance and the gap along the normal, meters, for
/// capsules up to 4 m long within 3 m of the origin.
fn tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS < 30 {
        2e-4
    } else {
        1e-9
    }
}

/// Bound on the normal's angle from the axes' offset, radians.
fn angle_tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS < 30 {
        2e-4
    } else {
        1e-7
    }
}

fn parallel_capsules<R: Real>() {
    let mut rng = Rng::new(0x32_0101);
    let (mut worst_gap, mut worst_angle) = (0.0f64, 0.0f64);
    let mut first_failure = None;
    let mut failures = 0;
    for case in 0..CASES {
        // One pose in four axis-aligned (exact support ties).
        let pose = if rng.below(4) == 0 {
            Iso3::from_translation(rng.in_cube::<R>(3.0))
        } else {
            rng.pose::<R>(3.0)
        };
        let axis = pose.rotation.col(2);
        let (ra, la) = (rng.range_f64(0.01, 2.0), rng.range_f64(0.2, 2.0));
        let (rb, lb) = (rng.range_f64(0.01, 2.0), rng.range_f64(0.2, 2.0));
        // B beside A: across the axis by the radii plus the gap, slid
        // along it by less than the shorter half length (the axes overlap
        // along their length, so the closest features are the sides).
        let gap = 10f64.powf(rng.range_f64(-6.0, -2.0));
        let across = pose.rotation.col(0) * R::lit(rng.range_f64(-1.0, 1.0))
            + pose.rotation.col(1) * R::lit(rng.range_f64(-1.0, 1.0));
        let Some(across) = across.try_normalize() else {
            continue;
        };
        // Half of the pairs level (centres' offset across the axes, as
        // parallel links of a robot): GJK's first direction then ties
        // along the whole side.
        let slide = if rng.chance(0.5) {
            0.0
        } else {
            rng.range_f64(-0.9, 0.9) * la.min(lb)
        };
        let centre_b = pose.translation + across * R::lit(ra + rb + gap) + axis * R::lit(slide);
        let pose_b = Iso3::from_parts(pose.rotation, centre_b);
        let a = Capsule::new(R::lit(ra), R::lit(la)).unwrap();
        let b = Capsule::new(R::lit(rb), R::lit(lb)).unwrap();
        // The reference, from the poses as rounded to R.
        let offset = (centre_b - pose.translation).cast::<f64>();
        let axis64 = axis.cast::<f64>();
        let perp = offset - axis64 * offset.dot(axis64);
        let expected = perp.norm() - ra - rb;
        let normal = perp.normalize_or(Vec3::X);
        for swap in [false, true] {
            let (d, sign) = if swap {
                (
                    distance(&mut Pair::new(&b, &pose_b, &a, &pose), &pose_b),
                    -1.0,
                )
            } else {
                (distance(&mut Pair::new(&a, &pose, &b, &pose_b), &pose), 1.0)
            };
            let n = d.normal.cast::<f64>();
            let angle = (n - normal * sign).norm();
            let gap_along = if swap {
                support_gap(&b, &pose_b, &a, &pose, n)
            } else {
                support_gap(&a, &pose, &b, &pose_b, n)
            };
            worst_angle = worst_angle.max(angle);
            worst_gap = worst_gap.max((gap_along - expected).abs());
            let bad = d.status != GjkStatus::Converged
                || (d.distance.to_f64() - expected).abs() > tol::<R>()
                || angle > angle_tol::<R>()
                || (gap_along - expected).abs() > tol::<R>();
            if bad {
                failures += 1;
                first_failure.get_or_insert_with(|| {
                    format!(
                        "case {case} (swap {swap}): {d:?}, expected distance {expected}, \
                         normal {normal:?}, gap along the normal {gap_along}"
                    )
                });
            }
        }
    }
    eprintln!(
        "parallel capsules ({}): {} queries, worst normal error {worst_angle:.2e} rad, \
         worst gap-along-normal error {worst_gap:.2e} m",
        core::any::type_name::<R>(),
        2 * CASES
    );
    assert_eq!(failures, 0, "first: {first_failure:?}");
}
for_each_real!(parallel_capsules_near_touching, parallel_capsules);
