//! Fuzzes the scene step against a brute-force narrow phase; the harness is `mink_tests::fuzz::scene_step`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::scene_step(data);
});
