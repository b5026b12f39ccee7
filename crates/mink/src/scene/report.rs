//! A step's settings, inputs, outcome and failures.

use crate::contact::MAX_MANIFOLD_POINTS;
use crate::query::Method;
use mink_broadphase::{BroadPhaseError, Filters};
use mink_islands::{Params, StepError};
use mink_support::{Iso3, Real};

/// How a scene runs its steps.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SceneConfig<R> {
    /// The broad phase's pair filters (all on by default: same link,
    /// parent–child, masks, both fixed, both asleep).
    pub filters: Filters,
    /// The penetration algorithm of general convex pairs.
    pub method: Method,
    /// The most contact points kept per pair (at most
    /// [`MAX_MANIFOLD_POINTS`] are produced).
    pub max_points_per_pair: usize,
    /// Hibernation settings (speed threshold, on/off).
    pub hibernation: Params<R>,
    /// Keep each candidate pair's GJK state from one step to the next
    /// (the owning scene, [`SceneBuf`](super::SceneBuf); the
    /// allocation-free [`Scene`](super::Scene) has no storage for it and
    /// ignores this). A pair that moved a little starts from last step's
    /// simplex and converges in fewer iterations; its contacts are the
    /// cold ones to within GJK's tolerance, so a step's output then
    /// depends, that little, on the steps before it. Off: every step
    /// computes every pair from scratch. On by default.
    pub warm_start: bool,
}

impl<R: Real> SceneConfig<R> {
    /// Every filter on, [`Method::Auto`], full manifolds, hibernation on
    /// with the default threshold.
    pub fn new() -> Self {
        Self {
            filters: Filters::ALL,
            method: Method::Auto,
            max_points_per_pair: MAX_MANIFOLD_POINTS,
            hibernation: Params::new(),
            warm_start: true,
        }
    }
}

impl<R: Real> Default for SceneConfig<R> {
    fn default() -> Self {
        Self::new()
    }
}

/// The per-step state of a scene.
#[derive(Clone, Copy, Debug)]
pub struct SceneInput<'a, R> {
    /// Each link's pose (link frame to world, meters), indexed by link; at
    /// least as many as the scene has links.
    pub link_poses: &'a [Iso3<R>],
    /// The dof velocities before this step's solve (m/s, rad/s), indexed by
    /// the links' dof ranges; at least the scene's dof count. Read for
    /// hibernation only.
    pub dof_vel: &'a [R],
    /// Links pushed from outside this step (a user, another solver): each
    /// wakes its island before detection.
    pub wake: &'a [u32],
}

impl<'a, R> SceneInput<'a, R> {
    /// Poses and velocities, no external wake.
    pub fn new(link_poses: &'a [Iso3<R>], dof_vel: &'a [R]) -> Self {
        Self {
            link_poses,
            dof_vel,
            wake: &[],
        }
    }
}

/// What one step did, in counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct StepReport {
    /// Pairs the broad phase handed to the narrow phase (the first frame's
    /// pairs plus the new pairs of the woken geometries).
    pub broadphase_pairs: usize,
    /// Of those, pairs that gave at least one contact.
    pub pairs_in_contact: usize,
    /// Contacts written to the buffer.
    pub contacts: usize,
    /// Geometries in the first broad-phase frame's sweep (awake).
    pub awake_geoms: usize,
    /// Geometries left out of that sweep (sleeping, or on fixed links).
    pub asleep_geoms: usize,
    /// Links woken this step (by contacts, constraints or requests).
    pub woken_links: u32,
    /// Re-detection passes run for woken links (0 when nothing woke).
    pub wake_passes: u32,
    /// Islands built this step (awake, including those that fell asleep).
    pub islands: u32,
    /// Links awake after the step.
    pub awake_links: u32,
    /// Islands asleep after the step.
    pub sleeping_islands: u32,
}

/// Why a step was refused or cut short. A failed step leaves the
/// hibernation state as it was before the step (except for islands woken
/// ahead of detection, which stay awake); the contacts written so far stay
/// readable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneError {
    /// `link_poses` or `dof_vel` (a sweep's `start` or `end`) is shorter
    /// than the scene needs.
    InputTooShort {
        /// `"link_poses"`, `"dof_vel"`, `"start"` or `"end"`.
        input: &'static str,
        /// The length needed.
        needed: usize,
        /// The length given.
        given: usize,
    },
    /// The broad phase refused the frame: an invalid (non-finite) world
    /// AABB, too-short storage, or the pair budget exceeded
    /// ([`BroadPhaseError::PairBudget`] with the pairs found and kept).
    BroadPhase(BroadPhaseError),
    /// The contact buffer is full: `found` contacts were produced and only
    /// the first `kept` (in pair order) were written; `found - kept` were
    /// dropped. The islands were not stepped.
    ContactCapacity {
        /// Contacts the narrow phase produced.
        found: usize,
        /// Contacts written (the buffer's capacity).
        kept: usize,
    },
    /// The islands refused the step (a capacity of their buffer, an
    /// external wake request naming no link).
    Islands(StepError),
    /// A caller-provided buffer (named) is shorter than the scene needs.
    StorageTooSmall {
        /// The name of the buffer.
        buffer: &'static str,
        /// The length it needs.
        needed: usize,
        /// The length it has.
        given: usize,
    },
    /// A sweep's clearance is negative or not finite.
    InvalidClearance,
}

impl core::fmt::Display for SceneError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SceneError::InputTooShort {
                input,
                needed,
                given,
            } => write!(f, "`{input}` holds {given}, needs {needed}"),
            SceneError::BroadPhase(e) => write!(f, "broad phase: {e}"),
            SceneError::ContactCapacity { found, kept } => write!(
                f,
                "contact buffer full: {found} contacts found, {kept} kept, {} dropped",
                found - kept
            ),
            SceneError::Islands(e) => write!(f, "islands: {e}"),
            SceneError::StorageTooSmall {
                buffer,
                needed,
                given,
            } => write!(f, "buffer `{buffer}` holds {given}, needs {needed}"),
            SceneError::InvalidClearance => {
                write!(f, "the sweep's clearance is negative or not finite")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SceneError {}

impl From<BroadPhaseError> for SceneError {
    fn from(e: BroadPhaseError) -> Self {
        SceneError::BroadPhase(e)
    }
}

impl From<StepError> for SceneError {
    fn from(e: StepError) -> Self {
        SceneError::Islands(e)
    }
}
