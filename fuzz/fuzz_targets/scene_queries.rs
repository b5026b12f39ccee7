//! Fuzzes a scene's ray, point and sweep queries against a brute force; the harness is `mink_tests::fuzz::scene_queries`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::scene_queries(data);
});
