//! `cargo xtask package`: checks that every library crate can be published:
//! `cargo package` of all of them together, which packages each one in
//! dependency order (its sibling crates resolved from the packages just
//! made, as crates.io would serve them) and verifies it by building the
//! packaged sources on their own. A file left out of a package (a README,
//! a test data file a doctest reads), a path dependency without a version,
//! or metadata crates.io refuses fails here.

use crate::run::{Cmd, Result};
use crate::workspace::library_crates;

/// Packages and verifies every library crate.
pub fn run() -> Result {
    let crates = library_crates()?;
    let mut cmd = Cmd::cargo().arg("package");
    for (name, _) in &crates {
        cmd = cmd.args(["-p", name]);
    }
    // A local run may have uncommitted changes; CI's clone has none.
    // Without debug assertions the verification build of `mink` skips its
    // shared instances (`mink::instances`, for test builds): a build from
    // the packaged sources is what is checked, not the compiled pair matrix,
    // which would take minutes.
    cmd.arg("--allow-dirty")
        .env("CARGO_PROFILE_DEV_DEBUG_ASSERTIONS", "false")
        .locked_in_ci()
        .run()
        .map_err(|e| format!("a library crate does not package: {e}"))?;
    println!(
        "package: {} library crates package and build from their packaged sources",
        crates.len()
    );
    Ok(())
}
