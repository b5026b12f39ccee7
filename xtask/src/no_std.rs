//! `cargo xtask no-std`: proves the core needs neither `std` nor `alloc`.
//!
//! 1. Installs the bare-metal targets with `rustup target add` if missing.
//! 2. Builds every library crate with default features off for each target
//!    (warnings denied): a crate that names `std` cannot build there at all.
//! 3. Checks every library crate with each feature an embedded user turns
//!    on without `std` ([`EMBEDDED_FEATURES`], where the crate has it), for
//!    each target and for [`CHECK_ONLY_TARGETS`] (another microcontroller
//!    architecture, checked without linking), warnings denied; and the
//!    features that need `std` ([`HOST_ONLY_FEATURES`]) on the host without
//!    the crates' own `std`.
//! 4. Builds and links `xtask/no-std-probe`, a `#![no_std]`, `#![no_main]`
//!    binary with its own panic handler and no global allocator that calls
//!    the core API of every library crate, for each target. Linking fails if
//!    anything in the graph pulls in `std` (no such crate for the target) or
//!    `alloc` (no global allocator).

use crate::run::{Cmd, Result};
use crate::workspace::{library_crates, read, root, target_dir};
use std::path::Path;

/// The bare-metal targets: Cortex-M4F (hardware f32, software f64) and
/// Cortex-M0 (no FPU, no atomic compare-and-swap).
pub const TARGETS: &[&str] = &["thumbv7em-none-eabihf", "thumbv6m-none-eabi"];

/// Features an embedded user turns on without `std`, each checked alone
/// (default features off) on every bare-metal target, for every library
/// crate that has it.
pub const EMBEDDED_FEATURES: &[&str] = &["alloc", "defmt", "glam", "serde"];

/// Features that need `std` through their dependency (the `arbitrary`
/// crate is not `no_std`): checked on the host, default features off, so
/// that the feature itself brings what it needs.
pub const HOST_ONLY_FEATURES: &[&str] = &["arbitrary"];

/// Bare-metal targets the library crates are checked for (default
/// features off, then each of [`EMBEDDED_FEATURES`]) but the probe is not
/// linked for: RISC-V microcontrollers (no atomics, no FPU).
pub const CHECK_ONLY_TARGETS: &[&str] = &["riscv32imc-unknown-none-elf"];

/// The probe package, relative to the workspace root.
const PROBE_DIR: &str = "xtask/no-std-probe";

/// Runs the stages above; each failure says which stage and why.
pub fn run() -> Result {
    ensure_targets()?;
    let crates = library_crates()?;
    let names: Vec<&str> = crates.iter().map(|(n, _)| n.as_str()).collect();
    check_probe_covers(&names)?;
    check_probe_lock()?;
    let rustflags = deny_warnings_rustflags();
    for target in TARGETS {
        let mut cmd = Cmd::cargo().arg("build");
        for name in &names {
            cmd = cmd.args(["-p", name]);
        }
        let cmd = cmd
            .args(["--no-default-features", "--target", target])
            .env("RUSTFLAGS", &rustflags)
            .locked_in_ci();
        run_diagnosed(
            cmd,
            &format!("the library crates do not build for {target} with default features off"),
        )?;
    }
    feature_matrix(&crates, &rustflags)?;
    let probe_target_dir = target_dir().join("no-std-probe");
    let manifest = root().join(PROBE_DIR).join("Cargo.toml");
    for target in TARGETS {
        build_probe(&manifest, target, &probe_target_dir, &rustflags)?;
    }
    Cmd::cargo()
        .args(["clippy", "--manifest-path"])
        .arg(&manifest)
        .args(["--target", TARGETS[0], "--target-dir"])
        .arg(&probe_target_dir)
        .locked_in_ci()
        .args(["--", "-D", "warnings"])
        .run()?;
    println!(
        "no-std: {} library crates build for {} with default features off and with each of {} \
         (also checked for {}), and the probe links without std or alloc",
        names.len(),
        TARGETS.join(" and "),
        EMBEDDED_FEATURES.join(", "),
        CHECK_ONLY_TARGETS.join(", ")
    );
    Ok(())
}

/// Stage 3: `cargo check` of the library crates on every bare-metal target
/// with default features off (for the check-only targets, which stage 2
/// did not build) and with each embedded feature alone, enabled on every
/// crate that declares it; the host-only features on the host.
fn feature_matrix(crates: &[(String, std::path::PathBuf)], rustflags: &str) -> Result {
    let declared: Vec<(&str, Vec<String>)> = crates
        .iter()
        .map(|(name, dir)| {
            let text = read(&dir.join("Cargo.toml"))?;
            let features = crate::workspace::entries(&text)
                .filter(|(section, _, _)| section == "features")
                .map(|(_, key, _)| key)
                .collect();
            Ok((name.as_str(), features))
        })
        .collect::<Result<_>>()?;
    let check = |target: Option<&str>, feature: Option<&str>| -> Result {
        let with: Vec<&str> = declared
            .iter()
            .filter(|(_, features)| feature.is_none_or(|f| features.iter().any(|d| d == f)))
            .map(|(name, _)| *name)
            .collect();
        if with.is_empty() {
            return Ok(());
        }
        let mut cmd = Cmd::cargo().arg("check");
        for name in &with {
            cmd = cmd.args(["-p", name]);
        }
        cmd = cmd.arg("--no-default-features");
        if let Some(f) = feature {
            let list: Vec<String> = with.iter().map(|name| format!("{name}/{f}")).collect();
            cmd = cmd.args(["--features", &list.join(",")]);
        }
        if let Some(t) = target {
            cmd = cmd.args(["--target", t]);
        }
        let what = format!(
            "the library crates do not build for {} with {}",
            target.unwrap_or("the host"),
            feature.map_or("default features off".to_string(), |f| format!(
                "feature `{f}` (default features off)"
            ))
        );
        run_diagnosed(cmd.env("RUSTFLAGS", rustflags).locked_in_ci(), &what)
    };
    for target in CHECK_ONLY_TARGETS {
        check(Some(target), None)?;
    }
    for target in TARGETS.iter().chain(CHECK_ONLY_TARGETS) {
        for feature in EMBEDDED_FEATURES {
            check(Some(target), Some(feature))?;
        }
    }
    for feature in HOST_ONLY_FEATURES {
        check(None, Some(feature))?;
    }
    Ok(())
}

/// `$RUSTFLAGS` plus `-D warnings`: a warning in a crate's no-std build (an
/// import used only with `std`, say) fails the check.
fn deny_warnings_rustflags() -> String {
    let existing = std::env::var("RUSTFLAGS").unwrap_or_default();
    format!("{existing} -D warnings").trim().to_string()
}

/// Adds the targets rustup does not list as installed.
fn ensure_targets() -> Result {
    let installed = Cmd::new("rustup")
        .args(["target", "list", "--installed"])
        .stdout()
        .ok_or(
            "`rustup target list --installed` failed: the no-std check needs rustup to add the \
             bare-metal targets",
        )?;
    let missing: Vec<&str> = TARGETS
        .iter()
        .chain(CHECK_ONLY_TARGETS)
        .copied()
        .filter(|t| !installed.lines().any(|l| l.trim() == *t))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Cmd::new("rustup")
        .args(["target", "add"])
        .args(&missing)
        .run()
}

/// Fails when a library crate is missing from the probe's dependencies, or
/// is there without `default-features = false`: the probe must link all of
/// them as `no_std` users get them.
fn check_probe_covers(names: &[&str]) -> Result {
    let path = root().join(PROBE_DIR).join("Cargo.toml");
    let text = read(&path)?;
    for name in names {
        let dep = crate::workspace::value(&text, "dependencies", name).ok_or_else(|| {
            format!(
                "{} does not depend on library crate `{name}`: add it (with \
                 `default-features = false`) and call its core API from the probe",
                path.display()
            )
        })?;
        let compact: String = dep.chars().filter(|c| !c.is_whitespace()).collect();
        if !compact.contains("default-features=false") {
            return Err(format!(
                "{}: the dependency on `{name}` must set `default-features = false`",
                path.display()
            ));
        }
    }
    Ok(())
}

/// Fails when the probe's `Cargo.lock` pins a registry crate at a version
/// the workspace's `Cargo.lock` does not have: the probe must check the
/// dependency versions the libraries are really built with.
fn check_probe_lock() -> Result {
    let probe_lock = root().join(PROBE_DIR).join("Cargo.lock");
    let probe = read(&probe_lock)?;
    let workspace = lock_packages(&read(&root().join("Cargo.lock"))?);
    for (name, version) in lock_packages(&probe) {
        if !workspace.contains(&(name.clone(), version.clone())) {
            let theirs: Vec<&str> = workspace
                .iter()
                .filter(|(n, _)| *n == name)
                .map(|(_, v)| v.as_str())
                .collect();
            return Err(format!(
                "{} pins {name} {version}, but the workspace's Cargo.lock has {}: run `cargo \
                 update --manifest-path {PROBE_DIR}/Cargo.toml -p {name} --precise <version>` \
                 and commit the probe's Cargo.lock",
                probe_lock.display(),
                if theirs.is_empty() {
                    "none".to_string()
                } else {
                    theirs.join(", ")
                }
            ));
        }
    }
    Ok(())
}

/// The `(name, version)` of every registry package in a `Cargo.lock` (path
/// packages, which have no `source`, are left out).
fn lock_packages(lock: &str) -> Vec<(String, String)> {
    lock.split("[[package]]")
        .filter(|block| block.contains("\nsource = "))
        .filter_map(|block| {
            let field = |key: &str| {
                block.lines().find_map(|l| {
                    l.strip_prefix(key).map(|v| {
                        v.trim_start_matches([' ', '='])
                            .trim()
                            .trim_matches('"')
                            .to_string()
                    })
                })
            };
            Some((field("name")?, field("version")?))
        })
        .collect()
}

/// Builds and links the probe for `target`; on failure, tells whether
/// `std` or `alloc` got in, from the compiler's messages.
fn build_probe(manifest: &Path, target: &str, target_dir: &Path, rustflags: &str) -> Result {
    let cmd = Cmd::cargo()
        .args(["build", "--release", "--manifest-path"])
        .arg(manifest)
        .args(["--target", target, "--target-dir"])
        .arg(target_dir)
        .env("RUSTFLAGS", rustflags)
        .locked_in_ci();
    run_diagnosed(cmd, &format!("no-std probe failed for {target}"))
}

/// Runs `cmd`; on failure, an error that starts with `what` and says why
/// ([`diagnose`]).
fn run_diagnosed(cmd: Cmd, what: &str) -> Result {
    let (ok, stderr) = cmd.run_keeping_stderr()?;
    if ok {
        Ok(())
    } else {
        Err(format!("{what}: {}", diagnose(&stderr)))
    }
}

/// Says, from the compiler's messages, why a no-std build failed: `std` or
/// `alloc` got in, the link failed, or something else did not compile.
fn diagnose(stderr: &str) -> &'static str {
    if stderr.contains("--locked was passed") {
        "a Cargo.lock is stale (a library's dependencies changed): run `cargo xtask no-std` \
         without CI set, which updates xtask/no-std-probe/Cargo.lock (and the root one), and \
         commit them"
    } else if stderr.contains("can't find crate for `std`") {
        "`std` is linked: a library crate uses `std` (or enables a dependency's `std` feature) \
         with default features off; the error above names the crate and line. Put that code \
         behind the crate's `std` feature"
    } else if stderr.contains("no global memory allocator found") {
        "`alloc` is linked: a library crate uses `alloc` (`extern crate alloc`, `Vec`, `Box`...) \
         with default features off, and the probe has no allocator. Put that code behind the \
         crate's `alloc` feature"
    } else if stderr.contains("can't find crate for `alloc`") {
        "`alloc` is used by a library crate with default features off; put that code behind \
         the crate's `alloc` feature"
    } else if stderr.contains("linking with") || stderr.contains("rust-lld") {
        "the code compiled but did not link (see the linker output above)"
    } else {
        "see the compiler errors above (a warning counts: RUSTFLAGS has -D warnings); if the \
         probe no longer compiles, the core API it calls changed: update xtask/no-std-probe/src"
    }
}
