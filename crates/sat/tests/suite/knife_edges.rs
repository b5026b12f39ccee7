//! SAT on knife-edged hulls (fuzz input
//! `fuzz/corpus/sat_manifold/regress-knife-edge-arc-pole`): nearly flat
//! hulls, a polygon of about 1 m with one or two apexes a hair above or
//! below it, whose long rim edges join two faces with nearly opposite
//! normals (a dihedral angle from `ε^0.55` to `ε^0.15` radians, `ε` the
//! scalar's machine epsilon), against ordinary random hulls and against
//! each other, from 0 to 4 m apart or overlapping, in both scalars.
//! Against GJK's verdict and a brute force over the hulls' own vertices:
//! - the reported separation is never larger than the true gap of the two
//!   hulls along the reported normal, beyond both hulls' flatness and
//!   round-off (the harness's allowance), nor is the feature cache's
//!   re-test of the same feature;
//! - SAT's verdict agrees with GJK's and with the brute-force SAT
//!   separation's away from touching;
//! - the fuzzing harness's invariants hold (`check_pair`).
//!
//! The pole of a knife edge's Gauss arc, the cross product of two nearly
//! opposite unit normals, is off the edge's line by the normals' rounding
//! over the sine of the dihedral angle (`2e-11` rad in the fuzz input):
//! an edge-pair axis built on it is not quite perpendicular to the edge,
//! and the gap measured from the edge's first vertex alone overstated the
//! true one by that angle times the edge's length.

use crate::common::{brute_force, random_hull, world_vertices, TestHull};
use mink_gjk::{distance, intersect, GjkStatus};
use mink_sat::fuzz::{check_bytes, check_pair};
use mink_sat::{sat, sat_cached, CachedSat, Culling, SatCache, SatFeature};
use mink_support::{Iso3, Pair, Real, Vec3};
use mink_testkit::{for_each_real, Rng};

/// The fuzz input: a sliver tetrahedron whose 0.78 m edge joins two faces
/// at a dihedral angle of 7.5e-7 rad, 4.4 m from a 17-vertex hull; it
/// failed in f64.
const FUZZ_INPUT: &[u8] =
    include_bytes!("../../../../fuzz/corpus/sat_manifold/regress-knife-edge-arc-pole");

fn fuzz_input_passes<R: Real>() {
    check_bytes::<R>(FUZZ_INPUT).unwrap();
}
for_each_real!(fuzz_input_passes, fuzz_input_passes);

/// A knife-edged cloud in the plane z = 0, before posing: 3 to 7 points
/// on a circle of radius 0.5 to 1 m (a triangle or a polygon with a
/// near-duplicate corner, as in the fuzz input), and one apex above it
/// (or one above and one below) at `height`, over a point inside; then
/// turned and moved by up to 0.3 m.
fn knife_cloud(rng: &mut Rng, height: f64) -> Vec<Vec3<f64>> {
    let radius = rng.range_f64(0.5, 1.0);
    let k = 3 + rng.below(5);
    let mut pts: Vec<Vec3<f64>> = (0..k)
        .map(|i| {
            let angle = (i as f64 + rng.range_f64(-0.3, 0.3)) * std::f64::consts::TAU / k as f64;
            Vec3::new(angle.cos(), angle.sin(), 0.0) * radius
        })
        .collect();
    if rng.chance(0.5) {
        let p = pts[rng.below(k)];
        let offset = Vec3::new(rng.range_f64(-1.0, 1.0), rng.range_f64(-1.0, 1.0), 0.0);
        pts.push(p + offset * (radius * 10f64.powf(rng.range_f64(-3.0, -1.0))));
    }
    let inside = |rng: &mut Rng| {
        let (u, v) = (rng.range_f64(-0.4, 0.4), rng.range_f64(-0.4, 0.4));
        Vec3::new(u, v, 0.0) * radius
    };
    pts.push(inside(rng) + Vec3::new(0.0, 0.0, height));
    if rng.chance(0.5) {
        pts.push(inside(rng) - Vec3::new(0.0, 0.0, height * rng.range_f64(0.1, 1.0)));
    }
    // Tilted and moved off the hull's origin, so that the plane is no
    // coordinate plane and the normals carry rounding.
    let (turn, shift) = (rng.rotation::<f64>(), rng.in_cube::<f64>(0.3));
    pts.iter().map(|&p| turn.mul_vec(p) + shift).collect()
}

fn hull<R: Real>(cloud: &[Vec3<f64>]) -> Option<TestHull<R>> {
    let pts: Vec<Vec3<R>> = cloud.iter().map(|p| p.cast()).collect();
    let hull = mink_support::ConvexHull::from_points(&pts).ok()?;
    let data = mink_sat::SatData::from_view(&hull.view()).ok()?;
    Some(TestHull { hull, data })
}

/// What went wrong, counted over the sweep.
#[derive(Debug, Default)]
struct Failures {
    /// Reported separation above the true gap along the reported normal,
    /// beyond the allowance.
    above_true_gap: usize,
    /// SAT's verdict is not GJK's, away from touching.
    wrong_verdict_gjk: usize,
    /// SAT's verdict is not the brute-force SAT separation's, away from
    /// touching.
    wrong_verdict_brute: usize,
    /// Violations of the fuzzing harness's invariants (`check_pair`).
    harness: usize,
    /// The worst excess of the separation over the true gap, in units of
    /// the allowance.
    worst_excess: f64,
}

fn knife_edges_keep_sat_honest<R: Real>() {
    let mut rng = Rng::new(0x5a7_3301);
    let eps = R::EPSILON.to_f64();
    // Near touching the verdicts may differ by round-off.
    let band = if R::MANTISSA_BITS < 30 { 1e-3 } else { 1e-6 };
    let (mut poses, mut overlapping, mut knife_axes) = (0usize, 0usize, 0usize);
    let (mut sharpest, mut fails) = (1.0f64, Failures::default());
    let mut built = 0usize;
    for _ in 0..800 {
        let height = 10f64.powf(eps.log10() * rng.range_f64(0.15, 0.55));
        let Some(a) = hull::<R>(&knife_cloud(&mut rng, height)) else {
            continue;
        };
        let b = if rng.chance(0.3) {
            let h = 10f64.powf(eps.log10() * rng.range_f64(0.15, 0.55));
            match hull::<R>(&knife_cloud(&mut rng, h)) {
                Some(b) => b,
                None => continue,
            }
        } else {
            let n = [4, 8, 12][rng.below(3)];
            random_hull::<R>(&mut rng, n)
        };
        built += 1;
        // A's knife edges: faces whose normals are less than 0.1 rad from
        // opposite (the sine of the dihedral angle, from the normals).
        let view = a.hull.view();
        let dihedral = |e: &mink_support::HullEdge| {
            let n = |f: u16| view.planes()[f as usize].normal.cast::<f64>();
            let (n1, n2) = (n(e.faces[0]), n(e.faces[1]));
            (n1.dot(n2) < 0.0).then(|| n1.cross(n2).norm())
        };
        let knives: Vec<usize> = (0..view.edges().len())
            .filter(|&e| dihedral(&view.edges()[e]).is_some_and(|s| s < 0.1))
            .collect();
        for &e in &knives {
            sharpest = sharpest.min(dihedral(&view.edges()[e]).unwrap_or(1.0));
        }
        let (sa, sb) = (a.sat(), b.sat());
        for _ in 0..10 {
            let pose_a = rng.pose::<R>(1.0);
            // B beside A's knife in half the poses (in A's plane), else
            // anywhere; 4 m out, then moved along GJK's normal to a gap
            // from -0.3 to 4 m.
            let dir = if rng.chance(0.5) {
                let angle = rng.range_f64(0.0, std::f64::consts::TAU);
                let tilt = rng.range_f64(-0.05, 0.05);
                Vec3::new(angle.cos(), angle.sin(), tilt)
            } else {
                rng.unit_vec::<f64>()
            };
            let dir = pose_a.rotation.cast::<f64>().mul_vec(dir / dir.norm());
            let t = pose_a.translation.cast::<f64>() + dir * 4.0;
            let mut pose_b = Iso3::from_parts(rng.rotation::<f64>(), t).cast::<R>();
            let (va, vb) = (a.hull.view(), b.hull.view());
            let d = distance(&mut Pair::new(&va, &pose_a, &vb, &pose_b), &pose_a);
            if d.status != GjkStatus::Converged || d.distance <= R::ZERO {
                continue;
            }
            let gap = R::lit(rng.range_f64(-0.3, 4.0));
            pose_b.translation -= d.normal * (d.distance - gap);
            poses += 1;

            let hit = intersect(&mut Pair::new(&va, &pose_a, &vb, &pose_b));
            let apart = distance(&mut Pair::new(&va, &pose_a, &vb, &pose_b), &pose_a);
            overlapping += hit as usize;
            let (wa, wb) = (
                world_vertices(&a.hull, &pose_a),
                world_vertices(&b.hull, &pose_b),
            );
            let brute = brute_force(&a.hull, &pose_a, &b.hull, &pose_b, 1e-9).minkowski_faces;
            // The harness's allowance: both hulls' flatness, twice, and
            // 256 ε of the problem's size.
            let size = (sa.extent()
                + sb.extent()
                + pose_a.translation.norm()
                + pose_b.translation.norm()
                + sa.sphere().center.norm()
                + sb.sphere().center.norm())
            .to_f64();
            let slack = 2.0 * (va.tolerance() + vb.tolerance()).to_f64() + 256.0 * eps * size;
            for culling in [Culling::On, Culling::Off] {
                let r = sat(&sa, &pose_a, &sb, &pose_b, culling);
                let s = r.best.separation.to_f64();
                if let SatFeature::EdgePair(i, _) = r.best.feature {
                    knife_axes += knives.contains(&(i as usize)) as usize;
                }
                let mut check_gap = |s: f64, n: Vec3<R>| {
                    let n = n.cast::<f64>();
                    let n = n / n.norm();
                    let hi = wa.iter().fold(f64::NEG_INFINITY, |m, v| m.max(n.dot(*v)));
                    let lo = wb.iter().fold(f64::INFINITY, |m, v| m.min(n.dot(*v)));
                    let excess = s - (lo - hi);
                    fails.worst_excess = fails.worst_excess.max(excess / slack);
                    fails.above_true_gap += (excess > slack) as usize;
                };
                check_gap(s, r.best.normal);
                // The cache's re-test of the same feature measures its gap
                // anew (its `Apart` answer claims the true gap).
                let mut cache = SatCache {
                    feature: Some(r.best.feature),
                };
                if let CachedSat::Apart(axis) =
                    sat_cached(&sa, &pose_a, &sb, &pose_b, R::ZERO, &mut cache)
                {
                    check_gap(axis.separation.to_f64(), axis.normal);
                }
                let gjk_wrong = if hit {
                    s > band
                } else {
                    s < -band
                        && apart.status == GjkStatus::Converged
                        && apart.distance.to_f64() > band
                };
                fails.wrong_verdict_gjk += gjk_wrong as usize;
                let brute_wrong = (brute > band && s < -band) || (brute < -band && s > band);
                fails.wrong_verdict_brute += brute_wrong as usize;
            }
            let margin = R::lit(rng.range_f64(0.0, 0.1));
            fails.harness += check_pair(&sa, &pose_a, &sb, &pose_b, margin).is_err() as usize;
        }
    }
    eprintln!(
        "{}: {built} hull pairs, {poses} poses, {overlapping} overlapping, {knife_axes} axes on a \
         knife edge, sharpest dihedral {sharpest:e} rad: {fails:?}",
        core::any::type_name::<R>()
    );
    assert!(poses >= 6000, "only {poses} poses");
    let share = overlapping as f64 / poses as f64;
    assert!((0.03..0.5).contains(&share), "overlapping share {share}");
    assert!(knife_axes >= 2000, "only {knife_axes} axes on a knife edge");
    assert_eq!(fails.above_true_gap, 0, "{fails:?}");
    assert_eq!(fails.wrong_verdict_gjk, 0, "{fails:?}");
    assert_eq!(fails.wrong_verdict_brute, 0, "{fails:?}");
    assert_eq!(fails.harness, 0, "{fails:?}");
}
for_each_real!(knife_edges_keep_sat_honest, knife_edges_keep_sat_honest);
