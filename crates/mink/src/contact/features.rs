//! The manifold of any two convex shapes from their touching features:
//! the first contact (the pair's penetration query) gives the normal, each
//! shape's support set along it gives its touching feature (a vertex, an
//! edge, a face or a cap's rim polygon), and the patch where the two
//! features overlap, seen along the normal, gives the points
//! ([`patch`](super::patch)). Shapes whose support sets cannot show a
//! patch (curved, not strictly convex, a user's shape with the default
//! support set) fall back to the perturbation scheme
//! ([`perturb`](super::perturb)).

use super::patch::{patch, Feature, Frame};
use super::perturb::{perturbed_contacts, PerturbSide};
use super::reduce::Candidates;
use super::{ContactPoint, Manifold, Patch, Settings};
use crate::query::{penetration, Body, Proximity, Status};
use mink_gjk::{GjkCache, GjkSettings, GjkStatus, Stop};
use mink_support::{Iso3, Pair, Real, Rounded, Support, SupportSet, Vec3};

/// Points of a support set within this fraction of the smaller shape's
/// size of the extreme one count as touching even at zero depth and
/// margin: round-off slack for faces that are flat to within it. 1e-3 of
/// the size (1 mm on a 1 m box).
pub const FEATURE_SLOP_FRACTION: f64 = 1e-3;

/// Two contact points closer than this fraction of the smaller shape's
/// size are one point (the deeper is kept). 1e-2, as Genesis; it also
/// bounds the lateral tolerance of parallel edges.
pub const DISTINCT_FRACTION: f64 = 1e-2;

/// Below this sine of their angle, two edges seen along the normal are
/// parallel and touch along their overlap (two points). About 0.6°.
pub const PARALLEL_EDGE_SIN: f64 = 1e-2;

/// The size of a shape for the relative tolerances: half the diagonal of
/// its local AABB (inflation and the body's margin included), meters.
pub(crate) fn size_of<R: Real, S: Support<R>>(s: &S, margin: R) -> R {
    let aabb = s.local_aabb();
    (aabb.max - aabb.min).norm() * R::HALF + margin
}

/// Whether the shape may touch along a patch that its support set does
/// not show: not strictly convex and not a polytope (a cylinder's side, a
/// capsule's, a user's shape that only has `support`).
pub(crate) const fn curved<R: Real, S: Support<R>>() -> bool {
    !S::STRICTLY_CONVEX && !S::POLYTOPE
}

/// The contact point of a penetration answer `p`: midpoint of the
/// witnesses, its normal, depth = minus the signed distance.
pub(crate) fn first_point<R: Real>(p: &Proximity<R>) -> ContactPoint<R> {
    ContactPoint {
        position: (p.p_a + p.p_b) * R::HALF,
        normal: p.normal,
        depth: -p.distance,
    }
}

/// The manifold of convex shapes `a` (of body `ba`) and `b` (of `bb`).
pub(crate) fn convex_manifold<R, U, A, B>(
    a: &A,
    ba: &Body<'_, '_, R, U>,
    b: &B,
    bb: &Body<'_, '_, R, U>,
    params: &Settings<R>,
) -> Manifold<R>
where
    R: Real,
    U: Support<R>,
    A: Support<R>,
    B: Support<R>,
{
    let mut out = Manifold::new();
    let first = match params.first {
        Some(first) => first,
        None => match first_contact(a, ba, b, bb, params) {
            Some(first) => first,
            None => return out,
        },
    };
    if !first.status.is_answer() || !(first.distance <= params.margin) {
        return out;
    }
    let p0 = first_point(&first);
    if params.patch == Patch::Single || A::STRICTLY_CONVEX || B::STRICTLY_CONVEX {
        out.push(p0);
        return out;
    }
    let scale = size_of(a, ba.margin).min_of(size_of(b, bb.margin));
    let distinct = R::lit(DISTINCT_FRACTION) * scale;
    let mut extra = Candidates::new();
    if params.patch != Patch::Perturb {
        feature_points(a, ba, b, bb, &first, params.margin, scale, &mut extra);
    }
    let perturb = params.patch == Patch::Perturb
        || (extra.len() <= 1 && (curved::<R, A>() || curved::<R, B>()));
    if perturb {
        // Perturb the curved side (B when both or neither are).
        let side = if curved::<R, A>() && !curved::<R, B>() {
            PerturbSide::A
        } else {
            PerturbSide::B
        };
        perturbed_contacts(a, ba, b, bb, side, params, &first, distinct, &mut extra);
    }
    let slop = R::lit(FEATURE_SLOP_FRACTION) * scale;
    let cands = Candidates::with_first(p0, &extra, slop, distinct);
    cands.reduce(first.normal)
}

/// The pair's first contact (its signed distance, witnesses and normal),
/// or `None` when GJK proves the shapes farther apart than the margin.
///
/// One GJK run, which may stop early
/// ([`Stop::Margin`]), decides: at the first separating plane that proves
/// the pair out of reach it stops (most candidate pairs of a scene); a
/// pair apart but within the margin takes GJK's converged distance as it
/// is (the penetration query would run MPR only to find them apart, then
/// the same GJK); only overlapping cores go on to [`penetration`] with
/// `params.method`. Pairs of strictly convex shapes go straight to
/// [`penetration`]: their queries are analytic or short. A bad margin or
/// pose is reported by [`penetration`].
fn first_contact<R, U, A, B>(
    a: &A,
    ba: &Body<'_, '_, R, U>,
    b: &B,
    bb: &Body<'_, '_, R, U>,
    params: &Settings<R>,
) -> Option<Proximity<R>>
where
    R: Real,
    U: Support<R>,
    A: Support<R>,
    B: Support<R>,
{
    if A::STRICTLY_CONVEX && B::STRICTLY_CONVEX {
        return Some(penetration(ba, bb, params.method));
    }
    let (Ok(ra), Ok(rb)) = (Rounded::new(a, ba.margin), Rounded::new(b, bb.margin)) else {
        return Some(penetration(ba, bb, params.method));
    };
    let mut pair = Pair::new(&ra, &ba.pose, &rb, &bb.pose);
    let settings = GjkSettings::default().with_stop(Stop::Margin(params.margin));
    let d = mink_gjk::gjk(&mut pair, &ba.pose, &settings, &mut GjkCache::default());
    match d.status {
        GjkStatus::BeyondMargin => None,
        GjkStatus::Converged if d.distance > R::ZERO => {
            Some(Proximity::from_gjk(&d, Status::Converged))
        }
        _ => Some(penetration(ba, bb, params.method)),
    }
}

/// The patch points of the two shapes' features along the first
/// contact's normal, into `out` (those within the margin).
fn feature_points<R, U, A, B>(
    a: &A,
    ba: &Body<'_, '_, R, U>,
    b: &B,
    bb: &Body<'_, '_, R, U>,
    first: &Proximity<R>,
    margin: R,
    scale: R,
    out: &mut Candidates<R>,
) where
    R: Real,
    U: Support<R>,
    A: Support<R>,
    B: Support<R>,
{
    let n = first.normal;
    let distinct = R::lit(DISTINCT_FRACTION) * scale;
    // Points farther than the deepest one's depth plus the margin from
    // the extreme cannot be within the margin of a flat counterpart.
    let tol = (-first.distance).max_of(R::ZERO) + margin + R::lit(FEATURE_SLOP_FRACTION) * scale;
    let frame = Frame::new(n);
    let Some(fa) = feature(a, &ba.pose, n, tol, &frame, distinct) else {
        return;
    };
    let Some(fb) = feature(b, &bb.pose, -n, tol, &frame, distinct) else {
        return;
    };
    let (ia, ib) = (a.inflation() + ba.margin, b.inflation() + bb.margin);
    let parallel = R::lit(PARALLEL_EDGE_SIN);
    patch(&fa, &fb, distinct, parallel, |p| {
        // A's surface at h_a + ia, B's at h_b - ib along the normal.
        let (top_a, bottom_b) = (p.h_a + ia, p.h_b - ib);
        let depth = top_a - bottom_b;
        if depth >= -margin {
            let point = ContactPoint {
                position: frame.world(p.u, p.v, (top_a + bottom_b) * R::HALF),
                normal: n,
                depth,
            };
            out.push(point, distinct);
        }
    });
}

/// The feature of shape `s` at `pose` along the world direction `dir`.
fn feature<R: Real, S: Support<R>>(
    s: &S,
    pose: &Iso3<R>,
    dir: Vec3<R>,
    tol: R,
    frame: &Frame<R>,
    len_tol: R,
) -> Option<Feature<R>> {
    let mut set = SupportSet::new();
    // A set past its capacity keeps the points that fit: still points of
    // the feature, so the patch stays on both surfaces.
    let _ = s.support_set(pose.inverse_transform_vector(dir), tol, &mut set);
    Feature::of(set.points(), pose, frame, len_tol)
}
