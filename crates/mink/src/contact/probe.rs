//! A world point measured against one shape of the pair: how far outside
//! it lies and where the shape's closest surface point is, by GJK from a
//! point. The manifold routines use it to check a contact's surface points
//! where their construction is only approximate (a perturbed point moved
//! across the normal, a rounded face's surface near the edge of its
//! support polygon).

use crate::pair::Side;
use mink_gjk::{ray_cast, GjkStatus, Ray, RayStatus};
use mink_support::{Iso3, Pair, Point, Real, Rounded, Support, Vec3};

/// Where a world point lies relative to a shape (its core swept by its
/// inflation and the body's margin).
#[derive(Clone, Copy, Debug)]
pub(crate) enum PointProbe<R> {
    /// Outside the core: `distance` is the signed distance from the whole
    /// shape (meters; negative inside the inflation), `closest` the
    /// shape's surface point nearest the point and `outward` the unit
    /// direction from it to the point (world frame).
    OutsideCore {
        distance: R,
        closest: Vec3<R>,
        outward: Vec3<R>,
    },
    /// Inside the core (or on it, within GJK's tolerance).
    InsideCore,
    /// GJK did not settle it (iteration limit, stall, non-finite input).
    Unknown,
}

/// [`PointProbe`] of the world point `q` against `s` at `side`.
pub(crate) fn probe<R: Real, S: Support<R>>(s: &S, side: &Side<R>, q: Vec3<R>) -> PointProbe<R> {
    let Ok(shape) = Rounded::new(s, side.margin) else {
        return PointProbe::Unknown;
    };
    let at = Iso3::from_translation(q);
    let mut pair = Pair::new(&Point, &at, &shape, &side.pose);
    let d = mink_gjk::distance(&mut pair, &at);
    match d.status {
        GjkStatus::Converged => PointProbe::OutsideCore {
            distance: d.distance,
            closest: d.p_b,
            outward: -d.normal,
        },
        GjkStatus::Intersecting => PointProbe::InsideCore,
        _ => PointProbe::Unknown,
    }
}

/// A contact's two surface points facing each other along the unit `n`,
/// `(on the first shape, on the other)`, from `exact` (a point of the
/// surface of `turned` at `st`, trusted) and `witness` (a point of the
/// surface of `other` at `so`); `None` when GJK cannot settle a point or
/// when no pair faces across `n` (below).
///
/// The other shape's point facing `exact` is its witness moved across
/// `n`; over a flat face that is exact, but it can leave the shape (past a
/// face's edge, a rim, a segment's end: a perturbed shape's patch reaching
/// beyond the other, or the two supports of an unfinished query far apart
/// across `n`). The contact then stands where the other shape ends: its
/// closest point to the facing point, with the first shape's point moved
/// across `n` to face it, when that one stays on the first shape (outside
/// it by at most `slack` meters: its core, inflation and margin); else the
/// facing pair as it is, when its point is outside the other shape by at
/// most `slack`. `None` when neither pair is on both shapes within `slack`
/// (a point of a cone's rim turned past a plate's edge, a disk's point
/// beside a segment): no point of the other shape faces it, and the
/// contact is not there. A point that is kept or dropped by this test
/// depends continuously on the pair, so it comes and goes with round-off
/// only when its gap is within round-off of `slack`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn facing<R, T, O>(
    turned: &T,
    st: &Side<R>,
    other: &O,
    so: &Side<R>,
    exact: Vec3<R>,
    witness: Vec3<R>,
    n: Vec3<R>,
    slack: R,
) -> Option<(Vec3<R>, Vec3<R>)>
where
    R: Real,
    T: Support<R>,
    O: Support<R>,
{
    // `p` moved across `n` (in the plane normal to it) to face `q`.
    let across = |p: Vec3<R>, q: Vec3<R>| q + n * (p - q).dot(n);
    let facing_other = across(witness, exact);
    // Any gap moves the contact (not only one past `slack`): the moved
    // point tends to the facing one as the gap closes, so a contact does
    // not jump with the round-off of the query that found it.
    let (gap_other, closest) = outside(other, so, facing_other)?;
    if !(gap_other > R::ZERO) {
        return Some((exact, facing_other));
    }
    let facing_turned = across(exact, closest);
    let (gap_turned, _) = outside(turned, st, facing_turned)?;
    if gap_turned <= slack {
        Some((facing_turned, closest))
    } else if gap_other <= slack {
        Some((exact, facing_other))
    } else {
        None
    }
}

/// How far the world point `q` lies outside the shape `s` at `side` (its
/// core, inflation and margin; zero inside), meters, and the shape's
/// point closest to `q` (`q` itself inside); `None` when GJK did not
/// settle it.
fn outside<R: Real, S: Support<R>>(s: &S, side: &Side<R>, q: Vec3<R>) -> Option<(R, Vec3<R>)> {
    match probe(s, side, q) {
        PointProbe::OutsideCore {
            distance, closest, ..
        } if distance > R::ZERO => Some((distance, closest)),
        PointProbe::OutsideCore { .. } | PointProbe::InsideCore => Some((R::ZERO, q)),
        PointProbe::Unknown => None,
    }
}

/// The point of `s` at `side` (core, inflation and margin) farthest along
/// the unit `n` on the line through the world point `through` along `n`,
/// world frame; `None` when the line misses the shape or the cast does not
/// settle. `reach` (meters) is how far past `through` along `n` the shape
/// can extend at most (its support height along `n` above `through`): the
/// line is cast backwards from just beyond it, so the first point it meets
/// is the one wanted, whether `through` lies inside the shape or not.
pub(crate) fn line_extreme<R: Real, S: Support<R>>(
    s: &S,
    side: &Side<R>,
    through: Vec3<R>,
    n: Vec3<R>,
    reach: R,
) -> Option<Vec3<R>> {
    let shape = Rounded::new(s, side.margin).ok()?;
    // Start a little beyond the support plane, so that the ray starts
    // outside the shape even with the plane's round-off.
    let lead = reach.abs() + reach.abs() * R::lit(1e-3) + R::EPSILON;
    let from = through + n * lead;
    let hit = ray_cast(&shape, &side.pose, &Ray::new(from, -n), R::INFINITY, true);
    (hit.status == RayStatus::Hit).then_some(hit.point)
}
