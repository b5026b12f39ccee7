//! Fuzzes every shape's support point, AABBs and support set; the harness
//! and its checks are `mink_tests::fuzz::support_points`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::support_points(data);
});
