//! The owning broad phase: buffers that grow with the scene, a growable pair
//! list with an optional budget.

use crate::columns::Entry;
use crate::filter::FilterKey;
use crate::order::Slot;
use crate::pairs::VecSink;
use crate::sap::{run_frame, SapState, ENTRIES_PER_GEOM};
use crate::{BroadPhaseError, Buffers, CandidatePair, Filters, FrameReport, Geom};
use alloc::vec::Vec;
use mink_support::Real;

/// The storage behind a [`BroadPhase`], resized with the scene.
#[derive(Clone, Debug)]
pub(crate) struct OwnedBuffers<R> {
    order: Vec<Slot<R>>,
    ranks: Vec<u32>,
    roles: Vec<u8>,
    snapshot: Vec<Geom<R>>,
    keys: Vec<FilterKey>,
    entries: Vec<Entry<R>>,
    starts: Vec<u32>,
    large: Vec<Entry<R>>,
    sleep_entries: Vec<Entry<R>>,
    sleep_starts: Vec<u32>,
    sleep_large: Vec<Entry<R>>,
    dirty: Vec<u32>,
    dirty_entries: Vec<Entry<R>>,
    dirty_starts: Vec<u32>,
    dirty_large: Vec<Entry<R>>,
    base_pairs: Vec<CandidatePair>,
}

impl<R: Real> Default for OwnedBuffers<R> {
    fn default() -> Self {
        Self {
            order: Vec::new(),
            ranks: Vec::new(),
            roles: Vec::new(),
            snapshot: Vec::new(),
            keys: Vec::new(),
            entries: Vec::new(),
            starts: Vec::new(),
            large: Vec::new(),
            sleep_entries: Vec::new(),
            sleep_starts: Vec::new(),
            sleep_large: Vec::new(),
            dirty: Vec::new(),
            dirty_entries: Vec::new(),
            dirty_starts: Vec::new(),
            dirty_large: Vec::new(),
            base_pairs: Vec::new(),
        }
    }
}

impl<R: Real> OwnedBuffers<R> {
    /// Views the storage, grown to fit `n` geometries.
    fn view(&mut self, n: usize) -> Buffers<'_, R> {
        fn fit<T: Clone>(v: &mut Vec<T>, len: usize, fill: T) -> &mut [T] {
            if v.len() < len {
                v.resize(len, fill);
            }
            v.as_mut_slice()
        }
        let m = n.saturating_mul(ENTRIES_PER_GEOM);
        Buffers {
            order: fit(&mut self.order, n, Default::default()),
            ranks: fit(&mut self.ranks, n, 0),
            roles: fit(&mut self.roles, n, 0),
            snapshot: fit(&mut self.snapshot, n, Slot::default().geom),
            keys: fit(&mut self.keys, n, FilterKey::default()),
            entries: fit(&mut self.entries, m, Default::default()),
            starts: fit(&mut self.starts, n + 2, Default::default()),
            large: fit(&mut self.large, n, Default::default()),
            sleep_entries: fit(&mut self.sleep_entries, m, Default::default()),
            sleep_starts: fit(&mut self.sleep_starts, n + 2, Default::default()),
            sleep_large: fit(&mut self.sleep_large, n, Default::default()),
            dirty: fit(&mut self.dirty, n, 0),
            dirty_entries: fit(&mut self.dirty_entries, m, Default::default()),
            dirty_starts: fit(&mut self.dirty_starts, n + 2, 0),
            dirty_large: fit(&mut self.dirty_large, n, Default::default()),
            base_pairs: self.base_pairs.as_mut_slice(),
        }
    }
}

/// Sweep and prune with its own storage (the `alloc` feature). Keep one per
/// scene and call [`Self::update`] once per frame: the sweep order and the
/// sleeping set carry over, so a frame where boxes move a little costs about
/// linear time.
#[derive(Clone, Debug)]
pub struct BroadPhase<R> {
    pub(crate) state: SapState<R>,
    pub(crate) buffers: OwnedBuffers<R>,
    budget: Option<usize>,
}

impl<R: Real> Default for BroadPhase<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Real> BroadPhase<R> {
    /// An empty broad phase with no pair budget (the pair list grows).
    pub fn new() -> Self {
        Self {
            state: SapState::new(),
            buffers: OwnedBuffers::default(),
            budget: None,
        }
    }

    /// The same, reporting at most `max_pairs` pairs per frame (Genesis'
    /// `max_collision_pairs`); see [`Self::update`].
    pub fn with_pair_budget(max_pairs: usize) -> Self {
        Self {
            budget: Some(max_pairs),
            ..Self::new()
        }
    }

    /// The pair budget, if any.
    pub fn pair_budget(&self) -> Option<usize> {
        self.budget
    }

    /// Forgets the sweep order and the sleeping set: the next frame sorts
    /// and lists everything afresh (also done when the geometry count
    /// changes).
    pub fn reset(&mut self) {
        self.state.reset();
    }

    /// Runs one frame over `geoms` (a geometry's id is its index) and
    /// replaces the contents of `pairs` with the candidate pairs: the pairs
    /// whose world AABBs overlap or touch (closed boxes) and that `filters`
    /// keep, each once as `(a, b)` with `a < b`, in the order described at
    /// [`SweepAndPrune::update`](crate::SweepAndPrune::update).
    ///
    /// With a pair budget and more pairs than it allows, returns
    /// [`BroadPhaseError::PairBudget`] with the number found and kept,
    /// `pairs` holding the first ones in the usual order. An invalid AABB is
    /// refused before anything is written (`pairs` is then empty).
    pub fn update(
        &mut self,
        geoms: &[Geom<R>],
        filters: &Filters,
        pairs: &mut Vec<CandidatePair>,
    ) -> Result<FrameReport, BroadPhaseError> {
        self.run(geoms, filters, pairs, false)
    }

    /// One frame, serial or parallel.
    pub(crate) fn run(
        &mut self,
        geoms: &[Geom<R>],
        filters: &Filters,
        pairs: &mut Vec<CandidatePair>,
        parallel: bool,
    ) -> Result<FrameReport, BroadPhaseError> {
        pairs.clear();
        let mut sink = VecSink {
            out: pairs,
            cap: self.budget.unwrap_or(usize::MAX),
            found: 0,
        };
        let mut buffers = self.buffers.view(geoms.len());
        let (mut report, base_needed) = run_frame(
            &mut self.state,
            &mut buffers,
            geoms,
            filters,
            &mut sink,
            parallel,
        )?;
        let found = sink.found;
        if base_needed > self.buffers.base_pairs.len() {
            // Room for the next full frame's pairs, so that the frames after
            // it can reuse them.
            let len = base_needed + base_needed / 4;
            self.buffers
                .base_pairs
                .resize(len, CandidatePair::default());
        }
        finish(found, pairs.len(), &mut report)
    }
}

/// The frame's result from the pairs found and kept.
pub(crate) fn finish(
    found: usize,
    kept: usize,
    report: &mut FrameReport,
) -> Result<FrameReport, BroadPhaseError> {
    if found > kept {
        return Err(BroadPhaseError::PairBudget { found, kept });
    }
    report.pairs = kept;
    Ok(*report)
}
