//! Every fuzz target fuzzed on stable, within `cargo test`, for a fixed
//! budget: after the committed corpus (`fuzz_corpus.rs` replays it), each
//! target runs [`runs`] inputs made by mutating its corpus with a seeded
//! generator ([`SEED`]), the way libFuzzer mutates (bit flips, random and
//! boundary bytes, small arithmetic, inserted, erased and duplicated runs,
//! splices of two inputs), so the same build gives the same result on every
//! machine. The inputs stay near the corpus, which holds each family of
//! hard cases the targets found (coincident, nested, touching, huge and
//! tiny shapes together): this explores around them.
//!
//! It is not coverage-guided: `cargo xtask fuzz-ci` runs the same targets
//! under libFuzzer with a fixed seed and budget (nightly), and `cargo xtask
//! fuzz-smoke SECONDS` for as long as wanted. A failing input is written
//! to `target/tmp/fuzz-mutations/<target>/` and named in the failure, to
//! replay with `cargo run -p mink-tests --example replay -- <target> FILE`.
//!
//! A target with an open bug (an input under `fuzz/open-bugs/<target>/`,
//! listed in `OPEN_BUGS` in `xtask/src/fuzz.rs`) is left out, as `cargo
//! xtask fuzz-ci` leaves it out, until the bug is fixed: its mutations
//! find that bug's family again and again and would hide every other
//! failure behind it.

use mink_testkit::Rng;
use mink_tests::fuzz::{has_open_bug, TARGETS};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// The generator's seed: fixed, so a run is repeatable.
const SEED: u64 = 0x6d75_7461_7465;

/// Mutated inputs per target: sized so that all targets together (about
/// 120,000 inputs) take about half a minute in the test profile. The targets whose
/// inputs cost most (a scene stepped several frames, each frame checked
/// against brute force; hundreds of boxes in the broad phase) get fewer.
/// `MINK_MUTATION_RUNS_SCALE=N` multiplies every budget (a longer,
/// still repeatable run on stable: `MINK_MUTATION_RUNS_SCALE=100 cargo
/// test -p mink-tests --test fuzz_mutations`).
fn runs(target: &str) -> usize {
    let scale = std::env::var("MINK_MUTATION_RUNS_SCALE")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(1);
    scale * base_runs(target)
}

/// [`runs`] at scale 1.
fn base_runs(target: &str) -> usize {
    match target {
        "broadphase_pairs" => 600,
        "scene_step" => 1_500,
        "shape_cast" => 2_000,
        "sdf_build" | "contact_manifold" | "umbrella_queries" | "gjk_distance" | "ray_cast" => {
            6_000
        }
        _ => 15_000,
    }
}

/// Longest mutated input, bytes: past the largest hull input the
/// decoders read.
const MAX_LEN: usize = 4_096;

/// Bytes libFuzzer also favours: the ends of each integer range.
const BOUNDARY: [u8; 8] = [0x00, 0x01, 0x02, 0x7e, 0x7f, 0x80, 0xfe, 0xff];

/// One to four stacked mutations of `input` (`other`, another corpus
/// input, for splices).
fn mutate(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        if out.is_empty() {
            out.push(rng.next_u64() as u8);
            continue;
        }
        let at = rng.below(out.len());
        match rng.below(9) {
            0 => out[at] ^= 1 << rng.below(8),
            1 => out[at] = rng.next_u64() as u8,
            2 => out[at] = BOUNDARY[rng.below(BOUNDARY.len())],
            3 => out[at] = out[at].wrapping_add(1 + rng.below(8) as u8),
            4 => out[at] = out[at].wrapping_sub(1 + rng.below(8) as u8),
            5 => {
                let n = 1 + rng.below(8);
                for _ in 0..n {
                    out.insert(at, rng.next_u64() as u8);
                }
            }
            6 => {
                let n = (1 + rng.below(8)).min(out.len() - at);
                out.drain(at..at + n);
            }
            7 => {
                // A run of the input copied elsewhere in it.
                let n = (1 + rng.below(16)).min(out.len() - at);
                let run: Vec<u8> = out[at..at + n].to_vec();
                let to = rng.below(out.len());
                out.splice(to..to, run);
            }
            _ => {
                // Splice: this input's head, the other's tail.
                if !other.is_empty() {
                    let from = rng.below(other.len());
                    out.truncate(at);
                    out.extend_from_slice(&other[from..]);
                }
            }
        }
    }
    out.truncate(MAX_LEN);
    out
}

/// The files of a target's committed corpus, sorted by name.
fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("fuzz")
        .join("corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("corpus entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read(p).expect("corpus file"))
        .collect()
}

/// The panic message of a failed input.
fn message(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[test]
fn mutated_corpus_passes_every_target() {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-mutations");
    let mut failures = Vec::new();
    let mut total = 0;
    for (t, (target, body)) in TARGETS.iter().enumerate() {
        if has_open_bug(target) {
            eprintln!(
                "fuzz_mutations: leaving out `{target}` (open bug in fuzz/open-bugs/{target}/)"
            );
            continue;
        }
        let inputs = corpus(target);
        assert!(!inputs.is_empty(), "fuzz/corpus/{target} is empty");
        // One stream per target, so a target's inputs do not depend on how
        // many the others ran.
        let mut rng = Rng::new(SEED ^ (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut failed = 0;
        for run in 0..runs(target) {
            let input = &inputs[rng.below(inputs.len())];
            let other = &inputs[rng.below(inputs.len())];
            let bytes = mutate(&mut rng, input, other);
            total += 1;
            if let Err(e) = catch_unwind(AssertUnwindSafe(|| body(&bytes))) {
                failed += 1;
                let dir = scratch.join(target);
                std::fs::create_dir_all(&dir).expect("scratch directory");
                let file = dir.join(format!("mutation-{run}"));
                std::fs::write(&file, &bytes).expect("failing input");
                // The first failures of each target are enough to start.
                if failed <= 3 {
                    failures.push(format!("{target}: {} ({})", message(&*e), file.display()));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing input(s) out of {total}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The mutator changes inputs, keeps them within [`MAX_LEN`], and is the
/// same for the same seed.
#[test]
fn mutator_is_deterministic_and_bounded() {
    let input: Vec<u8> = (0..200u8).collect();
    let other: Vec<u8> = (0..100u8).rev().collect();
    let run = || {
        let mut rng = Rng::new(SEED);
        (0..500)
            .map(|_| mutate(&mut rng, &input, &other))
            .collect::<Vec<_>>()
    };
    let (first, second) = (run(), run());
    assert_eq!(first, second);
    let changed = first.iter().filter(|m| **m != input).count();
    assert!(changed > 450, "{changed} of 500 changed");
    assert!(first.iter().all(|m| m.len() <= MAX_LEN));
    assert!(first.iter().any(|m| m.len() > input.len()));
    assert!(first.iter().any(|m| m.len() < input.len()));
}
