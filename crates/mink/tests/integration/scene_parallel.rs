//! The parallel paths (feature `rayon`): a scene's parallel narrow phase
//! gives exactly the serial contacts, and a batch of environments stepped
//! in parallel gives exactly each environment stepped alone, gathered
//! ragged (flat + offsets) and padded (with a validity mask).

use crate::scene_common;

use mink::islands::Params;
use mink::scene::{SceneBatch, SceneBuf, SceneConfig, SceneDesc, SceneInput, PADDING_GEOM};
use mink::support::{ConvexHull, Iso3, Real};
use mink_testkit::{for_each_real, Rng};
use scene_common::{random_hulls, random_scene, RandomScene};

fn config<R: Real>() -> SceneConfig<R> {
    SceneConfig {
        hibernation: Params::no_hibernation(),
        ..SceneConfig::new()
    }
}

/// Several random scenes merged side by side (offset along x) into one
/// larger scene, so the narrow phase has enough pairs to split.
fn big_scene<'h, R: Real>(rng: &mut Rng, hulls: &'h [ConvexHull<R>]) -> RandomScene<'h, R> {
    let mut out = random_scene(rng, hulls);
    for k in 1..40 {
        let s = random_scene(rng, hulls);
        let (link0, dof0) = (out.links.len() as u32 - 1, out.dof_length.len() as u32);
        let shift = Iso3::from_translation(mink::support::Vec3::new(
            R::lit(3.0 * k as f64),
            R::ZERO,
            R::ZERO,
        ));
        // Skip each scene's ground link and ground geometry: they join
        // link 0's ground.
        for link in &s.links[1..] {
            let mut l = *link;
            l.dof_start += dof0;
            if l.parent != mink::islands::NO_PARENT {
                l.parent += link0;
            }
            out.links.push(l);
        }
        out.dof_length.extend_from_slice(&s.dof_length);
        for g in &s.geoms[1..] {
            let mut g = *g;
            g.link += link0;
            out.geoms.push(g);
        }
        for p in &s.poses[1..] {
            out.poses.push(shift.mul(p));
        }
    }
    out
}

fn parallel_step_equals_serial<R: Real>() {
    let mut rng = Rng::new(0xBA7C);
    let hulls = random_hulls::<R>(&mut rng, 6);
    for _ in 0..4 {
        let s = big_scene::<R>(&mut rng, &hulls);
        let desc = SceneDesc::new(&s.geoms, &s.links, &s.dof_length, &[]).unwrap();
        let vel = vec![R::ZERO; desc.dof_count()];
        let input = SceneInput::new(&s.poses, &vel);
        let mut serial = SceneBuf::new(desc, config()).unwrap();
        let mut parallel = SceneBuf::new(desc, config())
            .unwrap()
            .with_parallel_broadphase(true);
        let a = serial.step(&input).unwrap();
        let b = parallel.par_step(&input).unwrap();
        assert!(a.broadphase_pairs > 2 * mink::scene::parallel::PAR_MIN_PAIRS);
        assert_eq!(a, b);
        assert_eq!(serial.contacts(), parallel.contacts());
        assert!(!serial.contacts().is_empty());
    }
}
for_each_real!(parallel_step_equals_serial, parallel_step_equals_serial);

fn batch_equals_single_environments<R: Real>() {
    let mut rng = Rng::new(0xE115);
    let hulls = random_hulls::<R>(&mut rng, 4);
    let s = random_scene::<R>(&mut rng, &hulls);
    let desc = SceneDesc::new(&s.geoms, &s.links, &s.dof_length, &[]).unwrap();
    let vel = vec![R::ZERO; desc.dof_count()];
    let n_envs = 12;
    // Different link poses per environment.
    let env_poses: Vec<Vec<Iso3<R>>> = (0..n_envs)
        .map(|_| {
            (0..s.links.len())
                .map(|l| {
                    if l == 0 {
                        Iso3::IDENTITY
                    } else {
                        rng.pose(0.9)
                    }
                })
                .collect()
        })
        .collect();
    let inputs: Vec<SceneInput<'_, R>> =
        env_poses.iter().map(|p| SceneInput::new(p, &vel)).collect();
    let mut batch = SceneBatch::new(desc, config(), n_envs).unwrap();
    let reports = batch.par_step(&inputs);
    let mut serial_batch = SceneBatch::new(desc, config(), n_envs).unwrap();
    let serial_reports = serial_batch.step(&inputs);
    assert_eq!(reports, serial_reports);
    let (mut flat, mut offsets) = (Vec::new(), Vec::new());
    batch.contacts_ragged(&mut flat, &mut offsets);
    assert_eq!(offsets.len(), n_envs + 1);
    let padded = batch.contacts_padded();
    assert_eq!(padded.n_envs, n_envs);
    let mut distinct = std::collections::HashSet::new();
    for k in 0..n_envs {
        let mut alone = SceneBuf::new(desc, config()).unwrap();
        let report = alone.step(&inputs[k]).unwrap();
        assert_eq!(reports[k], Ok(report));
        assert_eq!(batch.env(k).unwrap().contacts(), alone.contacts());
        assert_eq!(&flat[offsets[k]..offsets[k + 1]], alone.contacts());
        let row = &padded.contacts[k * padded.width..(k + 1) * padded.width];
        let valid = &padded.valid[k * padded.width..(k + 1) * padded.width];
        let n = alone.contacts().len();
        assert_eq!(&row[..n], alone.contacts());
        assert!(valid[..n].iter().all(|&v| v) && valid[n..].iter().all(|&v| !v));
        assert!(row[n..].iter().all(|c| c.geom_a == PADDING_GEOM));
        distinct.insert(n);
    }
    assert_eq!(
        padded.width,
        (0..n_envs)
            .map(|k| offsets[k + 1] - offsets[k])
            .max()
            .unwrap()
    );
    // The environments really differ.
    assert!(distinct.len() > 1);
}
for_each_real!(
    batch_equals_single_environments,
    batch_equals_single_environments
);
