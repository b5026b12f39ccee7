//! Fuzzes signed-distance-field building and queries on decoded meshes;
//! the harness is `mink_tests::fuzz::sdf_build`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mink_tests::fuzz::sdf_build(data);
});
