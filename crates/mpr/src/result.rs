//! What the queries return.

use mink_support::{Real, Vec3};

/// How a query ended. Every status other than [`MprStatus::Converged`] says
/// something the caller may want to act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum MprStatus {
    /// The shapes overlap and the answer is certified: the depth is the
    /// minimum translation within the tolerance (`depth_lower_bound` has
    /// caught up with `depth`). For two inflated shapes whose cores are
    /// apart it is exact (closest points of the cores).
    Converged,
    /// The shapes do not overlap (touching within the tolerance counts as
    /// separated). `normal` is then a separating direction from A to B when
    /// one was found.
    Separated,
    /// A refinement or discovery loop hit its `MAX_*` cap; the answer is the
    /// last portal's (overlapping) or unknown (`depth == 0`). Also an
    /// overlapping answer that the passes cast along its normal did not
    /// make self-consistent (curved surfaces, deep overlaps): `depth` is
    /// still a separating translation along `normal` and the witnesses are
    /// points of A and B, but `p_a - p_b` is not `depth * normal` (it is
    /// the point where the ray along `normal` leaves the difference, when
    /// a pass found it).
    IterationCap,
    /// The Minkowski difference has no volume around the interior point
    /// (point–point, point–segment, segment–segment without inflation): the
    /// shapes can only touch, and the query reports them as not overlapping.
    Degenerate,
    /// An input (a pose, a shape's interior point or inflation) is not
    /// finite, or the computation produced a non-finite value; every output
    /// field is zero.
    NonFinite,
    /// The shapes overlap but the answer is not proven minimal: MPR's ray
    /// found a face, the re-seeding passes and the certification steps
    /// allowed by [`MprSettings`] did not prove that no shallower direction
    /// exists. `depth` is still a valid separating translation along
    /// `normal` (an upper bound of the true depth) and `depth_lower_bound` a
    /// proven lower bound. Typical of deep overlaps and of curved surfaces;
    /// see the crate docs for how far off such answers are.
    Unverified,
}

/// The result of [`penetration`](crate::penetration): world frame, meters.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Penetration<R> {
    /// How the query ended.
    pub status: MprStatus,
    /// Penetration depth (meters, `>= 0`): moving B by `depth * normal`
    /// makes the shapes touch. Zero unless overlapping. Never below the
    /// true penetration depth (it is a separating translation).
    pub depth: R,
    /// A proven lower bound of the true penetration depth (meters): the
    /// true minimum translation lies in `[depth_lower_bound, depth]`. Equal
    /// to `depth` within the tolerance when the status is
    /// [`MprStatus::Converged`]; how far below it is says how unsure a
    /// [`MprStatus::Unverified`] answer is.
    pub depth_lower_bound: R,
    /// Unit contact normal from A to B (world frame). For
    /// [`MprStatus::Separated`], a separating direction from A to B (unit)
    /// or zero; zero for the error statuses.
    pub normal: Vec3<R>,
    /// The contact point (world frame): the midpoint of `p_a` and `p_b`.
    pub position: Vec3<R>,
    /// The deepest point of A inside B, on A's surface (world frame).
    pub p_a: Vec3<R>,
    /// The deepest point of B inside A, on B's surface (world frame).
    /// For [`MprStatus::Converged`] and [`MprStatus::Unverified`],
    /// `p_a - p_b` is `depth * normal` within
    /// [`witness_tolerance`](crate::witness_tolerance) of the difference's
    /// size and each witness lies on its shape within that: the answer is
    /// self-consistent (the boundary of the difference along `normal` is
    /// at `depth`). An answer that could not be made so is reported
    /// [`MprStatus::IterationCap`].
    pub p_b: Vec3<R>,
    /// Discovery plus refinement iterations, summed over every pass.
    pub iterations: u32,
    /// MPR passes run: 1, plus one per re-seeding.
    pub passes: u32,
}

impl<R: Real> Penetration<R> {
    /// `true` when the shapes overlap: the status is one that carries a depth
    /// ([`MprStatus::Converged`], [`MprStatus::Unverified`], or
    /// [`MprStatus::IterationCap`] with a positive depth).
    pub fn is_overlapping(&self) -> bool {
        match self.status {
            MprStatus::Converged | MprStatus::Unverified => true,
            MprStatus::IterationCap => self.depth > R::ZERO,
            _ => false,
        }
    }

    /// The signed distance (meters): `-depth` when overlapping, zero
    /// otherwise (MPR does not measure gaps; use GJK for those).
    pub fn signed_distance(&self) -> R {
        -self.depth
    }

    /// A result with every field zero and the given status.
    pub(crate) fn empty(status: MprStatus) -> Self {
        Self {
            status,
            depth: R::ZERO,
            depth_lower_bound: R::ZERO,
            normal: Vec3::ZERO,
            position: Vec3::ZERO,
            p_a: Vec3::ZERO,
            p_b: Vec3::ZERO,
            iterations: 0,
            passes: 0,
        }
    }
}

/// The result of [`intersect`](crate::intersect).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Intersection {
    /// `true` when the shapes (cores plus inflation) overlap. Touching within
    /// the tolerance counts as not overlapping, except when the shapes'
    /// interior points coincide.
    pub overlapping: bool,
    /// [`MprStatus::Converged`] when overlapping, [`MprStatus::Separated`]
    /// when not, or an error status (then `overlapping` is `false`).
    pub status: MprStatus,
    /// Discovery plus refinement iterations.
    pub iterations: u32,
}

/// Default of [`MprSettings::reseed_passes`]: one re-seeding pass, which
/// fixes most first answers that are not self-consistent on polytopes; more
/// passes rarely pay for themselves (see the crate docs).
pub const DEFAULT_RESEED_PASSES: u32 = 1;

/// Default of [`MprSettings::certify_steps`]: two steps, which certify about
/// 98% of shallow box–box answers for about 5% more time; deep answers
/// mostly stay [`MprStatus::Unverified`]. Raise it (up to
/// [`MAX_CERTIFY_STEPS`](crate::MAX_CERTIFY_STEPS)) for certified deep
/// answers on polytopes.
pub const DEFAULT_CERTIFY_STEPS: u32 = 2;

/// Knobs of [`penetration_with`](crate::penetration_with).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct MprSettings {
    /// Re-seeding passes allowed after the first (capped at
    /// [`MAX_RESEED_PASSES`](crate::MAX_RESEED_PASSES)). `0` gives classic
    /// MPR, whose non-self-consistent answers are then reported as
    /// [`MprStatus::Unverified`].
    pub reseed_passes: u32,
    /// Use the exact closest-core-point answer for inflated shapes whose
    /// cores are apart (on by default; off only to measure what it buys).
    pub exact_inflated: bool,
    /// Certification steps allowed after MPR (capped at
    /// [`MAX_CERTIFY_STEPS`](crate::MAX_CERTIFY_STEPS)). `0` keeps MPR's
    /// answer as it is; it is then reported [`MprStatus::Converged`] only
    /// when MPR's own tetrahedron already proves it minimal.
    pub certify_steps: u32,
}

impl Default for MprSettings {
    fn default() -> Self {
        Self {
            reseed_passes: DEFAULT_RESEED_PASSES,
            exact_inflated: true,
            certify_steps: DEFAULT_CERTIFY_STEPS,
        }
    }
}
