//! mpr's integration tests, in one test binary: each module was a
//! test file of its own. Together they compile the shape pairs they share
//! once instead of once per file, and link one binary instead of one each.

mod against_epa;
mod analytic;
mod common;
mod degenerate_cores;
mod deviation;
mod fuzz;
mod robust;
mod witnesses;
