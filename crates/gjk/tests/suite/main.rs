//! gjk's integration tests, in one test binary: each module was a
//! test file of its own. Together they compile the shape pairs they share
//! once instead of once per file, and link one binary instead of one each.

mod analytic;
mod cast;
mod coal_reference;
mod common;
mod epa_polytope;
mod flush_faces;
mod fuzz_like;
mod modes;
mod near_flat_sides;
mod parallel_features;
mod polytopes;
mod ray;
