//! mink-mpr's core API, called without std or alloc, in `f32` and `f64`:
//! `intersect` and `penetration` (with the default settings, and
//! `penetration_with` with explicit `MprSettings`: more re-seeding passes
//! and certification steps) on a box against a sphere (inflated: GJK on the
//! cores first) and a box against a turned box (MPR on the shapes
//! themselves), each through a `mink_support::Pair`.

use core::hint::black_box;
use mink_mpr::{intersect, penetration, penetration_with, MprSettings, MAX_CERTIFY_STEPS};
use mink_support::{Cuboid, Iso3, Pair, Quat, Real, Sphere, Support, Vec3};

/// Calls mink-mpr's core API in both scalars.
pub fn exercise() {
    queries::<f32>();
    queries::<f64>();
}

/// A box against a sphere and against a tilted box, for the scalar `R`.
fn queries<R: Real>() {
    let cuboid = Cuboid::new(black_box(Vec3::splat(R::ONE)));
    let sphere = Sphere::new(black_box(R::HALF));
    let (Ok(a), Ok(ball)) = (cuboid, sphere) else {
        return;
    };
    let pose_a = black_box(Iso3::IDENTITY);
    let pose_b = Iso3::from_translation(black_box(Vec3::new(R::lit(1.3), R::ZERO, R::ZERO)));
    pair(&a, &pose_a, &ball, &pose_b);

    let q = Quat::from_axis_angle(Vec3::Z, black_box(R::HALF));
    let t = black_box(Vec3::new(R::lit(1.5), R::HALF, R::ZERO));
    if let Ok(tilted) = Iso3::from_quat(t, q) {
        pair(&a, &pose_a, &a, &tilted);
    }
}

/// Both queries, and penetration with non-default settings, on one pair.
fn pair<R: Real, A: Support<R>, B: Support<R>>(a: &A, pose_a: &Iso3<R>, b: &B, pose_b: &Iso3<R>) {
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    black_box(intersect(&mut pair));
    let hit = penetration(&mut pair, pose_a);
    black_box((hit.is_overlapping(), hit.signed_distance()));
    black_box(hit);
    let settings = MprSettings {
        reseed_passes: black_box(2),
        certify_steps: black_box(MAX_CERTIFY_STEPS),
        ..MprSettings::default()
    };
    black_box(penetration_with(&mut pair, pose_a, &settings));
}
