//! Fuzzes contact islands and hibernation against a BFS reference; the harness
//! is `mink_tests::fuzz::islands`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::islands(data);
});
