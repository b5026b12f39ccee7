//! How a ray meets a half-space: where the line crosses its plane.

use super::chord::Chord;
use mink_support::{HalfSpace, Real, Vec3};

/// The chord of the line `o + t·d` through the half-space
/// `normal · x <= offset + margin` (shape frame): unbounded on one side;
/// the whole line when it runs inside parallel to the plane, `None` when
/// outside.
pub(crate) fn half_space_chord<R: Real>(
    plane: &HalfSpace<R>,
    margin: R,
    o: Vec3<R>,
    d: Vec3<R>,
) -> Option<Chord<R>> {
    let n = plane.normal();
    let above = n.dot(o) - (plane.offset() + margin);
    let towards = n.dot(d);
    if towards == R::ZERO {
        return (above <= R::ZERO).then(|| Chord::whole(n));
    }
    let t = -above / towards;
    Some(if towards < R::ZERO {
        Chord {
            enter: t,
            enter_normal: n,
            exit: R::INFINITY,
            exit_normal: n,
        }
    } else {
        Chord {
            enter: -R::INFINITY,
            enter_normal: n,
            exit: t,
            exit_normal: n,
        }
    })
}
