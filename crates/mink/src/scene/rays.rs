//! Ray casts against a scene as its last step placed it: every geometry
//! the query's filter lets through whose world AABB the ray meets, nearest
//! first or all of them.
//!
//! A ray is tested against the AABBs the step computed (one slab test per
//! geometry, so a ray costs `O(geometries)` plus a narrow cast for each box
//! it meets before the nearest hit so far), then against the collider
//! ([`Collider::ray_cast`]): closed forms and GJK for convex shapes, the
//! cell walk for height fields, the triangle test for meshes.

use super::description::SceneDesc;
use crate::collider::Collider;
use crate::ray::{aabb_chord, Ray, RayStatus};
use mink_broadphase::{Geom, NO_LINK};
use mink_support::{Iso3, Real, Support, Vec3};

/// Which geometries a scene query sees, by the scene's own rules: the
/// query is one side of MuJoCo's pair test (a geometry is seen when
/// `contype & geom.conaffinity != 0` or `geom.contype & conaffinity != 0`),
/// and the geometries of one link (a range sensor's own body, say) can be
/// left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct QueryFilter {
    /// The query's contact type bitmask.
    pub contype: u32,
    /// The query's contact affinity bitmask.
    pub conaffinity: u32,
    /// A link whose geometries the query skips, or [`NO_LINK`] for none.
    pub exclude_link: u32,
}

impl QueryFilter {
    /// Every geometry (every mask bit set, no link left out).
    pub const ALL: Self = Self {
        contype: u32::MAX,
        conaffinity: u32::MAX,
        exclude_link: NO_LINK,
    };

    /// The geometries a pair with masks `contype`/`conaffinity` would
    /// collide with.
    pub const fn masks(contype: u32, conaffinity: u32) -> Self {
        Self {
            contype,
            conaffinity,
            exclude_link: NO_LINK,
        }
    }

    /// The same filter, also skipping the geometries of `link`.
    pub const fn excluding(self, link: u32) -> Self {
        Self {
            exclude_link: link,
            ..self
        }
    }

    /// `true` when the query sees the geometry `g`.
    pub fn sees<R>(&self, g: &Geom<R>) -> bool {
        g.link != self.exclude_link
            && (self.contype & g.conaffinity != 0 || g.contype & self.conaffinity != 0)
    }
}

impl Default for QueryFilter {
    fn default() -> Self {
        Self::ALL
    }
}

/// Where a ray meets a scene geometry, world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SceneRayHit<R> {
    /// The geometry hit (its index in the scene description).
    pub geom: u32,
    /// Its link.
    pub link: u32,
    /// The ray parameter of the hit, in units of the ray direction's
    /// length (0 for a solid ray starting inside).
    pub toi: R,
    /// `origin + toi · dir`, meters.
    pub point: Vec3<R>,
    /// The geometry's unit outward normal there (zero for a solid ray
    /// starting inside).
    pub normal: Vec3<R>,
}

/// The last step's placement that a query reads.
pub(crate) struct Placement<'q, 'd, R: Real, U> {
    pub desc: &'q SceneDesc<'d, R, U>,
    pub poses: &'q [Iso3<R>],
    pub geoms: &'q [Geom<R>],
}

impl<R: Real, U: Support<R>> Placement<'_, '_, R, U> {
    /// The geometries `filter` sees, with their collider and pose.
    pub(super) fn seen<'s>(
        &'s self,
        filter: &'s QueryFilter,
    ) -> impl Iterator<Item = (u32, &'s Geom<R>, &'s Collider<'s, R, U>, &'s Iso3<R>)> + 's {
        self.desc
            .geoms()
            .iter()
            .zip(self.geoms)
            .zip(self.poses)
            .enumerate()
            .filter(move |(_, ((_, g), _))| filter.sees(*g))
            .map(|(i, ((d, g), pose))| (i as u32, g, &d.collider, pose))
    }

    /// Casts `ray` against every seen geometry whose box it meets at `t`
    /// below `reach(best so far)`; `visit` gets each hit and says whether
    /// to go on. Returns the number of hits visited.
    fn cast_each(
        &self,
        ray: &Ray<R>,
        max_toi: R,
        solid: bool,
        filter: &QueryFilter,
        mut visit: impl FnMut(SceneRayHit<R>) -> Option<R>,
    ) -> usize {
        if !ray.is_valid() || !(max_toi >= R::ZERO) {
            return 0;
        }
        let mut limit = max_toi;
        let mut count = 0;
        for (index, g, collider, pose) in self.seen(filter) {
            match aabb_chord(&g.aabb, ray.origin, ray.dir) {
                Some(c) if c.exit >= R::ZERO && c.enter <= limit => {}
                _ => continue,
            }
            let cast = collider.ray_cast(pose, ray, limit, solid);
            if !matches!(cast.status, RayStatus::Hit | RayStatus::Inside) {
                continue;
            }
            count += 1;
            let hit = SceneRayHit {
                geom: index,
                link: g.link,
                toi: cast.toi,
                point: cast.point,
                normal: cast.normal,
            };
            match visit(hit) {
                Some(next) => limit = next,
                None => break,
            }
        }
        count
    }

    /// The nearest hit (ties: the lower geometry index).
    pub fn ray_cast(
        &self,
        ray: &Ray<R>,
        max_toi: R,
        solid: bool,
        filter: &QueryFilter,
    ) -> Option<SceneRayHit<R>> {
        let mut best: Option<SceneRayHit<R>> = None;
        self.cast_each(ray, max_toi, solid, filter, |hit| {
            if best.is_none_or(|b| hit.toi < b.toi) {
                best = Some(hit);
            }
            // Later boxes only matter before this hit.
            best.map(|b| b.toi)
        });
        best
    }

    /// Every hit within `max_toi`, in geometry order; `visit` returns
    /// `false` to stop. Returns the number of hits visited.
    pub fn ray_cast_all(
        &self,
        ray: &Ray<R>,
        max_toi: R,
        solid: bool,
        filter: &QueryFilter,
        mut visit: impl FnMut(SceneRayHit<R>) -> bool,
    ) -> usize {
        self.cast_each(ray, max_toi, solid, filter, |hit| {
            visit(hit).then_some(max_toi)
        })
    }
}
