//! broadphase's integration tests, in one test binary: each module was a
//! test file of its own. Together they compile the shape pairs they share
//! once instead of once per file, and link one binary instead of one each.

mod api;
mod brute_force;
mod common;
mod fuzz_property;
mod parallel;
