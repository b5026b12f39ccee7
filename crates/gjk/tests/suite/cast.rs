//! Shape casts (conservative advancement) against references that share
//! no code with them: the closed-form time of impact of two spheres in
//! linear motion, and, for a turning capsule against a moving sphere, the
//! closed-form point–segment distance sampled densely along the motion.
//! Seeded, f32 and f64.
//!
//! What is asserted is the cast's contract: a hit's time is never late
//! (the distance never falls below the target before it by more than the
//! tolerance) and is a real contact (the distance there is within the
//! tolerance of the target); a miss is a motion along which the distance
//! stays above the target; a pair that starts within the target reports
//! `t = 0`.

use mink_gjk::{
    bounding_radius, cast_tolerance, shape_cast, CastStatus, Motion, ShapeCast, MAX_CAST_ITERATIONS,
};
use mink_support::{Capsule, Iso3, Mat3, Real, Sphere, Vec3};
use mink_testkit::{for_each_real, Rng};

/// Casts per family and scalar.
const CASES: usize = 2000;

/// Samples of the motion for the dense reference.
const SAMPLES: usize = 2000;

/// The tolerance a cast promises on the distance at its time of impact,
/// meters: [`cast_tolerance`] of the scale, plus the round-off of the
/// poses in the scalar.
fn tol<R: Real>(scale: f64) -> f64 {
    let round = if R::MANTISSA_BITS < 30 { 2e-6 } else { 1e-12 };
    (cast_tolerance::<R>().to_f64() + round) * scale
}

/// How the casts of a family ended.
#[derive(Default, Debug)]
struct Endings {
    hits: usize,
    misses: usize,
    initial: usize,
    capped: usize,
}

impl Endings {
    /// Counts `cast`'s ending and checks a hit's or a start's distance
    /// against the reference `gap(t)` (meters) within `tol` of `target`.
    fn record<R: Real>(
        &mut self,
        cast: &ShapeCast<R>,
        gap: impl Fn(f64) -> f64,
        target: f64,
        tol: f64,
        what: impl Fn() -> String,
    ) {
        match cast.status {
            CastStatus::Initial => {
                self.initial += 1;
                assert!(gap(0.0) <= target + tol, "{}", what());
            }
            CastStatus::Hit => {
                self.hits += 1;
                let g = gap(cast.toi.to_f64());
                assert!((g - target).abs() <= tol, "{}: gap {g}", what());
            }
            CastStatus::Miss => self.misses += 1,
            CastStatus::IterationLimit => self.capped += 1,
            _ => panic!("{}", what()),
        }
    }
}

/// The earliest `t` in `[0, 1]` with `|p + t v| <= r`, if any.
fn sphere_sphere_toi(p: Vec3<f64>, v: Vec3<f64>, r: f64) -> Option<f64> {
    let c = p.dot(p) - r * r;
    if c <= 0.0 {
        return Some(0.0);
    }
    let a = v.dot(v);
    let b = p.dot(v);
    let disc = b * b - a * c;
    if a == 0.0 || b >= 0.0 || disc < 0.0 {
        return None;
    }
    let t = c / (-b + disc.sqrt());
    (t <= 1.0).then_some(t)
}

fn spheres_in_linear_motion<R: Real>() {
    let mut rng = Rng::new(0x30_0001);
    let mut ends = Endings::default();
    let mut worst = 0.0f64;
    for case in 0..CASES {
        let (ra, rb) = (rng.range_f64(0.05, 1.0), rng.range_f64(0.05, 1.0));
        let target = if rng.chance(0.5) {
            0.0
        } else {
            rng.range_f64(0.0, 0.2)
        };
        let a = Sphere::new(R::lit(ra)).unwrap();
        let b = Sphere::new(R::lit(rb)).unwrap();
        let start_a = Iso3::from_translation(rng.in_cube::<R>(3.0));
        let start_b = Iso3::from_translation(rng.in_cube::<R>(3.0));
        // Aim B roughly at A's end position half the time.
        let end_a = Iso3::from_translation(start_a.translation + rng.in_cube::<R>(2.0));
        let end_b = if rng.chance(0.5) {
            let aim = end_a.translation + rng.in_cube::<R>((ra + rb) * 1.5);
            Iso3::from_translation(aim)
        } else {
            Iso3::from_translation(start_b.translation + rng.in_cube::<R>(3.0))
        };
        let cast = shape_cast(
            &a,
            &Motion::new(start_a, end_a),
            &b,
            &Motion::new(start_b, end_b),
            R::lit(target),
        );
        let p = (start_b.translation - start_a.translation).cast::<f64>();
        let v = ((end_b.translation - start_b.translation)
            - (end_a.translation - start_a.translation))
            .cast::<f64>();
        let scale = bounding_radius(&a).to_f64() + bounding_radius(&b).to_f64() + p.norm();
        let tol = tol::<R>(scale);
        let gap = |t: f64| (p + v * t).norm() - ra - rb;
        let exact = sphere_sphere_toi(p, v, ra + rb + target);
        // Where the gap is least over the motion, in closed form.
        let tmin = if v.dot(v) > 0.0 {
            (-p.dot(v) / v.dot(v)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let what = || format!("case {case}: {cast:?}, exact {exact:?}, target {target}");
        ends.record(&cast, gap, target, tol, what);
        match cast.status {
            CastStatus::Hit => {
                // Never late: the gap (convex in t) stays above the
                // target, within the tolerance, on [0, t].
                let t = cast.toi.to_f64();
                let g_min = gap(t.min(tmin));
                assert!(
                    g_min >= target - tol,
                    "{}: gap {g_min} before the hit",
                    what()
                );
                if let Some(e) = exact {
                    worst = worst.max((t - e).abs() * v.norm());
                }
            }
            CastStatus::Miss => {
                assert!(
                    gap(tmin) >= target - tol,
                    "{}: min gap {}",
                    what(),
                    gap(tmin)
                );
            }
            _ => assert_eq!(cast.status, CastStatus::Initial, "{}", what()),
        }
    }
    eprintln!(
        "spheres ({}): {ends:?}; worst |Δt|·|v| {worst:.2e} m",
        core::any::type_name::<R>()
    );
    assert!(ends.hits > CASES / 10 && ends.misses > CASES / 10);
}
for_each_real!(
    spheres_in_linear_motion_against_closed_form,
    spheres_in_linear_motion
);

/// Distance from `x` to the segment `p q` (f64).
fn point_segment(x: Vec3<f64>, p: Vec3<f64>, q: Vec3<f64>) -> f64 {
    let d = q - p;
    let t = ((x - p).dot(d) / d.dot(d)).clamp(0.0, 1.0);
    (p + d * t - x).norm()
}

fn turning_capsule<R: Real>() {
    let mut rng = Rng::new(0x30_0002);
    let mut ends = Endings::default();
    let mut most_steps = 0;
    for case in 0..CASES {
        let (r, half) = (rng.range_f64(0.02, 0.3), rng.range_f64(0.2, 1.0));
        let rs = rng.range_f64(0.02, 0.5);
        let target = if rng.chance(0.5) {
            0.0
        } else {
            rng.range_f64(0.0, 0.1)
        };
        let link = Capsule::new(R::lit(r), R::lit(half)).unwrap();
        let ball = Sphere::new(R::lit(rs)).unwrap();
        let start = rng.pose::<R>(1.0);
        // Up to a full half turn, about a random axis, while translating.
        let turn = Mat3::from_axis_angle(rng.unit_vec::<R>(), R::lit(rng.range_f64(0.0, 3.1)));
        let end = Iso3::from_parts(
            start.rotation.mul_mat(&turn),
            start.translation + rng.in_cube::<R>(0.5),
        );
        // The ball within reach of the link's sweep (about 1 m around it).
        let ball_start = Iso3::from_translation(start.translation + rng.in_cube::<R>(1.0));
        let ball_end = if rng.chance(0.5) {
            ball_start
        } else {
            Iso3::from_translation(ball_start.translation + rng.in_cube::<R>(0.5))
        };
        let (mc, mb) = (Motion::new(start, end), Motion::new(ball_start, ball_end));
        let cast = shape_cast(&link, &mc, &ball, &mb, R::lit(target));
        most_steps = most_steps.max(cast.iterations);
        // The reference: closed-form distance along the motion, in f64
        // from the poses the motion gives in R.
        let gap = |t: f64| {
            let pc = mc.at(R::lit(t));
            let axis = pc.rotation.col(2).cast::<f64>() * half;
            let c = pc.translation.cast::<f64>();
            let x = mb.at(R::lit(t)).translation.cast::<f64>();
            point_segment(x, c - axis, c + axis) - r - rs
        };
        let scale = bounding_radius(&link).to_f64()
            + bounding_radius(&ball).to_f64()
            + (ball_start.translation - start.translation)
                .cast::<f64>()
                .norm();
        let tol = tol::<R>(scale);
        let toi = cast.toi.to_f64();
        let what = || format!("case {case}: {cast:?}, target {target}");
        // Never late: before the reported time (the whole motion for a
        // miss), no sample comes within the target by more than `tol`.
        let clear_until = match cast.status {
            CastStatus::Miss => 1.0,
            CastStatus::Initial => -1.0,
            _ => toi,
        };
        for i in (0..=SAMPLES).filter(|_| clear_until >= 0.0) {
            let t = i as f64 / SAMPLES as f64 * clear_until;
            let g = gap(t);
            assert!(g >= target - tol, "{}: gap {g} at t = {t}", what());
        }
        ends.record(&cast, gap, target, tol, what);
    }
    eprintln!(
        "turning capsule ({}): {ends:?}; most steps {most_steps} (cap {MAX_CAST_ITERATIONS})",
        core::any::type_name::<R>()
    );
    assert!(ends.hits > CASES / 10 && ends.misses > CASES / 10);
    assert!(ends.capped * 100 <= CASES, "{} casts capped", ends.capped);
}
for_each_real!(turning_capsule_against_dense_closed_form, turning_capsule);

/// Bad input is refused with `NonFinite`, never a panic or NaN.
fn bad_input<R: Real>() {
    let ball = Sphere::new(R::ONE).unwrap();
    let still = Motion::still(Iso3::IDENTITY);
    let nan = Motion::still(Iso3::from_translation(Vec3::new(
        R::nan(),
        R::ZERO,
        R::ZERO,
    )));
    for (m, target) in [(nan, R::ZERO), (still, -R::ONE), (still, R::INFINITY)] {
        let cast = shape_cast(&ball, &m, &ball, &still, target);
        assert_eq!(cast.status, CastStatus::NonFinite);
        assert_eq!(cast.toi, R::ZERO);
    }
}
for_each_real!(bad_input_is_refused, bad_input);
