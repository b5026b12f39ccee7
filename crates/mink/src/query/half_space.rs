//! A half-space against anything: the other shape's support along minus
//! the plane's normal is its deepest point (exact for every convex shape).

use super::{Algorithm, Method, Overlap, Proximity, Status};
use crate::cast::{plane_cast, planes_cast, CastSpec, ShapeCast};
use crate::contact::{half_space_manifold, Manifold, Settings};
use crate::pair::{PairRoutine, Side};
use crate::PairVisitor;
use mink_gjk::GjkCache;
use mink_support::{HalfSpace, Real, Support};

/// Half-space (A) against a convex shape (B), by
/// [`HalfSpace::deepest_point`]. Exact whatever the method asked (there is
/// no iterative alternative for an unbounded shape).
pub(crate) struct PlaneConvex;

impl PlaneConvex {
    fn answer<R: Real, B: Support<R>>(
        plane: &HalfSpace<R>,
        sa: &Side<R>,
        b: &B,
        sb: &Side<R>,
    ) -> Proximity<R> {
        let fail = Proximity::failed(Status::InvalidInput, Algorithm::Analytic);
        let Some(world) = plane.transformed(&sa.pose) else {
            return fail;
        };
        let Some(contact) = world.deepest_point(b, &sb.pose) else {
            return fail;
        };
        let normal = contact.normal;
        let distance = contact.distance - sa.margin - sb.margin;
        let p_b = contact.point - normal * sb.margin;
        Proximity {
            distance,
            p_a: p_b - normal * distance,
            p_b,
            normal,
            iterations: 0,
            algorithm: Algorithm::Analytic,
            status: Status::Exact,
        }
        .checked()
    }
}

impl<R: Real, B: Support<R>> PairRoutine<R, HalfSpace<R>, B> for PlaneConvex {
    const CLOSED_FORM: bool = true;

    #[inline]
    fn distance(
        &self,
        a: &HalfSpace<R>,
        sa: &Side<R>,
        b: &B,
        sb: &Side<R>,
        _: Method,
    ) -> Proximity<R> {
        Self::answer(a, sa, b, sb)
    }
    #[inline]
    fn penetration(
        &self,
        a: &HalfSpace<R>,
        sa: &Side<R>,
        b: &B,
        sb: &Side<R>,
        _: Method,
    ) -> Proximity<R> {
        Self::answer(a, sa, b, sb)
    }
    #[inline]
    fn intersect(&self, a: &HalfSpace<R>, sa: &Side<R>, b: &B, sb: &Side<R>, _: Method) -> Overlap {
        let p = Self::answer(a, sa, b, sb);
        Overlap {
            intersecting: p.status.is_answer() && p.distance <= R::ZERO,
            algorithm: Algorithm::Analytic,
            status: p.status,
            iterations: 0,
        }
    }
    #[inline]
    fn manifold(
        &self,
        a: &HalfSpace<R>,
        sa: &Side<R>,
        b: &B,
        sb: &Side<R>,
        params: &Settings<R>,
        _: Option<&mut GjkCache<R>>,
    ) -> Manifold<R> {
        half_space_manifold(a, sa, b, sb, params)
    }
    #[inline]
    fn cast(&self, a: &HalfSpace<R>, b: &B, spec: &CastSpec<R>) -> ShapeCast<R> {
        plane_cast(self, a, b, spec)
    }

    #[inline]
    fn visit<V: PairVisitor<R>>(&self, a: &HalfSpace<R>, b: &B, visitor: V) -> V::Output {
        visitor.half_space(a, b, true)
    }
}

/// Two half-spaces: unbounded overlap in general, no distance or depth to
/// report; every query gives [`Status::Unsupported`], and the manifold is
/// empty.
pub(crate) struct TwoPlanes;

impl<R: Real> PairRoutine<R, HalfSpace<R>, HalfSpace<R>> for TwoPlanes {
    const CLOSED_FORM: bool = true;

    fn distance(
        &self,
        _: &HalfSpace<R>,
        _: &Side<R>,
        _: &HalfSpace<R>,
        _: &Side<R>,
        _: Method,
    ) -> Proximity<R> {
        Proximity::failed(Status::Unsupported, Algorithm::Analytic)
    }
    fn penetration(
        &self,
        _: &HalfSpace<R>,
        _: &Side<R>,
        _: &HalfSpace<R>,
        _: &Side<R>,
        _: Method,
    ) -> Proximity<R> {
        Proximity::failed(Status::Unsupported, Algorithm::Analytic)
    }
    fn intersect(
        &self,
        _: &HalfSpace<R>,
        _: &Side<R>,
        _: &HalfSpace<R>,
        _: &Side<R>,
        _: Method,
    ) -> Overlap {
        Overlap {
            intersecting: false,
            algorithm: Algorithm::Analytic,
            status: Status::Unsupported,
            iterations: 0,
        }
    }
    fn manifold(
        &self,
        _: &HalfSpace<R>,
        _: &Side<R>,
        _: &HalfSpace<R>,
        _: &Side<R>,
        _: &Settings<R>,
        _: Option<&mut GjkCache<R>>,
    ) -> Manifold<R> {
        Manifold::new()
    }
    #[inline]
    fn cast(&self, _: &HalfSpace<R>, _: &HalfSpace<R>, _: &CastSpec<R>) -> ShapeCast<R> {
        planes_cast()
    }

    fn visit<V: PairVisitor<R>>(
        &self,
        a: &HalfSpace<R>,
        b: &HalfSpace<R>,
        visitor: V,
    ) -> V::Output {
        visitor.half_spaces(a, b)
    }
}
