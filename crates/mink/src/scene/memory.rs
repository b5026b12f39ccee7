//! The scene's pair memory: one GJK warm-start cache per candidate pair,
//! kept from one step to the next, so that a pair that moved a little
//! since the last step starts from last step's simplex (a resting pair
//! converges in about one GJK iteration instead of four or five).
//!
//! The broad phase reports its pairs in a deterministic order, but not a
//! sorted one, and a pair's place changes when others come or go. A pair
//! is looked up first at its own index in the last step's list (most
//! pairs keep their place from one step to the next), then in a hash table
//! of the last step's pairs (open addressing, at most half full). Only the
//! first narrow-phase pass of a step uses it; pairs of the wake passes
//! start cold and are not kept.

use mink_broadphase::CandidatePair;
use mink_gjk::GjkCache;
use mink_support::Real;

/// A scene's warm-start storage: none ([`NoMemory`], the allocation-free
/// scene) or one cache per pair ([`PairMemory`], the owning scene).
pub(crate) trait Memory<R: Real> {
    /// The last step's caches and this step's slots for `pairs` (one per
    /// pair, to be written by the narrow phase), or `None` when the scene
    /// keeps no memory or `enabled` is off.
    fn begin(&mut self, pairs: &[CandidatePair], enabled: bool) -> Option<Warm<'_, R>>;
    /// Keeps this step's caches (written into the slots of
    /// [`Memory::begin`]) for the next step, under `pairs`.
    fn end(&mut self, pairs: &[CandidatePair]);
}

/// The last step's caches, read-only, and this step's slots.
pub(crate) struct Warm<'m, R> {
    pub(crate) last: &'m Last<R>,
    pub(crate) next: &'m mut [GjkCache<R>],
}

/// No memory: every pair starts cold.
#[derive(Debug, Default)]
pub(crate) struct NoMemory;

impl<R: Real> Memory<R> for NoMemory {
    fn begin(&mut self, _: &[CandidatePair], _: bool) -> Option<Warm<'_, R>> {
        None
    }
    fn end(&mut self, _: &[CandidatePair]) {}
}

/// An empty slot of the hash table.
#[cfg(feature = "alloc")]
const EMPTY: u32 = u32::MAX;

/// The last step's pairs and their caches, with a hash table over them.
#[derive(Clone, Debug)]
pub(crate) struct Last<R> {
    #[cfg(feature = "alloc")]
    keys: alloc::vec::Vec<CandidatePair>,
    #[cfg(feature = "alloc")]
    caches: alloc::vec::Vec<GjkCache<R>>,
    /// Indices into `keys`, [`EMPTY`] where none; a power of two long.
    #[cfg(feature = "alloc")]
    table: alloc::vec::Vec<u32>,
    #[cfg(not(feature = "alloc"))]
    _r: core::marker::PhantomData<R>,
}

/// The table slot where the search for `pair` starts (`mask`: the table's
/// length minus one).
#[cfg(feature = "alloc")]
#[inline(always)]
fn slot(pair: &CandidatePair, mask: usize) -> usize {
    let h = (pair.a as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((pair.b as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F));
    ((h >> 32) as usize) & mask
}

#[cfg(feature = "alloc")]
impl<R: Real> Last<R> {
    const fn new() -> Self {
        Self {
            keys: alloc::vec::Vec::new(),
            caches: alloc::vec::Vec::new(),
            table: alloc::vec::Vec::new(),
        }
    }

    /// The cache `pair` (this step's pair number `i`) ended the last step
    /// with; a fresh one when it was not a pair then.
    #[inline]
    pub(crate) fn start(&self, i: usize, pair: &CandidatePair) -> GjkCache<R> {
        if self.keys.get(i) == Some(pair) {
            return self.caches[i];
        }
        let mask = self.table.len().wrapping_sub(1);
        if self.table.is_empty() {
            return GjkCache::default();
        }
        let mut s = slot(pair, mask);
        // At most half full: the probe meets an empty slot.
        for _ in 0..self.table.len() {
            let k = self.table[s];
            if k == EMPTY {
                break;
            }
            if self.keys[k as usize] == *pair {
                return self.caches[k as usize];
            }
            s = (s + 1) & mask;
        }
        GjkCache::default()
    }

    /// Rebuilds the table over `keys`.
    fn index(&mut self) {
        let len = (2 * self.keys.len()).next_power_of_two().max(16);
        self.table.clear();
        self.table.resize(len, EMPTY);
        let mask = len - 1;
        for (k, pair) in self.keys.iter().enumerate() {
            let mut s = slot(pair, mask);
            while self.table[s] != EMPTY {
                s = (s + 1) & mask;
            }
            self.table[s] = k as u32;
        }
    }
}

#[cfg(not(feature = "alloc"))]
impl<R: Real> Last<R> {
    /// No last step without storage: a fresh cache.
    #[inline]
    pub(crate) fn start(&self, _: usize, _: &CandidatePair) -> GjkCache<R> {
        GjkCache::default()
    }
}

/// One cache per candidate pair, growable (the `alloc` feature).
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub(crate) struct PairMemory<R> {
    last: Last<R>,
    next: alloc::vec::Vec<GjkCache<R>>,
}

#[cfg(feature = "alloc")]
impl<R: Real> PairMemory<R> {
    /// An empty memory.
    pub(crate) const fn new() -> Self {
        Self {
            last: Last::new(),
            next: alloc::vec::Vec::new(),
        }
    }
}

#[cfg(feature = "alloc")]
impl<R: Real> Memory<R> for PairMemory<R> {
    fn begin(&mut self, pairs: &[CandidatePair], enabled: bool) -> Option<Warm<'_, R>> {
        if !enabled {
            self.last.keys.clear();
            self.last.caches.clear();
            self.last.table.clear();
            return None;
        }
        // Every slot is written by the pass before `end` reads it.
        self.next.resize(pairs.len(), GjkCache::default());
        Some(Warm {
            last: &self.last,
            next: &mut self.next[..pairs.len()],
        })
    }

    fn end(&mut self, pairs: &[CandidatePair]) {
        if self.next.len() != pairs.len() {
            return;
        }
        core::mem::swap(&mut self.last.caches, &mut self.next);
        self.last.keys.clear();
        self.last.keys.extend_from_slice(pairs);
        self.last.index();
    }
}
