//! The Minkowski pair types against independent computations, for every
//! ordered pair of shape kinds, in f32 and f64:
//! - `Pair::support` equals the difference of the two shapes' supports
//!   computed separately in the world frame and brought into A's frame, and
//!   its projection equals the brute-force maximum over both shapes' core
//!   samples;
//! - a `Pair` with the identity relative pose agrees exactly with the
//!   `IdentityPair` of the same shapes;
//! - inflation and interior point are those of the two shapes.

use crate::support_common;

use crate::support_common::{for_each_shape_n, fp_tol, max_dot, Reference, Visitor, V};
use mink_support::{IdentityPair, Iso3, Pair, Real, Support, Vec3};
use mink_testkit::{for_each_real, Rng};

/// Directions per ordered pair of shapes.
const DIRECTIONS: usize = 100;

/// The support of `shape` at `pose` along the world direction `dir`, in the
/// world frame, computed with the shape alone.
fn world_support<R: Real, S: Support<R>>(shape: &S, pose: &Iso3<R>, dir: V) -> V {
    let pose64: Iso3<f64> = pose.cast();
    let local = pose64.inverse_transform_vector(dir);
    let mut hint = S::Hint::default();
    pose64.transform_point(shape.support(local.cast(), &mut hint).cast())
}

struct Outer {
    rng: Rng,
    pairs: usize,
}

struct Inner<'a, R: Real, A: Support<R>> {
    a: &'a A,
    ra: &'a Reference,
    rng: &'a mut Rng,
    pairs: &'a mut usize,
    _r: core::marker::PhantomData<R>,
}

impl<R: Real> Visitor<R> for Outer {
    fn visit<A: Support<R>>(&mut self, a: &A, ra: &Reference) {
        let mut inner = Inner {
            a,
            ra,
            rng: &mut self.rng,
            pairs: &mut self.pairs,
            _r: core::marker::PhantomData,
        };
        for_each_shape_n::<R, _>(&mut Rng::new(0xBA1F_0002), 1, &mut inner);
    }
}

impl<R: Real, A: Support<R>> Visitor<R> for Inner<'_, R, A> {
    fn visit<B: Support<R>>(&mut self, b: &B, rb: &Reference) {
        let (a, ra) = (self.a, self.ra);
        let name = format!("{} ⊖ {}", ra.name, rb.name);
        let pose_a: Iso3<R> = self.rng.pose(2.0);
        let pose_b: Iso3<R> = self.rng.pose(2.0);
        let mut pair = Pair::new(a, &pose_a, b, &pose_b);
        let pose_ab: Iso3<f64> = pair.pose_ab.cast();
        let pa64: Iso3<f64> = pose_a.cast();
        // B's core samples in A's frame, through the world (not pose_ab).
        let pb64: Iso3<f64> = pose_b.cast();
        let b_in_a: Vec<V> = rb
            .core
            .iter()
            .map(|p| pa64.inverse_transform_point(pb64.transform_point(*p)))
            .collect();
        let size = ra.size + rb.size + 4.0;
        let tol = fp_tol::<R>(size);
        assert_eq!(pair.inflation(), a.inflation() + b.inflation(), "{name}");
        for _ in 0..DIRECTIONS {
            let d: Vec3<R> = self.rng.direction();
            let s = pair.support(d);
            assert_eq!(s.w, s.a - s.b, "{name}: w is not a - b");
            let d64 = d.cast::<f64>();
            let unit = d64 / d64.norm();
            // Independent: each shape's world support, mapped into A's frame.
            let dw = pa64.transform_vector(unit);
            let a_w = pa64.inverse_transform_point(world_support(a, &pose_a, dw));
            let b_w = pa64.inverse_transform_point(world_support(b, &pose_b, -dw));
            let (got_a, got_b) = (s.a.cast::<f64>(), s.b.cast::<f64>());
            assert!(
                (unit.dot(got_a) - unit.dot(a_w)).abs() <= tol,
                "{name}: witness a {got_a:?} vs {a_w:?}"
            );
            assert!(
                (unit.dot(got_b) - unit.dot(b_w)).abs() <= tol,
                "{name}: witness b {got_b:?} vs {b_w:?}"
            );
            let w = s.w.cast::<f64>();
            assert!(
                (unit.dot(w) - unit.dot(a_w - b_w)).abs() <= 2.0 * tol,
                "{name}: w {w:?} vs {:?}",
                a_w - b_w
            );
            // Brute force: h_{A⊖B}(d) = h_A(d) + h_B(-d), over core samples.
            let best = max_dot(&ra.core, unit) + max_dot(&b_in_a, -unit);
            let value = unit.dot(w);
            assert!(
                value >= best - 2.0 * tol,
                "{name}: {value} below brute force {best}"
            );
            assert!(
                value <= best + ra.core_spacing + rb.core_spacing + 2.0 * tol,
                "{name}: {value} above brute force {best}"
            );
            // B's witness is on B: map it back into B's frame and compare
            // with B's own support there.
            let b_local = pose_ab.inverse_transform_point(got_b);
            assert!(
                (pose_ab.inverse_transform_vector(-unit).dot(b_local)
                    - max_dot(&rb.core, pose_ab.inverse_transform_vector(-unit)))
                .abs()
                    <= rb.core_spacing + 2.0 * tol,
                "{name}: witness b off B's extreme"
            );
        }
        // Interior point: A's minus B's (mapped into A's frame).
        let ip = pair.interior_point();
        let want = a.interior_point().cast::<f64>()
            - pose_ab.transform_point(b.interior_point().cast::<f64>());
        assert!(
            (ip.w.cast::<f64>() - want).norm() <= 2.0 * tol,
            "{name}: interior point"
        );

        // Identity relative pose: Pair and IdentityPair agree exactly.
        let mut general = Pair::with_relative_pose(a, b, Iso3::IDENTITY);
        let mut identity = IdentityPair::identity(a, b);
        for _ in 0..DIRECTIONS {
            let d: Vec3<R> = self.rng.direction();
            let (g, i) = (general.support(d), identity.support(d));
            assert_eq!(g, i, "{name}: Pair at identity vs IdentityPair along {d:?}");
        }
        assert_eq!(
            general.interior_point(),
            identity.interior_point(),
            "{name}: interior points"
        );
        *self.pairs += 1;
    }
}

fn pair_support_matches_independent_supports<R: Real>() {
    let mut outer = Outer {
        rng: Rng::new(0xBA1F_0001),
        pairs: 0,
    };
    for_each_shape_n::<R, _>(&mut Rng::new(0xBA1F_0003), 1, &mut outer);
    // Every ordered pair of shapes (the point and one of each kind).
    let shapes = support_common::shape_count(1);
    assert_eq!(outer.pairs, shapes * shapes);
}
for_each_real!(
    pair_support_matches_independent_supports,
    pair_support_matches_independent_supports
);
