//! Fuzzes mink::ray_cast on decoded shapes and rays; the harness is `mink_tests::fuzz::ray_cast`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::ray_cast(data);
});
