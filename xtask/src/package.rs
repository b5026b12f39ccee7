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
    forget_packaged_sources(&crates);
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

/// Removes the sources cargo extracted from earlier runs' packages.
///
/// `cargo package` serves the crates it just packaged to the next ones'
/// verification from a local registry under the target directory, and
/// extracts them under `$CARGO_HOME/registry/src/-<hash of that path>/`,
/// keyed by name and version only. A second run from the same checkout
/// path (a CI clone made again at the same place) finds the old
/// extraction of an unchanged version and builds against it instead of
/// the new package: a crate's new API looks missing to its dependents.
/// Only those extractions (folders whose name starts with `-`, holding
/// this workspace's crates) are removed; crates.io's stay.
fn forget_packaged_sources(crates: &[(String, std::path::PathBuf)]) {
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cargo")));
    let Some(src) = home.map(|h| h.join("registry").join("src")) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(&src) else {
        return;
    };
    for entry in entries.flatten() {
        let dir = entry.path();
        let local = entry.file_name().to_string_lossy().starts_with('-');
        let ours = crates.iter().any(|(name, _)| {
            std::fs::read_dir(&dir).is_ok_and(|mut it| {
                it.any(|e| {
                    e.is_ok_and(|e| {
                        e.file_name()
                            .to_string_lossy()
                            .starts_with(&format!("{name}-"))
                    })
                })
            })
        });
        if local && ours {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
