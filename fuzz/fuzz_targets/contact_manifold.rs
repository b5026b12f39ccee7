//! Fuzzes mink::contact_manifold on decoded shape pairs; the harness is `mink_tests::fuzz::contact_manifold`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::contact_manifold(data);
});
