//! Every shape's world AABB at random poses against the box of its dense
//! surface samples mapped by the same pose: it must contain every sample and
//! be no larger than the sampling's spacing allows, in f32 and f64. The local
//! AABB is the world AABB at the identity.

use crate::support_common;

use crate::support_common::{for_each_shape, Reference, Visitor, V};
use mink_support::{Aabb, Iso3, Real, Support};
use mink_testkit::{for_each_real, Rng};

/// Random poses per shape instance.
const POSES: usize = 200;

/// The box of the whole shape's samples at `pose`: the core samples' box
/// plus the ball samples' box (the box of a Minkowski sum is the sum of the
/// boxes).
fn sampled_box(r: &Reference, pose: &Iso3<f64>) -> (V, V) {
    let mut lo = V::splat(f64::INFINITY);
    let mut hi = V::splat(f64::NEG_INFINITY);
    for &p in &r.core {
        let q = pose.transform_point(p);
        lo = lo.min(q);
        hi = hi.max(q);
    }
    let mut blo = V::splat(f64::INFINITY);
    let mut bhi = V::splat(f64::NEG_INFINITY);
    for &b in &r.ball {
        blo = blo.min(b);
        bhi = bhi.max(b);
    }
    (lo + blo, hi + bhi)
}

fn check_box<R: Real>(got: Aabb<R>, r: &Reference, pose: &Iso3<f64>, what: &str) {
    let name = &r.name;
    let size = r.size + pose.translation.max_abs();
    let tol = support_common::fp_tol::<R>(size);
    let (lo, hi) = sampled_box(r, pose);
    let (min, max) = (got.min.cast::<f64>(), got.max.cast::<f64>());
    assert!(
        min.is_finite() && max.is_finite(),
        "{name}: {what} not finite"
    );
    for i in 0..3 {
        let (gl, gh, sl, sh) = (min.get(i), max.get(i), lo.get(i), hi.get(i));
        // Contains every sample...
        assert!(
            gl <= sl + tol,
            "{name}: {what} min[{i}] {gl} above sample {sl}"
        );
        assert!(
            gh >= sh - tol,
            "{name}: {what} max[{i}] {gh} below sample {sh}"
        );
        // ...and is tight: no farther out than the samples' spacing.
        let slack = r.spacing() + tol;
        assert!(
            gl >= sl - slack,
            "{name}: {what} min[{i}] {gl} loose vs {sl}"
        );
        assert!(
            gh <= sh + slack,
            "{name}: {what} max[{i}] {gh} loose vs {sh}"
        );
    }
}

struct AabbCheck {
    rng: Rng,
    boxes: usize,
}

impl<R: Real> Visitor<R> for AabbCheck {
    fn visit<S: Support<R>>(&mut self, shape: &S, r: &Reference) {
        check_box(shape.local_aabb(), r, &Iso3::IDENTITY, "local AABB");
        for _ in 0..POSES {
            let pose: Iso3<R> = self.rng.pose(3.0);
            check_box(shape.world_aabb(&pose), r, &pose.cast(), "world AABB");
            self.boxes += 1;
        }
    }
}

fn world_aabb_matches_samples<R: Real>() {
    let mut check = AabbCheck {
        rng: Rng::new(0xAABB_0001),
        boxes: 0,
    };
    for_each_shape::<R, _>(&mut Rng::new(0xAABB_0002), &mut check);
    assert_eq!(
        check.boxes,
        support_common::shape_count(support_common::INSTANCES) * POSES
    );
}
for_each_real!(world_aabb_matches_samples, world_aabb_matches_samples);

/// A closed-form world AABB must agree with the trait's default (six
/// support queries along the world axes), which is exact for every convex
/// shape: a second, independent route to the same box.
struct DefaultAgreement {
    rng: Rng,
}

/// Wraps a shape and keeps only its support function and inflation, so the
/// trait's default `world_aabb` runs.
struct SupportOnly<'a, S>(&'a S);

impl<R: Real, S: Support<R>> Support<R> for SupportOnly<'_, S> {
    type Hint = S::Hint;
    fn support(&self, dir: mink_support::Vec3<R>, hint: &mut S::Hint) -> mink_support::Vec3<R> {
        self.0.support(dir, hint)
    }
    fn inflation(&self) -> R {
        self.0.inflation()
    }
}

impl<R: Real> Visitor<R> for DefaultAgreement {
    fn visit<S: Support<R>>(&mut self, shape: &S, r: &Reference) {
        for _ in 0..POSES {
            let pose: Iso3<R> = self.rng.pose(3.0);
            let tol = support_common::fp_tol::<R>(r.size + pose.translation.max_abs().to_f64());
            let fast = shape.world_aabb(&pose);
            let slow = SupportOnly(shape).world_aabb(&pose);
            let d = (fast.min - slow.min)
                .abs()
                .max((fast.max - slow.max).abs())
                .max_element()
                .to_f64();
            assert!(
                d <= tol,
                "{}: closed form {fast:?} vs default {slow:?}",
                r.name
            );
        }
    }
}

fn world_aabb_matches_default<R: Real>() {
    let mut check = DefaultAgreement {
        rng: Rng::new(0xAABB_0003),
    };
    for_each_shape::<R, _>(&mut Rng::new(0xAABB_0004), &mut check);
}
for_each_real!(world_aabb_matches_default, world_aabb_matches_default);
