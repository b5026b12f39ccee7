//! The allocation-free broad phase over caller-provided storage.

use crate::pairs::SliceSink;
use crate::sap::{run_frame, SapState};
use crate::{BroadPhaseError, Buffers, CandidatePair, Filters, FrameReport, Geom};
use mink_support::Real;

/// Sweep and prune over caller-provided [`Buffers`], for `no_std` targets
/// without an allocator. Keep one per scene and call [`Self::update`] once
/// per frame: the sweep order and the sleeping set carry over.
#[derive(Debug)]
pub struct SweepAndPrune<'a, R> {
    state: SapState<R>,
    buffers: Buffers<'a, R>,
}

impl<'a, R: Real> SweepAndPrune<'a, R> {
    /// A broad phase over `buffers` (checked at each frame against the
    /// number of geometries).
    pub fn new(buffers: Buffers<'a, R>) -> Self {
        Self {
            state: SapState::new(),
            buffers,
        }
    }

    /// Forgets the sweep order and the sleeping set: the next frame sorts
    /// and lists everything afresh (also done when the geometry count
    /// changes).
    pub fn reset(&mut self) {
        self.state.reset();
    }

    /// Runs one frame over `geoms` (a geometry's id is its index) and writes
    /// the candidate pairs into `out`, the pair budget: the pairs whose world
    /// AABBs overlap or touch (closed boxes) and that `filters` keep, each
    /// once as `(a, b)` with `a < b`.
    ///
    /// Output order: a deterministic function of the frames seen so far
    /// (the same inputs give the same list, serial or parallel), grouped by
    /// the grid column where the pair was found; it is not sorted by id.
    ///
    /// Returns the frame's report, whose `pairs` counts the pairs written to
    /// `out[..pairs]`. If more pairs than `out.len()` were found, returns
    /// [`BroadPhaseError::PairBudget`] with both counts, `out` holding the
    /// first ones in the usual order. An invalid AABB or too-short storage
    /// is refused before anything is written.
    pub fn update(
        &mut self,
        geoms: &[Geom<R>],
        filters: &Filters,
        out: &mut [CandidatePair],
    ) -> Result<FrameReport, BroadPhaseError> {
        let mut sink = SliceSink {
            out,
            kept: 0,
            found: 0,
        };
        let (mut report, _) = run_frame(
            &mut self.state,
            &mut self.buffers,
            geoms,
            filters,
            &mut sink,
            false,
        )?;
        if sink.found > sink.kept {
            return Err(BroadPhaseError::PairBudget {
                found: sink.found,
                kept: sink.kept,
            });
        }
        report.pairs = sink.kept;
        Ok(report)
    }
}
