//! The one table that picks the algorithm of every shape pair, and the
//! pair matrix that applies it.
//!
//! [`pair_algorithm!`] maps a pair of [`Shape`] variants to an algorithm
//! type at compile time; the matrix, generated from the one shape list
//! (`shape_list!`), matches both shapes once and calls that algorithm on the
//! concrete types, so every pair is its own monomorphized code. A mirrored
//! pair is the same routine with A and B swapped ([`Mirrored`]).

use super::analytic::{SphereBox, SweptCores};
use super::generic::Generic;
use super::half_space::{PlaneConvex, TwoPlanes};
use super::{Method, Overlap, Proximity, Side};
use crate::shape::Shape;
use mink_support::{Real, Support};

/// The algorithm table: which routine answers each pair of variants. The
/// first matching line wins; everything not listed is [`Generic`] (GJK for
/// distance, MPR for penetration, GJK+EPA on request).
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
    (HalfSpace, HalfSpace) => {
        TwoPlanes
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

/// A routine that answers the three queries for shapes of types `A`, `B`.
pub(crate) trait PairAlgorithm<R: Real, A, B> {
    /// Signed distance (see [`crate::query::distance`]).
    fn distance(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Proximity<R>;
    /// Penetration (see [`crate::query::penetration`]).
    fn penetration(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Proximity<R>;
    /// Overlap (see [`crate::query::intersect`]).
    fn intersect(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Overlap;
}

/// The routine `T` written for `(B, A)`, run on `(A, B)`: the arguments
/// swapped and the answer mirrored (normal flipped, witnesses exchanged).
pub(crate) struct Mirrored<T>(pub T);

impl<R: Real, A, B, T: PairAlgorithm<R, B, A>> PairAlgorithm<R, A, B> for Mirrored<T> {
    #[inline(always)]
    fn distance(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Proximity<R> {
        self.0.distance(b, sb, a, sa, m).mirrored()
    }
    #[inline(always)]
    fn penetration(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Proximity<R> {
        self.0.penetration(b, sb, a, sa, m).mirrored()
    }
    #[inline(always)]
    fn intersect(&self, a: &A, sa: &Side<R>, b: &B, sb: &Side<R>, m: Method) -> Overlap {
        self.0.intersect(b, sb, a, sa, m)
    }
}

/// One of the three queries, run by the matrix on the pair's routine.
pub(crate) trait PairQuery<R: Real> {
    /// What the query returns.
    type Output;
    /// Runs the query with routine `algo` on the concrete shapes.
    fn run<A, B, T: PairAlgorithm<R, A, B>>(self, algo: &T, a: &A, b: &B) -> Self::Output;
}

macro_rules! define_query {
    ($name:ident, $method:ident, $out:ty) => {
        /// The matrix's call of [`PairAlgorithm`]'s method of the same name.
        pub(crate) struct $name<R> {
            pub sa: Side<R>,
            pub sb: Side<R>,
            pub method: Method,
        }

        impl<R: Real> PairQuery<R> for $name<R> {
            type Output = $out;
            #[inline(always)]
            fn run<A, B, T: PairAlgorithm<R, A, B>>(self, algo: &T, a: &A, b: &B) -> $out {
                algo.$method(a, &self.sa, b, &self.sb, self.method)
            }
        }
    };
}

define_query!(DistanceQuery, distance, Proximity<R>);
define_query!(PenetrationQuery, penetration, Proximity<R>);
define_query!(IntersectQuery, intersect, Overlap);

/// Expands the shape list into [`run_pair`]: a match on A's variant, then
/// on B's, each arm calling the routine [`pair_algorithm!`] names. The list
/// is passed along as one token tree so the inner match can repeat it.
macro_rules! define_query_matrix {
    ($( $(#[$doc:meta])* $variant:ident($ty:ty), )*) => {
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
