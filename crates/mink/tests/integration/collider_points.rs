//! Point projections on the non-convex colliders, against references that
//! share no code with them:
//! - height fields: the distance to the solid's boundary (top triangles,
//!   the grid's four walls, the base), each a triangle list built here and
//!   measured with a point–triangle distance written here; the side from
//!   the ray tests' inside test (the grid's definition); a flat field
//!   against a box;
//! - meshes: two disjoint boxes and a hollow box (a cube with a cubic
//!   cavity) against the boxes' signed distances in closed form; the mesh
//!   of a convex hull against the umbrella's projection on the hull.
//!
//! Every answer's projection is `|distance|` from the point, its normal
//! unit. Seeded, f32 and f64.

use crate::collider_rays::{box_triangles, tol, BoxMeshes, Terrain};
use mink::query::{height_field_project_point, mesh_project_point, project_point, Status};
use mink::sdf::TriMesh;
use mink::support::{ConvexHull, Cuboid, HeightField, Iso3, Real, Vec3};
use mink::{Body, Collider, Shape};
use mink_testkit::{for_each_real, Rng};

/// Distance from `p` to the segment `a b`.
fn segment_distance(p: Vec3<f64>, a: Vec3<f64>, b: Vec3<f64>) -> f64 {
    let ab = b - a;
    let len2 = ab.norm_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + ab * t)).norm()
}

/// Distance from `p` to the triangle `a b c`: to its plane when `p`
/// projects inside it, else to the nearest edge.
fn triangle_distance(p: Vec3<f64>, [a, b, c]: [Vec3<f64>; 3]) -> f64 {
    let n = (b - a).cross(c - a);
    let nn = n.norm_squared();
    if nn > 0.0 {
        let q = p - n * ((p - a).dot(n) / nn);
        let inside = [(a, b), (b, c), (c, a)]
            .iter()
            .all(|&(u, v)| (v - u).cross(q - u).dot(n) >= 0.0);
        if inside {
            return (p - q).norm();
        }
    }
    segment_distance(p, a, b)
        .min(segment_distance(p, b, c))
        .min(segment_distance(p, c, a))
}

impl Terrain {
    /// The solid's boundary as triangles, field frame: the top (each cell
    /// split along its diagonal from sample (i, j) to (i + 1, j + 1)), the
    /// four walls from the base up to the border's samples, the base.
    fn boundary(&self) -> Vec<[Vec3<f64>; 3]> {
        let min = self.heights.iter().cloned().fold(f64::INFINITY, f64::min);
        let base = min - self.thickness;
        let at =
            |i: usize, j: usize| Vec3::new(i as f64 * self.dx, j as f64 * self.dy, self.h(i, j));
        let down = |v: Vec3<f64>| Vec3::new(v.x, v.y, base);
        let mut tris = Vec::new();
        for j in 0..self.ny - 1 {
            for i in 0..self.nx - 1 {
                let (s00, s10, s01, s11) = (at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
                tris.push([s00, s10, s11]);
                tris.push([s00, s11, s01]);
            }
        }
        let mut border = Vec::new();
        for i in 0..self.nx - 1 {
            border.push((at(i, 0), at(i + 1, 0)));
            border.push((at(i, self.ny - 1), at(i + 1, self.ny - 1)));
        }
        for j in 0..self.ny - 1 {
            border.push((at(0, j), at(0, j + 1)));
            border.push((at(self.nx - 1, j), at(self.nx - 1, j + 1)));
        }
        for (u, v) in border {
            tris.push([u, v, down(v)]);
            tris.push([u, down(v), down(u)]);
        }
        let (w, l) = (
            (self.nx - 1) as f64 * self.dx,
            (self.ny - 1) as f64 * self.dy,
        );
        let corner = |x: f64, y: f64| Vec3::new(x, y, base);
        tris.push([corner(0.0, 0.0), corner(w, 0.0), corner(w, l)]);
        tris.push([corner(0.0, 0.0), corner(w, l), corner(0.0, l)]);
        tris
    }
}

/// The checks every projection passes: a proven status, the projection
/// `|distance|` from the point, a unit normal.
fn check_shape_of<R: Real>(
    got: &mink::query::PointProjection<R>,
    point: Vec3<R>,
    t: f64,
    what: &str,
) {
    assert!(
        matches!(got.status, Status::Exact | Status::Converged),
        "{what}"
    );
    let gap = (got.projection - point).norm().to_f64();
    assert!(
        (gap - got.distance.abs().to_f64()).abs() < t,
        "{what}: projection {gap} from the point"
    );
    assert!((got.normal.norm().to_f64() - 1.0).abs() < 1e-3, "{what}");
    assert_eq!(got.inside, got.distance <= R::ZERO, "{what}");
}

fn height_fields_against_brute_force<R: Real>() {
    let mut rng = Rng::new(0x30_9011);
    let t = tol::<R>() * 10.0;
    let (mut inside, mut outside) = (0, 0);
    for case in 0..200 {
        let terrain = Terrain::random(&mut rng);
        let heights = terrain.heights_in::<R>();
        let field = terrain.field(&heights);
        let boundary = terrain.boundary();
        let pose: Iso3<R> = rng.pose(1.0);
        let pose64 = pose.cast::<f64>();
        let (w, l) = (
            (terrain.nx - 1) as f64 * terrain.dx,
            (terrain.ny - 1) as f64 * terrain.dy,
        );
        for k in 0..20 {
            // Over the footprint from under the base to above the top, or
            // anywhere around the grid.
            let local = if k % 2 == 0 {
                Vec3::new(
                    rng.range_f64(-0.05, w + 0.05),
                    rng.range_f64(-0.05, l + 0.05),
                    rng.range_f64(-0.6, 0.9),
                )
            } else {
                Vec3::new(0.5 * w, 0.5 * l, 0.2) + rng.unit_vec::<f64>() * rng.range_f64(0.0, 2.0)
            };
            let point = pose64.transform_point(local).cast::<R>();
            let local = pose64.inverse_transform_point(point.cast::<f64>());
            let got = height_field_project_point(&field, &pose, point);
            let what = format!("case {case} point {k}: local {local:?}: {got:?}");
            check_shape_of(&got, point, t, &what);
            let reference = boundary
                .iter()
                .map(|&tri| triangle_distance(local, tri))
                .fold(f64::INFINITY, f64::min);
            let depth = terrain.depth(local);
            assert!(
                (got.distance.abs().to_f64() - reference).abs() < t,
                "{what}: reference distance {reference}"
            );
            if depth > t {
                inside += 1;
                assert!(got.inside, "{what}: depth {depth}");
            } else if depth < -t {
                outside += 1;
                assert!(
                    !got.inside || got.distance.abs().to_f64() < t,
                    "{what}: depth {depth}"
                );
            }
        }
    }
    assert!(
        inside > 300 && outside > 1_500,
        "{inside} inside, {outside} outside"
    );
}
for_each_real!(
    height_fields_against_brute_force,
    height_fields_against_brute_force
);

/// A flat field is a box: the box's projection, inside and out.
fn flat_height_field_is_a_box<R: Real>() {
    let mut rng = Rng::new(0x30_9012);
    let heights = [R::lit(0.25); 20];
    let field = HeightField::new(&heights, 5, 4, R::lit(0.5), R::lit(0.5), R::lit(0.4)).unwrap();
    // The solid: x in [0, 2], y in [0, 1.5], z in [-0.15, 0.25].
    let cube: Shape<'_, R> = Cuboid::new(Vec3::new(R::ONE, R::lit(0.75), R::lit(0.2)))
        .unwrap()
        .into();
    let centre = Vec3::new(R::ONE, R::lit(0.75), R::lit(0.05));
    let t = tol::<R>() * 10.0;
    for case in 0..2_000 {
        let pose: Iso3<R> = rng.pose(1.0);
        let point = pose.transform_point(centre + rng.unit_vec::<R>() * rng.range::<R>(0.0, 2.0));
        let got = height_field_project_point(&field, &pose, point);
        let box_pose = pose.mul(&Iso3::from_translation(centre));
        let want = project_point(&Body::new(&cube, box_pose), point);
        let what = format!("case {case}: {got:?} vs the box's {want:?}");
        assert!((got.distance - want.distance).abs().to_f64() < t, "{what}");
        assert!(
            (got.projection - want.projection).norm().to_f64() < 10.0 * t,
            "{what}"
        );
        assert_eq!(got.inside, want.inside, "{what}");
    }
}
for_each_real!(flat_height_field_is_a_box, flat_height_field_is_a_box);

/// Signed distance from `p` to the box (lo, hi): negative inside.
fn box_distance(p: Vec3<f64>, lo: Vec3<f64>, hi: Vec3<f64>) -> f64 {
    let q = (lo - p).max(p - hi);
    let out = q.max(Vec3::ZERO).norm();
    if out > 0.0 {
        out
    } else {
        q.x.max(q.y).max(q.z)
    }
}

/// Two disjoint boxes and a hollow box as meshes: the signed distance of
/// the union and of the cube less its cavity, in closed form.
fn meshes_of_boxes<R: Real>() {
    let mut rng = Rng::new(0x30_9013);
    let BoxMeshes {
        two,
        hollow,
        a: (a_lo, a_hi),
        b: (b_lo, b_hi),
        outer: (c_lo, c_hi),
        cavity: (h_lo, h_hi),
    } = BoxMeshes::new();
    let t = tol::<R>() * 10.0;
    let (mut inside, mut outside) = (0, 0);
    for case in 0..4_000 {
        let pose: Iso3<R> = rng.pose(1.0);
        let p64 = pose.cast::<f64>();
        let point = p64.transform_point(rng.in_cube::<f64>(1.6)).cast::<R>();
        let local = p64.inverse_transform_point(point.cast::<f64>());
        let hollow_case = case % 2 == 1;
        let (mesh, want) = if hollow_case {
            let sd = box_distance(local, c_lo, c_hi).max(-box_distance(local, h_lo, h_hi));
            (&hollow, sd)
        } else {
            let sd = box_distance(local, a_lo, a_hi).min(box_distance(local, b_lo, b_hi));
            (&two, sd)
        };
        let got = mesh_project_point(&mesh.view(), &pose, point);
        let what = format!("case {case} hollow {hollow_case}: {got:?}, want {want}");
        check_shape_of(&got, point, t, &what);
        assert!((got.distance.to_f64() - want).abs() < t, "{what}");
        if got.inside {
            inside += 1;
        } else {
            outside += 1;
        }
    }
    assert!(
        inside > 400 && outside > 2_000,
        "{inside} inside, {outside} outside"
    );
}
for_each_real!(meshes_of_boxes, meshes_of_boxes);

/// The mesh of a convex hull against the umbrella's projection on the
/// hull itself (GJK outside, the certified penetration query inside).
fn hull_mesh_against_the_hull<R: Real>() {
    let mut rng = Rng::new(0x30_9014);
    let t = if R::MANTISSA_BITS > 30 { 1e-7 } else { 1e-3 };
    for case in 0..200 {
        let hull = ConvexHull::from_points(&rng.points_in_ball::<R>(24, 0.8)).unwrap();
        let mesh = TriMesh::from_hull(&hull.view()).unwrap();
        let shape: Shape<'_, R> = Shape::Hull(hull.view());
        let pose: Iso3<R> = rng.pose(1.0);
        for _ in 0..20 {
            let point = pose.translation + rng.unit_vec::<R>() * rng.range::<R>(0.0, 1.5);
            let m = mesh_project_point(&mesh.view(), &pose, point);
            let g = project_point(&Body::new(&shape, pose), point);
            let what = format!("case {case}: {point:?}\n mesh {m:?}\n hull {g:?}");
            assert!((m.distance - g.distance).abs().to_f64() < t, "{what}");
            assert!(
                (m.projection - g.projection).norm().to_f64() < 10.0 * t,
                "{what}"
            );
        }
    }
}
for_each_real!(hull_mesh_against_the_hull, hull_mesh_against_the_hull);

/// Bad input gives `InvalidInput`, never a panic.
#[test]
fn bad_input_is_refused() {
    let heights = [0.0_f64; 4];
    let field = HeightField::new(&heights, 2, 2, 1.0, 1.0, 1.0).unwrap();
    let nan = Vec3::new(f64::NAN, 0.0, 0.0);
    let got = height_field_project_point(&field, &Iso3::IDENTITY, nan);
    assert_eq!(got.status, Status::InvalidInput);
    let mut bad_pose = Iso3::IDENTITY;
    bad_pose.translation.x = f64::INFINITY;
    let got = height_field_project_point(&field, &bad_pose, Vec3::ZERO);
    assert_eq!(got.status, Status::InvalidInput);
    let (v, tris) = box_triangles(Vec3::splat(-0.5), Vec3::splat(0.5), false, 0);
    let cube = TriMesh::new(&v, &tris).unwrap();
    let got = mesh_project_point(&cube.view(), &Iso3::IDENTITY, nan);
    assert_eq!(got.status, Status::InvalidInput);
    // Through the collider: the field's answer.
    let collider: Collider<'_, f64> = field.into();
    let p = Vec3::new(0.5, 0.5, 2.0);
    assert_eq!(
        collider.project_point(&Iso3::IDENTITY, p),
        height_field_project_point(&field, &Iso3::IDENTITY, p)
    );
}
