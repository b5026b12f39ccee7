//! Fuzzes height-field and mesh colliders (ray casts, point projections, contacts, the deep fallback) against per-piece oracles; the harness is `mink_tests::fuzz::collider_queries`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::collider_queries(data);
});
