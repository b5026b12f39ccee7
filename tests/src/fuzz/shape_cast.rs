//! The `shape_cast` fuzz target: two decoded [`mink::Shape`]s (layout in
//! [`super::shapes`]) with margins and start poses biased to the hard
//! cases ([`decode_poses`]), each moving to a decoded end pose, through
//! [`mink::cast::shape_cast`] in both orders, in f32 and f64.
//!
//! Input layout after the poses: a mode byte (bits 0–1: which bodies move,
//! bits 2–3: how far, 0.1 to 20 times the pair's size, bits 4–5: the
//! target distance, bit 6: translation only, bit 7: A's motion aimed
//! through B, to its far side, where a check at both ends sees no
//! contact), then each moving body's turn and translation.
//!
//! The oracle is the umbrella's distance query ([`mink::distance`], a
//! different algorithm from the advancement) at poses along the motion,
//! with `tol` = [`rel_tol`] × 4 × the scene's size (shapes, margins, every
//! pose's offset, the target), above the cast's own tolerance:
//! - a valid input never gives `NonFinite`, and `Unsupported` only for two
//!   half-spaces;
//! - `Initial` only when the bodies start within the target (plus `tol`),
//!   and never otherwise: a start apart by more gives no `Initial`;
//! - a `Hit` is at `toi` in `(0, 1]` with the bodies' distance there
//!   within `tol` of the target, its normal unit, its witnesses `distance`
//!   apart along it;
//! - before a hit's `toi`, before an `IterationLimit`'s, and over the
//!   whole motion of a `Miss`, no sampled time (33 evenly, 8 more around
//!   the closest sample) has the bodies nearer than the target by more
//!   than `tol`: a motion reported clear is clear;
//! - the swapped cast (B first) passes the same checks;
//! - one rigid motion of the whole scene (all four poses) gives a cast
//!   whose clear interval is clear for the original scene too.

use super::bytes::ByteReader;
use super::shapes::{
    decode_margin, decode_pose, decode_poses, decode_rotation, decode_shape, length, rel_tol,
    Placed,
};
use mink::cast::{shape_cast, CastStatus, Motion, ShapeCast};
use mink::query::Status;
use mink::support::{Iso3, Mat3, Real, Vec3};
use mink::{distance, Method};

/// What the harness did with an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastOutcome {
    /// A constructor refused the decoded parameters.
    Refused,
    /// Two half-spaces: no answer, as documented.
    Unsupported,
    /// Checked; the bodies start within the target.
    Initial,
    /// Checked; they come within the target during the motion.
    Hit,
    /// Checked; the motion is clear.
    Miss,
    /// Checked; the advancement ran out of steps (clear up to `toi`).
    IterationLimit,
}

/// One side of the cast: the placed body at its start, and its end pose.
#[derive(Clone, Copy, Debug)]
struct Mover<'s, 'a, R: Real> {
    start: Placed<'s, 'a, R>,
    end: Iso3<R>,
}

impl<'s, 'a, R: Real> Mover<'s, 'a, R> {
    /// The body at time `t` of its motion.
    fn at(&self, t: f64) -> Placed<'s, 'a, R> {
        Placed {
            pose: Motion::new(self.start.pose, self.end).at(R::lit(t)),
            ..self.start
        }
    }

    /// Both poses moved by the rigid motion `m`.
    fn moved(&self, m: &Iso3<R>) -> Self {
        Self {
            start: Placed {
                pose: m.mul(&self.start.pose),
                ..self.start
            },
            end: m.mul(&self.end),
        }
    }
}

/// The signed distance of `a` and `b` at time `t` of their motions, as
/// bounds on the true one: `(lower, upper)`, either `None` when the
/// distance query does not bound it that way. A settled answer (`Exact`,
/// `Converged`) bounds both ways; an overlap whose depth MPR left
/// unverified proves only `upper = 0`.
fn distance_at<R: Real>(a: &Mover<'_, '_, R>, b: &Mover<'_, '_, R>, t: f64) -> Bounds {
    let p = distance(&a.at(t).body(), &b.at(t).body(), Method::Auto);
    let d = p.distance.to_f64();
    match p.status {
        Status::Exact | Status::Converged if d.is_finite() => (Some(d), Some(d)),
        Status::Unverified | Status::IterationLimit if d <= 0.0 => (None, Some(0.0)),
        _ => (None, None),
    }
}

/// `(lower, upper)` bounds on a signed distance, meters.
type Bounds = (Option<f64>, Option<f64>);

/// Checks that no sampled time in `[0, until]` has the bodies nearer than
/// `target - tol` (33 evenly spaced times, then 8 around the nearest).
fn clear_until<R: Real>(
    a: &Mover<'_, '_, R>,
    b: &Mover<'_, '_, R>,
    until: f64,
    target: f64,
    tol: f64,
) -> Result<(), String> {
    // The distance's best bound at `t` (for the refinement), or the
    // violation there.
    let check = |t: f64| -> Result<Option<f64>, String> {
        let (lower, upper) = distance_at(a, b, t);
        if let Some(u) = upper {
            if u < target - tol {
                return Err(format!(
                    "at t = {t} (clear until {until}) the bodies are {u} m apart, \
                     below the target {target} by more than {tol}"
                ));
            }
        }
        Ok(lower.or(upper))
    };
    sample_motion(until, 32, 4, check)
}

/// Samples a motion over `[0, until]`: `check(t)` at `even + 1` evenly
/// spaced times, then at `refine` more on each side of the time of the
/// smallest bound it returned, within one step of it; the first
/// violation `check` reports, else `Ok`.
pub(crate) fn sample_motion(
    until: f64,
    even: usize,
    refine: usize,
    mut check: impl FnMut(f64) -> Result<Option<f64>, String>,
) -> Result<(), String> {
    let mut nearest = (f64::INFINITY, 0.0);
    for k in 0..=even {
        let t = until * k as f64 / even as f64;
        if let Some(d) = check(t)? {
            if d < nearest.0 {
                nearest = (d, t);
            }
        }
    }
    let step = until / even as f64;
    for k in 1..=refine {
        let dt = step * k as f64 / (refine + 1) as f64;
        for t in [nearest.1 - dt, nearest.1 + dt] {
            if (0.0..=until).contains(&t) {
                check(t)?;
            }
        }
    }
    Ok(())
}

/// The checks of one cast of `a` against `b` (see the module docs).
fn check_cast<R: Real>(
    a: &Mover<'_, '_, R>,
    b: &Mover<'_, '_, R>,
    target: f64,
    got: &ShapeCast<R>,
    tol: f64,
) -> Result<CastOutcome, String> {
    let both_planes = a.start.plane().is_some() && b.start.plane().is_some();
    let toi = got.toi.to_f64();
    match got.status {
        CastStatus::NonFinite => Err(format!("NonFinite on valid input: {got:?}")),
        CastStatus::Unsupported if both_planes => Ok(CastOutcome::Unsupported),
        CastStatus::Unsupported => Err(format!("Unsupported for a bounded body: {got:?}")),
        _ if both_planes => Err(format!("an answer for two half-spaces: {got:?}")),
        CastStatus::Initial => {
            if toi != 0.0 {
                return Err(format!("Initial with toi {toi}: {got:?}"));
            }
            if let (Some(l), _) = distance_at(a, b, 0.0) {
                if l > target + tol {
                    return Err(format!(
                        "Initial, but the bodies start {l} m apart (target {target}): {got:?}"
                    ));
                }
            }
            Ok(CastOutcome::Initial)
        }
        CastStatus::Hit | CastStatus::IterationLimit | CastStatus::Miss => {
            if let (_, Some(u)) = distance_at(a, b, 0.0) {
                if u < target - tol {
                    return Err(format!(
                        "not Initial, but the bodies start {u} m apart (target {target}): {got:?}"
                    ));
                }
            }
            if !(0.0..=1.0).contains(&toi) {
                return Err(format!("toi {toi} outside [0, 1]: {got:?}"));
            }
            let until = if got.status == CastStatus::Miss {
                if toi != 1.0 {
                    return Err(format!("a miss with toi {toi}: {got:?}"));
                }
                1.0
            } else {
                toi
            };
            clear_until(a, b, until, target, tol)?;
            match got.status {
                CastStatus::Hit => {
                    check_hit(a, b, target, got, tol)?;
                    Ok(CastOutcome::Hit)
                }
                CastStatus::Miss => Ok(CastOutcome::Miss),
                _ => Ok(CastOutcome::IterationLimit),
            }
        }
    }
}

/// A hit's own fields: the time, the distance there, the normal and the
/// witnesses.
fn check_hit<R: Real>(
    a: &Mover<'_, '_, R>,
    b: &Mover<'_, '_, R>,
    target: f64,
    got: &ShapeCast<R>,
    tol: f64,
) -> Result<(), String> {
    let toi = got.toi.to_f64();
    if toi <= 0.0 {
        return Err(format!("a hit at t = 0 (not Initial): {got:?}"));
    }
    let (lower, upper) = distance_at(a, b, toi);
    if let Some(l) = lower {
        if l > target + tol {
            return Err(format!(
                "a hit where the bodies are {l} m apart (target {target}): {got:?}"
            ));
        }
    }
    if let Some(u) = upper {
        if u < target - tol {
            return Err(format!(
                "a hit where the bodies are {u} m apart, past the target {target}: {got:?}"
            ));
        }
    }
    let reported = got.distance.to_f64();
    if (reported - target).abs() > tol {
        return Err(format!(
            "a hit reporting distance {reported} (target {target}): {got:?}"
        ));
    }
    let n = got.normal.cast::<f64>();
    if (n.norm() - 1.0).abs() > 1e-3 {
        return Err(format!("normal not unit: {got:?}"));
    }
    let gap = (got.p_b - got.p_a).cast::<f64>();
    if (gap.dot(n) - reported).abs() > tol || (gap - n * gap.dot(n)).norm() > tol {
        return Err(format!(
            "witnesses not `distance` apart along the normal: {got:?}"
        ));
    }
    Ok(())
}

/// A turn and translation for a moving body, from the mode's reach.
fn decode_step<R: Real>(r: &mut ByteReader<'_>, reach: f64, translate_only: bool) -> Iso3<R> {
    let rotation = if translate_only {
        Mat3::IDENTITY
    } else {
        decode_rotation::<R>(r)
    };
    let t = Vec3::new(
        length(r, -reach, reach),
        length(r, -reach, reach),
        length(r, -reach, reach),
    );
    Iso3::from_parts(rotation, t.cast())
}

/// Decodes `data` in scalar `R` and checks the cast in both orders and
/// after a rigid motion of the scene: what it checked, or the first check
/// that failed.
pub fn check_bytes<R: Real>(data: &[u8]) -> Result<CastOutcome, String> {
    let mut r = ByteReader::new(data);
    let (Some(sa), Some(sb)) = (decode_shape::<R>(&mut r), decode_shape::<R>(&mut r)) else {
        return Ok(CastOutcome::Refused);
    };
    let (Some(shape_a), Some(shape_b)) = (sa.shape(), sb.shape()) else {
        return Ok(CastOutcome::Refused);
    };
    let (ea, eb) = (sa.extent(), sb.extent());
    let unit = ea.max(eb).max(0.02);
    let (ma, mb) = (
        decode_margin(&mut r, ea.max(0.02)),
        decode_margin(&mut r, eb.max(0.02)),
    );
    let place = |shape, margin: f64| Placed {
        shape,
        pose: Iso3::IDENTITY,
        margin: R::lit(margin),
    };
    let mut a = place(&shape_a, ma);
    let mut b = place(&shape_b, mb);
    let placement = decode_poses(&mut r, &mut a, &mut b, unit);
    let mode = r.u8();
    let reach = [0.1, 1.0, 4.0, 20.0][usize::from((mode >> 2) & 3)] * unit;
    let target = [0.0, 0.0, 1e-3, 0.05][usize::from((mode >> 4) & 3)] * unit;
    let translate_only = mode & 0x40 != 0;
    let (a_moves, b_moves) = match mode & 3 {
        0 => (true, false),
        1 => (false, true),
        _ => (true, true),
    };
    let mut end_a = a.pose;
    if a_moves {
        let step = decode_step::<R>(&mut r, reach, translate_only);
        end_a = Iso3::from_parts(
            step.rotation.mul_mat(&a.pose.rotation),
            a.pose.translation + step.translation,
        );
        if mode & 0x80 != 0 {
            // Through B to its far side: A's centre ends mirrored about B's.
            let from_b = a.pose.translation - b.pose.translation;
            end_a.translation = b.pose.translation - from_b + step.translation * R::lit(0.01);
        }
    }
    let mut end_b = b.pose;
    if b_moves {
        let step = decode_step::<R>(&mut r, reach, translate_only);
        end_b = Iso3::from_parts(
            step.rotation.mul_mat(&b.pose.rotation),
            b.pose.translation + step.translation,
        );
    }
    let ma = Mover {
        start: a,
        end: end_a,
    };
    let mb = Mover {
        start: b,
        end: end_b,
    };
    let offsets = [a.pose, end_a, b.pose, end_b]
        .iter()
        .map(|p| p.translation.cast::<f64>().norm())
        .sum::<f64>();
    let size = ea + eb + ma.start.margin.to_f64() + mb.start.margin.to_f64() + offsets + target;
    let tol = rel_tol::<R>() * size * 4.0;
    let context = |e: String| {
        format!(
            "{e} [{} vs {}, {placement:?}, mode {mode:#04x}, target {target}, tol {tol}]\n  \
             A {ma:?}\n  B {mb:?}",
            shape_a.name(),
            shape_b.name()
        )
    };
    let target_r = R::lit(target);
    let cast = |a: &Mover<'_, '_, R>, b: &Mover<'_, '_, R>| {
        shape_cast(&a.start.body(), &a.end, &b.start.body(), &b.end, target_r)
    };
    let ab = cast(&ma, &mb);
    let outcome = check_cast(&ma, &mb, target, &ab, tol).map_err(context)?;
    let ba = cast(&mb, &ma);
    check_cast(&mb, &ma, target, &ba, tol).map_err(|e| context(format!("B-A: {e}")))?;

    // One rigid motion of the whole scene: its clear interval is clear here.
    let motion: Iso3<R> = decode_pose(&mut r, 2.0 * unit);
    let (wa, wb) = (ma.moved(&motion), mb.moved(&motion));
    let moved = cast(&wa, &wb);
    let moved_tol = tol + rel_tol::<R>() * 4.0 * 4.0 * motion.translation.cast::<f64>().norm();
    let clear = match moved.status {
        CastStatus::Miss => Some(1.0),
        CastStatus::Hit | CastStatus::IterationLimit => Some(moved.toi.to_f64()),
        _ => None,
    };
    if let Some(until) = clear {
        clear_until(&ma, &mb, until.clamp(0.0, 1.0), target, moved_tol)
            .map_err(|e| context(format!("after a rigid motion {motion:?} ({moved:?}): {e}")))?;
    }
    Ok(outcome)
}
