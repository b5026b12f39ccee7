//! Fuzzes the broad phase against brute force over frames of motion; the
//! harness is `mink_tests::fuzz::broadphase_pairs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::broadphase_pairs(data);
});
