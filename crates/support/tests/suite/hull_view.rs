//! `HullView` over borrowed arrays: a `static` hand-written cube, the
//! validating constructor refusing every kind of inconsistency, and queries
//! on unchecked garbage that must never panic.

use crate::hull_common::*;
use mink_support::{
    ConvexHull, FacePlane, HullArrays, HullEdge, HullView, Iso3, Real, ShapeError, Support,
    SupportSet, Vec3,
};
use mink_testkit::{for_each_real, hostile_directions, Rng};

const fn v(x: f32, y: f32, z: f32) -> Vec3<f32> {
    Vec3::new(x, y, z)
}

/// Corner `i` has `+x` for bit 0, `+y` for bit 1, `+z` for bit 2.
static CUBE_VERTICES: [Vec3<f32>; 8] = [
    v(-1., -1., -1.),
    v(1., -1., -1.),
    v(-1., 1., -1.),
    v(1., 1., -1.),
    v(-1., -1., 1.),
    v(1., -1., 1.),
    v(-1., 1., 1.),
    v(1., 1., 1.),
];
static CUBE_PLANES: [FacePlane<f32>; 6] = [
    FacePlane::new(v(-1., 0., 0.), 1.),
    FacePlane::new(v(1., 0., 0.), 1.),
    FacePlane::new(v(0., -1., 0.), 1.),
    FacePlane::new(v(0., 1., 0.), 1.),
    FacePlane::new(v(0., 0., -1.), 1.),
    FacePlane::new(v(0., 0., 1.), 1.),
];
static CUBE_FACE_STARTS: [u16; 7] = [0, 4, 8, 12, 16, 20, 24];
static CUBE_FACE_VERTICES: [u16; 24] = [
    0, 4, 6, 2, 1, 3, 7, 5, 0, 1, 5, 4, 2, 6, 7, 3, 0, 2, 3, 1, 4, 5, 7, 6,
];
static CUBE_EDGES: [HullEdge; 12] = [
    HullEdge::new([0, 1], [2, 4]),
    HullEdge::new([2, 0], [0, 4]),
    HullEdge::new([0, 4], [0, 2]),
    HullEdge::new([1, 3], [1, 4]),
    HullEdge::new([5, 1], [1, 2]),
    HullEdge::new([3, 2], [3, 4]),
    HullEdge::new([6, 2], [0, 3]),
    HullEdge::new([3, 7], [1, 3]),
    HullEdge::new([5, 4], [2, 5]),
    HullEdge::new([4, 6], [0, 5]),
    HullEdge::new([7, 5], [1, 5]),
    HullEdge::new([6, 7], [3, 5]),
];
static CUBE_NEIGHBOR_STARTS: [u16; 9] = [0, 3, 6, 9, 12, 15, 18, 21, 24];
static CUBE_NEIGHBORS: [u16; 24] = [
    1, 2, 4, 0, 3, 5, 0, 3, 6, 1, 2, 7, 0, 5, 6, 1, 4, 7, 2, 4, 7, 3, 5, 6,
];

/// A hull in `static` data, as a microcontroller would hold it.
static CUBE: HullView<'static, f32> = HullView::new_unchecked(HullArrays {
    vertices: &CUBE_VERTICES,
    planes: &CUBE_PLANES,
    face_starts: &CUBE_FACE_STARTS,
    face_vertices: &CUBE_FACE_VERTICES,
    edges: &CUBE_EDGES,
    neighbor_starts: &CUBE_NEIGHBOR_STARTS,
    neighbors: &CUBE_NEIGHBORS,
    tolerance: 0.0,
    lanes: &[],
});

#[test]
fn static_cube_is_valid_and_answers() {
    let checked = HullView::new(CUBE.arrays()).expect("the hand-written cube is consistent");
    assert_eq!(checked, CUBE);
    let mut rng = Rng::new(1);
    let mut hint = 0u32;
    for _ in 0..2000 {
        let d: Vec3<f32> = rng.direction();
        // Analytic: the corner with the signs of d (ties: any corner on them).
        let p = CUBE.support(d, &mut hint);
        let want = d.x.abs() + d.y.abs() + d.z.abs();
        assert!((d.dot(p) - want).abs() <= want * 4.0 * f32::EPSILON);
        let climb = CUBE.support_hill_climb(d, rng.below(8) as u32).unwrap();
        assert_eq!(
            d.dot(CUBE_VERTICES[climb as usize]),
            d.dot(CUBE_VERTICES[CUBE.support_scan(d) as usize])
        );
    }
    assert_eq!(CUBE.interior_point(), Vec3::ZERO);
    let pose = Iso3::from_translation(Vec3::new(1.0, 2.0, 3.0));
    let aabb = CUBE.world_aabb(&pose);
    assert_eq!(
        (aabb.min, aabb.max),
        (Vec3::new(0.0, 1.0, 2.0), Vec3::new(2.0, 3.0, 4.0))
    );
    // And the builder agrees with the hand-written arrays on the shape.
    let built = ConvexHull::from_points(&CUBE_VERTICES).unwrap();
    check_hull(&built, &CUBE_VERTICES);
    assert_eq!(
        (built.view().face_count(), built.view().edges().len()),
        (6, 12)
    );
}

/// Owned, mutable copies of a view's arrays.
#[derive(Clone)]
struct Owned<R> {
    vertices: Vec<Vec3<R>>,
    planes: Vec<FacePlane<R>>,
    face_starts: Vec<u16>,
    face_vertices: Vec<u16>,
    edges: Vec<HullEdge>,
    neighbor_starts: Vec<u16>,
    neighbors: Vec<u16>,
    tolerance: R,
}

impl<R: Real> Owned<R> {
    fn of(a: HullArrays<'_, R>) -> Self {
        Self {
            vertices: a.vertices.to_vec(),
            planes: a.planes.to_vec(),
            face_starts: a.face_starts.to_vec(),
            face_vertices: a.face_vertices.to_vec(),
            edges: a.edges.to_vec(),
            neighbor_starts: a.neighbor_starts.to_vec(),
            neighbors: a.neighbors.to_vec(),
            tolerance: a.tolerance,
        }
    }
    fn arrays(&self) -> HullArrays<'_, R> {
        HullArrays {
            vertices: &self.vertices,
            planes: &self.planes,
            face_starts: &self.face_starts,
            face_vertices: &self.face_vertices,
            edges: &self.edges,
            neighbor_starts: &self.neighbor_starts,
            neighbors: &self.neighbors,
            tolerance: self.tolerance,
            // Without lanes: the corruptions below target the other arrays.
            lanes: &[],
        }
    }
}

fn refusals<R: Real>() {
    let mut rng = Rng::new(3);
    let pts: Vec<Vec3<R>> = rng.points_on_sphere(60, 1.0);
    let hull = ConvexHull::from_points(&pts).unwrap();
    let good = Owned::of(hull.arrays());
    assert!(HullView::new(good.arrays()).is_ok());
    assert_eq!(ConvexHull::from_arrays(good.arrays()).as_ref(), Ok(&hull));
    let nv = good.vertices.len() as u16;
    let nf = good.planes.len() as u16;
    type Mutation<R> = (&'static str, fn(&mut Owned<R>, u16, u16));
    let mutations: Vec<Mutation<R>> = vec![
        ("loop index out of range", |o, nv, _| {
            o.face_vertices[5] = nv
        }),
        ("neighbour index out of range", |o, nv, _| {
            o.neighbors[3] = nv + 7
        }),
        ("edge vertex out of range", |o, nv, _| {
            o.edges[2].vertices[1] = nv
        }),
        ("edge face out of range", |o, _, nf| {
            o.edges[4].faces[0] = nf
        }),
        ("edge with one face twice", |o, _, _| {
            o.edges[1].faces[1] = o.edges[1].faces[0]
        }),
        ("edge with one vertex twice", |o, _, _| {
            o.edges[1].vertices[1] = o.edges[1].vertices[0]
        }),
        ("edge reversed", |o, _, _| o.edges[0].vertices.reverse()),
        ("edge with swapped faces", |o, _, _| {
            o.edges[3].faces.reverse()
        }),
        ("face starts not at 0", |o, _, _| o.face_starts[0] = 1),
        ("face starts short of the end", |o, _, _| {
            *o.face_starts.last_mut().unwrap() -= 1
        }),
        ("face starts decreasing", |o, _, _| o.face_starts.swap(1, 2)),
        ("a face of two vertices", |o, _, _| o.face_starts[1] = 2),
        ("a missing face start", |o, _, _| {
            o.face_starts.pop();
        }),
        ("neighbour starts decreasing", |o, _, _| {
            o.neighbor_starts.swap(2, 3)
        }),
        ("a missing neighbour start", |o, _, _| {
            o.neighbor_starts.pop();
        }),
        ("a vertex without neighbours", |o, _, _| {
            o.neighbor_starts[1] = o.neighbor_starts[0]
        }),
        ("a neighbour dropped", |o, _, _| {
            let a = o.edges[0].vertices[0] as usize;
            let s = o.neighbor_starts[a] as usize;
            let b = o.edges[0].vertices[1];
            let k = s + o.neighbors[s..].iter().position(|&x| x == b).unwrap();
            o.neighbors[k] = (b + 1) % o.vertices.len() as u16;
            if o.neighbors[k] as usize == a {
                o.neighbors[k] = (b + 2) % o.vertices.len() as u16;
            }
        }),
        ("one plane too many", |o, _, _| o.planes.push(o.planes[0])),
        ("one edge too few", |o, _, _| {
            o.edges.pop();
        }),
        ("one vertex too many", |o, _, _| {
            o.vertices.push(Vec3::ZERO);
            o.neighbor_starts.push(*o.neighbor_starts.last().unwrap());
        }),
        ("a NaN vertex", |o, _, _| o.vertices[3].z = R::nan()),
        ("an infinite plane offset", |o, _, _| {
            o.planes[2].offset = R::INFINITY
        }),
        ("a non-unit normal", |o, _, _| {
            o.planes[2].normal *= R::lit(1.01)
        }),
        ("a negative tolerance", |o, _, _| o.tolerance = -R::ONE),
        ("a NaN tolerance", |o, _, _| o.tolerance = R::nan()),
        ("three vertices", |o, _, _| o.vertices.truncate(3)),
    ];
    for (what, mutate) in mutations {
        let mut bad = good.clone();
        mutate(&mut bad, nv, nf);
        let err = HullView::new(bad.arrays()).err();
        assert!(err.is_some(), "{what}: accepted");
        assert!(
            matches!(
                err,
                Some(
                    ShapeError::Inconsistent(_)
                        | ShapeError::NonFinite(_)
                        | ShapeError::Negative(_)
                        | ShapeError::TooFewPoints { .. }
                )
            ),
            "{what}: {err:?}"
        );
        assert_eq!(ConvexHull::from_arrays(bad.arrays()).err(), err);
    }
}
for_each_real!(validation_refuses_inconsistent_arrays, refusals);

fn garbage<R: Real>() {
    // Randomly corrupted arrays through the unchecked constructor: every
    // query must return without panicking (answers are meaningless).
    let mut rng = Rng::new(7);
    let pts: Vec<Vec3<R>> = rng.points_in_ball(200, 1.0);
    let hull = ConvexHull::from_points(&pts).unwrap();
    let good = Owned::of(hull.arrays());
    let mut set = SupportSet::new();
    let mut refused = 0;
    for _ in 0..3000 {
        let mut bad = good.clone();
        for _ in 0..1 + rng.below(4) {
            let junk = |rng: &mut Rng| {
                [0u16, 1, 7, 199, 200, 1000, u16::MAX][rng.below(7)] ^ (rng.below(2) as u16)
            };
            match rng.below(9) {
                0 => {
                    let k = rng.below(bad.face_vertices.len());
                    bad.face_vertices[k] = junk(&mut rng);
                }
                1 => {
                    let k = rng.below(bad.neighbors.len());
                    bad.neighbors[k] = junk(&mut rng);
                }
                2 => {
                    let k = rng.below(bad.face_starts.len());
                    bad.face_starts[k] = junk(&mut rng);
                }
                3 if !bad.neighbor_starts.is_empty() => {
                    let k = rng.below(bad.neighbor_starts.len());
                    bad.neighbor_starts[k] = junk(&mut rng);
                }
                4 => {
                    let n = rng.below(bad.vertices.len() + 1);
                    bad.vertices.truncate(n);
                }
                5 => {
                    let n = rng.below(bad.neighbor_starts.len() + 1);
                    bad.neighbor_starts.truncate(n);
                }
                6 => {
                    let k = rng.below(bad.edges.len());
                    bad.edges[k].faces[0] = junk(&mut rng);
                }
                7 | 3 => {
                    let n = rng.below(bad.planes.len() + 1);
                    bad.planes.truncate(n);
                }
                _ => bad.tolerance = [R::nan(), -R::ONE, R::INFINITY, R::MAX][rng.below(4)],
            }
        }
        // Most corruptions are caught (some are harmless: a huge tolerance,
        // a value overwritten by itself).
        refused += usize::from(HullView::new(bad.arrays()).is_err());
        let view = HullView::new_unchecked(bad.arrays());
        let mut dirs = hostile_directions::<R>();
        for _ in 0..8 {
            dirs.push(rng.direction());
        }
        for d in dirs {
            let mut hint = [0, 5, 199, 60000, u32::MAX][rng.below(5)];
            let _ = view.support(d, &mut hint);
            let _ = view.support_hill_climb(d, hint);
            let _ = view.support_scan(d);
            let _ = view.support_set(d, R::lit(0.01), &mut set);
        }
        let _ = view.interior_point();
        let _ = view.world_aabb(&rng.pose(1.0));
        for f in 0..view.face_count() + 2 {
            let _ = view.face(f);
        }
        for i in 0..view.vertex_count() + 2 {
            let _ = view.neighbors(i);
        }
    }
    assert!(refused > 2400, "only {refused} of 3000 corruptions refused");
    // No vertices at all.
    let empty = HullView::new_unchecked(HullArrays::<R> {
        vertices: &[],
        planes: &[],
        face_starts: &[],
        face_vertices: &[],
        edges: &[],
        neighbor_starts: &[],
        neighbors: &[],
        tolerance: R::ZERO,
        lanes: &[],
    });
    let mut hint = 3;
    assert_eq!(empty.support(Vec3::X, &mut hint), Vec3::ZERO);
    assert!(empty.support_hill_climb(Vec3::X, 0).is_err());
    assert!(empty.world_aabb(&Iso3::IDENTITY).is_empty());
    assert!(empty.support_set(Vec3::X, R::ZERO, &mut set).is_ok() && set.is_empty());
}
for_each_real!(unchecked_garbage_never_panics, garbage);
