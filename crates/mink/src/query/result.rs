//! What the shape-enum queries return.

use mink_support::{Real, Vec3};

/// Which algorithm produced an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Algorithm {
    /// A closed form for the pair (sphere–sphere, capsule–capsule,
    /// sphere–box, half-space against anything).
    Analytic,
    /// GJK (distance of separated shapes, boolean intersection).
    Gjk,
    /// GJK then EPA (penetration depth).
    Epa,
    /// Minkowski Portal Refinement (penetration depth, intersection).
    Mpr,
}

impl Algorithm {
    /// The name used by the query format: `"analytic"`, `"gjk"`, `"epa"`
    /// or `"mpr"`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Analytic => "analytic",
            Algorithm::Gjk => "gjk",
            Algorithm::Epa => "epa",
            Algorithm::Mpr => "mpr",
        }
    }
}

/// How a query ended, and so how far its answer can be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Status {
    /// A closed form answered: exact up to rounding.
    Exact,
    /// The iterative algorithm converged within its tolerance.
    Converged,
    /// MPR found an overlap but could not prove its depth minimal: the
    /// depth is a valid separating translation (an upper bound), and the
    /// answer is self-consistent (`p_a - p_b = depth * normal`, each
    /// witness on its shape).
    Unverified,
    /// An iteration or capacity cap was reached: the best answer so far.
    /// When overlapping, the depth is a separating translation along the
    /// normal and the witnesses are points of the shapes, but
    /// `p_a - p_b` need not be `depth * normal`.
    IterationLimit,
    /// Round-off or a flat Minkowski difference stopped the algorithm
    /// early: the answer so far (approximate).
    Degenerate,
    /// A pose or margin is not finite, or a margin is negative (or a
    /// result overflowed): every field is zero, the normal `+x`.
    InvalidInput,
    /// The pair has no meaningful answer (two half-spaces): every field is
    /// zero, the normal `+x`.
    Unsupported,
}

impl Status {
    /// `true` unless the query failed ([`Status::InvalidInput`],
    /// [`Status::Unsupported`]).
    pub fn is_answer(self) -> bool {
        !matches!(self, Status::InvalidInput | Status::Unsupported)
    }

    /// `true` when the algorithm finished ([`Status::Exact`],
    /// [`Status::Converged`], [`Status::Unverified`]): the answer is
    /// self-consistent, each witness on its shape and, overlapping,
    /// `p_a - p_b = depth * normal`. `false` for an answer a cap or
    /// round-off cut short, and for a failed query.
    pub fn is_finished(self) -> bool {
        matches!(self, Status::Exact | Status::Converged | Status::Unverified)
    }
}

/// The answer of [`distance`](crate::query::distance) and
/// [`penetration`](crate::query::penetration): world frame, meters.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Proximity<R> {
    /// Signed distance: the gap when apart, minus the penetration depth
    /// when overlapping.
    pub distance: R,
    /// Witness point on A (world frame).
    pub p_a: Vec3<R>,
    /// Witness point on B (world frame).
    pub p_b: Vec3<R>,
    /// Unit normal from A towards B (world frame).
    pub normal: Vec3<R>,
    /// Iterations of the algorithm(s) run (0 for analytic answers).
    pub iterations: u32,
    /// Which algorithm gave the answer.
    pub algorithm: Algorithm,
    /// How the query ended.
    pub status: Status,
}

impl<R: Real> Proximity<R> {
    /// A failed answer: zero fields, normal `+x`.
    pub(crate) fn failed(status: Status, algorithm: Algorithm) -> Self {
        Self {
            distance: R::ZERO,
            p_a: Vec3::ZERO,
            p_b: Vec3::ZERO,
            normal: Vec3::X,
            iterations: 0,
            algorithm,
            status,
        }
    }

    /// GJK's answer `d` (a gap, its witnesses and normal) with `status`,
    /// checked ([`Proximity::checked`]).
    pub(crate) fn from_gjk(d: &mink_gjk::Distance<R>, status: Status) -> Self {
        Self {
            distance: d.distance,
            p_a: d.p_a,
            p_b: d.p_b,
            normal: d.normal,
            iterations: d.iterations,
            algorithm: Algorithm::Gjk,
            status,
        }
        .checked()
    }

    /// The same answer seen with A and B swapped: witnesses exchanged,
    /// normal flipped.
    pub(crate) fn mirrored(self) -> Self {
        Self {
            p_a: self.p_b,
            p_b: self.p_a,
            normal: -self.normal,
            ..self
        }
    }

    /// `self`, or [`Status::InvalidInput`] when a field is not finite.
    pub(crate) fn checked(self) -> Self {
        let finite = self.distance.finite()
            && self.p_a.is_finite()
            && self.p_b.is_finite()
            && self.normal.is_finite();
        if finite {
            self
        } else {
            Self::failed(Status::InvalidInput, self.algorithm)
        }
    }
}

/// The answer of [`intersect`](crate::query::intersect).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Overlap {
    /// `true` when the shapes overlap or touch (within the algorithm's
    /// tolerance).
    pub intersecting: bool,
    /// Which algorithm answered.
    pub algorithm: Algorithm,
    /// Iterations of the algorithm run (0 for analytic answers).
    pub iterations: u32,
    /// How the query ended (`intersecting` is `false` for the failures).
    pub status: Status,
}
