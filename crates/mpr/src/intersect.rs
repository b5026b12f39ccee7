//! The boolean query: do the shapes overlap?

use crate::core_distance::{core_distance, CoreDistance};
use crate::inflated::{Inflated, Vertex};
use crate::portal::{self, End, Ray};
use crate::result::{Intersection, MprStatus};
use mink_support::{MinkowskiDiff, Real, Support, Vec3};

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
    let mut inf = Inflated::new(pair);
    let mut iterations = 0;
    if inf.r_a + inf.r_b > R::ZERO {
        // Inflated shapes: the cores' distance decides, unless the cores
        // overlap (then so do the shapes) or the loop runs out.
        let (found, it) = core_distance(&mut inf, interior, true);
        iterations = it;
        let decided = match found {
            CoreDistance::Separated(_) => Some(false),
            CoreDistance::Overlapping | CoreDistance::CoresOverlap => Some(true),
            CoreDistance::Apart { q } => Some(q.w.norm() < inf.r_a + inf.r_b),
            CoreDistance::Cap => None,
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
        End::Degenerate => (false, MprStatus::Degenerate),
    };
    Intersection {
        overlapping,
        status,
        iterations: iterations + pass.iterations,
    }
}
