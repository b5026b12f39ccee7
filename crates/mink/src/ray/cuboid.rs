//! How a ray meets a box: the intersection of its three slabs.

use super::chord::{slab, Chord};
use mink_support::{Real, Vec3};

/// The chord of the line `o + t·d` through the box of half-extents `h`
/// centred at the origin (shape frame); `None` when it misses. At an edge
/// or a corner the normal is the face of the slab entered last.
pub(crate) fn box_chord<R: Real>(o: Vec3<R>, d: Vec3<R>, h: Vec3<R>) -> Option<Chord<R>> {
    let x = slab(o.x, d.x, -h.x, h.x, Vec3::X)?;
    let y = slab(o.y, d.y, -h.y, h.y, Vec3::Y)?;
    let z = slab(o.z, d.z, -h.z, h.z, Vec3::Z)?;
    x.and(y)?.and(z)
}
