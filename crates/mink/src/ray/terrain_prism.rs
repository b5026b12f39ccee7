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
    cell_chord(prism, None, o, d).map(|c| c.chord)
}

/// A height-field cell's chord ([`cell_chord`]) and whether it enters and
/// leaves through walls shared with a neighbouring cell (not surface).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CellChord<R> {
    pub chord: Chord<R>,
    pub enters_inner: bool,
    pub exits_inner: bool,
    /// How far the exit's `t` may be off by round-off: the plane
    /// distance's round-off over the rate the line leaves the exit face
    /// at (large for a line grazing the face: a nearly level ray through
    /// a vertex of a nearly level top leaves one cell's top a few ulps of
    /// meters, but many of `t`, before it is under the next cell's).
    pub exit_slack: R,
}

/// [`prism_chord`] for a prism that is a cell of a height field whose
/// footprint is `footprint` (its `min` and `max` corners, x and y; the
/// cell's vertices share their coordinates bit for bit), saying whether
/// the line enters and leaves through a side that is not the terrain's
/// surface (shared with a neighbouring cell: not on the footprint's
/// boundary). `None` for the footprint is a prism on its own, all of
/// whose faces are surface.
pub(crate) fn cell_chord<R: Real>(
    prism: &TerrainPrism<R>,
    footprint: Option<[R; 4]>,
    o: Vec3<R>,
    d: Vec3<R>,
) -> Option<CellChord<R>> {
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
    // The five faces: unit outward normal, offset, and whether the face
    // is a side shared with a neighbouring cell.
    let side = |k: usize| {
        let (p, q) = (t[k], t[(k + 1) % 3]);
        let out = Vec3::new(q.y - p.y, p.x - q.x, R::ZERO).normalize_or(Vec3::X);
        (out, out.dot(p), footprint.is_some_and(|f| !on_rim(p, q, f)))
    };
    let faces = [
        (up, up.dot(t[0]), false),
        side(0),
        side(1),
        side(2),
        (-Vec3::Z, -prism.base(), false),
    ];
    let (mut enters, mut exits) = (0, 0);
    let mut chord = face_chord(faces[0].0, faces[0].1, o, d, slack)?;
    for (k, &(n, offset, _)) in faces.iter().enumerate().skip(1) {
        let c = face_chord(n, offset, o, d, slack)?;
        if c.enter > chord.enter {
            enters = k;
        }
        if c.exit < chord.exit {
            exits = k;
        }
        chord = chord.and(c)?;
    }
    let rate = faces[exits].0.dot(d).abs();
    Some(CellChord {
        chord,
        enters_inner: faces[enters].2,
        exits_inner: faces[exits].2,
        exit_slack: if rate > R::ZERO {
            slack / rate
        } else {
            R::ZERO
        },
    })
}

/// `true` when the side from `p` to `q` lies on the boundary of the
/// footprint `[min x, min y, max x, max y]`.
fn on_rim<R: Real>(p: Vec3<R>, q: Vec3<R>, [x0, y0, x1, y1]: [R; 4]) -> bool {
    (p.x == q.x && (p.x == x0 || p.x == x1)) || (p.y == q.y && (p.y == y0 || p.y == y1))
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
