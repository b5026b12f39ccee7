//! Placeholder until this benchmark lands.
fn main() {}
