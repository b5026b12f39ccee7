//! How a ray meets a box: the intersection of its three slabs.

use super::chord::{aabb_chord, Chord};
use mink_support::{Aabb, Real, Vec3};

/// The chord of the line `o + t·d` through the box of half-extents `h`
/// centred at the origin (shape frame); `None` when it misses. At an edge
/// or a corner the normal is the face of the slab entered last.
pub(crate) fn box_chord<R: Real>(o: Vec3<R>, d: Vec3<R>, h: Vec3<R>) -> Option<Chord<R>> {
    aabb_chord(&Aabb::new(-h, h), o, d)
}
