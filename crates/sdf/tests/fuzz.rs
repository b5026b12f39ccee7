//! The fuzz harness over thousands of seeded random byte strings and over
//! structured inputs for every mesh kind and mutation: no failure, and the
//! inputs reach both the refusals and the full checks.

use mink_sdf::fuzz::{check_bytes, fuzz_one_input, FuzzOutcome};
use mink_testkit::Rng;

#[test]
fn random_bytes_pass_the_checks() {
    let mut rng = Rng::new(0x5df);
    let (mut built, mut refused) = (0, 0);
    for _ in 0..3_000 {
        let len = rng.below(96);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        match fuzz_one_input(&bytes) {
            Ok(FuzzOutcome::Built) => built += 1,
            Ok(FuzzOutcome::Refused(_)) => refused += 1,
            Err(e) => panic!("{e:?} on {bytes:?}"),
        }
    }
    assert!(
        built > 1_000 && refused > 300,
        "built {built}, refused {refused}"
    );
}

#[test]
fn every_kind_and_mutation_is_checked() {
    let mut rng = Rng::new(77);
    for kind in 0..6u8 {
        for mutation in 0..16u8 {
            let mut seen_built = false;
            for _ in 0..8 {
                let mut bytes = vec![kind, mutation];
                bytes.extend((0..80).map(|_| rng.next_u64() as u8));
                match check_bytes::<f64>(&bytes) {
                    Ok(FuzzOutcome::Built) => seen_built = true,
                    Ok(FuzzOutcome::Refused(_)) => {}
                    Err(e) => panic!("kind {kind}, mutation {mutation}: {e:?}"),
                }
                check_bytes::<f32>(&bytes).unwrap();
            }
            // Unmutated procedural meshes always build.
            if kind < 5 && matches!(mutation, 0..=3 | 14 | 15) {
                assert!(seen_built, "kind {kind} never built");
            }
        }
    }
}
