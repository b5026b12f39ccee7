//! Every shape's support point against brute force over dense samples of its
//! surface (and over its vertices for polytopes), in f32 and f64: the point
//! lies in the shape, and its projection on the direction equals the sampled
//! maximum within the sampling's spacing. Awkward directions (zero, tiny,
//! huge, non-finite) must still give a finite point of the shape.

use crate::support_common;

use crate::support_common::{for_each_shape, max_dot, Reference, Visitor, V};
use mink_support::{Real, Support, Vec3};
use mink_testkit::{for_each_real, hostile_directions, Rng};

/// Random directions per shape instance.
const DIRECTIONS: usize = 1500;

struct SupportCheck {
    rng: Rng,
    shapes: usize,
    directions: usize,
}

impl<R: Real> Visitor<R> for SupportCheck {
    fn visit<S: Support<R>>(&mut self, shape: &S, r: &Reference) {
        let tol = r.tol::<R>();
        let name = &r.name;
        assert_eq!(shape.inflation().to_f64(), r.inflation, "{name}: inflation");
        // One hint for the whole sequence, as GJK keeps it.
        let mut hint = S::Hint::default();
        for _ in 0..DIRECTIONS {
            let dir: Vec3<R> = self.rng.direction();
            let core = shape.support(dir, &mut hint);
            assert!(core.is_finite(), "{name}: non-finite support for {dir:?}");
            let d = dir.cast::<f64>();
            let unit = d / d.norm();
            let p = core.cast::<f64>() + unit * r.inflation;
            let out = (r.outside)(p);
            assert!(
                out <= tol,
                "{name}: support {p:?} outside by {out} for {dir:?}"
            );
            let value = unit.dot(p);
            let best = r.max_along(unit);
            assert!(
                value >= best - tol,
                "{name}: support {value} below the sampled maximum {best} for {dir:?}"
            );
            assert!(
                value <= best + r.spacing() + tol,
                "{name}: support {value} above the sampled maximum {best} + spacing {} for {dir:?}",
                r.spacing()
            );
            if let Some(vertices) = &r.vertices {
                let exact = max_dot(vertices, unit);
                let got = unit.dot(core.cast());
                assert!(
                    (got - exact).abs() <= tol,
                    "{name}: core support {got} vs best vertex {exact} for {dir:?}"
                );
            }
            self.directions += 1;
        }
        for dir in hostile_directions::<R>() {
            for mut h in [hint, S::Hint::default()] {
                let core = shape.support(dir, &mut h);
                assert!(core.is_finite(), "{name}: non-finite support for {dir:?}");
                let out = (r.outside)(core.cast());
                assert!(out <= tol, "{name}: support {core:?} outside for {dir:?}");
            }
        }
        let inside = shape.interior_point().cast::<f64>();
        let depth = -(r.outside)(inside);
        if r.flat {
            assert!(
                depth >= -tol,
                "{name}: interior point {inside:?} off the shape"
            );
        } else {
            assert!(
                depth > tol,
                "{name}: interior point {inside:?} not strictly inside ({depth})"
            );
        }
        self.shapes += 1;
    }
}

fn support_matches_brute_force<R: Real>() {
    let mut check = SupportCheck {
        rng: Rng::new(0x5EED_0001),
        shapes: 0,
        directions: 0,
    };
    let mut shapes_rng = Rng::new(0x5EED_0002);
    for_each_shape::<R, _>(&mut shapes_rng, &mut check);
    // Every shape visited, every random direction checked.
    assert_eq!(
        check.shapes,
        support_common::shape_count(support_common::INSTANCES)
    );
    assert_eq!(check.directions, check.shapes * DIRECTIONS);
}
for_each_real!(support_matches_brute_force, support_matches_brute_force);

/// Scaling a direction by a positive factor must not change the support's
/// projection: checked for tiny factors (products near the subnormal range)
/// and huge ones (products near overflow), where only the direction, not the
/// shape, is extreme.
struct ScaleCheck {
    rng: Rng,
}

impl<R: Real> Visitor<R> for ScaleCheck {
    fn visit<S: Support<R>>(&mut self, shape: &S, r: &Reference) {
        let tol = r.tol::<R>();
        let name = &r.name;
        let tiny = R::min_positive_value() * R::lit(1e6);
        let huge = R::MAX * R::lit(1e-6);
        for _ in 0..200 {
            let unit: Vec3<R> = self.rng.unit_vec();
            let reference = {
                let mut h = S::Hint::default();
                shape.support(unit, &mut h).cast::<f64>()
            };
            let u = unit.cast::<f64>();
            for scale in [tiny, huge] {
                let mut h = S::Hint::default();
                let p = shape.support(unit * scale, &mut h);
                assert!(p.is_finite(), "{name}: non-finite support at scale {scale}");
                let got = u.dot(p.cast::<f64>());
                let want = u.dot(reference);
                assert!(
                    (got - want).abs() <= tol,
                    "{name}: support along {unit:?} x {scale} projects to {got}, unscaled {want}"
                );
            }
        }
    }
}

fn support_is_scale_invariant<R: Real>() {
    let mut check = ScaleCheck {
        rng: Rng::new(0x5EED_0003),
    };
    for_each_shape::<R, _>(&mut Rng::new(0x5EED_0004), &mut check);
}
for_each_real!(support_is_scale_invariant, support_is_scale_invariant);

/// The reference's own sanity: its samples lie on the shape it describes
/// (otherwise the brute force above would compare against the wrong set).
struct ReferenceCheck;

impl<R: Real> Visitor<R> for ReferenceCheck {
    fn visit<S: Support<R>>(&mut self, _shape: &S, r: &Reference) {
        let tol = 1e-9 * r.size.max(1.0);
        for &c in r.core.iter().step_by(7) {
            for &b in r.ball.iter().step_by(13) {
                let p: V = c + b;
                // A core sample plus a ball sample is in the shape, and core
                // samples on the surface of an uninflated solid are on its
                // boundary.
                assert!((r.outside)(p) <= tol, "{}: sample {p:?} outside", r.name);
            }
        }
    }
}

fn references_are_consistent<R: Real>() {
    for_each_shape::<R, _>(&mut Rng::new(0x5EED_0005), &mut ReferenceCheck);
}
for_each_real!(references_are_consistent, references_are_consistent);
