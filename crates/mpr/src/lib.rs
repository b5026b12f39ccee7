//! # mink-mpr
//!
//! Minkowski Portal Refinement (MPR, Snethen's XenoCollide algorithm) on
//! mink's shapes: a boolean overlap test ([`intersect`]) and the penetration
//! depth, unit normal from A to B, contact point and witnesses of
//! overlapping shapes ([`penetration`]).
//!
//! `#![no_std]`, allocation-free, generic over the scalar ([`Real`], `f32`
//! or `f64`) and over the pair type of mink-support
//! ([`MinkowskiDiff`]), so every support call is
//! monomorphized. All work happens in A's frame; [`penetration`] maps its
//! results to the world with A's pose.
//!
//! ```
//! use mink_mpr::{intersect, penetration, MprStatus};
//! use mink_support::{Cuboid, Iso3, Pair, Sphere, Vec3};
//!
//! let cube = Cuboid::new(Vec3::new(1.0_f64, 1.0, 1.0)).unwrap();
//! let ball = Sphere::new(0.5).unwrap();
//! let pose_a = Iso3::IDENTITY;
//! let pose_b = Iso3::from_translation(Vec3::new(1.3, 0.0, 0.0));
//! let mut pair = Pair::new(&cube, &pose_a, &ball, &pose_b);
//!
//! assert!(intersect(&mut pair).overlapping);
//! let hit = penetration(&mut pair, &pose_a);
//! assert_eq!(hit.status, MprStatus::Converged);
//! assert!((hit.depth - 0.2).abs() < 1e-12); // 1 + 0.5 - 1.3
//! assert!((hit.normal - Vec3::X).norm() < 1e-12); // from A to B
//! ```
//!
//! ## How it works
//!
//! MPR casts a ray from a point inside the Minkowski difference `A ⊖ B`
//! (the difference of the shapes' interior points) through the origin,
//! finds a triangle of support points the ray crosses (the *portal*), and
//! refines it towards the boundary. The origin is inside the difference,
//! and the shapes overlap, as soon as it lies behind a portal; a support
//! point that does not pass the origin proves them apart. For penetration
//! the refinement goes on until the portal lies on the boundary within
//! [`convergence_tolerance`] of the difference's size; the normal is the
//! portal's, and the depth is the support of the difference along it (the
//! translation along that normal that separates the shapes, exactly).
//!
//! ## Inflated shapes
//!
//! mink's sphere, capsule and [`Rounded`](mink_support::Rounded) shapes are
//! cores swept by a sphere. The cores of two overlapping inflated shapes may
//! be apart (two spheres are two points), which MPR on the cores cannot
//! handle. So for a pair with `r = r_A + r_B > 0`, mink-gjk's GJK first
//! finds the closest point `q` of the *core* difference (mink-mpr depends on
//! mink-gjk for this one loop: the same answer as
//! `mink_gjk::distance`, from the same code): when the cores are apart,
//! the answer is exact, depth `r - |q|` and normal `-q / |q|` (sphere–sphere,
//! sphere–box and capsule–capsule are exact to rounding, and no MPR runs at
//! all). When the cores overlap, MPR runs on the cores and `r` is added to
//! the depth. GJK has then proven the overlap, so that MPR pass has no
//! "separated" exit: on a core difference without volume (a sphere's
//! centre on a capsule's axis, crossing capsule axes, capsules sharing a
//! joint end point) every support point lies on the origin's plane, and
//! the sign of its round-off would otherwise decide. Such a flat
//! difference holds the origin, so the depth is exactly `r`, along the
//! normal of its plane (the side facing from A's centre to B's on a tie),
//! checked with two support calls and reported [`MprStatus::Converged`];
//! should MPR find no such plane, it runs on the inflated difference
//! instead, whose support is the core support plus `r` along the unit
//! direction.
//!
//! ## Robust start
//!
//! - Coincident interior points (e.g. two shapes with the same centre): the
//!   ray through the origin is undefined, so a direction is chosen and the
//!   ray aimed at a point beyond the interior point; the shapes overlap
//!   unless the difference has no volume there.
//! - The origin on a portal edge or face, or a support point on the ray
//!   (equal boxes offset along a diagonal): the cone tests carry a rounding
//!   slack, a plane holding the ray is picked explicitly when the first
//!   support point lies on it, and when the classic refinement rule would
//!   keep a sub-portal the ray does not cross (it picks arbitrarily on exact
//!   ties), the three candidates are scored and the one the ray crosses is
//!   kept.
//! - Flat faces parallel to the portal: refinement stops as soon as the
//!   support point does not pass the portal plane by more than the
//!   tolerance, whichever vertex of the face the support returns.
//! - A difference without volume (segment–segment without inflation) is
//!   detected and reported as [`MprStatus::Degenerate`].
//! - Every loop is capped: [`MAX_DISCOVERY_ITERATIONS`],
//!   [`MAX_REFINEMENT_ITERATIONS`], [`MAX_RESEED_PASSES`],
//!   [`MAX_CERTIFY_STEPS`], and mink-gjk's `MAX_GJK_ITERATIONS` for the
//!   cores of inflated shapes.
//!
//! ## Deep penetration
//!
//! MPR's answer is the face its ray hits, which is not always the face of
//! least depth: the ray follows the line between the shapes' interior
//! points, not the minimum-translation direction. mink does two things
//! about it, and says what it could prove:
//!
//! 1. **Re-seeding** ([`MprSettings::reseed_passes`], default 1): when the
//!    origin's foot point on the face found lies outside that face (the
//!    answer is then certainly not minimal), another pass casts the ray from
//!    the origin along the normal just found, from an interior point behind
//!    the origin; the shallowest answer is kept (every depth is a valid
//!    separating translation, so the smallest is the best).
//! 2. **Certification** ([`MprSettings::certify_steps`], default 2): MPR's
//!    last tetrahedron lies inside the difference and holds the origin, so
//!    the distance to its nearest face is a lower bound of the true depth.
//!    A few EPA-style expansions of that polytope raise the bound (and may
//!    find a shallower face). When the bound meets the depth within the
//!    tolerance, the answer is the global minimum: [`MprStatus::Converged`].
//!    Otherwise it is [`MprStatus::Unverified`], with the proven interval
//!    `[depth_lower_bound, depth]` in the result: the caller can tell.
//! 3. **Witnesses along the normal**: an answer whose witnesses do not
//!    differ by `depth * normal` (a face the expansion found shallower but
//!    not on the boundary, a portal that collapsed to a segment) gets the
//!    witnesses of the point where a ray from the origin along its normal
//!    leaves the difference; when that point is not at `depth` (the answer
//!    is not self-consistent), the portal's normal there is tried next (32
//!    passes at most). Every [`MprStatus::Converged`] and
//!    [`MprStatus::Unverified`] answer is self-consistent within
//!    [`witness_tolerance`]; one that could not be made so is
//!    [`MprStatus::IterationCap`] (in f64, a tenth of coincident
//!    ellipsoid–cone pairs: `cargo test -p mink-mpr --test suite witnesses --
//!    --nocapture`).
//!
//! Measured against the exact minimum over all SAT axes (face normals and
//! edge–edge cross products, brute force), on random box–box and
//! hull16–hull16 overlaps (1,500 poses each, binned by depth over the
//! smaller shape's minimum width; "off" is a depth more than 0.1% of the
//! width too large or a normal more than 0.01 rad away; reproduce with
//! `cargo test -p mink-mpr --release --test suite deviation -- --nocapture`):
//!
#![doc = include_str!("../DEVIATION.md")]
//!
//! ## Speed
//!
//! `cargo bench -p mink-benches --bench mpr` runs MPR, parry3d 0.31 and
//! mink's GJK+EPA on the same 1,024 random overlapping poses per pair (f32)
//! and prints per-query medians and ratios. On a 2-core machine, default
//! settings (ratios are what carry over): parry's `contact` over MPR's
//! `penetration` was 5.0× for box–box, 55× for capsule–capsule, 4.3× for
//! cylinder–cylinder, 3.3× for hull32–hull32, 4.3× for hull200–hull200 and
//! 0.2× for sphere–box (parry answers a ball against a box in closed form);
//! mink's GJK+EPA over MPR was 1.1× to 1.8×, and 0.9× on sphere–box.
//!
//! ## Fuzzing
//!
//! [`fuzz::check_bytes`] decodes a pair of shapes and poses from arbitrary
//! bytes and checks the invariants in `f64` and in `f32` (no panic, finite
//! output, depth `>= 0`, unit normal, `intersect` agreeing with
//! `penetration`, swapping A and B flipping the normal, the depth being a
//! true separating translation, and both verdicts agreeing with mink-gjk's
//! GJK and EPA, an independent oracle, outside a band around touching).
//! A cargo-fuzz target only needs to call it and panic on `Err`.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's example, compiled and run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod certify;
pub mod fuzz;
mod inflated;
mod intersect;
mod limits;
mod penetration;
mod portal;
mod result;
mod triangle;

pub use certify::{
    CERTIFY_MAX_FACES, CERTIFY_MAX_VERTICES, CERTIFY_SMALL_FACES, CERTIFY_SMALL_STEPS,
    CERTIFY_SMALL_VERTICES,
};
pub use intersect::intersect;
pub use limits::{
    barycentric_slack, coincidence_tolerance, convergence_tolerance, flatness_tolerance,
    reseed_gain, self_consistency_sine, witness_tolerance, MAX_CERTIFY_STEPS,
    MAX_DISCOVERY_ITERATIONS, MAX_REFINEMENT_ITERATIONS, MAX_RESEED_PASSES,
};
pub use penetration::{penetration, penetration_with};
pub use result::{
    Intersection, MprSettings, MprStatus, Penetration, DEFAULT_CERTIFY_STEPS, DEFAULT_RESEED_PASSES,
};

use mink_support::{MinkowskiDiff, Real, Support, SupportPoint};

/// The pair's interior point (A's frame), or `None` when the relative
/// pose, the interior point or the inflation is not finite (the shapes'
/// constructors already validated their sizes). Both queries start from
/// this point, so they compute it once, here.
fn finite_interior<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    pair: &MinkowskiDiff<'_, R, A, B, I>,
) -> Option<SupportPoint<R>> {
    let r = pair.inflation();
    if !(I || pair.pose_ab.is_finite()) {
        return None;
    }
    let interior = pair.interior_point();
    (interior.w.is_finite() && r.finite() && r >= R::ZERO).then_some(interior)
}
