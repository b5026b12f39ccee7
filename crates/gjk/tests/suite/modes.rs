//! Early-stop modes, warm start, variants, non-finite input and
//! near-degenerate configurations, checked against the full converged
//! distance (itself checked against references in the other tests) and
//! against analytic answers.

use crate::common;

use crate::common::{pose, random_shape, with_pair, PairVisitor};
use mink_gjk::{
    distance, gjk, intersect, penetration, penetration_with, Distance, EpaStatus, GjkCache,
    GjkSettings, GjkStatus, Polytope, Stop, Variant, WARM_REFRESH,
};
use mink_support::{Capsule, Cuboid, Cylinder, Iso3, Mat3, Pair, Real, Sphere, Support, Vec3};
use mink_testkit::{for_each_real, Rng};

struct Modes<R> {
    pa: Iso3<R>,
    pb: Iso3<R>,
    margin: R,
}

impl<R: Real> PairVisitor<R> for Modes<R> {
    type Out = ();
    fn visit<A: Support<R>, B: Support<R>>(self, a: &A, b: &B) {
        let (pa, pb) = (self.pa, self.pb);
        let full = distance(&mut Pair::new(a, &pa, b, &pb), &pa);
        let size = pa
            .translation
            .max_abs()
            .max_of(pb.translation.max_abs())
            .to_f64()
            + 4.0;
        let slack = if R::MANTISSA_BITS > 30 { 1e-7 } else { 1e-3 } * size;
        let overlapping = full.status == GjkStatus::Intersecting || full.distance < R::ZERO;
        let settings = |stop| GjkSettings::default().with_stop(stop);
        // Collision only: a verdict, agreeing with the full distance.
        let c = gjk(
            &mut Pair::new(a, &pa, b, &pb),
            &pa,
            &settings(Stop::Collision),
            &mut GjkCache::default(),
        );
        match c.status {
            GjkStatus::Separated => {
                assert!(
                    !overlapping,
                    "collision mode says apart, full says {full:?}"
                );
                // What it proved: a lower bound.
                assert!(c.distance.to_f64() <= full.distance.to_f64() + slack);
                assert!(c.distance > R::ZERO);
            }
            GjkStatus::Intersecting => assert!(full.distance.to_f64() <= slack, "{full:?}"),
            GjkStatus::Converged => {
                assert!((c.distance - full.distance).abs().to_f64() <= slack)
            }
            s => panic!("collision mode ended {s:?}"),
        }
        let hit = intersect(&mut Pair::new(a, &pa, b, &pb));
        let depth = penetration(&mut Pair::new(a, &pa, b, &pb), &pa).depth;
        if depth.to_f64() > slack {
            assert!(hit, "intersect misses an overlap of {depth}");
        }
        if full.distance.to_f64() > slack {
            assert!(!hit, "intersect hits at {full:?}");
        }
        // Margin: proven beyond, or the full answer.
        let m = gjk(
            &mut Pair::new(a, &pa, b, &pb),
            &pa,
            &settings(Stop::Margin(self.margin)),
            &mut GjkCache::default(),
        );
        if m.status == GjkStatus::BeyondMargin {
            assert!(m.distance > self.margin);
            assert!(m.distance.to_f64() <= full.distance.to_f64() + slack);
        } else {
            assert!(
                full.distance.to_f64() <= self.margin.to_f64() + slack,
                "{m:?} vs {full:?}"
            );
            assert!((m.distance - full.distance).abs().to_f64() <= slack);
        }
        // Both variants converge to the same answer.
        let nest = gjk(
            &mut Pair::new(a, &pa, b, &pb),
            &pa,
            &GjkSettings::default().with_variant(Variant::Nesterov),
            &mut GjkCache::default(),
        );
        assert!(
            matches!(nest.status, GjkStatus::Converged | GjkStatus::Intersecting),
            "{nest:?}"
        );
        assert_eq!(nest.status, full.status);
        if full.status == GjkStatus::Converged {
            assert!((nest.distance - full.distance).abs().to_f64() <= slack);
        }
    }
}

fn early_stop<R: Real>() {
    let mut rng = Rng::new(21);
    for _ in 0..2000 {
        let a = random_shape::<R>(&mut rng, 1.0);
        let b = random_shape::<R>(&mut rng, 1.0);
        let pa: Iso3<R> = pose(&mut rng, 2.0);
        let mut pb: Iso3<R> = pose(&mut rng, 0.0);
        pb.translation = pa.translation + (rng.unit_vec::<f64>() * rng.range_f64(0.0, 5.0)).cast();
        let margin = R::lit(rng.range_f64(0.0, 1.0));
        with_pair(&a, &b, Modes { pa, pb, margin });
    }
}
for_each_real!(early_stop_modes, early_stop);

/// Runs 200 sequences of 10 small motions of `shape` against itself
/// (centres `gap` apart at the start), each query by `warm` (told when a
/// sequence starts, so that it can forget its state) and by a fresh
/// cache, asserting the same status and, but past the margin (where each
/// run reports the bound it stopped at), the same distance. Returns the
/// iterations (warm, cold).
fn small_motions<R: Real, S: Support<R>>(
    seed: u64,
    shape: &S,
    gap: f64,
    settings: &GjkSettings<R>,
    mut warm: impl FnMut(bool, &Iso3<R>, &Iso3<R>) -> Distance<R>,
) -> (u32, u32) {
    let mut rng = Rng::new(seed);
    let (mut cold_total, mut warm_total) = (0u32, 0u32);
    for _ in 0..200 {
        let pa: Iso3<R> = pose(&mut rng, 1.0);
        let mut pb: Iso3<R> = pose(&mut rng, 0.0);
        pb.translation = pa.translation + (rng.unit_vec::<f64>() * gap).cast();
        let turn: Mat3<R> = Mat3::from_axis_angle(rng.unit_vec(), R::lit(0.01));
        let step: Vec3<R> = rng.unit_vec::<R>() * R::lit(0.01);
        for k in 0..10 {
            pb.rotation = turn.mul_mat(&pb.rotation);
            pb.translation += step;
            let w = warm(k == 0, &pa, &pb);
            let mut fresh = GjkCache::default();
            let c = gjk(
                &mut Pair::new(shape, &pa, shape, &pb),
                &pa,
                settings,
                &mut fresh,
            );
            assert_eq!(w.status, c.status);
            if w.status != GjkStatus::BeyondMargin {
                let slack = if R::MANTISSA_BITS > 30 { 1e-8 } else { 1e-3 };
                assert!((w.distance - c.distance).abs().to_f64() <= slack);
            }
            warm_total += w.iterations;
            cold_total += c.iterations;
        }
    }
    (warm_total, cold_total)
}

/// Warm start: on sequences of small motions, a kept cache saves
/// iterations and changes no answer.
fn warm_start<R: Real>() {
    let cyl = Cylinder::new(R::lit(0.5), R::lit(0.7)).unwrap();
    let s = GjkSettings::default();
    let mut cache = GjkCache::default();
    let (warm, cold) = small_motions(22, &cyl, 2.0, &s, |first, pa, pb| {
        if first {
            cache = GjkCache::default();
        }
        gjk(&mut Pair::new(&cyl, pa, &cyl, pb), pa, &s, &mut cache)
    });
    // Measured: 21,966 iterations cold and 9,277 warm in f32, 37,582 and
    // 24,735 in f64 (before the warm simplex, 9.4 and 6.9 a query in f32).
    assert!(
        (warm as f64) < 0.75 * cold as f64,
        "warm {warm} vs cold {cold}"
    );
}
for_each_real!(warm_start_saves_iterations, warm_start);

/// One pair of random shapes followed through random motions, small and
/// large (jumps across the pair, overlapping and apart), with a kept cache:
/// each warm answer agrees with a fresh query's, in distance and in
/// penetration depth (EPA from the warm query's simplex).
struct Followed<R> {
    seed: u64,
    reach: f64,
    _r: core::marker::PhantomData<R>,
}

impl<R: Real> PairVisitor<R> for Followed<R> {
    type Out = ();
    fn visit<A: Support<R>, B: Support<R>>(self, a: &A, b: &B) {
        let mut rng = Rng::new(self.seed);
        let f32_ish = R::MANTISSA_BITS < 30;
        let slack = if f32_ish { 2e-3 } else { 1e-7 } * (self.reach + 1.0);
        let pa: Iso3<R> = pose(&mut rng, 1.0);
        let mut pb: Iso3<R> = pose(&mut rng, 0.0);
        pb.translation = pa.translation + (rng.unit_vec::<f64>() * self.reach).cast();
        let s = GjkSettings::default();
        let mut cache = GjkCache::default();
        let mut warm_poly: Polytope<R> = Polytope::new();
        let mut cold_poly: Polytope<R> = Polytope::new();
        for step in 0..40 {
            let big = step % 8 == 7;
            let (angle, shift) = if big { (1.0, self.reach) } else { (0.02, 0.02) };
            let turn: Mat3<R> = Mat3::from_axis_angle(rng.unit_vec(), R::lit(angle));
            pb.rotation = turn.mul_mat(&pb.rotation);
            pb.translation += (rng.unit_vec::<f64>() * shift).cast();
            let warm = penetration_with(
                &mut Pair::new(a, &pa, b, &pb),
                &pa,
                &s,
                &mut cache,
                &mut warm_poly,
            );
            let cold = penetration_with(
                &mut Pair::new(a, &pa, b, &pb),
                &pa,
                &s,
                &mut GjkCache::default(),
                &mut cold_poly,
            );
            assert!(warm.depth.finite() && warm.normal.is_finite());
            let (dw, dc) = (warm.depth.to_f64(), cold.depth.to_f64());
            // EPA's own tolerance on deep overlaps is relative to the size.
            let tol = slack.max(if f32_ish { 1e-3 } else { 1e-6 } * dc.abs());
            assert!(
                (dw - dc).abs() <= tol,
                "step {step}: warm {warm:?} cold {cold:?}"
            );
        }
    }
}

fn warm_simplex_random<R: Real>() {
    let mut rng = Rng::new(41);
    for seed in 0..300 {
        let a: common::AnyShape<R> = random_shape(&mut rng, 1.0);
        let b: common::AnyShape<R> = random_shape(&mut rng, 1.0);
        let reach = 0.5 * (a.size() + b.size());
        let followed = Followed {
            seed,
            reach,
            _r: core::marker::PhantomData,
        };
        with_pair(&a, &b, followed);
    }
}
for_each_real!(warm_simplex_agrees_with_cold_queries, warm_simplex_random);

/// The re-posed simplex on polytopes: a box resting on a box (gap of a
/// few millimetres, or overlap of one), sliding and turning a little each
/// frame, converges in a fraction of a cold query's iterations, with the
/// same answers.
fn warm_simplex_resting<R: Real>() {
    let base = Cuboid::new(Vec3::new(R::lit(1.0), R::lit(1.0), R::lit(0.5))).unwrap();
    let top = Cuboid::new(Vec3::new(R::lit(0.4), R::lit(0.3), R::lit(0.2))).unwrap();
    let mut rng = Rng::new(43);
    let s = GjkSettings::default();
    let (mut warm_total, mut cold_total) = (0u32, 0u32);
    for _ in 0..100 {
        let pa = Iso3::IDENTITY;
        let gap = rng.range_f64(-0.002, 0.005);
        let yaw = Mat3::from_axis_angle(Vec3::Z, R::lit(rng.range_f64(0.0, 6.0)));
        let mut pb = Iso3::from_parts(
            yaw,
            Vec3::new(
                R::lit(rng.range_f64(-0.4, 0.4)),
                R::lit(rng.range_f64(-0.4, 0.4)),
                R::lit(0.7 + gap),
            ),
        );
        let slide: Vec3<R> = Vec3::new(
            R::lit(rng.range_f64(-1.0, 1.0)),
            R::lit(rng.range_f64(-1.0, 1.0)),
            R::ZERO,
        ) * R::lit(1e-3);
        let spin = Mat3::from_axis_angle(Vec3::Z, R::lit(2e-3));
        let mut cache = GjkCache::default();
        for _ in 0..10 {
            pb.rotation = spin.mul_mat(&pb.rotation);
            pb.translation += slide;
            let w = gjk(&mut Pair::new(&base, &pa, &top, &pb), &pa, &s, &mut cache);
            let c = gjk(
                &mut Pair::new(&base, &pa, &top, &pb),
                &pa,
                &s,
                &mut GjkCache::default(),
            );
            assert_eq!(w.status, c.status, "{w:?} {c:?}");
            let slack = if R::MANTISSA_BITS > 30 { 1e-9 } else { 1e-4 };
            assert!(
                (w.distance - c.distance).abs().to_f64() <= slack,
                "{w:?} {c:?}"
            );
            if c.status == GjkStatus::Converged {
                assert!((c.distance.to_f64() - gap).abs() <= slack);
            }
            warm_total += w.iterations;
            cold_total += c.iterations;
        }
    }
    // Measured: 1,096 iterations warm against 4,131 cold (f32 and f64).
    assert!(
        (warm_total as f64) < 0.5 * cold_total as f64,
        "warm {warm_total} vs cold {cold_total}"
    );
}
for_each_real!(
    warm_simplex_saves_iterations_on_resting_boxes,
    warm_simplex_resting
);

/// A pair at rest: every query but the first and each one after
/// [`WARM_REFRESH`] warm ones starts from the kept simplex (fewer
/// iterations); those start cold (as many as a fresh cache).
fn warm_refresh<R: Real>() {
    let base = Cuboid::new(Vec3::new(R::lit(1.0), R::lit(1.0), R::lit(0.5))).unwrap();
    let top = Cuboid::new(Vec3::new(R::lit(0.4), R::lit(0.3), R::lit(0.2))).unwrap();
    let pa = Iso3::IDENTITY;
    let pb = Iso3::from_parts(
        Mat3::from_axis_angle(Vec3::Z, R::lit(0.3)),
        Vec3::new(R::lit(0.1), R::lit(-0.2), R::lit(0.703)),
    );
    let s = GjkSettings::default();
    let query = |cache: &mut GjkCache<R>| {
        gjk(&mut Pair::new(&base, &pa, &top, &pb), &pa, &s, cache).iterations
    };
    let cold = query(&mut GjkCache::default());
    let mut cache = GjkCache::default();
    let period = WARM_REFRESH as usize + 1;
    for q in 0..2 * period + 1 {
        let it = query(&mut cache);
        if q % period == 0 {
            assert_eq!(it, cold, "query {q}");
        } else {
            assert!(it < cold, "query {q}: {it} iterations, cold {cold}");
        }
    }
}
for_each_real!(
    warm_start_refreshes_after_warm_refresh_queries,
    warm_refresh
);

/// A cache rebuilt each query from the last direction alone (world frame),
/// as a caller keeping only a direction per pair would, on margin queries
/// (a scene's narrow phase): pairs apart past the margin are proven so in
/// fewer iterations, with the same answers; an unusable direction starts
/// cold.
fn direction_warm_start<R: Real>() {
    let cube = Cuboid::new(Vec3::new(R::lit(0.5), R::lit(0.3), R::lit(0.7))).unwrap();
    let s = GjkSettings::default().with_stop(Stop::Margin(R::lit(0.01)));
    let mut world_dir = Vec3::ZERO;
    let (warm, cold) = small_motions(23, &cube, 1.6, &s, |first, pa, pb| {
        if first {
            world_dir = Vec3::ZERO;
        }
        let mut cache = GjkCache::with_direction(pa.inverse_transform_vector(world_dir));
        let d = gjk(&mut Pair::new(&cube, pa, &cube, pb), pa, &s, &mut cache);
        world_dir = pa.transform_vector(cache.direction());
        d
    });
    // Measured: 2,957 iterations warm against 4,568 cold (f32 and f64).
    assert!(
        (warm as f64) < 0.9 * cold as f64,
        "warm {warm} vs cold {cold}"
    );
    // Unusable directions are a cold start: the same run as a fresh cache.
    let (pa, pb) = (
        Iso3::IDENTITY,
        Iso3::from_translation(Vec3::new(R::lit(2.0), R::ZERO, R::ZERO)),
    );
    let s = GjkSettings::default();
    let fresh = gjk(
        &mut Pair::new(&cube, &pa, &cube, &pb),
        &pa,
        &s,
        &mut GjkCache::default(),
    );
    for bad in [
        Vec3::splat(R::nan()),
        Vec3::new(R::MAX, R::MAX, R::ZERO),
        Vec3::ZERO,
    ] {
        let mut cache = GjkCache::with_direction(bad);
        let d = gjk(&mut Pair::new(&cube, &pa, &cube, &pb), &pa, &s, &mut cache);
        assert_eq!((d.iterations, d.status), (fresh.iterations, fresh.status));
        assert_eq!(d.distance, fresh.distance);
    }
}
for_each_real!(direction_warm_start_saves_iterations, direction_warm_start);

fn non_finite<R: Real>() {
    let b = Cuboid::new(Vec3::splat(R::ONE)).unwrap();
    let bad = Iso3::from_translation(Vec3::new(R::nan(), R::ZERO, R::ZERO));
    let good = Iso3::IDENTITY;
    let d = distance(&mut Pair::new(&b, &good, &b, &bad), &good);
    assert_eq!(d.status, GjkStatus::NonFinite);
    assert!(d.distance.finite() && d.normal.is_finite());
    let p = penetration(&mut Pair::new(&b, &good, &b, &bad), &good);
    assert_eq!(p.status, EpaStatus::NonFinite);
    assert!(p.depth.finite());
    let d = distance(&mut Pair::new(&b, &good, &b, &good), &bad);
    assert_eq!(d.status, GjkStatus::NonFinite);
    assert!(!intersect(&mut Pair::new(&b, &good, &b, &bad)));
}
for_each_real!(non_finite_input, non_finite);

/// Touching faces, parallel edges, coincident centres, size ratios from
/// 1e-3 to 1e3: analytic answers.
fn degenerate<R: Real>() {
    let ftol = if R::MANTISSA_BITS > 30 { 1e-9 } else { 1e-4 };
    let unit = Cuboid::new(Vec3::splat(R::ONE)).unwrap();
    let id = Iso3::IDENTITY;
    // Touching faces (gap exactly 0), and a face resting with a tiny gap.
    for gap in [0.0, 1e-6, 1e-3] {
        let pb = Iso3::from_translation(Vec3::new(R::lit(2.0 + gap), R::lit(0.3), R::lit(-0.2)));
        let p = penetration(&mut Pair::new(&unit, &id, &unit, &pb), &id);
        assert!(
            (p.depth.to_f64() + gap).abs() <= ftol * 4.0,
            "touching gap {gap}: {p:?}"
        );
        if gap > 1e-4 {
            assert!((p.normal.cast::<f64>() - Vec3::X).norm() < 1e-3);
        }
    }
    // Parallel edges: a box turned 45° about z resting edge on face.
    let turn = Iso3::from_parts(
        Mat3::from_axis_angle(Vec3::Z, R::lit(core::f64::consts::FRAC_PI_4)),
        Vec3::new(R::lit(1.0 + 2f64.sqrt() + 0.25), R::ZERO, R::ZERO),
    );
    let d = distance(&mut Pair::new(&unit, &id, &unit, &turn), &id);
    assert!((d.distance.to_f64() - 0.25).abs() <= ftol * 4.0, "{d:?}");
    // Coincident centres: depth is the smallest half-extent sum.
    let flat = Cuboid::new(Vec3::new(R::lit(2.0), R::lit(1.5), R::lit(0.5))).unwrap();
    let p = penetration(&mut Pair::new(&unit, &id, &flat, &id), &id);
    assert_eq!(p.status, EpaStatus::Converged);
    assert!((p.depth.to_f64() - 1.5).abs() <= ftol * 4.0, "{p:?}");
    assert!(p.normal.z.abs().to_f64() > 0.999);
    let s = Sphere::new(R::lit(0.5)).unwrap();
    let p = penetration(&mut Pair::new(&s, &id, &s, &id), &id);
    assert!((p.depth.to_f64() - 1.0).abs() <= ftol, "{p:?}");
    // Size ratios 1e-3 .. 1e3: a small sphere against a big box, and a
    // capsule against a huge one.
    for k in -3..=3 {
        let big = 10f64.powi(k);
        let bx = Cuboid::new(Vec3::splat(R::lit(big))).unwrap();
        let small = Sphere::new(R::lit(1e-3 * big.max(1.0))).unwrap();
        let gap = 0.5 * big;
        let pb = Iso3::from_translation(Vec3::new(
            R::lit(big + gap + 1e-3 * big.max(1.0)),
            R::ZERO,
            R::ZERO,
        ));
        let d = distance(&mut Pair::new(&bx, &id, &small, &pb), &id);
        let rel = (d.distance.to_f64() - gap).abs() / big;
        assert!(rel <= ftol * 10.0, "ratio {big}: {d:?}");
        let c = Capsule::new(R::lit(big * 0.1), R::lit(big)).unwrap();
        let tiny = Capsule::new(R::lit(1e-3), R::lit(1e-3)).unwrap();
        let pt =
            Iso3::from_translation(Vec3::new(R::lit(big * 0.1 + 0.01 + 1e-3), R::ZERO, R::ZERO));
        let d = distance(&mut Pair::new(&c, &id, &tiny, &pt), &id);
        assert!(
            (d.distance.to_f64() - 0.01).abs() <= ftol * 10.0 * big.max(1.0),
            "capsule ratio {big}: {d:?}"
        );
    }
}
for_each_real!(near_degenerate, degenerate);
