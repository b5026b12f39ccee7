//! Shared helpers of the integration tests: random hulls and a brute-force
//! SAT in f64 that shares no code with the crate.

#![allow(dead_code)]

use mink_sat::SatData;
use mink_support::{ConvexHull, Iso3, Real, Vec3};
use mink_testkit::Rng;

/// A hull and its SAT data.
pub struct TestHull<R: Real> {
    pub hull: ConvexHull<R>,
    pub data: SatData<R>,
}

impl<R: Real> TestHull<R> {
    pub fn from_points(points: &[Vec3<R>]) -> Self {
        let hull = ConvexHull::from_points(points).expect("hull");
        let data = SatData::from_view(&hull.view()).expect("sat data");
        Self { hull, data }
    }

    pub fn sat(&self) -> mink_sat::SatHull<'_, R> {
        self.data.with_hull(self.hull.view()).expect("sat hull")
    }
}

/// A random hull of `n` points: in a ball, on a sphere or on a stretched
/// ellipsoid (rock-like, round, or long).
pub fn random_hull<R: Real>(rng: &mut Rng, n: usize) -> TestHull<R> {
    let kind = rng.below(3);
    let pts: Vec<Vec3<R>> = match kind {
        0 => rng.points_in_ball(n, 1.0),
        1 => rng.points_on_sphere(n, 1.0),
        _ => {
            let s = Vec3::new(R::lit(rng.range_f64(0.3, 1.0)), R::ONE, R::lit(0.5));
            rng.points_on_sphere::<R>(n, 1.0)
                .into_iter()
                .map(|p| p.mul_elem(s))
                .collect()
        }
    };
    TestHull::from_points(&pts)
}

/// An axis-aligned box of half-extents `h` as a hull.
pub fn box_hull<R: Real>(h: Vec3<R>) -> TestHull<R> {
    let pts: Vec<Vec3<R>> = (0..8)
        .map(|i| {
            let s = |bit: i32, v: R| if i & bit == 0 { -v } else { v };
            Vec3::new(s(1, h.x), s(2, h.y), s(4, h.z))
        })
        .collect();
    TestHull::from_points(&pts)
}

fn world_f64<R: Real>(hull: &ConvexHull<R>, pose: &Iso3<R>) -> Vec<Vec3<f64>> {
    let pose = pose.cast::<f64>();
    hull.view()
        .vertices()
        .iter()
        .map(|v| pose.transform_point(v.cast::<f64>()))
        .collect()
}

fn interval(vs: &[Vec3<f64>], n: Vec3<f64>) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for v in vs {
        let p = n.dot(*v);
        lo = lo.min(p);
        hi = hi.max(p);
    }
    (lo, hi)
}

/// Brute-force separations, f64: see [`brute_force`].
pub struct Brute {
    /// The largest gap over every face normal and every edge-pair cross
    /// product (both signs). When the hulls overlap this is their SAT
    /// separation (the largest gap over all directions is reached at a face
    /// normal of the Minkowski difference); when apart it can exceed it
    /// (an axis through two vertices that is no face of the difference).
    pub all_axes: f64,
    /// The largest gap over the face normals and the edge-pair axes along
    /// which both edges are extreme (A's edge on top of A, B's edge at the
    /// bottom of B, checked by projecting every vertex): the faces of the
    /// Minkowski difference, so the exact SAT separation.
    pub minkowski_faces: f64,
}

/// The largest gap between the projections of the two hulls (A below, B
/// above), projecting every vertex: see [`Brute`]. `eps` is how far an edge
/// end may be from its hull's extreme value and still count as on it.
pub fn brute_force<R: Real>(
    a: &ConvexHull<R>,
    pose_a: &Iso3<R>,
    b: &ConvexHull<R>,
    pose_b: &Iso3<R>,
    eps: f64,
) -> Brute {
    let (wa, wb) = (world_f64(a, pose_a), world_f64(b, pose_b));
    let gap = |n: Vec3<f64>| {
        let (_, hi_a) = interval(&wa, n);
        let (lo_b, _) = interval(&wb, n);
        lo_b - hi_a
    };
    let mut best = f64::NEG_INFINITY;
    let (pa, pb) = (pose_a.cast::<f64>(), pose_b.cast::<f64>());
    for p in a.view().planes() {
        best = best.max(gap(pa.transform_vector(p.normal.cast())));
    }
    for p in b.view().planes() {
        best = best.max(gap(-pb.transform_vector(p.normal.cast())));
    }
    let dirs = |h: &ConvexHull<R>, w: &[Vec3<f64>]| -> Vec<Vec3<f64>> {
        h.view()
            .edges()
            .iter()
            .map(|e| w[e.vertices[1] as usize] - w[e.vertices[0] as usize])
            .collect()
    };
    let (da, db) = (dirs(a, &wa), dirs(b, &wb));
    let mut faces_only = best;
    let (eas, ebs) = (a.view().edges(), b.view().edges());
    for (ea, ia) in da.iter().zip(eas) {
        for (eb, ib) in db.iter().zip(ebs) {
            let l = ea.cross(*eb);
            let len = l.norm();
            if len <= 1e-9 * ea.norm() * eb.norm() {
                continue;
            }
            for n in [l / len, -l / len] {
                let (_, hi_a) = interval(&wa, n);
                let (lo_b, _) = interval(&wb, n);
                best = best.max(lo_b - hi_a);
                let on_a = ia
                    .vertices
                    .iter()
                    .all(|&v| n.dot(wa[v as usize]) >= hi_a - eps);
                let on_b = ib
                    .vertices
                    .iter()
                    .all(|&v| n.dot(wb[v as usize]) <= lo_b + eps);
                if on_a && on_b {
                    faces_only = faces_only.max(lo_b - hi_a);
                }
            }
        }
    }
    Brute {
        all_axes: best,
        minkowski_faces: faces_only,
    }
}

/// Every vertex of `hull` at `pose`, world frame, in f64.
pub fn world_vertices<R: Real>(hull: &ConvexHull<R>, pose: &Iso3<R>) -> Vec<Vec3<f64>> {
    world_f64(hull, pose)
}

/// The absolute tolerance for comparing separations of unit-sized hulls a
/// few meters from the origin.
pub fn tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS < 30 {
        2e-4
    } else {
        1e-9
    }
}
