//! Axis-aligned bounding boxes.

use crate::{Iso3, Real, Vec3};

/// An axis-aligned box `[min, max]`, meters, in whatever frame its producer
/// states (local for [`Support::local_aabb`](crate::Support::local_aabb),
/// world for [`Support::world_aabb`](crate::Support::world_aabb)).
///
/// An AABB with `min > max` on some axis is empty ([`Aabb::EMPTY`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[repr(C)]
pub struct Aabb<R> {
    /// The corner with the smallest coordinates.
    pub min: Vec3<R>,
    /// The corner with the largest coordinates.
    pub max: Vec3<R>,
}

impl<R: Real> Aabb<R> {
    /// The empty box: merging anything into it gives that thing.
    pub const EMPTY: Self = Self {
        min: Vec3::splat(R::INFINITY),
        max: Vec3::splat(R::ZERO),
    };

    /// A box from its corners (not validated: `min > max` means empty).
    #[inline(always)]
    pub const fn new(min: Vec3<R>, max: Vec3<R>) -> Self {
        Self { min, max }
    }

    /// The box centred at `center` with half-extents `half`.
    #[inline(always)]
    pub fn from_center_half_extents(center: Vec3<R>, half: Vec3<R>) -> Self {
        Self::new(center - half, center + half)
    }

    /// The centre point.
    #[inline(always)]
    pub fn center(&self) -> Vec3<R> {
        (self.min + self.max) * R::HALF
    }

    /// Half the size along each axis.
    #[inline(always)]
    pub fn half_extents(&self) -> Vec3<R> {
        (self.max - self.min) * R::HALF
    }

    /// `true` when the boxes overlap or touch (closed intervals).
    #[inline(always)]
    pub fn intersects(&self, o: &Self) -> bool {
        self.min.x <= o.max.x
            && o.min.x <= self.max.x
            && self.min.y <= o.max.y
            && o.min.y <= self.max.y
            && self.min.z <= o.max.z
            && o.min.z <= self.max.z
    }

    /// `true` when `p` lies inside or on the box.
    #[inline(always)]
    pub fn contains_point(&self, p: Vec3<R>) -> bool {
        p.x >= self.min.x
            && p.x <= self.max.x
            && p.y >= self.min.y
            && p.y <= self.max.y
            && p.z >= self.min.z
            && p.z <= self.max.z
    }

    /// The smallest box containing both.
    #[inline(always)]
    pub fn merged(&self, o: &Self) -> Self {
        if self.is_empty() {
            return *o;
        }
        if o.is_empty() {
            return *self;
        }
        Self::new(self.min.min(o.min), self.max.max(o.max))
    }

    /// The smallest box containing `self` and the point `p`.
    #[inline(always)]
    pub fn including(&self, p: Vec3<R>) -> Self {
        if self.is_empty() {
            return Self::new(p, p);
        }
        Self::new(self.min.min(p), self.max.max(p))
    }

    /// The box grown by `margin` (meters) on every side.
    #[inline(always)]
    pub fn inflated(&self, margin: R) -> Self {
        Self::new(
            self.min - Vec3::splat(margin),
            self.max + Vec3::splat(margin),
        )
    }

    /// `true` when `min > max` on some axis, or a bound is NaN.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        !(self.min.x <= self.max.x && self.min.y <= self.max.y && self.min.z <= self.max.z)
    }

    /// The box of this (local-frame) box after the pose `pose`: exact for a
    /// box (the rotated box's extents are `|R| * half`), so it is also the
    /// tight world AABB of any shape whose local AABB is its own extent along
    /// each local axis only when the shape is itself a box.
    #[inline]
    pub fn transformed(&self, pose: &Iso3<R>) -> Self {
        let c = pose.transform_point(self.center());
        let h = pose.rotation.abs().mul_vec(self.half_extents());
        Self::from_center_half_extents(c, h)
    }
}
