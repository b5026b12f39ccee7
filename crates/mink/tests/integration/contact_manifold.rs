//! Contact manifolds on configurations with a closed-form answer: boxes,
//! capsules, cylinders and spheres on planes and on boxes, face-to-face,
//! edge-to-edge, speculative contacts within the margin, and the
//! perturbation scheme against the same answers.

use mink::contact::{
    contact_manifold, contact_manifold_with, ContactParams, Manifold, Patch,
    BOX_FEATURE_PREFERENCE, NEAR_FACE_EDGE_PREFERENCE,
};
use mink::query::Body;
use mink::support::{
    Capsule, ConvexHull, Cuboid, Cylinder, HalfSpace, Iso3, Mat3, Real, Rounded, Sphere, Support,
    Vec3,
};
use mink::Shape;
use mink_testkit::{for_each_real, Rng};

fn v<R: Real>(x: f64, y: f64, z: f64) -> Vec3<R> {
    Vec3::new(R::lit(x), R::lit(y), R::lit(z))
}

fn pose<R: Real>(rotation: Mat3<R>, t: Vec3<R>) -> Iso3<R> {
    Iso3::from_parts(rotation, t)
}

/// Tolerance for closed-form comparisons: round-off of the scalar on
/// unit-sized shapes.
fn tol<R: Real>() -> R {
    R::lit(if R::EPSILON > R::lit(1e-10) {
        2e-5
    } else {
        1e-10
    })
}

fn ground<'a, R: Real>() -> Shape<'a, R> {
    HalfSpace::new(Vec3::Z, R::ZERO).unwrap().into()
}

/// Asserts that every expected `(position, depth)` has a reported point
/// at it (and the counts agree), each with the normal `n`.
fn assert_points<R: Real>(m: &Manifold<R>, expected: &[(Vec3<R>, R)], n: Vec3<R>, tol: R) {
    assert_eq!(m.len(), expected.len(), "{m:?}");
    for &(p, d) in expected {
        let hit = m
            .as_slice()
            .iter()
            .any(|c| (c.position - p).norm() < tol && (c.depth - d).abs() < tol);
        assert!(hit, "no point at {p:?} depth {d:?} in {m:?}");
    }
    for c in m.as_slice() {
        assert!((c.normal - n).norm() < tol, "{c:?}");
    }
}

fn box_on_plane<R: Real>() {
    let mut rng = Rng::new(0xb0);
    let plane = ground::<R>();
    for _ in 0..50 {
        let half = v::<R>(rng.range_f64(0.1, 1.0), rng.range_f64(0.1, 1.0), 0.2);
        let cube: Shape<'_, R> = Cuboid::new(half).unwrap().into();
        let overlap: R = rng.range(0.0, 0.05);
        let yaw = Mat3::from_axis_angle(Vec3::Z, rng.range(-3.0, 3.0));
        let centre = v::<R>(rng.range_f64(-1.0, 1.0), rng.range_f64(-1.0, 1.0), 0.0)
            + Vec3::Z * (half.z - overlap);
        let p = pose(yaw, centre);
        let m = contact_manifold(
            &Body::new(&plane, Iso3::IDENTITY),
            &Body::new(&cube, p),
            &ContactParams::new(),
        );
        // The four bottom corners, the midpoint half the overlap down.
        let expected: Vec<_> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .iter()
            .map(|&(sx, sy)| {
                let c =
                    p.transform_point(Vec3::new(half.x * R::lit(sx), half.y * R::lit(sy), -half.z));
                (c + Vec3::Z * (overlap * R::HALF), overlap)
            })
            .collect();
        assert_points(&m, &expected, Vec3::Z, tol());
        // Plane as B: the same points, the normal flipped.
        let m = contact_manifold(
            &Body::new(&cube, p),
            &Body::new(&plane, Iso3::IDENTITY),
            &ContactParams::new(),
        );
        assert_points(&m, &expected, -Vec3::Z, tol());
    }
}
for_each_real!(box_on_plane_gives_its_four_corners, box_on_plane);

fn tilted_box_on_plane<R: Real>() {
    let mut rng = Rng::new(0xb1);
    let plane = ground::<R>();
    let half = v::<R>(0.5, 0.3, 0.2);
    let cube: Shape<'_, R> = Cuboid::new(half).unwrap().into();
    for _ in 0..50 {
        let tilt = Mat3::from_axis_angle(Vec3::X, rng.range(-0.1, 0.1))
            .mul_mat(&Mat3::from_axis_angle(Vec3::Y, rng.range(-0.1, 0.1)));
        let mut p = pose(tilt, Vec3::ZERO);
        let corners = Cuboid::new(half).unwrap().corners();
        let lowest = corners
            .iter()
            .map(|c| p.transform_point(*c).z)
            .fold(R::INFINITY, |m, z| m.min_of(z));
        let deepest: R = rng.range(0.0, 0.03);
        p.translation.z = -lowest - deepest;
        let margin: R = rng.range(0.0, 0.05);
        let m = contact_manifold(
            &Body::new(&plane, Iso3::IDENTITY),
            &Body::new(&cube, p),
            &ContactParams::new().with_margin(margin),
        );
        // Every corner within the margin of the plane, its own depth.
        let expected: Vec<_> = corners
            .iter()
            .map(|c| p.transform_point(*c))
            .filter(|c| -c.z >= -margin)
            .map(|c| (Vec3::new(c.x, c.y, c.z * R::HALF), -c.z))
            .collect();
        assert!(!expected.is_empty() && expected.len() <= 4);
        assert_points(&m, &expected, Vec3::Z, tol());
    }
}
for_each_real!(
    tilted_box_corners_have_their_own_depths,
    tilted_box_on_plane
);

/// A box against a plane: the closed form (`Shape::Cuboid`) against the
/// general half-space path on the same box given as a user's shape
/// (`Shape::Custom`: the box's support function and support set), on
/// random poses from resting to tilted and hovering within the margin, the
/// plane as A and as B, a plane turned and shifted: the same points, and
/// each depth the depth of a corner of the box below the plane.
fn box_on_plane_matches_the_general_path<R: Real>() {
    let mut rng = Rng::new(0xb1);
    let tilt_plane =
        Mat3::from_axis_angle(v::<R>(1.0, 2.0, 0.5).try_normalize().unwrap(), R::lit(0.3));
    let plane_pose = pose(tilt_plane, v(0.2, -0.1, 0.3));
    let plane: Shape<'_, R, &Cuboid<R>> =
        Shape::HalfSpace(HalfSpace::new(Vec3::Z, R::lit(0.1)).unwrap());
    let world = HalfSpace::new(Vec3::Z, R::lit(0.1))
        .unwrap()
        .transformed(&plane_pose)
        .unwrap();
    let (mut points, mut poses) = (0usize, 0usize);
    for k in 0..400 {
        let half = v::<R>(
            rng.range_f64(0.05, 1.0),
            rng.range_f64(0.05, 1.0),
            rng.range_f64(0.02, 0.5),
        );
        let cuboid = Cuboid::new(half).unwrap();
        let cube: Shape<'_, R, &Cuboid<R>> = Shape::Cuboid(cuboid);
        let user: Shape<'_, R, &Cuboid<R>> = Shape::Custom(&cuboid);
        // Mostly near-flat (resting), some turned anyhow.
        let rot = if k % 4 == 0 {
            rng.rotation()
        } else {
            Mat3::from_axis_angle(rng.unit_vec(), rng.range(0.0, 0.05))
        };
        let rot = tilt_plane.mul_mat(&rot);
        let mut p = pose(
            rot,
            plane_pose.translation + rng.unit_vec::<R>() * R::lit(0.3),
        );
        // Slide along the plane's normal so the lowest corner is between
        // 5 cm deep and 3 cm above (past the 2 cm margin).
        let low = cuboid
            .corners()
            .iter()
            .map(|&c| world.signed_distance(p.transform_point(c)))
            .fold(R::INFINITY, |m, h| m.min_of(h));
        p.translation += world.normal() * (rng.range::<R>(-0.05, 0.03) - low);
        let params = ContactParams::new().with_margin(R::lit(0.02));
        for plane_is_a in [true, false] {
            let pair = |shape: &Shape<'_, R, &Cuboid<R>>| {
                let (ba, bb) = (Body::new(&plane, plane_pose), Body::new(shape, p));
                if plane_is_a {
                    contact_manifold(&ba, &bb, &params)
                } else {
                    contact_manifold(&bb, &ba, &params)
                }
            };
            let (closed, general) = (pair(&cube), pair(&user));
            assert_eq!(closed.len(), general.len(), "{closed:?}\n{general:?}");
            let tol = tol::<R>() * R::lit(10.0);
            for c in closed.as_slice() {
                let same = general.as_slice().iter().any(|g| {
                    (g.position - c.position).norm() < tol
                        && (g.depth - c.depth).abs() < tol
                        && (g.normal - c.normal).norm() < tol
                });
                assert!(same, "{c:?} not in {general:?}");
                // Its corner lies depth / 2 below the point, along the
                // plane's normal, and depth below the plane.
                let corner = c.position - world.normal() * (c.depth * R::HALF);
                assert!((world.signed_distance(corner) + c.depth).abs() < tol);
                let on_box = cuboid
                    .corners()
                    .iter()
                    .any(|&q| (p.transform_point(q) - corner).norm() < tol);
                assert!(on_box, "{c:?} is not at a corner");
            }
            points += closed.len();
            poses += usize::from(!closed.is_empty());
        }
    }
    // The poses reach past the margin, rest on faces and tilt onto edges.
    assert!(poses > 400 && poses < 800, "{poses}");
    assert!(points > 2 * poses, "{points} points on {poses} poses");
}

for_each_real!(
    box_on_plane_closed_form_matches_the_general_path,
    box_on_plane_matches_the_general_path
);

fn sphere_capsule_cylinder_on_plane<R: Real>() {
    let plane = ground::<R>();
    let a = Body::new(&plane, Iso3::IDENTITY);
    let params = ContactParams::new();
    // Sphere: one point.
    let ball: Shape<'_, R> = Sphere::new(R::lit(0.5)).unwrap().into();
    let m = contact_manifold(
        &a,
        &Body::new(&ball, Iso3::from_translation(v(1.0, 2.0, 0.49))),
        &params,
    );
    assert_points(&m, &[(v(1.0, 2.0, -0.005), R::lit(0.01))], Vec3::Z, tol());
    // Capsule lying along x: its two segment ends.
    let rod: Shape<'_, R> = Capsule::new(R::lit(0.1), R::lit(0.5)).unwrap().into();
    let lying = Mat3::from_axis_angle(Vec3::Y, R::lit(core::f64::consts::FRAC_PI_2));
    let m = contact_manifold(
        &a,
        &Body::new(&rod, pose(lying, v(0.0, 0.0, 0.08))),
        &params,
    );
    let expected = [
        (v(-0.5, 0.0, -0.01), R::lit(0.02)),
        (v(0.5, 0.0, -0.01), R::lit(0.02)),
    ];
    assert_points(&m, &expected, Vec3::Z, tol());
    // Cylinder on its cap: rim points (the 12-gon's vertices), reduced
    // to 4, all at the cap's depth and on the rim.
    let can: Shape<'_, R> = Cylinder::new(R::lit(0.3), R::lit(0.4)).unwrap().into();
    let centre = v::<R>(0.2, -0.1, 0.39);
    let m = contact_manifold(
        &a,
        &Body::new(&can, Iso3::from_translation(centre)),
        &params,
    );
    assert_eq!(m.len(), 4, "{m:?}");
    for c in m.as_slice() {
        assert!((c.depth - R::lit(0.01)).abs() < tol());
        let r = Vec3::new(c.position.x - centre.x, c.position.y - centre.y, R::ZERO).norm();
        assert!((r - R::lit(0.3)).abs() < tol(), "{c:?}");
    }
    // A rounded box: the box's corners pushed down by the rounding.
    let rounded: Shape<'_, R> = Rounded::new(Cuboid::new(v(0.5, 0.5, 0.5)).unwrap(), R::lit(0.1))
        .unwrap()
        .into();
    let m = contact_manifold(
        &a,
        &Body::new(&rounded, Iso3::from_translation(v(0.0, 0.0, 0.58))),
        &params,
    );
    let expected: Vec<_> = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
        .iter()
        .map(|&(x, y)| (v::<R>(x, y, -0.01), R::lit(0.02)))
        .collect();
    assert_points(&m, &expected, Vec3::Z, tol());
}
for_each_real!(
    sphere_capsule_cylinder_rounded_box_on_plane,
    sphere_capsule_cylinder_on_plane
);

fn speculative_contacts<R: Real>() {
    let plane = ground::<R>();
    let half = v::<R>(0.5, 0.5, 0.5);
    let cube: Shape<'_, R> = Cuboid::new(half).unwrap().into();
    let hover = Iso3::from_translation(v(0.0, 0.0, 0.501));
    let margin = ContactParams::new().with_margin(R::lit(0.005));
    // Box hovering 1 mm above a plane, 5 mm margin: 4 points at -1 mm.
    let m = contact_manifold(
        &Body::new(&plane, Iso3::IDENTITY),
        &Body::new(&cube, hover),
        &margin,
    );
    assert_eq!(m.len(), 4);
    for c in m.as_slice() {
        assert!((c.depth + R::lit(0.001)).abs() < tol());
    }
    // Beyond the margin: nothing.
    let far = ContactParams::new().with_margin(R::lit(0.0009));
    let m = contact_manifold(
        &Body::new(&plane, Iso3::IDENTITY),
        &Body::new(&cube, hover),
        &far,
    );
    assert!(m.is_empty());
    // The same box hovering over a box (face to face).
    let lower = Iso3::from_translation(v(0.0, 0.0, -0.5));
    let m = contact_manifold(&Body::new(&cube, lower), &Body::new(&cube, hover), &margin);
    assert_eq!(m.len(), 4, "{m:?}");
    for c in m.as_slice() {
        assert!((c.depth + R::lit(0.001)).abs() < tol());
        assert!((c.normal - Vec3::Z).norm() < tol());
    }
    let m = contact_manifold(&Body::new(&cube, lower), &Body::new(&cube, hover), &far);
    assert!(m.is_empty());
    // A capsule hovering over a box: its segment, 2 points.
    let rod: Shape<'_, R> = Capsule::new(R::lit(0.1), R::lit(0.3)).unwrap().into();
    let lying = Mat3::from_axis_angle(Vec3::X, R::lit(core::f64::consts::FRAC_PI_2));
    let m = contact_manifold(
        &Body::new(&cube, lower),
        &Body::new(&rod, pose(lying, v(0.0, 0.0, 0.101))),
        &margin,
    );
    assert_eq!(m.len(), 2, "{m:?}");
    for c in m.as_slice() {
        assert!((c.depth + R::lit(0.001)).abs() < R::lit(1e-4));
    }
}
for_each_real!(speculative_contacts_within_the_margin, speculative_contacts);

fn box_on_box<R: Real>() {
    let big: Shape<'_, R> = Cuboid::new(v(0.5, 0.5, 0.5)).unwrap().into();
    let small: Shape<'_, R> = Cuboid::new(v(0.3, 0.2, 0.1)).unwrap().into();
    let a = Body::new(&big, Iso3::IDENTITY);
    // Face to face, the small box within the big one's face.
    let m = contact_manifold(
        &a,
        &Body::new(&small, Iso3::from_translation(v(0.1, 0.1, 0.58))),
        &ContactParams::new(),
    );
    let expected: Vec<_> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .iter()
        .map(|&(x, y)| (v::<R>(0.1 + 0.3 * x, 0.1 + 0.2 * y, 0.49), R::lit(0.02)))
        .collect();
    assert_points(&m, &expected, Vec3::Z, tol());
    // The mirrored pair: the same points, normal flipped.
    let m = contact_manifold(
        &Body::new(&small, Iso3::from_translation(v(0.1, 0.1, 0.58))),
        &a,
        &ContactParams::new(),
    );
    assert_points(&m, &expected, -Vec3::Z, tol());
}
for_each_real!(box_on_box_face_to_face, box_on_box);

/// The 45° turn about the normal: the two faces overlap in an octagon;
/// with a slight tilt its vertices have different depths, and the
/// deepest (found by sampling B's face densely) must be kept.
fn octagon<R: Real>() {
    let cube: Shape<'_, R> = Cuboid::new(v(0.5, 0.5, 0.5)).unwrap().into();
    let a = Body::new(&cube, Iso3::IDENTITY);
    for tilt in [0.0, 0.004, -0.007] {
        let rot = Mat3::from_axis_angle(Vec3::X, R::lit(tilt)).mul_mat(&Mat3::from_axis_angle(
            Vec3::Z,
            R::lit(core::f64::consts::FRAC_PI_4),
        ));
        let p = pose(rot, v(0.0, 0.0, 0.99));
        let m = contact_manifold(&a, &Body::new(&cube, p), &ContactParams::new());
        assert_eq!(m.len(), 4, "{m:?}");
        // Brute force: B's bottom face sampled; the deepest sample above
        // A's top face.
        let n = 400;
        let mut deepest = -R::INFINITY;
        for i in 0..=n {
            for j in 0..=n {
                let (x, y) = (i as f64 / n as f64 - 0.5, j as f64 / n as f64 - 0.5);
                let q = p.transform_point(v(x, y, -0.5));
                if q.x.abs() <= R::HALF && q.y.abs() <= R::HALF {
                    deepest = deepest.max_of(R::HALF - q.z);
                }
            }
        }
        let got = m.deepest().unwrap().depth;
        assert!(
            (got - deepest).abs() < R::lit(1e-4),
            "{got:?} vs {deepest:?}"
        );
        // Every point is an octagon vertex: on the boundary of both squares.
        let mut area = R::ZERO;
        let pts: Vec<_> = m.as_slice().iter().map(|c| c.position).collect();
        for c in &pts {
            let local_b = p.inverse_transform_point(*c);
            let on_a = c.x.abs().max_of(c.y.abs());
            let on_b = local_b.x.abs().max_of(local_b.y.abs());
            assert!(on_a <= R::lit(0.5001) && on_b <= R::lit(0.5001));
            assert!(on_a >= R::lit(0.4999) || on_b >= R::lit(0.4999));
        }
        // The four points span the octagon's largest quadrilateral: every
        // other vertex, a square of side 0.765 (area 0.586).
        let centre = pts.iter().fold(Vec3::ZERO, |s, p| s + *p) * R::lit(0.25);
        let mut by_angle = pts.clone();
        by_angle.sort_by(|p, q| {
            let ap = (p.y - centre.y).atan2(p.x - centre.x).to_f64();
            let aq = (q.y - centre.y).atan2(q.x - centre.x).to_f64();
            ap.partial_cmp(&aq).unwrap()
        });
        for k in 0..4 {
            let (p, q) = (by_angle[k], by_angle[(k + 1) % 4]);
            area += (p.x * q.y - q.x * p.y) * R::HALF;
        }
        assert!(area > R::lit(0.585), "area {area:?}");
    }
}
for_each_real!(box_on_box_turned_45_degrees_keeps_the_deepest, octagon);

fn edge_on_edge<R: Real>() {
    let cube: Shape<'_, R> = Cuboid::new(v(0.5, 0.5, 0.5)).unwrap().into();
    let q = core::f64::consts::FRAC_PI_4;
    let s2 = core::f64::consts::SQRT_2 * 0.5;
    // A's top edge along x at z = s2; B's bottom edge along y.
    let pa = pose(Mat3::from_axis_angle(Vec3::X, R::lit(q)), Vec3::ZERO);
    let pb = pose(
        Mat3::from_axis_angle(Vec3::Y, R::lit(q)),
        v(0.1, -0.05, 2.0 * s2 - 0.02),
    );
    let m = contact_manifold(
        &Body::new(&cube, pa),
        &Body::new(&cube, pb),
        &ContactParams::new(),
    );
    // The edges cross at B's x and A's y.
    assert_points(
        &m,
        &[(v(0.1, 0.0, s2 - 0.01), R::lit(0.02))],
        Vec3::Z,
        tol(),
    );
}
for_each_real!(box_edge_on_box_edge_gives_one_point, edge_on_edge);

/// Rounded boxes (body margins) whose cores are apart across an edge:
/// the gap between the cores is along the diagonal, which none of the 15
/// separating axes is, and the rounded boxes overlap there. A 2 m cube at
/// the origin and a 1 m cube at (2, 0, 2), both rounded by 0.5 m: the cores'
/// parallel edges (along y) are 0.5·√2 apart, so the rounded boxes overlap
/// by 1 - 0.5·√2 along (1, 0, 1)/√2, over the edges' common length
/// (y from -0.5 to 0.5). The closed form alone found no contact.
fn rounded_boxes_across_an_edge<R: Real>() {
    let big: Shape<'_, R> = Cuboid::new(v(1.0, 1.0, 1.0)).unwrap().into();
    let small: Shape<'_, R> = Cuboid::new(v(0.5, 0.5, 0.5)).unwrap().into();
    let a = Body::new(&big, Iso3::IDENTITY).with_margin(R::lit(0.5));
    let b = Body::new(&small, Iso3::from_translation(v(2.0, 0.0, 2.0))).with_margin(R::lit(0.5));
    let depth = 1.0 - 0.5 * core::f64::consts::SQRT_2;
    let n = v::<R>(1.0, 0.0, 1.0) * R::lit(core::f64::consts::FRAC_1_SQRT_2);
    for (first, second, normal) in [(&a, &b, n), (&b, &a, -n)] {
        let m = contact_manifold(first, second, &ContactParams::new());
        assert!(!m.is_empty(), "no contact: {m:?}");
        let deepest = m
            .as_slice()
            .iter()
            .map(|c| c.depth)
            .fold(R::ZERO, R::max_of);
        assert!(
            (deepest - R::lit(depth)).abs() < tol::<R>() * R::lit(10.0),
            "{m:?}"
        );
        for c in m.as_slice() {
            assert!(
                (c.normal - normal).norm() < tol::<R>() * R::lit(10.0),
                "{c:?}"
            );
            // On the segment between the two edges' midline, y within the
            // common length.
            let y = c.position.y.to_f64();
            assert!(y.abs() <= 0.5 + 1e-4, "{c:?}");
            let mid = c.position - v(1.25, 0.0, 1.25);
            assert!((mid - Vec3::Y * mid.y).norm() < R::lit(1e-3), "{c:?}");
        }
    }
}
for_each_real!(
    rounded_boxes_across_an_edge_touch_along_the_diagonal,
    rounded_boxes_across_an_edge
);

/// Random box pairs with margins, in all poses: the manifold is there
/// exactly when GJK's distance of the inflated boxes is below the contact
/// margin (away from the boundary), and its deepest point is minus that
/// distance, as the independent GJK measures it.
fn boxes_with_margins<R: Real>() {
    let mut rng = Rng::new(41);
    let mut hits = 0;
    for i in 0..3000 {
        let ha = v::<R>(
            rng.range_f64(0.05, 2.0),
            rng.range_f64(0.05, 2.0),
            rng.range_f64(0.05, 2.0),
        );
        let hb = v::<R>(
            rng.range_f64(0.05, 2.0),
            rng.range_f64(0.05, 2.0),
            rng.range_f64(0.05, 2.0),
        );
        let sa: Shape<'_, R> = Cuboid::new(ha).unwrap().into();
        let sb: Shape<'_, R> = Cuboid::new(hb).unwrap().into();
        let rounding = |rng: &mut Rng| {
            if rng.range_f64(0.0, 1.0) < 0.3 {
                0.0
            } else {
                rng.range_f64(0.0, 1.0)
            }
        };
        let (ma, mb) = (rounding(&mut rng), rounding(&mut rng));
        let margin = [0.0, 0.05, 0.5][i % 3];
        let turn = |rng: &mut Rng| {
            if i % 4 == 0 {
                Mat3::IDENTITY
            } else {
                Mat3::from_axis_angle(rng.unit_vec::<R>(), R::lit(rng.range_f64(0.0, 3.2)))
            }
        };
        let pa = pose(turn(&mut rng), rng.in_cube::<R>(1.0));
        let reach = (ha.norm() + hb.norm()).to_f64() + ma + mb + margin;
        let pb = pose(
            turn(&mut rng),
            pa.translation + rng.unit_vec::<R>() * R::lit(rng.range_f64(0.2, 1.1) * reach),
        );
        let a = Body::new(&sa, pa).with_margin(R::lit(ma));
        let b = Body::new(&sb, pb).with_margin(R::lit(mb));
        let d = mink::distance(&a, &b, mink::Method::Auto).distance.to_f64();
        let t = tol::<R>().to_f64() * 100.0 * (1.0 + reach);
        for (first, second) in [(&a, &b), (&b, &a)] {
            let m = contact_manifold(
                first,
                second,
                &ContactParams::new().with_margin(R::lit(margin)),
            );
            if d > margin + t {
                assert!(
                    m.is_empty(),
                    "case {i}: contact at distance {d}, margin {margin}: {m:?}"
                );
            } else if d < margin - t {
                hits += 1;
                assert!(!m.is_empty(), "case {i}: no contact at distance {d}, margin {margin}: {ha:?} {hb:?} {ma} {mb} {pa:?} {pb:?} {:?}", mink::distance(first, second, mink::Method::Auto));
                let deepest = m
                    .as_slice()
                    .iter()
                    .map(|c| c.depth.to_f64())
                    .fold(f64::MIN, f64::max);
                // Overlapping cores: A's face stands while B's face or an
                // edge pair is not better by the preference, the larger
                // one for an edge axis near the face's normal (documented).
                let preference = BOX_FEATURE_PREFERENCE.max(NEAR_FACE_EDGE_PREFERENCE);
                let bias = preference * ha.norm().min_of(hb.norm()).to_f64();
                assert!(
                    deepest >= -d - t && deepest <= -d + t + bias,
                    "case {i}: deepest {deepest} at distance {d}, margins {ma} {mb}: {m:?}"
                );
            }
        }
    }
    assert!(hits > 1000, "{hits} manifolds");
}
for_each_real!(boxes_with_margins_agree_with_gjk, boxes_with_margins);

/// A capsule standing tilted under a box, its top end inside the box's
/// footprint and its segment crossing the footprint's edge: the manifold
/// holds the end (the deepest point) and the segment clipped at the edge,
/// shallower. The deepest comes first, so a caller keeping one point
/// (`collide` with a cap of 1, a scene's `max_points_per_pair`) keeps it.
/// Depth in closed form: the capsule's top along +z to the box's bottom
/// face. (Found by the scene_step fuzz target: the direct manifold kept
/// the clipped point, 2.4 cm shallower than the scene's.)
fn deepest_first<R: Real>() {
    let half = v::<R>(1.592, 1.826, 0.809);
    let cuboid: Shape<'_, R> = Cuboid::new(half).unwrap().into();
    let (radius, half_length) = (1.1, 0.489);
    let capsule: Shape<'_, R> = Capsule::new(R::lit(radius), R::lit(half_length))
        .unwrap()
        .into();
    let axis = v::<R>(-0.0959, -0.9011, 0.4230).normalize_or(Vec3::Z);
    let rotation = Mat3::from_cols(
        axis.any_orthonormal(),
        axis.cross(axis.any_orthonormal()),
        axis,
    );
    let centre = v::<R>(1.6147, 1.0344, -1.1706);
    let a = Body::new(&cuboid, Iso3::IDENTITY);
    let b = Body::new(&capsule, pose(rotation, centre));
    let top = centre + axis * R::lit(half_length);
    assert!(top.x < half.x && (centre - axis * R::lit(half_length)).y < half.y);
    let depth = top.z + R::lit(radius) + half.z;
    let m = contact_manifold(&a, &b, &ContactParams::new());
    assert!(m.len() >= 2, "{m:?}");
    let first = m.as_slice()[0];
    assert!(
        (first.depth - depth).abs() < tol::<R>() * R::lit(10.0),
        "{m:?}"
    );
    assert!(m.as_slice().iter().all(|c| c.depth <= first.depth), "{m:?}");
    let (ca, cb): (mink::Collider<'_, R>, mink::Collider<'_, R>) = (cuboid.into(), capsule.into());
    let mut kept = Vec::new();
    mink::collide(&ca, &a.pose, &cb, &b.pose, &ContactParams::new(), 1, |p| {
        kept.push(p)
    });
    assert_eq!(kept.len(), 1);
    assert!(
        (kept[0].depth - depth).abs() < tol::<R>() * R::lit(10.0),
        "{kept:?}"
    );
}
for_each_real!(the_deepest_point_comes_first, deepest_first);

fn capsules_and_cylinders_on_boxes<R: Real>() {
    let cube: Shape<'_, R> = Cuboid::new(v(0.5, 0.5, 0.5)).unwrap().into();
    let a = Body::new(&cube, Iso3::IDENTITY);
    let params = ContactParams::new();
    let rod: Shape<'_, R> = Capsule::new(R::lit(0.1), R::lit(0.3)).unwrap().into();
    let lying = Mat3::from_axis_angle(Vec3::Y, R::lit(core::f64::consts::FRAC_PI_2));
    // Lying on the box: its segment, 2 points.
    let m = contact_manifold(
        &a,
        &Body::new(&rod, pose(lying, v(0.05, 0.1, 0.59))),
        &params,
    );
    let expected = [
        (v(-0.25, 0.1, 0.495), R::lit(0.01)),
        (v(0.35, 0.1, 0.495), R::lit(0.01)),
    ];
    assert_points(
        &m,
        &expected,
        Vec3::Z,
        tol::<R>().max_of(R::lit(1e-6)) * R::lit(100.0),
    );
    // Overhanging the edge: clipped to the face.
    let m = contact_manifold(
        &a,
        &Body::new(&rod, pose(lying, v(0.4, 0.1, 0.59))),
        &params,
    );
    let expected = [
        (v(0.1, 0.1, 0.495), R::lit(0.01)),
        (v(0.5, 0.1, 0.495), R::lit(0.01)),
    ];
    assert_points(&m, &expected, Vec3::Z, R::lit(1e-3));
    // Two parallel capsules: the overlap of their segments.
    let m = contact_manifold(
        &Body::new(&rod, pose(lying, v(0.0, 0.0, 0.0))),
        &Body::new(&rod, pose(lying, v(0.2, 0.0, 0.19))),
        &params,
    );
    let expected = [
        (v(-0.1, 0.0, 0.095), R::lit(0.01)),
        (v(0.3, 0.0, 0.095), R::lit(0.01)),
    ];
    assert_points(&m, &expected, Vec3::Z, R::lit(1e-3));
    // Crossed capsules: one point.
    let across = Mat3::from_axis_angle(Vec3::X, R::lit(core::f64::consts::FRAC_PI_2));
    let m = contact_manifold(
        &Body::new(&rod, pose(lying, v(0.0, 0.0, 0.0))),
        &Body::new(&rod, pose(across, v(0.0, 0.0, 0.19))),
        &params,
    );
    assert_points(&m, &[(v(0.0, 0.0, 0.095), R::lit(0.01))], Vec3::Z, tol());
    // A capsule lying on a hull (a cube given by its corners): 2 points.
    let corners = Cuboid::new(v(0.5, 0.5, 0.5)).unwrap().corners();
    let hull = ConvexHull::from_points(&corners).unwrap();
    let hull_shape: Shape<'_, R> = Shape::Hull(hull.view());
    let m = contact_manifold(
        &Body::new(&hull_shape, Iso3::IDENTITY),
        &Body::new(&rod, pose(lying, v(0.05, 0.1, 0.59))),
        &params,
    );
    let expected = [
        (v(-0.25, 0.1, 0.495), R::lit(0.01)),
        (v(0.35, 0.1, 0.495), R::lit(0.01)),
    ];
    assert_points(&m, &expected, Vec3::Z, R::lit(1e-3));
    // Hull on hull, face to face: 4 corners.
    let m = contact_manifold(
        &Body::new(&hull_shape, Iso3::IDENTITY),
        &Body::new(&hull_shape, Iso3::from_translation(v(0.3, 0.2, 0.98))),
        &params,
    );
    let expected: Vec<_> = [(-0.2, -0.3), (0.5, -0.3), (0.5, 0.5), (-0.2, 0.5)]
        .iter()
        .map(|&(x, y)| (v::<R>(x, y, 0.49), R::lit(0.02)))
        .collect();
    assert_points(&m, &expected, Vec3::Z, R::lit(1e-3));
}
for_each_real!(capsules_hulls_on_boxes, capsules_and_cylinders_on_boxes);

/// A tilted capsule on a box face, its lower end 1 cm deep: each end
/// within the margin is a point under that end's core point, at the depth
/// of the capsule's surface right below it: the lower end's sphere reaches
/// down by the radius, whatever the tilt, and the side's cylinder under
/// the upper end by radius / sin(tilt). The same with the bodies swapped,
/// the normal flipped.
fn tilted_capsule_on_box<R: Real>() {
    let cube: Shape<'_, R> = Cuboid::new(v(0.5, 0.5, 0.5)).unwrap().into();
    let (radius, half_length) = (0.1, 0.3);
    let rod: Shape<'_, R> = Capsule::new(R::lit(radius), R::lit(half_length))
        .unwrap()
        .into();
    let params = ContactParams::new().with_margin(R::lit(0.05));
    // `rise`: how much higher the upper end's core point is than the lower.
    for (rise, points) in [(0.04, 2), (0.2, 1)] {
        let cos_tilt: f64 = rise / (2.0 * half_length);
        let sin_tilt = (1.0 - cos_tilt * cos_tilt).sqrt();
        let tilt = Mat3::from_axis_angle(Vec3::Y, R::lit(cos_tilt.acos()));
        let low = 0.5 - 0.01 + radius;
        let centre = (0.1, -0.2, low + rise / 2.0);
        let x_low = centre.0 - half_length * sin_tilt;
        let x_high = centre.0 + half_length * sin_tilt;
        let bottom_high = low + rise - radius / sin_tilt;
        let mut expected = vec![(v::<R>(x_low, centre.1, 0.495), R::lit(0.01))];
        if points == 2 {
            let z = (0.5 + bottom_high) / 2.0;
            expected.push((v(x_high, centre.1, z), R::lit(0.5 - bottom_high)));
        }
        let box_body = Body::new(&cube, Iso3::IDENTITY);
        let rod_body = Body::new(&rod, pose(tilt, v(centre.0, centre.1, centre.2)));
        let m = contact_manifold(&box_body, &rod_body, &params);
        assert_points(&m, &expected, Vec3::Z, R::lit(1e-4));
        let m = contact_manifold(&rod_body, &box_body, &params);
        assert_points(&m, &expected, -Vec3::Z, R::lit(1e-4));
    }
}
for_each_real!(tilted_capsule_on_box_face, tilted_capsule_on_box);

/// A cylinder standing on a box face, by its support set and by
/// perturbation: at least 3 points, all on the rim, at the cap's depth.
fn cylinder_on_box<R: Real>() {
    let cube: Shape<'_, R> = Cuboid::new(v(1.0, 1.0, 0.5)).unwrap().into();
    let can: Shape<'_, R> = Cylinder::new(R::lit(0.3), R::lit(0.4)).unwrap().into();
    let centre = v::<R>(0.1, 0.2, 0.89);
    for patch in [Patch::Auto, Patch::Perturb] {
        let m = contact_manifold_with(
            &Body::new(&cube, Iso3::IDENTITY),
            &Body::new(&can, Iso3::from_translation(centre)),
            &ContactParams::new(),
            patch,
        );
        rim_points(&m, centre, R::lit(0.3), R::lit(0.01), patch);
    }
}
for_each_real!(
    cylinder_standing_on_a_box_touches_around_its_rim,
    cylinder_on_box
);

fn rim_points<R: Real>(m: &Manifold<R>, centre: Vec3<R>, radius: R, depth: R, patch: Patch) {
    assert!(m.len() >= 3, "{patch:?}: {m:?}");
    let loose = R::lit(2e-3);
    for c in m.as_slice() {
        assert!((c.depth - depth).abs() < loose, "{patch:?}: {c:?}");
        assert!((c.normal - Vec3::Z).norm() < loose);
        let r = Vec3::new(c.position.x - centre.x, c.position.y - centre.y, R::ZERO).norm();
        // The rim, or the first contact anywhere on the cap.
        assert!(r <= radius + loose, "{patch:?}: {c:?}");
    }
    let on_rim = m
        .as_slice()
        .iter()
        .filter(|c| {
            let r = Vec3::new(c.position.x - centre.x, c.position.y - centre.y, R::ZERO).norm();
            (r - radius).abs() < radius * R::lit(0.05)
        })
        .count();
    assert!(on_rim >= 3, "{patch:?}: {m:?}");
}

/// A user's cylinder with only a support function (no support set): the
/// automatic path falls back to perturbation and still finds the rim.
#[derive(Clone, Copy, Debug)]
struct PlainCylinder<R> {
    radius: R,
    half_length: R,
}

impl<R: Real> Support<R> for PlainCylinder<R> {
    type Hint = ();
    fn support(&self, d: Vec3<R>, _: &mut ()) -> Vec3<R> {
        let rho = (d.x * d.x + d.y * d.y).sqrt();
        let (x, y) = if rho > R::ZERO {
            (d.x / rho * self.radius, d.y / rho * self.radius)
        } else {
            (self.radius, R::ZERO)
        };
        let z = if d.z >= R::ZERO {
            self.half_length
        } else {
            -self.half_length
        };
        Vec3::new(x, y, z)
    }
}

fn custom_cylinder<R: Real>() {
    let cube: Shape<'_, R, PlainCylinder<R>> = Cuboid::new(v(1.0, 1.0, 0.5)).unwrap().into();
    let can: Shape<'_, R, PlainCylinder<R>> = Shape::Custom(PlainCylinder {
        radius: R::lit(0.3),
        half_length: R::lit(0.4),
    });
    let centre = v::<R>(0.1, 0.2, 0.89);
    let m = contact_manifold(
        &Body::new(&cube, Iso3::IDENTITY),
        &Body::new(&can, Iso3::from_translation(centre)),
        &ContactParams::new(),
    );
    rim_points(&m, centre, R::lit(0.3), R::lit(0.01), Patch::Auto);
    // On a plane as well.
    let plane: Shape<'_, R, PlainCylinder<R>> =
        HalfSpace::new(Vec3::Z, R::lit(0.5)).unwrap().into();
    let m = contact_manifold(
        &Body::new(&plane, Iso3::IDENTITY),
        &Body::new(&can, Iso3::from_translation(centre)),
        &ContactParams::new(),
    );
    rim_points(&m, centre, R::lit(0.3), R::lit(0.01), Patch::Auto);
}
for_each_real!(
    user_shape_without_support_set_gets_perturbation,
    custom_cylinder
);

/// A sphere against anything gives exactly one point, on both surfaces.
fn sphere_on_anything<R: Real>() {
    let ball: Shape<'_, R> = Sphere::new(R::lit(0.25)).unwrap().into();
    let corners = Cuboid::new(v(0.5, 0.5, 0.5)).unwrap().corners();
    let hull = ConvexHull::from_points(&corners).unwrap();
    let others: [Shape<'_, R>; 5] = [
        Cuboid::new(v(0.5, 0.5, 0.5)).unwrap().into(),
        Shape::Hull(hull.view()),
        Cylinder::new(R::lit(0.5), R::lit(0.5)).unwrap().into(),
        Capsule::new(R::lit(0.5), R::lit(0.0)).unwrap().into(),
        HalfSpace::new(Vec3::Z, R::lit(0.5)).unwrap().into(),
    ];
    for other in &others {
        for patch in [Patch::Auto, Patch::Perturb] {
            let m = contact_manifold_with(
                &Body::new(other, Iso3::IDENTITY),
                &Body::new(&ball, Iso3::from_translation(v(0.0, 0.0, 0.74))),
                &ContactParams::new(),
                patch,
            );
            assert_points(
                &m,
                &[(v(0.0, 0.0, 0.495), R::lit(0.01))],
                Vec3::Z,
                R::lit(1e-4),
            );
        }
    }
}
for_each_real!(sphere_on_anything_gives_one_point, sphere_on_anything);

/// Non-finite poses, bad margins and two planes give no points.
fn invalid_input<R: Real>() {
    let cube: Shape<'_, R> = Cuboid::new(v(0.5, 0.5, 0.5)).unwrap().into();
    let plane = ground::<R>();
    let ok = Iso3::IDENTITY;
    let mut bad = Iso3::from_translation(v(0.0, 0.0, 0.4));
    bad.translation.x = R::nan();
    let params = ContactParams::new();
    for (sa, sb) in [(&cube, &cube), (&plane, &cube), (&cube, &plane)] {
        assert!(contact_manifold(&Body::new(sa, ok), &Body::new(sb, bad), &params).is_empty());
        assert!(contact_manifold(&Body::new(sa, bad), &Body::new(sb, ok), &params).is_empty());
        let near = Iso3::from_translation(v(0.0, 0.0, 0.9));
        for m in [-R::ONE, R::nan(), R::INFINITY] {
            let p = ContactParams::new().with_margin(m);
            assert!(contact_manifold(&Body::new(sa, ok), &Body::new(sb, near), &p).is_empty());
            let body = Body::new(sb, near).with_margin(m);
            assert!(contact_manifold(&Body::new(sa, ok), &body, &params).is_empty());
        }
    }
    assert!(contact_manifold(&Body::new(&plane, ok), &Body::new(&plane, ok), &params).is_empty());
}
for_each_real!(invalid_input_gives_no_points, invalid_input);

/// A box resting face on face on another, as a stack at rest looks: B's
/// bottom face 1 cm into A's top face, B turned by any angle about A's
/// normal, tilted by up to 1° about a random horizontal axis and moved by
/// up to 10 cm sideways, A at a random pose; 2 mm margin. The faces'
/// points are 1 cm deep give or take the tilt over the face's half
/// diagonal (at most 0.64 · sin 1° = 1.12 cm), so every point of the
/// clipped patch is within the margin: the manifold is four points (the
/// patch is a rectangle or an octagon), all within the margin and at most
/// 2.2 cm deep, along A's face normal or B's (within the tilt).
fn resting_boxes<R: Real>() {
    let mut rng = Rng::new(0x5e57);
    let half = v::<R>(0.5, 0.4, 0.3);
    let cube: Shape<'_, R> = Cuboid::new(half).unwrap().into();
    let params = ContactParams::new().with_margin(R::lit(0.002));
    let mut short = 0;
    let mut worst = String::new();
    for _ in 0..1024 {
        let pose_a = rng.pose::<R>(2.0);
        let yaw = Mat3::from_axis_angle(Vec3::Z, rng.range::<R>(0.0, core::f64::consts::TAU));
        let phi = rng.range_f64(0.0, core::f64::consts::TAU);
        let axis = v::<R>(phi.cos(), phi.sin(), 0.0);
        let tilt = Mat3::from_axis_angle(axis, rng.range::<R>(0.0, 1f64.to_radians()));
        let offset = v::<R>(rng.range_f64(-0.1, 0.1), rng.range_f64(-0.1, 0.1), 0.59);
        let rotation = pose_a.rotation.mul_mat(&tilt.mul_mat(&yaw));
        let pose_b = Iso3::from_parts(rotation, pose_a.transform_point(offset));
        let m = contact_manifold(
            &Body::new(&cube, pose_a),
            &Body::new(&cube, pose_b),
            &params,
        );
        let up = pose_a.rotation.col(2);
        let ok = m.len() == 4
            && m.as_slice().iter().all(|c| {
                let depth = c.depth.to_f64();
                (-0.002..=0.0213).contains(&depth)
                    && c.normal.dot(up) > R::lit(1f64.to_radians().cos() - 1e-4)
            });
        if !ok {
            short += 1;
            if worst.is_empty() {
                worst = format!("{pose_a:?} {pose_b:?} {m:?}");
            }
        }
    }
    assert_eq!(
        short, 0,
        "{short} of 1024 resting poses short; first: {worst}"
    );
}

for_each_real!(resting_boxes_touch_at_four_points, resting_boxes);
