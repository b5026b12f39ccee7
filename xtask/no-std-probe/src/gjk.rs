//! mink-gjk's core API, called without std or alloc, in `f32` and `f64`, on
//! a box and a capsule (a `mink_support::Pair`): GJK distance with the
//! default settings, with explicit ones (Nesterov, margin stop) and
//! warm-started from a per-pair `GjkCache`; the boolean `intersect`; and EPA
//! penetration, both with its own stack polytopes (`penetration`) and in a
//! caller's fixed-capacity `Polytope` (`penetration_with`, then `epa` from
//! the cached simplex).

use core::hint::black_box;
use mink_gjk::{
    distance, distance_with, epa, gjk, intersect, penetration, penetration_with, GjkCache,
    GjkSettings, Polytope, Stop, Variant,
};
use mink_support::{Capsule, Cuboid, Iso3, Pair, Real, Vec3};

/// Vertex capacity of the caller's EPA polytope: small, as on a small stack.
const EPA_VERTICES: usize = 32;

/// Face capacity that goes with [`EPA_VERTICES`] (a closed triangulated
/// polytope of `V` vertices has `2 V - 4` faces).
const EPA_FACES: usize = 2 * EPA_VERTICES - 4;

/// Calls mink-gjk's core API in both scalars.
pub fn exercise() {
    queries::<f32>();
    queries::<f64>();
}

/// Distance and intersection of a box and a capsule apart, then
/// penetration of the two overlapping, for the scalar `R`.
fn queries<R: Real>() {
    let cuboid = Cuboid::new(black_box(Vec3::new(R::ONE, R::HALF, R::ONE)));
    let capsule = Capsule::new(black_box(R::HALF), black_box(R::ONE));
    let (Ok(a), Ok(b)) = (cuboid, capsule) else {
        return;
    };
    let pose_a = black_box(Iso3::IDENTITY);

    // Apart: the capsule 3 m along x.
    let apart = Iso3::from_translation(black_box(Vec3::new(R::lit(3.0), R::ZERO, R::ZERO)));
    let mut pair = Pair::new(&a, &pose_a, &b, &apart);
    black_box(distance(&mut pair, &pose_a));
    black_box(intersect(&mut pair));
    let settings = GjkSettings::default()
        .with_variant(Variant::Nesterov)
        .with_stop(Stop::Margin(black_box(R::HALF)));
    black_box(distance_with(&mut pair, &pose_a, &settings));
    let mut cache = GjkCache::new();
    black_box(gjk(&mut pair, &pose_a, &GjkSettings::default(), &mut cache));
    // The same pair again, warm-started from the cache's simplex.
    black_box(gjk(&mut pair, &pose_a, &GjkSettings::default(), &mut cache));
    black_box(cache.direction());

    // Overlapping: the capsule sunk into the box's top face.
    let sunk = Iso3::from_translation(black_box(Vec3::new(R::ZERO, R::ZERO, R::lit(1.25))));
    let mut pair = Pair::new(&a, &pose_a, &b, &sunk);
    black_box(intersect(&mut pair));
    black_box(penetration(&mut pair, &pose_a));
    let mut poly: Polytope<R, EPA_VERTICES, EPA_FACES> = Polytope::new();
    let mut cache = GjkCache::new();
    let settings = GjkSettings::default();
    black_box(penetration_with(
        &mut pair, &pose_a, &settings, &mut cache, &mut poly,
    ));
    black_box(epa(&mut pair, &pose_a, cache.simplex(), &mut poly));
    black_box((poly.vertex_count(), poly.face_count()));
}
