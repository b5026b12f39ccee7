//! More contact points by perturbation, for shapes whose support sets
//! cannot show the patch they touch along (the scheme of Genesis and
//! MuJoCo's multi-contact).
//!
//! After the first contact with normal `n`, one shape is turned by a small
//! angle about each of `±t1`, `±t2` (tangent to `n`) around its own
//! origin, and the penetration query is run again. A patch (a flat cap on
//! a face) tilted this way touches first at its edge on the lowered side,
//! so each run finds a different point of the patch's boundary; a real
//! point contact gives the same point every time, which the distinct-point
//! test then merges. Each new contact is mapped back to the unperturbed
//! pose: the perturbed shape's witness is turned back exactly (it is a
//! point of that shape's surface), and its depth is re-measured along the
//! first normal against the other shape's witness, which did not move
//! (exact when the other side is flat there, as a face under a cap is).

use super::features::{deep_checked, DISTINCT_FRACTION};
use super::probe::facing;
use super::reduce::Candidates;
use super::{ContactPoint, Settings};
use crate::pair::{PairRoutine, Side};
use crate::query::Proximity;
use mink_support::{Iso3, Mat3, Real, Support, Vec3};

/// The perturbation angle, radians: 1e-2 (Genesis' choice; MuJoCo uses
/// 1e-3). A patch point rises or sinks by `size · angle` under the turn,
/// which must stand well above the penetration algorithms' tolerance in
/// f32 (about 1e-5 of the size), and a tilt of the patch larger than the
/// angle is a real tilt that leaves one point, as it should. 1e-3 would
/// sit within a factor 100 of f32's tolerance.
pub const PERTURBATION_ANGLE: f64 = 1e-2;

/// Which shape the perturbation turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PerturbSide {
    /// Turn A.
    A,
    /// Turn B.
    B,
}

/// The points found by turning the `side` shape about the four tangent
/// axes of the first contact `first`, mapped back, those within the
/// margin pushed into `out` (points within `distinct` meters merge, the
/// [`DISTINCT_FRACTION`] of `size`, the pair's smaller size).
///
/// The turned shape's point is its support point along the perturbed
/// query's normal (its deepest point there, exact whatever the query's
/// witness interpolates), turned back; the other side's height comes from
/// the perturbed query's witness on it, which the turned point must face
/// (within twice `distinct` across the perturbed normal, and again across
/// the first normal once turned back, plus the turn's sweep at that
/// point) to count. A perturbed query that
/// did not finish ([`Status::is_finished`](crate::query::Status::is_finished))
/// gives no point: its witnesses need not lie on the surfaces.
pub(crate) fn perturbed_contacts<R, A, B, T>(
    routine: &T,
    a: &A,
    sa: &Side<R>,
    b: &B,
    sb: &Side<R>,
    side: PerturbSide,
    params: &Settings<R>,
    first: &Proximity<R>,
    size: R,
    out: &mut Candidates<R>,
) where
    R: Real,
    A: Support<R>,
    B: Support<R>,
    T: PairRoutine<R, A, B>,
{
    let distinct = R::lit(DISTINCT_FRACTION) * size;
    let n = first.normal;
    let t1 = n.any_orthonormal();
    let t2 = n.cross(t1);
    let angle = R::lit(PERTURBATION_ANGLE);
    let (ia, ib) = (a.inflation() + sa.margin, b.inflation() + sb.margin);
    // The turned shape's deepest point must face the other shape's witness
    // (a point contact); a point elsewhere (a segment's end when a capsule
    // is turned) is not where the two touch.
    let tol = distinct * R::TWO;
    let lateral = |p: Vec3<R>, q: Vec3<R>, n: Vec3<R>| {
        let d = q - p;
        (d - n * d.dot(n)).norm()
    };
    for axis in [t1, -t1, t2, -t2] {
        let turn = Mat3::from_axis_angle(axis, angle);
        let turned =
            |pose: &Iso3<R>| Iso3::from_parts(turn.mul_mat(&pose.rotation), pose.translation);
        // `on_a`, `on_b`: surface points in the unperturbed poses (the
        // turned side's exactly, the other's where it touched).
        let (on_a, on_b) = match side {
            PerturbSide::A => {
                let ta = Side {
                    pose: turned(&sa.pose),
                    ..*sa
                };
                let p = deep_checked(routine, a, &ta, b, sb, params, &mut Some(size));
                if !p.status.is_finished() {
                    continue;
                }
                let local = a.support(
                    ta.pose.inverse_transform_vector(p.normal),
                    &mut A::Hint::default(),
                );
                let here = ta.pose.transform_point(local) + p.normal * ia;
                if lateral(here, p.p_b, p.normal) > tol {
                    continue;
                }
                let dir = turn.transpose_mul(p.normal);
                (sa.pose.transform_point(local) + dir * ia, p.p_b)
            }
            PerturbSide::B => {
                let tb = Side {
                    pose: turned(&sb.pose),
                    ..*sb
                };
                let p = deep_checked(routine, a, sa, b, &tb, params, &mut Some(size));
                if !p.status.is_finished() {
                    continue;
                }
                let local = b.support(
                    tb.pose.inverse_transform_vector(-p.normal),
                    &mut B::Hint::default(),
                );
                let here = tb.pose.transform_point(local) - p.normal * ib;
                if lateral(here, p.p_a, p.normal) > tol {
                    continue;
                }
                let dir = turn.transpose_mul(-p.normal);
                (p.p_a, sb.pose.transform_point(local) + dir * ib)
            }
        };
        // The two surface points must also face each other along the
        // first normal: on a deep pair a small turn can swing the
        // perturbed query's normal far from it, and its witness on the
        // other shape is then nowhere under the turned point. Turning back
        // moves the turned point by up to the angle times its arm from the
        // shape's origin, which is allowed on top.
        let (turned_point, origin) = match side {
            PerturbSide::A => (on_a, sa.pose.translation),
            PerturbSide::B => (on_b, sb.pose.translation),
        };
        let swing = angle * (turned_point - origin).norm();
        if lateral(on_a, on_b, n) > tol + swing {
            continue;
        }
        // The turned side's point is exact; the other side's point faces it
        // along the first normal, or the contact moves to where the other
        // shape ends (see `facing`).
        let slack = distinct * R::lit(DISTINCT_FRACTION);
        let settled = match side {
            PerturbSide::A => facing(a, sa, b, sb, on_a, on_b, n, slack),
            PerturbSide::B => facing(b, sb, a, sa, on_b, on_a, n, slack).map(|(b, a)| (a, b)),
        };
        let Some((on_a, on_b)) = settled else {
            continue;
        };
        let depth = (on_a - on_b).dot(n);
        if !(depth >= -params.margin) {
            continue;
        }
        // The midpoint of the two facing surface points.
        let position = on_a - n * (depth * R::HALF);
        out.push(
            ContactPoint {
                position,
                normal: n,
                depth,
            },
            distinct,
        );
    }
}
