//! How a ray meets a sphere (and so a capsule's end caps): the chord of a
//! line through a ball, measured from the line's point closest to the
//! centre so that a ray from far away keeps its precision.

use super::chord::{Chord, Normal};
use mink_support::{Real, Vec3};

/// The chord of the line `o + t·d` (`d` not zero) through the ball of
/// radius `r` centred at `c`; `None` when the line passes outside.
pub(crate) fn ball_chord<R: Real>(o: Vec3<R>, d: Vec3<R>, c: Vec3<R>, r: R) -> Option<Chord<R>> {
    let dd = d.dot(d);
    let oc = o - c;
    // The line's point closest to the centre, and how far the ball
    // reaches along the line on each side of it.
    let t0 = -oc.dot(d) / dd;
    let closest = oc + d * t0;
    let reach2 = r * r - closest.dot(closest);
    if !(reach2 >= R::ZERO) {
        return None;
    }
    let half = (reach2 / dd).sqrt();
    Some(Chord {
        enter: t0 - half,
        enter_normal: Normal::FromCentre(c),
        exit: t0 + half,
        exit_normal: Normal::FromCentre(c),
    })
}
