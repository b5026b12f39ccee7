//! The warm-start cache a caller keeps per pair across frames.

use crate::Simplex;
use mink_support::{Real, Vec3};

/// Warm-start state for one pair of shapes, kept by the caller across
/// queries (frames): the last closest point of `A ⊖ B` (A's frame), both
/// shapes' support hints (a hull's vertex index), and GJK's final simplex,
/// which [`epa`](crate::epa) starts from.
///
/// A query on a pair that moved a little since the last one starts from the
/// last closest point instead of the centres' offset, and its hull supports
/// hill-climb from last time's vertices, so it needs fewer iterations. A
/// fresh (default) cache is always valid; a stale one only costs iterations,
/// never correctness.
#[derive(Clone, Copy, Debug)]
pub struct GjkCache<R, HA = (), HB = ()> {
    pub(crate) dir: Vec3<R>,
    pub(crate) hint_a: HA,
    pub(crate) hint_b: HB,
    pub(crate) simplex: Simplex<R>,
}

impl<R: Real, HA: Default, HB: Default> Default for GjkCache<R, HA, HB> {
    fn default() -> Self {
        Self {
            dir: Vec3::ZERO,
            hint_a: HA::default(),
            hint_b: HB::default(),
            simplex: Simplex::new(),
        }
    }
}

impl<R: Real, HA: Default, HB: Default> GjkCache<R, HA, HB> {
    /// An empty cache (no warm start).
    pub fn new() -> Self {
        Self::default()
    }

    /// A cache whose next query starts from `direction` (A's frame), a
    /// guess of the closest point of `A ⊖ B`: a caller that keeps only a
    /// direction per pair (a scene's pair memory, which cannot store each
    /// pair's typed hints) warm-starts with it. A zero direction, or one
    /// whose squared length is not finite, gives a cold start.
    pub fn with_direction(direction: Vec3<R>) -> Self {
        let dir = if direction.norm_squared().finite() {
            direction
        } else {
            Vec3::ZERO
        };
        Self {
            dir,
            ..Self::default()
        }
    }

    /// Forgets everything (the next query starts cold).
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Where the next query starts, A's frame: the last closest point of
    /// the cores' difference `A ⊖ B`, or, when the last query stopped
    /// early on a plane proving the pair apart ([`Stop::Collision`](crate::Stop::Collision),
    /// [`Stop::Margin`](crate::Stop::Margin)), that plane's normal; zero
    /// when there is none yet, or the cores overlapped.
    pub fn direction(&self) -> Vec3<R> {
        self.dir
    }

    /// GJK's final simplex from the last query (A's frame).
    pub fn simplex(&self) -> &Simplex<R> {
        &self.simplex
    }
}
