//! mink-support's core API, called without std or alloc: every shape's
//! support queries, the half-space query, Minkowski pairs, AABBs and poses.
//! (Borrowed hulls, `HullView` over `static` arrays, join here next.)

use core::hint::black_box;
use mink_support::{
    Aabb, Capsule, Cone, Cuboid, Cylinder, Ellipsoid, HalfSpace, IdentityPair, Iso3, Pair, Point,
    Quat, Real, Rounded, Segment, Sphere, Support, SupportSet, TerrainPrism, Triangle, Vec3,
};

/// Calls mink-support's core API for the scalar `R`.
pub fn exercise<R: Real>() {
    let pose = pose::<R>();
    let dir = black_box(Vec3::new(R::ONE, -R::HALF, R::TWO));

    queries(&Point, &pose, dir);
    if let Ok(s) = Sphere::new(black_box(R::HALF)) {
        queries(&s, &pose, dir);
    }
    let cuboid = Cuboid::new(black_box(Vec3::new(R::ONE, R::HALF, R::TWO)));
    if let Ok(c) = cuboid {
        queries(&c, &pose, dir);
        if let Ok(r) = Rounded::new(c, black_box(R::HALF)) {
            queries(&r, &pose, dir);
        }
    }
    let capsule = Capsule::new(black_box(R::HALF), black_box(R::ONE));
    if let Ok(c) = capsule {
        queries(&c, &pose, dir);
    }
    if let Ok(s) = Segment::new(black_box(Vec3::ZERO), black_box(Vec3::X)) {
        queries(&s, &pose, dir);
    }
    if let Ok(e) = Ellipsoid::new(black_box(Vec3::new(R::ONE, R::HALF, R::TWO))) {
        queries(&e, &pose, dir);
    }
    if let Ok(c) = Cylinder::new(black_box(R::HALF), black_box(R::ONE)) {
        queries(&c, &pose, dir);
    }
    if let Ok(c) = Cone::new(black_box(R::HALF), black_box(R::ONE)) {
        queries(&c, &pose, dir);
    }
    if let Ok(t) = Triangle::new(Vec3::ZERO, black_box(Vec3::X), black_box(Vec3::Y)) {
        queries(&t, &pose, dir);
    }
    let heights = black_box([R::ZERO, R::HALF, R::ONE, R::HALF]);
    if let Ok(cell) = TerrainPrism::cell(R::ZERO, R::ZERO, R::ONE, R::ONE, heights, -R::ONE) {
        for prism in &cell {
            queries(prism, &pose, dir);
        }
    }
    if let (Ok(ground), Ok(ball)) = (HalfSpace::new(Vec3::Z, R::ZERO), Sphere::new(R::HALF)) {
        black_box(ground.deepest_point(&ball, &pose));
        black_box(ground.signed_distance(black_box(Vec3::Y)));
    }

    if let (Ok(a), Ok(b)) = (cuboid, capsule) {
        pairs(&a, &b, &pose, dir);
    }
    aabbs::<R>(&pose);
}

/// A pose built through the validating path (translation and quaternion).
fn pose<R: Real>() -> Iso3<R> {
    let axis = black_box(Vec3::new(R::ZERO, R::ZERO, R::ONE));
    let q = Quat::from_axis_angle(axis, black_box(R::HALF));
    let t = black_box(Vec3::new(R::ONE, R::TWO, -R::ONE));
    let pose = Iso3::from_quat(t, q).unwrap_or(Iso3::IDENTITY);
    black_box(pose.inverse());
    black_box(pose.mul(&pose));
    black_box(pose.quat());
    pose
}

/// Every query of the `Support` trait on one shape.
fn queries<R: Real, S: Support<R>>(shape: &S, pose: &Iso3<R>, dir: Vec3<R>) {
    let mut hint = S::Hint::default();
    black_box(shape.support(dir, &mut hint));
    black_box(shape.support(-dir, &mut hint));
    black_box(shape.inflation());
    black_box(shape.interior_point());
    black_box(shape.local_aabb());
    black_box(shape.world_aabb(pose));
    let mut set = SupportSet::new();
    black_box(shape.support_set(dir, black_box(R::EPSILON), &mut set)).ok();
    black_box(set.points());
    black_box((S::POLYTOPE, S::STRICTLY_CONVEX));
}

/// The Minkowski difference of two shapes, general and identity poses.
fn pairs<R: Real, A: Support<R>, B: Support<R>>(a: &A, b: &B, pose: &Iso3<R>, dir: Vec3<R>) {
    let mut pair = Pair::new(a, &Iso3::IDENTITY, b, pose);
    black_box(pair.support(dir));
    black_box(pair.support_a(dir));
    black_box(pair.support_b(dir));
    black_box(pair.interior_point());
    black_box(pair.inflation());
    let mut same = IdentityPair::identity(a, b);
    black_box(same.support(dir));
}

/// AABB construction and tests.
fn aabbs<R: Real>(pose: &Iso3<R>) {
    let a = Aabb::from_center_half_extents(black_box(Vec3::ZERO), Vec3::splat(R::ONE));
    let b = a.transformed(pose).inflated(black_box(R::HALF));
    black_box(a.intersects(&b));
    black_box(a.merged(&b));
    black_box(Aabb::<R>::EMPTY.including(Vec3::X));
    black_box(b.contains_point(black_box(Vec3::Y)));
    black_box((b.center(), b.half_extents(), b.is_empty()));
}
