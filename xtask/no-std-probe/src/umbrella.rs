//! mink's (the umbrella crate's) core API, called without std or alloc.
//!
//! The umbrella has no public API of its own yet: it is linked (so its no-std
//! build is checked), and its shape enum and pair dispatch join `exercise` as
//! they land.

use mink as _;

/// Calls the umbrella crate's core API (none yet).
pub fn exercise() {}
