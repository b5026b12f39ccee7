//! How a ray meets a triangle (flat, no volume): where the line crosses
//! its plane, when that point is inside the three edges.

use super::chord::{Chord, Normal};
use mink_support::{Real, Triangle, Vec3};

/// The chord of the line `o + t·d` through the triangle (a single point:
/// `enter == exit`), with the face normal turned against `d`; `None` when
/// the line passes beside it.
///
/// A line within `√ε` of the triangle's plane in angle (the crossing
/// point's position along it is then round-off: a ray run along an edge
/// put it 3 cm off on a 4 cm triangle) is clipped by the three edges in
/// the plane instead: it meets the triangle where it enters that strip
/// when it lies in the plane there (within 64 ulps of the scene), else
/// where its distance from the plane changes sign within the strip.
pub(crate) fn triangle_chord<R: Real>(
    tri: &Triangle<R>,
    o: Vec3<R>,
    d: Vec3<R>,
) -> Option<Chord<R>> {
    let [a, b, c] = tri.vertices();
    let n = (b - a).cross(c - a);
    let towards = n.dot(d);
    if !towards.finite() {
        return None;
    }
    if !(towards.abs() > R::sqrt_epsilon() * n.norm() * d.norm()) {
        return edge_on(tri, o, d);
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
    Some(Chord::point(t, against(n, d)))
}

/// The unit face normal `±n` facing against `d` (`+z` for a zero `n`).
fn against<R: Real>(n: Vec3<R>, d: Vec3<R>) -> Vec3<R> {
    let facing = if n.dot(d) > R::ZERO { -n } else { n };
    facing.normalize_or(Vec3::Z)
}

/// [`triangle_chord`] for a line (nearly) in the triangle's plane: the
/// strip of `t` where the line's projection on the plane is inside the
/// three edges, then the first point of it on the triangle.
fn edge_on<R: Real>(tri: &Triangle<R>, o: Vec3<R>, d: Vec3<R>) -> Option<Chord<R>> {
    let [a, b, c] = tri.vertices();
    let n = (b - a).cross(c - a);
    let unit = n.try_normalize()?;
    // Each edge's inward normal in the plane, `n × (r - p)`: the line is
    // on the inner side where `m · (o + t d - p) >= 0`.
    // A line along an edge (within `√ε` in angle) is on its inner side
    // when its distance from the edge's line, inward, is above minus the
    // round-off: the crossing `t` would be round-off over round-off.
    let scale = o.norm() + a.norm() + (b - a).norm() + (c - a).norm();
    let (mut enter, mut exit) = (-R::INFINITY, R::INFINITY);
    let (mut enter_edge, mut exit_edge) = (Vec3::ZERO, Vec3::ZERO);
    for (p, r) in [(a, b), (b, c), (c, a)] {
        let m = n.cross(r - p);
        let (md, mo) = (m.dot(d), m.dot(o - p));
        let mn = m.norm();
        if !(md.abs() > R::sqrt_epsilon() * mn * d.norm()) {
            if mo < -R::lit(64.0) * R::EPSILON * scale * mn {
                return None;
            }
        } else if md > R::ZERO {
            let t = -mo / md;
            if t > enter {
                (enter, enter_edge) = (t, m);
            }
        } else {
            let t = -mo / md;
            if t < exit {
                (exit, exit_edge) = (t, m);
            }
        }
    }
    if !(enter <= exit && enter.finite() && exit.finite()) {
        return None;
    }
    // Signed distances from the plane where the line enters and leaves
    // the strip, and their round-off.
    let height = |t: R| unit.dot(o + d * t - a);
    let (he, hx) = (height(enter), height(exit));
    let tol = R::lit(64.0) * R::EPSILON * (scale + d.norm() * exit.abs());
    if he.abs() <= tol {
        // In the plane where it enters: it meets the triangle's edge there,
        // and leaves through the other side of the strip.
        // The edges' outward normals in the plane: `-m`.
        return Some(Chord {
            enter,
            enter_normal: Normal::Unit((-enter_edge).normalize_or(-d)),
            exit,
            exit_normal: Normal::Unit((-exit_edge).normalize_or(d)),
        });
    }
    if he * hx > R::ZERO && hx.abs() > tol {
        // Beside the plane all along the strip.
        return None;
    }
    // Crossing the plane within the strip, where the height changes sign.
    let t = if hx.abs() <= tol {
        exit
    } else {
        enter + (exit - enter) * (he / (he - hx))
    };
    Some(Chord::point(t, against(n, d)))
}
