//! Point queries through a scene: the geometry nearest a world point, as
//! the last step placed them.

use super::rays::{Placement, QueryFilter};
use crate::query::Status;
use mink_support::{Real, Support, Vec3};

/// Where a point stands relative to the scene geometry nearest to it,
/// world frame, meters.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ScenePointHit<R> {
    /// The nearest geometry (its index in the scene description).
    pub geom: u32,
    /// Its link.
    pub link: u32,
    /// Signed distance from its surface: positive outside, minus the
    /// distance to the surface inside.
    pub distance: R,
    /// The nearest point of its surface.
    pub projection: Vec3<R>,
    /// Its unit outward normal there.
    pub normal: Vec3<R>,
    /// `true` when the point is inside it or on its surface.
    pub inside: bool,
}

impl<R: Real, U: Support<R>> Placement<'_, '_, R, U> {
    /// The seen geometry of smallest signed distance from `point`, if any
    /// is within `max_distance` (ties: the lower geometry index); a
    /// geometry whose box is farther than the best so far is skipped.
    pub fn project_point(
        &self,
        point: Vec3<R>,
        max_distance: R,
        filter: &QueryFilter,
    ) -> Option<ScenePointHit<R>> {
        if !point.is_finite() || max_distance.is_nan() {
            return None;
        }
        let mut best: Option<ScenePointHit<R>> = None;
        for (index, g, collider, pose) in self.seen(filter) {
            // Not placed yet (before the first step).
            if g.aabb.is_empty() {
                continue;
            }
            let limit = best.map_or(max_distance, |b| b.distance);
            // The box bounds the distance from below (by zero inside it,
            // where only the geometry can say how deep the point is).
            let gap2 = (g.aabb.min - point)
                .max(point - g.aabb.max)
                .max(Vec3::ZERO)
                .norm_squared();
            let beyond = if limit >= R::ZERO {
                gap2 > limit * limit
            } else {
                gap2 > R::ZERO
            };
            if beyond {
                continue;
            }
            let p = collider.project_point(pose, point);
            if !matches!(
                p.status,
                Status::Exact | Status::Converged | Status::Unverified
            ) {
                continue;
            }
            if p.distance <= limit && best.is_none_or(|b| p.distance < b.distance) {
                best = Some(ScenePointHit {
                    geom: index,
                    link: g.link,
                    distance: p.distance,
                    projection: p.projection,
                    normal: p.normal,
                    inside: p.inside,
                });
            }
        }
        best
    }
}
