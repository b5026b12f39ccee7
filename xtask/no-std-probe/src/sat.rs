//! mink-sat's core API, called without std or alloc: a convex hull (a cube)
//! written as `static` arrays, viewed with the validating `HullView::new`;
//! its SAT data built on the stack (`fill_gauss_arcs` into a fixed array,
//! `InscribedSphere::of`) and checked by `SatHull::new`; then the
//! separating-axis test `sat` (culling on and off), the contact `manifold`,
//! and their frame-to-frame versions `sat_cached` and `manifold_cached`
//! with a `SatCache`, on the cube against itself overlapping and apart.
//! (`SatData`, the owned SAT data, needs `alloc`; nothing here needs it.)

use core::hint::black_box;
use mink_sat::{
    fill_gauss_arcs, manifold, manifold_cached, sat, sat_cached, Culling, GaussArc,
    InscribedSphere, SatArrays, SatCache, SatHull,
};
use mink_support::{FacePlane, HullArrays, HullEdge, HullView, Iso3, Quat, Real, Vec3};

/// A vertex of the static cube.
const fn v(x: f32, y: f32, z: f32) -> Vec3<f32> {
    Vec3::new(x, y, z)
}

/// The cube's corners (half-extent 1 m): corner `i` has `+x` for bit 0,
/// `+y` for bit 1, `+z` for bit 2.
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

/// One plane per face: `-x`, `+x`, `-y`, `+y`, `-z`, `+z`.
static CUBE_PLANES: [FacePlane<f32>; 6] = [
    FacePlane::new(v(-1., 0., 0.), 1.),
    FacePlane::new(v(1., 0., 0.), 1.),
    FacePlane::new(v(0., -1., 0.), 1.),
    FacePlane::new(v(0., 1., 0.), 1.),
    FacePlane::new(v(0., 0., -1.), 1.),
    FacePlane::new(v(0., 0., 1.), 1.),
];

/// Start of each face's loop in [`CUBE_FACE_VERTICES`], plus the end.
static CUBE_FACE_STARTS: [u16; 7] = [0, 4, 8, 12, 16, 20, 24];

/// Each face's vertex loop, counter-clockwise seen from outside.
static CUBE_FACE_VERTICES: [u16; 24] = [
    0, 4, 6, 2, 1, 3, 7, 5, 0, 1, 5, 4, 2, 6, 7, 3, 0, 2, 3, 1, 4, 5, 7, 6,
];

/// Every edge once: end vertices, then left and right faces.
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

/// Start of each vertex's list in [`CUBE_NEIGHBORS`], plus the end.
static CUBE_NEIGHBOR_STARTS: [u16; 9] = [0, 3, 6, 9, 12, 15, 18, 21, 24];

/// Every vertex's neighbours (the corners differing in one bit).
static CUBE_NEIGHBORS: [u16; 24] = [
    1, 2, 4, 0, 3, 5, 0, 3, 6, 1, 2, 7, 0, 5, 6, 1, 4, 7, 2, 4, 7, 3, 5, 6,
];

/// Builds the cube's SAT hull without allocating, then runs the queries.
pub fn exercise() {
    let arrays = HullArrays {
        vertices: &CUBE_VERTICES,
        planes: &CUBE_PLANES,
        face_starts: &CUBE_FACE_STARTS,
        face_vertices: &CUBE_FACE_VERTICES,
        edges: &CUBE_EDGES,
        neighbor_starts: &CUBE_NEIGHBOR_STARTS,
        neighbors: &CUBE_NEIGHBORS,
        tolerance: 0.0,
        lanes: &[],
    };
    let Ok(view) = HullView::new(black_box(arrays)) else {
        return;
    };
    let mut arcs = [GaussArc {
        direction: Vec3::ZERO,
        cos: 0.0,
    }; CUBE_EDGES.len()];
    if fill_gauss_arcs(&view, &mut arcs).is_err() {
        return;
    }
    let Ok(sphere) = InscribedSphere::of(&view) else {
        return;
    };
    let extent = view
        .vertices()
        .iter()
        .fold(0.0f32, |m, &p| m.max_of((p - sphere.center).norm()));
    let sat_arrays = SatArrays {
        arcs: &arcs,
        sphere,
        extent,
    };
    if let Ok(hull) = SatHull::new(view, sat_arrays) {
        queries(&hull);
    }
}

/// Every query on the cube against itself: sunk 0.1 m and turned about z,
/// then 0.5 m apart.
fn queries(hull: &SatHull<'_, f32>) {
    let pose_a = black_box(Iso3::IDENTITY);
    let q = Quat::from_axis_angle(Vec3::Z, black_box(0.3));
    let t = black_box(Vec3::new(0.2, 0.1, 1.9));
    let sunk = Iso3::from_quat(t, q).unwrap_or(Iso3::IDENTITY);
    let apart = Iso3::from_translation(black_box(Vec3::new(0.0, 0.0, 2.5)));
    let margin = black_box(0.01);

    black_box(sat(hull, &pose_a, hull, &sunk, Culling::On));
    black_box(sat(hull, &pose_a, hull, &apart, Culling::Off));
    let m = manifold(hull, &pose_a, hull, &sunk, margin);
    black_box((m.points.len(), m.separation, m.normal, m.feature));
    black_box(m);

    // Frame to frame: apart (full SAT, fills the cache), apart again (the
    // cached axis alone), then sunk (full SAT, seeded with the cache).
    let mut cache = SatCache::default();
    black_box(sat_cached(hull, &pose_a, hull, &apart, margin, &mut cache));
    black_box(sat_cached(hull, &pose_a, hull, &apart, margin, &mut cache));
    black_box(sat_cached(hull, &pose_a, hull, &sunk, margin, &mut cache));
    let mut cache = SatCache::default();
    black_box(manifold_cached(
        hull, &pose_a, hull, &apart, margin, &mut cache,
    ));
    black_box(manifold_cached(
        hull, &pose_a, hull, &sunk, margin, &mut cache,
    ));
}
