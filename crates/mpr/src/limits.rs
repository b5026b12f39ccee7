//! Iteration caps and tolerances, in one place.
//!
//! Every loop of the crate is capped by one of the `MAX_*` constants below;
//! reaching a cap returns [`MprStatus::IterationCap`](crate::MprStatus) (or
//! [`MprStatus::Unverified`](crate::MprStatus) for the re-seeding passes and
//! the certification steps), never a made-up answer. Tolerances are relative: they are multiplied by
//! the size of the Minkowski difference (the distance from the interior point
//! to the first support point, in meters), so they hold for shapes of any
//! size, and they are multiples of the scalar's epsilon, so they hold in `f32`
//! and `f64`.

use mink_support::Real;

/// Cap on the portal-discovery loop (finding a triangle that the ray from
/// the interior point crosses). It converges in 1 to 4 steps on every shape
/// seen in the tests; the cap only guards against rounding cycles.
pub const MAX_DISCOVERY_ITERATIONS: u32 = 32;

/// Cap on the portal-refinement loop of one pass. Polytopes converge in
/// under 15 steps; curved surfaces (inflated shapes, cylinder rims,
/// ellipsoids) converge linearly and take up to about 30 steps in `f64`.
pub const MAX_REFINEMENT_ITERATIONS: u32 = 64;

/// Cap on the re-seeding passes that follow the first MPR pass when its
/// answer is not self-consistent (see the crate docs, "Deep penetration").
pub const MAX_RESEED_PASSES: u32 = 4;

/// Relative tolerance of portal convergence: refinement stops when the
/// support point along the portal normal lies within
/// `convergence_tolerance() * size` of the portal plane. `1000 ε`: about
/// `1.2e-4` in `f32`, the relative tolerance mink-gjk's EPA reaches there
/// (`EPA_TOLERANCE_ULPS`), and `2.2e-13` in `f64`. On curved surfaces,
/// where refinement converges linearly, each fourfold tightening costs
/// about three more iterations: on random overlapping cylinders in `f32`,
/// `256 ε` took 27.8 iterations a query and `64 ε` 30.6, against 25.2.
#[inline(always)]
pub fn convergence_tolerance<R: Real>() -> R {
    R::EPSILON * R::lit(1000.0)
}

/// Relative tolerance of a self-consistent answer's witnesses: `p_a - p_b`
/// within this fraction of the difference's size of `depth * normal`
/// (and each witness that close to its shape). `√ε` in `f32` (3.5e-4);
/// `1e-6` in `f64`, where `√ε` (1.5e-8) would take passes along the
/// normal far past what a contact solver can use on curved pairs whose
/// interior points coincide (each pass there moves the normal only part
/// of the way).
#[inline(always)]
pub fn witness_tolerance<R: Real>() -> R {
    R::EPSILON.sqrt().max_of(R::lit(1e-6))
}

/// Relative tolerance below which the Minkowski difference is taken to
/// have no volume around the interior point (two segments, a point and a
/// segment...): `16 ε` of the size.
#[inline(always)]
pub fn flatness_tolerance<R: Real>() -> R {
    R::EPSILON * R::lit(16.0)
}

/// Relative distance below which the interior point is taken to coincide
/// with the origin (the shapes' interior points coincide): `16 ε` of the
/// size. MPR's ray through the origin is then ill-defined, so the ray
/// direction is chosen explicitly.
#[inline(always)]
pub fn coincidence_tolerance<R: Real>() -> R {
    R::EPSILON * R::lit(16.0)
}

/// Angle (radians, as its sine) under which the ray direction of a pass and
/// the portal normal it found count as the same direction, which makes the
/// answer self-consistent on curved surfaces. `1e-3` rad: well above the
/// precision of either scalar and below what a contact solver notices.
#[inline(always)]
pub fn self_consistency_sine<R: Real>() -> R {
    R::lit(1e-3)
}

/// Relative slack on the barycentric coordinates when testing whether the
/// origin's foot point on the portal plane lies inside the portal (which
/// makes the answer self-consistent on flat faces): `1024 ε`.
#[inline(always)]
pub fn barycentric_slack<R: Real>() -> R {
    R::EPSILON * R::lit(1024.0)
}

/// Cap on the certification steps that follow MPR (polytope expansion from
/// MPR's last tetrahedron, see the crate docs): the default budget of
/// [`MprSettings::certify_steps`](crate::MprSettings).
pub const MAX_CERTIFY_STEPS: u32 = 32;

/// Relative depth gain below which re-seeding stops: a pass that lowers the
/// depth by less than this fraction (1%) is not followed by another one.
/// Dimensionless, the same for `f32` and `f64`.
#[inline(always)]
pub fn reseed_gain<R: Real>() -> R {
    R::lit(1e-2)
}
