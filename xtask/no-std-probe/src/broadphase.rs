//! mink-broadphase's core API, called without std or alloc.
//!
//! The crate has no public API yet: it is linked (so its no-std build is
//! checked), and its core calls join `exercise` as they land.

use mink_broadphase as _;

/// Calls mink-broadphase's core API (none yet).
pub fn exercise() {}
