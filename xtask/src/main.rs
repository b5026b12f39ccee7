//! mink's project commands, run as `cargo xtask <command>` (an alias in
//! `.cargo/config.toml`).
//!
//! - `ci`: everything CI checks, in order, stopping at the first failure:
//!   formatting, lock files, clippy, tests, docs, `no-std`, `msrv`,
//!   `package`, then (under CI) `firmware`.
//! - `no-std`: proves the library crates need neither `std` nor `alloc`, by
//!   building them for two bare-metal targets and linking a probe binary that
//!   calls their core API.
//! - `msrv`: checks the library crates on the minimum supported Rust
//!   version (`rust-version`), installing that toolchain with rustup.
//! - `package`: `cargo package` (with its verification build) of every
//!   library crate, in dependency order.
//! - `firmware`: builds the Cortex-M4F firmware example, runs it under QEMU,
//!   checks its answers and writes its size, stack and instruction figures;
//!   fails when the flash or stack is over its budget.
//! - `fuzz-smoke SECONDS [TARGET ...]`: runs every cargo-fuzz target (or the
//!   named ones) for `SECONDS` each and reports every failure.
//! - `fuzz-ci`: runs every cargo-fuzz target for a fixed number of inputs
//!   with a fixed seed after its committed corpus (repeatable).
//! - `bake-field MESH OUT`: bakes a convex mesh's support field for `static`
//!   data on a microcontroller.
//!
//! Standard library and mink-field (for `bake-field`) only: xtask must build
//! fast from a clean clone.

mod bake_field;
mod ci;
mod firmware;
mod fuzz;
mod msrv;
mod no_std;
mod package;
mod run;
mod workspace;

use std::process::ExitCode;

/// The usage text printed by `cargo xtask help` and on a bad command line.
const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  ci                  formatting, lock files, clippy, tests, docs, no-std, msrv, package and (CI=true) firmware, as CI runs them
  lockfiles           check that every Cargo.lock (workspace, probe, firmware, fuzz) is current
  no-std              build the library crates for bare-metal targets (each embedded feature) and link the no-std probe
  msrv                check the library crates on the minimum supported Rust version (installs it)
  package             cargo package (and verify) every library crate, in dependency order
  firmware            run the Cortex-M4F firmware under QEMU, check its answers and flash/stack budgets, write figures
  fuzz-smoke SECONDS [TARGET ...]
                      run every fuzz target (or the named ones) for SECONDS each, report all failures
  fuzz-ci             run every clean fuzz target for a fixed number of inputs and seed after its corpus (repeatable)
  bake-field MESH OUT [--res N] [--compact]
                      bake a convex mesh's support field into Rust statics (OUT.rs) or a blob
  help                this text

environment:
  CI                  when set (and not `false`/`0`), cargo runs with --locked
  CARGO_TARGET_DIR    honoured as usual";

/// Parses the command line and runs the command; exit status 0 on success,
/// 1 on failure (with the reason printed), 2 on a bad command line.
fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["ci"] => ci::run(),
        ["lockfiles"] => ci::lockfiles(),
        ["no-std"] => no_std::run(),
        ["msrv"] => msrv::run(),
        ["package"] => package::run(),
        ["firmware"] => firmware::run(),
        ["bake-field", rest @ ..] => bake_field::run(rest),
        ["fuzz-ci"] => fuzz::ci(),
        ["fuzz-smoke", seconds, only @ ..] => match seconds.parse::<u64>() {
            Ok(s) if s > 0 => fuzz::smoke(s, only),
            _ => {
                return usage_error(&format!(
                    "SECONDS must be a positive integer, got `{seconds}`"
                ))
            }
        },
        ["help"] | ["--help"] | ["-h"] => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        [] => return usage_error("no command given"),
        other => return usage_error(&format!("unknown command line `{}`", other.join(" "))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("\nxtask: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Prints `message` and the usage text to stderr; exit status 2.
fn usage_error(message: &str) -> ExitCode {
    eprintln!("xtask: {message}\n\n{USAGE}");
    ExitCode::from(2)
}
