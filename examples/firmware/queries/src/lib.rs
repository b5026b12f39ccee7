//! The firmware's pair queries (GJK distance and intersection, MPR
//! penetration and intersection) and its one shape type, in a crate of
//! their own so that they are compiled for size while the rest of the
//! firmware is compiled for speed.
//!
//! # Why a crate of its own
//!
//! Cargo's per-package `opt-level` applies to the code a package compiles,
//! and generic code is compiled by the crate that instantiates it. GJK and
//! MPR are generic over the scalar and the shapes, so
//! `[profile.release.package.mink-mpr] opt-level = "z"` changes nothing
//! (measured: the firmware's flash to the byte): the firmware instantiates
//! them. Here they are instantiated by non-generic functions, the impls of
//! [`PairQueries`] for `f32` and `f64`, which this crate compiles with the
//! `opt-level = "z"` that `examples/firmware/Cargo.toml` gives it; fat LTO
//! keeps each function's size attributes. The firmware binary (the arm's
//! closed-form check, the field query, the harness) keeps
//! `opt-level = "s"`, so the arm's check, the one query with an
//! instruction budget, stays as fast as it was.
//!
//! `no_std`; used by the firmware (`f32`, on the device) and by its
//! `build.rs` (`f64`, on the host, for the expected answers).

#![no_std]

mod pair;
mod shape;

pub use pair::Algorithm;
pub use shape::{vertex_hull, FwShape};

use mink_support::{Iso3, Real};

/// A scalar the firmware's pair queries run in: `f32` on the device, `f64`
/// on the host. Each impl is a concrete function, so this crate compiles
/// the whole query (the pair, GJK or MPR, the shapes' supports) with its
/// own `opt-level` (see the crate docs).
pub trait PairQueries: Real {
    /// The answer of `algorithm` on `a` at `pose_a` and `b` at `pose_b`
    /// (shape frame to world): a distance or depth in meters, or 1/0 for an
    /// intersection; infinity when the algorithm reports a failure status.
    fn pair_query(
        algorithm: Algorithm,
        a: &FwShape<'_, Self>,
        pose_a: &Iso3<Self>,
        b: &FwShape<'_, Self>,
        pose_b: &Iso3<Self>,
    ) -> Self;
}

impl PairQueries for f32 {
    /// Out of line: its stack frame (the pair) is below the caller's
    /// stack pointer, where the firmware's probe looks.
    #[inline(never)]
    fn pair_query(
        algorithm: Algorithm,
        a: &FwShape<'_, f32>,
        pose_a: &Iso3<f32>,
        b: &FwShape<'_, f32>,
        pose_b: &Iso3<f32>,
    ) -> f32 {
        pair::pair_query(algorithm, a, pose_a, b, pose_b)
    }
}

impl PairQueries for f64 {
    #[inline(never)]
    fn pair_query(
        algorithm: Algorithm,
        a: &FwShape<'_, f64>,
        pose_a: &Iso3<f64>,
        b: &FwShape<'_, f64>,
        pose_b: &Iso3<f64>,
    ) -> f64 {
        pair::pair_query(algorithm, a, pose_a, b, pose_b)
    }
}
