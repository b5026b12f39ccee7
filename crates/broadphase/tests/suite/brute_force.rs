//! The broad phase reports exactly the brute-force pair set (all pairs
//! tested, same filters), on random scenes of 1 to 5,000 boxes of every
//! style, over frames of small random motion (the coherent path) and
//! teleports (the full re-sort path), in f32 and f64.

use crate::common::{jiggle, random_scene, reference, sorted, teleport, Style, STYLES};
use mink_broadphase::{BroadPhase, Filters};
use mink_support::Real;
use mink_testkit::{for_each_real, Rng};

/// Scene sizes; the identical-box style stops early (every pair overlaps).
const SIZES: [usize; 7] = [1, 2, 7, 60, 400, 1500, 5000];
const IDENTICAL_MAX: usize = 400;
/// Frames per scene after the first (fewer for the largest scenes).
const FRAMES: usize = 12;

fn frames_for(n: usize) -> usize {
    if n >= 5000 {
        4
    } else {
        FRAMES
    }
}

fn run<R: Real>() {
    let mut rng = Rng::new(0x5eed_b0a0);
    let (mut coherent_frames, mut full_frames, mut total_pairs, mut scenes_with_pairs, mut scenes) =
        (0, 0, 0usize, 0, 0);
    for style in STYLES {
        for &n in &SIZES {
            if matches!(style, Style::Identical) && n > IDENTICAL_MAX {
                continue;
            }
            let mut geoms = random_scene::<R>(&mut rng, style, n, 0.1, 0.2);
            let mut bp = BroadPhase::new();
            let mut pairs = Vec::new();
            let mut found_any = false;
            for frame in 0..=frames_for(n) {
                if frame > 0 {
                    if frame % 4 == 0 {
                        teleport(&mut rng, &mut geoms, n / 3 + 1, style);
                    } else {
                        jiggle(&mut rng, &mut geoms, n / 10 + 1, 0.05);
                    }
                }
                let report = bp.update(&geoms, &Filters::ALL, &mut pairs).unwrap();
                let want = reference(&geoms, &Filters::ALL);
                assert_eq!(
                    sorted(&pairs),
                    want,
                    "{style:?} n = {n} frame {frame}: {report:?}"
                );
                assert_eq!(report.pairs, pairs.len());
                total_pairs += pairs.len();
                found_any |= !pairs.is_empty();
                if frame > 0 {
                    if report.full_sort {
                        full_frames += 1;
                    } else {
                        coherent_frames += 1;
                    }
                }
            }
            if n >= 60 {
                // Large enough that every style should find pairs.
                scenes += 1;
                scenes_with_pairs += usize::from(found_any);
            }
        }
    }
    // Both sorting paths ran, and most scenes had pairs to find.
    assert!(
        coherent_frames > 3 * full_frames / 2,
        "{coherent_frames} coherent, {full_frames} full"
    );
    assert!(
        full_frames > 10,
        "{full_frames} full sorts after the first frame"
    );
    assert_eq!(scenes_with_pairs, scenes);
    assert!(total_pairs > 100_000, "{total_pairs}");
}

for_each_real!(matches_brute_force, run);

/// Each filter alone, and all together, on random scenes with random
/// attributes: exactly the pairs the restated rule keeps.
fn filters_alone<R: Real>() {
    let mut rng = Rng::new(0xf117);
    let alone = [
        Filters {
            same_link: true,
            ..Filters::NONE
        },
        Filters {
            parent_child: true,
            ..Filters::NONE
        },
        Filters {
            masks: true,
            ..Filters::NONE
        },
        Filters {
            both_fixed: true,
            ..Filters::NONE
        },
        Filters {
            both_asleep: true,
            ..Filters::NONE
        },
        Filters::NONE,
        Filters::ALL,
    ];
    for style in [Style::Spread, Style::Clusters, Style::Identical] {
        let n = if matches!(style, Style::Identical) {
            120
        } else {
            800
        };
        let geoms = random_scene::<R>(&mut rng, style, n, 0.4, 0.4);
        let everything = reference(&geoms, &Filters::NONE).len();
        for f in alone {
            let mut pairs = Vec::new();
            BroadPhase::new().update(&geoms, &f, &mut pairs).unwrap();
            let want = reference(&geoms, &f);
            assert_eq!(sorted(&pairs), want, "{style:?} {f:?}");
            // Each filter alone drops some pairs, but not all (so each is
            // actually tested), except NONE which drops none.
            if f == Filters::NONE {
                assert_eq!(want.len(), everything);
            } else {
                assert!(
                    want.len() < everything && !want.is_empty(),
                    "{style:?} {f:?}: {} of {everything}",
                    want.len()
                );
            }
        }
    }
}

for_each_real!(each_filter_alone_and_combined, filters_alone);
