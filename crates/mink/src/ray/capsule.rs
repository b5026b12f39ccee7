//! How a ray meets a capsule: the union of the chords through its two end
//! balls and its side (the tube cut at the segment's ends). The union of
//! the three is the capsule, which is convex, so the chord runs from the
//! first entry to the last exit.

use super::chord::{either, slab, Chord};
use super::cylinder::tube_chord;
use super::sphere::ball_chord;
use mink_support::{Real, Vec3};

/// The chord of the line `o + t·d` through the capsule of radius `r`
/// around the segment from `-h` to `h` along z (shape frame); `None` when
/// it misses.
pub(crate) fn capsule_chord<R: Real>(o: Vec3<R>, d: Vec3<R>, r: R, h: R) -> Option<Chord<R>> {
    let top = ball_chord(o, d, Vec3::new(R::ZERO, R::ZERO, h), r);
    let bottom = ball_chord(o, d, Vec3::new(R::ZERO, R::ZERO, -h), r);
    let side = tube_chord(o, d, r).and_then(|t| t.and(slab(o.z, d.z, -h, h, 2)?));
    either(either(top, bottom), side)
}
