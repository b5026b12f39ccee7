//! The parallel paths (the `rayon` feature): one scene's narrow phase split
//! across threads, and many environments stepped at once. Both give
//! exactly the serial output.

use super::batch::SceneBatch;
use super::memory::Warm;
use super::report::{SceneError, SceneInput, StepReport};
use super::step::{NarrowCount, NarrowJob, NarrowPhase};
use super::storage::Sink;
use super::Contact;
use alloc::vec::Vec;
use mink_broadphase::CandidatePair;
use mink_gjk::GjkCache;
use mink_support::{Real, Support};
use rayon::prelude::*;

/// Pairs per parallel chunk of the narrow phase.
pub const PAR_CHUNK_PAIRS: usize = 64;

/// Below this many pairs the narrow phase runs serially: threads cost more
/// than they save.
pub const PAR_MIN_PAIRS: usize = 2 * PAR_CHUNK_PAIRS;

/// The narrow phase across threads: chunks of consecutive pairs, each into
/// its own list, concatenated in chunk order.
pub(crate) struct Parallel;

impl<R: Real, U: Support<R> + Sync> NarrowPhase<R, U> for Parallel {
    fn run<K: Sink<R>>(
        &self,
        job: &NarrowJob<'_, '_, R, U>,
        pairs: &[CandidatePair],
        select: Option<&[u8]>,
        sink: &mut K,
        warm: Option<Warm<'_, R>>,
    ) -> NarrowCount {
        if pairs.len() < PAR_MIN_PAIRS {
            return job.serial(pairs, select, sink, warm);
        }
        // Each chunk reads the last step's caches and writes its own run
        // of this step's slots.
        let (last, slots) = match warm {
            Some(w) => (Some(w.last), w.next),
            None => (None, &mut [][..]),
        };
        let chunk_pairs = pairs.par_chunks(PAR_CHUNK_PAIRS).enumerate();
        let run = |(c, chunk): (usize, &[CandidatePair]), mut slots: Option<&mut [GjkCache<R>]>| {
            let mut out = Vec::new();
            let mut count = NarrowCount::default();
            for (k, pair) in chunk.iter().enumerate() {
                if !NarrowJob::<R, U>::selected(select, pair) {
                    continue;
                }
                count.pairs += 1;
                let slot = slots.as_deref_mut().and_then(|s| s.get_mut(k));
                let i = c * PAR_CHUNK_PAIRS + k;
                let n = job.pair_warm(i, pair, last, slot, |c| out.push(c));
                count.found += n;
                if n > 0 {
                    count.in_contact += 1;
                }
            }
            (out, count)
        };
        let parts: Vec<(Vec<Contact<R>>, NarrowCount)> = if slots.len() == pairs.len() {
            chunk_pairs
                .zip(slots.par_chunks_mut(PAR_CHUNK_PAIRS))
                .map(|(chunk, s)| run(chunk, Some(s)))
                .collect()
        } else {
            chunk_pairs.map(|chunk| run(chunk, None)).collect()
        };
        let mut total = NarrowCount::default();
        for (contacts, count) in parts {
            for c in contacts {
                sink.push(c);
            }
            total.add(count);
        }
        total
    }
}

impl<'d, R: Real, U: Support<R> + Send + Sync> SceneBatch<'d, R, U> {
    /// [`Self::step`] with the environments stepped in parallel, each
    /// serially inside: environment `k` gets `inputs[k]`. Processes the
    /// shortest of the environment count and `inputs.len()`; one result per
    /// environment processed, exactly as serial.
    pub fn par_step(
        &mut self,
        inputs: &[SceneInput<'_, R>],
    ) -> Vec<Result<StepReport, SceneError>> {
        self.envs
            .par_iter_mut()
            .zip(inputs.par_iter())
            .map(|(env, input)| env.step(input))
            .collect()
    }
}
