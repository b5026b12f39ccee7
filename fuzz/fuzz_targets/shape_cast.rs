//! Fuzzes mink::cast::shape_cast on decoded moving shape pairs; the harness is `mink_tests::fuzz::shape_cast`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::shape_cast(data);
});
