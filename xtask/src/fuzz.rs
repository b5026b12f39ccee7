//! The fuzz commands: every cargo-fuzz target in `fuzz/Cargo.toml`, built
//! once and run one after the other, with every failure reported at the end
//! (a failing target does not stop the others).
//!
//! - `cargo xtask fuzz-smoke SECONDS [TARGET ...]`: each target for
//!   `SECONDS` of wall time, from the committed corpus. For looking for new
//!   failures; the number of inputs tried depends on the machine.
//! - `cargo xtask fuzz-ci`: each target for a fixed number of inputs with a
//!   fixed seed ([`CI_RUNS`], [`CI_SEED`]) after replaying the committed
//!   corpus, so the same build gives the same result on every machine.
//!   Not a step of `cargo xtask ci` (its nightly build of every target
//!   takes about half an hour on two cores); CI fuzzes every target on
//!   stable instead, for a fixed budget of corpus mutations
//!   (`tests/tests/fuzz_mutations.rs`).
//!
//! Both need the nightly toolchain (libFuzzer's coverage instrumentation)
//! and cargo-fuzz, installed at [`CARGO_FUZZ_VERSION`] when the one on
//! `PATH` is another version. The targets are built without a sanitizer
//! (`-s none`): the harnesses and the library are safe Rust, so the address
//! sanitizer would find nothing the panics do not, at several times the cost
//! per input; debug assertions are on, so overflow checks and the library's
//! invariant checks run. New inputs go to a scratch corpus under the target
//! directory; the committed corpus in `fuzz/corpus/<target>` is only read, so
//! a run never changes the repository (a failing input is saved in
//! `fuzz/artifacts/<target>/`, which git ignores).

use crate::run::{format_duration, Cmd, Result};
use crate::workspace::{entries, read, root, target_dir};
use std::path::PathBuf;
use std::time::Instant;

/// The cargo-fuzz version xtask installs and expects.
pub const CARGO_FUZZ_VERSION: &str = "0.13.2";

/// Inputs each target runs under `fuzz-ci`, after the corpus replay. Sized
/// so that all targets together take a few minutes on a two-core machine;
/// a target's inputs cost from microseconds (the parsers) to a millisecond
/// (a scene step), so the budget is in runs, not seconds, to stay
/// deterministic.
pub const CI_RUNS: u64 = 20_000;

/// Targets whose inputs cost far more than the others', with their own
/// `fuzz-ci` budget: the broad phase's (a scene of up to hundreds of boxes
/// over several frames, each against brute force) run at about 80 a
/// second where the others run thousands.
pub const CI_RUNS_BY_TARGET: &[(&str, u64)] = &[("broadphase_pairs", 2_000)];

/// The `fuzz-ci` budget of `target`: [`CI_RUNS_BY_TARGET`], else [`CI_RUNS`].
fn ci_runs(target: &str) -> u64 {
    CI_RUNS_BY_TARGET
        .iter()
        .find(|(t, _)| *t == target)
        .map_or(CI_RUNS, |(_, runs)| *runs)
}

/// libFuzzer's seed under `fuzz-ci`: fixed, so a run is repeatable.
pub const CI_SEED: u64 = 20_261_205;

/// A bound on one target's wall time under `fuzz-ci`, seconds: reached only
/// if a target became far slower than its budget was sized for, and then
/// reported as a failure (the run would no longer be the fixed budget).
pub const CI_MAX_SECONDS: u64 = 240;

/// Seconds after which libFuzzer calls a single input a hang (a failure).
const INPUT_TIMEOUT_SECONDS: u64 = 10;

/// Targets `fuzz-ci` leaves out, each with the open library bug its oracle
/// finds within seconds (inputs in `fuzz/open-bugs/<target>/`). A target
/// leaves this list when its bugs are fixed; `fuzz-smoke` runs them all.
pub const OPEN_BUGS: &[(&str, &str)] = &[];

/// How long each target runs.
#[derive(Clone, Copy, Debug)]
enum Budget {
    /// Wall-clock seconds, random seed: looking for new failures.
    Seconds(u64),
    /// A fixed number of inputs ([`ci_runs`]) and a fixed seed: repeatable.
    Runs { seed: u64 },
}

/// `cargo xtask fuzz-smoke SECONDS [TARGET ...]`: each named target (every
/// target when none is named) for `SECONDS`; fails when any target failed,
/// naming all of them.
pub fn smoke(seconds: u64, only: &[&str]) -> Result {
    run_targets(Budget::Seconds(seconds), only)
}

/// `cargo xtask fuzz-ci`: every target but those of [`OPEN_BUGS`] for
/// [`ci_runs`] inputs with seed [`CI_SEED`] after its committed corpus;
/// fails when any target failed.
pub fn ci() -> Result {
    let all = fuzz_targets()?;
    for (target, bug) in OPEN_BUGS {
        eprintln!("fuzz-ci: leaving out `{target}` (open bug: {bug})");
    }
    let clean: Vec<&str> = all
        .iter()
        .map(String::as_str)
        .filter(|t| !OPEN_BUGS.iter().any(|(open, _)| open == t))
        .collect();
    run_targets(Budget::Runs { seed: CI_SEED }, &clean)
}

/// Builds the targets once, runs each within `budget`, and reports every
/// failure at the end.
fn run_targets(budget: Budget, only: &[&str]) -> Result {
    ensure_nightly()?;
    ensure_cargo_fuzz()?;
    let all = fuzz_targets()?;
    for name in only {
        if !all.iter().any(|t| t == name) {
            return Err(format!(
                "no fuzz target `{name}`; the targets are: {}",
                all.join(", ")
            ));
        }
    }
    let targets: Vec<&String> = all
        .iter()
        .filter(|t| only.is_empty() || only.contains(&t.as_str()))
        .collect();

    let start = Instant::now();
    build()?;
    let build_time = start.elapsed();
    let scratch = target_dir().join("fuzz-corpus");
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for target in &targets {
        let t = Instant::now();
        match run_one(target, budget, &scratch) {
            Ok(()) => report.push(format!("{target} ok ({})", format_duration(t.elapsed()))),
            Err(e) => {
                report.push(format!(
                    "{target} FAILED ({})",
                    format_duration(t.elapsed())
                ));
                failures.push(format!("`{target}`: {e}"));
            }
        }
    }
    let what = match budget {
        Budget::Seconds(s) => format!("{s}s each"),
        Budget::Runs { seed } => format!("corpus + {CI_RUNS} inputs each (or as set), seed {seed}"),
    };
    eprintln!(
        "\nfuzz: {} target(s), {what}; build {}, total {}:\n  {}",
        targets.len(),
        format_duration(build_time),
        format_duration(start.elapsed()),
        report.join("\n  ")
    );
    if failures.is_empty() {
        println!("fuzz: {} target(s) passed", targets.len());
        Ok(())
    } else {
        Err(format!(
            "{} of {} fuzz target(s) failed (the failing inputs are in fuzz/artifacts/):\n  {}",
            failures.len(),
            targets.len(),
            failures.join("\n  ")
        ))
    }
}

/// The flags every build and run shares: no sanitizer, debug assertions on,
/// [`CODEGEN_UNITS`], a target directory of its own (the coverage
/// instrumentation makes every artifact different from the workspace's).
fn cargo_fuzz(subcommand: &str) -> Cmd {
    Cmd::cargo_proxy()
        .args(["+nightly", "fuzz", subcommand, "--sanitizer", "none"])
        .arg("--debug-assertions")
        .args(["--codegen-units", CODEGEN_UNITS])
        .arg("--target-dir")
        .arg(fuzz_target_dir())
}

/// Codegen units of the fuzz build. cargo-fuzz's default is 1, which
/// compiles each of the two largest crates (the harnesses and mink-query,
/// every shape pair in both scalars) on one core; with 16 both cores work
/// on them, for inputs that run a little slower.
const CODEGEN_UNITS: &str = "16";

/// Where the fuzz builds go.
fn fuzz_target_dir() -> PathBuf {
    target_dir().join("fuzz")
}

/// Builds every target in one cargo invocation (the harness crate once).
fn build() -> Result {
    cargo_fuzz("build")
        .run()
        .map_err(|e| format!("building the fuzz targets failed: {e}"))
}

/// Runs one target within `budget`: a fresh scratch corpus (so a fixed-seed
/// run starts from the committed corpus alone) and the committed corpus.
fn run_one(target: &str, budget: Budget, scratch: &std::path::Path) -> Result {
    let corpus = root().join("fuzz").join("corpus").join(target);
    let fresh = scratch.join(target);
    if matches!(budget, Budget::Runs { .. }) && fresh.exists() {
        std::fs::remove_dir_all(&fresh)
            .map_err(|e| format!("cannot clear {}: {e}", fresh.display()))?;
    }
    std::fs::create_dir_all(&fresh)
        .map_err(|e| format!("cannot create {}: {e}", fresh.display()))?;
    let artifacts = root().join("fuzz").join("artifacts").join(target);
    std::fs::create_dir_all(&artifacts)
        .map_err(|e| format!("cannot create {}: {e}", artifacts.display()))?;
    let mut libfuzzer = vec![
        format!("-timeout={INPUT_TIMEOUT_SECONDS}"),
        format!("-artifact_prefix={}/", artifacts.display()),
        "-print_final_stats=1".to_string(),
    ];
    match budget {
        Budget::Seconds(s) => libfuzzer.push(format!("-max_total_time={s}")),
        Budget::Runs { seed } => {
            libfuzzer.push(format!("-runs={}", ci_runs(target)));
            libfuzzer.push(format!("-seed={seed}"));
            libfuzzer.push(format!("-max_total_time={CI_MAX_SECONDS}"));
        }
    }
    let start = Instant::now();
    cargo_fuzz("run")
        .arg(target)
        .arg(&fresh)
        .arg(&corpus)
        .arg("--")
        .args(&libfuzzer)
        .run()?;
    if matches!(budget, Budget::Runs { .. }) && start.elapsed().as_secs() >= CI_MAX_SECONDS {
        return Err(format!(
            "did not finish its {} inputs within {CI_MAX_SECONDS}s: \
             lower its cost per input or its budget in xtask/src/fuzz.rs",
            ci_runs(target)
        ));
    }
    Ok(())
}

/// The fuzz targets: the `[[bin]]` names in `fuzz/Cargo.toml`.
pub fn fuzz_targets() -> Result<Vec<String>> {
    let text = read(&root().join("fuzz").join("Cargo.toml"))?;
    let names: Vec<String> = entries(&text)
        .filter(|(section, key, _)| section == "bin" && key == "name")
        .map(|(_, _, v)| v.trim_matches('"').to_string())
        .collect();
    if names.is_empty() {
        return Err("fuzz/Cargo.toml declares no [[bin]] fuzz targets".into());
    }
    Ok(names)
}

/// Installs the nightly toolchain (minimal profile) if rustup lacks it.
fn ensure_nightly() -> Result {
    if Cmd::new("rustup")
        .args(["run", "nightly", "rustc", "--version"])
        .stdout()
        .is_some()
    {
        return Ok(());
    }
    Cmd::new("rustup")
        .args(["toolchain", "install", "nightly", "--profile", "minimal"])
        .run()
        .map_err(|e| format!("fuzzing needs the nightly toolchain, and installing it failed: {e}"))
}

/// Installs cargo-fuzz [`CARGO_FUZZ_VERSION`] unless `cargo fuzz --version`
/// already reports it.
fn ensure_cargo_fuzz() -> Result {
    let reported = Cmd::cargo_proxy().args(["fuzz", "--version"]).stdout();
    if reported
        .as_deref()
        .is_some_and(|v| v.split_whitespace().any(|w| w == CARGO_FUZZ_VERSION))
    {
        return Ok(());
    }
    Cmd::cargo_proxy()
        .args([
            "install",
            "cargo-fuzz",
            "--version",
            CARGO_FUZZ_VERSION,
            "--locked",
        ])
        .run()
}
