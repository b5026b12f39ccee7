//! Fuzzes MPR penetration and intersection on decoded shape pairs; the harness
//! is `mink_tests::fuzz::mpr_penetration`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::mpr_penetration(data);
});
