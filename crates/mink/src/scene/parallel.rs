//! The parallel paths (the `rayon` feature): one scene's narrow phase split
//! across threads, and many environments stepped at once. Both give
//! exactly the serial output.

use super::batch::SceneBatch;
use super::report::{SceneError, SceneInput, StepReport};
use super::step::{NarrowCount, NarrowJob, NarrowPhase};
use super::storage::Sink;
use super::Contact;
use alloc::vec::Vec;
use mink_broadphase::CandidatePair;
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
    ) -> NarrowCount {
        if pairs.len() < PAR_MIN_PAIRS {
            return job.serial(pairs, select, sink);
        }
        let parts: Vec<(Vec<Contact<R>>, NarrowCount)> = pairs
            .par_chunks(PAR_CHUNK_PAIRS)
            .map(|chunk| {
                let mut out = Vec::new();
                let mut count = NarrowCount::default();
                for pair in chunk
                    .iter()
                    .filter(|p| NarrowJob::<R, U>::selected(select, p))
                {
                    count.pairs += 1;
                    let n = job.pair(pair, |c| out.push(c));
                    count.found += n;
                    if n > 0 {
                        count.in_contact += 1;
                    }
                }
                (out, count)
            })
            .collect();
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
