//! `cargo xtask fuzz-smoke SECONDS`: runs every fuzz target briefly.
//!
//! Needs the nightly toolchain (libFuzzer's sanitizer coverage) and
//! cargo-fuzz, which it installs at [`CARGO_FUZZ_VERSION`] when the one on
//! `PATH` is another version. New inputs go to a scratch corpus under the
//! target directory; the committed corpus in `fuzz/corpus/<target>` is only
//! read, so a smoke run never changes the repository (except for a crash
//! artifact in `fuzz/artifacts/`, which git ignores).

use crate::run::{format_duration, Cmd, Result};
use crate::workspace::{entries, read, root, target_dir};
use std::time::Instant;

/// The cargo-fuzz version xtask installs and expects.
pub const CARGO_FUZZ_VERSION: &str = "0.13.2";

/// Runs each fuzz target for `seconds`; fails at the first target that
/// finds a crash (libFuzzer prints the input and where it saved it).
pub fn smoke(seconds: u64) -> Result {
    ensure_nightly()?;
    ensure_cargo_fuzz()?;
    let targets = fuzz_targets()?;
    let scratch = target_dir().join("fuzz-smoke");
    let start = Instant::now();
    for target in &targets {
        let corpus = root().join("fuzz").join("corpus").join(target);
        let fresh = scratch.join(target);
        std::fs::create_dir_all(&fresh)
            .map_err(|e| format!("cannot create {}: {e}", fresh.display()))?;
        Cmd::cargo_proxy()
            .args(["+nightly", "fuzz", "run", target.as_str(), "--target-dir"])
            .arg(target_dir().join("fuzz"))
            .arg(&fresh)
            .arg(&corpus)
            .arg("--")
            .arg(format!("-max_total_time={seconds}"))
            .arg("-timeout=10")
            .run()
            .map_err(|e| format!("fuzz target `{target}` failed: {e}"))?;
    }
    println!(
        "fuzz-smoke: {} target(s) ran {seconds}s each without a crash ({}): {}",
        targets.len(),
        format_duration(start.elapsed()),
        targets.join(", ")
    );
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
