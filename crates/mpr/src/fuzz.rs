//! The fuzzing harness: invariants every query must keep, checkable on any
//! pair of shapes ([`check_pair`]) or on shapes and poses decoded from
//! arbitrary bytes ([`check_bytes`], what a cargo-fuzz target calls).

use crate::{intersect, penetration, MprStatus, Penetration};
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
/// - [`intersect`] and [`penetration`] give the same verdict;
/// - the depth is the separating translation along the normal: the support
///   of A minus the support of B along `normal` (computed here from the
///   shapes directly) equals `depth` within `tol` (meters); a separated
///   answer's normal does not let them overlap by more than `tol`;
/// - B-to-A gives the same verdict when the depth exceeds `tol`, and when
///   both converge, the same depth within `tol` and the opposite normal
///   (within 1e-3 rad), unless the two normals are equally deep answers
///   (a tie, checked with the support functions).
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
    if boolean.overlapping != hit.is_overlapping() && hit.status != MprStatus::IterationCap {
        return Err(Violation("intersect and penetration disagree"));
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

    /// A value in `[lo, hi]` from two bytes.
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        let v = u16::from_le_bytes([self.byte(), self.byte()]) as f64 / 65535.0;
        lo + (hi - lo) * v
    }

    fn pose(&mut self) -> Iso3<f64> {
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
enum Shape {
    Point(Point),
    Sphere(Sphere<f64>),
    Cuboid(Cuboid<f64>),
    Capsule(Capsule<f64>),
    Segment(Segment<f64>),
    Cylinder(Cylinder<f64>),
    Cone(Cone<f64>),
    Ellipsoid(Ellipsoid<f64>),
    RoundedCuboid(Rounded<Cuboid<f64>, f64>),
}

impl Shape {
    fn decode(d: &mut Bytes<'_>) -> Option<Self> {
        let kind = d.byte() % 9;
        let x = d.range(0.02, 2.0);
        let y = d.range(0.02, 2.0);
        let z = d.range(0.02, 2.0);
        Some(match kind {
            0 => Shape::Point(Point),
            1 => Shape::Sphere(Sphere::new(x).ok()?),
            2 => Shape::Cuboid(Cuboid::new(Vec3::new(x, y, z)).ok()?),
            3 => Shape::Capsule(Capsule::new(x, y).ok()?),
            4 => Shape::Segment(Segment::new(Vec3::new(-x, 0.0, 0.0), Vec3::new(x, y, z)).ok()?),
            5 => Shape::Cylinder(Cylinder::new(x, y).ok()?),
            6 => Shape::Cone(Cone::new(x, y).ok()?),
            7 => Shape::Ellipsoid(Ellipsoid::new(Vec3::new(x, y, z)).ok()?),
            _ => Shape::RoundedCuboid(
                Rounded::new(Cuboid::new(Vec3::new(x, y, z)).ok()?, z * 0.25).ok()?,
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

/// Decodes two shapes (point, sphere, box, capsule, segment, cylinder, cone,
/// ellipsoid or rounded box, sizes 0.02 to 2 m) and two poses (translations
/// within 2 m, random or axis-aligned rotations) from `data`, in `f64`, and
/// runs [`check_pair`] with a tolerance of `1e-6` m. Any byte string is
/// valid input (missing bytes read as zero); returns the first invariant
/// violated. A cargo-fuzz target calls it and panics on `Err`.
pub fn check_bytes(data: &[u8]) -> Result<(), Violation> {
    let mut d = Bytes { data };
    let (Some(sa), Some(sb)) = (Shape::decode(&mut d), Shape::decode(&mut d)) else {
        return Ok(());
    };
    let pose_a = d.pose();
    let pose_b = d.pose();
    let tol = 1e-6;
    with_shape!(&sa, a => with_shape!(&sb, b => check_pair(a, &pose_a, b, &pose_b, tol).map(|_| ())))
}
