//! Where a scene keeps its per-step state: the per-geometry arrays, the
//! broad phase and its pairs, and the contact buffer. Two backings share
//! one pipeline: caller-provided slices (`no_std`, fixed capacities, in
//! [`SceneBuffers`]) and growable vectors (`alloc`).

use super::contact::Contact;
use mink_broadphase::{
    BroadPhaseError, Buffers, CandidatePair, Filters, FrameReport, Geom, SweepAndPrune,
};
use mink_islands::Capacity;
use mink_support::{Iso3, Real};

/// Caller-provided storage of a [`Scene`](super::Scene), for `no_std`
/// targets without an allocator. Lengths, for a scene of `n` geometries
/// (see [`SceneCapacity`] to size them):
///
/// - `geoms`, `poses`, `flags`: at least `n`;
/// - `broadphase`: as [`Buffers`] documents for `n` geometries;
/// - `pairs`: the pair budget (any length; a frame finding more pairs fails
///   with [`BroadPhaseError::PairBudget`]);
/// - `contacts`: the contact capacity (any length; a step producing more
///   fails with [`SceneError::ContactCapacity`](super::SceneError::ContactCapacity));
/// - `contact_links`: at least as long as `contacts`;
/// - `islands`: at least [`SceneCapacity::islands_words`] words.
///
/// Shorter buffers are refused by [`Scene::new`](super::Scene::new) with
/// [`SceneError::StorageTooSmall`](super::SceneError::StorageTooSmall)
/// naming the buffer (or the broad phase's or islands' own error).
#[derive(Debug)]
pub struct SceneBuffers<'a, R> {
    /// The broad phase's storage.
    pub broadphase: Buffers<'a, R>,
    /// The broad phase's output: its length is the pair budget.
    pub pairs: &'a mut [CandidatePair],
    /// Per geometry: the broad phase's input record.
    pub geoms: &'a mut [Geom<R>],
    /// Per geometry: its world pose in the last step.
    pub poses: &'a mut [Iso3<R>],
    /// Per geometry: scratch flags of the wake passes.
    pub flags: &'a mut [u8],
    /// The contact buffer: its length is the contact capacity.
    pub contacts: &'a mut [Contact<R>],
    /// Per contact: its `[link_a, link_b]` (the islands' input).
    pub contact_links: &'a mut [[u32; 2]],
    /// The islands' state (see [`mink_islands::Capacity::words`]).
    pub islands: &'a mut [u32],
}

/// The sizes of a [`SceneBuffers`] for a scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SceneCapacity {
    /// Geometries of the scene.
    pub geoms: usize,
    /// Links of the scene.
    pub links: usize,
    /// Equality constraints of the scene.
    pub constraints: usize,
    /// The pair budget.
    pub pairs: usize,
    /// The contact capacity.
    pub contacts: usize,
}

impl SceneCapacity {
    /// The length of [`SceneBuffers::islands`], or `None` on overflow.
    pub const fn islands_words(&self) -> Option<usize> {
        Capacity {
            links: self.links,
            contacts: self.contacts,
            constraints: self.constraints,
        }
        .words()
    }

    /// The length of the broad phase's column buffers (`entries`,
    /// `sleep_entries`, `dirty_entries`), or `None` on overflow.
    pub const fn broadphase_entries(&self) -> Option<usize> {
        self.geoms.checked_mul(mink_broadphase::ENTRIES_PER_GEOM)
    }
}

/// The per-geometry arrays: world poses, broad-phase records, wake flags.
pub(crate) trait PerGeom<R> {
    /// All three, split.
    fn parts(&mut self) -> (&mut [Iso3<R>], &mut [Geom<R>], &mut [u8]);
    /// The world poses.
    fn poses(&self) -> &[Iso3<R>];
    /// The broad-phase records.
    fn geoms(&self) -> &[Geom<R>];
}

/// A broad phase with its pair output.
pub(crate) trait Broad<R> {
    /// One frame over `geoms`; its pairs in [`Broad::pairs`] (the kept ones
    /// on a pair-budget error).
    fn frame(
        &mut self,
        geoms: &[Geom<R>],
        filters: &Filters,
    ) -> Result<FrameReport, BroadPhaseError>;
    /// The pairs of the last frame.
    fn pairs(&self) -> &[CandidatePair];
}

/// The contact buffer and the contacts' link pairs.
pub(crate) trait Sink<R> {
    /// Empties the buffer.
    fn clear(&mut self);
    /// Appends `c`; `false` (and nothing written) when full.
    fn push(&mut self, c: Contact<R>) -> bool;
    /// The contacts.
    fn contacts(&self) -> &[Contact<R>];
    /// Per contact, `[link_a, link_b]`.
    fn links(&self) -> &[[u32; 2]];
}

/// The per-geometry arrays over borrowed slices (cut to the geometry count).
#[derive(Debug)]
pub(crate) struct FixedGeoms<'a, R> {
    pub(crate) poses: &'a mut [Iso3<R>],
    pub(crate) geoms: &'a mut [Geom<R>],
    pub(crate) flags: &'a mut [u8],
}

impl<R> PerGeom<R> for FixedGeoms<'_, R> {
    fn parts(&mut self) -> (&mut [Iso3<R>], &mut [Geom<R>], &mut [u8]) {
        (&mut *self.poses, &mut *self.geoms, &mut *self.flags)
    }
    fn poses(&self) -> &[Iso3<R>] {
        self.poses
    }
    fn geoms(&self) -> &[Geom<R>] {
        self.geoms
    }
}

/// The allocation-free broad phase and its fixed pair budget.
#[derive(Debug)]
pub(crate) struct FixedBroad<'a, R> {
    pub(crate) sap: SweepAndPrune<'a, R>,
    pub(crate) out: &'a mut [CandidatePair],
    pub(crate) len: usize,
}

impl<R: Real> Broad<R> for FixedBroad<'_, R> {
    fn frame(
        &mut self,
        geoms: &[Geom<R>],
        filters: &Filters,
    ) -> Result<FrameReport, BroadPhaseError> {
        self.len = 0;
        match self.sap.update(geoms, filters, self.out) {
            Ok(report) => {
                self.len = report.pairs.min(self.out.len());
                Ok(report)
            }
            Err(e) => {
                if let BroadPhaseError::PairBudget { kept, .. } = e {
                    self.len = kept.min(self.out.len());
                }
                Err(e)
            }
        }
    }
    fn pairs(&self) -> &[CandidatePair] {
        &self.out[..self.len]
    }
}

/// The contact buffer over borrowed slices.
#[derive(Debug)]
pub(crate) struct FixedSink<'a, R> {
    pub(crate) contacts: &'a mut [Contact<R>],
    pub(crate) links: &'a mut [[u32; 2]],
    pub(crate) len: usize,
}

impl<R: Copy> Sink<R> for FixedSink<'_, R> {
    fn clear(&mut self) {
        self.len = 0;
    }
    fn push(&mut self, c: Contact<R>) -> bool {
        match (
            self.contacts.get_mut(self.len),
            self.links.get_mut(self.len),
        ) {
            (Some(slot), Some(link)) => {
                *slot = c;
                *link = [c.link_a, c.link_b];
                self.len += 1;
                true
            }
            _ => false,
        }
    }
    fn contacts(&self) -> &[Contact<R>] {
        &self.contacts[..self.len]
    }
    fn links(&self) -> &[[u32; 2]] {
        &self.links[..self.len]
    }
}

#[cfg(feature = "alloc")]
pub(crate) use owned::{OwnedBroad, OwnedGeoms, OwnedSink};

#[cfg(feature = "alloc")]
mod owned {
    use super::{Broad, PerGeom, Sink};
    use crate::scene::contact::Contact;
    use alloc::vec::Vec;
    use mink_broadphase::{BroadPhase, BroadPhaseError, CandidatePair, Filters, FrameReport, Geom};
    use mink_support::{Iso3, Real};

    /// The per-geometry arrays, owned.
    #[derive(Clone, Debug)]
    pub(crate) struct OwnedGeoms<R> {
        pub(crate) poses: Vec<Iso3<R>>,
        pub(crate) geoms: Vec<Geom<R>>,
        pub(crate) flags: Vec<u8>,
    }

    impl<R> PerGeom<R> for OwnedGeoms<R> {
        fn parts(&mut self) -> (&mut [Iso3<R>], &mut [Geom<R>], &mut [u8]) {
            (&mut self.poses, &mut self.geoms, &mut self.flags)
        }
        fn poses(&self) -> &[Iso3<R>] {
            &self.poses
        }
        fn geoms(&self) -> &[Geom<R>] {
            &self.geoms
        }
    }

    /// The owning broad phase and its growable pair list.
    #[derive(Clone, Debug)]
    pub(crate) struct OwnedBroad<R> {
        pub(crate) phase: BroadPhase<R>,
        pub(crate) pairs: Vec<CandidatePair>,
        /// Sweep across threads (the `rayon` feature).
        #[cfg(feature = "rayon")]
        pub(crate) parallel: bool,
    }

    impl<R: Real> Broad<R> for OwnedBroad<R> {
        fn frame(
            &mut self,
            geoms: &[Geom<R>],
            filters: &Filters,
        ) -> Result<FrameReport, BroadPhaseError> {
            #[cfg(feature = "rayon")]
            if self.parallel {
                return self.phase.par_update(geoms, filters, &mut self.pairs);
            }
            self.phase.update(geoms, filters, &mut self.pairs)
        }
        fn pairs(&self) -> &[CandidatePair] {
            &self.pairs
        }
    }

    /// The growable contact buffer, with an optional capacity.
    #[derive(Clone, Debug)]
    pub(crate) struct OwnedSink<R> {
        pub(crate) contacts: Vec<Contact<R>>,
        pub(crate) links: Vec<[u32; 2]>,
        pub(crate) cap: usize,
    }

    impl<R: Copy> Sink<R> for OwnedSink<R> {
        fn clear(&mut self) {
            self.contacts.clear();
            self.links.clear();
        }
        fn push(&mut self, c: Contact<R>) -> bool {
            if self.contacts.len() >= self.cap {
                return false;
            }
            self.contacts.push(c);
            self.links.push([c.link_a, c.link_b]);
            true
        }
        fn contacts(&self) -> &[Contact<R>] {
            &self.contacts
        }
        fn links(&self) -> &[[u32; 2]] {
            &self.links
        }
    }
}
