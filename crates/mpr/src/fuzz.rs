//! The fuzzing harness: invariants every query must keep, checkable on any
//! pair of shapes ([`check_pair`]) or on shapes and poses decoded from
//! arbitrary bytes ([`check_bytes`], what a cargo-fuzz target calls).

use crate::{intersect, penetration, MprStatus, Penetration};
use mink_gjk::{EpaStatus, GjkStatus};
use mink_support::{
    Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Iso3, Pair, Point, Quat, Real, Rounded, Segment,
    Sphere, Support, Vec3,
};

/// An invariant that did not hold: which one, as a fixed message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Violation(pub &'static str);

impl core::fmt::Display for Violation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.0)
    }
}

/// The support of the full shape (core plus inflation) at `pose` along the
/// world unit direction `n`: `max over the shape of n · x` (meters).
fn world_support<R: Real, S: Support<R>>(s: &S, pose: &Iso3<R>, n: Vec3<R>) -> R {
    let local = pose.rotation.transpose_mul(n);
    let mut h = S::Hint::default();
    let p = pose.transform_point(s.support(local, &mut h));
    n.dot(p) + s.inflation()
}

/// Checks the invariants on A at `pose_a` and B at `pose_b` (world frame) and
/// returns A-to-B's penetration result:
///
/// - every output is finite, the depth is `>= 0`, an overlapping normal is
///   unit length;
/// - [`intersect`] and [`penetration`] give the same verdict, unless the
///   shapes touch within `tol` (GJK decides nothing, and the depth is at
///   most `tol`), where either verdict is right;
/// - the depth is the separating translation along the normal: the support
///   of A minus the support of B along `normal` (computed here from the
///   shapes directly) equals `depth` within `tol` (meters); a separated
///   answer's normal does not let them overlap by more than `tol`;
/// - B-to-A gives the same verdict when the depth exceeds `tol`, and when
///   both converge, the same depth within `tol` and the opposite normal
///   (within 1e-3 rad), unless the two normals are equally deep answers
///   (a tie, checked with the support functions);
/// - the verdict of both queries agrees with an independent oracle,
///   mink-gjk (see [`gjk_verdict`]), wherever that one proves the shapes
///   overlapping or apart by more than `tol`.
pub fn check_pair<R: Real, A: Support<R>, B: Support<R>>(
    a: &A,
    pose_a: &Iso3<R>,
    b: &B,
    pose_b: &Iso3<R>,
    tol: R,
) -> Result<Penetration<R>, Violation> {
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    let hit = penetration(&mut pair, pose_a);
    let boolean = intersect(&mut Pair::new(a, pose_a, b, pose_b));
    check_fields(&hit)?;
    let verdict = gjk_verdict(a, pose_a, b, pose_b, tol);
    // Shapes touching within `tol` may be called either way by either
    // query (a box face exactly at a capsule's radius).
    let decisive = verdict.is_some() || hit.depth > tol;
    if boolean.overlapping != hit.is_overlapping()
        && hit.status != MprStatus::IterationCap
        && decisive
    {
        return Err(Violation("intersect and penetration disagree"));
    }
    if let Some(overlapping) = verdict {
        let decided = !matches!(hit.status, MprStatus::IterationCap | MprStatus::NonFinite);
        if decided && hit.is_overlapping() != overlapping {
            return Err(Violation("penetration disagrees with GJK's verdict"));
        }
        let decided = !matches!(
            boolean.status,
            MprStatus::IterationCap | MprStatus::NonFinite
        );
        if decided && boolean.overlapping != overlapping {
            return Err(Violation("intersect disagrees with GJK's verdict"));
        }
    }
    let gap_along = |n: Vec3<R>| world_support(a, pose_a, n) + world_support(b, pose_b, -n);
    if hit.is_overlapping() {
        if (gap_along(hit.normal) - hit.depth).abs() > tol {
            return Err(Violation(
                "depth is not the separating translation along the normal",
            ));
        }
    } else if hit.status == MprStatus::Separated
        && hit.normal != Vec3::ZERO
        && gap_along(hit.normal) > tol
    {
        return Err(Violation("separating normal does not separate"));
    }

    let mut swapped = Pair::new(b, pose_b, a, pose_a);
    let back = penetration(&mut swapped, pose_b);
    check_fields(&back)?;
    let deep_enough = hit.depth > tol || back.depth > tol;
    if deep_enough && hit.is_overlapping() != back.is_overlapping() {
        return Err(Violation("swapping A and B changes the verdict"));
    }
    if hit.status == MprStatus::Converged && back.status == MprStatus::Converged && hit.depth > tol
    {
        if (hit.depth - back.depth).abs() > tol {
            return Err(Violation("swapping A and B changes the converged depth"));
        }
        // The normal flips, or the swapped one is an equally deep answer
        // (a tie between two directions of least depth).
        let flipped = (hit.normal + back.normal).norm() <= crate::self_consistency_sine::<R>();
        if !flipped && (gap_along(-back.normal) - hit.depth).abs() > tol {
            return Err(Violation("swapping A and B does not flip the normal"));
        }
    }
    Ok(hit)
}

/// The verdict of mink-gjk on A and B, an oracle independent of MPR (it
/// shares only the support functions): `Some(true)` when GJK proves the
/// shapes overlapping by more than `band` (meters): the distance it
/// converged to, or cores it found intersecting with a total inflation
/// above `band`, or else EPA's converged depth; `Some(false)` when GJK's
/// converged distance exceeds `band`; `None` within `band` of touching or
/// when GJK or EPA did not settle.
pub fn gjk_verdict<R: Real, A: Support<R>, B: Support<R>>(
    a: &A,
    pose_a: &Iso3<R>,
    b: &B,
    pose_b: &Iso3<R>,
    band: R,
) -> Option<bool> {
    let d = mink_gjk::distance(&mut Pair::new(a, pose_a, b, pose_b), pose_a);
    match d.status {
        GjkStatus::Converged => (d.distance.abs() > band).then_some(d.distance < R::ZERO),
        GjkStatus::Intersecting if a.inflation() + b.inflation() > band => Some(true),
        GjkStatus::Intersecting => {
            let p = mink_gjk::penetration(&mut Pair::new(a, pose_a, b, pose_b), pose_a);
            (p.status == EpaStatus::Converged && p.depth > band).then_some(true)
        }
        _ => None,
    }
}

fn check_fields<R: Real>(p: &Penetration<R>) -> Result<(), Violation> {
    let finite = p.depth.finite()
        && p.normal.is_finite()
        && p.position.is_finite()
        && p.p_a.is_finite()
        && p.p_b.is_finite();
    if !finite {
        return Err(Violation("non-finite output"));
    }
    if p.depth < R::ZERO {
        return Err(Violation("negative depth"));
    }
    if p.is_overlapping() && (p.normal.norm() - R::ONE).abs() > R::sqrt_epsilon() {
        return Err(Violation("overlapping normal is not unit length"));
    }
    Ok(())
}

/// Reads bytes as numbers; zeros once exhausted.
struct Bytes<'d> {
    data: &'d [u8],
}

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((b, rest)) => {
                self.data = rest;
                *b
            }
            None => 0,
        }
    }

    /// A value in `[lo, hi]` from two bytes (computed in f64, then rounded
    /// to the scalar, so both scalars decode the same shapes and poses).
    fn range<R: Real>(&mut self, lo: f64, hi: f64) -> R {
        let v = u16::from_le_bytes([self.byte(), self.byte()]) as f64 / 65535.0;
        R::lit(lo + (hi - lo) * v)
    }

    fn pose<R: Real>(&mut self) -> Iso3<R> {
        let t = Vec3::new(
            self.range(-2.0, 2.0),
            self.range(-2.0, 2.0),
            self.range(-2.0, 2.0),
        );
        // Sometimes exactly axis-aligned, to reach the ties of flat faces.
        if self.byte() & 3 == 0 {
            return Iso3::from_translation(t);
        }
        let q = Quat::from_wxyz(
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
        );
        let q = q.normalize().unwrap_or(Quat::IDENTITY);
        Iso3::from_quat(t, q).unwrap_or(Iso3::from_translation(t))
    }
}

/// A shape decoded from bytes.
enum Shape<R: Real> {
    Point(Point),
    Sphere(Sphere<R>),
    Cuboid(Cuboid<R>),
    Capsule(Capsule<R>),
    Segment(Segment<R>),
    Cylinder(Cylinder<R>),
    Cone(Cone<R>),
    Ellipsoid(Ellipsoid<R>),
    RoundedCuboid(Rounded<Cuboid<R>, R>),
}

impl<R: Real> Shape<R> {
    fn decode(d: &mut Bytes<'_>) -> Option<Self> {
        let kind = d.byte() % 9;
        let x: R = d.range(0.02, 2.0);
        let y: R = d.range(0.02, 2.0);
        let z: R = d.range(0.02, 2.0);
        Some(match kind {
            0 => Shape::Point(Point),
            1 => Shape::Sphere(Sphere::new(x).ok()?),
            2 => Shape::Cuboid(Cuboid::new(Vec3::new(x, y, z)).ok()?),
            3 => Shape::Capsule(Capsule::new(x, y).ok()?),
            4 => Shape::Segment(
                Segment::new(Vec3::new(-x, R::ZERO, R::ZERO), Vec3::new(x, y, z)).ok()?,
            ),
            5 => Shape::Cylinder(Cylinder::new(x, y).ok()?),
            6 => Shape::Cone(Cone::new(x, y).ok()?),
            7 => Shape::Ellipsoid(Ellipsoid::new(Vec3::new(x, y, z)).ok()?),
            _ => Shape::RoundedCuboid(
                Rounded::new(Cuboid::new(Vec3::new(x, y, z)).ok()?, z * R::lit(0.25)).ok()?,
            ),
        })
    }
}

macro_rules! with_shape {
    ($s:expr, $v:ident => $body:expr) => {
        match $s {
            Shape::Point($v) => $body,
            Shape::Sphere($v) => $body,
            Shape::Cuboid($v) => $body,
            Shape::Capsule($v) => $body,
            Shape::Segment($v) => $body,
            Shape::Cylinder($v) => $body,
            Shape::Cone($v) => $body,
            Shape::Ellipsoid($v) => $body,
            Shape::RoundedCuboid($v) => $body,
        }
    };
}

/// Tolerance of [`check_bytes`] in `f64` (meters): far above its rounding,
/// far below the decoded shapes' sizes (0.02 m at least).
pub const CHECK_BYTES_TOL_F64: f64 = 1e-6;

/// Tolerance of [`check_bytes`] in `f32` (meters). MPR converges within
/// `1000 ε` (about `1.2e-4`) of the Minkowski difference's size, up to
/// about 8 m for the decoded shapes and poses, so depths and verdicts near
/// touching are good to about `1e-3` m there.
pub const CHECK_BYTES_TOL_F32: f64 = 4e-3;

/// Decodes two shapes (point, sphere, box, capsule, segment, cylinder, cone,
/// ellipsoid or rounded box, sizes 0.02 to 2 m) and two poses (translations
/// within 2 m, random or axis-aligned rotations) from `data`, and runs
/// [`check_pair`] on them in `f64` with a tolerance of
/// [`CHECK_BYTES_TOL_F64`], then in `f32` (the same numbers, rounded) with
/// [`CHECK_BYTES_TOL_F32`]. Among the invariants checked is agreement with
/// mink-gjk's verdict ([`gjk_verdict`]) outside the tolerance band around
/// touching. Any byte string is valid input (missing bytes read as zero);
/// returns the first invariant violated. A cargo-fuzz target calls it and
/// panics on `Err`.
pub fn check_bytes(data: &[u8]) -> Result<(), Violation> {
    check_bytes_in::<f64>(data, CHECK_BYTES_TOL_F64)?;
    check_bytes_in::<f32>(data, CHECK_BYTES_TOL_F32)
}

/// [`check_bytes`] in one scalar with tolerance `tol` (meters).
fn check_bytes_in<R: Real>(data: &[u8], tol: f64) -> Result<(), Violation> {
    let mut d = Bytes { data };
    let (Some(sa), Some(sb)) = (Shape::<R>::decode(&mut d), Shape::<R>::decode(&mut d)) else {
        return Ok(());
    };
    let pose_a = d.pose::<R>();
    let pose_b = d.pose::<R>();
    let tol = R::lit(tol);
    with_shape!(&sa, a => with_shape!(&sb, b => check_pair(a, &pose_a, b, &pose_b, tol).map(|_| ())))
}
