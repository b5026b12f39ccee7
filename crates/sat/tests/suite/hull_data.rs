//! The per-hull SAT data and the edge bound, against analytic answers and
//! dense sampling.

use crate::common::{box_hull, random_hull, TestHull};
use mink_sat::{edge_is_candidate, GaussArc, InscribedSphere, SatArrays, SatHull};
use mink_support::{Real, Vec3};
use mink_testkit::{for_each_real, Rng};

fn box_sphere_is_centre_and_half_extent<R: Real>() {
    let h = Vec3::new(R::lit(0.5), R::lit(1.0), R::lit(2.0));
    let b = box_hull::<R>(h);
    let s = b.data.arrays().sphere;
    assert!(s.center.norm().to_f64() < 1e-6);
    assert!((s.radius.to_f64() - 0.5).abs() < 1e-6);
    let extent = b.data.arrays().extent.to_f64();
    assert!((extent - (0.25f64 + 1.0 + 4.0).sqrt()).abs() < 1e-5);
}
for_each_real!(
    box_sphere_is_centre_and_half_extent,
    box_sphere_is_centre_and_half_extent
);

/// A square pyramid of height 1 on a base of side 2: its volume centroid is
/// a quarter of the height above the base (the vertex mean is a fifth), and
/// the nearest face plane is the base (the slanted ones are (1 - 1/4)/√2
/// away).
fn pyramid_centroid<R: Real>() {
    let pts: Vec<Vec3<R>> = [
        [-1.0, -1.0, 0.0],
        [1.0, -1.0, 0.0],
        [1.0, 1.0, 0.0],
        [-1.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ]
    .iter()
    .map(|p| Vec3::new(R::lit(p[0]), R::lit(p[1]), R::lit(p[2])))
    .collect();
    let p = TestHull::from_points(&pts);
    let s = p.data.arrays().sphere;
    assert!(
        (s.center - Vec3::new(R::ZERO, R::ZERO, R::lit(0.25)))
            .norm()
            .to_f64()
            < 1e-6
    );
    let expected = 0.25_f64.min(0.75 / 2f64.sqrt());
    assert!((s.radius.to_f64() - expected).abs() < 1e-6, "{}", s.radius);
}
for_each_real!(pyramid_centroid, pyramid_centroid);

/// On random hulls the sphere lies inside every face plane and the arcs
/// match the edges' faces.
fn random_hull_data_is_consistent<R: Real>() {
    let mut rng = Rng::new(0x5a7_1001);
    for _ in 0..500 {
        let n = 4 + rng.below(60);
        let h = random_hull::<R>(&mut rng, n);
        let view = h.hull.view();
        let arrays = h.data.arrays();
        let s = arrays.sphere;
        assert!(s.radius > R::ZERO);
        for p in view.planes() {
            assert!(p.distance(s.center) <= -s.radius + R::lit(1e-5));
        }
        for (e, arc) in view.edges().iter().zip(arrays.arcs) {
            let (a, b) = (
                view.vertices()[e.vertices[0] as usize],
                view.vertices()[e.vertices[1] as usize],
            );
            let (n0, n1) = (
                view.planes()[e.faces[0] as usize].normal,
                view.planes()[e.faces[1] as usize].normal,
            );
            assert!((arc.cos - n0.dot(n1)).abs() < R::lit(1e-5));
            // The arc's pole, perpendicular to both normals to round-off.
            let round = R::EPSILON * R::lit(4.0);
            assert!(arc.direction.dot(n0).abs() <= round);
            assert!(arc.direction.dot(n1).abs() <= round);
            assert!(n0.cross(n1).dot(arc.direction) > R::ZERO);
            // The edge's vertices, each within the hull's tolerance of both
            // planes, lie within `2 tol / sin θ` of the line where the
            // planes meet (θ the angle between the normals).
            let d = b - a;
            assert!(d.dot(arc.direction) > R::ZERO);
            let off = (d - arc.direction * d.dot(arc.direction)).norm();
            let sin = n0.cross(n1).norm();
            let allowed = R::lit(4.0) * view.tolerance() / sin + round * d.norm();
            assert!(off <= allowed, "{off} > {allowed}");
        }
        for v in view.vertices() {
            assert!((*v - s.center).norm() <= arrays.extent * (R::ONE + R::lit(1e-5)));
        }
        assert!(h.data.with_hull(view).is_ok());
    }
}
for_each_real!(
    random_hull_data_is_consistent,
    random_hull_data_is_consistent
);

#[test]
fn sat_hull_rejects_bad_arrays() {
    let b = box_hull::<f64>(Vec3::splat(0.5));
    let good = b.data.arrays();
    assert!(SatHull::new(b.hull.view(), good).is_ok());
    let short = SatArrays {
        arcs: &good.arcs[1..],
        ..good
    };
    assert!(SatHull::new(b.hull.view(), short).is_err());
    let mut arcs = good.arcs.to_vec();
    arcs[0] = GaussArc {
        direction: Vec3::new(f64::NAN, 0.0, 0.0),
        cos: 0.0,
    };
    assert!(SatHull::new(
        b.hull.view(),
        SatArrays {
            arcs: &arcs,
            ..good
        }
    )
    .is_err());
    // Data whose pole is not perpendicular to its faces (a direction taken
    // from the vertices of a sliver edge) is refused: SAT would build axes
    // off the edge's Gauss arc.
    let mut arcs = good.arcs.to_vec();
    let d = arcs[0].direction;
    arcs[0].direction = (d + d.any_orthonormal() * 0.2).try_normalize().unwrap();
    assert!(SatHull::new(
        b.hull.view(),
        SatArrays {
            arcs: &arcs,
            ..good
        }
    )
    .is_err());
    let negative = SatArrays {
        sphere: InscribedSphere {
            center: Vec3::ZERO,
            radius: -1.0,
        },
        ..good
    };
    assert!(SatHull::new(b.hull.view(), negative).is_err());
}

/// `edge_is_candidate` against the maximum of `n·d` over 2000 samples of
/// the arc: never culls an edge whose arc reaches the bound, and keeps an
/// edge only when its arc reaches it (to within the sampling error).
fn edge_bound_matches_sampled_arc<R: Real>() {
    let mut rng = Rng::new(0x5a7_1002);
    let (mut kept, mut total) = (0, 0);
    for _ in 0..4000 {
        let n1 = rng.unit_vec::<f64>();
        let mut n2 = rng.unit_vec::<f64>();
        if rng.chance(0.3) {
            n2 = (n1 + n2 * 0.2).try_normalize().unwrap();
        }
        let axis = n1.cross(n2);
        if axis.norm() < 1e-3 {
            continue;
        }
        let d = rng.unit_vec::<f64>() * rng.range_f64(0.0, 3.0);
        let bound = rng.range_f64(-1.0, 3.0);
        // Slerp from n1 to n2.
        let theta = n1.dot(n2).clamp(-1.0, 1.0).acos();
        let mut best = f64::NEG_INFINITY;
        for k in 0..=2000 {
            let t = k as f64 / 2000.0;
            let n = (n1 * ((1.0 - t) * theta).sin() + n2 * (t * theta).sin()) / theta.sin();
            best = best.max(n.dot(d));
        }
        let c = R::lit(n1.dot(n2));
        let cand = edge_is_candidate(R::lit(n1.dot(d)), R::lit(n2.dot(d)), c, R::lit(bound));
        // Sampling error of the maximum: at most |d| (1 - cos(step / 2)).
        let slack = 1e-5 * (1.0 + d.norm()) + if R::MANTISSA_BITS < 30 { 1e-5 } else { 0.0 };
        if best >= bound + slack {
            assert!(cand, "culled: arc max {best} bound {bound}");
        }
        if best < bound - slack - 1e-5 {
            assert!(!cand, "kept: arc max {best} bound {bound}");
        }
        total += 1;
        kept += cand as usize;
    }
    let share = kept as f64 / total as f64;
    assert!((0.2..0.8).contains(&share), "kept share {share}");
}
for_each_real!(
    edge_bound_matches_sampled_arc,
    edge_bound_matches_sampled_arc
);
