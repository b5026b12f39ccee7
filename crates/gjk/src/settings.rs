//! What a GJK query is asked to do: the variant, when it may stop early, and
//! its tolerance; plus the named caps and tolerance factors of GJK and EPA.

use mink_support::Real;

/// Hard cap on GJK iterations (support calls). Reaching it returns
/// [`GjkStatus::IterationLimit`](crate::GjkStatus::IterationLimit) with the
/// best answer so far. Plain GJK needs under 20 on polytopes and under 60 on
/// curved shapes at the default tolerance in f64.
pub const MAX_GJK_ITERATIONS: u32 = 128;

/// Hard cap on EPA iterations (polytope expansions). Reaching it returns
/// [`EpaStatus::IterationLimit`](crate::EpaStatus::IterationLimit) with the
/// best answer so far.
pub const MAX_EPA_ITERATIONS: u32 = 512;

/// GJK's default relative tolerance is `sqrt(ε) ×` this factor, times the
/// size of the shapes and their offset (the largest absolute coordinate of
/// any support point seen, in A's frame): about `1.5e-10` of that size in
/// f64 and `3.5e-6` in f32. GJK stops when the gap between its upper bound
/// (the distance between the witnesses) and its lower bound (the best
/// separating plane) is below it.
pub const GJK_TOLERANCE_FACTOR: f64 = 1e-2;

/// EPA's relative tolerance, times the shapes' size: this target, or
/// [`EPA_TOLERANCE_ULPS`] `× ε` when the scalar cannot reach it (f32).
/// About `6e-8` in f64 and `1.2e-4` in f32. EPA converges only linearly on
/// curved surfaces: each halving of the tolerance costs about 30 more
/// polytope vertices.
pub const EPA_TOLERANCE: f64 = 6e-8;

/// See [`EPA_TOLERANCE`].
pub const EPA_TOLERANCE_ULPS: f64 = 1000.0;

/// GJK's default relative tolerance (see [`GJK_TOLERANCE_FACTOR`]).
#[inline(always)]
pub fn gjk_tolerance<R: Real>() -> R {
    R::EPSILON.sqrt() * R::lit(GJK_TOLERANCE_FACTOR)
}

/// EPA's relative tolerance (see [`EPA_TOLERANCE`]).
#[inline(always)]
pub fn epa_tolerance<R: Real>() -> R {
    R::lit(EPA_TOLERANCE).max_of(R::EPSILON * R::lit(EPA_TOLERANCE_ULPS))
}

/// Which GJK iteration to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Variant {
    /// Classic GJK: each support is taken along the current closest point.
    /// The default: on the benchmark pairs (boxes, capsules, cylinders,
    /// hulls) it needs as few or fewer iterations than the accelerated one
    /// at mink's tolerances (`cargo bench -p mink-benches --bench gjk`).
    #[default]
    Plain,
    /// Nesterov-accelerated GJK (Montaut et al., RSS 2022): the support
    /// direction is a momentum blend of the closest point and the previous
    /// direction. When both cores are polytopes (a compile-time fact of the
    /// pair) the directions are normalized before blending, as the paper
    /// recommends. Falls back to plain GJK when the momentum stops helping,
    /// so it converges wherever plain GJK does.
    Nesterov,
}

/// When GJK may stop before the distance has converged.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Stop<R> {
    /// Run to convergence: the full distance and witnesses.
    #[default]
    Never,
    /// Collision only: stop as soon as either a separating plane proves the
    /// shapes apart ([`GjkStatus::Separated`](crate::GjkStatus::Separated))
    /// or the cores are proven within the inflation of each other
    /// ([`GjkStatus::Intersecting`](crate::GjkStatus::Intersecting)).
    Collision,
    /// Broad contact margin (meters, `>= 0`): stop as soon as the distance
    /// is proven larger than it
    /// ([`GjkStatus::BeyondMargin`](crate::GjkStatus::BeyondMargin));
    /// otherwise run to convergence.
    Margin(R),
}

/// A GJK query's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct GjkSettings<R> {
    /// The iteration to run.
    pub variant: Variant,
    /// When to stop early.
    pub stop: Stop<R>,
    /// Relative tolerance (unitless, times the shapes' size); the default is
    /// [`gjk_tolerance`]. Values below a few `ε` only make GJK stop on its
    /// stall test instead of its gap test.
    pub tolerance: R,
}

impl<R: Real> Default for GjkSettings<R> {
    fn default() -> Self {
        Self {
            variant: Variant::default(),
            stop: Stop::Never,
            tolerance: gjk_tolerance(),
        }
    }
}

impl<R: Real> GjkSettings<R> {
    /// Default settings with another variant.
    pub fn with_variant(self, variant: Variant) -> Self {
        Self { variant, ..self }
    }

    /// Default settings with another stop mode.
    pub fn with_stop(self, stop: Stop<R>) -> Self {
        Self { stop, ..self }
    }
}
