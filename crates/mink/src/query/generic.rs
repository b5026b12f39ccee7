//! The default routine for any two convex shapes: GJK for distance and
//! intersection, MPR (or GJK+EPA on request) for penetration, the
//! support-set manifold ([`crate::contact`]'s general convex path).

use super::{Algorithm, Method, Overlap, Proximity, Status};
use crate::cast::{convex_cast, CastSpec, ShapeCast};
use crate::contact::{convex_manifold, Manifold, Settings};
use crate::pair::{PairRoutine, Side};
use crate::PairVisitor;
use mink_gjk::{EpaStatus, GjkCache, GjkStatus};
use mink_mpr::MprStatus;
use mink_support::{Pair, Real, Rounded, Support};

/// GJK / EPA / MPR on the shapes' support functions, each shape wrapped in
/// [`Rounded`] so that its margin adds to its inflation.
pub(crate) struct Generic;

/// Runs `$body` with `$pair`, the Minkowski pair of the two shapes rounded
/// by their margins (a bad margin gives `$fail`).
macro_rules! with_pair {
    ($a:ident, $sa:ident, $b:ident, $sb:ident, $fail:expr, |$pair:ident| $body:expr) => {{
        match (Rounded::new($a, $sa.margin), Rounded::new($b, $sb.margin)) {
            (Ok(ra), Ok(rb)) => {
                let mut $pair = Pair::new(&ra, &$sa.pose, &rb, &$sb.pose);
                $body
            }
            _ => $fail,
        }
    }};
}

impl<R: Real, A: Support<R>, B: Support<R>> PairRoutine<R, A, B> for Generic {
    fn distance(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Proximity<R> {
        let fail = Proximity::failed(Status::InvalidInput, Algorithm::Gjk);
        let d = with_pair!(a, sa, b, sb, return fail, |pair| mink_gjk::distance(
            &mut pair, &sa.pose
        ));
        let status = match d.status {
            GjkStatus::Converged | GjkStatus::Separated | GjkStatus::BeyondMargin => {
                Status::Converged
            }
            GjkStatus::IterationLimit => Status::IterationLimit,
            GjkStatus::Degenerate => Status::Degenerate,
            GjkStatus::NonFinite => return fail,
            GjkStatus::Intersecting => {
                // The cores overlap: the depth comes from the penetration
                // algorithm. A signed distance is a precision query, so the
                // table's choice here is GJK+EPA (it agrees with Coal on
                // every pair of the query format), with MPR when EPA gives
                // no answer.
                let mut p = match m {
                    Method::Auto => {
                        let exact = self.penetration(a, sa, b, sb, Method::Epa);
                        if exact.status.is_answer() {
                            exact
                        } else {
                            self.penetration(a, sa, b, sb, Method::Mpr)
                        }
                    }
                    _ => self.penetration(a, sa, b, sb, m),
                };
                p.iterations = p.iterations.saturating_add(d.iterations);
                return p;
            }
        };
        Proximity::from_gjk(&d, status)
    }

    fn penetration(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Proximity<R> {
        match m {
            Method::Auto | Method::Mpr => mpr_penetration(a, sa, b, sb),
            Method::Gjk | Method::Epa => epa_penetration(a, sa, b, sb),
        }
    }

    fn intersect(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Overlap {
        let fail = Overlap {
            intersecting: false,
            algorithm: Algorithm::Gjk,
            status: Status::InvalidInput,
            iterations: 0,
        };
        match m {
            Method::Mpr => with_pair!(a, sa, b, sb, fail, |pair| {
                let hit = mink_mpr::intersect(&mut pair);
                let status = match hit.status {
                    MprStatus::Converged | MprStatus::Separated => Status::Converged,
                    MprStatus::Degenerate => Status::Degenerate,
                    MprStatus::IterationCap => Status::IterationLimit,
                    MprStatus::Unverified => Status::Unverified,
                    MprStatus::NonFinite => Status::InvalidInput,
                };
                Overlap {
                    intersecting: hit.overlapping,
                    algorithm: Algorithm::Mpr,
                    status,
                    iterations: hit.iterations,
                }
            }),
            Method::Auto | Method::Gjk | Method::Epa => {
                with_pair!(a, sa, b, sb, fail, |pair| Overlap {
                    intersecting: mink_gjk::intersect(&mut pair),
                    algorithm: Algorithm::Gjk,
                    status: Status::Converged,
                    iterations: 0,
                })
            }
        }
    }

    fn manifold(
        &self,
        a: &A,
        sa: &Side<R>,
        b: &B,
        sb: &Side<R>,
        params: &Settings<R>,
        cache: Option<&mut GjkCache<R>>,
    ) -> Manifold<R> {
        convex_manifold(self, a, sa, b, sb, params, cache)
    }

    #[inline]
    fn cast(&self, a: &A, b: &B, spec: &CastSpec<R>) -> ShapeCast<R> {
        convex_cast(self, a, b, spec)
    }

    fn visit<V: PairVisitor<R>>(&self, a: &A, b: &B, visitor: V) -> V::Output {
        visitor.convex(a, b)
    }
}

/// Penetration by MPR; the gap of separated (or only touching) shapes by
/// GJK.
fn mpr_penetration<R: Real, A: Support<R>, B: Support<R>>(
    a: &A,
    sa: &Side<R>,
    b: &B,
    sb: &Side<R>,
) -> Proximity<R> {
    let fail = Proximity::failed(Status::InvalidInput, Algorithm::Mpr);
    let p = with_pair!(a, sa, b, sb, Err(fail), |pair| Ok(mink_mpr::penetration(
        &mut pair, &sa.pose
    )));
    let p = match p {
        Ok(p) => p,
        Err(failed) => return failed,
    };
    let status = match p.status {
        MprStatus::Converged => Status::Converged,
        MprStatus::Unverified => Status::Unverified,
        MprStatus::IterationCap if p.depth > R::ZERO => Status::IterationLimit,
        MprStatus::NonFinite => return fail,
        MprStatus::Separated | MprStatus::Degenerate | MprStatus::IterationCap => {
            return gap_after_mpr(a, sa, b, sb, p.iterations, p.status);
        }
    };
    Proximity {
        distance: -p.depth,
        p_a: p.p_a,
        p_b: p.p_b,
        normal: p.normal,
        iterations: p.iterations,
        algorithm: Algorithm::Mpr,
        status,
    }
    .checked()
}

/// MPR found no overlap: GJK measures the gap. When GJK finds the cores
/// touching after all (a flat difference, on which MPR's portal has no
/// volume), EPA answers: its flat case gives the direction across the
/// difference.
fn gap_after_mpr<R: Real, A: Support<R>, B: Support<R>>(
    a: &A,
    sa: &Side<R>,
    b: &B,
    sb: &Side<R>,
    mpr_iterations: u32,
    mpr_status: MprStatus,
) -> Proximity<R> {
    let fail = Proximity::failed(Status::InvalidInput, Algorithm::Gjk);
    let d = with_pair!(a, sa, b, sb, return fail, |pair| mink_gjk::distance(
        &mut pair, &sa.pose
    ));
    if d.status == GjkStatus::Intersecting {
        // The cores touch or overlap, and MPR could not say along which
        // direction: GJK's last search direction is no normal of a flat
        // difference, EPA's flat answer is.
        let mut p = epa_penetration(a, sa, b, sb);
        p.iterations = p
            .iterations
            .saturating_add(mpr_iterations)
            .saturating_add(d.iterations);
        return p;
    }
    let status = match (d.status, mpr_status) {
        (GjkStatus::NonFinite, _) => return fail,
        (_, MprStatus::Degenerate) => Status::Degenerate,
        (GjkStatus::IterationLimit, _) | (_, MprStatus::IterationCap) => Status::IterationLimit,
        (GjkStatus::Degenerate, _) => Status::Degenerate,
        _ => Status::Converged,
    };
    let mut p = Proximity::from_gjk(&d, status);
    p.iterations = p.iterations.saturating_add(mpr_iterations);
    p
}

/// Penetration by GJK then EPA (EPA only when the cores overlap).
fn epa_penetration<R: Real, A: Support<R>, B: Support<R>>(
    a: &A,
    sa: &Side<R>,
    b: &B,
    sb: &Side<R>,
) -> Proximity<R> {
    let fail = Proximity::failed(Status::InvalidInput, Algorithm::Epa);
    let p = with_pair!(a, sa, b, sb, Err(fail), |pair| Ok(mink_gjk::penetration(
        &mut pair, &sa.pose
    )));
    let p = match p {
        Ok(p) => p,
        Err(failed) => return failed,
    };
    let status = match p.status {
        EpaStatus::Converged | EpaStatus::Separated => Status::Converged,
        EpaStatus::CapacityReached | EpaStatus::IterationLimit | EpaStatus::GjkFailed => {
            Status::IterationLimit
        }
        EpaStatus::Degenerate => Status::Degenerate,
        EpaStatus::NonFinite => return fail,
    };
    Proximity {
        distance: -p.depth,
        p_a: p.p_a,
        p_b: p.p_b,
        normal: p.normal,
        iterations: p.iterations,
        algorithm: Algorithm::Epa,
        status,
    }
    .checked()
}
