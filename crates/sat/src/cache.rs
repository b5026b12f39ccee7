//! Frame-to-frame coherence: the last separating feature, re-tested first.
//!
//! Between frames the best axis rarely changes. When the cached feature's
//! axis still separates the hulls by more than the speculative margin, that
//! single axis proves there is no contact within the margin and the full
//! SAT is skipped. Otherwise the full SAT runs and refreshes the cache.

use crate::edges::edge_pair_gap;
use crate::hull_data::SatHull;
use crate::manifold::{goal, manifold_from, Manifold, ManifoldStatus};
use crate::query::{
    lowest, sat_local, to_world, Culling, Goal, SatAxis, SatFeature, SatResult, SatStatus,
};
use mink_support::{Iso3, Real, Vec3};

/// The feature of the last SAT answer for one pair of hulls. Start with
/// [`SatCache::default`] (empty) and keep one per pair across frames; it is
/// only meaningful for the same two hulls in the same order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SatCache {
    /// The feature of the last best axis, if any.
    pub feature: Option<SatFeature>,
}

/// What [`sat_cached`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CachedSat<R> {
    /// The cached feature's axis still separates the hulls by more than the
    /// margin: a valid separating axis (world frame, from A to B) and the
    /// true gap along it, which is a lower bound on the SAT separation.
    Apart(SatAxis<R>),
    /// The full SAT ran (cache empty, stale, or the hulls within the
    /// margin); the cache now holds its best feature.
    Full(SatResult<R>),
}

/// The gap along `feature`'s axis now (A's frame), or `None` when the
/// feature no longer builds an axis (an edge pair that stopped forming a
/// face of the Minkowski difference, or an index out of range).
fn retest<R: Real>(
    a: &SatHull<'_, R>,
    b: &SatHull<'_, R>,
    pose_ab: &Iso3<R>,
    feature: SatFeature,
) -> Option<(R, Vec3<R>)> {
    let (ha, hb) = (a.hull(), b.hull());
    let rot = pose_ab.rotation;
    let t = pose_ab.translation;
    let min_proj = |vs: &[Vec3<R>], dir: Vec3<R>| lowest(vs, dir).1;
    match feature {
        SatFeature::FaceA(f) => {
            let p = ha.planes().get(f as usize)?;
            let s =
                min_proj(hb.vertices(), rot.transpose_mul(p.normal)) + p.normal.dot(t) - p.offset;
            Some((s, p.normal))
        }
        SatFeature::FaceB(f) => {
            let p = hb.planes().get(f as usize)?;
            let m = rot.mul_vec(p.normal);
            Some((min_proj(ha.vertices(), m) - m.dot(t) - p.offset, -m))
        }
        SatFeature::EdgePair(i, j) => {
            let (ea, eb) = (ha.edges().get(i as usize)?, hb.edges().get(j as usize)?);
            let (aa, ab) = (a.arcs().get(i as usize)?, b.arcs().get(j as usize)?);
            let n1 = ha.planes().get(ea.faces[0] as usize)?.normal;
            let n2 = ha.planes().get(ea.faces[1] as usize)?.normal;
            let m1 = -rot.mul_vec(hb.planes().get(eb.faces[0] as usize)?.normal);
            let m2 = -rot.mul_vec(hb.planes().get(eb.faces[1] as usize)?.normal);
            let (da, db) = (aa.direction, rot.mul_vec(ab.direction));
            let (c_ea, d_ea, a_eb, b_eb) = (m1.dot(da), m2.dot(da), n1.dot(db), n2.dot(db));
            if !(c_ea * d_ea < R::ZERO && a_eb * b_eb < R::ZERO && c_ea * b_eb > R::ZERO) {
                return None;
            }
            let mut n = da.cross(db).try_normalize()?;
            if n.dot(n1 + n2) < R::ZERO {
                n = -n;
            }
            Some((edge_pair_gap(a, b, pose_ab, (i, j), n)?, n))
        }
    }
}

/// The separating-axis test with a feature cache: the cached feature is
/// re-tested first, and when its axis still separates the hulls by more
/// than `margin` (meters) the answer is [`CachedSat::Apart`] at the cost of
/// one axis; otherwise the full [`sat`](crate::sat) runs (with culling,
/// the cached feature tested first so that the culling bites from the
/// start; the same answer) and refreshes `cache`.
///
/// A non-finite pose or margin gives `Full` with [`SatStatus::NonFinite`]
/// and leaves the cache untouched.
pub fn sat_cached<R: Real>(
    a: &SatHull<'_, R>,
    pose_a: &Iso3<R>,
    b: &SatHull<'_, R>,
    pose_b: &Iso3<R>,
    margin: R,
    cache: &mut SatCache,
) -> CachedSat<R> {
    if !pose_a.is_finite() || !pose_b.is_finite() || !margin.finite() {
        return CachedSat::Full(SatResult::failed(SatStatus::NonFinite));
    }
    let pose_ab = pose_a.inv_mul(pose_b);
    if let Some(feature) = cache.feature {
        if let Some((s, n)) = retest(a, b, &pose_ab, feature) {
            if s > margin {
                return CachedSat::Apart(SatAxis {
                    feature,
                    separation: s,
                    normal: pose_a.rotation.mul_vec(n),
                });
            }
        }
    }
    let Some(r) = sat_local(a, b, &pose_ab, Culling::On, cache.feature, Goal::exact()) else {
        return CachedSat::Full(SatResult::failed(SatStatus::Empty));
    };
    cache.feature = Some(r.best.feature);
    CachedSat::Full(to_world(r, pose_a))
}

/// The contact manifold with a feature cache: when the cached feature still
/// separates the hulls by more than `margin`, an empty manifold along that
/// axis ([`ManifoldStatus::Ok`], no points) without running the full SAT;
/// otherwise [`manifold`](crate::manifold()) with the cached feature tested
/// first (the same points), refreshing `cache` with the manifold's
/// feature.
pub fn manifold_cached<R: Real>(
    a: &SatHull<'_, R>,
    pose_a: &Iso3<R>,
    b: &SatHull<'_, R>,
    pose_b: &Iso3<R>,
    margin: R,
    cache: &mut SatCache,
) -> Manifold<R> {
    if !pose_a.is_finite() || !pose_b.is_finite() || !margin.finite() {
        return Manifold::empty(ManifoldStatus::NonFinite);
    }
    let pose_ab = pose_a.inv_mul(pose_b);
    if let Some(feature) = cache.feature {
        if let Some((s, n)) = retest(a, b, &pose_ab, feature) {
            if s > margin {
                let mut m = Manifold::empty(ManifoldStatus::Ok);
                m.normal = pose_a.rotation.mul_vec(n);
                m.feature = feature;
                m.separation = s;
                return m;
            }
        }
    }
    let margin = margin.max_of(R::ZERO);
    let goal = goal(a, b, margin);
    let Some(q) = sat_local(a, b, &pose_ab, Culling::On, cache.feature, goal) else {
        return Manifold::empty(ManifoldStatus::Empty);
    };
    let m = manifold_from(a, pose_a, b, pose_b, &pose_ab, q, margin);
    cache.feature = Some(m.feature);
    m
}
