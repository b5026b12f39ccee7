//! The table that names the routine of every shape pair, the pair matrix
//! that applies it, and the query kinds the matrix runs.
//!
//! `pair_algorithm!` maps a pair of [`Shape`] variants to a routine type
//! at compile time; [`run_pair`], generated from the one shape list
//! (`shape_list!`), matches both shapes once and runs the query with that
//! routine on the concrete types, so every pair is its own monomorphized
//! code.

use super::{Mirrored, PairRoutine, Side};
use crate::cast::{CastSpec, ShapeCast};
use crate::contact::{BoxBox, Manifold, PlaneBox, Settings};
use crate::query::analytic::{SphereBox, SweptCores};
use crate::query::generic::Generic;
use crate::query::half_space::{PlaneConvex, TwoPlanes};
use crate::query::{Algorithm, Method, Overlap, Proximity, Status};
use crate::shape::Shape;
use crate::PairVisitor;
use mink_gjk::GjkCache;
use mink_support::{Real, Support};

/// The routine table: which routine answers each pair of variants. The
/// first matching line wins; everything not listed is [`Generic`] (GJK for
/// distance, MPR for penetration, GJK+EPA on request, the support-set
/// manifold).
macro_rules! pair_algorithm {
    (Sphere, Sphere) => {
        SweptCores
    };
    (Sphere, Capsule) => {
        SweptCores
    };
    (Capsule, Sphere) => {
        SweptCores
    };
    (Capsule, Capsule) => {
        SweptCores
    };
    (Sphere, Cuboid) => {
        SphereBox
    };
    (Cuboid, Sphere) => {
        Mirrored(SphereBox)
    };
    (Cuboid, Cuboid) => {
        BoxBox
    };
    (HalfSpace, HalfSpace) => {
        TwoPlanes
    };
    (HalfSpace, Cuboid) => {
        PlaneBox
    };
    (Cuboid, HalfSpace) => {
        Mirrored(PlaneBox)
    };
    (HalfSpace, $b:ident) => {
        PlaneConvex
    };
    ($a:ident, HalfSpace) => {
        Mirrored(PlaneConvex)
    };
    ($a:ident, $b:ident) => {
        Generic
    };
}

/// One query kind, run by the matrix with the pair's routine.
pub(crate) trait PairQuery<R: Real> {
    /// What the query returns.
    type Output;
    /// Runs the query with routine `routine` on the concrete shapes.
    fn run<A, B, T: PairRoutine<R, A, B>>(self, routine: &T, a: &A, b: &B) -> Self::Output;
}

/// Signed distance ([`PairRoutine::distance`]).
pub(crate) struct DistanceQuery<R> {
    pub sa: Side<R>,
    pub sb: Side<R>,
    pub method: Method,
}

impl<R: Real> PairQuery<R> for DistanceQuery<R> {
    type Output = Proximity<R>;
    #[inline(always)]
    fn run<A, B, T: PairRoutine<R, A, B>>(self, routine: &T, a: &A, b: &B) -> Proximity<R> {
        routine.distance(a, &self.sa, b, &self.sb, self.method)
    }
}

/// Overlap ([`PairRoutine::intersect`]).
pub(crate) struct IntersectQuery<R> {
    pub sa: Side<R>,
    pub sb: Side<R>,
    pub method: Method,
}

impl<R: Real> PairQuery<R> for IntersectQuery<R> {
    type Output = Overlap;
    #[inline(always)]
    fn run<A, B, T: PairRoutine<R, A, B>>(self, routine: &T, a: &A, b: &B) -> Overlap {
        routine.intersect(a, &self.sa, b, &self.sb, self.method)
    }
}

/// Penetration, certified ([`certified`]) when `certify` is set, else the
/// routine's answer alone ([`PairRoutine::penetration`]).
pub(crate) struct PenetrationQuery<R> {
    pub sa: Side<R>,
    pub sb: Side<R>,
    pub method: Method,
    pub certify: bool,
}

impl<R: Real> PairQuery<R> for PenetrationQuery<R> {
    type Output = Proximity<R>;
    #[inline(always)]
    fn run<A, B, T: PairRoutine<R, A, B>>(self, routine: &T, a: &A, b: &B) -> Proximity<R> {
        if self.certify {
            certified(routine, a, &self.sa, b, &self.sb, self.method)
        } else {
            routine.penetration(a, &self.sa, b, &self.sb, self.method)
        }
    }
}

/// The routine's penetration with `method`, certified when that is
/// [`Method::Auto`] and the routine answered by MPR without proving its
/// depth minimal ([`Status::Unverified`], or [`Status::IterationLimit`]
/// on an overlap): GJK+EPA runs too, and its converged answer replaces
/// MPR's when shallower (both are overlaps along their normals, so the
/// shallower is nearer the penetration depth); `iterations` counts both.
pub(crate) fn certified<R, A, B, T>(
    routine: &T,
    a: &A,
    sa: &Side<R>,
    b: &B,
    sb: &Side<R>,
    method: Method,
) -> Proximity<R>
where
    R: Real,
    T: PairRoutine<R, A, B>,
{
    let first = routine.penetration(a, sa, b, sb, method);
    let uncertified = matches!(first.status, Status::Unverified | Status::IterationLimit);
    if method != Method::Auto
        || first.algorithm != Algorithm::Mpr
        || !uncertified
        || !(first.distance < R::ZERO)
    {
        return first;
    }
    let exact = routine.penetration(a, sa, b, sb, Method::Epa);
    let iterations = first.iterations.saturating_add(exact.iterations);
    let shallower = exact.status == Status::Converged
        && exact.distance < R::ZERO
        && exact.distance >= first.distance;
    let best = if shallower { exact } else { first };
    Proximity { iterations, ..best }
}

/// Contact manifold ([`PairRoutine::manifold`]).
pub(crate) struct ManifoldQuery<'c, R> {
    pub sa: Side<R>,
    pub sb: Side<R>,
    pub settings: Settings<R>,
    pub cache: Option<&'c mut GjkCache<R>>,
}

impl<R: Real> PairQuery<R> for ManifoldQuery<'_, R> {
    type Output = Manifold<R>;
    #[inline(always)]
    fn run<A, B, T: PairRoutine<R, A, B>>(self, routine: &T, a: &A, b: &B) -> Manifold<R> {
        routine.manifold(a, &self.sa, b, &self.sb, &self.settings, self.cache)
    }
}

/// Shape cast ([`PairRoutine::cast`]).
pub(crate) struct CastQuery<R>(pub CastSpec<R>);

impl<R: Real> PairQuery<R> for CastQuery<R> {
    type Output = ShapeCast<R>;
    #[inline(always)]
    fn run<A, B, T: PairRoutine<R, A, B>>(self, routine: &T, a: &A, b: &B) -> ShapeCast<R> {
        routine.cast(a, b, &self.0)
    }
}

/// The user's visitor ([`PairRoutine::visit`]).
pub(crate) struct VisitQuery<V>(pub V);

impl<R: Real, V: PairVisitor<R>> PairQuery<R> for VisitQuery<V> {
    type Output = V::Output;
    #[inline(always)]
    fn run<A, B, T: PairRoutine<R, A, B>>(self, routine: &T, a: &A, b: &B) -> V::Output {
        routine.visit(a, b, self.0)
    }
}

/// Expands the shape list into [`run_pair`]: a match on A's variant, then
/// on B's, each arm calling the routine `pair_algorithm!` names. The list
/// is passed along as one token tree so the inner match can repeat it.
macro_rules! define_query_matrix {
    ($( $(#[$doc:meta])* $variant:ident($ty:ty) = $name:literal, )*) => {
        define_query_matrix!(@outer
            [$( $variant, )* Custom, HalfSpace,]
            $( $variant, )* Custom, HalfSpace,
        );
    };
    (@outer $all:tt $( $va:ident, )*) => {
        /// Resolves the pair once and runs `query` with the routine the
        /// table names for it, on the concrete shape types.
        pub(crate) fn run_pair<'a, R, U, Q>(
            a: &Shape<'a, R, U>,
            b: &Shape<'a, R, U>,
            query: Q,
        ) -> Q::Output
        where
            R: Real,
            U: Support<R>,
            Q: PairQuery<R>,
        {
            #[cfg(test)]
            resolutions::count();
            match a {
                $( Shape::$va(a) => define_query_matrix!(@inner $va, a, b, query, $all), )*
            }
        }
    };
    (@inner $va:ident, $a:ident, $b:ident, $query:ident, [$( $vb:ident, )*]) => {
        match $b {
            $( Shape::$vb(b) => $query.run(&pair_algorithm!($va, $vb), $a, b), )*
        }
    };
}

crate::shape_list!(define_query_matrix);

/// How many pairs this thread resolved through [`run_pair`]: the tests'
/// proof that every front door resolves a pair once.
#[cfg(test)]
pub(crate) mod resolutions {
    use core::cell::Cell;

    std::thread_local! {
        static COUNT: Cell<usize> = const { Cell::new(0) };
    }

    /// Counts one resolution.
    pub fn count() {
        COUNT.with(|c| c.set(c.get() + 1));
    }

    /// The resolutions `f` made on this thread.
    pub fn made_by<T>(f: impl FnOnce() -> T) -> (T, usize) {
        let before = COUNT.with(Cell::get);
        let out = f();
        (out, COUNT.with(Cell::get) - before)
    }
}
