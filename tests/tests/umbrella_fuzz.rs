//! The umbrella crate's fuzz harnesses (`umbrella_queries`,
//! `contact_manifold`, `scene_step`) on seeded random inputs: no check
//! fails, the inputs reach every regime often (so a passing corpus means
//! something), and the certificates reject answers that are wrong.

use mink::query::{Algorithm, Proximity, Status};
use mink::support::{Cuboid, Iso3, Real, Sphere, Vec3};
use mink::{distance, Body, Method, Shape};
use mink_testkit::Rng;
use mink_tests::fuzz::contact_manifold::{self, ManifoldOutcome};
use mink_tests::fuzz::scene_step::{self, SceneOutcome};
use mink_tests::fuzz::shape_cast::{self, CastOutcome};
use mink_tests::fuzz::shapes::{rel_tol, Placed};
use mink_tests::fuzz::umbrella_queries::{self, certify, QueryOutcome};

fn random_bytes(rng: &mut Rng, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

fn queries_reach_both_regimes<R: Real>() {
    let mut rng = Rng::new(0x0b5e_55ed);
    let mut counts = [0usize; 4];
    for _ in 0..1_500 {
        let bytes = random_bytes(&mut rng, 160);
        match umbrella_queries::check_bytes::<R>(&bytes) {
            Ok(QueryOutcome::Refused) => counts[0] += 1,
            Ok(QueryOutcome::Separated) => counts[1] += 1,
            Ok(QueryOutcome::Overlapping) => counts[2] += 1,
            Ok(QueryOutcome::Unsupported) => counts[3] += 1,
            Err(e) => panic!("{e}: {bytes:?}"),
        }
    }
    assert!(counts[1] > 300 && counts[2] > 300, "{counts:?}");
}

#[test]
fn queries_reach_both_regimes_f32() {
    queries_reach_both_regimes::<f32>();
}

#[test]
fn queries_reach_both_regimes_f64() {
    queries_reach_both_regimes::<f64>();
}

fn casts_reach_every_regime<R: Real>() {
    let mut rng = Rng::new(0xca57_0030);
    let mut counts = [0usize; 6];
    for _ in 0..1_000 {
        let bytes = random_bytes(&mut rng, 160);
        match shape_cast::check_bytes::<R>(&bytes) {
            Ok(CastOutcome::Refused) => counts[0] += 1,
            Ok(CastOutcome::Unsupported) => counts[1] += 1,
            Ok(CastOutcome::Initial) => counts[2] += 1,
            Ok(CastOutcome::Hit) => counts[3] += 1,
            Ok(CastOutcome::Miss) => counts[4] += 1,
            Ok(CastOutcome::IterationLimit) => counts[5] += 1,
            Err(e) => panic!("{e}: {bytes:?}"),
        }
    }
    eprintln!("cast outcomes {counts:?}");
    assert!(
        counts[2] > 100 && counts[3] > 100 && counts[4] > 100,
        "{counts:?}"
    );
}

#[test]
fn casts_reach_every_regime_f32() {
    casts_reach_every_regime::<f32>();
}

#[test]
fn casts_reach_every_regime_f64() {
    casts_reach_every_regime::<f64>();
}

fn manifolds_reach_both_regimes<R: Real>() {
    let mut rng = Rng::new(0x3a41_f01d);
    let mut counts = [0usize; 3];
    for _ in 0..1_500 {
        let bytes = random_bytes(&mut rng, 160);
        match contact_manifold::check_bytes::<R>(&bytes) {
            Ok(ManifoldOutcome::Refused) => counts[0] += 1,
            Ok(ManifoldOutcome::Empty) => counts[1] += 1,
            Ok(ManifoldOutcome::Contacts) => counts[2] += 1,
            Err(e) => panic!("{e}: {bytes:?}"),
        }
    }
    assert!(counts[1] > 200 && counts[2] > 300, "{counts:?}");
}

#[test]
fn manifolds_reach_both_regimes_f32() {
    manifolds_reach_both_regimes::<f32>();
}

#[test]
fn manifolds_reach_both_regimes_f64() {
    manifolds_reach_both_regimes::<f64>();
}

fn scenes_have_contacts<R: Real>() {
    let mut rng = Rng::new(0x5ce7_e000);
    let mut counts = [0usize; 3];
    for _ in 0..300 {
        let bytes = random_bytes(&mut rng, 400);
        match scene_step::check_bytes::<R>(&bytes) {
            Ok(SceneOutcome::Refused) => counts[0] += 1,
            Ok(SceneOutcome::NoContact) => counts[1] += 1,
            Ok(SceneOutcome::Contacts) => counts[2] += 1,
            Err(e) => panic!("{e}: {bytes:?}"),
        }
    }
    assert!(counts[2] > 60, "{counts:?}");
}

#[test]
fn scenes_have_contacts_f32() {
    scenes_have_contacts::<f32>();
}

#[test]
fn scenes_have_contacts_f64() {
    scenes_have_contacts::<f64>();
}

/// A box and a sphere apart, and overlapping: the exact answers pass
/// [`certify`]; a distance 1% off, a flipped normal, a witness moved off
/// its shape, a depth that does not separate, all fail it.
#[test]
fn certify_rejects_wrong_answers() {
    let cube: Shape<'_, f64> = Cuboid::new(Vec3::new(0.5, 0.4, 0.3)).unwrap().into();
    let ball: Shape<'_, f64> = Sphere::new(0.25).unwrap().into();
    let pose_a = Iso3::IDENTITY;
    for (x, apart) in [(1.0, true), (0.6, false)] {
        let a = Placed {
            shape: &cube,
            pose: pose_a,
            margin: 0.0,
        };
        let b = Placed {
            shape: &ball,
            pose: Iso3::from_translation(Vec3::new(x, 0.1, 0.0)),
            margin: 0.0,
        };
        let tol = rel_tol::<f64>() * 2.0;
        let d = distance(
            &Body::new(a.shape, a.pose),
            &Body::new(b.shape, b.pose),
            Method::Auto,
        );
        assert_eq!(d.distance > 0.0, apart);
        certify(&d, &a, &b, tol, "exact").unwrap();
        let wrong: [Proximity<f64>; 4] = [
            Proximity {
                distance: d.distance * 1.01,
                p_b: d.p_b + d.normal * (d.distance * 0.01),
                ..d
            },
            Proximity {
                normal: -d.normal,
                ..d
            },
            Proximity {
                p_a: d.p_a + Vec3::new(0.0, 0.0, 0.5),
                p_b: d.p_b + Vec3::new(0.0, 0.0, 0.5),
                ..d
            },
            Proximity {
                distance: d.distance - 0.05,
                p_a: d.p_a + d.normal * 0.05,
                algorithm: Algorithm::Analytic,
                status: Status::Exact,
                ..d
            },
        ];
        for (i, w) in wrong.iter().enumerate() {
            assert!(
                certify(w, &a, &b, tol, "wrong").is_err(),
                "case {i} ({apart}) passed: {w:?}"
            );
        }
    }
}
