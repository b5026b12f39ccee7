//! Ray casts through a scene (`ray_cast`, `ray_cast_any`, `ray_cast_all`,
//! and `par_ray_cast` with `rayon`) against a brute force written here:
//! every geometry the filter (its rule written out again) lets through,
//! cast one by one with the umbrella's ray cast at the pose the step
//! placed it, the nearest kept. Random scenes of mixed shapes on a ground
//! half-space, rays from all around, filters by mask and by link; f32 and
//! f64. The allocation-free scene answers as the owned one.

use crate::scene_common::{random_hulls, random_scene, Store};
use mink::contact::MAX_MANIFOLD_POINTS;
use mink::ray::{Ray, RayStatus};
use mink::scene::{
    QueryFilter, Scene, SceneBuf, SceneCapacity, SceneConfig, SceneDesc, SceneInput, SceneRayHit,
};
use mink::support::{Real, Vec3};
use mink_testkit::{for_each_real, Rng};

/// The filter rule, written out: masks as one side of MuJoCo's pair test,
/// and the excluded link.
fn sees(f: &QueryFilter, link: u32, contype: u32, conaffinity: u32) -> bool {
    link != f.exclude_link && (f.contype & conaffinity != 0 || contype & f.conaffinity != 0)
}

/// Every hit by brute force: `(geom, toi)` of each geometry the filter
/// sees that the ray hits within `max_toi`.
fn brute_force<R: Real>(
    desc: &SceneDesc<'_, R>,
    poses: &[mink::support::Iso3<R>],
    ray: &Ray<R>,
    max_toi: R,
    solid: bool,
    filter: &QueryFilter,
) -> Vec<(u32, f64)> {
    let mut hits = Vec::new();
    for (i, g) in desc.geoms().iter().enumerate() {
        if !sees(filter, g.link, g.contype, g.conaffinity) {
            continue;
        }
        let pose = poses[g.link as usize].mul(&g.local_pose);
        let c = g.collider.ray_cast(&pose, ray, max_toi, solid);
        if matches!(c.status, RayStatus::Hit | RayStatus::Inside) {
            hits.push((i as u32, c.toi.to_f64()));
        }
    }
    hits
}

fn scene_rays_match_brute_force<R: Real>() {
    let mut rng = Rng::new(0x30_5ce1);
    let hulls = random_hulls::<R>(&mut rng, 6);
    let (mut hits, mut misses) = (0, 0);
    for case in 0..150 {
        let s = random_scene::<R>(&mut rng, &hulls);
        let desc = SceneDesc::new(&s.geoms, &s.links, &s.dof_length, &[]).unwrap();
        let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
        let vel = vec![R::ZERO; s.dof_length.len()];
        scene.step(&SceneInput::new(&s.poses, &vel)).unwrap();
        // The allocation-free scene on the same description.
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
            let o = rng.in_cube::<R>(2.0);
            let aim = rng.in_cube::<R>(0.9);
            let dir = (aim - o).normalize_or(Vec3::X) * R::lit(rng.range_f64(0.5, 2.0));
            let ray = Ray::new(o, dir);
            let solid = rng.chance(0.5);
            let max_toi = if rng.chance(0.3) {
                R::lit(rng.range_f64(0.0, 2.0))
            } else {
                R::INFINITY
            };
            let filter = match k % 4 {
                0 => QueryFilter::ALL,
                1 => QueryFilter::masks(2, 2),
                2 => QueryFilter::ALL.excluding(1 + rng.below(s.links.len() - 1) as u32),
                _ => QueryFilter::masks(1, 1).excluding(0),
            };
            let what =
                format!("case {case} ray {k}: {ray:?} solid {solid} max {max_toi:?} {filter:?}");
            let all = brute_force(&desc, &s.poses, &ray, max_toi, solid, &filter);
            let nearest = all
                .iter()
                .cloned()
                .fold(None::<(u32, f64)>, |b, h| match b {
                    Some(b) if b.1 <= h.1 => Some(b),
                    _ => Some(h),
                });
            let got = scene.ray_cast(&ray, max_toi, solid, &filter);
            match (got, nearest) {
                (None, None) => misses += 1,
                (Some(g), Some((_, t))) => {
                    hits += 1;
                    assert!(
                        (g.toi.to_f64() - t).abs() <= 1e-9 * (1.0 + t),
                        "{what}: {g:?} vs {nearest:?} of {all:?}"
                    );
                    assert!(
                        all.iter()
                            .any(|&(i, ti)| i == g.geom && ti == g.toi.to_f64()),
                        "{what}"
                    );
                    assert_eq!(g.link, desc.geoms()[g.geom as usize].link, "{what}");
                }
                _ => panic!("{what}: {got:?} vs {nearest:?} of {all:?}"),
            }
            assert_eq!(fixed.ray_cast(&ray, max_toi, solid, &filter), got, "{what}");
            // Any: some hit iff there is one, and a real one.
            let any = scene.ray_cast_any(&ray, max_toi, solid, &filter);
            assert_eq!(any.is_some(), got.is_some(), "{what}");
            if let Some(a) = any {
                assert!(
                    all.iter().any(|&(i, t)| i == a.geom && t == a.toi.to_f64()),
                    "{what}"
                );
            }
            // All: exactly the brute force's set.
            let mut visited: Vec<(u32, f64)> = Vec::new();
            let n = scene.ray_cast_all(&ray, max_toi, solid, &filter, |h: SceneRayHit<R>| {
                visited.push((h.geom, h.toi.to_f64()));
                true
            });
            assert_eq!(n, visited.len(), "{what}");
            assert_eq!(visited, all, "{what}");
        }
    }
    assert!(hits > 1_500 && misses > 300, "{hits} hits, {misses} misses");
}
for_each_real!(scene_rays_match_brute_force, scene_rays_match_brute_force);

/// Before the first step nothing is placed, so nothing is hit; invalid
/// rays and a negative `max_toi` hit nothing.
#[test]
fn unplaced_scene_and_bad_rays_hit_nothing() {
    let mut rng = Rng::new(0x30_5ce2);
    let hulls = random_hulls::<f64>(&mut rng, 2);
    let s = random_scene::<f64>(&mut rng, &hulls);
    let desc = SceneDesc::new(&s.geoms, &s.links, &s.dof_length, &[]).unwrap();
    let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
    let down = Ray::new(Vec3::new(0.0, 0.0, 5.0), -Vec3::Z);
    assert_eq!(
        scene.ray_cast(&down, f64::INFINITY, true, &QueryFilter::ALL),
        None
    );
    let vel = vec![0.0; s.dof_length.len()];
    scene.step(&SceneInput::new(&s.poses, &vel)).unwrap();
    // The ground (a half-space at z = -0.6) is always there below.
    assert!(scene
        .ray_cast(&down, f64::INFINITY, true, &QueryFilter::ALL)
        .is_some());
    for (ray, max_toi) in [
        (Ray::new(Vec3::new(0.0, 0.0, 5.0), Vec3::ZERO), 10.0),
        (Ray::new(Vec3::new(f64::NAN, 0.0, 5.0), -Vec3::Z), 10.0),
        (down, -1.0),
        (down, f64::NAN),
    ] {
        assert_eq!(scene.ray_cast(&ray, max_toi, true, &QueryFilter::ALL), None);
        assert_eq!(
            scene.ray_cast_all(&ray, max_toi, true, &QueryFilter::ALL, |_| true),
            0
        );
    }
}

/// The parallel batch gives each ray the serial answer.
#[cfg(feature = "rayon")]
#[test]
fn parallel_batch_matches_serial() {
    let mut rng = Rng::new(0x30_5ce3);
    let hulls = random_hulls::<f64>(&mut rng, 4);
    let s = random_scene::<f64>(&mut rng, &hulls);
    let desc = SceneDesc::new(&s.geoms, &s.links, &s.dof_length, &[]).unwrap();
    let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
    let vel = vec![0.0; s.dof_length.len()];
    scene.step(&SceneInput::new(&s.poses, &vel)).unwrap();
    let rays: Vec<Ray<f64>> = (0..2_000)
        .map(|_| Ray::new(rng.in_cube(2.0), rng.unit_vec()))
        .collect();
    let mut out = vec![None; rays.len()];
    scene.par_ray_cast(&rays, 10.0, true, &QueryFilter::ALL, &mut out);
    let mut hit = 0;
    for (ray, got) in rays.iter().zip(&out) {
        let serial = scene.ray_cast(ray, 10.0, true, &QueryFilter::ALL);
        assert_eq!(*got, serial);
        hit += usize::from(serial.is_some());
    }
    assert!(hit > 500, "{hit}");
}
