//! How far MPR's answer is from the true minimum translation, against the
//! brute-force SAT minimum, binned by depth relative to the smaller shape's
//! minimum width. Prints the table quoted in the crate docs:
//! `cargo test -p mink-mpr --release --test suite deviation -- --nocapture`.

use crate::common::{angle, min_width, sat, world};
use mink_mpr::{penetration_with, MprSettings, MprStatus, MAX_CERTIFY_STEPS, MAX_RESEED_PASSES};
use mink_support::{ConvexHull, Cuboid, Iso3, Pair, Support, Vec3};
use mink_testkit::Rng;

const BINS: [f64; 5] = [0.1, 0.25, 0.5, 1.0, f64::MAX];

#[derive(Default, Clone, Copy)]
struct Bin {
    cases: usize,
    off: usize,
    sum_excess: f64,
    max_excess: f64,
    flagged: usize,
    flagged_off: usize,
    below: usize,
    iterations: u64,
}

fn label(i: usize) -> String {
    let lo = if i == 0 { 0.0 } else { BINS[i - 1] };
    if BINS[i] == f64::MAX {
        format!(">= {lo}")
    } else {
        format!("{lo} - {}", BINS[i])
    }
}

/// Runs MPR on `cases` random overlapping poses of the two shapes and bins
/// the excess depth `(mpr - sat) / width`.
fn measure<A: Support<f64>, B: Support<f64>>(
    name: &str,
    a: &A,
    pa: &[Vec3<f64>],
    b: &B,
    pb: &[Vec3<f64>],
    reach: f64,
    settings: &MprSettings,
    rng: &mut Rng,
) -> [Bin; 5] {
    let width = min_width(pa).min(min_width(pb));
    let mut bins = [Bin::default(); 5];
    for _ in 0..1500 {
        let pose_a: Iso3<f64> = rng.pose(1.0);
        let pose_b = Iso3::from_parts(
            rng.rotation(),
            pose_a.translation + rng.unit_vec::<f64>() * rng.range_f64(0.0, reach),
        );
        let (depth, n_sat, _) = sat(&world(pa, &pose_a), &world(pb, &pose_b));
        if depth <= 1e-6 * width {
            continue;
        }
        let hit = penetration_with(&mut Pair::new(a, &pose_a, b, &pose_b), &pose_a, settings);
        assert!(
            hit.is_overlapping(),
            "{name}: SAT depth {depth} but {hit:?}"
        );
        let rel = depth / width;
        let i = BINS.iter().position(|&e| rel < e).unwrap();
        let excess = (hit.depth - depth) / width;
        // The reported depth is a translation that separates the shapes, so
        // it can never be below the true minimum.
        assert!(
            excess > -1e-7,
            "{name}: depth {} below SAT {depth}",
            hit.depth
        );
        let off = excess > 1e-3 || angle(hit.normal, n_sat) > 1e-2 && excess > 1e-6;
        let bin = &mut bins[i];
        bin.cases += 1;
        bin.iterations += hit.iterations as u64;
        bin.sum_excess += excess.max(0.0);
        bin.max_excess = bin.max_excess.max(excess);
        if off {
            bin.off += 1;
        }
        // A converged answer is certified: it is the minimum.
        if hit.status == MprStatus::Converged {
            assert!(
                !off,
                "{name}: converged but off: {} vs SAT {depth}, normals {:?} {:?}",
                hit.depth, hit.normal, n_sat
            );
            assert!(hit.depth - hit.depth_lower_bound <= 1e-9 * width.max(1.0) + 1e-3 * width);
        }
        // The lower bound is one.
        assert!(
            hit.depth_lower_bound <= depth + 1e-9,
            "{name}: lower bound {} above SAT {depth}",
            hit.depth_lower_bound
        );
        if hit.status != MprStatus::Converged {
            bin.flagged += 1;
            if off {
                bin.flagged_off += 1;
            }
        }
        if excess < -1e-7 {
            bin.below += 1;
        }
    }
    bins
}

fn print(name: &str, bins: &[Bin; 5]) {
    println!("| {name} | depth / width | cases | off by > 0.1% width | mean excess | max excess | flagged | off and flagged | mean iterations |");
    for (i, b) in bins.iter().enumerate() {
        if b.cases == 0 {
            continue;
        }
        println!(
            "| | {} | {} | {:.1}% | {:.2}% | {:.1}% | {:.1}% | {}/{} | {:.1} |",
            label(i),
            b.cases,
            100.0 * b.off as f64 / b.cases as f64,
            100.0 * b.sum_excess / b.cases as f64,
            100.0 * b.max_excess,
            100.0 * b.flagged as f64 / b.cases as f64,
            b.flagged_off,
            b.off,
            b.iterations as f64 / b.cases as f64
        );
    }
}

#[test]
fn deep_deviation() {
    let mut rng = Rng::new(98);
    let ca = Cuboid::new(Vec3::new(1.0, 0.6, 0.4)).unwrap();
    let cb = Cuboid::new(Vec3::new(0.5, 0.5, 0.8)).unwrap();
    let hull_a = ConvexHull::from_points(&rng.points_on_sphere::<f64>(16, 1.0)).unwrap();
    let hull_b = ConvexHull::from_points(&rng.points_in_ball::<f64>(16, 0.8)).unwrap();
    let (ha, hb) = (hull_a.view(), hull_b.view());
    for (label, settings) in [
        (
            "classic MPR (reseed_passes 0, certify_steps 0)",
            MprSettings {
                reseed_passes: 0,
                certify_steps: 0,
                ..MprSettings::default()
            },
        ),
        (
            "re-seeding only (reseed_passes 1, certify_steps 0)",
            MprSettings {
                certify_steps: 0,
                ..MprSettings::default()
            },
        ),
        (
            "default (reseed_passes 1, certify_steps 2)",
            MprSettings::default(),
        ),
        (
            "full (reseed_passes 4, certify_steps 32)",
            MprSettings {
                reseed_passes: MAX_RESEED_PASSES,
                certify_steps: MAX_CERTIFY_STEPS,
                ..MprSettings::default()
            },
        ),
    ] {
        println!("\n{label}\n");
        let mut rng = Rng::new(99);
        let bins = measure(
            "box-box",
            &ca,
            &ca.corners(),
            &cb,
            &cb.corners(),
            2.2,
            &settings,
            &mut rng,
        );
        print("box–box", &bins);
        let bins = measure(
            "hull-hull",
            &ha,
            ha.vertices(),
            &hb,
            hb.vertices(),
            1.8,
            &settings,
            &mut rng,
        );
        print("hull16–hull16", &bins);
    }
}
