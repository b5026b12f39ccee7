//! Ray casts and point projections through the umbrella API, against
//! references independent of the code under test:
//! - the closed forms (sphere, box, capsule, cylinder, cone, ellipsoid,
//!   triangle, terrain prism, with margins where they cover them) against GJK's ray cast
//!   on the same shape: two algorithms that share nothing but the support
//!   function;
//! - every shape kind (hulls, rounded boxes, segments, terrain prisms, a
//!   user's shape, half-spaces) against point distances along the ray (by
//!   the pair table's distance and penetration queries): the hit point is
//!   on the surface, the ray is outside before it, the normal points out;
//! - point projections against closed forms (box, sphere, half-space).
//!
//! Seeded random shapes, poses and rays aimed at and around the shapes,
//! some starting inside; f32 and f64.

use mink::query::{project_point, Body, PointProjection, Status};
use mink::ray::{ray_cast, Ray, RayCast, RayStatus};
use mink::support::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Ellipsoid, HalfSpace, Iso3, Point, Real, Rounded,
    Segment, Sphere, TerrainPrism, Triangle, Vec3,
};
use mink::Shape;
use mink_testkit::{for_each_real, Rng};

/// Tolerance of a hit for shapes of about 1 m, meters.
fn tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS > 30 {
        1e-7
    } else {
        2e-3
    }
}

/// A random shape of kind `kind` (0..12), sizes 0.15 to 0.6 m; hulls
/// borrow from `hulls`.
fn shape_of<'h, R: Real>(rng: &mut Rng, kind: usize, hulls: &'h [ConvexHull<R>]) -> Shape<'h, R> {
    let s = |rng: &mut Rng| rng.range::<R>(0.15, 0.6);
    match kind {
        0 => Sphere::new(s(rng)).unwrap().into(),
        1 => Cuboid::new(Vec3::new(s(rng), s(rng), s(rng)))
            .unwrap()
            .into(),
        2 => Capsule::new(s(rng) * R::HALF, s(rng)).unwrap().into(),
        3 => Cylinder::new(s(rng), s(rng)).unwrap().into(),
        4 => Cone::new(s(rng), s(rng)).unwrap().into(),
        5 => Ellipsoid::new(Vec3::new(s(rng), s(rng), s(rng)))
            .unwrap()
            .into(),
        6 => {
            let p = |rng: &mut Rng| rng.in_cube::<R>(0.5);
            Triangle::new(p(rng), p(rng), p(rng)).unwrap().into()
        }
        7 => Rounded::new(
            Cuboid::new(Vec3::new(s(rng), s(rng), s(rng))).unwrap(),
            s(rng) * R::lit(0.2),
        )
        .unwrap()
        .into(),
        8 => Shape::Hull(hulls[rng.below(hulls.len())].view()),
        9 => {
            let p = |rng: &mut Rng| rng.in_cube::<R>(0.5);
            Segment::new(p(rng), p(rng)).unwrap().into()
        }
        10 => {
            let p = |rng: &mut Rng| rng.in_cube::<R>(0.5);
            TerrainPrism::new([p(rng), p(rng), p(rng)], R::lit(-0.8))
                .unwrap()
                .into()
        }
        _ => Point.into(),
    }
}

fn hulls<R: Real>(rng: &mut Rng) -> Vec<ConvexHull<R>> {
    [6, 12, 32, 64]
        .iter()
        .map(|&n| ConvexHull::from_points(&rng.points_in_ball::<R>(n, 0.5)).unwrap())
        .collect()
}

/// A random ray around `center`: from up to 3 m away (a fifth from near
/// the centre, most of those inside), towards a point within 0.7 m of it.
fn random_ray<R: Real>(rng: &mut Rng, center: Vec3<f64>) -> Ray<R> {
    let o = if rng.chance(0.2) {
        center + rng.unit_vec::<f64>() * rng.range_f64(0.0, 0.1)
    } else {
        center + rng.unit_vec::<f64>() * rng.range_f64(0.7, 3.0)
    };
    let aim = center + rng.unit_vec::<f64>() * rng.range_f64(0.0, 0.7);
    let d = (aim - o).normalize_or(Vec3::X) * rng.range_f64(0.3, 3.0);
    Ray::new(o.cast(), d.cast())
}

/// The signed distance of `p` from the body (negative inside).
fn signed<R: Real>(body: &Body<'_, '_, R>, p: Vec3<R>) -> PointProjection<R> {
    project_point(body, p)
}

/// The closed forms and GJK's cast agree: verdict (but for grazing rays),
/// `toi`, and normals that both bound the shape.
fn closed_forms_agree_with_gjk<R: Real>() {
    let mut rng = Rng::new(0x5a7);
    let hulls = hulls::<R>(&mut rng);
    let t = tol::<R>();
    let (mut hits, mut inside) = (0, 0);
    for case in 0..4_000 {
        let kind = [0, 1, 2, 3, 4, 5, 6, 10][case % 8];
        let shape = shape_of::<R>(&mut rng, kind, &hulls);
        let pose: Iso3<R> = rng.pose(2.0);
        // Margins where the closed form covers them (sphere, capsule).
        let margin = if kind == 0 || kind == 2 {
            rng.range(0.0, 0.1)
        } else {
            R::ZERO
        };
        let body = Body::new(&shape, pose).with_margin(margin);
        let ray: Ray<R> = random_ray(&mut rng, pose.translation.cast());
        let solid = rng.chance(0.7);
        let max_toi = R::INFINITY;
        let closed = ray_cast(&body, &ray, max_toi, solid);
        let gjk = gjk_cast(&shape, &pose, margin, &ray, solid);
        let what = format!(
            "case {case} {} {ray:?}: closed {closed:?} gjk {gjk:?}",
            shape.name()
        );
        let len = ray.dir.norm().to_f64();
        if closed.status != gjk.status {
            // Only a ray that grazes the surface may be a hit for one and
            // a miss for the other.
            let hit = if closed.is_hit() { closed } else { gjk };
            assert!(
                matches!(
                    (closed.status, gjk.status),
                    (RayStatus::Hit, RayStatus::Miss) | (RayStatus::Miss, RayStatus::Hit)
                ),
                "{what}"
            );
            let cos = hit.normal.cast::<f64>().dot(ray.dir.cast::<f64>()) / len;
            let edge_on = matches!(kind, 1 | 3 | 4 | 6 | 10);
            assert!(
                cos.abs() < 0.05 || edge_on,
                "{what}: a miss for a ray hitting at cos {cos}"
            );
            continue;
        }
        match closed.status {
            RayStatus::Hit => {
                hits += 1;
                let dt = (closed.toi - gjk.toi).to_f64().abs() * len;
                assert!(dt <= t, "{what}: toi differ by {dt} m");
                for n in [closed.normal, gjk.normal] {
                    assert!((n.norm() - R::ONE).abs().to_f64() < 1e-4, "{what}");
                    bounds(&body, closed.point, n, &what);
                }
            }
            RayStatus::Inside => {
                inside += 1;
                assert_eq!(closed.point, ray.origin, "{what}");
                assert_eq!(closed.normal, Vec3::ZERO, "{what}");
            }
            RayStatus::Miss => {}
            other => panic!("{what}: {other:?}"),
        }
    }
    assert!(hits > 1_500 && inside > 150, "{hits} hits, {inside} inside");
}
for_each_real!(closed_forms_agree_with_gjk, closed_forms_agree_with_gjk);

/// GJK's ray cast on the concrete shape of `shape`, swept by `margin`.
fn gjk_cast<R: Real>(
    shape: &Shape<'_, R>,
    pose: &Iso3<R>,
    margin: R,
    ray: &Ray<R>,
    solid: bool,
) -> RayCast<R> {
    fn on<R: Real, S: mink::support::Support<R>>(
        s: &S,
        pose: &Iso3<R>,
        margin: R,
        ray: &Ray<R>,
        solid: bool,
    ) -> RayCast<R> {
        let rounded = Rounded::new(s, margin).unwrap();
        mink::gjk::ray_cast(&rounded, pose, ray, R::INFINITY, solid)
    }
    match shape {
        Shape::Sphere(s) => on(s, pose, margin, ray, solid),
        Shape::Cuboid(s) => on(s, pose, margin, ray, solid),
        Shape::Capsule(s) => on(s, pose, margin, ray, solid),
        Shape::Cylinder(s) => on(s, pose, margin, ray, solid),
        Shape::Cone(s) => on(s, pose, margin, ray, solid),
        Shape::Ellipsoid(s) => on(s, pose, margin, ray, solid),
        Shape::Triangle(s) => on(s, pose, margin, ray, solid),
        Shape::TerrainPrism(s) => on(s, pose, margin, ray, solid),
        other => panic!("no closed form for {}", other.name()),
    }
}

/// The normal `n` at the hit `p` bounds the body: a point moved off the
/// surface along it by 1 cm is 1 cm away (less, when `n` tilts into the
/// shape). A flat shape's point may also be that far on its other side.
fn bounds<R: Real>(body: &Body<'_, '_, R>, p: Vec3<R>, n: Vec3<R>, what: &str) {
    let off = 1e-2;
    let q = signed(body, p + n * R::lit(off));
    assert!(
        q.distance.to_f64() >= off * (1.0 - 1e-3) - 4.0 * tol::<R>(),
        "{what}: 1 cm along the normal {n:?} is {} from the surface",
        q.distance.to_f64()
    );
}

/// Every shape kind through the front door, against point distances
/// along the ray: the hit is on the surface, everything before it
/// outside, the normal outward; a miss leaves the whole ray outside.
fn every_shape_against_point_distances<R: Real>() {
    let mut rng = Rng::new(0x5a8);
    let hulls = hulls::<R>(&mut rng);
    let t = tol::<R>();
    let mut seen = [0usize; 12];
    for case in 0..2_400 {
        let kind = case % 12;
        let shape = shape_of::<R>(&mut rng, kind, &hulls);
        let pose: Iso3<R> = rng.pose(2.0);
        let margin = if rng.chance(0.4) || kind >= 9 {
            rng.range(0.01, 0.1)
        } else {
            R::ZERO
        };
        let body = Body::new(&shape, pose).with_margin(margin);
        let ray: Ray<R> = random_ray(&mut rng, pose.translation.cast());
        let solid = rng.chance(0.5);
        let got = ray_cast(&body, &ray, R::INFINITY, solid);
        let what = format!(
            "case {case} {} margin {margin:?} {ray:?}: {got:?}",
            shape.name()
        );
        let len = ray.dir.norm().to_f64();
        let starts = signed(&body, ray.origin).distance.to_f64();
        match got.status {
            RayStatus::Inside => {
                assert!(solid, "{what}");
                assert!(starts <= t, "{what}: the origin is {starts} outside");
            }
            RayStatus::Hit => {
                seen[kind] += 1;
                let at = signed(&body, got.point).distance.to_f64();
                assert!(at.abs() <= t, "{what}: the hit is {at} from the surface");
                assert!(
                    (got.point - ray.at(got.toi)).norm().to_f64() < 1e-6,
                    "{what}"
                );
                if solid || starts > t {
                    // Entering: everything before the hit is outside.
                    for k in 0..16 {
                        let tk = got.toi * R::lit(k as f64 / 16.0);
                        let d = signed(&body, ray.at(tk)).distance.to_f64();
                        assert!(d >= -t, "{what}: t {tk:?} is {d} inside");
                    }
                    bounds(&body, got.point, got.normal, &what);
                    assert!(got.normal.dot(ray.dir).to_f64() <= 1e-3 * len, "{what}");
                } else {
                    // Leaving: everything between origin and exit inside.
                    for k in 1..16 {
                        let tk = got.toi * R::lit(k as f64 / 16.0);
                        let d = signed(&body, ray.at(tk)).distance.to_f64();
                        assert!(d <= t, "{what}: t {tk:?} is {d} outside");
                    }
                    assert!(got.normal.dot(ray.dir).to_f64() >= -1e-3 * len, "{what}");
                    // Past the exit, outside.
                    let past = signed(&body, got.point + ray.dir * R::lit(0.01 / len));
                    assert!(past.distance.to_f64() >= 0.0, "{what}");
                }
            }
            RayStatus::Miss => {
                // No point of the ray inside (sampled to 6 m).
                for k in 0..64 {
                    let tk = R::lit(6.0 / len * k as f64 / 64.0);
                    let d = signed(&body, ray.at(tk)).distance.to_f64();
                    assert!(d >= -t, "{what}: t {tk:?} is {d} inside");
                }
            }
            other => panic!("{what}: {other:?}"),
        }
    }
    assert!(seen[..11].iter().all(|&n| n > 10), "hits per kind {seen:?}");
}
for_each_real!(
    every_shape_against_point_distances,
    every_shape_against_point_distances
);

/// Half-spaces: the crossing of the plane in closed form; a ray inside
/// that never leaves is a miss when not solid.
fn half_spaces<R: Real>() {
    let plane: Shape<'_, R> = HalfSpace::new(Vec3::Z, R::ONE).unwrap().into();
    let body = Body::new(
        &plane,
        Iso3::from_translation(Vec3::new(R::ZERO, R::ZERO, R::ONE)),
    )
    .with_margin(R::lit(0.5));
    // The surface is at z = 2.5.
    let down = Ray::new(Vec3::new(R::ONE, R::TWO, R::lit(4.0)), -Vec3::Z * R::TWO);
    let hit = ray_cast(&body, &down, R::INFINITY, true);
    assert_eq!(hit.status, RayStatus::Hit);
    assert!((hit.toi.to_f64() - 0.75).abs() < 1e-6, "{hit:?}");
    assert_eq!(hit.normal, Vec3::Z);
    let up = Ray::new(Vec3::new(R::ONE, R::TWO, R::lit(4.0)), Vec3::Z);
    assert_eq!(
        ray_cast(&body, &up, R::INFINITY, true).status,
        RayStatus::Miss
    );
    let inside = Ray::new(Vec3::ZERO, Vec3::X);
    assert_eq!(
        ray_cast(&body, &inside, R::INFINITY, true).status,
        RayStatus::Inside
    );
    assert_eq!(
        ray_cast(&body, &inside, R::INFINITY, false).status,
        RayStatus::Miss
    );
    let out = ray_cast(&body, &Ray::new(Vec3::ZERO, Vec3::Z), R::INFINITY, false);
    assert_eq!(out.status, RayStatus::Hit);
    assert!(
        (out.toi.to_f64() - 2.5).abs() < 1e-6 && out.normal == Vec3::Z,
        "{out:?}"
    );
    assert_eq!(
        ray_cast(&body, &Ray::new(Vec3::ZERO, Vec3::Z), R::TWO, false).status,
        RayStatus::Miss
    );
}
for_each_real!(half_spaces, half_spaces);

/// Bad input gives `NonFinite`, never a hit.
fn bad_input<R: Real>() {
    let ball: Shape<'_, R> = Sphere::new(R::ONE).unwrap().into();
    let good = Ray::new(Vec3::new(R::lit(3.0), R::ZERO, R::ZERO), -Vec3::X);
    let nan = R::nan();
    let bodies = [
        Body::new(&ball, Iso3::IDENTITY).with_margin(-R::ONE),
        Body::new(&ball, Iso3::IDENTITY).with_margin(nan),
        Body::new(&ball, Iso3::from_translation(Vec3::splat(R::INFINITY))),
    ];
    for body in &bodies {
        assert_eq!(
            ray_cast(body, &good, R::INFINITY, true).status,
            RayStatus::NonFinite
        );
        let p = project_point(body, Vec3::ZERO);
        assert_eq!(p.status, Status::InvalidInput);
        assert!(!p.inside);
    }
    let body = Body::new(&ball, Iso3::IDENTITY);
    for (ray, max_toi) in [
        (Ray::new(good.origin, Vec3::ZERO), R::INFINITY),
        (Ray::new(Vec3::splat(nan), -Vec3::X), R::INFINITY),
        (good, -R::ONE),
        (good, nan),
    ] {
        assert_eq!(
            ray_cast(&body, &ray, max_toi, true).status,
            RayStatus::NonFinite
        );
    }
    assert_eq!(
        project_point(&body, Vec3::splat(nan)).status,
        Status::InvalidInput
    );
}
for_each_real!(bad_input, bad_input);

/// Point projections against closed forms: a box (inside and outside,
/// nearest face), a sphere with a margin, a half-space.
fn point_projections<R: Real>() {
    let mut rng = Rng::new(0x5a9);
    let t = tol::<R>();
    for case in 0..1_000 {
        let h = Vec3::new(
            rng.range_f64(0.2, 1.0),
            rng.range_f64(0.2, 1.0),
            rng.range_f64(0.2, 1.0),
        );
        let cube: Shape<'_, R> = Cuboid::new(h.cast()).unwrap().into();
        let pose64 = rng.pose::<f64>(2.0);
        let body = Body::new(&cube, pose64.cast());
        let local = rng.in_cube::<f64>(1.5);
        let p = pose64.transform_point(local);
        let got = project_point(&body, p.cast());
        let what = format!("case {case} box {h:?} local {local:?}: {got:?}");
        // Closed form in the box's frame.
        let outside = (local.abs() - h).max(Vec3::ZERO);
        let (expected, proj, normal) = if outside.norm() > 0.0 {
            let proj = local.max(-h).min(h);
            (outside.norm(), proj, (local - proj) / outside.norm())
        } else {
            // Inside: the nearest face.
            let gaps = h - local.abs();
            let i = (0..3)
                .min_by(|&a, &b| gaps.get(a).total_cmp(&gaps.get(b)))
                .unwrap();
            let mut proj = local.to_array();
            let mut n = [0.0; 3];
            let s = if local.get(i) >= 0.0 { 1.0 } else { -1.0 };
            proj[i] = h.get(i) * s;
            n[i] = s;
            (-gaps.get(i), Vec3::from_array(proj), Vec3::from_array(n))
        };
        assert!(
            (got.distance.to_f64() - expected).abs() <= t,
            "{what}: expected {expected}"
        );
        assert_eq!(
            got.inside,
            expected <= 0.0 || got.distance <= R::ZERO,
            "{what}"
        );
        // Away from ties between faces (inside) and edges, the same point
        // and normal.
        let gaps = h - local.abs();
        let mut sorted = gaps.to_array();
        sorted.sort_by(f64::total_cmp);
        if expected > 1e-3 || sorted[1] - sorted[0] > 1e-3 {
            let proj = pose64.transform_point(proj);
            let normal = pose64.rotation * normal;
            assert!(
                (got.projection.cast::<f64>() - proj).norm() <= 4.0 * t,
                "{what}: projection"
            );
            assert!(
                (got.normal.cast::<f64>() - normal).norm() <= 1e-2,
                "{what}: normal"
            );
        }
    }
    // A sphere with a margin: exact.
    let ball: Shape<'_, R> = Sphere::new(R::lit(0.5)).unwrap().into();
    let body = Body::new(
        &ball,
        Iso3::from_translation(Vec3::new(R::ONE, R::ZERO, R::ZERO)),
    )
    .with_margin(R::lit(0.25));
    let p = project_point(&body, Vec3::new(R::lit(3.0), R::ZERO, R::ZERO));
    assert!(
        (p.distance.to_f64() - 1.25).abs() <= t && !p.inside,
        "{p:?}"
    );
    assert!((p.projection.x.to_f64() - 1.75).abs() <= t, "{p:?}");
    assert!((p.normal - Vec3::X).norm().to_f64() <= t, "{p:?}");
    let p = project_point(&body, Vec3::new(R::lit(1.25), R::ZERO, R::ZERO));
    assert!((p.distance.to_f64() + 0.5).abs() <= t && p.inside, "{p:?}");
    assert!((p.normal - Vec3::X).norm().to_f64() <= t, "{p:?}");
    // A half-space z <= 1, raised by 1: the surface at z = 2.
    let plane: Shape<'_, R> = HalfSpace::new(Vec3::Z, R::ONE).unwrap().into();
    let body = Body::new(&plane, Iso3::from_translation(Vec3::Z));
    for z in [-3.0, 1.5, 2.0, 4.0] {
        let p = project_point(&body, Vec3::new(R::lit(0.3), R::lit(-2.0), R::lit(z)));
        assert!((p.distance.to_f64() - (z - 2.0)).abs() <= t, "{z}: {p:?}");
        assert!((p.projection.z.to_f64() - 2.0).abs() <= t, "{z}: {p:?}");
        assert!((p.projection.x.to_f64() - 0.3).abs() <= t, "{z}: {p:?}");
        assert!((p.normal - Vec3::Z).norm().to_f64() <= t, "{z}: {p:?}");
        assert_eq!(p.inside, z <= 2.0, "{z}: {p:?}");
    }
}
for_each_real!(point_projections, point_projections);

/// A ray in a shape's frame and where it should enter: `(origin,
/// direction, expected entry point or none)`.
type Expected = (Vec3<f64>, Vec3<f64>, Option<Vec3<f64>>);

/// Casts each `(origin, direction, expected entry point or none)` of
/// `cases` (the body's frame, turned into the world by `pose`) as a solid
/// ray against `body`: a hit within `t` of the expected point, or a miss.
fn expect_entries<R: Real>(
    body: &Body<'_, '_, R>,
    pose: &Iso3<f64>,
    cases: &[Expected],
    t: f64,
    case: usize,
) {
    for (k, &(o, d, want)) in cases.iter().enumerate() {
        let ray = Ray::new(
            pose.transform_point(o).cast::<R>(),
            pose.rotation.mul_vec(d).cast::<R>(),
        );
        let got = ray_cast(body, &ray, R::lit(10.0), true);
        let what = format!("case {case} ray {k}: {got:?}, want {want:?}");
        match want {
            Some(p) => {
                assert_eq!(got.status, RayStatus::Hit, "{what}");
                let p = pose.transform_point(p);
                assert!((got.point.cast::<f64>() - p).norm() < t, "{what}");
            }
            None => assert_eq!(got.status, RayStatus::Miss, "{what}"),
        }
    }
}

/// Rays in a triangle's plane (found by the `ray_cast` fuzz target: a ray
/// run along an edge was put 3 cm off on a 4 cm triangle): along an edge
/// from beyond its end, across the triangle through a vertex, and across
/// it through two edges, each meeting the triangle where its line enters
/// it in the plane (worked out here from the vertices); a ray in the
/// plane beside the triangle misses. Turned by random rotations.
fn rays_in_a_triangles_plane<R: Real>() {
    let mut rng = Rng::new(0x30_7a1e);
    let (a, b, c) = (
        Vec3::new(-0.02, -0.02, -0.02),
        Vec3::new(-0.0148, -0.0197, 0.02),
        Vec3::new(0.0118, 0.0118, 0.0118),
    );
    let t = tol::<R>() * 10.0;
    for case in 0..500 {
        let pose: Iso3<f64> = rng.pose(0.2);
        let tri: Shape<'_, R> = Triangle::new(a.cast(), b.cast(), c.cast()).unwrap().into();
        let body = Body::new(&tri, pose.cast::<R>());
        // (origin, direction, expected entry point or none), local frame.
        let mid_ab = (a + b) * 0.5;
        let cases = [
            (a - (c - a), c - a, Some(a)),
            (c + (c - a) * 2.0, a - c, Some(c)),
            (mid_ab - (c - mid_ab), c - mid_ab, Some(mid_ab)),
            (a + (a - b) * 0.5 - (c - a), c - a, None),
        ];
        expect_entries(&body, &pose, &cases, t, case);
    }
}
for_each_real!(rays_in_a_triangles_plane, rays_in_a_triangles_plane);

/// Rays along a terrain prism's side face (found by the `ray_cast` fuzz
/// target: a ray run along the side face of a 4 cm sliver prism, the face
/// through the edge from (-0.02, -0.02) to (0.018, 0.018), entered it 2 mm
/// late, its crossing `t` round-off over round-off): rays in that face's
/// plane, up the diagonal from below the base, down it from above the top,
/// and across it level, each meeting the prism where it enters the face
/// (worked out here: the base, the top corner, the face's vertical edge),
/// and a ray in the plane below the base misses. Turned by random
/// rotations.
fn rays_along_a_prism_side_face<R: Real>() {
    let mut rng = Rng::new(0x30_9a1e);
    let (lo, hi, base) = (-0.02, 0.018117647058823527, -0.001882352941176474);
    let top = [
        Vec3::new(lo, lo, hi),
        Vec3::new(0.01759884031433585, hi, hi),
        Vec3::new(hi, hi, hi),
    ];
    let t = tol::<R>() * 10.0;
    for case in 0..500 {
        let pose: Iso3<f64> = rng.pose(0.3);
        let prism: Shape<'_, R> = TerrainPrism::new(top.map(|v| v.cast()), R::lit(base))
            .unwrap()
            .into();
        let body = Body::new(&prism, pose.cast::<R>());
        let diag = Vec3::new(1.0, 1.0, 1.0);
        let z = base + (hi - base) * rng.range_f64(0.2, 0.8);
        // (origin, direction, expected entry point or none), local frame.
        let cases = [
            (diag * -0.07, diag, Some(diag * base)),
            (diag * 0.06, -diag, Some(diag * hi)),
            (
                Vec3::new(lo - 0.05, lo - 0.05, z),
                Vec3::new(1.0, 1.0, 0.0),
                Some(Vec3::new(lo, lo, z)),
            ),
            (
                Vec3::new(-0.07, -0.07, -0.02),
                Vec3::new(1.0, 1.0, 0.0),
                None,
            ),
        ];
        expect_entries(&body, &pose, &cases, t, case);
    }
}
for_each_real!(rays_along_a_prism_side_face, rays_along_a_prism_side_face);

/// Rays from 50 m to 2 km away at the closed-form shapes, flat and thin
/// ones among them (a cone 50 times wider than tall, a 1 mm thick
/// cylinder), aimed at their centre: every one hits, at a point on the
/// surface (the point's signed distance by `project_point`, GJK's, within
/// the round-off of the origin's distance). Solved from the far origin,
/// the quadrics' coefficients cancelled to round-off: in f32 a flat cone
/// 730 m away was hit 4.5 m off its cap.
fn closed_forms_from_far_away<R: Real>() {
    const ORIGIN_ULPS: f64 = 64.0;
    let mut rng = Rng::new(0xfa2_a3a7);
    for case in 0..600 {
        let size = rng.range_f64(0.3, 1.5);
        let thin = rng.range_f64(0.001, 0.05);
        let shape: Shape<'_, R> = match case % 6 {
            0 => Cone::new(R::lit(size), R::lit(thin)).unwrap().into(),
            1 => Cylinder::new(R::lit(size), R::lit(thin)).unwrap().into(),
            2 => Ellipsoid::new(Vec3::new(size, size, thin).cast())
                .unwrap()
                .into(),
            3 => Capsule::new(R::lit(thin), R::lit(size)).unwrap().into(),
            4 => Sphere::new(R::lit(size)).unwrap().into(),
            _ => Cuboid::new(Vec3::new(size, thin, size).cast())
                .unwrap()
                .into(),
        };
        let pose: Iso3<R> = rng.pose(3.0);
        let body = Body::new(&shape, pose);
        let far = rng.range_f64(50.0, 2000.0);
        let centre = pose.translation.cast::<f64>();
        let o = centre + rng.unit_vec::<f64>() * far;
        let ray = Ray::new(
            o.cast::<R>(),
            ((centre - o) * rng.range_f64(0.01, 3.0)).cast::<R>(),
        );
        let hit = ray_cast(&body, &ray, R::lit(1e3), true);
        let what = format!("case {case}: {shape:?} at {pose:?}, {ray:?}: {hit:?}");
        assert_eq!(hit.status, RayStatus::Hit, "{what}");
        let off = signed(&body, hit.point).distance.to_f64().abs();
        assert!(
            off < ORIGIN_ULPS * R::EPSILON.to_f64() * far,
            "{what}: {off} m off the surface"
        );
    }
}
for_each_real!(closed_forms_from_far_away, closed_forms_from_far_away);
