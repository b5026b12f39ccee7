//! Replays fuzz inputs through a target's harness on stable, without
//! cargo-fuzz: `cargo run -p mink-tests --example replay -- TARGET FILE...`.
//! Prints each file's verdict and exits non-zero when any failed; a
//! failure's message is the harness's own panic message.

use mink_tests::fuzz::TARGETS;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(target) = args.next() else {
        eprintln!("usage: replay TARGET FILE...");
        return ExitCode::from(2);
    };
    let Some((_, harness)) = TARGETS.iter().find(|(name, _)| *name == target) else {
        let names: Vec<&str> = TARGETS.iter().map(|(n, _)| *n).collect();
        eprintln!("unknown target `{target}`; the targets are {names:?}");
        return ExitCode::from(2);
    };
    std::panic::set_hook(Box::new(|info| eprintln!("{info}")));
    let mut failed = 0usize;
    for file in args {
        let data = match std::fs::read(&file) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{file}: cannot read: {e}");
                failed += 1;
                continue;
            }
        };
        match catch_unwind(AssertUnwindSafe(|| harness(&data))) {
            Ok(()) => println!("{file}: ok"),
            Err(_) => {
                println!("{file}: FAILED");
                failed += 1;
            }
        }
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
