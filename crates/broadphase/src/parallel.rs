//! The parallel paths (the `rayon` feature): one scene's sweep split across
//! threads, and many independent scenes at once. Both give exactly the
//! serial output.

use crate::columns::{Columns, Entry};
use crate::incremental::IncFrame;
use crate::order::Slot;
use crate::pairs::PairSink;
use crate::sap::{Frame, SleepFrame};
use crate::{BroadPhase, BroadPhaseError, CandidatePair, Filters, FrameReport, Geom};
use alloc::vec::Vec;
use mink_support::Real;
use rayon::prelude::*;

/// Below this many column entries a frame (or its sleeping part) is swept
/// serially: threads cost more than they save.
pub const PARALLEL_MIN_ENTRIES: usize = 4096;

/// Work chunks per thread, so that uneven columns still balance.
pub const CHUNKS_PER_THREAD: usize = 8;

/// Splits columns `0..columns` into chunks of about equal entry counts.
fn chunks_of<R: Real>(cols: &Columns<'_, R>, pieces: usize) -> Vec<(usize, usize)> {
    let columns = cols.count();
    let target = cols.entries.len() / pieces + 1;
    let mut chunks = Vec::with_capacity(pieces + 1);
    let (mut lo, mut acc) = (0, 0);
    for c in 0..columns {
        acc += cols.column(c).len();
        if acc >= target {
            chunks.push((lo, c + 1));
            lo = c + 1;
            acc = 0;
        }
    }
    if lo < columns {
        chunks.push((lo, columns));
    }
    chunks
}

/// Runs `work` on each chunk in parallel, each into its own list, and
/// passes the lists to `sink` in chunk order.
fn in_order<T: Sync, S: PairSink>(
    items: &[T],
    work: impl Fn(&T, &mut Vec<CandidatePair>) + Sync,
    sink: &mut S,
) {
    let parts: Vec<Vec<CandidatePair>> = items
        .par_iter()
        .map(|item| {
            let mut v = Vec::new();
            work(item, &mut v);
            v
        })
        .collect();
    drain(parts, sink);
}

fn pieces() -> usize {
    rayon::current_num_threads().max(1) * CHUNKS_PER_THREAD
}

impl<R: Real> Frame<'_, R> {
    /// [`Frame::emit`] split across threads; chunks are concatenated in
    /// order, so the output is the serial one.
    pub(crate) fn par_emit<S: PairSink>(&self, filters: &Filters, sink: &mut S) {
        if self.awake.entries.len() < PARALLEL_MIN_ENTRIES {
            self.emit(filters, sink);
            return;
        }
        let chunks = chunks_of(&self.awake, pieces());
        in_order(
            &chunks,
            |&(lo, hi), v| {
                for c in lo..hi {
                    self.awake.sweep_column(c, filters, v);
                }
            },
            sink,
        );
        self.large.sweep_column(0, filters, sink);
        let per = self.large.entries.len() / pieces() + 1;
        let large: Vec<&[Entry<R>]> = self.large.entries.chunks(per).collect();
        in_order(
            &large,
            |chunk, v| {
                for e in *chunk {
                    self.large_vs_columns(e, filters, v);
                }
            },
            sink,
        );
    }
}

impl<R: Real> SleepFrame<'_, R> {
    /// [`SleepFrame::emit`] split across threads; chunks are concatenated
    /// in order, so the output is the serial one.
    pub(crate) fn par_emit<S: PairSink>(&self, filters: &Filters, sink: &mut S) {
        if self.queries.entries.len() < PARALLEL_MIN_ENTRIES {
            self.emit(filters, sink);
            return;
        }
        let chunks = chunks_of(&self.queries, pieces());
        in_order(
            &chunks,
            |&(lo, hi), v| {
                for c in lo..hi {
                    self.sleep
                        .sweep_queries(&self.queries, c, filters, |_| true, v);
                }
            },
            sink,
        );
        let per = self.large_queries.len() / pieces() + 1;
        let large: Vec<&[Entry<R>]> = self.large_queries.chunks(per).collect();
        in_order(
            &large,
            |chunk, v| {
                for e in *chunk {
                    self.large_query(e, filters, v);
                }
            },
            sink,
        );
        if !self.sleep_large.entries.is_empty() {
            let per = self.order.len() / pieces() + 1;
            let order: Vec<&[Slot<R>]> = self.order.chunks(per).collect();
            in_order(
                &order,
                |chunk, v| {
                    for s in *chunk {
                        self.sleep_large.query(s.id, &s.geom, filters, |_| true, v);
                    }
                },
                sink,
            );
        }
    }
}

impl<R: Real> IncFrame<'_, R> {
    /// [`IncFrame::emit`] split across threads; chunks are concatenated in
    /// order, so the output is the serial one.
    pub(crate) fn par_emit<S: PairSink>(&self, filters: &Filters, sink: &mut S) {
        if self.base_pairs.len() + self.dirty.len() < PARALLEL_MIN_ENTRIES {
            self.emit(filters, sink);
            return;
        }
        let per = self.base_pairs.len() / pieces() + 1;
        let pairs: Vec<&[CandidatePair]> = self.base_pairs.chunks(per).collect();
        in_order(&pairs, |chunk, v| self.clean_pairs(chunk, v), sink);
        let chunks = chunks_of(&self.changed, pieces());
        in_order(
            &chunks,
            |&(lo, hi), v| {
                for c in lo..hi {
                    self.dirty_vs_base_column(c, filters, v);
                }
            },
            sink,
        );
        self.dirty_vs_base_rest(filters, sink);
        let per = self.dirty.len() / pieces() + 1;
        let dirty: Vec<&[u32]> = self.dirty.chunks(per).collect();
        if self.has_sleepers() {
            in_order(
                &dirty,
                |chunk, v| self.dirty_vs_sleeping(chunk, filters, v),
                sink,
            );
        }
        in_order(
            &chunks,
            |&(lo, hi), v| {
                for c in lo..hi {
                    self.changed.sweep_column(c, filters, v);
                }
            },
            sink,
        );
        self.dirty_large(filters, sink);
    }
}

fn drain<S: PairSink>(parts: Vec<Vec<CandidatePair>>, sink: &mut S) {
    for part in parts {
        for pair in part {
            sink.push(pair);
        }
    }
}

impl<R: Real> BroadPhase<R> {
    /// [`Self::update`] with the full sort and the sweep split across
    /// threads (the `rayon` feature): exactly the same pairs in the same
    /// order, worth it from a few thousand geometries.
    pub fn par_update(
        &mut self,
        geoms: &[Geom<R>],
        filters: &Filters,
        pairs: &mut Vec<CandidatePair>,
    ) -> Result<FrameReport, BroadPhaseError> {
        self.run(geoms, filters, pairs, true)
    }
}

/// Runs one frame of many independent scenes (environments, as Genesis'
/// `n_envs`) in parallel, scene `k` with `phases[k]`, `scenes[k]` and
/// `pairs[k]` exactly as [`BroadPhase::update`] would, each serially inside.
/// Processes the shortest of the three slices' length and returns one result
/// per scene processed.
pub fn par_update_batch<R: Real>(
    phases: &mut [BroadPhase<R>],
    scenes: &[&[Geom<R>]],
    filters: &Filters,
    pairs: &mut [Vec<CandidatePair>],
) -> Vec<Result<FrameReport, BroadPhaseError>> {
    phases
        .par_iter_mut()
        .zip(scenes.par_iter())
        .zip(pairs.par_iter_mut())
        .map(|((phase, scene), out)| phase.update(scene, filters, out))
        .collect()
}
