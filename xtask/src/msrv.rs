//! `cargo xtask msrv`: checks that the library crates build on the minimum
//! supported Rust version, the workspace's `rust-version`.
//!
//! 1. Reads `rust-version` from `[workspace.package]` in the root
//!    `Cargo.toml` (every library crate inherits it).
//! 2. Installs that toolchain with `rustup toolchain install --profile
//!    minimal` when rustup does not list it (about 30 s).
//! 3. Runs `cargo +VERSION check` on every library crate with every feature,
//!    then with default features off, with the locked dependencies, in a
//!    target directory of its own (`<target>/msrv`), so the main builds'
//!    artifacts are not rebuilt for another compiler.
//!
//! A failure means the code, or a dependency in `Cargo.lock`, needs a newer
//! compiler than the crates declare: raise `rust-version` (a minor-version
//! change, in the CHANGELOG) or keep the code within it.

use crate::run::{Cmd, Result};
use crate::workspace::{library_crates, read, root, string_value, target_dir};

/// Runs the three stages above.
pub fn run() -> Result {
    let manifest = read(&root().join("Cargo.toml"))?;
    let version = string_value(&manifest, "workspace.package", "rust-version")
        .ok_or("the root Cargo.toml has no `rust-version` in [workspace.package]")?;
    ensure_toolchain(&version)?;
    let crates = library_crates()?;
    for features in ["--all-features", "--no-default-features"] {
        let mut cmd = Cmd::cargo_proxy().arg(format!("+{version}")).arg("check");
        for (name, _) in &crates {
            cmd = cmd.args(["-p", name]);
        }
        cmd.arg(features)
            .env("CARGO_TARGET_DIR", target_dir().join("msrv"))
            .locked_in_ci()
            .run()
            .map_err(|e| {
                format!(
                    "the library crates do not build on their declared minimum Rust {version} \
                     ({features}): {e}"
                )
            })?;
    }
    println!(
        "msrv: {} library crates build on Rust {version} with every feature and with none",
        crates.len()
    );
    Ok(())
}

/// Installs the toolchain `version` (minimal profile) unless rustup lists
/// it.
fn ensure_toolchain(version: &str) -> Result {
    let installed = Cmd::new("rustup")
        .args(["toolchain", "list"])
        .stdout()
        .ok_or("`rustup toolchain list` failed: the MSRV check needs rustup")?;
    let prefix = format!("{version}-");
    if installed.lines().any(|l| l.starts_with(&prefix)) {
        return Ok(());
    }
    Cmd::new("rustup")
        .args(["toolchain", "install", version, "--profile", "minimal"])
        .run()
}
