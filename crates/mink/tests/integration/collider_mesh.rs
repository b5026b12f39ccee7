//! Triangle meshes with their signed distance fields in the pipeline
//! (`Collider::Mesh`), and the deep-penetration fallback of convex pairs
//! carrying fields (`Collider::ConvexWithField`), in f32 and f64.
//!
//! References are independent of the code tested: the analytic torus
//! (signed distance `√((ρ - R)² + z²) - r`), planes and boxes in closed
//! form, and the exact penetration depth of two boxes by the 15-axis
//! separating-axis test written here.

use mink::collider::deep;
use mink::contact::{BOX_FEATURE_PREFERENCE, FEATURE_SLOP_FRACTION};
use mink::islands::Link;
use mink::query::{penetration, Body, Method, Status};
use mink::scene::{GeomDesc, SceneBuf, SceneConfig, SceneDesc, SceneInput};
use mink::sdf::{OwnedSdf, SdfBody, SdfOptions, TriMesh};
use mink::support::{ConvexHull, Cuboid, HalfSpace, HeightField, Iso3, Mat3, Real, Sphere, Vec3};
use mink::{collide, Collider, ContactParams, ContactPoint, Shape};
use mink_testkit::{for_each_real, Rng};
use std::f64::consts::{FRAC_PI_2, TAU};

fn v<R: Real>(x: f64, y: f64, z: f64) -> Vec3<R> {
    Vec3::new(R::lit(x), R::lit(y), R::lit(z))
}

fn arr<R: Real>(p: Vec3<R>) -> [f64; 3] {
    [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()]
}

/// A torus about z: `major` radius, tube `minor`, `nu × nv` quads (the
/// tube's profile has a vertex at its lowest point, `z = -minor`).
fn torus_mesh<R: Real>(major: f64, minor: f64, nu: usize, nv: usize) -> TriMesh<R> {
    let mut vertices = Vec::new();
    for i in 0..nu {
        let u = TAU * i as f64 / nu as f64;
        for j in 0..nv {
            let w = TAU * j as f64 / nv as f64;
            let r = major + minor * w.cos();
            vertices.push(v::<R>(r * u.cos(), r * u.sin(), minor * w.sin()));
        }
    }
    let id = |i: usize, j: usize| ((i % nu) * nv + (j % nv)) as u32;
    let mut triangles = Vec::new();
    for i in 0..nu {
        for j in 0..nv {
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
    }
    TriMesh::new(&vertices, &triangles).unwrap()
}

/// The analytic torus' signed distance at `p` (torus frame).
fn torus_sd(p: [f64; 3], major: f64, minor: f64) -> f64 {
    let rho = (p[0] * p[0] + p[1] * p[1]).sqrt();
    ((rho - major).powi(2) + p[2] * p[2]).sqrt() - minor
}

/// A mesh and its field.
struct Meshed<R: Real> {
    mesh: TriMesh<R>,
    field: OwnedSdf<R>,
}

impl<R: Real> Meshed<R> {
    fn new(mesh: TriMesh<R>, resolution: u32) -> Self {
        let field = OwnedSdf::build(&mesh, SdfOptions::new(resolution, R::lit(0.1))).unwrap();
        Self { mesh, field }
    }
    fn sdf(&self) -> SdfBody<'_, R> {
        SdfBody::new(self.mesh.view(), self.field.view())
    }
    fn cell(&self) -> f64 {
        self.field.grid().cell.to_f64()
    }
}

/// Every contact `collide` emits for `a`, `b`, checked against the
/// swapped call: when `exact`, the same contacts with the normals negated;
/// otherwise the deepest of each within `near` meters, normals opposite.
#[allow(clippy::too_many_arguments)]
fn both_orders<R: Real>(
    a: &Collider<'_, R>,
    pa: &Iso3<R>,
    b: &Collider<'_, R>,
    pb: &Iso3<R>,
    margin: f64,
    max_points: usize,
    exact: bool,
    near: f64,
) -> Vec<ContactPoint<R>> {
    let params = ContactParams::new().with_margin(R::lit(margin));
    let (mut ab, mut ba) = (Vec::new(), Vec::new());
    let n = collide(a, pa, b, pb, &params, max_points, |c| ab.push(c));
    assert_eq!(n, ab.len());
    let n = collide(b, pb, a, pa, &params, max_points, |c| ba.push(c));
    assert_eq!(n, ba.len());
    assert!(ab.len() <= max_points);
    for c in ab.iter().chain(&ba) {
        assert!((c.normal.norm().to_f64() - 1.0).abs() < 1e-4, "{c:?}");
        assert!(c.depth.to_f64() >= -margin - 1e-6, "{c:?}");
    }
    if exact {
        assert_eq!(ab.len(), ba.len());
        for (p, q) in ab.iter().zip(&ba) {
            assert_eq!((p.position, p.depth), (q.position, q.depth));
            assert_eq!(p.normal, -q.normal);
        }
    } else if let (Some(p), Some(q)) = (deepest(&ab), deepest(&ba)) {
        let apart = (p.position - q.position).norm().to_f64();
        assert!(apart < near, "deepest points {apart} m apart");
        assert!(p.normal.dot(q.normal).to_f64() < -0.95);
    } else {
        assert_eq!(ab.len(), ba.len());
    }
    ab
}

fn deepest<R: Real>(cs: &[ContactPoint<R>]) -> Option<ContactPoint<R>> {
    cs.iter()
        .copied()
        .reduce(|a, b| if b.depth > a.depth { b } else { a })
}

/// Quadrants of the xy plane (about `centre`) the points fall in.
fn quadrants(points: &[[f64; 3]], centre: [f64; 2]) -> usize {
    let mut seen = [false; 4];
    for p in points {
        let (x, y) = (p[0] - centre[0], p[1] - centre[1]);
        seen[usize::from(x < 0.0) + 2 * usize::from(y < 0.0)] = true;
    }
    seen.iter().filter(|&&s| s).count()
}

/// Checks contacts of a torus (major 1, tube 0.3) resting 1 cm deep on a
/// horizontal surface at height `top`, the torus centred at `centre`
/// (world), the contacts oriented from the torus (`down`: normal `-z`) or
/// towards it. Each is on the ring (the analytic torus' lowest circle), at
/// the surface, 1 cm deep to `depth_tol`; none in the hole.
fn check_ring<R: Real>(
    cs: &[ContactPoint<R>],
    centre: [f64; 3],
    top: f64,
    down: bool,
    depth_tol: f64,
    tol: f64,
) {
    assert!(cs.len() >= 3, "{} contacts", cs.len());
    let mut at = Vec::new();
    for c in cs {
        let p = arr(c.position);
        let local = [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]];
        let rho = (local[0] * local[0] + local[1] * local[1]).sqrt();
        assert!(
            (rho - 1.0).abs() < tol,
            "contact at radius {rho}: off the ring"
        );
        assert!(rho > 0.7, "contact in the hole at radius {rho}");
        let depth = c.depth.to_f64();
        assert!((depth - 0.01).abs() < depth_tol, "depth {depth}");
        // The midpoint lies half the depth below the surface's top...
        assert!(
            (p[2] - (top - depth / 2.0)).abs() < depth_tol,
            "height {}",
            p[2]
        );
        // ...and half the depth inside the analytic torus.
        let on_torus = [local[0], local[1], local[2]];
        let sd = torus_sd(on_torus, 1.0, 0.3);
        assert!((sd + depth / 2.0).abs() < tol, "torus distance {sd}");
        let nz = c.normal.z.to_f64();
        assert!(
            if down { nz < -0.99 } else { nz > 0.99 },
            "normal {:?}",
            c.normal
        );
        at.push(p);
    }
    assert!(
        quadrants(&at, [centre[0], centre[1]]) >= 3,
        "one-sided: {at:?}"
    );
}

/// A scene: the ground plane and a box (fixed), one torus resting 1 cm
/// into the plane and one 1 cm into the box's top, through the scene's
/// step; each pair's contacts are the direct `collide` call's, checked
/// against the analytic torus, plane and box, and mirrored by the swapped
/// call.
fn torus_rests_on_plane_and_box<R: Real>() {
    let torus = Meshed::<R>::new(torus_mesh(1.0, 0.3, 48, 16), 48);
    let ground = HalfSpace::new(Vec3::Z, R::ZERO).unwrap();
    let slab = Cuboid::new(v(1.5, 1.5, 0.25)).unwrap();
    let slab_pose = Iso3::from_translation(v::<R>(6.0, 0.0, 0.25));
    let geoms: [GeomDesc<'_, R>; 4] = [
        GeomDesc::new(Shape::from(ground), 0),
        GeomDesc::new(Shape::from(slab), 0).with_pose(slab_pose),
        GeomDesc::new(torus.sdf(), 1).with_margin(R::lit(0.01)),
        GeomDesc::new(torus.sdf(), 2).with_margin(R::lit(0.01)),
    ];
    let links = [Link::world(), Link::free(0, 6), Link::free(6, 6)];
    let dof_length = [R::ONE; 12];
    let desc = SceneDesc::new(&geoms, &links, &dof_length, &[]).unwrap();
    let mut config = SceneConfig::new();
    config.max_points_per_pair = 8;
    let mut scene = SceneBuf::new(desc, config).unwrap();
    let poses = [
        Iso3::IDENTITY,
        Iso3::from_translation(v(0.0, 0.0, 0.29)),
        Iso3::from_translation(v(6.0, 0.0, 0.79)),
    ];
    let vel = [R::ZERO; 12];
    scene.step(&SceneInput::new(&poses, &vel)).unwrap();
    // Rounding of the vertices and poses, and the facets of the 48-gon.
    let depth_tol = 1e-4 + 1e3 * R::EPSILON.to_f64();
    let tol = 0.01;
    let on_ground: Vec<ContactPoint<R>> = scene
        .contacts_between(1, 0)
        .map(|c| ContactPoint {
            position: c.position,
            normal: c.normal,
            depth: c.depth,
        })
        .collect();
    check_ring(&on_ground, [0.0, 0.0, 0.29], 0.0, true, depth_tol, tol);
    let on_box: Vec<ContactPoint<R>> = scene
        .contacts_between(2, 0)
        .map(|c| ContactPoint {
            position: c.position,
            normal: c.normal,
            depth: c.depth,
        })
        .collect();
    check_ring(&on_box, [6.0, 0.0, 0.79], 0.5, true, depth_tol, tol);
    // The plane–torus pair on the box: 1.3 cm apart, beyond the margin.
    assert_eq!(scene.contacts().len(), on_ground.len() + on_box.len());

    // The scene's contacts are `collide`'s, pair by pair, in order.
    let placed = scene.geom_poses().to_vec();
    for (ga, gb) in [(0, 2), (1, 3)] {
        let from_scene: Vec<_> = scene
            .contacts()
            .iter()
            .filter(|c| (c.geom_a, c.geom_b) == (ga, gb))
            .map(|c| (c.position, c.normal, c.depth))
            .collect();
        let (a, b) = (&geoms[ga as usize], &geoms[gb as usize]);
        let params = ContactParams::new().with_margin(a.margin + b.margin);
        let mut direct = Vec::new();
        collide(
            &a.collider,
            &placed[ga as usize],
            &b.collider,
            &placed[gb as usize],
            &params,
            8,
            |c| direct.push((c.position, c.normal, c.depth)),
        );
        assert!(!direct.is_empty());
        assert_eq!(from_scene, direct, "pair {ga}-{gb}");
    }

    // Both orders, directly: the same contacts with the normals negated.
    let mesh = Collider::Mesh(torus.sdf());
    let (plane, boxed) = (
        Collider::Convex(ground.into()),
        Collider::Convex(slab.into()),
    );
    let ab = both_orders(
        &mesh,
        &poses[1],
        &plane,
        &Iso3::IDENTITY,
        0.01,
        8,
        true,
        0.0,
    );
    check_ring(&ab, [0.0, 0.0, 0.29], 0.0, true, depth_tol, tol);
    let ab = both_orders(&mesh, &poses[2], &boxed, &slab_pose, 0.01, 8, true, 0.0);
    check_ring(&ab, [6.0, 0.0, 0.79], 0.5, true, depth_tol, tol);
    // A cap of 4 keeps 4 spread points; no margin and lifted 5 mm, none.
    let ab = both_orders(&mesh, &poses[2], &boxed, &slab_pose, 0.01, 4, true, 0.0);
    assert_eq!(ab.len(), 4);
    check_ring(&ab, [6.0, 0.0, 0.79], 0.5, true, depth_tol, tol);
    // The box carrying its own field: mesh–mesh through the two fields
    // (exact on the box's flat top).
    let slab_mesh = Meshed::<R>::new(TriMesh::from_cuboid(&slab).unwrap(), 48);
    let fielded = Collider::ConvexWithField(slab.into(), slab_mesh.sdf());
    let ab = both_orders(&mesh, &poses[2], &fielded, &slab_pose, 0.01, 8, true, 0.0);
    check_ring(&ab, [6.0, 0.0, 0.79], 0.5, true, 1e-3, tol);
    let lifted = Iso3::from_translation(v(6.0, 0.0, 0.805));
    assert!(both_orders(&mesh, &lifted, &boxed, &slab_pose, 0.0, 8, true, 0.0).is_empty());
    let lifted = Iso3::from_translation(v(0.0, 0.0, 0.305));
    assert!(both_orders(&mesh, &lifted, &plane, &Iso3::IDENTITY, 0.0, 8, true, 0.0).is_empty());
    // Bad input: nothing, no panic.
    let nan = Iso3::from_translation(Vec3::new(R::nan(), R::ZERO, R::ZERO));
    let params = ContactParams::new().with_margin(R::lit(0.01));
    assert_eq!(
        collide(&mesh, &nan, &boxed, &slab_pose, &params, 8, |_| ()),
        0
    );
    assert_eq!(
        collide(&mesh, &poses[2], &boxed, &slab_pose, &params, 0, |_| ()),
        0
    );
    let bad = ContactParams::new().with_margin(R::nan());
    assert_eq!(
        collide(&mesh, &poses[2], &mesh, &poses[2], &bad, 8, |_| ()),
        0
    );
}
for_each_real!(torus_rests_on_plane_and_box, torus_rests_on_plane_and_box);

/// A ball of radius 0.8 sitting in a torus' hole (tube 0.3 about a
/// circle of radius 1), 1 cm into the tube all around: the ball's samples
/// in the torus' field and the torus' vertices against the ball. Checked
/// against the analytic pair: at the azimuth of a contact the tube comes
/// closest along the line from the ball's centre `c` to the tube's centre
/// circle `q`, depth `ρ + r - |c - q|` (1 cm); every contact is no deeper,
/// its normal near that line, its position half its depth inside both the
/// ball and the analytic torus.
fn ball_in_a_torus_hole<R: Real>() {
    let (major, minor, ball) = (1.0, 0.3, 0.8);
    let torus = Meshed::<R>::new(torus_mesh(major, minor, 64, 32), 64);
    // The centre 0.4337 m up: √(1 + h²) = 1.09, 1 cm less than ρ + r.
    let h = (1.09_f64 * 1.09 - 1.0).sqrt();
    let centre = [0.0, 0.0, h];
    let sphere = Collider::Convex(Sphere::new(R::lit(ball)).unwrap().into());
    let at = Iso3::from_translation(v::<R>(0.0, 0.0, h));
    let cs = both_orders(
        &sphere,
        &at,
        &Collider::Mesh(torus.sdf()),
        &Iso3::IDENTITY,
        0.005,
        8,
        true,
        0.0,
    );
    assert!(cs.len() >= 4, "{} contacts", cs.len());
    // The polygons (64 × 32) sit inside the analytic torus by up to 1.5 mm;
    // the field's interpolation adds its own millimetres.
    let tol = 5e-3;
    let mut at_points = Vec::new();
    for c in &cs {
        let p = arr(c.position);
        let d = [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]];
        let azimuth = d[1].atan2(d[0]);
        let q = [major * azimuth.cos(), major * azimuth.sin(), 0.0];
        let to_q = [q[0] - centre[0], q[1] - centre[1], q[2] - centre[2]];
        let len = (to_q[0] * to_q[0] + to_q[1] * to_q[1] + to_q[2] * to_q[2]).sqrt();
        let expect = [to_q[0] / len, to_q[1] / len, to_q[2] / len];
        // Within the margin the tube's normal turns by up to 0.3 rad from
        // the line of closest approach.
        let n = arr(c.normal);
        let cos = n[0] * expect[0] + n[1] * expect[1] + n[2] * expect[2];
        assert!(cos > 0.9, "normal {n:?}, expected {expect:?}");
        let depth = c.depth.to_f64();
        assert!(depth <= ball + minor - len + tol, "depth {depth}");
        let r = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        assert!(
            (r - (ball - depth / 2.0)).abs() < tol,
            "{r} m from the centre"
        );
        let sd = torus_sd(p, major, minor);
        assert!(
            (sd + depth / 2.0).abs() < tol,
            "torus distance {sd}, depth {depth}"
        );
        at_points.push(p);
    }
    assert!(
        quadrants(&at_points, [0.0, 0.0]) >= 3,
        "one-sided: {at_points:?}"
    );
    let deepest = deepest(&cs).unwrap().depth.to_f64();
    assert!((deepest - 0.01).abs() < tol, "deepest {deepest}");
    // 5 cm higher, 1.1 cm apart: out of the 5 mm margin.
    let up = Iso3::from_translation(v::<R>(0.0, 0.0, h + 0.05));
    let none = both_orders(
        &sphere,
        &up,
        &Collider::Mesh(torus.sdf()),
        &Iso3::IDENTITY,
        0.005,
        8,
        true,
        0.0,
    );
    assert!(none.is_empty(), "{none:?}");
}
for_each_real!(ball_in_a_torus_hole, ball_in_a_torus_hole);

/// A torus 1 cm into a flat height field: contacts on the ring, normals
/// up from the terrain, both orders mirrored.
fn torus_rests_on_a_height_field<R: Real>() {
    let torus = Meshed::<R>::new(torus_mesh(1.0, 0.3, 48, 16), 48);
    let heights = vec![R::ZERO; 11 * 11];
    let terrain = HeightField::new(&heights, 11, 11, R::HALF, R::HALF, R::ONE).unwrap();
    let pose = Iso3::from_translation(v(2.5, 2.5, 0.29));
    let cs = both_orders(
        &Collider::HeightField(terrain),
        &Iso3::IDENTITY,
        &Collider::Mesh(torus.sdf()),
        &pose,
        0.0,
        8,
        true,
        0.0,
    );
    // The terrain's samples are looked up in the field: its accuracy.
    let tol = torus.cell();
    check_ring(&cs, [2.5, 2.5, 0.29], 0.0, false, tol / 4.0, tol);
}
for_each_real!(torus_rests_on_a_height_field, torus_rests_on_a_height_field);

/// Two linked tori in a scene: contacts only where the tubes press into
/// each other, checked against both analytic tori; the scene's contacts
/// are `collide`'s; the swapped call mirrors the normal.
fn interlocking_tori_in_a_scene<R: Real>() {
    let (major, minor) = (1.0, 0.25);
    let ring = Meshed::<R>::new(torus_mesh(major, minor, 48, 16), 48);
    let geoms: [GeomDesc<'_, R>; 2] = [
        GeomDesc::new(ring.sdf(), 1).with_margin(R::lit(0.01)),
        GeomDesc::new(ring.sdf(), 2).with_margin(R::lit(0.01)),
    ];
    let links = [Link::world(), Link::free(0, 6), Link::free(6, 6)];
    let dof_length = [R::ONE; 12];
    let desc = SceneDesc::new(&geoms, &links, &dof_length, &[]).unwrap();
    let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
    // B in the xz plane, centred at x = 1.52: its tube passes through A's
    // hole and presses 2 cm into A's tube from inside at x ≈ 0.76 (the
    // centre circles come closest there, 0.48 m apart).
    let rot = Mat3::from_axis_angle(Vec3::X, R::lit(FRAC_PI_2));
    let linked = Iso3::from_parts(rot, v(1.52, 0.0, 0.0));
    let poses = [Iso3::IDENTITY, Iso3::IDENTITY, linked];
    let vel = [R::ZERO; 12];
    scene.step(&SceneInput::new(&poses, &vel)).unwrap();
    let cs: Vec<_> = scene.contacts_between(1, 2).collect();
    assert!(!cs.is_empty());
    assert!(cs.len() <= SceneConfig::<R>::new().max_points_per_pair);
    let tol = 2.0 * ring.cell();
    for c in &cs {
        let p = arr(c.position);
        let in_a = torus_sd(p, major, minor);
        let in_b = torus_sd(
            arr(linked.inverse_transform_point(c.position)),
            major,
            minor,
        );
        let depth = c.depth.to_f64();
        // The midpoint is half the depth inside both tubes.
        assert!(
            (in_a + depth / 2.0).abs() < tol,
            "A's distance {in_a}, depth {depth}"
        );
        assert!(
            (in_b + depth / 2.0).abs() < tol,
            "B's distance {in_b}, depth {depth}"
        );
        let d = ((p[0] - 0.76).powi(2) + p[1] * p[1] + p[2] * p[2]).sqrt();
        assert!(
            d < 0.25,
            "contact at {p:?}, away from where the tubes touch"
        );
        assert!(c.normal.x.to_f64() < -0.8, "normal {:?}", c.normal);
    }
    let deep = cs.iter().map(|c| c.depth.to_f64()).fold(f64::MIN, f64::max);
    assert!((deep - 0.02).abs() < 0.01, "deepest {deep}");

    // The scene's contacts are `collide`'s.
    let params = ContactParams::new().with_margin(R::lit(0.02));
    let mut direct = Vec::new();
    let (ca, cb) = (&geoms[0].collider, &geoms[1].collider);
    collide(ca, &poses[1], cb, &linked, &params, 4, |c| direct.push(c));
    let from_scene: Vec<_> = scene
        .contacts()
        .iter()
        .map(|c| ContactPoint {
            position: c.position,
            normal: c.normal,
            depth: c.depth,
        })
        .collect();
    assert_eq!(from_scene, direct);
    // Swapped: the deepest point found again, the normal mirrored.
    both_orders(ca, &poses[1], cb, &linked, 0.02, 4, false, ring.cell());
    // Still linked, 10 cm apart: nothing.
    let loose = Iso3::from_parts(rot, v(1.4, 0.0, 0.0));
    assert!(both_orders(ca, &poses[1], cb, &loose, 0.02, 4, true, 0.0).is_empty());
}
for_each_real!(interlocking_tori_in_a_scene, interlocking_tori_in_a_scene);

/// The exact penetration depth of two boxes (half extents, poses): the
/// smallest overlap over the 15 separating axes (3 + 3 face normals, 9
/// edge cross products).
fn sat_boxes(ha: [f64; 3], pa: &Iso3<f64>, hb: [f64; 3], pb: &Iso3<f64>) -> f64 {
    let axes_of = |p: &Iso3<f64>| [Vec3::X, Vec3::Y, Vec3::Z].map(|e| p.rotation.mul_vec(e));
    let (ea, eb) = (axes_of(pa), axes_of(pb));
    let mut axes: Vec<Vec3<f64>> = ea.iter().chain(&eb).copied().collect();
    for x in ea {
        for y in eb {
            let c = x.cross(y);
            if c.norm() > 1e-9 {
                axes.push(c * (1.0 / c.norm()));
            }
        }
    }
    let radius = |h: [f64; 3], e: [Vec3<f64>; 3], n: Vec3<f64>| {
        (0..3).map(|k| h[k] * n.dot(e[k]).abs()).sum::<f64>()
    };
    axes.iter()
        .map(|&n| {
            let gap = n.dot(pb.translation - pa.translation).abs();
            radius(ha, ea, n) + radius(hb, eb, n) - gap
        })
        .fold(f64::MAX, f64::min)
}

fn corners<R: Real>(h: [f64; 3]) -> Vec<Vec3<R>> {
    (0..8)
        .map(|i| {
            let s = |bit: u32, x: f64| if i & bit != 0 { x } else { -x };
            v::<R>(s(1, h[0]), s(2, h[1]), s(4, h[2]))
        })
        .collect()
}

/// Percentile `q` of sorted `x`.
fn pct(x: &[f64], q: f64) -> f64 {
    x[((x.len() - 1) as f64 * q).round() as usize]
}

/// Boxes driven deep into each other, as hulls carrying the fields of
/// their own meshes: the pipeline's depth against the exact SAT depth,
/// next to MPR's (the table's choice for a hull pair) and EPA's. Box–box
/// as `Shape::Cuboid` keeps its closed form, exact; a pair where only one
/// side carries a field is the plain convex pair.
fn deep_boxes_match_sat<R: Real>() {
    let mut rng = Rng::new(12);
    let (mut err_mpr, mut err_epa, mut err_deep) = (Vec::new(), Vec::new(), Vec::new());
    let mut err_auto = Vec::new();
    let mut triggered = 0;
    let mut tries = 0;
    let params = ContactParams::new();
    while err_deep.len() < 100 {
        tries += 1;
        assert!(tries < 2000, "too few deep pairs");
        let mut half = || [0; 3].map(|_| rng.range_f64(0.2, 0.6));
        let (ha, hb) = (half(), half());
        let pa = rng.pose::<f64>(0.0);
        let mut pb = rng.pose::<f64>(0.0);
        pb.translation = rng.in_cube(0.4);
        let exact = sat_boxes(ha, &pa, hb, &pb);
        if exact < 0.05 {
            continue;
        }
        let (hull_a, hull_b) = (
            ConvexHull::from_points(&corners::<R>(ha)).unwrap(),
            ConvexHull::from_points(&corners::<R>(hb)).unwrap(),
        );
        let (ma, mb) = (
            Meshed::new(TriMesh::from_hull(&hull_a.view()).unwrap(), 24),
            Meshed::new(TriMesh::from_hull(&hull_b.view()).unwrap(), 24),
        );
        let (sa, sb): (Shape<'_, R>, Shape<'_, R>) = (hull_a.view().into(), hull_b.view().into());
        let (qa, qb) = (pa.cast::<R>(), pb.cast::<R>());
        let (ba, bb) = (Body::new(&sa, qa), Body::new(&sb, qb));
        let mpr = -penetration(&ba, &bb, Method::Mpr).distance.to_f64();
        let epa = -penetration(&ba, &bb, Method::Epa).distance.to_f64();
        let certified = penetration(&ba, &bb, Method::Auto);
        let auto = -certified.distance.to_f64();
        let fb = deep::penetration(&ba, &ma.sdf(), &bb, &mb.sdf(), Method::Auto);
        let fallback = -fb.distance.to_f64();
        if fallback != mpr {
            triggered += 1;
        }
        let size = [ha, hb].iter().flatten().fold(0.0_f64, |m, &h| m.max(h));
        let slack = 1e-4 * size + 10.0 * R::sqrt_epsilon().to_f64();
        // An exact overlap along an axis: never below the depth.
        assert!(
            fallback >= exact - slack,
            "fallback {fallback} below the exact {exact}"
        );
        assert!(
            (fallback - exact).abs() <= (mpr - exact).abs() + 1e-3 * size,
            "fallback {fallback}, MPR {mpr}, exact {exact}"
        );
        // Among the scored axes is EPA's, optimal on polytopes: a deep
        // pair's depth is exact, not merely no worse than MPR's.
        if fallback != mpr {
            assert!(
                (fallback - exact).abs() <= slack,
                "fallback {fallback}, exact {exact}"
            );
        }

        // The pipeline: its deepest contact is the fallback's depth (less
        // the slop within which a patch point stands for the first
        // contact), along its normal.
        let (wa, wb) = (
            Collider::ConvexWithField(sa, ma.sdf()),
            Collider::ConvexWithField(sb, mb.sdf()),
        );
        let mut cs = Vec::new();
        collide(&wa, &qa, &wb, &qb, &params, 4, |c| cs.push(c));
        let d = deepest(&cs).expect("overlapping pair without contacts");
        let half_diagonal = |h: [f64; 3]| (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]).sqrt();
        let feature_slop = FEATURE_SLOP_FRACTION * half_diagonal(ha).min(half_diagonal(hb));
        assert!(
            d.depth.to_f64() <= fallback + slack
                && d.depth.to_f64() >= fallback - feature_slop - slack,
            "{} vs {fallback}",
            d.depth
        );
        assert!(d.normal.dot(fb.normal).to_f64() > 1.0 - 1e-4);
        // Opt-in: a field on one side only is the plain convex pair.
        let plain = |a: &Collider<'_, R>, b: &Collider<'_, R>| {
            let mut out = Vec::new();
            collide(a, &qa, b, &qb, &params, 4, |c| out.push(c));
            out
        };
        let (ca, cb) = (Collider::Convex(sa), Collider::Convex(sb));
        assert_eq!(plain(&wa, &cb), plain(&ca, &cb));
        // Boxes as boxes: the closed form, exact, fields or not.
        let (ka, kb): (Shape<'_, R>, Shape<'_, R>) = (
            Cuboid::new(v(ha[0], ha[1], ha[2])).unwrap().into(),
            Cuboid::new(v(hb[0], hb[1], hb[2])).unwrap().into(),
        );
        let boxes = plain(
            &Collider::ConvexWithField(ka, ma.sdf()),
            &Collider::ConvexWithField(kb, mb.sdf()),
        );
        // Its 15-axis test prefers a face unless an edge pair separates
        // better by `BOX_FEATURE_PREFERENCE` of the smaller half diagonal.
        let box_depth = deepest(&boxes).unwrap().depth.to_f64();
        let prefer = BOX_FEATURE_PREFERENCE * half_diagonal(ha).min(half_diagonal(hb));
        assert!(
            box_depth >= exact - slack && box_depth <= exact + prefer + slack,
            "box-box {box_depth} vs {exact}"
        );

        // The query's own answer (MPR, checked by EPA when unproven) is
        // the exact depth whenever it says it converged.
        if certified.status == Status::Converged {
            assert!((auto - exact).abs() <= slack, "Auto {auto}, exact {exact}");
        }
        err_auto.push((auto - exact).abs() / size);
        err_mpr.push((mpr - exact).abs() / size);
        err_epa.push((epa - exact).abs() / size);
        err_deep.push((fallback - exact).abs() / size);
    }
    for e in [&mut err_mpr, &mut err_epa, &mut err_deep, &mut err_auto] {
        e.sort_by(f64::total_cmp);
    }
    let row = |name: &str, e: &[f64]| {
        let mean = e.iter().sum::<f64>() / e.len() as f64;
        println!(
            "| {name} | {:.1e} | {:.1e} | {:.1e} | {:.1e} |",
            pct(e, 0.5),
            pct(e, 0.95),
            e[e.len() - 1],
            mean
        );
    };
    println!(
        "deep boxes ({}): {} pairs, fallback taken on {triggered}; |depth - SAT| / size",
        std::any::type_name::<R>(),
        err_deep.len()
    );
    println!("| answer | median | 95th | worst | mean |");
    row("MPR (Mpr)", &err_mpr);
    row("GJK+EPA", &err_epa);
    row("the query (Auto)", &err_auto);
    row("pipeline with fields", &err_deep);
    assert!(triggered > 0);
    assert!(pct(&err_deep, 0.95) < 2e-3, "95th {}", pct(&err_deep, 0.95));
    assert!(err_deep[err_deep.len() - 1] < 1e-2);
    let mean = |e: &[f64]| e.iter().sum::<f64>() / e.len() as f64;
    assert!(mean(&err_deep) <= mean(&err_mpr) + 1e-4);
    let exactly = 10.0 * R::sqrt_epsilon().to_f64();
    assert!(
        pct(&err_auto, 0.95) < exactly,
        "Auto 95th {}",
        pct(&err_auto, 0.95)
    );
}
for_each_real!(deep_boxes_match_sat, deep_boxes_match_sat);

/// A small ball deep inside a box mesh, at and around its centre, where
/// the field's gradient vanishes (its samples are symmetric about the
/// centre): in contact, pushed out. It once got no contact at all, the
/// contact's normal being taken from a zero gradient.
fn ball_at_the_centre_of_a_box_mesh<R: Real>() {
    let (v, tris) =
        super::collider_rays::box_triangles(Vec3::splat(-1.0), Vec3::splat(1.0), false, 0);
    let verts: Vec<Vec3<R>> = v.iter().map(|p| p.cast()).collect();
    let cube = Meshed::new(TriMesh::new(&verts, &tris).unwrap(), 4);
    let mesh: Collider<'_, R> = Collider::Mesh(cube.sdf());
    let ball: Collider<'_, R> = Collider::Convex(Shape::Sphere(Sphere::new(R::lit(0.05)).unwrap()));
    let params = ContactParams::new();
    let mut rng = Rng::new(0xce_47e);
    for case in 0..50 {
        let pose_m: Iso3<R> = rng.pose(3.0);
        // The exact centre first, then points near it.
        let off = if case == 0 {
            Vec3::ZERO
        } else {
            rng.unit_vec::<f64>() * rng.range_f64(0.0, 1e-3)
        };
        let at = pose_m.cast::<f64>().transform_point(off).cast::<R>();
        let mut got = Vec::new();
        collide(
            &mesh,
            &pose_m,
            &ball,
            &Iso3::from_translation(at),
            &params,
            4,
            |c| got.push(c),
        );
        assert!(
            !got.is_empty(),
            "case {case}: no contact for a ball 1 m deep"
        );
        for c in &got {
            // About a meter deep, give or take the field's accuracy.
            assert!(c.depth.to_f64() > 0.5, "case {case}: {c:?}");
        }
    }
}
for_each_real!(
    ball_at_the_centre_of_a_box_mesh,
    ball_at_the_centre_of_a_box_mesh
);
