//! `mink::shape_cast` through the pair table, against references that
//! share no code with the advancement: a box turning and falling onto a
//! half-space (the box's distance to the plane is its lowest corner's
//! height, in closed form, sampled densely along the motion), hulls and
//! boxes turning past each other (the pair's distance sampled densely),
//! the mirror of every pair (swapping A and B gives the same time and the
//! opposite normal), and a ball that a discrete check at both ends of its
//! motion misses going through a thin plate. Seeded, f32 and f64.

use mink::cast::{shape_cast, CastStatus};
use mink::support::{ConvexHull, Cuboid, HalfSpace, Iso3, Mat3, Real, Sphere, Vec3};
use mink::{distance, Body, Method, Shape};
use mink_testkit::{for_each_real, Rng};

/// Samples of the motion for the dense references.
const SAMPLES: usize = 1000;

/// The tolerance of a cast at the scale of these scenes (a few meters).
fn tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS < 30 {
        3e-3
    } else {
        1e-6
    }
}

/// A pose turned by up to `max_angle` radians about a random axis from
/// `pose` and moved by up to `reach` meters.
fn moved<R: Real>(rng: &mut Rng, pose: &Iso3<R>, max_angle: f64, reach: f64) -> Iso3<R> {
    let turn = Mat3::from_axis_angle(rng.unit_vec::<R>(), R::lit(rng.range_f64(0.0, max_angle)));
    Iso3::from_parts(
        pose.rotation.mul_mat(&turn),
        pose.translation + rng.in_cube::<R>(reach),
    )
}

fn box_onto_floor<R: Real>() {
    let mut rng = Rng::new(0x30_0101);
    let floor: Shape<'_, R> = Shape::HalfSpace(HalfSpace::new(Vec3::Z, R::ZERO).unwrap());
    let (mut hits, mut misses) = (0, 0);
    for case in 0..300 {
        let h = Vec3::new(
            rng.range_f64(0.05, 0.5),
            rng.range_f64(0.05, 0.5),
            rng.range_f64(0.05, 0.5),
        );
        let cuboid = Cuboid::new(Vec3::new(R::lit(h.x), R::lit(h.y), R::lit(h.z))).unwrap();
        let shape = Shape::Cuboid(cuboid);
        let mut start = rng.pose::<R>(1.0);
        start.translation.z = R::lit(rng.range_f64(1.0, 2.0));
        let mut end = moved(&mut rng, &start, 3.0, 1.0);
        end.translation.z = R::lit(rng.range_f64(-0.5, 1.5));
        let target = if rng.chance(0.5) { 0.0 } else { 0.05 };
        let cast = shape_cast(
            &Body::new(&shape, start),
            &end,
            &Body::new(&floor, Iso3::IDENTITY),
            &Iso3::IDENTITY,
            R::lit(target),
        );
        // The box's lowest corner over the floor, at `t` of its motion.
        let motion = mink::cast::Motion::new(start, end);
        let height = |t: f64| {
            let p = motion.at(R::lit(t));
            let mut low = f64::INFINITY;
            for sx in [-1.0, 1.0] {
                for sy in [-1.0, 1.0] {
                    for sz in [-1.0, 1.0] {
                        let corner = Vec3::new(h.x * sx, h.y * sy, h.z * sz);
                        low = low.min(p.transform_point(corner.cast()).z.to_f64());
                    }
                }
            }
            low
        };
        let toi = cast.toi.to_f64();
        let what = || format!("case {case}: {cast:?}, target {target}");
        let clear_until = if cast.status == CastStatus::Miss {
            1.0
        } else {
            toi
        };
        for i in 0..=SAMPLES {
            let t = clear_until * i as f64 / SAMPLES as f64;
            assert!(
                height(t) >= target - tol::<R>(),
                "{}: {} at {t}",
                what(),
                height(t)
            );
        }
        match cast.status {
            CastStatus::Hit => {
                hits += 1;
                assert!((height(toi) - target).abs() <= tol::<R>(), "{}", what());
                // The box (A) meets the floor (B) from above.
                assert!(cast.normal.z.to_f64() < -0.99, "{}", what());
            }
            CastStatus::Miss => misses += 1,
            _ => panic!("{}", what()),
        }
    }
    assert!(hits > 30 && misses > 30, "{hits} hits, {misses} misses");
}
for_each_real!(box_turning_onto_a_floor, box_onto_floor);

fn hull<R: Real>(rng: &mut Rng) -> ConvexHull<R> {
    let points = rng.points_in_ball::<R>(24, 0.5);
    ConvexHull::from_points(&points).unwrap()
}

fn turning_polytopes<R: Real>() {
    let mut rng = Rng::new(0x30_0102);
    let (mut hits, mut misses, mut initial) = (0, 0, 0);
    for case in 0..150 {
        let hull_a = hull::<R>(&mut rng);
        let a: Shape<'_, R> = Shape::Hull(hull_a.view());
        let b = if rng.chance(0.5) {
            Shape::Cuboid(Cuboid::new(Vec3::new(R::lit(0.4), R::lit(0.2), R::lit(0.1))).unwrap())
        } else {
            Shape::Sphere(Sphere::new(R::lit(0.3)).unwrap())
        };
        let start_a = rng.pose::<R>(1.5);
        let end_a = moved(&mut rng, &start_a, 3.0, 1.5);
        // B starts and ends within about a meter of A: their paths cross
        // in a good part of the cases.
        let mut start_b = rng.pose::<R>(0.0);
        start_b.translation = start_a.translation + rng.in_cube::<R>(1.2);
        let mut end_b = moved(&mut rng, &start_b, 3.0, 0.0);
        end_b.translation = end_a.translation + rng.in_cube::<R>(1.2);
        let margin = if rng.chance(0.3) { 0.02 } else { 0.0 };
        let body_a = Body::new(&a, start_a).with_margin(R::lit(margin));
        let body_b = Body::new(&b, start_b);
        let cast = shape_cast(&body_a, &end_a, &body_b, &end_b, R::ZERO);
        let swapped = shape_cast(&body_b, &end_b, &body_a, &end_a, R::ZERO);
        let (ma, mb) = (
            mink::cast::Motion::new(start_a, end_a),
            mink::cast::Motion::new(start_b, end_b),
        );
        let gap = |t: f64| {
            let pa = Body::new(&a, ma.at(R::lit(t))).with_margin(R::lit(margin));
            let pb = Body::new(&b, mb.at(R::lit(t)));
            distance(&pa, &pb, Method::Auto).distance.to_f64()
        };
        let what = || format!("case {case}: {cast:?} / swapped {swapped:?}");
        assert_eq!(cast.status, swapped.status, "{}", what());
        let toi = cast.toi.to_f64();
        assert!((toi - swapped.toi.to_f64()).abs() <= 1e-3, "{}", what());
        let clear_until = match cast.status {
            CastStatus::Miss => 1.0,
            CastStatus::Initial => -1.0,
            _ => toi,
        };
        for i in (0..=SAMPLES).filter(|_| clear_until >= 0.0) {
            let t = clear_until * i as f64 / SAMPLES as f64;
            assert!(gap(t) >= -tol::<R>(), "{}: gap {} at {t}", what(), gap(t));
        }
        match cast.status {
            CastStatus::Hit => {
                hits += 1;
                assert!(gap(toi).abs() <= tol::<R>(), "{}: gap {}", what(), gap(toi));
                let n = (cast.normal + swapped.normal).cast::<f64>().norm();
                assert!(n <= 1e-2, "{}", what());
            }
            CastStatus::Initial => {
                initial += 1;
                assert!(gap(0.0) <= tol::<R>(), "{}", what());
            }
            CastStatus::Miss => misses += 1,
            _ => panic!("{}", what()),
        }
    }
    assert!(
        hits > 15 && misses > 15,
        "{hits} hits, {misses} misses, {initial} initial"
    );
}
for_each_real!(
    turning_hulls_and_boxes_against_dense_sampling,
    turning_polytopes
);

/// A ball crossing a 1 cm plate in one step: the discrete checks at the
/// step's ends both see it apart; the cast finds the contact.
fn tunnelling<R: Real>() {
    let ball: Shape<'_, R> = Shape::Sphere(Sphere::new(R::lit(0.05)).unwrap());
    let plate =
        Shape::Cuboid(Cuboid::new(Vec3::new(R::lit(0.5), R::lit(0.5), R::lit(0.005))).unwrap());
    let at = |z: f64| Iso3::from_translation(Vec3::new(R::ZERO, R::ZERO, R::lit(z)));
    let (start, end) = (at(0.3), at(-0.3));
    let apart = |p: Iso3<R>| {
        distance(
            &Body::new(&ball, p),
            &Body::new(&plate, Iso3::IDENTITY),
            Method::Auto,
        )
        .distance
            > R::ZERO
    };
    assert!(apart(start) && apart(end));
    let cast = shape_cast(
        &Body::new(&ball, start),
        &end,
        &Body::new(&plate, Iso3::IDENTITY),
        &Iso3::IDENTITY,
        R::ZERO,
    );
    assert_eq!(cast.status, CastStatus::Hit);
    // Contact when the ball's centre is 0.055 over the plate's middle.
    let expected = (0.3 - 0.055) / 0.6;
    assert!(
        (cast.toi.to_f64() - expected).abs() <= tol::<R>(),
        "{cast:?}"
    );
    assert!((cast.normal.cast::<f64>() - Vec3::new(0.0, 0.0, -1.0)).norm() <= tol::<R>());
}
for_each_real!(a_ball_through_a_thin_plate, tunnelling);

/// Bad input: `NonFinite`; two half-spaces: `Unsupported`.
fn refused<R: Real>() {
    let ball: Shape<'_, R> = Shape::Sphere(Sphere::new(R::ONE).unwrap());
    let plane: Shape<'_, R> = Shape::HalfSpace(HalfSpace::new(Vec3::Z, R::ZERO).unwrap());
    let id = Iso3::IDENTITY;
    let nan = Iso3::from_translation(Vec3::new(R::nan(), R::ZERO, R::ZERO));
    let b = Body::new(&ball, id);
    assert_eq!(
        shape_cast(&b, &nan, &b, &id, R::ZERO).status,
        CastStatus::NonFinite
    );
    assert_eq!(
        shape_cast(&b, &id, &b, &id, -R::ONE).status,
        CastStatus::NonFinite
    );
    let bad_margin = Body::new(&ball, id).with_margin(-R::ONE);
    assert_eq!(
        shape_cast(&bad_margin, &id, &b, &id, R::ZERO).status,
        CastStatus::NonFinite
    );
    let p = Body::new(&plane, id);
    assert_eq!(
        shape_cast(&p, &id, &p, &id, R::ZERO).status,
        CastStatus::Unsupported
    );
}
for_each_real!(bad_casts_are_refused, refused);

/// Linear casts between round shapes (cylinders, cones, capsules, sizes
/// of the `casts` bench) aimed at each other as the bench aims them: each
/// ends `Hit` or `Miss`, never `IterationLimit` (cylinders touching at the
/// contact time used to leave GJK's distance unsettled there), a hit is at
/// the target within the tolerance and every sampled time before it is
/// clear, a miss is clear all along. Reference: the pair's distance
/// sampled densely along the motion. f32 and f64.
fn linear_round_pairs<R: Real>() {
    use mink::support::{Capsule, Cone, Cylinder};
    let mut rng = Rng::new(0x30_0501);
    let shapes: [Shape<'_, R>; 3] = [
        Cylinder::new(R::lit(0.4), R::lit(0.5)).unwrap().into(),
        Cone::new(R::lit(0.4), R::lit(0.5)).unwrap().into(),
        Capsule::new(R::lit(0.25), R::lit(0.5)).unwrap().into(),
    ];
    let (mut hits, mut misses) = (0, 0);
    for case in 0..600 {
        let (a, b) = (&shapes[case % 3], &shapes[(case / 3) % 3]);
        let a0 = rng.pose::<R>(1.0);
        let mut pb = rng.pose::<R>(0.0);
        let reach = 1.0;
        pb.translation = a0.translation + rng.unit_vec::<R>() * R::lit(rng.range_f64(1.5, 3.0));
        let lateral = rng.unit_vec::<R>() * R::lit(rng.range_f64(0.0, 2.5) * reach);
        let travel = (pb.translation - a0.translation + lateral) * R::lit(rng.range_f64(1.0, 2.0));
        let a1 = Iso3::from_parts(a0.rotation, a0.translation + travel);
        let target = [0.0, 1e-3][case % 2];
        let cast = shape_cast(
            &Body::new(a, a0),
            &a1,
            &Body::new(b, pb),
            &pb,
            R::lit(target),
        );
        let what = || format!("case {case}: {cast:?}");
        let motion = mink::cast::Motion::new(a0, a1);
        let gap = |t: f64| {
            distance(
                &Body::new(a, motion.at(R::lit(t))),
                &Body::new(b, pb),
                Method::Auto,
            )
            .distance
            .to_f64()
        };
        let toi = cast.toi.to_f64();
        let clear_until = match cast.status {
            CastStatus::Hit => {
                hits += 1;
                assert!(
                    (gap(toi) - target).abs() <= tol::<R>(),
                    "{}: gap {}",
                    what(),
                    gap(toi)
                );
                toi
            }
            CastStatus::Miss => {
                misses += 1;
                1.0
            }
            _ => panic!("{}", what()),
        };
        for i in 0..=200 {
            let t = clear_until * i as f64 / 200.0;
            assert!(
                gap(t) >= target - tol::<R>(),
                "{}: {} at {t}",
                what(),
                gap(t)
            );
        }
    }
    assert!(hits > 100 && misses > 30, "{hits} hits, {misses} misses");
}
for_each_real!(linear_round_pairs, linear_round_pairs);
