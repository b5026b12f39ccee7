//! The boolean query: do the shapes overlap?

use crate::inflated::{Inflated, Vertex};
use crate::portal::{self, End, Ray};
use crate::result::{Intersection, MprStatus};
use mink_gjk::{GjkSettings, GjkStatus, Stop};
use mink_support::{Iso3, MinkowskiDiff, Real, Support, Vec3};

/// Whether A and B (cores plus inflation) overlap, by portal discovery and
/// refinement, stopping as soon as the origin is known to be inside the
/// difference or a separating plane is found. Frame-independent.
///
/// Touching within the tolerance counts as not overlapping (except when the
/// shapes' interior points coincide). Non-finite input gives
/// `overlapping == false` with [`MprStatus::NonFinite`]; a difference without
/// volume, [`MprStatus::Degenerate`]. Never panics.
pub fn intersect<R: Real, A: Support<R>, B: Support<R>, const I: bool>(
    pair: &mut MinkowskiDiff<'_, R, A, B, I>,
) -> Intersection {
    let Some(interior) = crate::finite_interior(pair) else {
        return Intersection {
            overlapping: false,
            status: MprStatus::NonFinite,
            iterations: 0,
        };
    };
    let mut iterations = 0;
    let r = pair.inflation();
    if r > R::ZERO {
        // The interior point is a point of the core difference: closer to
        // the origin than `r`, it proves the overlap without a support call.
        if interior.w.norm_squared() < r * r {
            return Intersection {
                overlapping: true,
                status: MprStatus::Converged,
                iterations,
            };
        }
        // Inflated shapes: GJK on the cores decides (stopping at the first
        // proof either way), unless it runs out of iterations.
        let settings = GjkSettings::default().with_stop(Stop::Collision);
        let cores = mink_gjk::distance_with(pair, &Iso3::IDENTITY, &settings);
        iterations = cores.iterations;
        let decided = match cores.status {
            GjkStatus::Separated => Some(false),
            GjkStatus::Intersecting => Some(true),
            GjkStatus::Converged | GjkStatus::Degenerate => Some(cores.distance < R::ZERO),
            _ => None,
        };
        if let Some(overlapping) = decided {
            let status = if overlapping {
                MprStatus::Converged
            } else {
                MprStatus::Separated
            };
            return Intersection {
                overlapping,
                status,
                iterations,
            };
        }
    }
    let mut inf = Inflated::new(pair);
    let v0 = Vertex {
        w: interior.w,
        core: interior,
        u: Vec3::ZERO,
    };
    let pass = portal::run(&mut inf, v0, Ray::ThroughOrigin, None, true, true);
    let (overlapping, status) = match pass.end {
        End::Inside => (true, MprStatus::Converged),
        End::Converged(..) | End::RefinementCap(..) if pass.inside => (true, MprStatus::Converged),
        End::Separated(_) | End::Converged(..) => (false, MprStatus::Separated),
        End::RefinementCap(..) | End::DiscoveryCap => (false, MprStatus::IterationCap),
        End::Degenerate(_) => (false, MprStatus::Degenerate),
    };
    Intersection {
        overlapping,
        status,
        iterations: iterations + pass.iterations,
    }
}
