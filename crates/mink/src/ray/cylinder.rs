//! How a ray meets a cylinder (and a capsule's side): the chord through
//! an infinite circular cylinder along z, cut by the slab of its caps.

use super::chord::{slab, Chord, Normal};
use mink_support::{Real, Vec3};

/// The chord of the line `o + t·d` through the infinite cylinder
/// `x² + y² <= r²` (radial normals); the whole line when the line runs
/// along z inside it, `None` when it passes outside.
pub(crate) fn tube_chord<R: Real>(o: Vec3<R>, d: Vec3<R>, r: R) -> Option<Chord<R>> {
    let dd = d.x * d.x + d.y * d.y;
    if dd == R::ZERO {
        return (o.x * o.x + o.y * o.y <= r * r)
            .then(|| Chord::whole(Vec3::new(o.x, o.y, R::ZERO).normalize_or(Vec3::X)));
    }
    // As for a ball, from the line's point closest to the axis.
    let t0 = -(o.x * d.x + o.y * d.y) / dd;
    let (cx, cy) = (o.x + d.x * t0, o.y + d.y * t0);
    let reach2 = r * r - (cx * cx + cy * cy);
    if !(reach2 >= R::ZERO) {
        return None;
    }
    let half = (reach2 / dd).sqrt();
    Some(Chord {
        enter: t0 - half,
        enter_normal: Normal::FromAxis,
        exit: t0 + half,
        exit_normal: Normal::FromAxis,
    })
}

/// The chord of the line `o + t·d` through the cylinder of radius `r`
/// and half-length `h` along z (shape frame); `None` when it misses.
pub(crate) fn cylinder_chord<R: Real>(o: Vec3<R>, d: Vec3<R>, r: R, h: R) -> Option<Chord<R>> {
    tube_chord(o, d, r)?.and(slab(o.z, d.z, -h, h, 2)?)
}
