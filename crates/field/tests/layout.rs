//! The grid layout (Genesis' mapping), the cheap cell computation against
//! the library one, the compact layout and field sets.

mod common;

use common::{random_hull, Kind};
use mink_field::grid::{
    bracket, cell_coords, cell_coords_libm, cell_direction, GridScale, LOCATE_MAX_ERROR,
};
use mink_field::{CompactCells, FieldError, FieldSet, FieldSetView, SupportField};
use mink_support::{Real, Vec3};
use mink_testkit::{for_each_real, Rng};

/// `cell_direction` is Genesis' formula, and a cell's own direction lands
/// in its own four-cell bracket.
#[test]
fn cells_follow_genesis_mapping() {
    for res in [8u32, 45, 180] {
        let scale = GridScale::<f64>::new(res);
        for i in 0..res {
            for j in 0..res {
                let theta =
                    i as f64 / res as f64 * 2.0 * std::f64::consts::PI - std::f64::consts::PI;
                let phi = j as f64 / res as f64 * std::f64::consts::PI;
                let d = cell_direction(res, i, j);
                let want = Vec3::new(phi.sin() * theta.cos(), phi.sin() * theta.sin(), phi.cos());
                assert!((d - want).max_abs() < 1e-15);
                if j == 0 {
                    continue; // The pole row: every i is the same direction.
                }
                let k = i * res + j;
                for (u, v) in [cell_coords(d, &scale), cell_coords_libm(d, &scale)] {
                    let b = bracket(u, v, res);
                    let near = b.contains(&k)
                        || b.iter()
                            .any(|&c| cell_direction(res, c / res, c % res).distance(d) < 1e-4);
                    assert!(near, "res {res} cell ({i}, {j}): {b:?}");
                }
            }
        }
    }
}

/// The polynomial angles are within `LOCATE_MAX_ERROR` of the library's.
fn fast_angles_match_libm<R: Real>() {
    let mut rng = Rng::new(17);
    let res = 360;
    let scale = GridScale::<R>::new(res);
    let (mut worst_u, mut worst_v) = (0.0f64, 0.0f64);
    for _ in 0..100_000 {
        let d: Vec3<R> = rng.unit_vec();
        let (u, v) = cell_coords(d, &scale);
        let (u2, v2) = cell_coords_libm(d, &scale);
        let du = (u - u2).to_f64().abs();
        let du = du.min(res as f64 - du); // the seam
        worst_u = worst_u.max(du / scale.u_per_rad.to_f64());
        worst_v = worst_v.max((v - v2).to_f64().abs() / scale.v_per_rad.to_f64());
    }
    let allow = LOCATE_MAX_ERROR + 64.0 * R::EPSILON.to_f64();
    assert!(worst_u <= allow && worst_v <= allow, "{worst_u} {worst_v}");
    assert!(worst_u > 1e-7, "the comparison is not vacuous");
}
for_each_real!(fast_angles_match_libm, fast_angles_match_libm);

/// The compact layout answers exactly as the full one.
fn compact_equals_full<R: Real>() {
    let mut rng = Rng::new(31);
    let hull = random_hull(&mut rng, 500, Kind::Sphere).cast::<R>();
    let field = SupportField::build(&hull.vertices, 90).unwrap();
    let idx = field.compact_indices().unwrap();
    let compact = field.compact_view(&idx, &hull.vertices).unwrap();
    let full = field.view();
    for _ in 0..20_000 {
        let d: Vec3<R> = rng.direction();
        assert_eq!(full.query(d).unwrap(), compact.query(d).unwrap());
    }
    let too_many = vec![Vec3::<R>::ZERO; 70_000];
    assert!(CompactCells::new(&idx, &too_many).is_err());
}
for_each_real!(compact_equals_full, compact_equals_full);

/// A set answers each geometry as its own field does; its offsets are the
/// prefix sum of the blocks; bad arrays are refused.
#[test]
fn field_set() {
    let mut rng = Rng::new(41);
    let hulls: Vec<_> = [(10, Kind::Ball), (200, Kind::Sphere), (80, Kind::Sliver)]
        .iter()
        .map(|&(n, k)| random_hull(&mut rng, n, k).cast::<f32>())
        .collect();
    let meshes: Vec<&[Vec3<f32>]> = hulls.iter().map(|h| h.vertices.as_slice()).collect();
    let set = FieldSet::build(&meshes, 45).unwrap();
    let fields: Vec<_> = meshes
        .iter()
        .map(|m| SupportField::build(m, 45).unwrap())
        .collect();
    let mixed = FieldSet::from_fields(&[
        fields[0].clone(),
        SupportField::build(meshes[1], 20).unwrap(),
    ])
    .unwrap();
    assert_eq!(mixed.arrays().1, &[0, 2025, 2025 + 400]);
    let view = set.view();
    assert_eq!(view.len(), 3);
    assert_eq!(view.cell_start(), &[0, 2025, 4050, 6075]);
    for _ in 0..5000 {
        let d: Vec3<f32> = rng.direction();
        for g in 0..3 {
            assert_eq!(
                view.query(g, d).unwrap(),
                fields[g].view().query(d).unwrap()
            );
        }
    }
    assert_eq!(
        view.query(3, Vec3::X).unwrap_err(),
        FieldError::NoSuchGeometry(3)
    );
    let (res, start, nv, pts, idx) = set.arrays();
    assert!(FieldSetView::new(res, start, nv, pts, idx).is_ok());
    assert!(FieldSetView::new(res, &start[..3], nv, pts, idx).is_err());
    assert!(FieldSetView::new(res, &[0, 4050, 2025, 6075], nv, pts, idx).is_err());
    assert!(FieldSetView::new(res, start, &[10, 1, 80], pts, idx).is_err());
    assert!(FieldSetView::new(&[45, 45, 46], start, nv, pts, idx).is_err());
}
