//! Fuzzes mink-query's line answering: any bytes give one well-formed JSON
//! answer, never a panic; the harness is `mink_tests::fuzz::query_line`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::query_line(data);
});
