//! Fuzzes mink::distance, penetration and intersect on decoded shape pairs; the harness is `mink_tests::fuzz::umbrella_queries`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::umbrella_queries(data);
});
