//! mink's benchmarks live in `benches/`; this library holds what several of
//! them share.

pub mod peer;
pub mod pipeline;
