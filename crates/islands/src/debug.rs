//! The one switch for internal invariant checks.

/// Checks an internal invariant in debug builds (tests, fuzzing); compiles
/// to nothing in release builds.
macro_rules! debug_invariant {
    ($cond:expr, $msg:expr) => {
        debug_assert!($cond, $msg)
    };
}
pub(crate) use debug_invariant;
