//! Height-field terrain against convex shapes through `collide`, checked
//! against analytic contacts (flat and sloped fields) and brute force
//! (interpolated heights, closest points on every triangle), in f32 and
//! f64, with the field as A and as B.

use mink::collider::HEIGHT_FIELD_TOLERANCE;
use mink::support::{
    Capsule, Cuboid, HalfSpace, HeightField, Iso3, Mat3, Real, Sphere, Support, Vec3,
};
use mink::{collide, Collider, ContactParams, ContactPoint};
use mink_testkit::{for_each_real, Rng};

fn v<R: Real>(x: f64, y: f64, z: f64) -> Vec3<R> {
    Vec3::new(R::lit(x), R::lit(y), R::lit(z))
}

/// Agreement expected of the convex pair routines, relative to the sizes
/// here (about a meter): loose in f32, tight in f64.
fn tol<R: Real>() -> f64 {
    R::EPSILON.to_f64().sqrt() * 8.0
}

/// The field's pose: tilted and moved, so every frame change is exercised.
fn field_pose<R: Real>() -> Iso3<R> {
    let axis = Vec3::new(1.0, 2.0, 3.0) * (1.0 / 14.0_f64.sqrt());
    Iso3::from_parts(Mat3::from_axis_angle(axis, 0.4), Vec3::new(1.5, -2.0, 0.7)).cast()
}

/// The heights `f(x, y)` sampled on an `nx × ny` grid of spacing `dx, dy`.
fn sampled<R: Real>(nx: usize, ny: usize, dx: f64, dy: f64, f: impl Fn(f64, f64) -> f64) -> Vec<R> {
    let mut h = Vec::with_capacity(nx * ny);
    for j in 0..ny {
        for i in 0..nx {
            h.push(R::lit(f(i as f64 * dx, j as f64 * dy)));
        }
    }
    h
}

/// Every contact `collide` emits for the pair, in both orders: the field
/// as A (returned), and as B (checked to be the same contacts with the
/// normals negated).
fn contacts<R: Real>(
    field: &HeightField<'_, R>,
    pose_f: &Iso3<R>,
    shape: impl Into<mink::Shape<'static, R>>,
    pose_s: &Iso3<R>,
    margin: f64,
    max_points: usize,
) -> Vec<ContactPoint<R>> {
    let params = ContactParams::new().with_margin(R::lit(margin));
    let terrain: Collider<'_, R> = Collider::HeightField(*field);
    let convex: Collider<'_, R> = Collider::Convex(shape.into());
    let mut ab = Vec::new();
    let n = collide(
        &terrain,
        pose_f,
        &convex,
        pose_s,
        &params,
        max_points,
        |c| ab.push(c),
    );
    assert_eq!(n, ab.len());
    let mut ba = Vec::new();
    let n = collide(
        &convex,
        pose_s,
        &terrain,
        pose_f,
        &params,
        max_points,
        |c| ba.push(c),
    );
    assert_eq!(n, ba.len());
    assert_eq!(ab.len(), ba.len(), "both orders give as many contacts");
    for (p, q) in ab.iter().zip(&ba) {
        assert_eq!(p.position, q.position);
        assert_eq!(p.depth, q.depth);
        assert_eq!(
            p.normal, -q.normal,
            "B first: normal from the shape to the field"
        );
    }
    ab
}

fn close<R: Real>(a: Vec3<R>, b: Vec3<R>, within: f64) -> bool {
    (a - b).norm().to_f64() <= within
}

fn sphere_on_flat_field<R: Real>() {
    let (nx, ny, dx, dy, h0) = (7, 6, 0.5, 0.4, 0.3);
    let heights = sampled::<R>(nx, ny, dx, dy, |_, _| h0);
    let field = HeightField::new(&heights, nx, ny, R::lit(dx), R::lit(dy), R::ONE).unwrap();
    let pose = field_pose::<R>();
    let up = pose.transform_vector(Vec3::Z);
    // Cell (2, 2) spans x 1.0..1.5, y 0.8..1.2.
    let spots = [
        ("cell centre", 1.25, 1.0),
        ("on a diagonal", 1.15, 0.92),
        ("on a column line", 1.5, 1.1),
        ("on a row line", 1.3, 1.2),
        ("on a grid vertex", 1.5, 1.2),
    ];
    for radius in [0.1, 0.35, 0.9] {
        for (what, x, y) in spots {
            for depth in [0.1 * radius, 0.0, -0.02] {
                let centre = v::<R>(x, y, h0 + radius - depth);
                let at = Iso3::from_translation(pose.transform_point(centre));
                let ball = Sphere::new(R::lit(radius)).unwrap();
                let got = contacts(&field, &pose, ball, &at, 0.05, 8);
                assert_eq!(
                    got.len(),
                    1,
                    "{what}, radius {radius}, depth {depth}: {got:?}"
                );
                let c = got[0];
                let expected = pose.transform_point(v(x, y, h0 - depth / 2.0));
                assert!(
                    close(c.normal, up, tol::<R>()),
                    "{what}: normal {:?}",
                    c.normal
                );
                assert!(
                    (c.depth.to_f64() - depth).abs() <= tol::<R>(),
                    "{what}: {c:?}"
                );
                assert!(close(c.position, expected, tol::<R>()), "{what}: {c:?}");
            }
        }
    }
}
for_each_real!(sphere_on_flat_field, sphere_on_flat_field);

fn box_on_flat_field<R: Real>() {
    let (nx, ny, dx, dy, h0) = (8, 8, 0.3, 0.25, -0.2);
    let heights = sampled::<R>(nx, ny, dx, dy, |_, _| h0);
    let field = HeightField::new(&heights, nx, ny, R::lit(dx), R::lit(dy), R::ONE).unwrap();
    let pose = field_pose::<R>();
    let up = pose.transform_vector(Vec3::Z);
    let half = v::<R>(0.35, 0.25, 0.1);
    let cuboid = Cuboid::new(half).unwrap();
    let depth = 0.01;
    for (x, y, yaw) in [(1.0, 0.9, 0.3), (1.2, 1.0, 0.0), (0.9, 0.75, -1.1)] {
        let local = Iso3::from_parts(
            Mat3::from_axis_angle(Vec3::Z, R::lit(yaw)),
            v(x, y, h0 + 0.1 - depth),
        );
        let at = pose.mul(&local);
        let got = contacts(&field, &pose, cuboid, &at, 0.0, 4);
        assert_eq!(got.len(), 4, "box at ({x}, {y}): {got:?}");
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(sx, sy)| {
            let bottom =
                local.transform_point(Vec3::new(half.x * R::lit(sx), half.y * R::lit(sy), -half.z));
            pose.transform_point(bottom + Vec3::Z * R::lit(depth / 2.0))
        });
        for corner in corners {
            let hit = got
                .iter()
                .filter(|c| close(c.position, corner, 10.0 * tol::<R>()));
            assert_eq!(
                hit.count(),
                1,
                "corner {corner:?} of the box at ({x}, {y}): {got:?}"
            );
        }
        for c in &got {
            assert!(close(c.normal, up, tol::<R>()), "{c:?}");
            assert!((c.depth.to_f64() - depth).abs() <= tol::<R>(), "{c:?}");
        }
    }
}
for_each_real!(box_on_flat_field, box_on_flat_field);

fn sphere_on_sloped_field<R: Real>() {
    let (a, b, c0) = (0.3, -0.2, 0.5);
    let (nx, ny, dx, dy) = (9, 7, 0.45, 0.5);
    let heights = sampled::<R>(nx, ny, dx, dy, |x, y| a * x + b * y + c0);
    let field = HeightField::new(&heights, nx, ny, R::lit(dx), R::lit(dy), R::lit(0.5)).unwrap();
    let pose = field_pose::<R>();
    let n_local = Vec3::new(-a, -b, 1.0) * (1.0 / (a * a + b * b + 1.0_f64).sqrt());
    let normal = pose.transform_vector(n_local.cast::<R>());
    for (x, y) in [(1.6, 1.3), (1.8, 1.5), (2.25, 1.5), (2.0, 2.0), (2.3, 1.71)] {
        for (radius, depth) in [(0.3, 0.02), (0.8, 0.1), (0.2, -0.01)] {
            let foot = Vec3::new(x, y, a * x + b * y + c0);
            let centre = foot + n_local * (radius - depth);
            let at = Iso3::from_translation(pose.transform_point(centre.cast()));
            let ball = Sphere::new(R::lit(radius)).unwrap();
            let got = contacts(&field, &pose, ball, &at, 0.05, 8);
            assert_eq!(got.len(), 1, "({x}, {y}), radius {radius}: {got:?}");
            let c = got[0];
            let expected = pose.transform_point((foot - n_local * (depth / 2.0)).cast());
            assert!(close(c.normal, normal, tol::<R>()), "{c:?}");
            assert!((c.depth.to_f64() - depth).abs() <= tol::<R>(), "{c:?}");
            assert!(close(c.position, expected, tol::<R>()), "{c:?}");
        }
    }
}
for_each_real!(sphere_on_sloped_field, sphere_on_sloped_field);

/// The terrain's height at `(x, y)` (local), found independently of the
/// library: locate the cell and the triangle, interpolate linearly.
fn surface(heights: &[f64], nx: usize, dx: f64, dy: f64, x: f64, y: f64) -> f64 {
    let ny = heights.len() / nx;
    let i = ((x / dx).floor() as usize).min(nx - 2);
    let j = ((y / dy).floor() as usize).min(ny - 2);
    let (u, w) = (x / dx - i as f64, y / dy - j as f64);
    let h = |a: usize, b: usize| heights[(j + b) * nx + i + a];
    if w <= u {
        // Triangle (0,0), (1,0), (1,1).
        h(0, 0) + u * (h(1, 0) - h(0, 0)) + w * (h(1, 1) - h(1, 0))
    } else {
        // Triangle (0,0), (1,1), (0,1).
        h(0, 0) + w * (h(0, 1) - h(0, 0)) + u * (h(1, 1) - h(0, 1))
    }
}

fn capsule_on_bumpy_field<R: Real>() {
    let (nx, ny, dx, dy) = (12, 12, 0.35, 0.35);
    let bump = |x: f64, y: f64| 0.2 * (1.3 * x).sin() * (0.9 * y).cos() + 0.05 * x;
    let exact = sampled::<f64>(nx, ny, dx, dy, bump);
    let heights: Vec<R> = exact.iter().map(|&h| R::lit(h)).collect();
    let field = HeightField::new(&heights, nx, ny, R::lit(dx), R::lit(dy), R::ONE).unwrap();
    let pose = field_pose::<R>();
    let capsule = Capsule::new(R::lit(0.15), R::lit(0.5)).unwrap();
    let mut rng = Rng::new(21);
    let (mut touching, mut cases) = (0, 0);
    for _ in 0..150 {
        let (x, y) = (rng.range_f64(1.0, 2.9), rng.range_f64(1.0, 2.9));
        // Heights up to 0.5 m above the surface: with a capsule 1.3 m long
        // at any angle, 115 of the 150 poses dip below the surface (the
        // vertical probe below counts them), inside the rate band.
        let z = surface(&exact, nx, dx, dy, x, y) + rng.range_f64(-0.05, 0.5);
        let local = Iso3::from_parts(rng.rotation(), v(x, y, z));
        let at = pose.mul(&local);
        let got = contacts(&field, &pose, capsule, &at, 0.0, 8);
        cases += 1;
        touching += usize::from(!got.is_empty());
        for c in &got {
            let q = pose.inverse_transform_point(c.position + c.normal * (c.depth * R::HALF));
            let (qx, qy, qz) = (q.x.to_f64(), q.y.to_f64(), q.z.to_f64());
            let h = surface(&exact, nx, dx, dy, qx, qy);
            assert!(
                (qz - h).abs() <= 1e-3 * dx + tol::<R>(),
                "{c:?}: terrain point {q:?}, surface {h}"
            );
            // The capsule's side of the contact is on the capsule's
            // surface, and no deeper than the capsule reaches along -normal.
            let p = pose.transform_point(q) - c.normal * c.depth;
            let axis = |t: f64| at.transform_point(v(0.0, 0.0, t));
            let (s0, s1) = (axis(-0.5), axis(0.5));
            let t = ((p - s0).dot(s1 - s0) / (s1 - s0).norm_squared()).clamp(R::ZERO, R::ONE);
            let off = ((p - (s0 + (s1 - s0) * t)).norm() - capsule.radius()).to_f64();
            assert!(
                off.abs() <= 1e-3 * dx + tol::<R>(),
                "{c:?}: {off} off the capsule"
            );
            let n_cap = at.inverse_transform_vector(-c.normal);
            let deepest =
                at.transform_point(capsule.support(n_cap, &mut ())) - c.normal * capsule.radius();
            let reach = c.normal.dot(pose.transform_point(q) - deepest);
            assert!(
                c.depth.to_f64() <= reach.to_f64() + tol::<R>(),
                "{c:?}: reaches only {reach:?}"
            );
            assert!(
                c.depth > R::ZERO,
                "no margin, so every contact overlaps: {c:?}"
            );
        }
        // Vertical brute force along the capsule's axis and rim: a point of
        // the capsule clearly below the surface means a contact.
        let mut lowest_gap = f64::INFINITY;
        for k in 0..=20 {
            let t = -0.5 + k as f64 / 20.0;
            let axis = local.transform_point(v(0.0, 0.0, t)).cast::<f64>();
            let bottom = axis - Vec3::Z * 0.15;
            lowest_gap = lowest_gap.min(bottom.z - surface(&exact, nx, dx, dy, bottom.x, bottom.y));
        }
        if lowest_gap < -0.01 {
            assert!(
                !got.is_empty(),
                "capsule at ({x}, {y}, {z}) below the surface by {lowest_gap}"
            );
        }
    }
    let rate = touching as f64 / cases as f64;
    assert!((0.3..0.9).contains(&rate), "touching rate {rate}");
}
for_each_real!(capsule_on_bumpy_field, capsule_on_bumpy_field);

fn no_contacts_off_the_field<R: Real>() {
    let heights = sampled::<R>(4, 4, 0.5, 0.5, |x, y| 0.1 * x - 0.05 * y);
    let field = HeightField::new(&heights, 4, 4, R::lit(0.5), R::lit(0.5), R::ONE).unwrap();
    let pose = field_pose::<R>();
    let ball = Sphere::new(R::lit(0.3)).unwrap();
    for centre in [
        v(-0.5, 0.7, 0.1),
        v(2.0, 0.7, 0.1),
        v(0.7, -0.4, 0.0),
        v(0.7, 0.7, 0.6),
    ] {
        let at = Iso3::from_translation(pose.transform_point(centre));
        assert!(
            contacts(&field, &pose, ball, &at, 0.05, 8).is_empty(),
            "{centre:?}"
        );
    }
    // Within the margin above: one speculative contact, minus the gap deep.
    let surface_z = 0.1 * 0.7 - 0.05 * 0.7;
    let at = Iso3::from_translation(pose.transform_point(v(0.7, 0.7, surface_z + 0.3 + 0.1)));
    let got = contacts(&field, &pose, ball, &at, 0.2, 8);
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].depth < R::ZERO && got[0].depth > R::lit(-0.1),
        "{got:?}"
    );
    assert!(contacts(&field, &pose, ball, &at, 0.05, 8).is_empty());
    // A cap of zero points.
    let at = Iso3::from_translation(pose.transform_point(v(0.7, 0.7, surface_z + 0.25)));
    assert_eq!(contacts(&field, &pose, ball, &at, 0.0, 1).len(), 1);
    assert!(contacts(&field, &pose, ball, &at, 0.0, 0).is_empty());
    // Against a half-space or another height field: nothing, documented.
    let terrain: Collider<'_, R> = field.into();
    let ground: Collider<'_, R> =
        mink::Shape::HalfSpace(HalfSpace::new(Vec3::Z, R::ONE).unwrap()).into();
    let params = ContactParams::new().with_margin(R::ONE);
    let none = |a: &Collider<'_, R>, b: &Collider<'_, R>| {
        collide(a, &pose, b, &Iso3::IDENTITY, &params, 8, |c| {
            panic!("unexpected {c:?}")
        })
    };
    assert_eq!(none(&terrain, &ground), 0);
    assert_eq!(none(&ground, &terrain), 0);
    assert_eq!(none(&terrain, &terrain), 0);
    // The world box holds every sample.
    let bounds = terrain.world_aabb(&pose);
    for j in 0..4 {
        for i in 0..4 {
            let p = pose.transform_point(field.sample(i, j).unwrap());
            assert!(bounds.inflated(R::lit(tol::<R>())).contains_point(p));
        }
    }
}
for_each_real!(no_contacts_off_the_field, no_contacts_off_the_field);

/// The closest point to `p` on the triangle `a, b, c` (by regions of the
/// triangle's edges and vertices, written here for the test).
fn closest_on_triangle(p: Vec3<f64>, a: Vec3<f64>, b: Vec3<f64>, c: Vec3<f64>) -> Vec3<f64> {
    let on_segment = |s: Vec3<f64>, e: Vec3<f64>| {
        let d = e - s;
        let t = ((p - s).dot(d) / d.dot(d)).clamp(0.0, 1.0);
        s + d * t
    };
    let n = (b - a).cross(c - a);
    let inside = [(a, b), (b, c), (c, a)]
        .iter()
        .all(|&(s, e)| (e - s).cross(p - s).dot(n) >= 0.0);
    if inside {
        return p - n * ((p - a).dot(n) / n.dot(n));
    }
    let candidates = [on_segment(a, b), on_segment(b, c), on_segment(c, a)];
    candidates
        .into_iter()
        .min_by(|x, y| (*x - p).norm().total_cmp(&(*y - p).norm()))
        .unwrap()
}

/// Brute force: the distance from `centre` to the nearest point over
/// every top triangle of the field sampled at `exact`.
fn nearest_on_field(
    exact: &[f64],
    nx: usize,
    ny: usize,
    dx: f64,
    dy: f64,
    centre: Vec3<f64>,
) -> f64 {
    let sample = |i: usize, j: usize| Vec3::new(i as f64 * dx, j as f64 * dy, exact[j * nx + i]);
    let mut nearest = f64::INFINITY;
    for j in 0..ny - 1 {
        for i in 0..nx - 1 {
            let (p00, p10, p01, p11) = (
                sample(i, j),
                sample(i + 1, j),
                sample(i, j + 1),
                sample(i + 1, j + 1),
            );
            for (a, b, c) in [(p00, p10, p11), (p00, p11, p01)] {
                nearest = nearest.min((closest_on_triangle(centre, a, b, c) - centre).norm());
            }
        }
    }
    nearest
}

fn deepest_matches_brute_force<R: Real>() {
    let mut rng = Rng::new(31);
    let (mut hits, mut cases) = (0, 0);
    let margin = 0.05;
    while cases < 300 {
        let (nx, ny) = (3 + rng.below(6), 3 + rng.below(6));
        let (dx, dy) = (rng.range_f64(0.3, 1.0), rng.range_f64(0.3, 1.0));
        let exact: Vec<f64> = (0..nx * ny).map(|_| rng.range_f64(-0.3, 0.3)).collect();
        let heights: Vec<R> = exact.iter().map(|&h| R::lit(h)).collect();
        let field = HeightField::new(&heights, nx, ny, R::lit(dx), R::lit(dy), R::ONE).unwrap();
        // Round-trip the samples so the reference sees the f32 field.
        let exact: Vec<f64> = heights.iter().map(|&h| <R as Real>::to_f64(h)).collect();
        let radius = rng.range_f64(0.1, 0.6);
        let keep = radius + margin + 0.01;
        let (wx, wy) = (dx * (nx - 1) as f64, dy * (ny - 1) as f64);
        if wx < 2.0 * keep || wy < 2.0 * keep {
            continue;
        }
        let (x, y) = (
            rng.range_f64(keep, wx - keep),
            rng.range_f64(keep, wy - keep),
        );
        let z = surface(&exact, nx, dx, dy, x, y) + rng.range_f64(0.0, 2.5 * radius);
        let centre = Vec3::new(x, y, z);
        let expected = radius - nearest_on_field(&exact, nx, ny, dx, dy, centre);
        if (expected + margin).abs() < 1e-3 {
            continue; // too close to the margin's edge to call
        }
        cases += 1;
        let pose = field_pose::<R>();
        let at = Iso3::from_translation(pose.transform_point(centre.cast()));
        let ball = Sphere::new(R::lit(radius)).unwrap();
        let got = contacts(&field, &pose, ball, &at, margin, 4);
        if expected < -margin {
            assert!(
                got.is_empty(),
                "gap {} beyond the margin: {got:?}",
                -expected
            );
            continue;
        }
        hits += 1;
        let deepest = got
            .iter()
            .map(|c| c.depth.to_f64())
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(
            (deepest - expected).abs() <= 2.0 * tol::<R>(),
            "field {nx}x{ny} ({dx}, {dy}), sphere {radius} at {centre:?}: deepest {deepest}, brute force {expected}; {got:?}"
        );
    }
    let rate = hits as f64 / cases as f64;
    assert!((0.3..0.9).contains(&rate), "contact rate {rate}");
}
for_each_real!(deepest_matches_brute_force, deepest_matches_brute_force);

/// Small balls just sunk into random terrain or hovering within the
/// contact margin, centred near its grid vertices, where each triangle's
/// nearest point to the ball is often its edge or vertex (in a pit or a
/// concave crease every triangle's contact then fails the supporting-plane
/// rule): every ball gets a contact, and the deepest matches brute force (the nearest point over every
/// triangle) within the height field's tolerance.
fn small_balls_near_vertices<R: Real>() {
    let mut rng = Rng::new(77);
    let mut cases = 0;
    for round in 0..40 {
        let (nx, ny) = (4 + rng.below(5), 4 + rng.below(5));
        let (dx, dy) = (rng.range_f64(0.2, 0.7), rng.range_f64(0.2, 0.7));
        // Rough terrain, or a gentle slope with centimetre noise (nearly
        // flat: shallow creases and pits everywhere).
        let (rough, tilt) = (round % 2 == 0, rng.range_f64(-0.1, 0.1));
        let heights: Vec<R> = (0..nx * ny)
            .map(|k| {
                let h = if rough {
                    rng.range_f64(-0.3, 0.3)
                } else {
                    tilt * (k % nx) as f64 * dx + rng.range_f64(-0.01, 0.01)
                };
                R::lit(h)
            })
            .collect();
        let field = HeightField::new(&heights, nx, ny, R::lit(dx), R::lit(dy), R::ONE).unwrap();
        let exact: Vec<f64> = heights.iter().map(|&h| <R as Real>::to_f64(h)).collect();
        let pose = field_pose::<R>();
        for j in 1..ny - 1 {
            for i in 1..nx - 1 {
                // A ball sunk into the surface, and one hovering within the
                // contact margin (a speculative contact).
                for hover in [false, true] {
                    let radius = rng.range_f64(0.02, 0.1);
                    let (x, y) = (
                        i as f64 * dx + rng.range_f64(-0.03, 0.03) * dx,
                        j as f64 * dy + rng.range_f64(-0.03, 0.03) * dy,
                    );
                    let lift = if hover {
                        radius + rng.range_f64(0.002, 0.03)
                    } else {
                        radius * rng.range_f64(0.5, 1.0)
                    };
                    let centre = Vec3::new(x, y, surface(&exact, nx, dx, dy, x, y) + lift);
                    let expected = radius - nearest_on_field(&exact, nx, ny, dx, dy, centre);
                    let margin = if rough && !hover { 0.01 } else { 0.05 };
                    if expected.abs() < 1e-3 || expected < 1e-3 - margin {
                        continue;
                    }
                    cases += 1;
                    let at = Iso3::from_translation(pose.transform_point(centre.cast()));
                    let ball = Sphere::new(R::lit(radius)).unwrap();
                    let got = contacts(&field, &pose, ball, &at, margin, 4);
                    let deepest = got
                        .iter()
                        .map(|c| c.depth.to_f64())
                        .fold(f64::NEG_INFINITY, f64::max);
                    // Near a concave vertex the faces' contacts may miss the
                    // vertex's slightly deeper one: the documented tolerance.
                    let within = 2.0 * tol::<R>() + HEIGHT_FIELD_TOLERANCE * dx.min(dy);
                    assert!(
                        (deepest - expected).abs() <= within,
                        "ball {radius} at {centre:?}: deepest {deepest}, brute force {expected}; {got:?}"
                    );
                }
            }
        }
    }
    assert!(cases > 800, "{cases} cases");
}
for_each_real!(small_balls_near_vertices, small_balls_near_vertices);

/// A shape overlapping the terrain gets contacts, however it overlaps:
/// sunk whole into a steep terrain near the grid's side (where the
/// deepest point along a steep top's normal lies off the grid), or
/// swallowing the whole terrain (a ball 5 to 50 times the terrain's
/// size, which once got no contact: every prism's answer left through a
/// wall between cells and the ball's box centre was off the grid). Each
/// contact pushes the shape out (positive depth).
fn sunk_and_swallowing_shapes_get_contacts<R: Real>() {
    let mut rng = Rng::new(0x5a11_0fed);
    let pose_f = field_pose::<R>();
    let (mut sunk, mut swallowing) = (0, 0);
    for case in 0..300 {
        let (nx, ny) = (2 + rng.below(3), 2 + rng.below(3));
        let (dx, dy) = (rng.range_f64(0.2, 0.8), rng.range_f64(0.2, 0.8));
        let heights: Vec<R> = (0..nx * ny)
            .map(|_| R::lit(rng.range_f64(-1.0, 1.0)))
            .collect();
        let thickness = 1.0;
        let field =
            HeightField::new(&heights, nx, ny, R::lit(dx), R::lit(dy), R::lit(thickness)).unwrap();
        let (w, l) = ((nx - 1) as f64 * dx, (ny - 1) as f64 * dy);
        let base = field.base().to_f64();
        let size = (w * w + l * l + 4.0).sqrt();
        let (centre, radius) = if rng.chance(0.5) {
            // Sunk: a small ball inside the solid below every sample, near
            // a side of the grid.
            let r = 0.05 * dx.min(dy);
            let x = if rng.chance(0.5) {
                2.0 * r
            } else {
                w - 2.0 * r
            };
            let y = rng.range_f64(2.0 * r, l - 2.0 * r);
            let low = heights
                .iter()
                .map(|&h| h.to_f64())
                .fold(f64::INFINITY, f64::min);
            let z = rng.range_f64(base + 2.0 * r, low - 2.0 * r);
            sunk += 1;
            (Vec3::new(x, y, z), r)
        } else {
            // Swallowing: a ball around the whole terrain.
            let r = size * rng.range_f64(5.0, 50.0);
            let off = rng.unit_vec::<f64>() * rng.range_f64(0.0, 0.5 * r);
            swallowing += 1;
            (Vec3::new(0.5 * w, 0.5 * l, 0.0) + off, r)
        };
        let pose_s =
            Iso3::from_translation(pose_f.cast::<f64>().transform_point(centre).cast::<R>());
        let ball = Sphere::new(R::lit(radius)).unwrap();
        let cs = contacts(&field, &pose_f, ball, &pose_s, 0.0, 4);
        assert!(
            !cs.is_empty(),
            "case {case}: ball r {radius} at {centre:?} (field frame)"
        );
        for c in &cs {
            assert!(c.depth > R::ZERO, "case {case}: {c:?}");
        }
    }
    assert!(sunk > 100 && swallowing > 100);
}
for_each_real!(
    sunk_and_swallowing_shapes_get_contacts,
    sunk_and_swallowing_shapes_get_contacts
);

/// Thin plates (triangles, random tilt) stuck down through the crest of a
/// one-cell ridge, anywhere along it: every plate that a brute-force
/// sampling finds under the surface gets a contact pushing it out
/// (positive depth, normal with an upward part). Each prism's shallowest
/// way out of a plate near the cell's corner is often the plate's own face
/// normal, which supports neither prism, and such a plate, not sunk whole,
/// once got no contact at all.
fn plates_through_a_ridge_get_contacts<R: Real>() {
    let mut rng = Rng::new(0x91d6_e5a7);
    let pose_f = field_pose::<R>();
    let mut overlapping = 0;
    for case in 0..2000 {
        let (dx, dy) = (rng.range_f64(0.3, 2.0), rng.range_f64(0.3, 2.0));
        let (crest, low) = (rng.range_f64(0.2, 1.0), rng.range_f64(-1.0, 0.0));
        // Samples (0,0) and (1,1) high: the crest along the cell diagonal.
        let exact = [crest, low, low, crest];
        let heights: Vec<R> = exact.iter().map(|&h| R::lit(h)).collect();
        let field = HeightField::new(&heights, 2, 2, R::lit(dx), R::lit(dy), R::ONE).unwrap();
        let exact: Vec<f64> = heights.iter().map(|&h| <R as Real>::to_f64(h)).collect();
        // A plate about the crest point at `s` along the diagonal, its
        // lowest corner `sink` under the crest.
        let s = rng.range_f64(0.0, 1.0);
        let on_crest = Vec3::new(s * dx, s * dy, crest);
        let size = rng.range_f64(0.05, 0.5) * dx.min(dy);
        let sink = rng.range_f64(0.01, 0.5) * size;
        let tilt = Mat3::from_axis_angle(rng.unit_vec::<f64>(), rng.range_f64(0.0, 0.6));
        let yaw = Mat3::from_axis_angle(Vec3::Z, rng.range_f64(0.0, core::f64::consts::TAU));
        let rot = yaw * tilt;
        // A vertical plate (in its own x-z plane), apex down.
        let corners = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(-size, 0.0, 2.0 * size),
            Vec3::new(size, 0.0, 2.0 * size),
        ]
        .map(|p| rot.mul_vec(p));
        let lowest = corners.iter().map(|p| p.z).fold(f64::INFINITY, f64::min);
        let centre = on_crest - Vec3::new(0.0, 0.0, sink + lowest);
        let plate = mink::support::Triangle::new(
            corners[0].cast::<R>(),
            corners[1].cast::<R>(),
            corners[2].cast::<R>(),
        )
        .unwrap();
        // Under the surface somewhere, by brute force over the plate.
        let mut under = 0.0_f64;
        for a in 0..=24 {
            for b in 0..=(24 - a) {
                let (u, v) = (a as f64 / 24.0, b as f64 / 24.0);
                let p = centre + corners[0] * (1.0 - u - v) + corners[1] * u + corners[2] * v;
                if p.x < 0.0 || p.x > dx || p.y < 0.0 || p.y > dy {
                    continue;
                }
                under = under.max(surface(&exact, 2, dx, dy, p.x, p.y) - p.z);
            }
        }
        if under < 1e-3 * size {
            continue;
        }
        overlapping += 1;
        let pose_s =
            Iso3::from_translation(pose_f.cast::<f64>().transform_point(centre).cast::<R>());
        let cs = contacts(&field, &pose_f, plate, &pose_s, 0.0, 4);
        let what = format!(
            "case {case}: cell ({dx}, {dy}), crest {crest}, low {low}, plate {corners:?} at {centre:?} (field frame), {under} m under",
        );
        assert!(!cs.is_empty(), "{what}");
        let up = pose_f.rotation.mul_vec(Vec3::<R>::Z);
        for c in &cs {
            assert!(c.depth > R::ZERO, "{what}: {c:?}");
            // Normals from the field (A) to the plate: out of the terrain,
            // up or (a plate over the grid's side) level, never down.
            assert!(c.normal.dot(up).to_f64() > -1e-3, "{what}: {c:?}");
        }
    }
    assert!(overlapping > 1000, "{overlapping} overlapping plates");
}
for_each_real!(
    plates_through_a_ridge_get_contacts,
    plates_through_a_ridge_get_contacts
);

/// Needles (long ellipsoids, tilted 20° to 70°) through a thin terrain
/// slab, centred in it: every one gets a contact pushing it out. The deep
/// fallback's points, the needle's deepest below each top's plane, are its
/// lower tip, under a cell the needle passes beneath (below the base), so
/// no prism it overlaps kept any: an ellipsoid sunk through a thin
/// terrain's base once got no contact at all.
fn needles_through_a_thin_slab_get_contacts<R: Real>() {
    let mut rng = Rng::new(0x7e3d_1e55);
    let pose_f = field_pose::<R>();
    for case in 0..500 {
        let (nx, ny) = (8 + rng.below(4), 8 + rng.below(4));
        let (dx, dy) = (rng.range_f64(0.25, 0.5), rng.range_f64(0.25, 0.5));
        let heights: Vec<R> = (0..nx * ny)
            .map(|_| R::lit(rng.range_f64(0.0, 0.02)))
            .collect();
        let thickness = rng.range_f64(0.05, 0.15);
        let field =
            HeightField::new(&heights, nx, ny, R::lit(dx), R::lit(dy), R::lit(thickness)).unwrap();
        let (w, l) = ((nx - 1) as f64 * dx, (ny - 1) as f64 * dy);
        let length = rng.range_f64(0.3, 0.8);
        let needle = mink::support::Ellipsoid::new(Vec3::new(
            R::lit(length),
            R::lit(rng.range_f64(0.02, 0.05)),
            R::lit(rng.range_f64(0.02, 0.05)),
        ))
        .unwrap();
        // The needle's long axis (x) tilted down by 20° to 70°, any heading.
        let tilt = Mat3::from_axis_angle(Vec3::Y, rng.range_f64(0.35, 1.2));
        let yaw = Mat3::from_axis_angle(Vec3::Z, rng.range_f64(0.0, core::f64::consts::TAU));
        let centre = Vec3::new(
            rng.range_f64(length, w - length),
            rng.range_f64(length, l - length),
            field.base().to_f64() + 0.5 * thickness,
        );
        let pose_s = Iso3::from_parts(
            (pose_f.rotation.cast::<f64>() * yaw * tilt).cast::<R>(),
            pose_f.cast::<f64>().transform_point(centre).cast::<R>(),
        );
        let cs = contacts(&field, &pose_f, needle, &pose_s, 0.0, 4);
        let what = format!("case {case}: needle {length} m at {centre:?} (field frame)");
        assert!(!cs.is_empty(), "{what}");
        for c in &cs {
            assert!(c.depth > R::ZERO, "{what}: {c:?}");
        }
    }
}
for_each_real!(
    needles_through_a_thin_slab_get_contacts,
    needles_through_a_thin_slab_get_contacts
);

/// Cylinders and boxes lying along the grid's outer wall, within the
/// margin of the edge where the wall meets a steep top, each apart from
/// the terrain by a known gap: placed so that its support point along
/// `-n`, `n` a normal of that edge (between the wall's and the top's),
/// stands `gap` along `n` from a point of the edge. The one-cell terrain
/// with a planar top is convex, so the plane through the edge with normal
/// `n` supports it, and the gap is the pair's distance. Every such shape
/// gets a contact as deep as minus the gap (within the features' slop and
/// rule 1's tolerance). The manifold's points share
/// the edge's normal but lie where the features overlap seen along it, on
/// the wall below the edge, so rule 1 rejected them all, and a cylinder
/// lying along the wall once got no contact.
fn shapes_along_an_outer_wall_within_the_margin<R: Real>() {
    let mut rng = Rng::new(0x0ed9_e3a1);
    let pose_f = field_pose::<R>();
    for case in 0..2000 {
        let (dx, dy) = (rng.range_f64(0.1, 1.0), rng.range_f64(0.1, 1.0));
        let (low, rise) = (rng.range_f64(-1.0, 0.5), rng.range_f64(0.2, 2.0) * dx);
        let heights: Vec<R> = [low, low + rise, low, low + rise]
            .iter()
            .map(|&h| R::lit(h))
            .collect();
        let field = HeightField::new(&heights, 2, 2, R::lit(dx), R::lit(dy), R::ONE).unwrap();
        let low = <R as Real>::to_f64(heights[0]);
        let rise = <R as Real>::to_f64(heights[1]) - low;
        let wall = Vec3::new(-1.0, 0.0, 0.0);
        let top = Vec3::new(-rise / dx, 0.0, 1.0) * (1.0 / (1.0 + (rise / dx).powi(2)).sqrt());
        let t = rng.range_f64(0.01, 0.5);
        let n: Vec3<f64> = wall * (1.0 - t) + top * t;
        let n = n * (1.0 / n.norm());
        let on_edge: Vec3<f64> = Vec3::new(0.0, rng.range_f64(0.2, 0.8) * dy, low);
        // Lying along the edge (y), turned about it, tilted a little.
        let size = rng.range_f64(0.1, 2.0) * dx.min(dy);
        let roll = Mat3::from_axis_angle(Vec3::Y, rng.range_f64(0.0, core::f64::consts::TAU));
        let tilt = Mat3::from_axis_angle(rng.unit_vec::<f64>(), rng.range_f64(0.0, 0.05));
        let along_y = Mat3::from_axis_angle(Vec3::X, core::f64::consts::FRAC_PI_2);
        let rot = if case % 4 < 2 {
            tilt * roll * along_y
        } else {
            Mat3::from_axis_angle(
                rng.unit_vec::<f64>(),
                rng.range_f64(0.0, core::f64::consts::PI),
            )
        };
        let (radius, half) = (size, rng.range_f64(0.5, 2.0) * size);
        let cylinder = case % 2 == 0;
        let shape: mink::Shape<'static, R> = if cylinder {
            mink::support::Cylinder::new(R::lit(radius), R::lit(half))
                .unwrap()
                .into()
        } else {
            Cuboid::new(v(radius, radius * 0.7, half)).unwrap().into()
        };
        let local_dir = rot.transpose_mul(-n);
        let extreme: Vec3<f64> = if cylinder {
            mink::support::Cylinder::new(radius, half)
                .unwrap()
                .support(local_dir, &mut Default::default())
        } else {
            Cuboid::new(Vec3::new(radius, radius * 0.7, half))
                .unwrap()
                .support(local_dir, &mut Default::default())
        };
        let margin = rng.range_f64(0.002, 0.01) * size;
        let gap = rng.range_f64(0.05, 0.9) * margin;
        let centre = on_edge + n * gap - rot.mul_vec(extreme);
        let pose_s = pose_f.cast::<f64>().mul(&Iso3::from_parts(rot, centre));
        let cs = contacts(&field, &pose_f, shape, &pose_s.cast(), margin, 4);
        let what = format!(
            "case {case}: cell ({dx}, {dy}), low {low}, rise {rise}, n {n:?}, {} {radius} x {half} at {centre:?} (field frame), gap {gap}, margin {margin}",
            if cylinder { "cylinder" } else { "box" },
        );
        let deepest = cs
            .iter()
            .map(|c| c.depth.to_f64())
            .fold(f64::NEG_INFINITY, f64::max);
        // The features' slop, and rule 1's: a point kept on the wall below
        // the edge stands that much shallower.
        let slack = 1e-3 * size
            + HEIGHT_FIELD_TOLERANCE * dx.min(dy)
            + 256.0 * R::EPSILON.to_f64() * (1.0 + centre.norm());
        assert!(!cs.is_empty(), "{what}");
        assert!((deepest + gap).abs() <= slack, "{what}: {cs:?}");
    }
}
for_each_real!(
    shapes_along_an_outer_wall_within_the_margin,
    shapes_along_an_outer_wall_within_the_margin
);
