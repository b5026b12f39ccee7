//! Every front door resolves its pair through the table once: the
//! resolutions are counted per call, on the pairs that take each kind of
//! routine (closed form, mirrored closed form, generic, certified MPR).

use super::table::resolutions::made_by;
use crate::collider::{collide, collide_cached, Collider};
use crate::contact::{contact_manifold, contact_manifold_cached, ContactParams};
use crate::query::{distance, intersect, penetration, Body, Method};
use crate::{dispatch_pair, PairVisitor, Shape};
use mink_gjk::GjkCache;
use mink_support::{
    Capsule, ConvexHull, Cuboid, Cylinder, HalfSpace, Iso3, Mat3, Real, Sphere, Support, Vec3,
};

/// A visitor that only says which method it was given.
struct Which;

impl PairVisitor<f64> for Which {
    type Output = &'static str;
    fn convex<A: Support<f64>, B: Support<f64>>(self, _: &A, _: &B) -> &'static str {
        "convex"
    }
    fn half_space<S: Support<f64>>(self, _: &HalfSpace<f64>, _: &S, a: bool) -> &'static str {
        if a {
            "plane first"
        } else {
            "plane second"
        }
    }
    fn half_spaces(self, _: &HalfSpace<f64>, _: &HalfSpace<f64>) -> &'static str {
        "planes"
    }
}

fn hull_points() -> [Vec3<f64>; 12] {
    let mut points = [Vec3::ZERO; 12];
    for (i, p) in points.iter_mut().enumerate() {
        let t = i as f64 * 2.399_963;
        let z = 1.0 - 2.0 * (i as f64 + 0.5) / 12.0;
        let r = (1.0 - z * z).sqrt();
        *p = Vec3::new(r * t.cos(), r * t.sin(), z) * 0.5;
    }
    points
}

#[test]
fn every_front_door_resolves_the_pair_once() {
    let hull = ConvexHull::from_points(&hull_points()).unwrap();
    let shapes: [Shape<'_, f64>; 6] = [
        Cuboid::new(Vec3::new(0.5, 0.4, 0.3)).unwrap().into(),
        Sphere::new(0.45).unwrap().into(),
        Capsule::new(0.25, 0.5).unwrap().into(),
        Cylinder::new(0.4, 0.5).unwrap().into(),
        Shape::Hull(hull.view()),
        HalfSpace::new(Vec3::Z, 0.0).unwrap().into(),
    ];
    let tilt = Mat3::from_axis_angle(Vec3::new(1.0, 2.0, 0.5).normalize_or(Vec3::X), 0.3);
    // Deep (centres 0.3 m apart) and shallow (0.85 m) overlaps.
    for gap in [0.3, 0.85] {
        let pose_b = Iso3::from_parts(tilt, Vec3::new(0.1, 0.05, gap));
        for a in &shapes {
            for b in &shapes {
                let (ba, bb) = (Body::new(a, Iso3::IDENTITY), Body::new(b, pose_b));
                let pair = (a.name(), b.name());
                for method in [Method::Auto, Method::Epa, Method::Mpr] {
                    assert_eq!(made_by(|| distance(&ba, &bb, method)).1, 1, "{pair:?}");
                    assert_eq!(made_by(|| penetration(&ba, &bb, method)).1, 1, "{pair:?}");
                    assert_eq!(made_by(|| intersect(&ba, &bb, method)).1, 1, "{pair:?}");
                }
                let params = ContactParams::new().with_margin(0.01);
                let (m, n) = made_by(|| contact_manifold(&ba, &bb, &params));
                assert_eq!(n, 1, "{pair:?}");
                let mut cache = GjkCache::default();
                let (cached, n) =
                    made_by(|| contact_manifold_cached(&ba, &bb, &params, &mut cache));
                assert_eq!(n, 1, "{pair:?}");
                assert_eq!(m.len(), cached.len(), "{pair:?}");
                let (ca, cb) = (Collider::Convex(*a), Collider::Convex(*b));
                let pose_a = Iso3::IDENTITY;
                let n = made_by(|| collide(&ca, &pose_a, &cb, &pose_b, &params, 4, |_| ())).1;
                assert_eq!(n, 1, "{pair:?}");
                let collided = made_by(|| {
                    collide_cached(&ca, &pose_a, &cb, &pose_b, &params, 4, &mut cache, |_| ())
                });
                assert_eq!(collided.1, 1, "{pair:?}");
                assert_eq!(made_by(|| dispatch_pair(a, b, Which)).1, 1, "{pair:?}");
            }
        }
    }
}

#[test]
fn mirrored_pairs_reach_the_visitor_in_the_callers_order() {
    let ball: Shape<'_, f64> = Sphere::new(0.5).unwrap().into();
    let cube: Shape<'_, f64> = Cuboid::new(Vec3::splat(0.5)).unwrap().into();
    let ground: Shape<'_, f64> = HalfSpace::new(Vec3::Z, 0.0).unwrap().into();
    assert_eq!(dispatch_pair(&ground, &cube, Which), "plane first");
    assert_eq!(dispatch_pair(&cube, &ground, Which), "plane second");
    assert_eq!(dispatch_pair(&ball, &ground, Which), "plane second");
    assert_eq!(dispatch_pair(&ground, &ground, Which), "planes");
    assert_eq!(dispatch_pair(&cube, &ball, Which), "convex");
}

/// Mirrored routines (box–sphere, box–plane) answer the swapped call with
/// the same contacts, normals negated; the box itself is not a closed
/// form's input on both sides, so this compares two code paths.
#[test]
fn a_mirrored_pair_is_the_swapped_pair_mirrored() {
    let cube: Shape<'_, f64> = Cuboid::new(Vec3::new(0.5, 0.4, 0.3)).unwrap().into();
    let ball: Shape<'_, f64> = Sphere::new(0.5).unwrap().into();
    let ground: Shape<'_, f64> = HalfSpace::new(Vec3::new(0.1, 0.0, 1.0), 0.2)
        .unwrap()
        .into();
    let tilt = Mat3::from_axis_angle(Vec3::Y, 0.2);
    let params = ContactParams::new().with_margin(0.02);
    for other in [&ball, &ground] {
        let a = Body::new(&cube, Iso3::from_parts(tilt, Vec3::new(0.0, 0.0, 0.4)));
        let b = Body::new(other, Iso3::from_translation(Vec3::new(0.3, 0.0, 0.0)));
        let ab = contact_manifold(&a, &b, &params);
        let ba = contact_manifold(&b, &a, &params);
        assert!(!ab.is_empty());
        assert_eq!(ab.len(), ba.len());
        for (p, q) in ab.as_slice().iter().zip(ba.as_slice()) {
            assert!((p.position - q.position).norm() < 1e-12);
            assert!((p.normal + q.normal).norm() < 1e-12);
            assert!((p.depth - q.depth).abs() < 1e-12);
        }
        let d_ab = penetration(&a, &b, Method::Auto);
        let d_ba = penetration(&b, &a, Method::Auto);
        assert!((d_ab.distance - d_ba.distance).abs() < 1e-12);
        assert!((d_ab.normal + d_ba.normal).norm() < 1e-12);
        assert!(d_ab.distance < 0.0 && d_ab.distance.finite());
    }
}

/// The deep-penetration fallback (two convex shapes with fields) resolves
/// the pair once too, for its penetration and its manifold.
#[cfg(feature = "std")]
#[test]
fn the_deep_fallback_resolves_the_pair_once() {
    use mink_sdf::{OwnedSdf, SdfBody, SdfOptions, TriMesh};
    let half = Vec3::new(0.5, 0.4, 0.3);
    let cuboid = Cuboid::new(half).unwrap();
    let hull = ConvexHull::from_points(&hull_points()).unwrap();
    let cube_mesh = TriMesh::from_cuboid(&cuboid).unwrap();
    let hull_mesh = TriMesh::from_hull(&hull.view()).unwrap();
    let options = SdfOptions::new(16, 0.1);
    let cube_field = OwnedSdf::build(&cube_mesh, options).unwrap();
    let hull_field = OwnedSdf::build(&hull_mesh, options).unwrap();
    let cube_sdf = SdfBody::new(cube_mesh.view(), cube_field.view());
    let hull_sdf = SdfBody::new(hull_mesh.view(), hull_field.view());
    let cube: Shape<'_, f64> = cuboid.into();
    let blob: Shape<'_, f64> = Shape::Hull(hull.view());
    let pose_b = Iso3::from_translation(Vec3::new(0.05, 0.0, 0.2));
    let (ba, bb) = (Body::new(&blob, Iso3::IDENTITY), Body::new(&cube, pose_b));
    let deep = made_by(|| {
        crate::collider::deep::penetration(&ba, &hull_sdf, &bb, &cube_sdf, Method::Auto)
    });
    assert_eq!(deep.1, 1);
    assert!(deep.0.distance < 0.0);
    let (ca, cb) = (
        Collider::ConvexWithField(blob, hull_sdf),
        Collider::ConvexWithField(cube, cube_sdf),
    );
    let params = ContactParams::new();
    let (count, n) = made_by(|| collide(&ca, &Iso3::IDENTITY, &cb, &pose_b, &params, 4, |_| ()));
    assert_eq!(n, 1);
    assert!(count > 0);
}
