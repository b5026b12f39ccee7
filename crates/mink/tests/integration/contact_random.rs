//! Contact manifolds of random convex pairs, checked against the distance
//! and penetration queries: the manifold is empty exactly when the gap
//! exceeds the margin, the deepest point has the pair's depth, every
//! normal is unit, and every point lies on (within half its depth of)
//! both shapes, measured by the distance of a point probe to each. Then a
//! fuzz-style sweep over degenerate and hostile inputs: no panic, nothing
//! non-finite.

use mink::contact::{contact_manifold, contact_manifold_with, ContactParams, Patch};
use mink::query::{distance, Body, Method};
use mink::support::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Ellipsoid, HalfSpace, Iso3, Point, Real, Rounded,
    Sphere, Vec3,
};
use mink::Shape;
use mink_testkit::{for_each_real, Rng};

const CASES: usize = 1500;

/// Random shapes of every kind the manifold routes differently (hulls
/// borrow from `hulls`).
fn random_shape<'h, R: Real>(rng: &mut Rng, hulls: &'h [ConvexHull<R>]) -> Shape<'h, R> {
    let s = |rng: &mut Rng| rng.range::<R>(0.15, 0.6);
    match rng.below(9) {
        0 => Sphere::new(s(rng)).unwrap().into(),
        1 | 2 => Cuboid::new(Vec3::new(s(rng), s(rng), s(rng)))
            .unwrap()
            .into(),
        3 => Capsule::new(s(rng) * R::HALF, s(rng)).unwrap().into(),
        4 => Cylinder::new(s(rng), s(rng)).unwrap().into(),
        5 => Cone::new(s(rng), s(rng)).unwrap().into(),
        6 => Ellipsoid::new(Vec3::new(s(rng), s(rng), s(rng)))
            .unwrap()
            .into(),
        7 => Rounded::new(
            Cuboid::new(Vec3::new(s(rng), s(rng), s(rng))).unwrap(),
            s(rng) * R::lit(0.2),
        )
        .unwrap()
        .into(),
        _ => Shape::Hull(hulls[rng.below(hulls.len())].view()),
    }
}

fn hulls<R: Real>(rng: &mut Rng) -> Vec<ConvexHull<R>> {
    (0..6)
        .map(|i| {
            let n = [6, 8, 12, 20, 32, 48][i];
            ConvexHull::from_points(&rng.points_in_ball::<R>(n, 0.5)).unwrap()
        })
        .collect()
}

/// Signed distance of a world point to a body (negative inside).
fn point_distance<R: Real>(p: Vec3<R>, body: &Body<'_, '_, R>) -> R {
    let probe: Shape<'_, R> = Point.into();
    distance(
        &Body::new(&probe, Iso3::from_translation(p)),
        body,
        Method::Epa,
    )
    .distance
}

fn random_pairs<R: Real>() {
    let mut rng = Rng::new(0x3a1f);
    let hulls = hulls::<R>(&mut rng);
    // Tolerances: MPR's and EPA's depth agree to about 1e-4 of the size in
    // f32; the per-point surface check allows the patch's fitted planes.
    let depth_tol = R::lit(2e-3);
    let surface_tol = R::lit(5e-3);
    let mut hits = 0;
    let mut multi = 0;
    for case in 0..CASES {
        let sa = random_shape::<R>(&mut rng, &hulls);
        let sb = random_shape::<R>(&mut rng, &hulls);
        let pa: Iso3<R> = rng.pose(0.3);
        let pb: Iso3<R> = rng.pose(0.6);
        let margin: R = if rng.chance(0.5) {
            R::ZERO
        } else {
            rng.range(0.0, 0.1)
        };
        let (a, b) = (Body::new(&sa, pa), Body::new(&sb, pb));
        let params = ContactParams::new().with_margin(margin);
        let patch = if case % 5 == 0 {
            Patch::Perturb
        } else {
            Patch::Auto
        };
        let m = contact_manifold_with(&a, &b, &params, patch);
        let d = distance(&a, &b, Method::Auto);
        let what = || {
            format!("case {case}: {} vs {}, {patch:?}, margin {margin:?}, distance {d:?}, manifold {m:?}", sa.name(), sb.name())
        };
        // Empty exactly when the gap exceeds the margin (ties excepted).
        if d.distance > margin + depth_tol {
            assert!(m.is_empty(), "{}", what());
            continue;
        }
        if d.distance < margin - depth_tol {
            assert!(!m.is_empty(), "{}", what());
        }
        let Some(deepest) = m.deepest() else { continue };
        hits += 1;
        if m.len() > 1 {
            multi += 1;
        }
        // The deepest point has the pair's depth (minus the signed distance).
        assert!(
            (deepest.depth + d.distance).abs() < depth_tol,
            "deepest {:?}: {}",
            deepest.depth,
            what()
        );
        for c in m.as_slice() {
            assert!(
                (c.normal.norm() - R::ONE).abs() < R::lit(1e-4),
                "{}",
                what()
            );
            assert!(c.depth >= -margin - depth_tol, "{}", what());
            assert!(c.depth <= deepest.depth, "{}", what());
            // The midpoint is half the depth from each surface.
            let half = c.depth.abs() * R::HALF + surface_tol;
            let (da, db) = (
                point_distance(c.position, &a),
                point_distance(c.position, &b),
            );
            assert!(
                da.abs() <= half && db.abs() <= half,
                "point {c:?} at {da:?}, {db:?}: {}",
                what()
            );
        }
    }
    // The sample stays meaningful: a fair share touches, some with patches.
    assert!(hits > CASES / 5 && hits < CASES * 4 / 5, "{hits} contacts");
    assert!(multi > hits / 5, "{multi} of {hits} with several points");
}
for_each_real!(random_pairs_agree_with_the_queries, random_pairs);

/// Random shapes on a random plane: the points are the shape's own
/// deepest points, each as deep as its distance to the plane says.
fn random_on_plane<R: Real>() {
    let mut rng = Rng::new(0x77);
    let hulls = hulls::<R>(&mut rng);
    for case in 0..CASES {
        let shape = random_shape::<R>(&mut rng, &hulls);
        let plane_pose: Iso3<R> = rng.pose(0.2);
        let plane: Shape<'_, R> = HalfSpace::new(rng.unit_vec(), rng.range(-0.1, 0.1))
            .unwrap()
            .into();
        let pose: Iso3<R> = rng.pose(0.6);
        let margin: R = rng.range(0.0, 0.05);
        let (a, b) = (Body::new(&plane, plane_pose), Body::new(&shape, pose));
        let m = contact_manifold(&a, &b, &ContactParams::new().with_margin(margin));
        let d = distance(&a, &b, Method::Auto);
        assert_eq!(
            m.is_empty(),
            d.distance > margin,
            "case {case}: {d:?} {m:?}"
        );
        if let Some(deepest) = m.deepest() {
            let tol = R::lit(1e-4);
            assert!((deepest.depth + d.distance).abs() < tol, "case {case}");
            for c in m.as_slice() {
                assert!((c.normal - d.normal).norm() < tol);
                let half = c.depth.abs() * R::HALF + tol;
                assert!(
                    point_distance(c.position, &b).abs() <= half,
                    "case {case}: {c:?}"
                );
            }
        }
    }
}
for_each_real!(random_shapes_on_planes, random_on_plane);

/// Hostile input: tiny, huge and flat shapes, poses far away or with
/// non-finite parts, odd margins. No panic; every point finite with a
/// unit normal; a non-finite pose gives nothing.
fn fuzz<R: Real>() {
    let mut rng = Rng::new(0xf00d);
    let hulls = hulls::<R>(&mut rng);
    let flat = ConvexHull::from_points(&[
        Vec3::new(R::ZERO, R::ZERO, R::ZERO),
        Vec3::new(R::ONE, R::ZERO, R::ZERO),
        Vec3::new(R::ZERO, R::ONE, R::ZERO),
        Vec3::new(R::ONE, R::ONE, R::lit(1e-6)),
    ]);
    for case in 0..CASES * 2 {
        let scale: R = R::lit([1e-6, 1e-3, 1.0, 1e3, 1e6][rng.below(5)]);
        let pick = |rng: &mut Rng| -> Shape<'_, R> {
            match rng.below(12) {
                0 => Cuboid::new(Vec3::new(scale, scale * R::lit(1e-4), scale))
                    .unwrap()
                    .into(),
                1 => Capsule::new(scale, R::ZERO).unwrap().into(),
                2 => HalfSpace::new(rng.unit_vec(), rng.range(-1.0, 1.0))
                    .unwrap()
                    .into(),
                3 => match &flat {
                    Ok(h) => Shape::Hull(h.view()),
                    Err(_) => Point.into(),
                },
                4 => Point.into(),
                5 => Cylinder::new(scale, scale * R::lit(1e-3)).unwrap().into(),
                _ => random_shape(rng, &hulls),
            }
        };
        let (sa, sb) = (pick(&mut rng), pick(&mut rng));
        let pose = |rng: &mut Rng| -> Iso3<R> {
            let mut p: Iso3<R> = rng.pose(1.0);
            p.translation *= scale;
            match rng.below(10) {
                0 => p.translation.y = R::nan(),
                1 => p.translation.z = R::INFINITY,
                2 => p.translation = Vec3::ZERO,
                _ => {}
            }
            p
        };
        let (pa, pb) = (pose(&mut rng), pose(&mut rng));
        let margin: R = match rng.below(6) {
            0 => R::nan(),
            1 => -R::ONE,
            2 => R::lit(1e30),
            _ => rng.range(0.0, 0.1),
        };
        let patch = [Patch::Auto, Patch::Perturb, Patch::Single][rng.below(3)];
        let m = contact_manifold_with(
            &Body::new(&sa, pa),
            &Body::new(&sb, pb),
            &ContactParams::new().with_margin(margin),
            patch,
        );
        if !pa.is_finite() || !pb.is_finite() {
            assert!(m.is_empty(), "case {case}");
        }
        for c in m.as_slice() {
            assert!(
                c.position.is_finite() && c.normal.is_finite() && c.depth.finite(),
                "case {case}: {c:?}"
            );
            assert!(
                (c.normal.norm() - R::ONE).abs() < R::lit(1e-3),
                "case {case}: {c:?}"
            );
        }
    }
}
for_each_real!(hostile_input_never_panics_nor_gives_non_finite_points, fuzz);
