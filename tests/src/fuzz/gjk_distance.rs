//! The `gjk_distance` fuzz target: two shapes and two poses decoded from
//! bytes, through mink-gjk's `distance`, `intersect` and `penetration`
//! (GJK, then EPA) in both orders, in f32 and f64; every answer is checked
//! against the shapes' own support functions, independently of GJK.
//!
//! Input layout (reading past the end gives zeros, so every input is valid):
//!
//! | bytes | meaning |
//! |---|---|
//! | 1 | shape A: the byte modulo 10 picks point, sphere, box, capsule, segment, cylinder, cone, ellipsoid, hull or rounded box |
//! | 6 | three sizes, 2 bytes each, mapped to 0.02 to 2 m |
//! | 1 + 6 per point | hull only: 4 to 12 points, each coordinate within its size |
//! | ... | shape B, the same way |
//! | 7 or 15 | pose of A: translation (3 × 2 bytes, within 2 m), a byte whose low two bits zero keep the axes, else a quaternion (4 × 2 bytes, normalized) |
//! | 7 or 15 | pose of B, the same way |
//!
//! The checks, with a tolerance of 1e-6 (f64) or 2e-3 (f32) times the
//! scene's size (the shapes' extents and the poses' offsets):
//! - every output is finite, GJK ends `Converged` or `Intersecting`;
//! - a separated answer's witnesses satisfy `p_b - p_a = distance · normal`,
//!   each lies on its shape's supporting plane along the normal and inside
//!   its shape along 26 directions, and the gap between the two supporting
//!   planes along the normal equals the distance;
//! - swapping A and B gives the same distance and the opposite normal;
//! - `intersect` agrees with the sign of the distance away from touching;
//! - EPA agrees with GJK's verdict away from touching, its depth is the
//!   overlap of the shapes along its normal (also when its polytope filled
//!   up: then the direction is its descent's), and its witnesses satisfy
//!   `p_a - p_b = depth · normal`.

use super::bytes::ByteReader;
use mink::{dispatch_pair, PairVisitor, Shape};
use mink_gjk::{
    distance, gjk, intersect, penetration, EpaStatus, GjkCache, GjkSettings, GjkStatus, Penetration,
};
use mink_support::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Ellipsoid, HalfSpace, Iso3, Pair, Point, Quat,
    Real, Rounded, Segment, Sphere, Support, Vec3,
};

/// Number of shape kinds the decoder knows.
pub const GJK_SHAPE_KINDS: u8 = 10;

/// Most points of a decoded hull.
pub const GJK_MAX_HULL_POINTS: usize = 12;

/// A length in `[lo, hi]` from two bytes.
fn length(r: &mut ByteReader<'_>, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * f64::from(r.u16()) / f64::from(u16::MAX)
}

/// The parameters of a shape: its kind, three sizes (meters) and, for a
/// hull, its points.
struct ShapeBytes<R: Real> {
    kind: u8,
    size: [f64; 3],
    hull: Option<ConvexHull<R>>,
}

/// Decodes one shape's bytes; `None` when the hull's constructor refuses
/// the decoded points (a degenerate hull).
fn decode_shape<R: Real>(r: &mut ByteReader<'_>) -> Option<ShapeBytes<R>> {
    let kind = r.u8() % GJK_SHAPE_KINDS;
    let (x, y, z) = (
        length(r, 0.02, 2.0),
        length(r, 0.02, 2.0),
        length(r, 0.02, 2.0),
    );
    let v = |a: f64, b: f64, c: f64| Vec3::new(R::lit(a), R::lit(b), R::lit(c));
    let mut hull = None;
    if kind == 8 {
        let n = 4 + usize::from(r.u8()) % (GJK_MAX_HULL_POINTS - 3);
        let points: Vec<Vec3<R>> = (0..n)
            .map(|_| v(length(r, -x, x), length(r, -y, y), length(r, -z, z)))
            .collect();
        hull = Some(ConvexHull::from_points(&points).ok()?);
    }
    Some(ShapeBytes {
        kind,
        size: [x, y, z],
        hull,
    })
}

impl<R: Real> ShapeBytes<R> {
    /// The shape and its extent (the largest distance of its points from
    /// its origin, bounded above), or `None` when its constructor refuses
    /// the decoded sizes.
    fn shape(&self) -> Option<(Shape<'_, R>, f64)> {
        let [x, y, z] = self.size;
        let v = |a: f64, b: f64, c: f64| Vec3::new(R::lit(a), R::lit(b), R::lit(c));
        let extent = 2.0 * (x + y + z);
        let shape = match self.kind {
            0 => Shape::Point(Point),
            1 => Shape::Sphere(Sphere::new(R::lit(x)).ok()?),
            2 => Shape::Cuboid(Cuboid::new(v(x, y, z)).ok()?),
            3 => Shape::Capsule(Capsule::new(R::lit(x), R::lit(y)).ok()?),
            4 => Shape::Segment(Segment::new(v(-x, 0.0, 0.0), v(x, y, z)).ok()?),
            5 => Shape::Cylinder(Cylinder::new(R::lit(x), R::lit(y)).ok()?),
            6 => Shape::Cone(Cone::new(R::lit(x), R::lit(y)).ok()?),
            7 => Shape::Ellipsoid(Ellipsoid::new(v(x, y, z)).ok()?),
            8 => Shape::Hull(self.hull.as_ref()?.view()),
            _ => Shape::RoundedCuboid(
                Rounded::new(Cuboid::new(v(x, y, z)).ok()?, R::lit(0.25 * z)).ok()?,
            ),
        };
        Some((shape, extent))
    }
}

/// A pose: translation within 2 m, axis-aligned or a normalized quaternion.
fn decode_pose<R: Real>(r: &mut ByteReader<'_>) -> Iso3<R> {
    let t = Vec3::new(
        R::lit(length(r, -2.0, 2.0)),
        R::lit(length(r, -2.0, 2.0)),
        R::lit(length(r, -2.0, 2.0)),
    );
    if r.u8() & 3 == 0 {
        return Iso3::from_translation(t);
    }
    let mut c = || R::lit(length(r, -1.0, 1.0));
    let q = Quat::from_wxyz(c(), c(), c(), c());
    let q = q.normalize().unwrap_or(Quat::IDENTITY);
    Iso3::from_quat(t, q).unwrap_or(Iso3::from_translation(t))
}

/// The support value of `s` at `pose` along the world unit direction `n`:
/// `max over the shape (inflation included) of n · x`, meters.
fn reach<R: Real, S: Support<R>>(s: &S, pose: &Iso3<R>, n: Vec3<f64>) -> f64 {
    let n: Vec3<R> = n.cast();
    let mut hint = S::Hint::default();
    let local = s.support(pose.rotation.transpose_mul(n), &mut hint);
    n.dot(pose.transform_point(local)).to_f64() + s.inflation().to_f64()
}

/// The 26 directions of a 3×3×3 grid's non-centre points, normalized.
fn probe_directions() -> impl Iterator<Item = Vec3<f64>> {
    (0..27)
        .filter(|&i| i != 13)
        .map(|i| {
            Vec3::new(
                (i % 3) as f64 - 1.0,
                ((i / 3) % 3) as f64 - 1.0,
                (i / 9) as f64 - 1.0,
            )
        })
        .map(|d| d.normalize_or(Vec3::X))
}

/// What one ordered pair's queries returned.
struct Answers<R> {
    d: mink_gjk::Distance<R>,
    hit: bool,
    p: Penetration<R>,
}

fn answers<R: Real, A: Support<R>, B: Support<R>>(
    a: &A,
    pa: &Iso3<R>,
    b: &B,
    pb: &Iso3<R>,
) -> Answers<R> {
    let mut pair = Pair::new(a, pa, b, pb);
    Answers {
        d: distance(&mut pair, pa),
        hit: intersect(&mut pair),
        p: penetration(&mut pair, pa),
    }
}

/// What the harness did with an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GjkOutcome {
    /// A constructor refused the decoded parameters (a degenerate hull).
    Refused,
    /// Every check ran on shapes GJK found apart (or touching).
    Separated,
    /// Every check ran on overlapping shapes, EPA's included.
    Overlapping,
}

/// Checks A at `pa` against B at `pb`; `size` is the scene's size (meters).
fn check_pair<R: Real, A: Support<R>, B: Support<R>>(
    a: &A,
    pa: &Iso3<R>,
    b: &B,
    pb: &Iso3<R>,
    size: f64,
) -> Result<GjkOutcome, String> {
    let rel = if R::MANTISSA_BITS > 30 { 1e-6 } else { 2e-3 };
    let tol = rel * size;
    let ab = answers(a, pa, b, pb);
    let ba = answers(b, pb, a, pa);
    let (d, p) = (&ab.d, &ab.p);
    let finite = d.distance.finite()
        && d.p_a.is_finite()
        && d.p_b.is_finite()
        && d.normal.is_finite()
        && p.depth.finite()
        && p.p_a.is_finite()
        && p.p_b.is_finite()
        && p.normal.is_finite();
    if !finite {
        return Err(format!("non-finite output: {d:?} {p:?}"));
    }
    if !matches!(d.status, GjkStatus::Converged | GjkStatus::Intersecting) {
        return Err(format!("GJK ended {:?}", d.status));
    }
    let dist = d.distance.to_f64();
    let n = d.normal.cast::<f64>();
    if (n.norm() - 1.0).abs() > 1e-3 {
        return Err(format!("normal {n:?} is not unit"));
    }
    if d.status == GjkStatus::Converged {
        let (wa, wb) = (d.p_a.cast::<f64>(), d.p_b.cast::<f64>());
        if (wb - wa - n * dist).norm() > tol {
            return Err(format!("p_b - p_a is not distance × normal: {d:?}"));
        }
        for (name, on_plane, surface, point) in [
            ("A", n.dot(wa), reach(a, pa, n), wa),
            ("B", -n.dot(wb), reach(b, pb, -n), wb),
        ] {
            if on_plane < surface - tol {
                return Err(format!("witness of {name} is off its supporting plane"));
            }
            let s = |m: Vec3<f64>| {
                if name == "A" {
                    reach(a, pa, m)
                } else {
                    reach(b, pb, m)
                }
            };
            if probe_directions().any(|m| m.dot(point) > s(m) + tol) {
                return Err(format!("witness of {name} lies outside it"));
            }
        }
        if dist >= 0.0 {
            let gap = -(reach(a, pa, n) + reach(b, pb, -n));
            if (gap - dist).abs() > tol {
                return Err(format!(
                    "gap along the normal {gap} is not the distance {dist}"
                ));
            }
        }
        if ba.d.status == GjkStatus::Converged {
            let swapped = ba.d.distance.to_f64();
            if (swapped - dist).abs() > tol {
                return Err(format!(
                    "swapping changes the distance: {dist} vs {swapped}"
                ));
            }
            if dist > 100.0 * tol && (ba.d.normal.cast::<f64>() + n).norm() > 1e-2 {
                return Err("swapping does not flip the normal".into());
            }
        }
    }
    check_warm_start(a, pa, b, pb, d, tol)?;
    let overlapping = d.status == GjkStatus::Intersecting || dist < 0.0;
    if dist > tol && ab.hit {
        return Err(format!("intersect says overlapping at distance {dist}"));
    }
    if overlapping && dist < -tol && !ab.hit {
        return Err(format!("intersect says apart at distance {dist}"));
    }
    if dist > tol && p.status != EpaStatus::Separated {
        return Err(format!("EPA says {:?} at distance {dist}", p.status));
    }
    if overlapping && (dist < -tol || d.status == GjkStatus::Intersecting) {
        if !matches!(
            p.status,
            EpaStatus::Converged | EpaStatus::CapacityReached | EpaStatus::Degenerate
        ) {
            return Err(format!("EPA ended {:?} on overlapping shapes", p.status));
        }
        let depth = p.depth.to_f64();
        let pn = p.normal.cast::<f64>();
        // A flat difference (points and segments) ends Degenerate with the
        // depth of its flat direction: held to a looser tolerance. A full
        // polytope's answer is the overlap along the direction its descent
        // found, as exact along that normal as a converged one.
        let slack = if p.status == EpaStatus::Degenerate {
            100.0 * tol
        } else {
            tol
        };
        if depth < -tol {
            return Err(format!("negative depth {depth}"));
        }
        let along = reach(a, pa, pn) + reach(b, pb, -pn);
        if (along - depth).abs() > slack {
            return Err(format!(
                "overlap along the normal {along} is not the depth {depth} ({:?})",
                p.status
            ));
        }
        let (ppa, ppb) = (p.p_a.cast::<f64>(), p.p_b.cast::<f64>());
        if (ppa - ppb - pn * depth).norm() > slack {
            return Err(format!("p_a - p_b is not depth × normal: {p:?}"));
        }
    }
    Ok(if overlapping {
        GjkOutcome::Overlapping
    } else {
        GjkOutcome::Separated
    })
}

/// A cache warmed on B at a nearby pose (moved by a hundredth of the
/// shapes' offset and turned 0.05 rad), then used at `pb`: the same
/// verdict away from touching and the same distance within `tol` as the
/// cold answer `cold`.
fn check_warm_start<R: Real, A: Support<R>, B: Support<R>>(
    a: &A,
    pa: &Iso3<R>,
    b: &B,
    pb: &Iso3<R>,
    cold: &mink_gjk::Distance<R>,
    tol: f64,
) -> Result<(), String> {
    let offset = pb.translation - pa.translation;
    let turn = mink_support::Mat3::from_axis_angle(Vec3::Z, R::lit(0.05));
    let near = Iso3::from_parts(
        turn.mul_mat(&pb.rotation),
        pb.translation + offset * R::lit(0.01),
    );
    let s = GjkSettings::default();
    let mut cache = GjkCache::default();
    gjk(&mut Pair::new(a, pa, b, &near), pa, &s, &mut cache);
    let warm = gjk(&mut Pair::new(a, pa, b, pb), pa, &s, &mut cache);
    if !(warm.distance.finite() && warm.normal.is_finite()) {
        return Err(format!("warm start: non-finite output {warm:?}"));
    }
    let (dw, dc) = (warm.distance.to_f64(), cold.distance.to_f64());
    let both = matches!(warm.status, GjkStatus::Converged | GjkStatus::Intersecting);
    if both && (dw - dc).abs() > tol {
        return Err(format!("warm start: distance {dw}, cold {dc}"));
    }
    if (dc > tol && warm.status == GjkStatus::Intersecting)
        || (cold.status == GjkStatus::Intersecting && dw > tol)
    {
        return Err(format!(
            "warm start: {:?} at cold distance {dc}",
            warm.status
        ));
    }
    Ok(())
}

/// [`check_pair`] on the two concrete shapes [`dispatch_pair`] finds.
struct CheckPair<'p, R: Real> {
    pa: &'p Iso3<R>,
    pb: &'p Iso3<R>,
    size: f64,
}

impl<R: Real> PairVisitor<R> for CheckPair<'_, R> {
    type Output = Result<GjkOutcome, String>;

    fn convex<A: Support<R>, B: Support<R>>(self, a: &A, b: &B) -> Self::Output {
        check_pair(a, self.pa, b, self.pb, self.size)
    }

    // The decoder makes no half-spaces.
    fn half_space<S: Support<R>>(self, _: &HalfSpace<R>, _: &S, _: bool) -> Self::Output {
        Ok(GjkOutcome::Refused)
    }

    fn half_spaces(self, _: &HalfSpace<R>, _: &HalfSpace<R>) -> Self::Output {
        Ok(GjkOutcome::Refused)
    }
}

/// Decodes `data` in scalar `R` and checks every query: what it checked,
/// or the first check that failed.
pub fn check_bytes<R: Real>(data: &[u8]) -> Result<GjkOutcome, String> {
    let mut r = ByteReader::new(data);
    let (Some(a), Some(b)) = (decode_shape::<R>(&mut r), decode_shape::<R>(&mut r)) else {
        return Ok(GjkOutcome::Refused);
    };
    let (Some((a, ea)), Some((b, eb))) = (a.shape(), b.shape()) else {
        return Ok(GjkOutcome::Refused);
    };
    let pa = decode_pose::<R>(&mut r);
    let pb = decode_pose::<R>(&mut r);
    let offsets = pa.translation.cast::<f64>().norm() + pb.translation.cast::<f64>().norm();
    let size = ea.max(eb) + offsets;
    let pair = CheckPair {
        pa: &pa,
        pb: &pb,
        size,
    };
    dispatch_pair(&a, &b, pair)
        .map_err(|e| format!("{e}\n  A = {a:?} at {pa:?}\n  B = {b:?} at {pb:?}"))
}
