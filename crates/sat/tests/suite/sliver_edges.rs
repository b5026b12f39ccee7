//! SAT on CAD-like hulls with sliver edges (issue 32): hulls of about 2 m
//! built from point clouds with near-duplicate vertices, nearly aligned and
//! pushed into each other by 2 to 22 cm (a quarter of the poses apart by as
//! much instead), in both scalars. Against GJK's verdict (an independent
//! oracle) and a brute force over the hulls' own vertices:
//! - SAT's verdict agrees with GJK's away from touching;
//! - the reported separation is never larger than the true gap of the two
//!   hulls along the reported normal (a positive one certifies a separating
//!   axis);
//! - overlapping hulls get a non-empty manifold;
//! - overlapping, SAT's depth is EPA's (it finds the deepest axis);
//! - the fuzzing harness's invariants hold (`check_pair`: among others,
//!   every contact's points lie on both surfaces).
//!
//! Edge directions taken from the two vertices of a tens-of-micrometre edge
//! can be degrees off the line where its faces meet: the edge test then
//! accepted axes that are no faces of the Minkowski difference and
//! overestimated the separation along them.

use crate::common::{world_vertices, TestHull};
use mink_gjk::{distance, intersect, penetration, EpaStatus, GjkStatus};
use mink_sat::fuzz::check_pair;
use mink_sat::{manifold, sat, Culling, SatFeature};
use mink_support::{Iso3, Mat3, Pair, Real, Vec3};
use mink_testkit::{for_each_real, Rng};

/// The hulls' size, meters.
const SIZE: f64 = 2.0;

/// A CAD-like cloud of about 2 m: a chamfered box, or points on an
/// ellipsoid, then near-duplicates of some points, jittered by 1e-5 to
/// 1e-4 of the size (what a tessellated CAD mesh with unwelded vertices
/// gives).
fn cad_cloud(rng: &mut Rng) -> Vec<Vec3<f64>> {
    let half = Vec3::new(
        rng.range_f64(0.5, 1.0),
        rng.range_f64(0.5, 1.0),
        rng.range_f64(0.5, 1.0),
    );
    let mut pts: Vec<Vec3<f64>> = Vec::new();
    if rng.chance(0.5) {
        // A box whose corners are cut by a small chamfer, some not.
        for i in 0..8 {
            let s = |bit: i32| if i & bit == 0 { -1.0 } else { 1.0 };
            let c = Vec3::new(s(1) * half.x, s(2) * half.y, s(4) * half.z);
            if rng.chance(0.5) {
                let k = rng.range_f64(0.02, 0.2);
                pts.push(c - Vec3::new(s(1) * k, 0.0, 0.0));
                pts.push(c - Vec3::new(0.0, s(2) * k, 0.0));
                pts.push(c - Vec3::new(0.0, 0.0, s(4) * k));
            } else {
                pts.push(c);
            }
        }
    } else {
        let n = 16 + rng.below(10);
        for p in rng.points_on_sphere::<f64>(n, 1.0) {
            pts.push(p.mul_elem(half));
        }
    }
    let copies = 3 + rng.below(6);
    for _ in 0..copies {
        let p = pts[rng.below(pts.len())];
        let jitter = SIZE * 10f64.powf(rng.range_f64(-5.0, -4.0));
        pts.push(p + rng.unit_vec::<f64>() * jitter);
    }
    pts
}

fn hull<R: Real>(cloud: &[Vec3<f64>]) -> TestHull<R> {
    let pts: Vec<Vec3<R>> = cloud.iter().map(|p| p.cast()).collect();
    TestHull::from_points(&pts)
}

/// B's pose: A's rotation turned by at most 3° (exactly A's in a quarter of
/// the cases), its centre 4 m from A's along one of A's face directions or
/// a random one, then moved along GJK's normal until the hulls overlap by
/// `overlap` (negative: apart by that much). `None` when GJK does not
/// converge.
fn nearly_aligned_pose<R: Real>(
    rng: &mut Rng,
    a: &TestHull<R>,
    pose_a: &Iso3<R>,
    b: &TestHull<R>,
    overlap: f64,
) -> Option<Iso3<R>> {
    let rot_a = pose_a.rotation.cast::<f64>();
    let turn = if rng.chance(0.25) {
        Mat3::IDENTITY
    } else {
        let angle = rng.range_f64(0.0, 3.0).to_radians();
        Mat3::from_axis_angle(rng.unit_vec::<f64>(), angle)
    };
    let dir_local = match rng.below(3) {
        0 => {
            let mut d = Vec3::ZERO;
            let s = if rng.chance(0.5) { -1.0 } else { 1.0 };
            match rng.below(3) {
                0 => d.x = s,
                1 => d.y = s,
                _ => d.z = s,
            }
            d
        }
        _ => rng.unit_vec::<f64>(),
    };
    let t = pose_a.translation.cast::<f64>() + rot_a.mul_vec(dir_local) * (2.0 * SIZE);
    let mut pose_b = Iso3::from_parts(rot_a.mul_mat(&turn), t).cast::<R>();
    let (va, vb) = (a.hull.view(), b.hull.view());
    let d = distance(&mut Pair::new(&va, pose_a, &vb, &pose_b), pose_a);
    if d.status != GjkStatus::Converged || d.distance <= R::ZERO {
        return None;
    }
    pose_b.translation -= d.normal * (d.distance + R::lit(overlap));
    Some(pose_b)
}

/// `min over B of n·x - max over A of n·x`, every vertex, f64.
fn true_gap(wa: &[Vec3<f64>], wb: &[Vec3<f64>], n: Vec3<f64>) -> f64 {
    let hi = wa.iter().fold(f64::NEG_INFINITY, |m, v| m.max(n.dot(*v)));
    let lo = wb.iter().fold(f64::INFINITY, |m, v| m.min(n.dot(*v)));
    lo - hi
}

/// What went wrong, counted over the sweep.
#[derive(Debug, Default)]
struct Failures {
    /// SAT separated and GJK intersecting, or the reverse.
    wrong_verdict: usize,
    /// Reported separation above the true gap along the reported normal.
    above_true_gap: usize,
    /// Overlapping (by GJK) and no contact point.
    empty_manifold: usize,
    /// Overlapping: SAT's depth not EPA's.
    depth_mismatch: usize,
    /// Violations of the fuzzing harness's invariants (`check_pair`).
    harness: usize,
    /// The worst excess of the separation over the true gap, meters.
    worst_excess: f64,
}

fn sliver_hulls_keep_sat_honest<R: Real>() {
    let mut rng = Rng::new(0x5a7_3201);
    let f32_like = R::MANTISSA_BITS < 30;
    let eps = if f32_like {
        f32::EPSILON as f64
    } else {
        f64::EPSILON
    };
    // Near touching GJK's and SAT's verdicts may differ by round-off.
    let band = if f32_like { 1e-3 } else { 1e-6 };
    // EPA's depth against SAT's, meters.
    let depth_tol = if f32_like { 1e-3 } else { 1e-6 };
    let (mut poses, mut overlapping, mut fails) = (0usize, 0usize, Failures::default());
    let (mut edge_best, mut slivers) = (0usize, 0usize);
    for _ in 0..300 {
        let (ca, cb) = (cad_cloud(&mut rng), cad_cloud(&mut rng));
        let (a, b) = (hull::<R>(&ca), hull::<R>(&cb));
        let (sa, sb) = (a.sat(), b.sat());
        for h in [&a, &b] {
            let (view, short) = (h.hull.view(), 1e-3 * SIZE);
            let vs = view.vertices();
            slivers += view.edges().iter().any(|e| {
                (vs[e.vertices[1] as usize] - vs[e.vertices[0] as usize])
                    .norm()
                    .to_f64()
                    < short
            }) as usize;
        }
        let pose_a = rng.pose::<R>(1.0);
        // The excess allowed: both hulls' flatness (a face plane may sit
        // that far from its vertices) and round-off at the poses' scale.
        let slack = 2.0 * (a.hull.view().tolerance() + b.hull.view().tolerance()).to_f64()
            + 256.0 * eps * (SIZE + 4.0);
        for _ in 0..10 {
            let apart = rng.chance(0.25);
            let depth = rng.range_f64(0.02, 0.22);
            let overlap = if apart { -depth } else { depth };
            let Some(pose_b) = nearly_aligned_pose(&mut rng, &a, &pose_a, &b, overlap) else {
                continue;
            };
            poses += 1;
            let (va, vb) = (a.hull.view(), b.hull.view());
            let hit = intersect(&mut Pair::new(&va, &pose_a, &vb, &pose_b));
            let gap = distance(&mut Pair::new(&va, &pose_a, &vb, &pose_b), &pose_a);
            let (wa, wb) = (
                world_vertices(&a.hull, &pose_a),
                world_vertices(&b.hull, &pose_b),
            );
            overlapping += hit as usize;
            for culling in [Culling::On, Culling::Off] {
                let r = sat(&sa, &pose_a, &sb, &pose_b, culling);
                let s = r.best.separation.to_f64();
                edge_best += matches!(r.best.feature, SatFeature::EdgePair(..)) as usize;
                let wrong = if hit {
                    s > band
                } else {
                    s < -band && gap.distance.to_f64() > band
                };
                fails.wrong_verdict += wrong as usize;
                let n = r.best.normal.cast::<f64>();
                let excess = s - true_gap(&wa, &wb, n / n.norm());
                fails.worst_excess = fails.worst_excess.max(excess);
                fails.above_true_gap += (excess > slack) as usize;
            }
            let harness = check_pair(&sa, &pose_a, &sb, &pose_b, R::lit(0.01));
            fails.harness += harness.is_err() as usize;
            if hit {
                let m = manifold(&sa, &pose_a, &sb, &pose_b, R::ZERO);
                fails.empty_manifold += m.points.is_empty() as usize;
                let p = penetration(&mut Pair::new(&va, &pose_a, &vb, &pose_b), &pose_a);
                let s = sat(&sa, &pose_a, &sb, &pose_b, Culling::On).best.separation;
                if p.status == EpaStatus::Converged {
                    let off = (p.depth + s).to_f64().abs();
                    fails.depth_mismatch += (off > depth_tol) as usize;
                }
            }
        }
    }
    eprintln!(
        "{poses} poses, {overlapping} overlapping, {edge_best} edge axes, \
         {slivers} of 600 hulls with an edge under 2 mm: {fails:?}"
    );
    assert!(slivers >= 300, "only {slivers} hulls with sliver edges");
    let share = overlapping as f64 / poses as f64;
    assert!(poses >= 2500, "only {poses} poses");
    assert!((0.6..0.9).contains(&share), "overlapping share {share}");
    assert_eq!(fails.wrong_verdict, 0, "{fails:?}");
    assert_eq!(fails.above_true_gap, 0, "{fails:?}");
    assert_eq!(fails.empty_manifold, 0, "{fails:?}");
    assert_eq!(fails.depth_mismatch, 0, "{fails:?}");
    assert_eq!(fails.harness, 0, "{fails:?}");
}
for_each_real!(sliver_hulls_keep_sat_honest, sliver_hulls_keep_sat_honest);
