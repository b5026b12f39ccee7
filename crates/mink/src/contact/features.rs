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
use super::probe::{facing, line_extreme};
use super::reduce::Candidates;
use super::rounded::shape_reach;
use super::{ContactPoint, Manifold, Patch, Settings};
use crate::pair::{PairRoutine, Side};
use crate::query::{Algorithm, Method, Proximity, Status};
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

/// Past this depth, as a fraction of the smaller shape's size, a pair's
/// first contact from MPR ([`Method::Auto`]) is checked by GJK+EPA and the
/// shallower answer kept. MPR's depth is the overlap along the direction
/// its portal converged to, which on deep pairs can be far from the
/// minimal one (tens of percent on a deep cone–cone pair; in mink's random
/// pairs MPR stays within 1e-3 of EPA below 0.2 of the size, and is off by
/// up to 0.1 m past it). 0.1 leaves a factor 2; resting contacts, far
/// shallower, keep MPR alone.
pub const EPA_DEPTH_FRACTION: f64 = 0.1;

/// Below this sine of their angle, two edges seen along the normal are
/// parallel and touch along their overlap (two points). About 0.6°.
pub const PARALLEL_EDGE_SIN: f64 = 1e-2;

/// The size of a shape for the relative tolerances: half the diagonal of
/// its local AABB (inflation and the body's margin included), meters.
pub(crate) fn size_of<R: Real, S: Support<R>>(s: &S, margin: R) -> R {
    let aabb = s.local_aabb();
    (aabb.max - aabb.min).norm() * R::HALF + margin
}

/// The smaller of the two shapes' sizes ([`size_of`], meters), from
/// `known` when it holds it, else measured and kept there.
pub(crate) fn pair_size<R, A, B>(
    a: &A,
    sa: &Side<R>,
    b: &B,
    sb: &Side<R>,
    known: &mut Option<R>,
) -> R
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    *known.get_or_insert_with(|| size_of(a, sa.margin).min_of(size_of(b, sb.margin)))
}

/// Whether the shape may touch along a patch that its support set does
/// not show: not strictly convex and its core not a polytope (a
/// cylinder's side, a cone's, a user's shape that only has `support`). A
/// capsule or a rounded polytope is not curved in this sense: its surface
/// within any distance of a flat face lies over the core's support set
/// within that distance.
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

/// The manifold of convex shapes `a` (at side `sa`) and `b` (at `sb`),
/// the first contact from `routine`, the pair's routine.
pub(crate) fn convex_manifold<R, A, B, T>(
    routine: &T,
    a: &A,
    sa: &Side<R>,
    b: &B,
    sb: &Side<R>,
    params: &Settings<R>,
    cache: Option<&mut GjkCache<R>>,
) -> Manifold<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
    T: PairRoutine<R, A, B>,
{
    let mut out = Manifold::new();
    // The size, once measured (a hull's box costs a pass over its vertices).
    let mut size = None;
    let first = match params.first {
        Some(first) => first,
        None => match first_contact(routine, a, sa, b, sb, params, &mut size, cache) {
            Some(first) => first,
            None => return out,
        },
    };
    if !first.status.is_answer() || !(first.distance <= params.margin) {
        return out;
    }
    // MPR's witnesses interpolate its portal's support points: on a
    // curved core (an ellipsoid, a cylinder's rim, a cone) they lie inside
    // the shape by the portal's sag, so its point is taken from the
    // supports along its normal too.
    let portal_sag = first.algorithm == Algorithm::Mpr && (!A::POLYTOPE || !B::POLYTOPE);
    let p0 = if first.status.is_finished() && !portal_sag {
        first_point(&first)
    } else {
        let scale = pair_size(a, sa, b, sb, &mut size);
        let apart = first.p_a - first.p_b;
        let across = (apart - first.normal * apart.dot(first.normal)).norm();
        let slack = R::lit(DISTINCT_FRACTION * DISTINCT_FRACTION) * scale;
        let supported = (across > slack || portal_sag)
            .then(|| supported_point(a, sa, b, sb, first.normal, scale))
            .flatten();
        supported.unwrap_or_else(|| first_point(&first))
    };
    // The supports along the normal bound the pair's distance from below:
    // apart along it by more than the margin, the pair is (an unfinished
    // first contact on a flat ellipsoid resting on a face called it
    // touching, and its supported point stood 0.1 mm off the face).
    if !(p0.depth >= -params.margin) {
        return out;
    }
    if params.patch == Patch::Single || A::STRICTLY_CONVEX || B::STRICTLY_CONVEX {
        out.push(p0);
        return out;
    }
    let scale = pair_size(a, sa, b, sb, &mut size);
    let distinct = R::lit(DISTINCT_FRACTION) * scale;
    let mut extra = Candidates::new();
    if params.patch != Patch::Perturb {
        feature_points(a, sa, b, sb, &first, params.margin, scale, &mut extra);
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
        perturbed_contacts(
            routine, a, sa, b, sb, side, params, &first, scale, &mut extra,
        );
    }
    // Apart (GJK's converged distance), no facing pair of surface points
    // is closer than the distance: a patch or perturbed point found deeper
    // than the first contact (by the features' slop, or a facing point
    // kept within the slack of its shape) stands at its depth. Then a
    // point that a warm-started query keeps and a cold one drops changes
    // no deepest depth.
    if first.distance >= R::ZERO && matches!(first.status, Status::Converged | Status::Exact) {
        extra.cap_depth(p0.depth);
    }
    let slop = R::lit(FEATURE_SLOP_FRACTION) * scale;
    extra.reduce_with_first(p0, slop, distinct, first.normal)
}

/// The contact point of an unfinished first contact (a query cut short by
/// its iteration cap or by round-off) along its normal `n`, from the
/// shapes rather than its witnesses: those need not face each other
/// across `n`, nor lie on the surfaces (an MPR portal stopped early on a
/// curved shape interpolates far from it), so the midpoint and depth
/// would stand for surface points that are not the shapes'. Here A's
/// point is its support point along `n` and B's along `-n` (surface
/// points, the depth their overlap along `n`), made to face each other
/// across `n` ([`facing`], each within [`DISTINCT_FRACTION`]² of `scale`,
/// the pair's smaller size, of its shape), or else one shape's support
/// point and the other shape's farthest point on the line through it
/// along `n` ([`line_extreme`]); `None` when they cannot be, or
/// when they are shallower than the overlap along `n` by more than the
/// feature slop, and the witnesses' point stands. Used only when the
/// witnesses are that far apart across `n`.
fn supported_point<R, A, B>(
    a: &A,
    sa: &Side<R>,
    b: &B,
    sb: &Side<R>,
    n: Vec3<R>,
    scale: R,
) -> Option<ContactPoint<R>>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let (top_a, bottom_b) = extremes(a, sa, b, sb, n);
    // Either point may be the one the other shape faces (a flat side under
    // a round one): A's first, then B's.
    let slack = R::lit(DISTINCT_FRACTION * DISTINCT_FRACTION) * scale;
    let overlap = (top_a - bottom_b).dot(n);
    // Neither pair faces within the slack (the two supports far apart
    // across `n`: a point at an ellipsoid's centre, an unfinished normal a
    // little off the ring of its short axes): the line along `n` through
    // one shape's extreme point meets the other where it reaches farthest
    // on that line, a facing pair by construction.
    let (on_a, on_b) = facing(a, sa, b, sb, top_a, bottom_b, n, slack)
        .or_else(|| facing(b, sb, a, sa, bottom_b, top_a, n, slack).map(|(b, a)| (a, b)))
        .or_else(|| line_extreme(a, sa, bottom_b, n, overlap).map(|on_a| (on_a, bottom_b)))
        .or_else(|| line_extreme(b, sb, top_a, -n, overlap).map(|on_b| (top_a, on_b)))?;
    let depth = (on_a - on_b).dot(n);
    // Facing points are at most as deep as the overlap along `n`; one
    // shallower than it by more than the feature slop no longer stands for
    // the first contact. The slop has a floor relative to the overlap: the
    // normal's own round-off (the smaller shape may be a point, of size 0).
    let slop = R::lit(FEATURE_SLOP_FRACTION) * scale + R::sqrt_epsilon() * overlap.abs();
    if !(depth >= overlap - slop) {
        return None;
    }
    Some(ContactPoint {
        position: on_a - n * (depth * R::HALF),
        normal: n,
        depth,
    })
}

/// A's surface point farthest along the unit `n` and B's farthest
/// against it (supports, inflations and margins included), world frame:
/// `(top_a - bottom_b) · n` is the shapes' overlap along `n`, an upper
/// bound on their penetration depth for every `n`.
fn extremes<R, A, B>(a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, n: Vec3<R>) -> (Vec3<R>, Vec3<R>)
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let local_a = a.support(sa.pose.inverse_transform_vector(n), &mut A::Hint::default());
    let top_a = sa.pose.transform_point(local_a) + n * (a.inflation() + sa.margin);
    let local_b = b.support(
        sb.pose.inverse_transform_vector(-n),
        &mut B::Hint::default(),
    );
    let bottom_b = sb.pose.transform_point(local_b) - n * (b.inflation() + sb.margin);
    (top_a, bottom_b)
}

/// The overlap of the two shapes along the unit `n` ([`extremes`]).
fn overlap_along<R, A, B>(a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, n: Vec3<R>) -> R
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let (top_a, bottom_b) = extremes(a, sa, b, sb, n);
    (top_a - bottom_b).dot(n)
}

/// The pair's first contact (its signed distance, witnesses and normal),
/// or `None` when GJK proves the shapes farther apart than the margin.
///
/// One GJK run, which may stop early
/// ([`Stop::Margin`]), decides: at the first separating plane that proves
/// the pair out of reach it stops (most candidate pairs of a scene); a
/// pair apart but within the margin takes GJK's converged distance as it
/// is (the penetration query would run MPR only to find them apart, then
/// the same GJK), and so does a pair whose cores are apart but whose
/// inflations overlap (exact, as the penetration query's own answer for
/// it would be); only overlapping cores go on to the routine's
/// penetration with `params.method` ([`deep_checked`]). Pairs of strictly
/// convex shapes go straight to it: their queries are analytic or short.
/// GJK starts from `cache` and leaves its state there, when the caller
/// keeps one.
fn first_contact<R, A, B, T>(
    routine: &T,
    a: &A,
    sa: &Side<R>,
    b: &B,
    sb: &Side<R>,
    params: &Settings<R>,
    size: &mut Option<R>,
    cache: Option<&mut GjkCache<R>>,
) -> Option<Proximity<R>>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
    T: PairRoutine<R, A, B>,
{
    if A::STRICTLY_CONVEX && B::STRICTLY_CONVEX {
        return Some(deep_checked(routine, a, sa, b, sb, params, size));
    }
    let (Ok(ra), Ok(rb)) = (Rounded::new(a, sa.margin), Rounded::new(b, sb.margin)) else {
        return Some(routine.penetration(a, sa, b, sb, params.method));
    };
    let mut pair = Pair::new(&ra, &sa.pose, &rb, &sb.pose);
    let settings = GjkSettings::default().with_stop(Stop::Margin(params.margin));
    let d = match cache {
        Some(kept) => {
            let mut typed = kept.with_hints();
            let d = mink_gjk::gjk(&mut pair, &sa.pose, &settings, &mut typed);
            *kept = typed.with_hints();
            d
        }
        None => mink_gjk::gjk(&mut pair, &sa.pose, &settings, &mut GjkCache::default()),
    };
    match d.status {
        GjkStatus::BeyondMargin => None,
        // The cores apart: the distance is exact, and so is the depth when
        // only the inflations overlap (a capsule or rounded box resting on
        // a face).
        GjkStatus::Converged => Some(Proximity::from_gjk(&d, Status::Converged)),
        _ => Some(deep_checked(routine, a, sa, b, sb, params, size)),
    }
}

/// The pair's penetration answer from `routine` with `params.method`;
/// when that is MPR and deeper than [`EPA_DEPTH_FRACTION`] of the smaller
/// shape's size, GJK+EPA's answer instead if it converged and is
/// shallower (both are overlaps along their normals, so the shallower is
/// closer to the penetration depth). An overlap its algorithm did not
/// finish (an iteration or capacity cap, round-off: deep, coincident or
/// nested curved pairs) is checked by the other algorithm (EPA for MPR,
/// MPR for EPA), and of the two the answer whose normal has the smaller
/// overlap, measured from the supports ([`overlap_along`]), is kept: that
/// bound holds whether or not a query finished, and its normal is the
/// nearer to the penetration direction. The perturbation's queries take it
/// too, so that they see the pair as the first contact did. `size` is the
/// pair's [`pair_size`], measured here when needed and not yet known.
pub(crate) fn deep_checked<R, A, B, T>(
    routine: &T,
    a: &A,
    sa: &Side<R>,
    b: &B,
    sb: &Side<R>,
    params: &Settings<R>,
    size: &mut Option<R>,
) -> Proximity<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
    T: PairRoutine<R, A, B>,
{
    let p = routine.penetration(a, sa, b, sb, params.method);
    let unfinished = matches!(p.status, Status::IterationLimit | Status::Degenerate);
    if unfinished && p.distance < R::ZERO && !T::CLOSED_FORM {
        let other = match p.algorithm {
            Algorithm::Mpr => Method::Epa,
            _ => Method::Mpr,
        };
        let q = routine.penetration(a, sa, b, sb, other);
        let better = q.status.is_answer()
            && q.distance < R::ZERO
            && overlap_along(a, sa, b, sb, q.normal) < overlap_along(a, sa, b, sb, p.normal);
        return if better { q } else { p };
    }
    let from_mpr = params.method == Method::Auto && p.algorithm == Algorithm::Mpr;
    if !(from_mpr && p.status.is_answer()) {
        return p;
    }
    if !(p.distance < R::ZERO) {
        return p;
    }
    let scale = pair_size(a, sa, b, sb, size);
    if !(-p.distance > R::lit(EPA_DEPTH_FRACTION) * scale) {
        return p;
    }
    // Only a converged EPA answer is an overlap along its normal: one cut
    // short by its polytope's capacity reports a depth below the overlap
    // there, so being shallower proves nothing.
    let exact = routine.penetration(a, sa, b, sb, Method::Epa);
    let proven = matches!(exact.status, Status::Converged | Status::Exact);
    if proven && exact.distance > p.distance {
        exact
    } else {
        p
    }
}

/// The patch points of the two shapes' features along the first
/// contact's normal, into `out` (those within the margin).
fn feature_points<R, A, B>(
    a: &A,
    sa: &Side<R>,
    b: &B,
    sb: &Side<R>,
    first: &Proximity<R>,
    margin: R,
    scale: R,
    out: &mut Candidates<R>,
) where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let n = first.normal;
    let distinct = R::lit(DISTINCT_FRACTION) * scale;
    // Points farther than the deepest one's depth plus the margin from
    // the extreme cannot be within the margin of a flat counterpart.
    let tol = (-first.distance).max_of(R::ZERO) + margin + R::lit(FEATURE_SLOP_FRACTION) * scale;
    let frame = Frame::new(n);
    let Some(fa) = feature(a, &sa.pose, n, tol, scale, &frame) else {
        return;
    };
    let Some(fb) = feature(b, &sb.pose, -n, tol, scale, &frame) else {
        return;
    };
    // Each shape's surface over a patch vertex: its core's height there,
    // plus (A) or minus (B) how far the swept core reaches past it along
    // the normal, so that both surface points stand over the vertex.
    let (ia, ib) = (a.inflation() + sa.margin, b.inflation() + sb.margin);
    let parallel = R::lit(PARALLEL_EDGE_SIN);
    // The surface over a patch vertex within the flatness tolerance.
    let exit_tol = R::lit(FEATURE_SLOP_FRACTION * FLAT_FRACTION) * scale;
    patch(&fa, &fb, distinct, parallel, |p| {
        let top_a = p.h_a + shape_reach(a, sa, &fa, &frame, (p.u, p.v, p.h_a), true, ia, exit_tol);
        let bottom_b =
            p.h_b - shape_reach(b, sb, &fb, &frame, (p.u, p.v, p.h_b), false, ib, exit_tol);
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

/// The feature of shape `s` at `pose` along the world direction `dir`:
/// its support set within `tol` meters of the extreme, or, when that set
/// is not flat (on a deep pair it reaches past the touching face, onto
/// the faces beside it), within a quarter of that, down to the feature
/// slop ([`FEATURE_SLOP_FRACTION`] of `scale`, the pair's smaller size).
/// Points closer than [`DISTINCT_FRACTION`] of `scale` across the normal
/// merge. A set is flat when its points lie within [`FLAT_FRACTION`] of
/// the slop (or the round-off of their world coordinates, if larger) of
/// one point, segment or plane: the patch's depths are that plane's
/// heights, so a set spanning two faces closer than the slop (a thin
/// plate seen edge-on, both its faces within the tolerance) is not one
/// feature.
fn feature<R: Real, S: Support<R>>(
    s: &S,
    pose: &Iso3<R>,
    dir: Vec3<R>,
    tol: R,
    scale: R,
    frame: &Frame<R>,
) -> Option<Feature<R>> {
    let local = pose.inverse_transform_vector(dir);
    let slop = R::lit(FEATURE_SLOP_FRACTION) * scale;
    let len_tol = R::lit(DISTINCT_FRACTION) * scale;
    let round_off = R::lit(64.0) * R::EPSILON * (pose.translation.norm() + scale);
    let flat_tol = (slop * R::lit(FLAT_FRACTION)).max_of(round_off);
    let mut tol = tol;
    for _ in 0..MAX_FEATURE_TRIES {
        let mut set = SupportSet::new();
        // A set past its capacity keeps the points that fit: still points
        // of the feature, so the patch stays on both surfaces.
        let _ = s.support_set(local, tol, &mut set);
        if let Ok(f) = Feature::of(set.points(), pose, frame, len_tol, flat_tol) {
            if f.as_ref()
                .is_none_or(|f| on_surface(s, pose, f, frame, dir, flat_tol))
            {
                return f;
            }
        }
        if !(tol > slop) {
            break;
        }
        tol = (tol * R::HALF * R::HALF).max_of(slop);
    }
    None
}

/// Whether the feature `f` of `s` (at `pose`), its support set along the
/// world direction `dir`, lies on the shape's surface: no point of the core
/// stands more than `flat_tol` meters past the feature's plane
/// ([`Feature::plane`], on `dir`'s side). Any three points of a support
/// set are flat, but on a deep pair, whose support sets reach well below
/// the extreme, three vertices of different faces span a triangle through
/// the shape's inside, and a patch point there would not be on the
/// surface; a segment between two vertices can cut through it the same
/// way.
fn on_surface<R: Real, S: Support<R>>(
    s: &S,
    pose: &Iso3<R>,
    f: &Feature<R>,
    frame: &Frame<R>,
    dir: Vec3<R>,
    flat_tol: R,
) -> bool {
    let Some((m, on_plane)) = f.plane(frame) else {
        return true;
    };
    let m = if m.dot(dir) < R::ZERO { -m } else { m };
    let local = s.support(pose.inverse_transform_vector(m), &mut S::Hint::default());
    (pose.transform_point(local) - on_plane).dot(m) <= flat_tol
}

/// The flatness tolerance of a touching feature, as a fraction of the
/// feature slop ([`FEATURE_SLOP_FRACTION`] of the smaller shape's size):
/// a quarter, 2.5e-4 of the size, the most a patch point's depth may be
/// off the feature's true height.
pub const FLAT_FRACTION: f64 = 0.25;

/// How many support sets [`feature`] takes, each within a quarter of the
/// previous tolerance, before it gives up on a set that is not flat: 1 m
/// of depth comes down to the 1 mm slop of a 1 m shape by the sixth, and
/// a set within the slop is flat unless the shape has an edge along the
/// normal.
const MAX_FEATURE_TRIES: usize = 6;
