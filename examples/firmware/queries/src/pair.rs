//! The four pair queries on two [`FwShape`]s: the pair (B's pose relative
//! to A), built once, and each algorithm in a function of its own.

use crate::shape::FwShape;
use mink_support::{Iso3, Pair, Real};

/// The algorithm of a pair query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// GJK signed distance (meters).
    GjkDistance,
    /// GJK boolean intersection (1 or 0).
    GjkIntersect,
    /// MPR penetration depth of overlapping shapes (meters).
    MprPenetration,
    /// MPR boolean intersection (1 or 0).
    MprIntersect,
}

/// The shapes of a pair query in A's frame: the pair every algorithm
/// takes.
type FwPair<'s, 'a, R> = Pair<'s, R, FwShape<'a, R>, FwShape<'a, R>>;

/// The answer that fails every comparison.
fn bad<R: Real>() -> R {
    R::INFINITY
}

/// The answer of `algorithm` (meters, or 1/0), infinity when it reports a
/// failure status (see [`PairQueries`](crate::PairQueries)). The pair is
/// built here, once for the four algorithms; each algorithm runs out of
/// line, so that its frame holds only what it needs.
#[inline(always)]
pub(crate) fn pair_query<R: Real>(
    algorithm: Algorithm,
    a: &FwShape<'_, R>,
    pose_a: &Iso3<R>,
    b: &FwShape<'_, R>,
    pose_b: &Iso3<R>,
) -> R {
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    match algorithm {
        Algorithm::GjkDistance => gjk_distance(&mut pair, pose_a),
        Algorithm::GjkIntersect => gjk_intersect(&mut pair),
        Algorithm::MprPenetration => mpr_penetration(&mut pair, pose_a),
        Algorithm::MprIntersect => mpr_intersect(&mut pair),
    }
}

/// GJK signed distance of the pair (meters); infinity when GJK does not
/// converge. `pose_a` is A's pose, the frame of the answer.
#[inline(never)]
fn gjk_distance<R: Real>(pair: &mut FwPair<'_, '_, R>, pose_a: &Iso3<R>) -> R {
    let d = mink_gjk::distance(pair, pose_a);
    match d.status {
        mink_gjk::GjkStatus::Converged | mink_gjk::GjkStatus::Intersecting => d.distance,
        _ => bad(),
    }
}

/// GJK boolean intersection of the pair, as 1 or 0.
#[inline(never)]
fn gjk_intersect<R: Real>(pair: &mut FwPair<'_, '_, R>) -> R {
    if mink_gjk::intersect(pair) {
        R::ONE
    } else {
        R::ZERO
    }
}

/// MPR penetration depth of the overlapping pair (meters); infinity when
/// MPR does not converge. An `Unverified` answer (overlap found, depth an
/// upper bound not proven minimal) counts: it is what MPR returns, and the
/// `f64` run checks it. `pose_a` is A's pose, the frame of the answer.
#[inline(never)]
fn mpr_penetration<R: Real>(pair: &mut FwPair<'_, '_, R>, pose_a: &Iso3<R>) -> R {
    let p = mink_mpr::penetration(pair, pose_a);
    match p.status {
        mink_mpr::MprStatus::Converged | mink_mpr::MprStatus::Unverified => p.depth,
        _ => bad(),
    }
}

/// MPR boolean intersection of the pair, as 1 or 0; infinity when MPR
/// reports neither overlap nor separation.
#[inline(never)]
fn mpr_intersect<R: Real>(pair: &mut FwPair<'_, '_, R>) -> R {
    let hit = mink_mpr::intersect(pair);
    match hit.status {
        mink_mpr::MprStatus::Converged | mink_mpr::MprStatus::Separated => {
            if hit.overlapping {
                R::ONE
            } else {
                R::ZERO
            }
        }
        _ => bad(),
    }
}
