//! The scene's nearest-geometry query (`project_point`) against a brute
//! force written here: every geometry the filter (its rule written out
//! again) lets through, projected one by one with the collider's own
//! projection at the pose the step placed it, the smallest signed distance
//! kept. Random scenes of mixed shapes on a ground half-space, points all
//! around and inside, filters by mask and by link, distance limits; f32
//! and f64. The allocation-free scene answers as the owned one.

use crate::scene_common::{random_hulls, random_scene, Store};
use mink::contact::MAX_MANIFOLD_POINTS;
use mink::scene::{
    QueryFilter, Scene, SceneBuf, SceneCapacity, SceneConfig, SceneDesc, SceneInput,
};
use mink::support::{Real, Vec3};
use mink_testkit::{for_each_real, Rng};

fn scene_points_match_brute_force<R: Real>() {
    let mut rng = Rng::new(0x30_5ce4);
    let hulls = random_hulls::<R>(&mut rng, 6);
    let (mut found, mut none, mut inside) = (0, 0, 0);
    for case in 0..150 {
        let s = random_scene::<R>(&mut rng, &hulls);
        let desc = SceneDesc::new(&s.geoms, &s.links, &s.dof_length, &[]).unwrap();
        let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
        let vel = vec![R::ZERO; s.dof_length.len()];
        scene.step(&SceneInput::new(&s.poses, &vel)).unwrap();
        let n = s.geoms.len();
        let mut store = Store::<R>::new(SceneCapacity {
            geoms: n,
            links: s.links.len(),
            constraints: 0,
            pairs: n * n,
            contacts: n * n * MAX_MANIFOLD_POINTS,
        });
        let mut fixed = Scene::new(desc, store.buffers(), SceneConfig::new()).unwrap();
        fixed.step(&SceneInput::new(&s.poses, &vel)).unwrap();
        for k in 0..30 {
            let point = rng.in_cube::<R>(1.5);
            let max_distance = match k % 3 {
                0 => R::INFINITY,
                1 => R::lit(rng.range_f64(0.0, 0.5)),
                _ => R::lit(rng.range_f64(-0.05, 0.2)),
            };
            let filter = match k % 4 {
                0 => QueryFilter::ALL,
                1 => QueryFilter::masks(2, 2),
                2 => QueryFilter::ALL.excluding(1 + rng.below(s.links.len() - 1) as u32),
                _ => QueryFilter::masks(1, 1).excluding(0),
            };
            // The brute force, with the filter's rule written out.
            let mut best: Option<(u32, f64)> = None;
            for (i, g) in desc.geoms().iter().enumerate() {
                let seen = g.link != filter.exclude_link
                    && (filter.contype & g.conaffinity != 0 || g.contype & filter.conaffinity != 0);
                if !seen {
                    continue;
                }
                let pose = s.poses[g.link as usize].mul(&g.local_pose);
                let p = g.collider.project_point(&pose, point);
                let d = p.distance.to_f64();
                if d <= max_distance.to_f64() && best.is_none_or(|(_, b)| d < b) {
                    best = Some((i as u32, d));
                }
            }
            let got = scene.project_point(point, max_distance, &filter);
            let what = format!("case {case} point {k}: {point:?} max {max_distance:?} {filter:?}: {got:?} vs {best:?}");
            match (got, best) {
                (None, None) => none += 1,
                (Some(g), Some((_, d))) => {
                    found += 1;
                    inside += usize::from(g.inside);
                    assert!(
                        (g.distance.to_f64() - d).abs() <= 1e-12 * (1.0 + d.abs()),
                        "{what}"
                    );
                    assert_eq!(g.link, desc.geoms()[g.geom as usize].link, "{what}");
                    assert!((g.normal.norm().to_f64() - 1.0).abs() < 1e-3, "{what}");
                }
                _ => panic!("{what}"),
            }
            assert_eq!(
                fixed.project_point(point, max_distance, &filter),
                got,
                "{what}"
            );
        }
    }
    assert!(
        found > 2_000 && none > 300 && inside > 100,
        "{found} found, {none} none, {inside} inside"
    );
}
for_each_real!(
    scene_points_match_brute_force,
    scene_points_match_brute_force
);

/// Before the first step nothing is placed; a non-finite point or a NaN
/// limit finds nothing.
#[test]
fn unplaced_scene_and_bad_points_find_nothing() {
    let mut rng = Rng::new(0x30_5ce5);
    let hulls = random_hulls::<f64>(&mut rng, 2);
    let s = random_scene::<f64>(&mut rng, &hulls);
    let desc = SceneDesc::new(&s.geoms, &s.links, &s.dof_length, &[]).unwrap();
    let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
    let above = Vec3::new(0.0, 0.0, 5.0);
    assert_eq!(
        scene.project_point(above, f64::INFINITY, &QueryFilter::ALL),
        None
    );
    let vel = vec![0.0; s.dof_length.len()];
    scene.step(&SceneInput::new(&s.poses, &vel)).unwrap();
    assert!(scene
        .project_point(above, f64::INFINITY, &QueryFilter::ALL)
        .is_some());
    assert_eq!(
        scene.project_point(
            Vec3::new(f64::NAN, 0.0, 0.0),
            f64::INFINITY,
            &QueryFilter::ALL
        ),
        None
    );
    assert_eq!(
        scene.project_point(above, f64::NAN, &QueryFilter::ALL),
        None
    );
}
