//! `cargo xtask ci`: every check CI makes, in order, stopping at the first
//! failure. `.ci/run` installs the toolchain pieces and runs this.
//!
//! The last step, `firmware`, runs only under CI (`CI=true`, see
//! [`ci_mode`]): it installs QEMU with `scripts/install-qemu.sh` when it is
//! missing (apt-get, about 20 s), then runs `cargo xtask firmware`, which
//! fails when an answer is off or the flash or stack is over its budget
//! (about 1.5 min from a cold build). Locally, run `cargo xtask firmware`.

use crate::run::{ci_mode, format_duration, Cmd, Result};
use crate::workspace::root;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One named CI step.
struct Step {
    /// Short name shown in the progress banner and the summary.
    name: &'static str,
    /// Runs the step.
    run: fn() -> Result,
}

/// The steps, in the order they run: cheap checks first, so a formatting
/// slip fails in seconds rather than after the test build.
const STEPS: &[Step] = &[
    Step {
        name: "fmt",
        run: fmt,
    },
    Step {
        name: "lockfiles",
        run: lockfiles,
    },
    Step {
        name: "clippy",
        run: clippy,
    },
    Step {
        name: "test",
        run: test,
    },
    Step {
        name: "test-no-default-features",
        run: test_no_default_features,
    },
    Step {
        name: "doc",
        run: doc,
    },
    Step {
        name: "no-std",
        run: crate::no_std::run,
    },
    Step {
        name: "msrv",
        run: crate::msrv::run,
    },
    Step {
        name: "package",
        run: crate::package::run,
    },
    Step {
        name: "firmware",
        run: firmware,
    },
];

/// Runs every step; on the first failure, returns an error naming the step.
/// Ends with a one-line summary of the steps and their durations.
pub fn run() -> Result {
    let start = Instant::now();
    let mut timings = Vec::new();
    for (i, step) in STEPS.iter().enumerate() {
        eprintln!("\n==> ci [{}/{}] {}", i + 1, STEPS.len(), step.name);
        let t = Instant::now();
        if let Err(e) = (step.run)() {
            return Err(format!(
                "ci step `{}` failed after {}: {e}\n       fix it, then run `cargo xtask ci` again",
                step.name,
                format_duration(t.elapsed())
            ));
        }
        timings.push(format!("{} {}", step.name, format_duration(t.elapsed())));
    }
    println!(
        "\nci: all {} steps passed in {} ({})",
        STEPS.len(),
        format_duration(start.elapsed()),
        timings.join(", ")
    );
    Ok(())
}

/// `cargo fmt --all --check` for the workspace, and `rustfmt --check` for the
/// standalone packages outside it (the no-std probe and the fuzz targets).
fn fmt() -> Result {
    Cmd::cargo().args(["fmt", "--all", "--check"]).run()?;
    let root = root();
    let mut files = Vec::new();
    for dir in ["xtask/no-std-probe", "fuzz/fuzz_targets"] {
        rust_files(&root.join(dir), &mut files);
    }
    if files.is_empty() {
        return Ok(());
    }
    files.sort();
    let relative: Vec<PathBuf> = files
        .iter()
        .map(|f| f.strip_prefix(&root).unwrap_or(f).to_path_buf())
        .collect();
    Cmd::new("rustfmt")
        .args(["--edition", "2021", "--check"])
        .args(&relative)
        .run()
}

/// Every `.rs` file under `dir`, skipping build output (`target`).
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "target") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The packages with a `Cargo.lock` of their own, relative to the root: the
/// workspace and the standalone packages beside it. Each one's lock must
/// be current, or its step fails under `--locked` (the firmware only at
/// the end of CI).
const LOCKED_PACKAGES: &[&str] = &[".", "xtask/no-std-probe", "examples/firmware", "fuzz"];

/// Fails in seconds, instead of at the step that builds the package, when
/// a `Cargo.lock` no longer matches its manifests (a library crate gained a
/// dependency, and the standalone packages' locks were not updated), and
/// when a `Cargo.lock` exists that [`LOCKED_PACKAGES`] does not list.
pub fn lockfiles() -> Result {
    let root = root();
    let mut found = Vec::new();
    lock_files(&root, &root, &mut found);
    let unlisted: Vec<&String> = found
        .iter()
        .filter(|dir| !LOCKED_PACKAGES.contains(&dir.as_str()))
        .collect();
    if !unlisted.is_empty() {
        return Err(format!(
            "Cargo.lock files in {unlisted:?} are not in xtask's LOCKED_PACKAGES: add them"
        ));
    }
    let mut stale = Vec::new();
    for dir in LOCKED_PACKAGES {
        let manifest = root.join(dir).join("Cargo.toml");
        let ok = Cmd::cargo()
            .args([
                "metadata",
                "--format-version",
                "1",
                "--locked",
                "--manifest-path",
            ])
            .arg(&manifest)
            .run_without_stdout()?;
        if !ok {
            stale.push(*dir);
        }
    }
    if stale.is_empty() {
        println!(
            "lockfiles: {} Cargo.lock files are current",
            LOCKED_PACKAGES.len()
        );
        return Ok(());
    }
    let fixes: Vec<String> = stale
        .iter()
        .map(|dir| format!("(cd {dir} && cargo update --workspace)"))
        .collect();
    Err(format!(
        "stale Cargo.lock in {stale:?}; update them without upgrading anything else with `{}`, \
         and commit them",
        fixes.join(" && ")
    ))
}

/// The directories (relative to `root`, `.` for the root) under `dir` that
/// hold a `Cargo.lock`, skipping build output and hidden directories.
fn lock_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') {
                lock_files(root, &path, out);
            }
        } else if name == "Cargo.lock" {
            let relative = dir.strip_prefix(root).unwrap_or(dir);
            let relative = relative.to_string_lossy();
            out.push(if relative.is_empty() {
                ".".to_string()
            } else {
                relative.into_owned()
            });
        }
    }
}

/// Clippy on every target of every workspace package (benches included, so
/// they keep compiling), warnings denied.
fn clippy() -> Result {
    Cmd::cargo()
        .args(["clippy", "--workspace", "--all-targets"])
        .locked_in_ci()
        .args(["--", "-D", "warnings"])
        .run()
}

/// The workspace's tests: unit, integration and doc tests. Each test body is
/// instantiated for f32 and f64 by the test macro, so one run covers both.
fn test() -> Result {
    Cmd::cargo()
        .args(["test", "--workspace"])
        .locked_in_ci()
        .run()
}

/// The library crates' unit tests with default features off (no `std`, no
/// `alloc` in the crate itself), so code behind those features cannot be
/// what keeps the tests compiling. Host target: the tests themselves use
/// the test harness, which needs std.
fn test_no_default_features() -> Result {
    let crates = crate::workspace::library_crates()?;
    let mut cmd = Cmd::cargo().arg("test");
    for (name, _) in &crates {
        cmd = cmd.args(["-p", name]);
    }
    cmd.args(["--no-default-features", "--lib"])
        .locked_in_ci()
        .run()
}

/// The workspace's docs, rustdoc warnings (broken links...) denied.
fn doc() -> Result {
    Cmd::cargo()
        .env("RUSTDOCFLAGS", "-D warnings")
        .args(["doc", "--workspace", "--no-deps"])
        .locked_in_ci()
        .run()
}

/// The firmware check (`cargo xtask firmware`) under CI; skipped, with a
/// note, outside CI, where it would install QEMU system-wide.
fn firmware() -> Result {
    if !ci_mode() {
        eprintln!("skipped outside CI (CI=true runs it); run `cargo xtask firmware` to check");
        return Ok(());
    }
    crate::firmware::run()
}
