//! Mesh–mesh and mesh–convex contacts on non-convex meshes: a torus and a
//! bowl resting on a slab, a ball in the bowl, a rod through the torus'
//! hole, interlocking tori. Contacts where the shapes touch, none where
//! they do not (in the hole, in the cavity); every contact checked against
//! the brute-force signed distances of both meshes.

mod common;

use common::{arr, bowl, buffer, cuboid, sphere, torus, Soup};
use mink_sdf::{mesh_convex_contacts, mesh_mesh_contacts, Contact, OwnedSdf, SdfBody, TriMesh};
use mink_support::{Cuboid, Iso3, Mat3, Real, Sphere, Vec3};
use mink_testkit::for_each_real;

struct Body<R: Real> {
    soup: Soup,
    mesh: TriMesh<R>,
    field: OwnedSdf<R>,
}

impl<R: Real> Body<R> {
    fn new(soup: Soup, resolution: u32) -> Self {
        let (mesh, field) = soup.field::<R>(resolution, 0.1);
        Self { soup, mesh, field }
    }
    fn sdf(&self) -> SdfBody<'_, R> {
        SdfBody::new(self.mesh.view(), self.field.view())
    }
    fn cell(&self) -> f64 {
        self.field.grid().cell.to_f64()
    }
    /// Brute-force signed distance of a world point.
    fn signed(&self, pose: &Iso3<R>, p: Vec3<R>) -> f64 {
        self.soup.signed(arr(pose.inverse_transform_point(p)))
    }
}

fn t<R: Real>(x: f64, y: f64, z: f64) -> Vec3<R> {
    Vec3::new(R::lit(x), R::lit(y), R::lit(z))
}

/// Every contact: unit normal, within the margin, its points on the two
/// surfaces and its distance the brute-force one, to `tol` meters.
fn check<R: Real>(
    cs: &[Contact<R>],
    a: &Body<R>,
    pa: &Iso3<R>,
    b: &Body<R>,
    pb: &Iso3<R>,
    margin: f64,
    tol: f64,
) {
    for c in cs {
        assert!((c.normal.norm().to_f64() - 1.0).abs() < 1e-3);
        assert!(c.distance.to_f64() <= margin + 1e-6);
        let on_a = a.signed(pa, c.point_a);
        let on_b = b.signed(pb, c.point_b);
        assert!(on_a.abs() <= tol, "point_a {:?} off A by {on_a}", c.point_a);
        assert!(on_b.abs() <= tol, "point_b {:?} off B by {on_b}", c.point_b);
        let d = c.distance.to_f64();
        let via_a = b.signed(pb, c.point_a);
        let via_b = a.signed(pa, c.point_b);
        assert!(
            (d - via_a).abs() <= tol || (d - via_b).abs() <= tol,
            "distance {d} vs brute force {via_a} / {via_b}"
        );
        let gap = arr(c.point_b - c.point_a);
        let expect = arr(c.normal * c.distance);
        assert!(common::norm(common::sub(gap, expect)) < 1e-4);
    }
}

/// Quadrants of the xy plane the points fall in.
fn quadrants<R: Real>(points: impl Iterator<Item = Vec3<R>>) -> usize {
    let mut seen = [false; 4];
    for p in points {
        seen[usize::from(p.x < R::ZERO) + 2 * usize::from(p.y < R::ZERO)] = true;
    }
    seen.iter().filter(|&&s| s).count()
}

fn radial<R: Real>(p: Vec3<R>) -> f64 {
    (p.x * p.x + p.y * p.y).sqrt().to_f64()
}

fn slab<R: Real>() -> (Body<R>, Iso3<R>) {
    (
        Body::new(cuboid([3.0, 3.0, 0.1]), 64),
        Iso3::from_translation(t(0.0, 0.0, -0.1)),
    )
}

fn torus_rests_on_a_slab<R: Real>() {
    let (plane, pp) = slab::<R>();
    let ring = Body::<R>::new(torus(1.0, 0.3, 48, 16), 48);
    let margin = 0.02;
    let tol = 2.0 * ring.cell().max(plane.cell());
    // 1 cm into the slab.
    let pose = Iso3::from_translation(t(0.0, 0.0, 0.29));
    let mut out = buffer::<R, 8>();
    let n = mesh_mesh_contacts(
        &plane.sdf(),
        &pp,
        &ring.sdf(),
        &pose,
        R::lit(margin),
        &mut out,
    );
    let cs = &out[..n];
    assert!(n >= 4, "{n} contacts");
    check(cs, &plane, &pp, &ring, &pose, margin, tol);
    for c in cs {
        assert!(c.normal.z.to_f64() > 0.95, "normal {:?}", c.normal);
        let r = radial(c.point_b);
        assert!(
            (0.85..1.15).contains(&r),
            "contact at radius {r}: in the hole?"
        );
    }
    assert!(quadrants(cs.iter().map(|c| c.point_b)) >= 3);
    let deepest = cs
        .iter()
        .map(|c| c.depth().to_f64())
        .fold(f64::MIN, f64::max);
    assert!((deepest - 0.01).abs() < 0.01, "deepest {deepest}");

    // Lifted 5 cm: nothing within the 2 cm margin.
    let lifted = Iso3::from_translation(t(0.0, 0.0, 0.35));
    assert_eq!(
        mesh_mesh_contacts(
            &plane.sdf(),
            &pp,
            &ring.sdf(),
            &lifted,
            R::lit(margin),
            &mut out
        ),
        0
    );
}
for_each_real!(torus_rests_on_a_slab, torus_rests_on_a_slab);

fn bowl_rests_on_a_slab<R: Real>() {
    let (plane, pp) = slab::<R>();
    let cup = Body::<R>::new(bowl(1.0, 0.1, 48, 12), 48);
    let margin = 0.02;
    let tol = 2.0 * cup.cell().max(plane.cell());
    let pose = Iso3::from_translation(t(0.0, 0.0, 0.99));
    let mut out = buffer::<R, 8>();
    let n = mesh_mesh_contacts(
        &plane.sdf(),
        &pp,
        &cup.sdf(),
        &pose,
        R::lit(margin),
        &mut out,
    );
    assert!(n >= 1, "no contact");
    check(&out[..n], &plane, &pp, &cup, &pose, margin, tol);
    for c in &out[..n] {
        assert!(c.normal.z.to_f64() > 0.95);
        assert!(radial(c.point_b) < 0.35, "contact far from the bottom");
    }
}
for_each_real!(bowl_rests_on_a_slab, bowl_rests_on_a_slab);

fn ball_in_the_bowl<R: Real>() {
    let cup = Body::<R>::new(bowl(1.0, 0.1, 48, 12), 48);
    let ball = Body::<R>::new(sphere(0.3, 32, 16), 32);
    let margin = 0.02;
    let tol = 2.0 * cup.cell().max(ball.cell());
    let id = Iso3::IDENTITY;
    // On the inner bottom (inner radius 0.9), 5 mm deep.
    let resting = Iso3::from_translation(t(0.0, 0.0, -0.9 + 0.3 - 0.005));
    let mut out = buffer::<R, 8>();
    let n = mesh_mesh_contacts(
        &cup.sdf(),
        &id,
        &ball.sdf(),
        &resting,
        R::lit(margin),
        &mut out,
    );
    assert!(n >= 1, "no contact");
    check(&out[..n], &cup, &id, &ball, &resting, margin, tol);
    for c in &out[..n] {
        assert!(c.normal.z.to_f64() > 0.9, "normal {:?}", c.normal);
        assert!(radial(c.point_a) < 0.3);
    }
    // Floating in the cavity: inside the bowl's hull and box, 0.3 m from
    // every wall, so no contact.
    let floating = Iso3::from_translation(t(0.0, 0.0, -0.3));
    assert_eq!(
        mesh_mesh_contacts(
            &cup.sdf(),
            &id,
            &ball.sdf(),
            &floating,
            R::lit(margin),
            &mut out
        ),
        0
    );
}
for_each_real!(ball_in_the_bowl, ball_in_the_bowl);

fn rod_through_the_torus_hole<R: Real>() {
    let ring = Body::<R>::new(torus(1.0, 0.3, 48, 16), 48);
    let rod = Body::<R>::new(cuboid([0.2, 0.2, 1.5]), 32);
    let margin = 0.02;
    let id = Iso3::IDENTITY;
    let mut out = buffer::<R, 8>();
    // Through the middle of the hole (radius 0.7): no contact.
    let centred = Iso3::from_translation(t(0.0, 0.0, 0.0));
    assert_eq!(
        mesh_mesh_contacts(
            &ring.sdf(),
            &id,
            &rod.sdf(),
            &centred,
            R::lit(margin),
            &mut out
        ),
        0
    );
    // Its +x face pressed 5 cm into the hole's rim (at x = 0.7).
    let pressed = Iso3::from_translation(t(0.55, 0.0, 0.0));
    let n = mesh_mesh_contacts(
        &ring.sdf(),
        &id,
        &rod.sdf(),
        &pressed,
        R::lit(margin),
        &mut out,
    );
    assert!(n >= 1);
    check(
        &out[..n],
        &ring,
        &id,
        &rod,
        &pressed,
        margin,
        2.0 * ring.cell(),
    );
    for c in &out[..n] {
        assert!(c.normal.x.to_f64() < -0.9, "normal {:?}", c.normal);
        assert!(c.point_a.x.to_f64() > 0.6);
    }
    // A ball known by its support function, in the hole and then pressed
    // 5 cm into the same rim.
    let ball = Sphere::new(R::lit(0.2)).unwrap();
    assert_eq!(
        mesh_convex_contacts(&ring.sdf(), &id, &ball, &centred, R::lit(margin), &mut out),
        0
    );
    let n = mesh_convex_contacts(&ring.sdf(), &id, &ball, &pressed, R::lit(margin), &mut out);
    assert!(n >= 1);
    for c in &out[..n] {
        assert!(c.normal.x.to_f64() < -0.9);
        let on_ball = (arr(c.point_b)[0] - 0.55).hypot(common::norm([
            0.0,
            arr(c.point_b)[1],
            arr(c.point_b)[2],
        ]));
        assert!((on_ball - 0.2).abs() < 1e-4, "point_b off the ball");
        assert!((ring.signed(&id, c.point_b) - c.distance.to_f64()).abs() < 2.0 * ring.cell());
    }
    let deepest = out[..n]
        .iter()
        .map(|c| c.depth().to_f64())
        .fold(f64::MIN, f64::max);
    assert!((deepest - 0.05).abs() < 0.02, "deepest {deepest}");
    // The same rod as a box known by its support function: only its
    // corners are sampled, which are far from the rim (the documented
    // limit; the mesh–mesh query above finds the face contact).
    let rod_shape = Cuboid::new(t(0.2, 0.2, 1.5)).unwrap();
    assert_eq!(
        mesh_convex_contacts(
            &ring.sdf(),
            &id,
            &rod_shape,
            &pressed,
            R::lit(margin),
            &mut out
        ),
        0
    );
}
for_each_real!(rod_through_the_torus_hole, rod_through_the_torus_hole);

fn interlocking_tori<R: Real>() {
    let a = Body::<R>::new(torus(1.0, 0.25, 48, 16), 48);
    let b = Body::<R>::new(torus(1.0, 0.25, 48, 16), 48);
    let margin = 0.02;
    let id = Iso3::IDENTITY;
    let rot = Mat3::from_axis_angle(Vec3::X, R::lit(std::f64::consts::FRAC_PI_2));
    let mut out = buffer::<R, 8>();
    // B in the xz plane, centred at x = 1.52: its tube passes through A's
    // hole and presses 2 cm into A's tube from inside at x ≈ 0.76.
    let linked = Iso3::from_parts(rot, t(1.52, 0.0, 0.0));
    let n = mesh_mesh_contacts(&a.sdf(), &id, &b.sdf(), &linked, R::lit(margin), &mut out);
    assert!(n >= 1);
    check(&out[..n], &a, &id, &b, &linked, margin, 2.0 * a.cell());
    // Crossing tubes: within the margin band the normals fan out with the
    // tubes' curvature; the deepest point's is along -x.
    for c in &out[..n] {
        assert!(c.normal.x.to_f64() < -0.8, "normal {:?}", c.normal);
        let p = arr(c.point_a);
        assert!(
            common::norm(common::sub(p, [0.76, 0.0, 0.0])) < 0.25,
            "at {p:?}"
        );
    }
    let deepest = out[..n]
        .iter()
        .map(|c| c.depth().to_f64())
        .fold(f64::MIN, f64::max);
    assert!((deepest - 0.02).abs() < 0.02, "deepest {deepest}");
    let first = out[0];
    assert!(
        first.normal.x.to_f64() < -0.95,
        "deepest normal {:?}",
        first.normal
    );
    // Still linked, but 10 cm apart: no contact.
    let loose = Iso3::from_parts(rot, t(1.4, 0.0, 0.0));
    assert_eq!(
        mesh_mesh_contacts(&a.sdf(), &id, &b.sdf(), &loose, R::lit(margin), &mut out),
        0
    );
    // Swapping A and B mirrors the normals.
    let n2 = mesh_mesh_contacts(&b.sdf(), &linked, &a.sdf(), &id, R::lit(margin), &mut out);
    assert!(n2 >= 1);
    for c in &out[..n2] {
        assert!(c.normal.x.to_f64() > 0.8);
    }
    assert!(out[0].normal.x.to_f64() > 0.95);
}
for_each_real!(interlocking_tori, interlocking_tori);

fn bad_poses_give_no_contacts<R: Real>() {
    let ring = Body::<R>::new(torus(1.0, 0.3, 24, 12), 16);
    let mut out = buffer::<R, 8>();
    let nan = Iso3::from_translation(Vec3::new(R::nan(), R::ZERO, R::ZERO));
    let id = Iso3::IDENTITY;
    assert_eq!(
        mesh_mesh_contacts(&ring.sdf(), &id, &ring.sdf(), &nan, R::ONE, &mut out),
        0
    );
    assert_eq!(
        mesh_mesh_contacts(&ring.sdf(), &id, &ring.sdf(), &id, R::nan(), &mut out),
        0
    );
    // Coincident: contacts, all finite; an empty buffer takes none.
    assert!(mesh_mesh_contacts(&ring.sdf(), &id, &ring.sdf(), &id, R::ZERO, &mut out) > 0);
    assert_eq!(
        mesh_mesh_contacts(&ring.sdf(), &id, &ring.sdf(), &id, R::ZERO, &mut []),
        0
    );
}
for_each_real!(bad_poses_give_no_contacts, bad_poses_give_no_contacts);
