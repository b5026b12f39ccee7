//! The fuzzing harness (feature `alloc`): invariants the SAT query and the
//! manifold must keep on any pair of hulls ([`check_pair`]) or on hulls and
//! poses decoded from arbitrary bytes ([`check_bytes`], what a cargo-fuzz
//! target calls, panicking on `Err`). Its verdict oracle is mink-gjk's GJK,
//! which shares no code with SAT.

use crate::{manifold, sat, Culling, ManifoldStatus, SatData, SatHull, SatStatus};
use mink_gjk::{distance, intersect, GjkStatus};
use mink_support::{ConvexHull, Iso3, Pair, Quat, Real, Vec3};

/// An invariant that did not hold: which one, as a fixed message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Violation(pub &'static str);

impl core::fmt::Display for Violation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.0)
    }
}

/// Relative tolerance of the checks, in units of `sqrt(R::EPSILON)` times
/// the size of the problem (hull extents plus distance from the origin).
pub const FUZZ_TOLERANCE_SQRT_EPS: f64 = 16.0;

/// Round-off allowed on top of the hulls' flatness when checking that the
/// separation is at most the true gap along the normal, in units of
/// `R::EPSILON` times the size of the problem.
pub const FUZZ_GAP_ROUNDING_EPS: f64 = 256.0;

/// The largest decoded speculative margin, meters.
pub const FUZZ_MAX_MARGIN: f64 = 0.1;

/// The largest decoded translation coordinate, meters.
pub const FUZZ_MAX_TRANSLATION: f64 = 3.0;

/// The largest plane distance of `p` (world) to `h` at `pose`: 0 on the
/// surface, negative inside.
fn surface_distance<R: Real>(h: &SatHull<'_, R>, pose: &Iso3<R>, p: Vec3<R>) -> R {
    let local = pose.inverse_transform_point(p);
    h.hull()
        .planes()
        .iter()
        .fold(-R::MAX, |m, pl| m.max_of(pl.distance(local)))
}

/// `max over A of n·x` and `min over B of n·x`, every vertex projected.
fn gap_along<R: Real>(
    a: &SatHull<'_, R>,
    pose_a: &Iso3<R>,
    b: &SatHull<'_, R>,
    pose_b: &Iso3<R>,
    n: Vec3<R>,
) -> R {
    let hi = a
        .hull()
        .vertices()
        .iter()
        .fold(-R::MAX, |m, &v| m.max_of(n.dot(pose_a.transform_point(v))));
    let lo = b
        .hull()
        .vertices()
        .iter()
        .fold(R::MAX, |m, &v| m.min_of(n.dot(pose_b.transform_point(v))));
    lo - hi
}

/// Checks, for A at `pose_a` and B at `pose_b` (world, finite) and a
/// speculative `margin` (meters, `>= 0`):
/// - SAT with and without culling: status `Ok`, finite, the same best
///   separation within the tolerance;
/// - the best normal is unit and the gap of the hulls' projections on it
///   (every vertex projected) is the reported separation, and never less
///   than it by more than both hulls' flatness and round-off
///   ([`FUZZ_GAP_ROUNDING_EPS`]): a positive separation is a separating
///   axis;
/// - away from touching (`|separation|` above the tolerance), SAT's
///   verdict is GJK's: overlapping when GJK finds the hulls intersecting,
///   apart when GJK finds them apart by more than the tolerance;
/// - the manifold: status `Ok`, at most 4 points, each finite, within the
///   margin, with its point on A on A's surface and its point on B on B's,
///   and at least one point when GJK finds the hulls intersecting and SAT
///   overlapping beyond the tolerance.
///
/// The tolerance is [`FUZZ_TOLERANCE_SQRT_EPS`] `× sqrt(ε)` × the size.
pub fn check_pair<R: Real>(
    a: &SatHull<'_, R>,
    pose_a: &Iso3<R>,
    b: &SatHull<'_, R>,
    pose_b: &Iso3<R>,
    margin: R,
) -> Result<(), Violation> {
    let size = a.extent()
        + b.extent()
        + pose_a.translation.norm()
        + pose_b.translation.norm()
        + a.sphere().center.norm()
        + b.sphere().center.norm();
    let tol = R::sqrt_epsilon() * R::lit(FUZZ_TOLERANCE_SQRT_EPS) * size;
    let on = sat(a, pose_a, b, pose_b, Culling::On);
    let off = sat(a, pose_a, b, pose_b, Culling::Off);
    if on.status != SatStatus::Ok || off.status != SatStatus::Ok {
        return Err(Violation("SAT status is not Ok on valid input"));
    }
    let s = on.best.separation;
    if !s.finite() || !on.best.normal.is_finite() {
        return Err(Violation("SAT output is not finite"));
    }
    if (s - off.best.separation).abs() > tol {
        return Err(Violation("culling changed the separation"));
    }
    if (on.best.normal.norm() - R::ONE).abs() > tol {
        return Err(Violation("SAT normal is not unit"));
    }
    let gap = gap_along(a, pose_a, b, pose_b, on.best.normal);
    if (gap - s).abs() > tol {
        return Err(Violation("separation is not the gap along the normal"));
    }
    let flat = a.hull().tolerance() + b.hull().tolerance();
    if s > gap + R::TWO * flat + R::EPSILON * R::lit(FUZZ_GAP_ROUNDING_EPS) * size {
        return Err(Violation("separation above the true gap along the normal"));
    }
    let (ha, hb) = (a.hull(), b.hull());
    let hit = intersect(&mut Pair::new(ha, pose_a, hb, pose_b));
    if hit && s > tol {
        return Err(Violation("SAT separates hulls GJK finds intersecting"));
    }
    if !hit && s < -tol {
        let d = distance(&mut Pair::new(ha, pose_a, hb, pose_b), pose_a);
        if d.status == GjkStatus::Converged && d.distance > tol {
            return Err(Violation("SAT overlaps hulls GJK finds apart"));
        }
    }
    let m = manifold(a, pose_a, b, pose_b, margin);
    if m.status != ManifoldStatus::Ok {
        return Err(Violation("manifold status is not Ok on valid input"));
    }
    if hit && s < -tol && m.points.is_empty() {
        return Err(Violation("overlapping hulls with an empty manifold"));
    }
    if s > margin + tol && !m.points.is_empty() {
        return Err(Violation("contacts beyond the margin"));
    }
    for c in &m.points {
        if !c.position.is_finite() || !c.separation.finite() {
            return Err(Violation("contact is not finite"));
        }
        if c.separation > margin + tol {
            return Err(Violation("contact separation beyond the margin"));
        }
        let half = m.normal * (c.separation * R::HALF);
        if surface_distance(a, pose_a, c.position - half).abs() > tol {
            return Err(Violation("contact's point on A is off A's surface"));
        }
        if surface_distance(b, pose_b, c.position + half).abs() > tol {
            return Err(Violation("contact's point on B is off B's surface"));
        }
    }
    Ok(())
}

/// Reads little-endian `u16`s from `bytes` as values in `[-1, 1]`.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn unit<R: Real>(&mut self) -> Option<R> {
        let (head, rest) = self.bytes.split_first_chunk::<2>()?;
        self.bytes = rest;
        let v = u16::from_le_bytes(*head) as f64 / u16::MAX as f64;
        Some(R::lit(v * 2.0 - 1.0))
    }

    fn vec<R: Real>(&mut self, scale: f64) -> Option<Vec3<R>> {
        Some(Vec3::new(self.unit()?, self.unit()?, self.unit()?) * R::lit(scale))
    }

    fn pose<R: Real>(&mut self) -> Option<Iso3<R>> {
        let t = self.vec(FUZZ_MAX_TRANSLATION)?;
        let q = Quat::from_wxyz(self.unit()?, self.unit()?, self.unit()?, self.unit()?)
            .normalize()
            .unwrap_or(Quat::IDENTITY);
        Iso3::from_quat(t, q).ok()
    }

    fn hull<R: Real>(&mut self) -> Option<ConvexHull<R>> {
        let (&count, rest) = self.bytes.split_first()?;
        self.bytes = rest;
        let n = 4 + count as usize % 29;
        let mut pts = [Vec3::ZERO; 32];
        for p in pts.iter_mut().take(n) {
            *p = self.vec(1.0)?;
        }
        ConvexHull::from_points(&pts[..n]).ok()
    }
}

/// Decodes two hulls (a count byte, then 4 to 32 points of three `u16`
/// coordinates in `[-1, 1]` m), two poses (translation coordinates up to
/// [`FUZZ_MAX_TRANSLATION`], a
/// quaternion normalized here) and a margin (`0` to [`FUZZ_MAX_MARGIN`]), then
/// runs [`check_pair`]. Bytes that run out or give a degenerate hull pass.
pub fn check_bytes<R: Real>(bytes: &[u8]) -> Result<(), Violation> {
    let mut r = Reader { bytes };
    let (Some(ha), Some(hb)) = (r.hull::<R>(), r.hull::<R>()) else {
        return Ok(());
    };
    let (Some(pose_a), Some(pose_b)) = (r.pose::<R>(), r.pose::<R>()) else {
        return Ok(());
    };
    let margin = r.unit::<R>().map_or(R::ZERO, |u| {
        (u + R::ONE) * R::HALF * R::lit(FUZZ_MAX_MARGIN)
    });
    let (Ok(da), Ok(db)) = (
        SatData::from_view(&ha.view()),
        SatData::from_view(&hb.view()),
    ) else {
        return Ok(());
    };
    let (Ok(a), Ok(b)) = (da.with_hull(ha.view()), db.with_hull(hb.view())) else {
        return Err(Violation("built SAT data refused by SatHull::new"));
    };
    check_pair(&a, &pose_a, &b, &pose_b, margin)
}
