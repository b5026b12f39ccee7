//! The per-geometry input record of the broad phase.

use mink_support::{Aabb, Real};

/// The link id that means "no parent link" (a root link, or a geometry with
/// no articulation): it never matches any link in the parent–child filter.
pub const NO_LINK: u32 = u32::MAX;

/// What the broad phase needs to know about one geometry for one frame.
///
/// The geometry's index in the slice handed to the broad phase is its id in
/// the reported pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Geom<R> {
    /// The world-frame AABB of the shape at its current pose, meters (for
    /// example `shape.world_aabb(&pose)` from `mink-support`). Must be finite
    /// with `min <= max` on every axis; anything else is refused with
    /// [`BroadPhaseError::InvalidAabb`](crate::BroadPhaseError::InvalidAabb).
    pub aabb: Aabb<R>,
    /// The link (rigid body) the geometry belongs to.
    pub link: u32,
    /// The parent of that link in its articulation, or [`NO_LINK`].
    pub parent_link: u32,
    /// The contact type bitmask (MuJoCo's `contype`).
    pub contype: u32,
    /// The contact affinity bitmask (MuJoCo's `conaffinity`).
    pub conaffinity: u32,
    /// `true` when the geometry is fixed relative to the world.
    pub fixed: bool,
    /// `true` when the geometry's island sleeps (hibernates).
    pub asleep: bool,
}

impl<R: Real> Geom<R> {
    /// A free-floating, awake geometry on its own link with no parent and
    /// masks `1`/`1` (it collides with every other default geometry).
    pub fn new(aabb: Aabb<R>, link: u32) -> Self {
        Self {
            aabb,
            link,
            parent_link: NO_LINK,
            contype: 1,
            conaffinity: 1,
            fixed: false,
            asleep: false,
        }
    }

    /// `true` when the AABB is finite with `min <= max` on every axis.
    #[inline]
    pub fn has_valid_aabb(&self) -> bool {
        let (lo, hi) = (self.aabb.min, self.aabb.max);
        lo.is_finite() && hi.is_finite() && lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z
    }
}
