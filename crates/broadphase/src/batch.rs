//! Many independent scenes in one call, serially (see `par_update_batch`
//! with the `rayon` feature for the parallel version).

use crate::{BroadPhase, BroadPhaseError, CandidatePair, Filters, FrameReport, Geom};
use alloc::vec::Vec;
use mink_support::Real;

/// Runs one frame of many independent scenes (environments, as Genesis'
/// `n_envs`), scene `k` with `phases[k]`, `scenes[k]` and `pairs[k]` exactly
/// as [`BroadPhase::update`] would. Processes the shortest of the three
/// slices' length and returns one result per scene processed.
pub fn update_batch<R: Real>(
    phases: &mut [BroadPhase<R>],
    scenes: &[&[Geom<R>]],
    filters: &Filters,
    pairs: &mut [Vec<CandidatePair>],
) -> Vec<Result<FrameReport, BroadPhaseError>> {
    phases
        .iter_mut()
        .zip(scenes)
        .zip(pairs.iter_mut())
        .map(|((phase, scene), out)| phase.update(scene, filters, out))
        .collect()
}
