//! Contact manifolds against analytic configurations and surface checks.

use crate::common::{box_hull, random_hull, tol, TestHull};
use mink_sat::{
    manifold, sat, Culling, ManifoldStatus, SatFeature, FEATURE_PREFERENCE_FRACTION,
    MAX_MANIFOLD_POINTS,
};
use mink_support::{ConvexHull, Iso3, Mat3, Real, Vec3};
use mink_testkit::{for_each_real, Rng};

/// The largest signed plane distance of world point `p` to `hull` at
/// `pose`: 0 on the surface, negative inside, positive outside (f64).
fn surface_distance<R: Real>(hull: &ConvexHull<R>, pose: &Iso3<R>, p: Vec3<f64>) -> f64 {
    let local = pose.cast::<f64>().inverse_transform_point(p);
    hull.view()
        .planes()
        .iter()
        .map(|pl| pl.normal.cast::<f64>().dot(local) - pl.offset.to_f64())
        .fold(f64::MIN, f64::max)
}

/// A 2×2×1 box with a 1×1×1 box on top, overlapping by 1 cm, both under a
/// random world pose, in either order: 4 contacts at the corners of the
/// overlap rectangle, each 1 cm deep.
fn box_on_box_gives_overlap_corners<R: Real>() {
    let mut rng = Rng::new(0x5a7_2001);
    let big = box_hull::<R>(Vec3::new(R::ONE, R::ONE, R::HALF));
    let small = box_hull::<R>(Vec3::splat(R::HALF));
    let depth = 0.01;
    for case in 0..400 {
        let world = rng.pose::<R>(3.0);
        let on_top = Iso3::from_parts(
            // A quarter turn about z leaves the footprint unchanged.
            Mat3::from_axis_angle(
                Vec3::Z,
                R::lit(core::f64::consts::FRAC_PI_2 * (case % 4) as f64),
            ),
            Vec3::new(R::lit(0.7), R::lit(0.2), R::lit(1.0 - depth)),
        );
        let pose_big = world;
        let pose_small = world.mul(&on_top);
        let (sb, ss) = (big.sat(), small.sat());
        let swap = case % 2 == 1;
        let m = if swap {
            manifold(&ss, &pose_small, &sb, &pose_big, R::lit(0.02))
        } else {
            manifold(&sb, &pose_big, &ss, &pose_small, R::lit(0.02))
        };
        assert_eq!(m.status, ManifoldStatus::Ok);
        assert!(matches!(
            m.feature,
            SatFeature::FaceA(_) | SatFeature::FaceB(_)
        ));
        assert_eq!(m.points.len(), 4, "case {case}");
        let up = world.rotation.mul_vec(Vec3::Z).cast::<f64>();
        let n = m.normal.cast::<f64>();
        let expected_n = if swap { -up } else { up };
        assert!((n - expected_n).norm() < tol::<R>() * 10.0);
        let mut corners = vec![(0.2, -0.3), (1.0, -0.3), (1.0, 0.7), (0.2, 0.7)];
        for c in &m.points {
            assert!((c.separation.to_f64() + depth).abs() < tol::<R>() * 20.0);
            // In the big box's frame, the contact lies midway between its
            // top (z = 0.5) and the small box's bottom (z = 0.49).
            let local = world
                .cast::<f64>()
                .inverse_transform_point(c.position.cast());
            assert!((local.z - (0.5 - depth / 2.0)).abs() < tol::<R>() * 20.0);
            let k = corners
                .iter()
                .position(|&(x, y)| (local.x - x).abs() < 1e-3 && (local.y - y).abs() < 1e-3)
                .unwrap_or_else(|| panic!("case {case}: unexpected contact {local:?}"));
            corners.remove(k);
        }
    }
}
for_each_real!(
    box_on_box_gives_overlap_corners,
    box_on_box_gives_overlap_corners
);

/// A prism with an n-gon cap (n = 3..12) lying on its cap on a big box,
/// tilted slightly so one rim vertex is the deepest: the contacts are cap
/// vertices, min(n, 4) of them, the deepest among them, spanning nearly
/// the largest area any 4 cap vertices span.
fn hull_on_face_gives_its_polygon_reduced<R: Real>() {
    let mut rng = Rng::new(0x5a7_2002);
    let ground = box_hull::<R>(Vec3::new(R::lit(5.0), R::lit(5.0), R::HALF));
    let mut worst_ratio = f64::MAX;
    for case in 0..300 {
        let n = 3 + rng.below(10);
        let radius = rng.range_f64(0.2, 1.0);
        let phase = rng.range_f64(0.0, 1.0);
        let mut pts = Vec::new();
        for k in 0..n {
            // Irregular spacing: a random angle jitter per vertex.
            let ang =
                (k as f64 + phase + rng.range_f64(-0.3, 0.3)) * core::f64::consts::TAU / n as f64;
            for z in [0.0, 0.6] {
                pts.push(Vec3::new(
                    R::lit(radius * ang.cos()),
                    R::lit(radius * ang.sin()),
                    R::lit(z),
                ));
            }
        }
        let prism = TestHull::from_points(&pts);
        let cap: Vec<Vec3<f64>> = pts.iter().step_by(2).map(|p| p.cast::<f64>()).collect();
        let world = rng.pose::<R>(2.0);
        let tilt_axis = Vec3::new(rng.range_f64(-1.0, 1.0), rng.range_f64(-1.0, 1.0), 0.0);
        let tilt = Mat3::from_axis_angle(
            tilt_axis.try_normalize().unwrap_or(Vec3::X).cast::<R>(),
            R::lit(2e-3),
        );
        // Cap centre 5 mm into the ground's top face.
        let local = Iso3::from_parts(tilt, Vec3::new(R::lit(0.3), R::lit(-0.2), R::lit(0.495)));
        let pose_g = world;
        let pose_p = world.mul(&local);
        let m = manifold(&ground.sat(), &pose_g, &prism.sat(), &pose_p, R::lit(0.05));
        assert_eq!(m.status, ManifoldStatus::Ok);
        assert_eq!(m.points.len(), n.min(MAX_MANIFOLD_POINTS), "case {case}");
        // Map each contact back to the prism's cap vertex it must be.
        let pp = pose_p.cast::<f64>();
        let cap_world: Vec<Vec3<f64>> = cap.iter().map(|&c| pp.transform_point(c)).collect();
        let ground_top = world.cast::<f64>();
        let height = |p: Vec3<f64>| ground_top.inverse_transform_point(p).z - 0.5;
        let deepest = cap_world
            .iter()
            .map(|&c| height(c))
            .fold(f64::MAX, f64::min);
        let mut chosen = Vec::new();
        for c in &m.points {
            let on_b = (c.position + m.normal * (c.separation * R::HALF)).cast::<f64>();
            let k = cap_world
                .iter()
                .position(|v| (*v - on_b).norm() < tol::<R>() * 50.0)
                .unwrap_or_else(|| panic!("case {case}: contact {on_b:?} is no cap vertex"));
            chosen.push(cap[k]);
            assert!((c.separation.to_f64() - height(cap_world[k])).abs() < tol::<R>() * 20.0);
        }
        let min_sep = m
            .points
            .iter()
            .map(|c| c.separation.to_f64())
            .fold(f64::MAX, f64::min);
        assert!(
            (min_sep - deepest).abs() < tol::<R>() * 20.0,
            "deepest kept"
        );
        if n > 4 {
            let area = polygon_area(&chosen);
            let mut best = 0.0f64;
            for i in 0..n {
                for j in i + 1..n {
                    for k in j + 1..n {
                        for l in k + 1..n {
                            best = best.max(polygon_area(&[cap[i], cap[j], cap[k], cap[l]]));
                        }
                    }
                }
            }
            worst_ratio = worst_ratio.min(area / best);
        }
    }
    assert!(worst_ratio > 0.75, "worst area ratio {worst_ratio}");
}
for_each_real!(
    hull_on_face_gives_its_polygon_reduced,
    hull_on_face_gives_its_polygon_reduced
);

/// Area of the convex hull of up to 4 points in the plane z = 0 (by
/// sorting them by angle about their mean).
fn polygon_area(pts: &[Vec3<f64>]) -> f64 {
    let c = pts.iter().fold(Vec3::ZERO, |s, p| s + *p) / pts.len() as f64;
    let mut v: Vec<Vec3<f64>> = pts.to_vec();
    v.sort_by(|a, b| {
        let ta = (a.y - c.y).atan2(a.x - c.x);
        let tb = (b.y - c.y).atan2(b.x - c.x);
        ta.partial_cmp(&tb).unwrap()
    });
    let mut area = 0.0;
    for i in 0..v.len() {
        let (a, b) = (v[i], v[(i + 1) % v.len()]);
        area += a.x * b.y - b.x * a.y;
    }
    // A non-convex order (a point inside the others' triangle) undercounts
    // nothing here: the triangle's area is the hull's area then.
    let tri_best = (0..v.len())
        .map(|skip| {
            let t: Vec<_> = v
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, p)| *p)
                .collect();
            if t.len() < 3 {
                return 0.0;
            }
            ((t[1] - t[0]).cross(t[2] - t[0])).z.abs() / 2.0
        })
        .fold(0.0, f64::max);
    (area.abs() / 2.0).max(tri_best)
}

/// Random hulls near touching and overlapping: every point lies on both
/// surfaces (the point on A on A's surface, the point on B on B's), within
/// the margin, at most 4 of them; and nearly every pair within the margin
/// gets at least one point.
fn contacts_lie_on_both_surfaces<R: Real>() {
    let mut rng = Rng::new(0x5a7_2003);
    let margin = 0.05;
    let (mut touching, mut with_points, mut total) = (0, 0, 0);
    for case in 0..1500 {
        let na = [4, 8, 10, 32][rng.below(4)];
        let nb = [4, 8, 10, 32][rng.below(4)];
        let a = random_hull::<R>(&mut rng, na);
        let b = random_hull::<R>(&mut rng, nb);
        let pose_a = rng.pose::<R>(1.0);
        let mut pose_b = rng.pose::<R>(1.0);
        pose_b.translation =
            pose_a.translation + rng.unit_vec::<R>() * R::lit(rng.range_f64(0.5, 2.2));
        let m = manifold(&a.sat(), &pose_a, &b.sat(), &pose_b, R::lit(margin));
        assert_eq!(m.status, ManifoldStatus::Ok);
        assert!(m.points.len() <= MAX_MANIFOLD_POINTS);
        assert!((m.normal.norm().to_f64() - 1.0).abs() < tol::<R>());
        total += 1;
        if m.separation.to_f64() <= margin {
            touching += 1;
            with_points += (!m.points.is_empty()) as usize;
        } else {
            assert!(m.points.is_empty());
        }
        let n = m.normal.cast::<f64>();
        let surf_tol = tol::<R>() * 50.0;
        for c in &m.points {
            let s = c.separation.to_f64();
            assert!(s <= margin + tol::<R>());
            assert!(
                s >= m.separation.to_f64() - surf_tol,
                "case {case}: point deeper than SAT"
            );
            let pos = c.position.cast::<f64>();
            let on_a = pos - n * (s / 2.0);
            let on_b = pos + n * (s / 2.0);
            let da = surface_distance(&a.hull, &pose_a, on_a);
            let db = surface_distance(&b.hull, &pose_b, on_b);
            assert!(
                da.abs() < surf_tol,
                "case {case}: {da} from A ({:?}) s {s} sat {:?}",
                m.feature,
                m.separation
            );
            assert!(
                db.abs() < surf_tol,
                "case {case}: {db} from B ({:?})",
                m.feature
            );
        }
    }
    let share = touching as f64 / total as f64;
    assert!((0.3..0.9).contains(&share), "touching share {share}");
    assert!(
        with_points as f64 >= 0.98 * touching as f64,
        "{with_points} of {touching}"
    );
}
for_each_real!(contacts_lie_on_both_surfaces, contacts_lie_on_both_surfaces);

/// Random hull pairs whose exact separation (SAT without culling) comes
/// from an edge pair that beats every face by less than the manifold's
/// preference, with the margin between the best face and that edge pair:
/// the edge pair proves the hulls apart by more than the margin, so the
/// manifold is empty, although no face says so and the preference would
/// not pick the edge pair for a contact.
fn edge_beyond_the_margin_empties_the_manifold<R: Real>() {
    let mut rng = Rng::new(0x5a7_2004);
    let mut windows = 0;
    for case in 0..40_000 {
        let na = [4, 8, 10, 32][rng.below(4)];
        let nb = [4, 8, 10, 32][rng.below(4)];
        let a = random_hull::<R>(&mut rng, na);
        let b = random_hull::<R>(&mut rng, nb);
        let pose_a = rng.pose::<R>(1.0);
        let mut pose_b = rng.pose::<R>(1.0);
        pose_b.translation =
            pose_a.translation + rng.unit_vec::<R>() * R::lit(rng.range_f64(1.0, 2.2));
        let (sa, sb) = (a.sat(), b.sat());
        let exact = sat(&sa, &pose_a, &sb, &pose_b, Culling::Off);
        let Some(edges) = exact.edges else { continue };
        let face = exact
            .face_a
            .separation
            .max_of(exact.face_b.map_or(-R::MAX, |f| f.separation))
            .to_f64();
        let edge = edges.separation.to_f64();
        let prefer = FEATURE_PREFERENCE_FRACTION * sa.extent().min_of(sb.extent()).to_f64();
        let gap = edge - face;
        if face < 0.0 || gap <= 4.0 * tol::<R>() || gap >= prefer {
            continue;
        }
        windows += 1;
        let margin = face + gap * rng.range_f64(0.25, 0.75);
        let m = manifold(&sa, &pose_a, &sb, &pose_b, R::lit(margin));
        assert!(
            m.points.is_empty(),
            "case {case}: {} points with the hulls {edge} m apart along an edge pair, \
             margin {margin}, best face {face}",
            m.points.len()
        );
    }
    assert!(windows >= 10, "only {windows} pairs in the window");
}
for_each_real!(
    edge_beyond_the_margin_empties_the_manifold,
    edge_beyond_the_margin_empties_the_manifold
);

/// Two boxes whose edges cross: one contact at the crossing, on both edges.
fn crossed_edges_give_one_point<R: Real>() {
    let cube = box_hull::<R>(Vec3::splat(R::HALF));
    let s = cube.sat();
    let q = R::lit(core::f64::consts::FRAC_PI_4);
    let pose_a = Iso3::from_parts(Mat3::from_axis_angle(Vec3::X, q), Vec3::ZERO);
    let h = 0.5 * 2f64.sqrt();
    let pose_b = Iso3::from_parts(
        Mat3::from_axis_angle(Vec3::Y, q),
        Vec3::new(R::lit(0.1), R::lit(-0.05), R::lit(2.0 * h - 0.02)),
    );
    let m = manifold(&s, &pose_a, &s, &pose_b, R::lit(0.01));
    assert!(matches!(m.feature, SatFeature::EdgePair(_, _)));
    assert_eq!(m.points.len(), 1);
    let c = m.points[0];
    assert!((c.separation.to_f64() + 0.02).abs() < tol::<R>() * 10.0);
    let p = c.position.cast::<f64>();
    // A's top edge runs along x at height h; B's bottom edge along y at
    // height h - 0.02 through x = 0.1: the crossing is at x = 0.1, y = 0.
    assert!(
        (p - Vec3::new(0.1, 0.0, h - 0.01)).norm() < tol::<R>() * 10.0,
        "{p:?}"
    );
}
for_each_real!(crossed_edges_give_one_point, crossed_edges_give_one_point);

#[test]
fn non_finite_input_gives_no_points() {
    let cube = box_hull::<f64>(Vec3::splat(0.5));
    let s = cube.sat();
    let bad = Iso3::from_translation(Vec3::new(0.0, f64::INFINITY, 0.0));
    let m = manifold(&s, &Iso3::IDENTITY, &s, &bad, 0.01);
    assert_eq!(m.status, ManifoldStatus::NonFinite);
    assert!(m.points.is_empty());
    let m = manifold(&s, &Iso3::IDENTITY, &s, &Iso3::IDENTITY, f64::NAN);
    assert_eq!(m.status, ManifoldStatus::NonFinite);
}
