//! The pipeline against brute force: on random scenes of mixed shapes,
//! every step's contacts are exactly the direct `collide` calls over all
//! pairs the filters keep, each pair once, every normal unit; the
//! allocation-free scene gives the same contacts as the owning one.

use crate::scene_common;

use mink::contact::MAX_MANIFOLD_POINTS;
use mink::islands::Params;
use mink::scene::{Scene, SceneBuf, SceneCapacity, SceneConfig, SceneDesc, SceneInput};
use mink::support::Real;
use mink_testkit::{for_each_real, Rng};
use scene_common::{
    assert_pairs_contiguous, brute_force_contacts, by_pair, may_collide, random_hulls,
    random_scene, Store,
};

const SCENES: usize = 300;

/// No hibernation: every moving link stays awake, so the whole scene is
/// detected every step. No pair memory either: each step's contacts are
/// then exactly the direct calls' (with it, they agree to within GJK's
/// tolerance, which `scene_warm_start` checks).
fn awake_config<R: Real>() -> SceneConfig<R> {
    SceneConfig {
        hibernation: Params::no_hibernation(),
        warm_start: false,
        ..SceneConfig::new()
    }
}

fn pipeline_matches_brute_force<R: Real>() {
    let mut rng = Rng::new(0x5CE7E);
    let hulls = random_hulls::<R>(&mut rng, 6);
    let tol = R::EPSILON * R::lit(64.0);
    let (mut kept_pairs, mut touching_pairs) = (0usize, 0usize);
    for case in 0..SCENES {
        let s = random_scene::<R>(&mut rng, &hulls);
        let desc = SceneDesc::new(&s.geoms, &s.links, &s.dof_length, &[]).unwrap();
        let vel = vec![R::ZERO; desc.dof_count()];
        let input = SceneInput::new(&s.poses, &vel);
        let mut scene = SceneBuf::new(desc, awake_config()).unwrap();
        // Two steps: the second runs on the broad phase's carried-over state.
        scene.step(&input).unwrap();
        let report = scene.step(&input).unwrap();
        let got = scene.contacts();
        let want = brute_force_contacts(&desc, &s.poses, MAX_MANIFOLD_POINTS);
        assert_eq!(by_pair(got), want, "case {case}");
        assert_eq!(report.contacts, got.len());
        assert_pairs_contiguous(got);
        for c in got {
            assert!(c.geom_a < c.geom_b);
            assert!(may_collide(&desc, c.geom_a as usize, c.geom_b as usize));
            assert_eq!(c.link_a, s.geoms[c.geom_a as usize].link);
            assert_eq!(c.link_b, s.geoms[c.geom_b as usize].link);
            assert!(
                (c.normal.norm() - R::ONE).abs() < tol,
                "normal {:?}",
                c.normal
            );
        }
        // Counts: pairs in contact and pairs the filters keep.
        let mut pairs: Vec<(u32, u32)> = got.iter().map(|c| (c.geom_a, c.geom_b)).collect();
        pairs.dedup();
        assert_eq!(report.pairs_in_contact, pairs.len());
        assert!(report.broadphase_pairs >= pairs.len());
        let n = s.geoms.len();
        for i in 0..n {
            for j in i + 1..n {
                kept_pairs += usize::from(may_collide(&desc, i, j));
            }
        }
        touching_pairs += pairs.len();

        // The allocation-free scene on caller storage: the same contacts in
        // the same order.
        let cap = SceneCapacity {
            geoms: n,
            links: s.links.len(),
            constraints: 0,
            pairs: n * n,
            contacts: n * n * MAX_MANIFOLD_POINTS,
        };
        let mut store = Store::<R>::new(cap);
        let mut fixed = Scene::new(desc, store.buffers(), awake_config()).unwrap();
        fixed.step(&input).unwrap();
        let fixed_report = fixed.step(&input).unwrap();
        assert_eq!(fixed.contacts(), got, "case {case}");
        assert_eq!(fixed_report, report);
    }
    // The sample stays meaningful: a fair share of the kept pairs touch.
    let rate = touching_pairs as f64 / kept_pairs as f64;
    assert!((0.05..0.6).contains(&rate), "contact rate {rate}");
}
for_each_real!(pipeline_matches_brute_force, pipeline_matches_brute_force);
