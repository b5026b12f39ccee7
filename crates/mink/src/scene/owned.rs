//! The owning scene (the `alloc` feature): storage that grows with the
//! scene, with an optional pair budget and contact capacity.

use super::contact::{Contact, ContactsBetween, ContactsOf, EntityContacts, EntityFilter};
use super::description::SceneDesc;
use super::memory::PairMemory;
use super::report::{SceneConfig, SceneError, SceneInput, StepReport};
use super::step::{Core, Serial};
use super::storage::{OwnedBroad, OwnedGeoms, OwnedSink};
use super::sweep::{SweepHit, SweepReport, SweepState};
use crate::shape::NoCustomShape;
use alloc::vec;
use alloc::vec::Vec;
use mink_broadphase::{BroadPhase, CandidatePair, Geom};
use mink_islands::Islands;
use mink_support::{Iso3, Real, Support};

/// A scene stepped through the whole collision pipeline, owning growable
/// storage (the `alloc` feature). No pair budget and no contact capacity
/// unless set ([`Self::with_pair_budget`], [`Self::with_contact_capacity`]).
///
/// `'d` borrows the description. See [`Scene`](super::Scene) for the
/// allocation-free variant and the module docs for the step.
#[derive(Debug)]
pub struct SceneBuf<'d, R: Real, U = NoCustomShape> {
    core: OwnedCore<'d, R, U>,
    sweep: SweepState<R>,
}

/// The step's state over owned storage.
type OwnedCore<'d, R, U> =
    Core<'d, R, U, OwnedGeoms<R>, OwnedBroad<R>, OwnedSink<R>, Vec<u32>, PairMemory<R>>;

impl<'d, R: Real, U: Support<R>> SceneBuf<'d, R, U> {
    /// A scene over `desc`, every moving link awake. Refused only when the
    /// islands' buffer size overflows.
    pub fn new(desc: SceneDesc<'d, R, U>, config: SceneConfig<R>) -> Result<Self, SceneError> {
        let n = desc.geoms().len();
        let islands = Islands::owned(desc.topology(), config.hibernation)?;
        let zero_geom = Geom::new(mink_support::Aabb::EMPTY, 0);
        Ok(Self {
            core: Core {
                desc,
                config,
                geoms: OwnedGeoms {
                    poses: vec![Iso3::IDENTITY; n],
                    geoms: vec![zero_geom; n],
                    flags: vec![0; n],
                },
                broad: OwnedBroad {
                    phase: BroadPhase::new(),
                    pairs: Vec::new(),
                    #[cfg(feature = "rayon")]
                    parallel: false,
                },
                sink: OwnedSink {
                    contacts: Vec::new(),
                    links: Vec::new(),
                    cap: usize::MAX,
                },
                islands,
                memory: PairMemory::new(),
                report: StepReport::default(),
            },
            sweep: SweepState::default(),
        })
    }

    /// The same scene with a pair budget of `max_pairs` per broad-phase
    /// frame (Genesis' `max_collision_pairs`): a frame finding more fails
    /// with [`BroadPhaseError::PairBudget`](mink_broadphase::BroadPhaseError::PairBudget).
    /// Resets the broad phase's frame-to-frame state.
    pub fn with_pair_budget(mut self, max_pairs: usize) -> Self {
        self.core.broad.phase = BroadPhase::with_pair_budget(max_pairs);
        self
    }

    /// The same scene with room for at most `max_contacts` contacts per
    /// step: a step producing more fails with
    /// [`SceneError::ContactCapacity`].
    pub fn with_contact_capacity(mut self, max_contacts: usize) -> Self {
        self.core.sink.cap = max_contacts;
        self
    }

    /// The pair budget, if any.
    pub fn pair_budget(&self) -> Option<usize> {
        self.core.broad.phase.pair_budget()
    }

    /// The contact capacity, if any.
    pub fn contact_capacity(&self) -> Option<usize> {
        Some(self.core.sink.cap).filter(|&c| c != usize::MAX)
    }

    /// Sweeps the broad phase across threads in every step (the `rayon`
    /// feature; worth it from a few thousand geometries). The output is the
    /// same either way.
    #[cfg(feature = "rayon")]
    pub fn with_parallel_broadphase(mut self, parallel: bool) -> Self {
        self.core.broad.parallel = parallel;
        self
    }

    /// Checks the motion of every link from the poses `start` to the
    /// poses `end` (world, one per link: a robot's pose sets at two
    /// consecutive control ticks) for collisions anywhere on the way,
    /// not only at the two ends: each geometry's world pose is
    /// interpolated on its own (origin linearly, rotation at constant
    /// angular speed along the shorter arc), the swept boxes (grown by
    /// each geometry's margin and `clearance`) go through a broad phase
    /// with the scene's filters (sleep ignored), and every candidate pair
    /// is shape-cast over the motion ([`shape_cast`](crate::shape_cast)),
    /// with target distance `clearance` (meters, `>= 0`).
    ///
    /// `hits` receives each pair that comes within `clearance`, with the
    /// first time it does (a fraction of the motion in `[0, 1]`), sorted
    /// by that time: the first entry is the first contact of the whole
    /// motion. A pair's time is never late: the motion before it is
    /// proven clear of the pair (within the cast's tolerance,
    /// [`cast_tolerance`](crate::cast::cast_tolerance)). Height fields and
    /// meshes must stay put; the pairs without a cast are counted in the
    /// report (see [`SweepReport::unsupported_pairs`]).
    ///
    /// Fails on a short `start` or `end`, a negative or non-finite
    /// `clearance` ([`SceneError::InvalidClearance`]), or a broad-phase
    /// error (a non-finite pose, the pair budget). The scene's step state
    /// is untouched: a sweep can run before or after a step.
    pub fn sweep(
        &mut self,
        start: &[Iso3<R>],
        end: &[Iso3<R>],
        clearance: R,
        hits: &mut Vec<SweepHit<R>>,
    ) -> Result<SweepReport, SceneError> {
        let filters = self.core.config.filters;
        self.sweep
            .run(&self.core.desc, filters, start, end, clearance, hits)
    }

    super::scene_api!(Vec<u32>);
}
