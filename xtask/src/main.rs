//! mink's project commands (placeholder until the xtask lands).
fn main() {}
