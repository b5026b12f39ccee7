//! The scene's pair memory (`SceneConfig::warm_start`): random scenes of
//! mixed shapes stepped through small random motions, the pairs coming
//! and going in the broad phase. With the memory off, every step is
//! exactly the direct `collide` calls (brute force); with it on, every
//! step finds the same touching pairs, each with its deepest point as deep
//! to within GJK's tolerance, and the parallel step matches the serial one
//! exactly.

use crate::scene_common;

use mink::contact::MAX_MANIFOLD_POINTS;
use mink::islands::Params;
use mink::scene::{Contact, SceneBuf, SceneConfig, SceneDesc, SceneInput};
use mink::support::{Iso3, Mat3, Real};
use mink_testkit::{for_each_real, Rng};
use scene_common::{brute_force_contacts, by_pair, random_hulls, random_scene};
use std::collections::BTreeMap;

const SCENES: usize = 120;
const STEPS: usize = 12;

fn config<R: Real>(warm_start: bool) -> SceneConfig<R> {
    SceneConfig {
        hibernation: Params::no_hibernation(),
        warm_start,
        ..SceneConfig::new()
    }
}

/// Per touching pair: its deepest point's depth and normal.
fn deepest<R: Real>(contacts: &[Contact<R>]) -> BTreeMap<(u32, u32), (f64, [f64; 3])> {
    let mut out: BTreeMap<(u32, u32), (f64, [f64; 3])> = BTreeMap::new();
    for c in contacts {
        let d = c.depth.to_f64();
        let n = [
            c.normal.x.to_f64(),
            c.normal.y.to_f64(),
            c.normal.z.to_f64(),
        ];
        let e = out.entry((c.geom_a, c.geom_b)).or_insert((d, n));
        if d > e.0 {
            *e = (d, n);
        }
    }
    out
}

fn warm_start_agrees<R: Real>() {
    let mut rng = Rng::new(0x3A7E);
    let hulls = random_hulls::<R>(&mut rng, 6);
    // Measured: 3,563 pairs compared, about 600 of them not bit for bit
    // the same, by at most 3.6e-6 m in f32 and 4.7e-15 m in f64 (scenes
    // about a meter across).
    let tol = if R::MANTISSA_BITS < 30 { 1e-4 } else { 1e-10 };
    let (mut compared, mut steps_with_pairs) = (0usize, 0usize);
    for case in 0..SCENES {
        let s = random_scene::<R>(&mut rng, &hulls);
        let desc = SceneDesc::new(&s.geoms, &s.links, &s.dof_length, &[]).unwrap();
        let vel = vec![R::ZERO; desc.dof_count()];
        let mut warm = SceneBuf::new(desc, config(true)).unwrap();
        let mut cold = SceneBuf::new(desc, config(false)).unwrap();
        let mut par = SceneBuf::new(desc, config(true)).unwrap();
        let mut poses = s.poses.clone();
        // Each moving link drifts and turns a little each step.
        let drift: Vec<(mink::support::Vec3<R>, Mat3<R>)> = (0..poses.len())
            .map(|_| {
                let axis = rng.unit_vec::<R>();
                let turn = Mat3::from_axis_angle(axis, R::lit(rng.range_f64(0.0, 0.03)));
                (rng.unit_vec::<R>() * R::lit(rng.range_f64(0.0, 0.01)), turn)
            })
            .collect();
        for step in 0..STEPS {
            for (p, (shift, turn)) in poses.iter_mut().zip(&drift).skip(1) {
                *p = Iso3::from_parts(turn.mul_mat(&p.rotation), p.translation + *shift);
            }
            let input = SceneInput::new(&poses, &vel);
            warm.step(&input).unwrap();
            cold.step(&input).unwrap();
            #[cfg(feature = "rayon")]
            {
                par.par_step(&input).unwrap();
                assert_eq!(par.contacts(), warm.contacts(), "case {case} step {step}");
            }
            #[cfg(not(feature = "rayon"))]
            par.step(&input).unwrap();

            // Memory off: exactly brute force.
            let want = brute_force_contacts(&desc, &poses, MAX_MANIFOLD_POINTS);
            assert_eq!(by_pair(cold.contacts()), want, "case {case} step {step}");

            // Memory on: the same pairs, as deep, to within the tolerance
            // (a pair at the edge of its margin may be in one and not the
            // other).
            let (w, c) = (deepest(warm.contacts()), deepest(cold.contacts()));
            let margin = |k: &(u32, u32)| {
                (s.geoms[k.0 as usize].margin + s.geoms[k.1 as usize].margin).to_f64()
            };
            for (k, (dc, _)) in &c {
                match w.get(k) {
                    Some((dw, _)) => {
                        assert!(
                            (dw - dc).abs() <= tol,
                            "case {case} step {step} pair {k:?}: warm {dw} cold {dc}"
                        );
                        compared += 1;
                    }
                    None => assert!(
                        dc + margin(k) <= tol,
                        "case {case} step {step}: pair {k:?} (depth {dc}) lost warm"
                    ),
                }
            }
            for (k, (dw, _)) in &w {
                if !c.contains_key(k) {
                    assert!(
                        dw + margin(k) <= tol,
                        "case {case} step {step}: pair {k:?} (depth {dw}) only warm"
                    );
                }
            }
            steps_with_pairs += usize::from(!c.is_empty());
        }
    }
    // The scenes do touch: most steps have pairs in contact.
    assert!(steps_with_pairs > SCENES * STEPS / 2, "{steps_with_pairs}");
    assert!(compared > SCENES * STEPS, "{compared}");
}
for_each_real!(warm_started_scene_agrees_with_cold_steps, warm_start_agrees);
