//! How a ray meets a terrain prism: the intersection of its five
//! half-spaces (the top triangle's plane, three vertical sides through the
//! triangle's edges, the base).

use super::chord::{plane_chord, Chord};
use mink_support::{Real, TerrainPrism, Vec3};

/// The chord of the line `o + t·d` through the prism (shape frame, its
/// top triangle wound either way); `None` when it misses.
/// At an edge the normal is the face entered last; a line run along a
/// face (within `√ε` in angle) is inside or outside it as a whole.
///
/// Two prisms sharing a vertical side compute it from the same two
/// vertices in opposite order, so their side planes are exact negations:
/// a line never slips between neighbouring cells of a height field.
pub(crate) fn prism_chord<R: Real>(
    prism: &TerrainPrism<R>,
    o: Vec3<R>,
    d: Vec3<R>,
) -> Option<Chord<R>> {
    // Counter-clockwise seen from above (a height field's cells are; a
    // prism built by hand may not be).
    let mut t = prism.top();
    let (ab, ac) = (t[1] - t[0], t[2] - t[0]);
    if ab.x * ac.y - ab.y * ac.x < R::ZERO {
        t.swap(1, 2);
    }
    let up = (t[1] - t[0]).cross(t[2] - t[0]).normalize_or(Vec3::Z);
    // Round-off of a point's plane distance at this scene's scale.
    let scale = o.norm() + t[0].norm() + (t[1] - t[0]).norm() + (t[2] - t[0]).norm();
    let slack = R::lit(64.0) * R::EPSILON * (scale + prism.base().abs());
    let face = |n: Vec3<R>, at: Vec3<R>| face_chord(n, n.dot(at), o, d, slack);
    let mut chord = face(up, t[0])?;
    for k in 0..3 {
        let (p, q) = (t[k], t[(k + 1) % 3]);
        let (ex, ey) = (q.x - p.x, q.y - p.y);
        let out = Vec3::new(ey, -ex, R::ZERO).normalize_or(Vec3::X);
        chord = chord.and(face(out, p)?)?;
    }
    chord.and(face(-Vec3::Z, Vec3::new(R::ZERO, R::ZERO, prism.base()))?)
}

/// [`plane_chord`] for one face of the prism (`n` its unit outward
/// normal): a line within `√ε` of the face's plane in angle runs inside
/// it all along the prism when it lies on the plane within `slack`
/// (meters, the round-off of a plane distance here), and outside else.
/// Its crossing `t` would be round-off over round-off: a ray run along a
/// side face entered it 2 mm late on a 4 cm prism.
fn face_chord<R: Real>(
    n: Vec3<R>,
    offset: R,
    o: Vec3<R>,
    d: Vec3<R>,
    slack: R,
) -> Option<Chord<R>> {
    if !(n.dot(d).abs() > R::sqrt_epsilon() * d.norm()) {
        return (n.dot(o) - offset <= slack).then(|| Chord::whole(n));
    }
    plane_chord(n, offset, o, d)
}
