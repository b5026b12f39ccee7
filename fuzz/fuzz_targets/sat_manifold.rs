//! Fuzzes SAT and contact manifolds between decoded hulls; the harness is
//! `mink_tests::fuzz::sat_manifold`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::sat_manifold(data);
});
