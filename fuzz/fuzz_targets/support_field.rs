//! Fuzzes the support field: blob parsing, building, queries and exact mode;
//! the harness is `mink_tests::fuzz::support_field`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::support_field(data);
});
