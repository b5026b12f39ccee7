//! Awkward directions: the poles, the θ = ±π seam, the axes, zero and
//! non-finite; and the field through the `Support` trait.

mod common;

use common::{brute, diameter, random_hull, Kind};
use mink_field::grid::angular_error_bound;
use mink_field::{
    prescale, ExactFieldShape, FieldError, FieldShape, HullGraph, SupportField, DEFAULT_RESOLUTION,
};
use mink_support::{Real, Support, Vec3};
use mink_testkit::{for_each_real, hostile_directions, Rng};

/// Directions at and around the poles and the seam, and the axes.
fn awkward<R: Real>() -> Vec<Vec3<R>> {
    let t = R::lit(1e-7);
    let z = R::ZERO;
    let one = R::ONE;
    let mut v = vec![
        Vec3::X,
        -Vec3::X,
        Vec3::Y,
        -Vec3::Y,
        Vec3::Z,
        -Vec3::Z,
        // Seam θ = ±π: y = ±0 and tiny y of either sign, x < 0.
        Vec3::new(-one, z, z),
        Vec3::new(-one, -z, z),
        Vec3::new(-one, t, z),
        Vec3::new(-one, -t, z),
        Vec3::new(-one, t, R::HALF),
        Vec3::new(-one, -t, -R::HALF),
        // Near the poles, on either side of the seam.
        Vec3::new(t, z, one),
        Vec3::new(-t, z, one),
        Vec3::new(-t, -t, -one),
        Vec3::new(t, t, -one),
        Vec3::new(-t, -z, -one),
        Vec3::new(-z, -z, -one),
        Vec3::new(-z, -z, one),
    ];
    for x in [-one, z, one] {
        for y in [-one, z, one] {
            for w in [-one, z, one] {
                if x != z || y != z || w != z {
                    v.push(Vec3::new(x, y, w));
                }
            }
        }
    }
    v
}

fn awkward_directions<R: Real>() {
    let mut rng = Rng::new(21);
    for (k, &n) in [8usize, 100, 1000].iter().enumerate() {
        let kind = [Kind::Sphere, Kind::Ball, Kind::Sliver][k];
        let hull = random_hull(&mut rng, n, kind).cast::<R>();
        let graph = HullGraph::new(&hull.vertices, &hull.offsets, &hull.neighbours).unwrap();
        let diam = diameter(&hull.vertices);
        let tol = R::lit(12.0) * R::EPSILON * R::lit(3.0);
        for res in [8, 45, DEFAULT_RESOLUTION] {
            let field = SupportField::build(&hull.vertices, res).unwrap();
            let view = field.view();
            for d in awkward::<R>() {
                for h in [view.query(d).unwrap(), view.query_libm(d).unwrap()] {
                    let s = prescale(d).unwrap();
                    let err = (brute(&hull.vertices, s) - s.dot(h.point)).to_f64();
                    let bound = angular_error_bound(res) * diam * s.norm().to_f64();
                    assert!(err <= bound + 1e-5, "res {res} d {d:?}: {err} > {bound}");
                    assert!((1..=4).contains(&h.ties));
                }
                let e = view.query_exact(&graph, d).unwrap();
                let s = prescale(d).unwrap();
                assert!((s.dot(e.point) - brute(&hull.vertices, s)).abs() <= tol);
            }
        }
    }
}
for_each_real!(awkward_directions, awkward_directions);

/// Zero and non-finite directions: queries refuse non-finite ones, the
/// shapes answer with a vertex of the mesh, nothing is NaN.
fn hostile<R: Real>() {
    let mut rng = Rng::new(5);
    let hull = random_hull(&mut rng, 50, Kind::Ball).cast::<R>();
    let graph = HullGraph::new(&hull.vertices, &hull.offsets, &hull.neighbours).unwrap();
    let field = SupportField::build(&hull.vertices, 45).unwrap();
    let view = field.view();
    let shape = FieldShape::new(view);
    let exact = ExactFieldShape::new(view, graph).unwrap();
    for d in hostile_directions::<R>() {
        let finite = d.is_finite();
        match view.query(d) {
            Ok(h) => {
                assert!(finite);
                assert_eq!(hull.vertices[h.index as usize], h.point);
            }
            Err(e) => {
                assert!(!finite);
                assert_eq!(e, FieldError::NonFiniteDirection);
            }
        }
        assert_eq!(view.query_exact(&graph, d).is_err(), !finite);
        let p = shape.support(d, &mut ());
        assert!(hull.vertices.contains(&p), "{d:?} -> {p:?}");
        let mut hint = 3;
        let q = exact.support(d, &mut hint);
        assert!(hull.vertices.contains(&q), "{d:?} -> {q:?}");
        let mut bad_hint = u32::MAX;
        assert!(hull.vertices.contains(&exact.support(d, &mut bad_hint)));
    }
    // The zero direction: every vertex is a support; the answer is one.
    assert!(view.query(Vec3::ZERO).unwrap().ties >= 1);
}
for_each_real!(hostile, hostile);

/// Through `Support`, the exact shape equals brute force and keeps its
/// hint, the field shape stays within its bound, and the default AABB of
/// the exact shape is the vertices'.
fn as_support_shape<R: Real>() {
    let mut rng = Rng::new(99);
    let hull = random_hull(&mut rng, 400, Kind::Sphere).cast::<R>();
    let graph = HullGraph::new(&hull.vertices, &hull.offsets, &hull.neighbours).unwrap();
    let field = SupportField::build(&hull.vertices, 90).unwrap();
    let shape = FieldShape::new(field.view());
    let exact = ExactFieldShape::new(field.view(), graph).unwrap();
    let diam = diameter(&hull.vertices);
    let mut hint = 0u32;
    for _ in 0..5000 {
        let d: Vec3<R> = rng.unit_vec();
        let p = exact.support(d, &mut hint);
        assert_eq!(hull.vertices[hint as usize], p);
        assert!((d.dot(p) - brute(&hull.vertices, d)).abs() <= R::lit(40.0) * R::EPSILON);
        let q = shape.support(d, &mut ());
        let err = (brute(&hull.vertices, d) - d.dot(q)).to_f64();
        assert!(err <= angular_error_bound(90) * diam + 1e-6);
    }
    let aabb = exact.local_aabb();
    for v in &hull.vertices {
        assert!(aabb.contains_point(*v));
    }
}
for_each_real!(as_support_shape, as_support_shape);

/// Ties: along a box face normal the four face corners tie; a generic
/// direction has one winner.
fn ties_on_a_box<R: Real>() {
    let corners: Vec<Vec3<R>> = (0..8)
        .map(|i| {
            let s = |b: i32| if i & b != 0 { R::ONE } else { -R::ONE };
            Vec3::new(s(1), s(2), s(4))
        })
        .collect();
    let field = SupportField::build(&corners, DEFAULT_RESOLUTION).unwrap();
    let view = field.view();
    for d in [Vec3::X, -Vec3::Y, Vec3::Z, -Vec3::Z] {
        assert!(view.query(d).unwrap().ties >= 2, "{d:?}");
    }
    let generic = Vec3::new(R::lit(0.3), R::lit(-0.9), R::lit(0.2));
    let h = view.query(generic).unwrap();
    assert_eq!(h.ties, 1);
    assert_eq!(h.point, Vec3::new(R::ONE, -R::ONE, R::ONE));
}
for_each_real!(ties_on_a_box, ties_on_a_box);

/// Mismatched graph and field, bad resolutions, inconsistent arrays.
#[test]
fn refusals() {
    let v: Vec<Vec3<f64>> = vec![Vec3::X, Vec3::Y, Vec3::Z, -Vec3::X];
    let offsets = [0u32, 1, 2, 3, 4];
    let neighbours = [1u32, 2, 3, 0];
    let graph = HullGraph::new(&v[..4], &offsets, &neighbours).unwrap();
    let field = SupportField::build(&v[..3], 16).unwrap();
    assert!(matches!(
        field.view().query_exact(&graph, Vec3::X),
        Err(FieldError::GraphMismatch { field: 3, graph: 4 })
    ));
    assert!(ExactFieldShape::new(field.view(), graph).is_err());
    assert_eq!(
        SupportField::build(&v, 7).unwrap_err(),
        FieldError::Resolution(7)
    );
    assert_eq!(
        SupportField::<f64>::build(&[], 16).unwrap_err(),
        FieldError::VertexCount("mesh vertices")
    );
    let nan = [Vec3::new(f64::NAN, 0.0, 0.0)];
    assert_eq!(
        SupportField::build(&nan, 16).unwrap_err(),
        FieldError::NonFinite("mesh vertices")
    );
    assert!(HullGraph::new(&v, &[0, 1, 2, 3], &neighbours).is_err());
    assert!(HullGraph::new(&v, &offsets, &[1, 2, 3, 9]).is_err());
    assert!(HullGraph::new(&v, &[0, 2, 1, 3, 4], &neighbours).is_err());
    let pts = [[0.0f64; 3]; 64];
    let idx = [0u32; 64];
    assert!(mink_field::FullCells::new(&pts, &idx[..63], 1).is_err());
    assert!(mink_field::FullCells::new(&pts, &idx, 0).is_err());
    let cells = mink_field::FullCells::new(&pts, &idx, 1).unwrap();
    assert!(mink_field::FieldView::new(8, cells).is_ok());
    assert_eq!(
        mink_field::FieldView::new(9, cells).unwrap_err(),
        FieldError::Length("cells (must be res²)")
    );
    let bad_idx = [5u32; 64];
    assert_eq!(
        mink_field::FullCells::new(&pts, &bad_idx, 5).unwrap_err(),
        FieldError::IndexOutOfRange { at: 0, index: 5 }
    );
}
