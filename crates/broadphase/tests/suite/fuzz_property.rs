//! The fuzz harness, run on thousands of seeded random byte strings: every
//! path of the broad phase against brute force over random scenes, motions,
//! sleep changes, filter changes and budgets.

use mink_broadphase::fuzz::{fuzz_broadphase, FuzzSummary};
use mink_support::Real;
use mink_testkit::{for_each_real, Rng};

/// Random inputs per scalar.
const CASES: usize = 3000;

fn run<R: Real>() {
    let mut rng = Rng::new(0xb70ad);
    let mut total = FuzzSummary::default();
    let mut nonempty = 0;
    for case in 0..CASES {
        let len = rng.below(1200);
        let mut data: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        // Keep the scenes small enough for brute force but varied.
        if let Some(b) = data.get_mut(1) {
            *b %= 2;
        }
        let summary = fuzz_broadphase::<R>(&data)
            .unwrap_or_else(|m| panic!("case {case}: {m:?} (input {data:?})"));
        nonempty += usize::from(summary.pairs > 0);
        total.frames += summary.frames;
        total.pairs += summary.pairs;
        total.full_sorts += summary.full_sorts;
        total.sleeping_frames += summary.sleeping_frames;
        total.budget_errors += summary.budget_errors;
        total.invalid_frames += summary.invalid_frames;
        total.incremental_frames += summary.incremental_frames;
    }
    // The sample must exercise every path, not only empty scenes.
    assert!(
        nonempty > CASES / 2,
        "{nonempty} of {CASES} inputs found pairs"
    );
    assert!(total.frames > CASES * 3, "{total:?}");
    assert!(total.full_sorts < total.frames, "{total:?}");
    assert!(total.sleeping_frames > CASES / 4, "{total:?}");
    assert!(total.budget_errors > CASES / 20, "{total:?}");
    assert!(total.invalid_frames > CASES / 20, "{total:?}");
    assert!(total.incremental_frames > CASES / 2, "{total:?}");
}

for_each_real!(fuzz_inputs_match_brute_force, run);

/// Short and empty inputs decode too (to a one-box scene).
#[test]
fn tiny_inputs() {
    for len in 0..8 {
        let data = vec![0xffu8; len];
        fuzz_broadphase::<f32>(&data).unwrap();
        fuzz_broadphase::<f64>(&data[..len / 2]).unwrap();
    }
}
