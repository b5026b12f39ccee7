//! Contact manifolds of two bodies: up to [`MAX_MANIFOLD_POINTS`] contact
//! points, each with a world position, the unit normal from A to B and a
//! penetration depth (positive when overlapping, negative for a speculative
//! contact inside the contact margin).
//!
//! Conventions, shared by every routine here and by the scene's contacts:
//! - `position` is the midpoint of the two surface points of the contact
//!   (A's deepest point and B's), world frame, meters (MuJoCo's and Coal's
//!   convention);
//! - `normal` is a unit vector from A towards B, world frame: moving B by
//!   `depth * normal` separates the pair at that point;
//! - `depth` is meters; a pair farther apart than [`ContactParams::margin`]
//!   gives no contact.
//!
//! How each pair is worked (one routine a file):
//! - box–box: closed-form separating-axis test over the 15 axes, then the
//!   incident face clipped to the reference face (`box_box`); cores apart
//!   with an edge or corner nearest (rounded boxes, wide margins) go the
//!   general convex way below, since their gap is along none of the axes;
//! - a box (without a margin of its own) against a half-space: its
//!   corners within reach, each with its own depth (`box_half_space`);
//! - a half-space against any other shape: the shape's support set along the
//!   plane's inward normal, each point with its own depth (`half_space`);
//!   a rounded shape's points on its surface over each core point
//!   (`rounded`);
//! - every other convex pair: the first contact (GJK's distance while the
//!   cores are apart, exact also when only the inflations overlap; else
//!   the pair's penetration query, MPR checked by GJK+EPA past
//!   [`EPA_DEPTH_FRACTION`] of the size) gives the normal, the two shapes'
//!   support sets along it the touching features (vertex, edge, face, cap
//!   polygon; a set that is not flat, on a deep pair, is taken again
//!   closer to the extreme), and their overlap seen along the normal the
//!   points (`features`, `patch`), a rounded shape's feature moved to its
//!   surface along the feature's normal: a capsule lying on a box or a
//!   hull gives its segment clipped to the face, two parallel capsules
//!   their overlap, hull faces their clipped polygon. Curved shapes whose
//!   support sets show no patch fall back to perturbation (`perturb`);
//! - at most [`MAX_MANIFOLD_POINTS`] points are kept: the deepest, then
//!   those spanning the largest area (`reduce`).
//!
//! Hull pairs go through the support-set path rather than mink-sat's
//! manifold: the [`Shape`](crate::Shape) enum carries a bare hull view,
//! and mink-sat needs per-hull data (Gauss-map arcs, an inscribed sphere)
//! that would have to be rebuilt on the stack on every query (`O(E + F)`,
//! kilobytes of stack for a 32-vertex hull).

mod box_box;
mod box_half_space;
mod features;
mod half_space;
mod patch;
mod perturb;
mod point;
mod probe;
mod reduce;
mod rounded;

pub use box_box::{BOX_FEATURE_PREFERENCE, EDGE_AXIS_FACE_COS, NEAR_FACE_EDGE_PREFERENCE};
pub use features::{
    DISTINCT_FRACTION, EPA_DEPTH_FRACTION, FEATURE_SLOP_FRACTION, FLAT_FRACTION, PARALLEL_EDGE_SIN,
};
pub use patch::MIN_FACE_COS;
pub use perturb::PERTURBATION_ANGLE;
pub use point::{ContactPoint, Manifold, MAX_MANIFOLD_POINTS};
pub use reduce::MAX_CANDIDATES;

pub(crate) use box_box::BoxBox;
pub(crate) use box_half_space::PlaneBox;
pub(crate) use features::convex_manifold;
pub(crate) use half_space::half_space_manifold;

use crate::pair::table::{run_pair, ManifoldQuery};
use crate::query::{Body, Method, Proximity};
use mink_gjk::GjkCache;
use mink_support::{Real, Support};

/// How a pair's contact patch is found beyond its first (deepest) point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Patch {
    /// The pair's routine: closed form (box–box, half-spaces), the
    /// shapes' touching features, perturbation for curved shapes whose
    /// features show no patch.
    #[default]
    Auto,
    /// Perturbation for every pair but box–box: the first contact, then
    /// one more query per small turn of a shape about the normal's tangent
    /// axes ([`PERTURBATION_ANGLE`]). Slower; for shapes whose support
    /// sets are not trusted, and to compare against.
    Perturb,
    /// The first contact only (one point): the cheapest.
    Single,
}

/// How [`contact_manifold`] works a pair.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactParams<R> {
    /// Speculative contact distance (meters, finite, `>= 0`): a pair whose
    /// gap is below it gives contacts with negative depth (minus the gap).
    /// In a scene it is the sum of the two geometries' margins.
    pub margin: R,
    /// Which penetration algorithm answers the first contact of a general
    /// convex pair ([`Method::Auto`]: the pair's table entry).
    pub method: Method,
}

impl<R: Real> ContactParams<R> {
    /// No margin, the table's algorithms.
    pub fn new() -> Self {
        Self {
            margin: R::ZERO,
            method: Method::Auto,
        }
    }

    /// The same parameters with a contact margin of `margin` meters.
    pub fn with_margin(self, margin: R) -> Self {
        Self { margin, ..self }
    }
}

impl<R: Real> Default for ContactParams<R> {
    fn default() -> Self {
        Self::new()
    }
}

/// The contact manifold of `a` and `b`: empty when they are farther apart
/// than `params.margin` (or on invalid input: non-finite pose, bad margin,
/// two half-spaces), else up to [`MAX_MANIFOLD_POINTS`] points, world
/// frame, each with its own depth (positive overlapping, minus the gap
/// for speculative points), all sharing the normal from A to B. Never
/// panics, never returns a non-finite value.
///
/// ```
/// use mink::contact::{contact_manifold, ContactParams};
/// use mink::query::Body;
/// use mink::support::{Cuboid, HalfSpace, Iso3, Vec3};
/// use mink::Shape;
///
/// // A unit cube hovering 1 mm above the ground, 5 mm contact margin.
/// let ground: Shape<f64> = HalfSpace::new(Vec3::Z, 0.0).unwrap().into();
/// let cube: Shape<f64> = Cuboid::new(Vec3::splat(0.5)).unwrap().into();
/// let a = Body::new(&ground, Iso3::IDENTITY);
/// let b = Body::new(&cube, Iso3::from_translation(Vec3::new(0.0, 0.0, 0.501)));
/// let m = contact_manifold(&a, &b, &ContactParams::new().with_margin(0.005));
/// assert_eq!(m.len(), 4); // the four bottom corners
/// for p in m.as_slice() {
///     assert!((p.depth + 0.001).abs() < 1e-12); // speculative: minus the gap
///     assert!((p.normal - Vec3::Z).norm() < 1e-12);
/// }
/// ```
pub fn contact_manifold<R: Real, U: Support<R>>(
    a: &Body<'_, '_, R, U>,
    b: &Body<'_, '_, R, U>,
    params: &ContactParams<R>,
) -> Manifold<R> {
    contact_manifold_with(a, b, params, Patch::Auto)
}

/// [`contact_manifold`] with the patch search chosen by `patch`
/// ([`Patch::Auto`] is [`contact_manifold`] itself).
pub fn contact_manifold_with<R: Real, U: Support<R>>(
    a: &Body<'_, '_, R, U>,
    b: &Body<'_, '_, R, U>,
    params: &ContactParams<R>,
    patch: Patch,
) -> Manifold<R> {
    manifold_with(a, b, params, patch, None, None)
}

/// [`contact_manifold`] warm-started from `cache`, a GJK cache the caller
/// keeps for this pair (this order of `a` and `b`) across frames: a pair
/// that moved a little converges in fewer GJK iterations (a resting pair in
/// about one). The answer is the cold one to within GJK's tolerance; a
/// fresh cache gives exactly [`contact_manifold`]. Pairs answered in closed
/// form (box–box, half-spaces) leave the cache as it is. The cache belongs to
/// this pair of shapes: see [`GjkCache`].
pub fn contact_manifold_cached<R: Real, U: Support<R>>(
    a: &Body<'_, '_, R, U>,
    b: &Body<'_, '_, R, U>,
    params: &ContactParams<R>,
    cache: &mut GjkCache<R>,
) -> Manifold<R> {
    manifold_with(a, b, params, Patch::Auto, None, Some(cache))
}

fn manifold_with<R: Real, U: Support<R>>(
    a: &Body<'_, '_, R, U>,
    b: &Body<'_, '_, R, U>,
    params: &ContactParams<R>,
    patch: Patch,
    first: Option<Proximity<R>>,
    cache: Option<&mut GjkCache<R>>,
) -> Manifold<R> {
    let settings = Settings {
        margin: params.margin,
        method: params.method,
        patch,
        first,
    };
    let (sa, sb) = (a.side(), b.side());
    if !(settings.margin.finite() && settings.margin >= R::ZERO && sa.valid() && sb.valid()) {
        return Manifold::new();
    }
    let query = ManifoldQuery {
        sa,
        sb,
        settings,
        cache,
    };
    finite_only(run_pair(a.shape, b.shape, query))
}

/// `m` without any point that is not finite (overflow on huge inputs).
pub(crate) fn finite_only<R: Real>(m: Manifold<R>) -> Manifold<R> {
    let finite =
        |p: &ContactPoint<R>| p.position.is_finite() && p.normal.is_finite() && p.depth.finite();
    if m.as_slice().iter().all(finite) {
        return m;
    }
    let mut out = Manifold::new();
    for p in m.as_slice().iter().filter(|p| finite(p)) {
        out.push(*p);
    }
    out
}

/// What the pair routines need of the parameters.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings<R> {
    pub margin: R,
    pub method: Method,
    pub patch: Patch,
    /// The pair's first contact when the caller already has it (the
    /// deep-penetration fallback); `None`: the penetration query runs.
    pub first: Option<Proximity<R>>,
}

impl<R: Real> Settings<R> {
    /// The settings of the swapped pair (the first contact mirrored).
    pub fn mirrored(&self) -> Self {
        Self {
            first: self.first.map(Proximity::mirrored),
            ..*self
        }
    }
}
