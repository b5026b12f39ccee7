//! How a ray meets a half-space: where the line crosses its plane.

use super::chord::{plane_chord, Chord};
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
    plane_chord(plane.normal(), plane.offset() + margin, o, d)
}
