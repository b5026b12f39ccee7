//! The fuzz harness (`mink_islands::check::check_bytes`) over thousands of
//! seeded random byte strings: every scene and step sequence must agree
//! with the breadth-first reference and keep the sleep invariants, and the
//! cases must actually exercise sleeping and waking.

use mink_islands::check::{check_bytes, CaseStats};
use mink_support::Real;
use mink_testkit::{for_each_real, Rng};

/// Runs `cases` byte strings from `gen`; returns how many cases saw an
/// island fall asleep and how many saw a link wake.
fn run<R: Real>(seed: u64, cases: usize, zero_bias: f64) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let (mut slept, mut woke) = (0, 0);
    for case in 0..cases {
        let len = 64 + rng.below(8192);
        let data: Vec<u8> = (0..len)
            .enumerate()
            .map(|(i, _)| {
                // The header (sizes, settings) stays uniform.
                if i >= 16 && rng.chance(zero_bias) {
                    0
                } else {
                    rng.next_u64() as u8
                }
            })
            .collect();
        match check_bytes::<R>(&data) {
            Ok(CaseStats {
                slept_islands,
                woken_links,
                ..
            }) => {
                slept += (slept_islands > 0) as usize;
                woke += (woken_links > 0) as usize;
            }
            Err(m) => panic!("seed {seed} case {case}: {m}"),
        }
    }
    (slept, woke)
}

fn random_cases<R: Real>() {
    let cases = 3000;
    let (slept, woke) = run::<R>(0x15_1a_2d, cases, 0.0);
    // Uniform bytes: short and long cases, hibernation mostly on.
    assert!(
        slept > cases / 4 && slept < cases * 19 / 20,
        "cases with a sleep: {slept}"
    );
    assert!(
        woke > cases / 10 && woke < cases * 9 / 10,
        "cases with a wake: {woke}"
    );
}
for_each_real!(random_cases_agree_with_reference, random_cases);

/// Mostly-zero bytes decode into quiet scenes (decaying velocities, long
/// runs), where islands fall asleep and wake often.
fn quiet_cases<R: Real>() {
    let cases = 2000;
    let (slept, woke) = run::<R>(77, cases, 0.8);
    assert!(
        slept > cases / 4 && slept < cases * 19 / 20,
        "cases with a sleep: {slept}"
    );
    assert!(
        woke > cases / 10 && woke < cases * 9 / 10,
        "cases with a wake: {woke}"
    );
}
for_each_real!(quiet_cases_agree_with_reference, quiet_cases);
