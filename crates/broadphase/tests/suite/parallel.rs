//! The rayon paths give exactly the serial output (same pairs, same order):
//! one large scene's parallel sweep, and many scenes in one call.
#![cfg(feature = "rayon")]

use crate::common::{jiggle, random_scene, reference, sorted, teleport, Style, STYLES};
use mink_broadphase::{par_update_batch, BroadPhase, Filters, Geom};
use mink_support::Real;
use mink_testkit::{for_each_real, Rng};

fn same_as_serial<R: Real>() {
    let mut rng = Rng::new(0x9a7a11e1);
    for style in STYLES {
        let n = if matches!(style, Style::Identical) {
            300
        } else {
            12_000
        };
        let mut geoms = random_scene::<R>(&mut rng, style, n, 0.05, 0.3);
        let (mut serial, mut parallel) = (BroadPhase::new(), BroadPhase::new());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for frame in 0..5 {
            if frame == 3 {
                teleport(&mut rng, &mut geoms, n / 2, style);
            } else if frame > 0 {
                jiggle(&mut rng, &mut geoms, n / 10, 0.05);
                for _ in 0..20 {
                    let i = rng.below(n);
                    geoms[i].asleep = !geoms[i].asleep;
                }
            }
            let ra = serial.update(&geoms, &Filters::ALL, &mut a).unwrap();
            let rb = parallel.par_update(&geoms, &Filters::ALL, &mut b).unwrap();
            assert_eq!(a, b, "{style:?} frame {frame}");
            assert_eq!(ra, rb);
            if frame == 0 && n <= 2000 {
                assert_eq!(sorted(&a), reference(&geoms, &Filters::ALL));
            }
        }
    }
}

for_each_real!(parallel_equals_serial, same_as_serial);

#[test]
fn parallel_batch_equals_serial_batch() {
    let mut rng = Rng::new(0xba7c4);
    let scenes: Vec<Vec<Geom<f32>>> = (0..16)
        .map(|k| random_scene(&mut rng, Style::Clusters, 100 + 50 * k, 0.1, 0.3))
        .collect();
    let views: Vec<&[Geom<f32>]> = scenes.iter().map(|s| s.as_slice()).collect();
    let mut phases = vec![BroadPhase::new(); scenes.len()];
    let mut outs = vec![Vec::new(); scenes.len()];
    let results = par_update_batch(&mut phases, &views, &Filters::ALL, &mut outs);
    for (k, scene) in scenes.iter().enumerate() {
        let mut single = Vec::new();
        let r = BroadPhase::new()
            .update(scene, &Filters::ALL, &mut single)
            .unwrap();
        assert_eq!(results[k], Ok(r));
        assert_eq!(outs[k], single);
    }
}
