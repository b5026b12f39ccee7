//! mink's workspace-level test package.
//!
//! The integration tests live in `tests/`; this library holds what they and
//! the fuzz targets share: the fuzz harnesses ([`fuzz`]), whose bodies are
//! plain functions so `cargo test` can replay the fuzz corpus on stable, and
//! the shape oracles ([`oracle`]) they check support functions against.

pub mod fuzz;
pub mod oracle;
