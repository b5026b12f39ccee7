//! The deep-penetration fallback for convex pairs: when both geometries
//! carry the signed distance field of their own surface
//! ([`Collider::ConvexWithField`](super::Collider::ConvexWithField)), a
//! first contact that MPR or EPA flags as unreliable, or that is deep, is
//! checked against the fields' answer
//! ([`convex_convex_deep`]).
//!
//! **When.** The pair's first contact (its penetration query, as for any
//! convex pair) is an overlap and either
//! - its status says the algorithm could not vouch for it
//!   ([`Status::Unverified`]: MPR found no proof its depth is minimal;
//!   [`Status::IterationLimit`]; [`Status::Degenerate`]), or
//! - its depth exceeds [`DEEP_FALLBACK_FRACTION`] of the smaller shape's
//!   size, the smallest half-extent of its local AABB (a box's inscribed
//!   radius; never below any shape's).
//!
//! Closed forms are exact and are never second-guessed: box–box pairs
//! ([`Shape::Cuboid`] both), half-space pairs and the analytic pairs
//! ([`Status::Exact`]) keep their answer.
//!
//! **What.** The fields' search proposes axes (the field gradients at the
//! deepest vertex and edge samples, refined on the exact vertex
//! projections); the first contact's own axis, and EPA's when the first
//! contact came from MPR, are scored the same way. The axis whose overlap
//! of the two meshes' vertex projections is smallest wins, and that
//! overlap is the depth: a translation along it that certainly separates
//! the meshes, so an upper bound on the exact depth, equal to it when the
//! axis is optimal (a face normal, an edge pair's cross product, which EPA
//! finds on polytopes). The answer is thus never deeper than the exact
//! overlap along the first contact's axis. The manifold is then built
//! along the chosen normal exactly as for any convex pair (the two shapes'
//! touching features clipped, [`crate::contact`]).
//!
//! **Cost.** Nothing for pairs below the threshold but one comparison; a
//! triggered pair adds `convex_convex_deep` (about 1,500 projections of
//! both vertex sets, plus every vertex and edge sampled in the other's
//! field) and one EPA run: rare, and only where MPR is least reliable.

use crate::contact::{finite_only, ContactParams, Manifold, Patch, Settings};
use crate::pair::table::{run_pair, PairQuery};
use crate::pair::{PairRoutine, Side};
use crate::query::{Algorithm, Body, Method, Proximity, Status};
use crate::shape::Shape;
use mink_sdf::{convex_convex_deep, projection_overlap, SdfBody};
use mink_support::{Iso3, Real, Support, Vec3};

/// The depth, as a fraction of the smaller shape's size (the smallest
/// half-extent of its local AABB), past which a convex pair's first
/// contact is checked against the fields.
///
/// 0.25: up to a quarter of the inscribed radius the origin lies close to
/// the boundary of the Minkowski difference, where MPR's portal and EPA's
/// polytope settle on the nearest face; deeper, their starting guesses
/// (MPR's ray from the centres) drift from the minimal axis and a flat
/// polytope pair can be misjudged. Such depths are rare in a running
/// simulation (tunnelling, spawning inside), so the fields' cost is paid
/// rarely.
pub const DEEP_FALLBACK_FRACTION: f64 = 0.25;

/// The manifold of convex shapes `sa` (field `fa`) at `pose_a` and `sb`
/// (field `fb`) at `pose_b`, with the fallback of the module docs; empty
/// on invalid input (a non-finite pose, a bad margin).
pub(crate) fn manifold<R: Real, U: Support<R>>(
    sa: &Shape<'_, R, U>,
    fa: &SdfBody<'_, R>,
    pose_a: &Iso3<R>,
    sb: &Shape<'_, R, U>,
    fb: &SdfBody<'_, R>,
    pose_b: &Iso3<R>,
    params: &ContactParams<R>,
) -> Manifold<R> {
    let (side_a, side_b) = (Body::new(sa, *pose_a).side(), Body::new(sb, *pose_b).side());
    let valid = params.margin.finite() && params.margin >= R::ZERO;
    if !valid || !side_a.valid() || !side_b.valid() {
        return Manifold::new();
    }
    let query = DeepManifold {
        deep: Deep {
            sa: side_a,
            sb: side_b,
            fields: (fa, fb),
            method: params.method,
            size: inner_size(sa).min_of(inner_size(sb)),
        },
        margin: params.margin,
    };
    finite_only(run_pair(sa, sb, query))
}

/// The penetration of convex bodies `a` and `b` (as
/// [`query::penetration`](crate::query::penetration): world frame, normal
/// from A to B, `distance` minus the depth), each with the signed distance
/// field of its own surface (`field_a`, `field_b`: meshes and fields in
/// the shapes' frames), with the deep fallback of the module docs.
///
/// The query of `method` answers first; when the fallback applies, the
/// depth becomes the smallest exact overlap of the two meshes' vertex
/// projections over the fields' axes, the query's own and EPA's (plus the
/// bodies' margins), `p_b` B's vertex deepest along the normal (pushed
/// out by B's margin) and `p_a = p_b + depth · normal`; `iterations`,
/// `algorithm` and `status` stay the query's. Separated pairs, failures
/// and closed forms are returned as the query gave them; a non-finite
/// pose or a bad margin gives [`Status::InvalidInput`]. Never panics.
pub fn penetration<R: Real, U: Support<R>>(
    a: &Body<'_, '_, R, U>,
    field_a: &SdfBody<'_, R>,
    b: &Body<'_, '_, R, U>,
    field_b: &SdfBody<'_, R>,
    method: Method,
) -> Proximity<R> {
    let (sa, sb) = (a.side(), b.side());
    if !sa.valid() || !sb.valid() {
        return Proximity::failed(Status::InvalidInput, Algorithm::Analytic);
    }
    let deep = Deep {
        sa,
        sb,
        fields: (field_a, field_b),
        method,
        size: inner_size(a.shape).min_of(inner_size(b.shape)),
    };
    run_pair(a.shape, b.shape, deep)
}

/// The deep-checked penetration of one pair, run by the pair table on the
/// concrete shapes: the sides, the two fields, the method and the smaller
/// shape's [`inner_size`].
struct Deep<'q, 'f, R: Real> {
    sa: Side<R>,
    sb: Side<R>,
    fields: (&'q SdfBody<'f, R>, &'q SdfBody<'f, R>),
    method: Method,
    size: R,
}

impl<R: Real> PairQuery<R> for Deep<'_, '_, R> {
    type Output = Proximity<R>;

    fn run<A, B, T: PairRoutine<R, A, B>>(self, routine: &T, a: &A, b: &B) -> Proximity<R> {
        let (sa, sb) = (&self.sa, &self.sb);
        let first = routine.penetration(a, sa, b, sb, self.method);
        if T::CLOSED_FORM || !needs_fields(&first, self.size) {
            return first;
        }
        let (field_a, field_b) = self.fields;
        let Some(deep) = convex_convex_deep(field_a, &sa.pose, field_b, &sb.pose) else {
            return first;
        };
        // Every candidate is scored by the exact overlap along its axis;
        // the smallest wins. EPA's axis joins MPR's and the fields': on
        // polytopes it is the optimal axis (a face normal or an edge
        // pair's cross product), which the fields' sampled gradients only
        // approach.
        let score =
            |n: Vec3<R>| projection_overlap(&field_a.mesh, &sa.pose, &field_b.mesh, &sb.pose, n);
        let mut best = (deep.normal, deep.depth);
        let mut consider = |n: Vec3<R>| {
            let overlap = score(n);
            if overlap < best.1 {
                best = (n, overlap);
            }
        };
        consider(first.normal);
        if self.method != Method::Epa && self.method != Method::Gjk {
            let epa = routine.penetration(a, sa, b, sb, Method::Epa);
            if epa.status.is_answer() && epa.distance < R::ZERO {
                consider(epa.normal);
            }
        }
        let (normal, overlap) = best;
        let depth = overlap + sa.margin + sb.margin;
        let p_b = field_b.mesh.extreme_vertex(&sb.pose, -normal).1 - normal * sb.margin;
        let answer = Proximity {
            distance: -depth,
            p_a: p_b + normal * depth,
            p_b,
            normal,
            ..first
        };
        let finite = answer.distance.finite() && answer.p_a.is_finite() && answer.p_b.is_finite();
        if finite {
            answer
        } else {
            first
        }
    }
}

/// The manifold of one pair along its deep-checked first contact
/// ([`Deep`]), within `margin`; closed forms keep their own manifold.
struct DeepManifold<'q, 'f, R: Real> {
    deep: Deep<'q, 'f, R>,
    margin: R,
}

impl<R: Real> PairQuery<R> for DeepManifold<'_, '_, R> {
    type Output = Manifold<R>;

    fn run<A, B, T: PairRoutine<R, A, B>>(self, routine: &T, a: &A, b: &B) -> Manifold<R> {
        let (sa, sb) = (self.deep.sa, self.deep.sb);
        let mut settings = Settings {
            margin: self.margin,
            method: self.deep.method,
            patch: Patch::Auto,
            first: None,
        };
        if !T::CLOSED_FORM {
            settings.first = Some(self.deep.run(routine, a, b));
        }
        routine.manifold(a, &sa, b, &sb, &settings, None)
    }
}

/// Whether the first contact `first` of a pair whose smaller shape has
/// size `size` (meters, [`inner_size`]) goes to the fields: an overlap
/// whose status is flagged (unverified, out of iterations, degenerate) or
/// whose depth exceeds [`DEEP_FALLBACK_FRACTION`] of `size`. Exact
/// answers, failures and separated pairs never do.
fn needs_fields<R: Real>(first: &Proximity<R>, size: R) -> bool {
    let depth = -first.distance;
    if !first.status.is_answer() || first.status == Status::Exact || !(depth > R::ZERO) {
        return false;
    }
    let flagged = matches!(
        first.status,
        Status::Unverified | Status::IterationLimit | Status::Degenerate
    );
    flagged || depth > R::lit(DEEP_FALLBACK_FRACTION) * size
}

/// The smallest half-extent of the shape's local AABB (meters).
fn inner_size<R: Real, U: Support<R>>(shape: &Shape<'_, R, U>) -> R {
    let b = shape.world_aabb(&Iso3::IDENTITY);
    (b.max - b.min).min_element() * R::HALF
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::Algorithm;

    fn first(distance: f64, status: Status) -> Proximity<f64> {
        Proximity {
            distance,
            p_a: Vec3::ZERO,
            p_b: Vec3::ZERO,
            normal: Vec3::new(0.0, 0.0, 1.0),
            iterations: 3,
            algorithm: Algorithm::Mpr,
            status,
        }
    }

    #[test]
    fn flagged_overlaps_go_to_the_fields_at_any_depth() {
        for status in [
            Status::Unverified,
            Status::IterationLimit,
            Status::Degenerate,
        ] {
            assert!(needs_fields(&first(-1e-4, status), 1.0), "{status:?}");
        }
    }

    #[test]
    fn verified_overlaps_go_to_the_fields_only_past_the_fraction() {
        let size = 0.8;
        let at = DEEP_FALLBACK_FRACTION * size;
        assert!(!needs_fields(&first(-0.9 * at, Status::Converged), size));
        assert!(needs_fields(&first(-1.1 * at, Status::Converged), size));
    }

    #[test]
    fn exact_separated_and_failed_answers_stay() {
        assert!(!needs_fields(&first(-10.0, Status::Exact), 1.0));
        assert!(!needs_fields(&first(0.5, Status::Unverified), 1.0));
        assert!(!needs_fields(&first(0.0, Status::Unverified), 1.0));
        assert!(!needs_fields(&first(-10.0, Status::InvalidInput), 1.0));
        assert!(!needs_fields(&first(f64::NAN, Status::Unverified), 1.0));
    }
}
