//! mink's benchmarks live in `benches/`.
