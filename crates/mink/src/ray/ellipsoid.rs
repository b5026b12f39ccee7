//! How a ray meets an ellipsoid: scaled to the unit ball, where the line's
//! parameter `t` is unchanged.

use super::chord::{Chord, Normal};
use super::sphere::ball_chord;
use mink_support::{Real, Vec3};

/// The chord of the line `o + t·d` through the ellipsoid of semi-axes
/// `e` along x, y, z (shape frame); `None` when it misses.
pub(crate) fn ellipsoid_chord<R: Real>(o: Vec3<R>, d: Vec3<R>, e: Vec3<R>) -> Option<Chord<R>> {
    let inv = Vec3::new(R::ONE / e.x, R::ONE / e.y, R::ONE / e.z);
    let (os, ds) = (o.mul_elem(inv), d.mul_elem(inv));
    let unit = ball_chord(os, ds, Vec3::ZERO, R::ONE)?;
    // The unit ball's normal `u` at a point is the point itself; the
    // ellipsoid's normal there is the gradient of |x / e|², along `u / e`.
    let normal = |n: Normal<R>, t: R| {
        let u = n.at(os, ds, t);
        Normal::Unit(u.mul_elem(inv).normalize_or(u))
    };
    Some(Chord {
        enter_normal: normal(unit.enter_normal, unit.enter),
        exit_normal: normal(unit.exit_normal, unit.exit),
        ..unit
    })
}
