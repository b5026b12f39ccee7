//! How a ray meets a terrain prism: the intersection of its five
//! half-spaces (the top triangle's plane, three vertical sides through the
//! triangle's edges, the base).

use super::chord::{plane_chord, Chord};
use mink_support::{Real, TerrainPrism, Vec3};

/// The chord of the line `o + t·d` through the prism (shape frame, its
/// top triangle wound either way); `None` when it misses.
/// At an edge the normal is the face entered last.
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
    let mut chord = plane_chord(up, up.dot(t[0]), o, d)?;
    for k in 0..3 {
        let (p, q) = (t[k], t[(k + 1) % 3]);
        let (ex, ey) = (q.x - p.x, q.y - p.y);
        let out = Vec3::new(ey, -ex, R::ZERO).normalize_or(Vec3::X);
        chord = chord.and(plane_chord(out, out.dot(p), o, d)?)?;
    }
    chord.and(plane_chord(-Vec3::Z, -prism.base(), o, d)?)
}
