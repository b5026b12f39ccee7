//! How a ray meets a triangle (flat, no volume): where the line crosses
//! its plane, when that point is inside the three edges.

use super::chord::Chord;
use mink_support::{Real, Triangle, Vec3};

/// The chord of the line `o + t·d` through the triangle (a single point:
/// `enter == exit`), with the face normal turned against `d`; `None` when
/// the line passes beside it or runs in its plane (a triangle seen edge-on
/// has no area to hit).
pub(crate) fn triangle_chord<R: Real>(
    tri: &Triangle<R>,
    o: Vec3<R>,
    d: Vec3<R>,
) -> Option<Chord<R>> {
    let [a, b, c] = tri.vertices();
    let n = (b - a).cross(c - a);
    let towards = n.dot(d);
    if towards == R::ZERO || !towards.finite() {
        return None;
    }
    let t = n.dot(a - o) / towards;
    let q = o + d * t;
    // Inside when the point is on the inner side of every edge.
    let inside = [(a, b), (b, c), (c, a)]
        .iter()
        .all(|&(p, r)| (r - p).cross(q - p).dot(n) >= R::ZERO);
    if !inside {
        return None;
    }
    let facing = if towards > R::ZERO { -n } else { n };
    let normal = facing.normalize_or(Vec3::Z);
    Some(Chord {
        enter: t,
        enter_normal: normal,
        exit: t,
        exit_normal: normal,
    })
}
