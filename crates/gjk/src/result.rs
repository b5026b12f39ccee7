//! What GJK and EPA return.

use mink_support::{Real, Vec3};

/// How a GJK query ended, and so what its [`Distance`] proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum GjkStatus {
    /// Converged with the cores apart: `distance` is the signed distance of
    /// the full shapes within the tolerance. It is negative when the
    /// inflated shapes overlap while their cores do not, and exact then too
    /// (sphere–sphere, capsule–capsule penetration).
    Converged,
    /// The cores touch or overlap (their distance is below the tolerance),
    /// or, in [`Stop::Collision`](crate::Stop::Collision) mode, are proven
    /// within the inflation of each other. `distance` is minus the
    /// inflation: an upper bound on the signed distance, exact only when
    /// the cores just touch. Run [`epa`](crate::epa) for the depth.
    Intersecting,
    /// [`Stop::Collision`](crate::Stop::Collision): a separating plane
    /// proves the shapes apart; `distance` is a proven positive lower bound
    /// and `normal` that plane's normal.
    Separated,
    /// [`Stop::Margin`](crate::Stop::Margin): the distance is proven larger
    /// than the margin; `distance` is the proven lower bound.
    BeyondMargin,
    /// [`MAX_GJK_ITERATIONS`](crate::MAX_GJK_ITERATIONS) reached: the answer
    /// so far (an upper bound on the distance).
    IterationLimit,
    /// Progress stalled on round-off before the tolerance was met (nearly
    /// parallel features at f32 precision, huge size ratios): the answer so
    /// far, accurate to about `sqrt(ε)` of the shapes' size.
    Degenerate,
    /// A pose or inflation is not finite: every field of the result is
    /// zero except the normal (`+x`).
    NonFinite,
}

impl GjkStatus {
    /// `true` for [`GjkStatus::Intersecting`]: the cores overlap or touch
    /// (a [`Distance`] may also say "overlapping" through a negative
    /// converged distance, for inflated shapes).
    pub fn is_intersecting(self) -> bool {
        self == GjkStatus::Intersecting
    }
}

/// The result of a GJK distance query, world frame (through `pose_a`).
///
/// Apart, `p_b - p_a = distance * normal`; `p_a` lies on A's surface and
/// `p_b` on B's (the inflation included).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Distance<R> {
    /// Signed distance in meters (see [`GjkStatus`] for what it is in each
    /// case): the gap when apart.
    pub distance: R,
    /// Witness point on A, world frame, meters.
    pub p_a: Vec3<R>,
    /// Witness point on B, world frame, meters.
    pub p_b: Vec3<R>,
    /// Unit normal from A towards B, world frame.
    pub normal: Vec3<R>,
    /// Support calls made.
    pub iterations: u32,
    /// How the query ended.
    pub status: GjkStatus,
}

impl<R: Real> Distance<R> {
    pub(crate) fn non_finite() -> Self {
        Self {
            distance: R::ZERO,
            p_a: Vec3::ZERO,
            p_b: Vec3::ZERO,
            normal: Vec3::X,
            iterations: 0,
            status: GjkStatus::NonFinite,
        }
    }
}

/// How an EPA (penetration) query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum EpaStatus {
    /// Converged: `depth` is the penetration depth within the tolerance
    /// (zero for touching shapes). Also returned when GJK alone settled it:
    /// cores apart but inflated shapes overlapping (exact).
    Converged,
    /// The shapes are apart: `depth` is minus the distance (negative) and
    /// the rest comes from GJK.
    Separated,
    /// The polytope buffer is full before EPA's bounds met: the answer is
    /// that of a descent on directions from the best one EPA tried (see
    /// `epa/descent.rs`): `depth` is the overlap along `normal`, an upper
    /// bound on the depth (B moved by it along the normal clears A), close
    /// to it but not certified (within 4e-6 of the size in f64 and 1e-4 in
    /// f32 on a point near a cylinder's axis, the worst case tested).
    CapacityReached,
    /// [`MAX_EPA_ITERATIONS`](crate::MAX_EPA_ITERATIONS) reached: the
    /// answer is the descent's, as for [`EpaStatus::CapacityReached`].
    IterationLimit,
    /// `A ⊖ B` is flat (no volume: a point or a segment against a segment,
    /// a triangle...) or round-off broke the polytope: the answer so far;
    /// for a flat difference `depth` is the inflation (the cores touch).
    Degenerate,
    /// GJK did not settle the query (iteration cap) before EPA could start:
    /// the GJK answer, `depth` minus its distance.
    GjkFailed,
    /// A pose or inflation is not finite: zero depth, normal `+x`.
    NonFinite,
}

/// The result of a penetration query, world frame (through `pose_a`).
///
/// Overlapping, `p_a - p_b = depth * normal`: moving B by `depth * normal`
/// brings the shapes to touching; `p_a` is A's deepest point inside B and
/// `p_b` B's deepest point inside A.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Penetration<R> {
    /// Penetration depth in meters, positive when overlapping (minus the
    /// distance when [`EpaStatus::Separated`]).
    pub depth: R,
    /// Unit normal from A towards B, world frame.
    pub normal: Vec3<R>,
    /// Witness point on A, world frame, meters.
    pub p_a: Vec3<R>,
    /// Witness point on B, world frame, meters.
    pub p_b: Vec3<R>,
    /// GJK support calls plus EPA expansions.
    pub iterations: u32,
    /// How the query ended.
    pub status: EpaStatus,
}

impl<R: Real> Penetration<R> {
    pub(crate) fn non_finite() -> Self {
        Self {
            depth: R::ZERO,
            normal: Vec3::X,
            p_a: Vec3::ZERO,
            p_b: Vec3::ZERO,
            iterations: 0,
            status: EpaStatus::NonFinite,
        }
    }
}
