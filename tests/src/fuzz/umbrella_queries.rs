//! The `umbrella_queries` fuzz target: two decoded [`mink::Shape`]s (every
//! kind of `mink::shape_list!` and the half-space; layout in
//! [`super::shapes`]) with margins and poses, through [`mink::distance`],
//! [`mink::penetration`] and [`mink::intersect`] with every [`Method`], in
//! both orders, in f32 and f64. Every answer is certified from the shapes'
//! own support functions, independently of the algorithm that gave it.
//!
//! Input layout: shape A, shape B, a margin byte for each
//! ([`decode_margin`]), the poses ([`decode_poses`]), then a rigid motion
//! (a translation within 5 sizes and a rotation) applied to both poses.
//!
//! The checks, with `tol` = [`rel_tol`] × the scene's size (the shapes'
//! extents, margins and the poses' offsets):
//! - every answer is finite, a failure status only for two half-spaces
//!   (`Unsupported`, for every query), the normal unit within 1e-4; with a
//!   half-space, the normal is its (flipped for B) normal within 1e-3;
//! - apart (`distance >= 0`): the gap along the normal, from the two
//!   shapes' supports, is at least `distance - tol` (a lower bound on the
//!   true distance), `p_b - p_a = distance · normal` within `tol`, and each
//!   witness lies within `tol` of its shape along 52 directions (so the
//!   true distance is at most the answer's);
//! - overlapping: the depth is the overlap along its normal from supports
//!   within `tol` (at most: it is a translation along the normal; at
//!   least: moving B by it separates them), `p_a - p_b = depth · normal`
//!   (but for an unfinished answer, `IterationLimit` or `Degenerate`, whose
//!   witnesses are only points of the shapes);
//!   for a proven answer (`Exact`, `Converged`) the smallest overlap over
//!   about 55 sampled directions (world grid, both shapes' grids, planes'
//!   normals) is at least `depth - tol`, since the depth is the smallest
//!   overlap over every direction;
//!   an answer the algorithm could not finish (`IterationLimit`,
//!   `Degenerate`) is held to `100 tol`;
//! - `intersect` agrees with the sign of the `Auto` distance outside
//!   `±tol`, for every method;
//! - swapping A and B gives the same distance and depth within `tol` (both
//!   proven), and, apart by more than `100 tol`, the opposite normal
//!   within 1e-2;
//! - the same rigid motion applied to both poses leaves the `Auto`
//!   distance unchanged within `tol` (both proven).

use super::bytes::ByteReader;
use super::shapes::{
    decode_margin, decode_poses, decode_rotation, decode_shape, length, overlap_along, rel_tol,
    sampled_depth_bound, Placed,
};
use mink::query::{Overlap, Proximity, Status};
use mink::support::{Iso3, Real, Vec3};
use mink::{distance, intersect, penetration, Method, Shape};

/// Every method a query takes.
pub const METHODS: [Method; 4] = [Method::Auto, Method::Gjk, Method::Epa, Method::Mpr];

/// What the harness did with an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryOutcome {
    /// A constructor refused the decoded parameters.
    Refused,
    /// Every check ran on shapes found apart (or touching).
    Separated,
    /// Every check ran on overlapping shapes.
    Overlapping,
    /// Two half-spaces: every query answered `Unsupported`.
    Unsupported,
}

/// `true` for the statuses whose overlapping answer is self-consistent
/// (`p_a - p_b = depth · normal`): every status but the unfinished ones.
fn finished(s: Status) -> bool {
    !matches!(s, Status::IterationLimit | Status::Degenerate)
}

/// `true` for the statuses whose answer is proven (closed form or
/// converged).
fn proven(s: Status) -> bool {
    matches!(s, Status::Exact | Status::Converged)
}

/// Certifies one distance or penetration answer `p` of A against B
/// (see the module docs); `what` names the query for the message.
pub fn certify<R: Real>(
    p: &Proximity<R>,
    a: &Placed<'_, '_, R>,
    b: &Placed<'_, '_, R>,
    tol: f64,
    what: &str,
) -> Result<(), String> {
    let both_planes = a.plane().is_some() && b.plane().is_some();
    if both_planes {
        return if p.status == Status::Unsupported {
            Ok(())
        } else {
            Err(format!("{what}: two half-spaces answered {p:?}"))
        };
    }
    if !p.status.is_answer() {
        return Err(format!("{what}: failed with {:?}", p.status));
    }
    let finite =
        p.distance.finite() && p.p_a.is_finite() && p.p_b.is_finite() && p.normal.is_finite();
    if !finite {
        return Err(format!("{what}: non-finite answer {p:?}"));
    }
    let d = p.distance.to_f64();
    let mut n = p.normal.cast::<f64>();
    if (n.norm() - 1.0).abs() > 1e-4 {
        return Err(format!("{what}: normal {n:?} is not unit"));
    }
    // A half-space has a finite reach only along its own normal: the
    // answer's normal must be it, and the certificates use it exactly.
    let plane_normal = a.plane().map(|(m, _)| m).or(b.plane().map(|(m, _)| -m));
    if let Some(m) = plane_normal {
        if (n - m).norm() > 1e-3 {
            return Err(format!(
                "{what}: normal {n:?} is not the half-space's {m:?}"
            ));
        }
        n = m;
    }
    let slack = if proven(p.status) || p.status == Status::Unverified {
        tol
    } else {
        100.0 * tol
    };
    let (wa, wb) = (p.p_a.cast::<f64>(), p.p_b.cast::<f64>());
    let along = overlap_along(a, b, n);
    if d >= 0.0 {
        if -along < d - slack {
            return Err(format!(
                "{what}: gap along the normal {} is below the distance {d} ({:?})",
                -along, p.status
            ));
        }
        if (wb - wa - n * d).norm() > slack {
            return Err(format!("{what}: p_b - p_a is not distance × normal: {p:?}"));
        }
    } else {
        let depth = -d;
        if depth > along + slack {
            return Err(format!(
                "{what}: depth {depth} exceeds the overlap {along} along its normal ({:?})",
                p.status
            ));
        }
        if depth < along - slack {
            return Err(format!(
                "{what}: moving B by the depth {depth} does not separate (overlap {along}, {:?})",
                p.status
            ));
        }
        if finished(p.status) && (wa - wb - n * depth).norm() > slack {
            return Err(format!("{what}: p_a - p_b is not depth × normal: {p:?}"));
        }
        if proven(p.status) {
            let bound = sampled_depth_bound(a, b);
            if bound < depth - tol {
                return Err(format!(
                    "{what}: depth {depth} ({:?}) exceeds the overlap {bound} along a sampled direction",
                    p.status
                ));
            }
        }
    }
    if !a.contains(wa, slack) {
        return Err(format!("{what}: witness p_a {wa:?} lies outside A"));
    }
    if !b.contains(wb, slack) {
        return Err(format!("{what}: witness p_b {wb:?} lies outside B"));
    }
    Ok(())
}

/// Checks `intersect`'s answer `o` against the certified signed distance
/// `d` (meters).
fn check_intersect(
    o: &Overlap,
    d: f64,
    both_planes: bool,
    tol: f64,
    what: &str,
) -> Result<(), String> {
    if both_planes {
        return if o.status == Status::Unsupported && !o.intersecting {
            Ok(())
        } else {
            Err(format!("{what}: two half-spaces answered {o:?}"))
        };
    }
    if !o.status.is_answer() {
        return Err(format!("{what}: failed with {:?}", o.status));
    }
    if d > tol && o.intersecting {
        return Err(format!("{what}: intersecting at distance {d}"));
    }
    if d < -tol && !o.intersecting {
        return Err(format!("{what}: apart at distance {d}"));
    }
    Ok(())
}

/// The answers of one ordered pair: per method, distance, penetration and
/// intersection.
struct Answers<R> {
    distance: [Proximity<R>; 4],
    penetration: [Proximity<R>; 4],
    intersect: [Overlap; 4],
}

/// Runs and certifies every query of A against B.
fn run_order<R: Real>(
    a: &Placed<'_, '_, R>,
    b: &Placed<'_, '_, R>,
    tol: f64,
    order: &str,
) -> Result<Answers<R>, String> {
    let (ba, bb) = (a.body(), b.body());
    let both_planes = a.plane().is_some() && b.plane().is_some();
    let answers = Answers {
        distance: METHODS.map(|m| distance(&ba, &bb, m)),
        penetration: METHODS.map(|m| penetration(&ba, &bb, m)),
        intersect: METHODS.map(|m| intersect(&ba, &bb, m)),
    };
    for (i, m) in METHODS.iter().enumerate() {
        certify(
            &answers.distance[i],
            a,
            b,
            tol,
            &format!("{order} distance {m:?}"),
        )?;
        certify(
            &answers.penetration[i],
            a,
            b,
            tol,
            &format!("{order} penetration {m:?}"),
        )?;
    }
    let reference = answers.distance[0].distance.to_f64();
    for (i, m) in METHODS.iter().enumerate() {
        let what = format!("{order} intersect {m:?}");
        check_intersect(&answers.intersect[i], reference, both_planes, tol, &what)?;
    }
    Ok(answers)
}

/// Same distance (and depth) both ways when both are proven, opposite
/// normals when clearly apart.
fn check_swap<R: Real>(
    ab: &Proximity<R>,
    ba: &Proximity<R>,
    tol: f64,
    what: &str,
) -> Result<(), String> {
    if !(proven(ab.status) && proven(ba.status)) {
        return Ok(());
    }
    let (d1, d2) = (ab.distance.to_f64(), ba.distance.to_f64());
    if (d1 - d2).abs() > tol {
        return Err(format!(
            "{what}: swapping changes the distance: {d1} vs {d2}"
        ));
    }
    if d1 > 100.0 * tol && (ab.normal.cast::<f64>() + ba.normal.cast::<f64>()).norm() > 1e-2 {
        return Err(format!(
            "{what}: swapping does not flip the normal: {:?} vs {:?}",
            ab.normal, ba.normal
        ));
    }
    Ok(())
}

/// The scene's size for the tolerances: the larger extent, the margins
/// and the poses' offsets, meters.
pub fn scene_size<R: Real>(a: &Placed<'_, '_, R>, b: &Placed<'_, '_, R>, ea: f64, eb: f64) -> f64 {
    ea.max(eb)
        + a.margin.to_f64()
        + b.margin.to_f64()
        + a.pose.translation.cast::<f64>().norm()
        + b.pose.translation.cast::<f64>().norm()
}

/// Decodes `data` in scalar `R` and checks every query: what it checked,
/// or the first check that failed.
pub fn check_bytes<R: Real>(data: &[u8]) -> Result<QueryOutcome, String> {
    let mut r = ByteReader::new(data);
    let (Some(sa), Some(sb)) = (decode_shape::<R>(&mut r), decode_shape::<R>(&mut r)) else {
        return Ok(QueryOutcome::Refused);
    };
    let (Some(shape_a), Some(shape_b)) = (sa.shape(), sb.shape()) else {
        return Ok(QueryOutcome::Refused);
    };
    let (ea, eb) = (sa.extent(), sb.extent());
    let unit = ea.max(eb).max(0.02);
    let place = |shape, margin: f64| Placed {
        shape,
        pose: Iso3::IDENTITY,
        margin: R::lit(margin),
    };
    let (ma, mb) = (
        decode_margin(&mut r, ea.max(0.02)),
        decode_margin(&mut r, eb.max(0.02)),
    );
    let mut a = place(&shape_a, ma);
    let mut b = place(&shape_b, mb);
    let placement = decode_poses(&mut r, &mut a, &mut b, unit);
    let motion = Iso3::from_parts(
        decode_rotation::<R>(&mut r),
        Vec3::new(
            R::lit(length(&mut r, -5.0, 5.0) * unit),
            R::lit(length(&mut r, -5.0, 5.0) * unit),
            R::lit(length(&mut r, -5.0, 5.0) * unit),
        ),
    );
    let size = scene_size(&a, &b, ea, eb);
    let tol = rel_tol::<R>() * size;
    let context = |e: String| {
        format!(
            "{e} [{} vs {}, {placement:?}]",
            shape_a.name(),
            shape_b.name()
        )
    };
    let ab = run_order(&a, &b, tol, "A-B").map_err(context)?;
    let ba = run_order(&b, &a, tol, "B-A").map_err(context)?;
    for (i, m) in METHODS.iter().enumerate() {
        check_swap(
            &ab.distance[i],
            &ba.distance[i],
            tol,
            &format!("distance {m:?}"),
        )
        .map_err(context)?;
        check_swap(
            &ab.penetration[i],
            &ba.penetration[i],
            tol,
            &format!("penetration {m:?}"),
        )
        .map_err(context)?;
    }
    // The same motion applied to both poses.
    let (ma, mb) = (
        Placed {
            pose: motion.mul(&a.pose),
            ..a
        },
        Placed {
            pose: motion.mul(&b.pose),
            ..b
        },
    );
    let moved_tol = rel_tol::<R>() * scene_size(&ma, &mb, ea, eb);
    let moved = distance(&ma.body(), &mb.body(), Method::Auto);
    certify(&moved, &ma, &mb, moved_tol, "moved distance Auto").map_err(context)?;
    let here = &ab.distance[0];
    if proven(here.status) && proven(moved.status) {
        let (d1, d2) = (here.distance.to_f64(), moved.distance.to_f64());
        if (d1 - d2).abs() > moved_tol {
            return Err(context(format!(
                "a rigid motion of both changes the distance: {d1} vs {d2}"
            )));
        }
    }
    Ok(
        if matches!(shape_a, Shape::HalfSpace(_)) && matches!(shape_b, Shape::HalfSpace(_)) {
            QueryOutcome::Unsupported
        } else if here.distance < R::ZERO {
            QueryOutcome::Overlapping
        } else {
            QueryOutcome::Separated
        },
    )
}
