//! Fuzzes GJK distance, intersection and EPA penetration on decoded shape
//! pairs; the harness is `mink_tests::fuzz::gjk_distance`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::gjk_distance(data);
});
