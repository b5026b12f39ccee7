//! The hull's support function: hill climbing against the exhaustive scan,
//! the scan against brute force over the input points, on hulls of 8 to
//! 5000 vertices (with and without coplanar faces), for thousands of random
//! directions, the hostile ones, and warm starts from varying hints.

use crate::hull_common::*;
use mink_support::shapes::hull::{
    HullArrays, HullView, HULL_AABB_TRANSFORM_MAX_VERTICES, HULL_SCAN_MAX_VERTICES,
};
use mink_support::{Aabb, ConvexHull, Iso3, Real, Support, SupportSet, Vec3};
use mink_testkit::{for_each_real, hostile_directions, Rng};

/// Clouds whose hulls span 8 to 5000 vertices, some with large flat faces.
fn clouds<R: Real>(rng: &mut Rng) -> Vec<(&'static str, Vec<Vec3<R>>)> {
    vec![
        ("sphere 8", rng.points_on_sphere(8, 1.0)),
        ("sphere 40", rng.points_on_sphere(40, 2.0)),
        ("sphere 300", rng.points_on_sphere(300, 0.5)),
        ("sphere 5000", rng.points_on_sphere(5000, 1.0)),
        ("ball 2000", rng.points_in_ball(2000, 3.0)),
        ("cube 1000", cube_surface(rng, 1000, 1.5)),
        ("clipped ball 3000", clipped_ball(rng, 3000, 1.0)),
        ("prism 24", prism(rng, 24, 1.0, 0.3, 200)),
        ("prism 60", prism(rng, 60, 0.2, 2.0, 500)),
        ("jittered cube", {
            let base = cube_surface::<f64>(rng, 600, 1.0);
            jitter::<f64>(rng, &base, 1e-3)
                .into_iter()
                .map(|p| p.cast())
                .collect()
        }),
    ]
}

fn climb_matches_scan<R: Real>() {
    let mut rng = Rng::new(0x5350_5054);
    for (name, pts) in clouds::<R>(&mut rng) {
        let hull = ConvexHull::from_points(&pts).unwrap();
        let v = hull.view();
        let nv = v.vertex_count() as u32;
        let tol = v.tolerance();
        let mut warm = 0u32;
        let mut shape_hint = 0u32;
        for k in 0..3000 {
            let d: Vec3<R> = rng.direction();
            let scan = v.support_scan(d);
            let best = d.dot(vtx(&v, scan));
            // The scan against brute force over every input point: never
            // above it (vertices are input points), below it by at most the
            // tolerance (dropped points lie within it of the hull).
            let brute = brute_max(&pts, d);
            assert!(
                best <= brute,
                "{name}: scan {best} above brute force {brute}"
            );
            let slack = tol * (d.x.abs() + d.y.abs() + d.z.abs());
            assert!(
                best >= brute - slack,
                "{name}: scan {best} below brute force {brute}"
            );
            // The climb from a warm hint, a random hint and a bad hint.
            let starts = [warm, rng.below(nv as usize) as u32, u32::MAX, k % nv];
            for start in starts {
                let climb = v.support_hill_climb(d, start).unwrap_or_else(|e| {
                    panic!("{name}: climb from {start} along {d:?} failed: {e:?}")
                });
                assert_eq!(
                    d.dot(vtx(&v, climb)),
                    best,
                    "{name}: climb from {start} along {d:?}"
                );
            }
            warm = v.support_hill_climb(d, warm).unwrap();
            // The shape's own choice, through the trait.
            let p = v.support(d, &mut shape_hint);
            assert_eq!(d.dot(p), best, "{name}: support along {d:?}");
            assert_eq!(vtx(&v, shape_hint), p);
            let mut h = 0;
            assert_eq!(d.dot(hull.support(d, &mut h)), best, "{name}: owned hull");
        }
        // Directions that drift slowly, as in GJK: the warm climb is exact.
        let mut d: Vec3<R> = rng.unit_vec();
        let mut hint = 0u32;
        for _ in 0..1000 {
            d = (d + rng.unit_vec::<R>() * R::lit(0.05)).normalize_or(Vec3::X);
            hint = v.support_hill_climb(d, hint).unwrap();
            assert_eq!(
                d.dot(vtx(&v, hint)),
                d.dot(vtx(&v, v.support_scan(d))),
                "{name}"
            );
        }
    }
}
for_each_real!(
    hill_climb_equals_scan_equals_brute_force,
    climb_matches_scan
);

fn hostile<R: Real>() {
    let mut rng = Rng::new(23);
    for (name, pts) in clouds::<R>(&mut rng) {
        let hull = ConvexHull::from_points(&pts).unwrap();
        let v = hull.view();
        let nv = v.vertex_count() as u32;
        for d in hostile_directions::<R>() {
            for start in [0, nv / 2, nv - 1, u32::MAX] {
                let scan = v.support_scan(d);
                let climb = v
                    .support_hill_climb(d, start)
                    .expect("no cap on hostile directions");
                let mut hint = start;
                let p = v.support(d, &mut hint);
                assert!(
                    p.is_finite() && v.vertices().contains(&p),
                    "{name}: {p:?} along {d:?}"
                );
                assert!(scan < nv && climb < nv && hint < nv);
                // A finite nonzero direction, however extreme, still gets a
                // maximal vertex: compare along its normalized form.
                let m = d.max_abs();
                if m > R::ZERO && m.finite() {
                    let u = Vec3::new(d.x / m, d.y / m, d.z / m);
                    let best = u.dot(vtx(&v, scan));
                    assert_eq!(best, brute_max(v.vertices(), u), "{name}: scan along {d:?}");
                    assert_eq!(u.dot(vtx(&v, climb)), best, "{name}: climb along {d:?}");
                    assert_eq!(u.dot(p), best, "{name}: support along {d:?}");
                }
            }
        }
    }
}
for_each_real!(hostile_directions_return_a_vertex, hostile);

fn threshold_is_honoured<R: Real>() {
    // Below the threshold the shape scans (the hint plays no part), above
    // it the climb leaves the hint at the answer: both exact.
    let mut rng = Rng::new(29);
    for n in [8, HULL_SCAN_MAX_VERTICES, HULL_SCAN_MAX_VERTICES + 1, 200] {
        let pts: Vec<Vec3<R>> = rng.points_on_sphere(n, 1.0);
        let hull = ConvexHull::from_points(&pts).unwrap();
        let v = hull.view();
        for _ in 0..500 {
            let d: Vec3<R> = rng.direction();
            let mut hint = rng.below(v.vertex_count()) as u32;
            let p = v.support(d, &mut hint);
            assert_eq!(d.dot(p), d.dot(vtx(&v, v.support_scan(d))));
        }
    }
}
for_each_real!(scan_and_climb_both_serve_the_trait, threshold_is_honoured);

fn support_sets<R: Real>() {
    let mut rng = Rng::new(31);
    // A rotated box from a grid: faces, edges and corners by direction.
    let rot = rng.rotation::<f64>();
    let mut grid = Vec::new();
    for i in 0..27 {
        let c = |k: u32| ((i / 3_i32.pow(k)) % 3 - 1) as f64;
        grid.push(
            rot.mul_vec(Vec3::new(c(0) * 2.0, c(1), c(2) * 0.5))
                .cast::<R>(),
        );
    }
    let hull = ConvexHull::from_points(&grid).unwrap();
    let v = hull.view();
    let tol = R::lit(1e-3);
    let mut set = SupportSet::new();
    for _ in 0..2000 {
        let kind = rng.below(3);
        let mut local = [0.0f64; 3];
        let axis = rng.below(3);
        local[axis] = if rng.chance(0.5) { 1.0 } else { -1.0 };
        if kind >= 1 {
            let other = (axis + 1 + rng.below(2)) % 3;
            local[other] = if rng.chance(0.5) { 0.7 } else { -0.7 };
        }
        if kind == 2 {
            let last = 3
                - axis
                - local
                    .iter()
                    .enumerate()
                    .find(|(i, x)| *i != axis && **x != 0.0)
                    .unwrap()
                    .0;
            local[last] = if rng.chance(0.5) { 0.4 } else { -0.4 };
        }
        let d: Vec3<R> = rot.mul_vec(Vec3::from_array(local)).cast::<R>() * rng.range(0.5, 3.0);
        v.support_set(d, tol, &mut set).unwrap();
        let want = [4, 2, 1][kind];
        assert_eq!(set.len(), want, "kind {kind} along {d:?}");
        // Every point is a vertex within tol of the maximum (brute force).
        let best = brute_max(v.vertices(), d);
        for p in set.points() {
            assert!(v.vertices().contains(p));
            assert!(d.dot(*p) >= best - tol * d.norm() * R::lit(1.01));
        }
        if want == 4 {
            // Counter-clockwise seen from outside (along d).
            let pts = set.points();
            let mut n = Vec3::<f64>::ZERO;
            for k in 0..4 {
                n += pts[k].cast::<f64>().cross(pts[(k + 1) % 4].cast());
            }
            assert!(n.dot(d.cast()) > 0.0);
        }
    }
    for d in hostile_directions::<R>() {
        v.support_set(d, tol, &mut set).unwrap();
        assert!(!set.is_empty() && set.points().iter().all(|p| v.vertices().contains(p)));
    }
}
for_each_real!(support_set_is_face_edge_or_vertex, support_sets);

fn aabbs_and_interior<R: Real>() {
    let mut rng = Rng::new(37);
    for (name, pts) in clouds::<R>(&mut rng) {
        let hull = ConvexHull::from_points(&pts).unwrap();
        let v = hull.view();
        // The same hull without the four-lane copy: the per-vertex path.
        let bare = HullView::new(HullArrays {
            lanes: &[],
            ..v.arrays()
        })
        .unwrap();
        // The local box is the coordinate range, exactly.
        let mut lo = Vec3::splat(R::INFINITY);
        let mut hi = Vec3::splat(-R::INFINITY);
        for p in v.vertices() {
            lo = lo.min(*p);
            hi = hi.max(*p);
        }
        assert_eq!(v.local_aabb(), Aabb::new(lo, hi), "{name}");
        assert_eq!(bare.local_aabb(), Aabb::new(lo, hi), "{name}");
        assert_eq!(hull.local_aabb(), Aabb::new(lo, hi), "{name}");
        for _ in 0..50 {
            let pose: Iso3<R> = rng.pose(5.0);
            let aabb = v.world_aabb(&pose);
            if v.vertex_count() <= HULL_AABB_TRANSFORM_MAX_VERTICES {
                // Both paths round each rotated vertex the same way.
                assert_eq!(bare.world_aabb(&pose), aabb, "{name}");
            }
            // Brute force over the transformed vertices: exactly the same box.
            let mut lo = Vec3::splat(R::INFINITY);
            let mut hi = Vec3::splat(-R::INFINITY);
            for p in v.vertices() {
                let w = pose.transform_point(*p);
                lo = lo.min(w);
                hi = hi.max(w);
            }
            let slack = R::EPSILON * R::lit(16.0) * (hi.max_abs() + lo.max_abs());
            assert!(
                (aabb.min - lo).max_abs() <= slack && (aabb.max - hi).max_abs() <= slack,
                "{name}"
            );
            assert_eq!(hull.world_aabb(&pose), aabb);
        }
        // The centroid is strictly inside every face plane.
        let c = v.interior_point();
        let mut sum = Vec3::<f64>::ZERO;
        for p in v.vertices() {
            sum += p.cast();
        }
        let centroid: Vec3<R> = (sum / v.vertex_count() as f64).cast();
        assert!(
            (c - centroid).max_abs() <= R::EPSILON * R::lit(64.0) * (centroid.max_abs() + R::ONE)
        );
        for plane in v.planes() {
            assert!(
                plane.distance(c) < R::ZERO,
                "{name}: centroid outside a face"
            );
        }
    }
}
for_each_real!(world_aabb_is_tight_and_centroid_inside, aabbs_and_interior);

fn nearly_flat_faces<R: Real>() {
    // Faces merged from points that are coplanar only to within τ: seen
    // head-on, their vertices' projections differ by noise, so a climb that
    // stopped at the first vertex no neighbour beats would often be wrong.
    let mut rng = Rng::new(41);
    let mut plateaus = 0;
    for case in 0..16 {
        let base: Vec<Vec3<f64>> = if case % 2 == 0 {
            cube_surface(&mut rng, 300, 1.0)
        } else {
            prism(&mut rng, [12, 30, 48][case % 3], 1.0, 0.5, 200)
        };
        let tau = mink_support::shapes::hull::HULL_TOLERANCE_FACTOR * R::EPSILON.to_f64() * 1.0;
        let pts: Vec<Vec3<R>> = jitter(&mut rng, &base, tau / 8.0)
            .into_iter()
            .map(|p| p.cast())
            .collect();
        let hull = ConvexHull::from_points(&pts).unwrap();
        let v = hull.view();
        let nv = v.vertex_count() as u32;
        for plane in v.planes() {
            let dirs = [plane.normal, plane.normal * R::lit(3.0), -plane.normal];
            for d in dirs {
                let best = d.dot(vtx(&v, v.support_scan(d)));
                for start in 0..nv {
                    let climb = v.support_hill_climb(d, start).unwrap();
                    assert_eq!(
                        d.dot(vtx(&v, climb)),
                        best,
                        "case {case}: from {start} along {d:?}"
                    );
                    // Count the starts whose first local maximum was not
                    // the best (the case the plateau search exists for).
                    let first = v
                        .neighbors(start as usize)
                        .iter()
                        .all(|&n| d.dot(vtx(&v, n as u32)) <= d.dot(vtx(&v, start)));
                    if first && d.dot(vtx(&v, start)) < best {
                        plateaus += 1;
                    }
                }
            }
        }
    }
    // The sample must exercise the plateau search.
    assert!(plateaus > 20, "only {plateaus} non-global local maxima met");
}
for_each_real!(climb_crosses_nearly_flat_faces, nearly_flat_faces);

/// The scan over [`VertexLanes`] (which every built hull carries) against a
/// plain first-best loop over the vertices: the same index, ties included,
/// for every vertex count from 4 to 70 (all four padding cases), random and
/// axis directions (a cube's corners tie four ways along an axis).
fn lanes_scan_matches_first_best<R: Real>() {
    use mink_support::shapes::hull::VertexLanes;
    let mut rng = Rng::new(0x4c41_4e45);
    let first_best = |vs: &[Vec3<R>], d: Vec3<R>| -> u32 {
        let mut best = 0;
        for (i, p) in vs.iter().enumerate() {
            if d.dot(*p) > d.dot(vs[best]) {
                best = i;
            }
        }
        best as u32
    };
    let mut clouds: Vec<Vec<Vec3<R>>> = (4..=70).map(|n| rng.points_on_sphere(n, 1.0)).collect();
    clouds.push(cube_surface(&mut rng, 200, 1.0));
    for pts in &clouds {
        let hull = ConvexHull::from_points(pts).unwrap();
        let v = hull.view();
        let (vs, lanes) = (v.vertices(), v.arrays().lanes);
        assert_eq!(lanes.len(), vs.len().div_ceil(4));
        assert!(VertexLanes::match_vertices(lanes, vs));
        let axes = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
        let randoms: Vec<Vec3<R>> = (0..200).map(|_| rng.direction()).collect();
        for d in axes.iter().chain(&randoms) {
            assert_eq!(
                v.support_scan(*d),
                first_best(vs, *d),
                "{} vertices",
                vs.len()
            );
        }
    }
}
for_each_real!(lanes_scan_matches_first_best, lanes_scan_matches_first_best);

/// Lanes that are not the vertices in blocks are refused by the checked
/// constructor; empty lanes are accepted (the scan then reads the vertices).
fn mismatched_lanes_are_refused<R: Real>() {
    use mink_support::shapes::hull::VertexLanes;
    use mink_support::ShapeError;
    let mut rng = Rng::new(9);
    let pts: Vec<Vec3<R>> = rng.points_on_sphere(30, 1.0);
    let hull = ConvexHull::from_points(&pts).unwrap();
    let arrays = hull.arrays();
    let without = HullArrays {
        lanes: &[],
        ..arrays
    };
    let plain = HullView::new(without).expect("lanes are optional");
    let d: Vec3<R> = rng.direction();
    assert_eq!(plain.support_scan(d), hull.view().support_scan(d));
    let mut wrong: Vec<VertexLanes<R>> = arrays.lanes.to_vec();
    wrong[1].y[2] += R::lit(1e-3);
    let short = &arrays.lanes[..arrays.lanes.len() - 1];
    for bad in [&wrong[..], short] {
        let refused = HullView::new(HullArrays {
            lanes: bad,
            ..arrays
        });
        assert!(matches!(refused, Err(ShapeError::Inconsistent(_))));
    }
}
for_each_real!(mismatched_lanes_are_refused, mismatched_lanes_are_refused);
