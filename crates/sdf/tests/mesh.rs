//! Mesh validation (each refusal, welding, flipping), convex meshes,
//! baked `static` fields, and the parallel build against the serial one.

mod common;

use common::{cuboid, torus};
use mink_sdf::{MeshError, MeshView, OwnedSdf, SdfError, SdfGrid, SdfOptions, SdfView, TriMesh};
use mink_support::{ConvexHull, Cuboid, Real, Vec3};
use mink_testkit::{for_each_real, Rng};

fn v<R: Real>(p: [f64; 3]) -> Vec3<R> {
    Vec3::new(R::lit(p[0]), R::lit(p[1]), R::lit(p[2]))
}

fn cube<R: Real>() -> (Vec<Vec3<R>>, Vec<[u32; 3]>) {
    let s = cuboid([0.5, 0.5, 0.5]);
    (s.vertices.iter().map(|&p| v(p)).collect(), s.triangles)
}

/// Six times the enclosed volume.
fn six_volume<R: Real>(m: &TriMesh<R>) -> f64 {
    m.triangles()
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| m.vertices()[i as usize].cast::<f64>());
            a.dot(b.cross(c))
        })
        .sum()
}

fn refusals<R: Real>() {
    let (verts, tris) = cube::<R>();
    assert!(TriMesh::new(&verts, &tris).is_ok());
    assert_eq!(TriMesh::<R>::new(&[], &tris), Err(MeshError::Empty));
    assert_eq!(TriMesh::new(&verts, &[]), Err(MeshError::Empty));

    let mut nan = verts.clone();
    nan[3].z = R::nan();
    assert_eq!(
        TriMesh::new(&nan, &tris),
        Err(MeshError::NonFinite { vertex: 3 })
    );

    let mut oob = tris.clone();
    oob[5][1] = 8;
    assert_eq!(
        TriMesh::new(&verts, &oob),
        Err(MeshError::IndexOutOfRange { triangle: 5 })
    );

    let open = &tris[..11];
    assert!(matches!(
        TriMesh::new(&verts, open),
        Err(MeshError::OpenEdge { .. })
    ));

    let mut dup = tris.clone();
    dup.push(tris[0]);
    assert!(matches!(
        TriMesh::new(&verts, &dup),
        Err(MeshError::NonManifoldEdge { .. })
    ));

    let mut flipped = tris.clone();
    flipped[4].swap(0, 1);
    assert!(matches!(
        TriMesh::new(&verts, &flipped),
        Err(MeshError::InconsistentOrientation { .. })
    ));

    // A corner collapsed onto its neighbour: triangles with two equal
    // corners after welding.
    let mut collapsed = verts.clone();
    collapsed[1] = collapsed[0];
    assert!(matches!(
        TriMesh::new(&collapsed, &tris),
        Err(MeshError::DegenerateTriangle { .. })
    ));

    // A sliver: one corner moved onto the opposite edge's line.
    let tet = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.5, 0.5, 0.0],
    ];
    let tet: Vec<Vec3<R>> = tet.iter().map(|&p| v(p)).collect();
    let tet_tris = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    assert!(matches!(
        TriMesh::new(&tet, &tet_tris),
        Err(MeshError::DegenerateTriangle { .. }) | Err(MeshError::ZeroVolume)
    ));

    // Two copies of a triangle, back to back: closed, no volume.
    let flat: Vec<Vec3<R>> = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
        .iter()
        .map(|&p| v(p))
        .collect();
    assert_eq!(
        TriMesh::new(&flat, &[[0, 1, 2], [0, 2, 1]]),
        Err(MeshError::ZeroVolume)
    );
}
for_each_real!(refusals, refusals);

fn welding_and_flipping<R: Real>() {
    let (verts, tris) = cube::<R>();
    // A soup: three fresh corners per triangle, plus an unused vertex.
    let mut soup = Vec::new();
    let mut soup_tris = Vec::new();
    for t in &tris {
        let base = soup.len() as u32;
        soup.extend(t.iter().map(|&i| verts[i as usize]));
        soup_tris.push([base, base + 1, base + 2]);
    }
    soup.push(v([9.0, 9.0, 9.0]));
    let m = TriMesh::new(&soup, &soup_tris).unwrap();
    assert_eq!(m.vertices().len(), 8);
    assert_eq!(m.edges().len(), 18);
    assert!((six_volume(&m) - 6.0).abs() < 1e-5);
    // All triangles reversed: accepted and flipped to positive volume.
    let inside_out: Vec<[u32; 3]> = tris.iter().map(|t| [t[0], t[2], t[1]]).collect();
    let m = TriMesh::new(&verts, &inside_out).unwrap();
    assert!((six_volume(&m) - 6.0).abs() < 1e-5);
    // Edges per triangle name the right vertices after the flip.
    for (t, e) in m.triangles().iter().zip(m.triangle_edges()) {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            assert_eq!(m.edges()[e[k] as usize], [a.min(b), a.max(b)]);
        }
    }
    // A flipped mesh's field is negative inside.
    let f = OwnedSdf::build(&m, SdfOptions::new(8, R::lit(0.1))).unwrap();
    assert!(f.view().distance(Vec3::ZERO) < R::ZERO);
}
for_each_real!(welding_and_flipping, welding_and_flipping);

fn convex_meshes<R: Real>() {
    let mut rng = Rng::new(5);
    for _ in 0..20 {
        let pts: Vec<Vec3<R>> = rng.points_in_ball(30, 1.0);
        let hull = ConvexHull::from_points(&pts).unwrap();
        let m = TriMesh::from_hull(&hull.view()).unwrap();
        // Euler: V - E + F = 2 for a closed sphere-like mesh.
        let (nv, ne, nf) = (m.vertices().len(), m.edges().len(), m.triangles().len());
        assert_eq!(nv + nf, ne + 2);
        // The field is negative exactly inside the hull's planes, away
        // from the surface by more than a cell.
        let f = OwnedSdf::build(&m, SdfOptions::new(24, R::lit(0.1))).unwrap();
        let h = f.grid().cell.to_f64() * 1.8;
        for _ in 0..200 {
            let p: Vec3<R> = rng.in_cube(1.2);
            let plane = hull
                .view()
                .planes()
                .iter()
                .map(|pl| pl.distance(p).to_f64())
                .fold(f64::MIN, f64::max);
            let d = f.view().distance(p).to_f64();
            if plane.abs() > h {
                assert_eq!(d < 0.0, plane < 0.0, "at {p:?}");
            }
        }
    }
    let b = TriMesh::from_cuboid(&Cuboid::new(v::<R>([1.0, 2.0, 3.0])).unwrap()).unwrap();
    assert!((six_volume(&b) - 6.0 * 48.0).abs() < 1e-3);
}
for_each_real!(convex_meshes, convex_meshes);

/// A 2×2×2 field baked as statics: the distance to the plane x = 0.5.
static GRID: SdfGrid<f32> = SdfGrid {
    origin: Vec3::new(0.0, 0.0, 0.0),
    cell: 1.0,
    dims: [2, 2, 2],
};
static SAMPLES: [f32; 8] = [-0.5, 0.5, -0.5, 0.5, -0.5, 0.5, -0.5, 0.5];
static BAKED: SdfView<'static, f32> = SdfView::new_unchecked(GRID, &SAMPLES);
static CUBE_V: [Vec3<f32>; 4] = [
    Vec3::new(0.0, 0.0, 0.0),
    Vec3::new(1.0, 0.0, 0.0),
    Vec3::new(0.0, 1.0, 0.0),
    Vec3::new(0.0, 0.0, 1.0),
];
static TET_T: [[u32; 3]; 4] = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
static TET_E: [[u32; 2]; 6] = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]];
static BAKED_MESH: MeshView<'static, f32> = MeshView::new_unchecked(&CUBE_V, &TET_T, &TET_E);

#[test]
fn baked_statics_answer_like_the_plane() {
    assert!(SdfView::new(GRID, &SAMPLES).is_ok());
    assert_eq!(BAKED_MESH.edges().len(), 6);
    assert!(MeshView::new(&CUBE_V, &TET_T, &TET_E).is_some());
    let mut rng = Rng::new(9);
    for _ in 0..1000 {
        let p: Vec3<f32> = rng.in_cube(3.0);
        let (d, g) = BAKED.distance_and_gradient(p);
        // Inside the box: exact; outside: box distance plus boundary value.
        let q = Vec3::new(
            p.x.clamp(0.0, 1.0),
            p.y.clamp(0.0, 1.0),
            p.z.clamp(0.0, 1.0),
        );
        let expect = (q.x - 0.5) + (p - q).norm();
        assert!((d - expect).abs() < 1e-5, "at {p:?}: {d} vs {expect}");
        assert!(g.is_finite() && g.norm() > 0.5);
    }
    // Inconsistent unchecked data answers the fallback, never panics.
    let short = SdfView::new_unchecked(GRID, &SAMPLES[..5]);
    assert_eq!(short.distance(Vec3::ZERO), f32::MAX);
    let bad = SdfGrid { cell: -1.0, ..GRID };
    assert_eq!(SdfView::new(bad, &SAMPLES), Err(SdfError::Geometry));
    assert_eq!(SdfView::new(GRID, &SAMPLES[..7]), Err(SdfError::Dimensions));
    let mut nan = SAMPLES;
    nan[2] = f32::NAN;
    assert_eq!(SdfView::new(GRID, &nan), Err(SdfError::NonFiniteSample));
    assert_eq!(
        SdfView::new_unchecked(GRID, &nan).distance(Vec3::new(0.1, 0.9, 0.1)),
        f32::MAX
    );
}

fn bad_options_are_refused<R: Real>() {
    let m = torus(1.0, 0.3, 12, 8).mesh::<R>();
    for (res, pad, e) in [
        (1, 0.1, SdfError::Resolution),
        (513, 0.1, SdfError::Resolution),
        (8, -0.1, SdfError::Geometry),
        (8, f64::NAN, SdfError::Geometry),
    ] {
        assert_eq!(
            OwnedSdf::build(&m, SdfOptions::new(res, R::lit(pad))),
            Err(e)
        );
    }
    let f = OwnedSdf::build(&m, SdfOptions::new(20, R::lit(0.25))).unwrap();
    let g = f.grid();
    assert_eq!(g.dims.iter().copied().max(), Some(20));
    // The padded mesh box fits in the grid.
    let b = f.view().aabb();
    assert!(b.min.x.to_f64() <= -1.55 + 1e-5 && b.max.z.to_f64() >= 0.55 - 1e-5);
    assert_eq!(
        f.view().sample_bytes(),
        g.dims.iter().map(|&d| d as usize).product::<usize>() * core::mem::size_of::<R>()
    );
}
for_each_real!(bad_options_are_refused, bad_options_are_refused);

fn parallel_build_equals_serial<R: Real>() {
    let m = torus(1.0, 0.3, 32, 16).mesh::<R>();
    let opts = SdfOptions::new(24, R::lit(0.1));
    let a = OwnedSdf::build(&m, opts).unwrap();
    let b = OwnedSdf::build_serial(&m, opts).unwrap();
    assert_eq!(a, b);
}
for_each_real!(parallel_build_equals_serial, parallel_build_equals_serial);
