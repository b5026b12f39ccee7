//! The bodies of the fuzz targets in `fuzz/`, as plain functions, so that
//! `cargo test` replays the committed corpus through them on stable
//! (`tests/fuzz_corpus.rs`) and the fuzz targets stay one-line wrappers.

pub mod bytes;
pub mod seeds;
mod support_points;

pub use support_points::{
    check_shape, decode_set_tolerance, Outcome, Range, AABB_ULPS, CHECK_ULPS,
    FACE_LOOPS_MAY_EXCEED_TOLERANCE, MAX_HULL_INPUT, SHAPE_KINDS,
};

/// A fuzz target's body: decodes the bytes and panics when a check fails.
pub type Harness = fn(&[u8]);

/// Every fuzz target: its name (the `[[bin]]` name in `fuzz/Cargo.toml` and
/// the folder of its corpus in `fuzz/corpus/`) and its body.
pub const TARGETS: &[(&str, Harness)] = &[("support_points", support_points)];

/// The `support_points` target: decodes a shape (any that mink-support
/// exports), a pose and a direction from `data`, and checks the shape's
/// support point, AABBs and support set against an independent description
/// of the shape. Panics with the reason when a check fails. The input
/// layout is documented at the top of `tests/src/fuzz/support_points.rs`.
pub fn support_points(data: &[u8]) {
    let _ = support_points::support_points(data);
}

/// Like [`support_points`], but says what the harness did with the input
/// (for tests that check the corpus exercises the checks).
pub fn support_points_outcome(data: &[u8]) -> Outcome {
    support_points::support_points(data)
}
