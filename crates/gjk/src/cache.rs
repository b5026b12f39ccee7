//! The warm-start cache a caller keeps per pair across frames.

use crate::Simplex;
use mink_support::{Iso3, Real, Vec3};

/// Warm-start state for one pair of shapes, kept by the caller across
/// queries (frames): the last query's simplex as points of the two cores,
/// each in its own shape's frame; the last closest point of `A ⊖ B` (A's
/// frame); both shapes' support hints (a hull's vertex index); and GJK's
/// final simplex, which [`epa`](crate::epa) starts from.
///
/// A query on a pair that moved since the last one starts from last
/// time's simplex, re-posed: its points are points of the two shapes
/// wherever the shapes now are, so the simplex is a valid start, and after
/// a small motion its closest point is already close to the answer (a
/// resting face contact converges in one or two iterations instead of
/// four or five), and every [`WARM_REFRESH`](crate::WARM_REFRESH)-th query
/// starts cold, so that round-off cannot add up over a long rest. Its hull
/// supports hill-climb from last time's vertices.
///
/// A fresh (default) cache is always valid, and a stale one (any motion in
/// between) only costs iterations, never correctness; but a cache belongs
/// to one pair of shapes, in one order: the points it keeps are points of
/// those shapes, and given to another pair they are not points of its
/// shapes, so the answers are wrong. [`GjkCache::reset`] it when the pair
/// changes.
#[derive(Clone, Copy, Debug)]
pub struct GjkCache<R, HA = (), HB = ()> {
    pub(crate) dir: Vec3<R>,
    pub(crate) hint_a: HA,
    pub(crate) hint_b: HB,
    pub(crate) simplex: Simplex<R>,
    /// `simplex` is the last query's, ended on an answer: the next query
    /// starts from it.
    pub(crate) warm: bool,
    /// B's pose in A's frame at the last query (what `simplex` was taken
    /// at).
    pub(crate) pose_ab: Iso3<R>,
    /// Warm starts in a row since the last cold query.
    pub(crate) age: u32,
}

impl<R: Real, HA: Default, HB: Default> Default for GjkCache<R, HA, HB> {
    fn default() -> Self {
        Self {
            dir: Vec3::ZERO,
            hint_a: HA::default(),
            hint_b: HB::default(),
            simplex: Simplex::new(),
            warm: false,
            pose_ab: Iso3::IDENTITY,
            age: 0,
        }
    }
}

impl<R: Real, HA: Default, HB: Default> GjkCache<R, HA, HB> {
    /// An empty cache (no warm start).
    pub fn new() -> Self {
        Self::default()
    }

    /// A cache whose next query starts from `direction` (A's frame), a
    /// guess of the closest point of `A ⊖ B`, with no simplex: a caller
    /// that keeps only a direction per pair warm-starts with it. A zero
    /// direction, or one whose squared length is not finite, gives a cold
    /// start.
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

    /// The same cache with fresh support hints of other types: a caller
    /// that keeps one cache type for pairs of many shape types (a scene's
    /// pair memory keeps `GjkCache<R>`) converts to the pair's own type
    /// before a query and back after it, keeping the warm simplex and the
    /// direction; the hints (hill-climbing starts of large hulls) restart.
    pub fn with_hints<HA2: Default, HB2: Default>(&self) -> GjkCache<R, HA2, HB2> {
        GjkCache {
            dir: self.dir,
            hint_a: HA2::default(),
            hint_b: HB2::default(),
            simplex: self.simplex,
            warm: self.warm,
            pose_ab: self.pose_ab,
            age: self.age,
        }
    }

    /// Forgets everything (the next query starts cold): call it when the
    /// cache is to serve another pair of shapes.
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
