//! GJK from a point just outside a flat side: a point under a thin
//! cylinder's cap, and two equal parallel segments a hair apart, gaps from
//! 10 µm to 1 mm, in f32 and f64. The difference's side is flat, its
//! support ties across the whole side, and a search direction tilted by
//! round-off picks the side's far rim: GJK's closest point on a segment,
//! computed as `p + t d`, carried an ulp of the vertices along the segment,
//! which over a 59 µm gap is a tilt of 5e-4 rad and, over a 0.5 m cap, a
//! lower bound below zero. GJK then called the point inside (a point 59
//! µm under a cap, in f32; `mink::project_point` answered -0), and two
//! parallel segments 0.61 mm apart ended `Degenerate` (issue 32, found by
//! the `ray_cast` and `gjk_distance` fuzz targets).
//!
//! The reference is closed form and shares no code with GJK: the point's
//! height under the cap in the cylinder's frame, or the segments' offset
//! across them, computed in f64 from the poses as rounded to the scalar.
//! Each answer must be `Converged` and not intersecting, its distance
//! within the tolerance of the reference, and its normal must hold the
//! shapes apart by that distance: the gap between the two shapes' support
//! planes along it, measured in f64, within the tolerance too (the normal
//! of a tilted `v` did not: 8.9 mm less than a 10 µm gap, in f32).

use crate::common::support_gap;
use mink_gjk::{distance, intersect, GjkStatus};
use mink_support::{ConvexHull, Cylinder, Iso3, Pair, Point, Real, Segment, Vec3};
use mink_testkit::{for_each_real, Rng};

/// Poses per case and scalar.
const CASES: usize = 4000;

/// Tolerance on the distance, meters, for shapes up to 3 m across within
/// 3 m of the origin: GJK's stopping tolerance at that size.
fn tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS < 30 {
        4e-5
    } else {
        1e-9
    }
}

/// A gap, log-uniform from 10 µm to 1 mm.
fn gap(rng: &mut Rng) -> f64 {
    10f64.powf(rng.range_f64(-5.0, -3.0))
}

/// Tally of one sweep: failures, the first one, the worst errors.
#[derive(Default)]
struct Tally {
    failures: usize,
    first: Option<String>,
    worst_distance: f64,
    worst_gap: f64,
    worst_angle: f64,
}

impl Tally {
    fn check<R: Real>(
        &mut self,
        case: usize,
        d: &mink_gjk::Distance<R>,
        hit: bool,
        expected: f64,
        normal: Vec3<f64>,
        gap: f64,
    ) {
        let error = (d.distance.to_f64() - expected).abs();
        let gap_error = (gap - expected).abs();
        self.worst_distance = self.worst_distance.max(error);
        self.worst_gap = self.worst_gap.max(gap_error);
        self.worst_angle = self
            .worst_angle
            .max((d.normal.cast::<f64>() - normal).norm());
        if d.status != GjkStatus::Converged || hit || error > tol::<R>() || gap_error > tol::<R>() {
            self.failures += 1;
            self.first.get_or_insert_with(|| {
                format!(
                    "case {case}: {d:?}, intersect {hit}, expected distance {expected}, \
                     normal {normal:?}, gap along the normal {gap}"
                )
            });
        }
    }

    fn assert_clean(&self, what: &str, bits: u32) {
        assert!(
            self.failures == 0,
            "{what} ({bits}-bit mantissa): {} of {CASES} poses wrong (worst distance error \
             {:e} m, worst gap along the normal {:e} m, worst normal {:e} rad), first: {}",
            self.failures,
            self.worst_distance,
            self.worst_gap,
            self.worst_angle,
            self.first.as_deref().unwrap_or("")
        );
    }
}

fn point_under_a_thin_cylinder_cap<R: Real>() {
    let mut rng = Rng::new(0x32_0201);
    let mut tally = Tally::default();
    for case in 0..CASES {
        let (radius, half) = (rng.range_f64(0.2, 1.0), rng.range_f64(0.005, 0.05));
        let cylinder = Cylinder::new(R::lit(radius), R::lit(half)).unwrap();
        let pose = rng.pose::<R>(3.0);
        // Under the bottom cap, within 90% of its radius.
        let (angle, reach) = (
            rng.range_f64(0.0, core::f64::consts::TAU),
            radius * 0.9 * rng.unit_f64().sqrt(),
        );
        let local = Vec3::new(
            reach * angle.cos(),
            reach * angle.sin(),
            -half - gap(&mut rng),
        );
        let p = pose.transform_point(local.cast::<R>());
        // The reference, from the point and pose as rounded to R.
        let rot = pose.rotation.cast::<f64>();
        let back = rot.transpose_mul(p.cast::<f64>() - pose.translation.cast::<f64>());
        let expected = -back.z - half;
        let at = Iso3::from_translation(p);
        let mut pair = Pair::new(&Point, &at, &cylinder, &pose);
        let d = distance(&mut pair, &at);
        let hit = intersect(&mut pair);
        // From the point towards the cylinder: its axis, upwards.
        let gap = support_gap(&Point, &at, &cylinder, &pose, d.normal.cast());
        tally.check(case, &d, hit, expected, rot.col(2), gap);
    }
    tally.assert_clean("point under a thin cylinder cap", R::MANTISSA_BITS);
}

fn equal_parallel_segments<R: Real>() {
    let mut rng = Rng::new(0x32_0202);
    let mut tally = Tally::default();
    for case in 0..CASES {
        let pose = rng.pose::<R>(3.0);
        let half = rng.range_f64(0.25, 1.5);
        let segment = Segment::new(
            Vec3::new(R::ZERO, R::ZERO, R::lit(-half)),
            Vec3::new(R::ZERO, R::ZERO, R::lit(half)),
        )
        .unwrap();
        // B across the axis by the gap, one pose in two slid along it.
        let across = Vec3::new(rng.range_f64(-1.0, 1.0), rng.range_f64(-1.0, 1.0), 0.0);
        let Some(across) = across.try_normalize() else {
            continue;
        };
        let slide = if rng.chance(0.5) {
            0.0
        } else {
            rng.range_f64(-0.9, 0.9) * half
        };
        let offset = across * gap(&mut rng) + Vec3::new(0.0, 0.0, slide);
        let pose_b = Iso3::from_parts(pose.rotation, pose.transform_point(offset.cast::<R>()));
        let rot = pose.rotation.cast::<f64>();
        let back =
            rot.transpose_mul(pose_b.translation.cast::<f64>() - pose.translation.cast::<f64>());
        let expected = (back.x * back.x + back.y * back.y).sqrt();
        let normal = rot * Vec3::new(back.x, back.y, 0.0).normalize_or(Vec3::X);
        let mut pair = Pair::new(&segment, &pose, &segment, &pose_b);
        let d = distance(&mut pair, &pose);
        let hit = intersect(&mut pair);
        let gap = support_gap(&segment, &pose, &segment, &pose_b, d.normal.cast());
        tally.check(case, &d, hit, expected, normal, gap);
    }
    tally.assert_clean("equal parallel segments", R::MANTISSA_BITS);
}

for_each_real!(
    point_under_thin_cylinder_caps,
    point_under_a_thin_cylinder_cap
);
for_each_real!(parallel_segments_a_hair_apart, equal_parallel_segments);

/// Two 6-point hulls that touch (1.4e-8 m apart in f64), from the
/// `gjk_distance` fuzz target: in f32 the origin lies within round-off of
/// GJK's triangle when a fourth point comes, the new point's coordinate
/// came out positive, a face through it was a sliver reduced through its
/// edges, and the answer jumped from 3.1e-6 m to 8.3e-4 m and ended
/// `Degenerate` (the other order: `Intersecting`). Under 500 rigid motions
/// of both, in both orders and scalars, the answer must be a touch: an
/// overlap, or a distance within the tolerance, never `Degenerate`.
fn touching_hulls<R: Real>() {
    let v = |x: f64, y: f64, z: f64| Vec3::new(R::lit(x), R::lit(y), R::lit(z));
    let a = ConvexHull::from_points(&[
        v(-0.21788327, -0.21788327, -0.21788327),
        v(-0.21788327, -0.70327264, -0.7032941),
        v(-0.69794977, 0.62093997, -0.21788327),
        v(-0.7032941, -0.7032941, -0.7032941),
        v(-0.7032941, -0.21788327, -0.21788327),
        v(-0.21788327, -0.6025031, -0.6040055),
    ])
    .unwrap();
    let b = ConvexHull::from_points(&[
        v(-0.21722807, 0.19420941, 0.6038124),
        v(-0.05468417, 0.20717315, 0.5893247),
        v(-0.6400006, -0.6549376, 0.04853894),
        v(0.24981816, 0.25097948, 0.25097948),
        v(0.25022474, -0.7032941, -0.7032941),
        v(-0.7011792, -0.7032941, -0.7032941),
    ])
    .unwrap();
    let mut rng = Rng::new(0x32_0203);
    let mut failures = Vec::new();
    for case in 0..500 {
        // The fuzz input's pose first, then random rigid motions of both.
        let pose = if case == 0 {
            Iso3::from_translation(v(-2.0, -2.0, -2.0))
        } else {
            rng.pose::<R>(3.0)
        };
        for swap in [false, true] {
            let (x, y) = if swap { (&b, &a) } else { (&a, &b) };
            let d = distance(&mut Pair::new(x, &pose, y, &pose), &pose);
            let touch = match d.status {
                GjkStatus::Intersecting => true,
                // 1.4e-8 m apart as written (f64).
                GjkStatus::Converged => d.distance.to_f64() <= tol::<R>() + 1.5e-8,
                _ => false,
            };
            if !touch {
                failures.push(format!("case {case} (swap {swap}): {d:?}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of 1000 answers not a touch ({}-bit mantissa), first: {}",
        failures.len(),
        R::MANTISSA_BITS,
        failures[0]
    );
}

for_each_real!(touching_hulls_stay_touching, touching_hulls);
