//! The pair budget, bad input, caller storage, sleeping, hand-made filter
//! cases, batched scenes and the AABB update helper.

use crate::common::{jiggle, random_scene, reference, sorted, Style};
use mink_broadphase::{
    update_batch, update_world_aabbs, BroadPhase, BroadPhaseError, Buffers, CandidatePair,
    FilterKey, Filters, Geom, Slot, SweepAndPrune, ENTRIES_PER_GEOM, NO_LINK,
};
use mink_support::{Aabb, Iso3, Real, Sphere, Vec3};
use mink_testkit::{for_each_real, Rng};

fn cube<R: Real>(x: f64, link: u32) -> Geom<R> {
    let c = Vec3::new(R::lit(x), R::ZERO, R::ZERO);
    Geom::new(
        Aabb::from_center_half_extents(c, Vec3::splat(R::HALF)),
        link,
    )
}

/// Owned storage for a [`SweepAndPrune`] over `n` geometries.
struct Storage<R: Real> {
    order: Vec<Slot<R>>,
    ranks: Vec<u32>,
    roles: Vec<u8>,
    snapshot: Vec<Geom<R>>,
    keys: Vec<FilterKey>,
    entries: Vec<mink_broadphase::Entry<R>>,
    starts: Vec<u32>,
    large: Vec<mink_broadphase::Entry<R>>,
    sleep_entries: Vec<mink_broadphase::Entry<R>>,
    sleep_starts: Vec<u32>,
    sleep_large: Vec<mink_broadphase::Entry<R>>,
    dirty: Vec<u32>,
    dirty_entries: Vec<mink_broadphase::Entry<R>>,
    dirty_starts: Vec<u32>,
    dirty_large: Vec<mink_broadphase::Entry<R>>,
    base_pairs: Vec<CandidatePair>,
}

impl<R: Real> Storage<R> {
    fn new(n: usize) -> Self {
        Self {
            order: vec![Slot::default(); n],
            ranks: vec![0; n],
            roles: vec![0; n],
            snapshot: vec![cube(0.0, 0); n],
            keys: vec![FilterKey::default(); n],
            entries: vec![Default::default(); ENTRIES_PER_GEOM * n],
            starts: vec![0; n + 2],
            large: vec![Default::default(); n],
            sleep_entries: vec![Default::default(); ENTRIES_PER_GEOM * n],
            sleep_starts: vec![0; n + 2],
            sleep_large: vec![Default::default(); n],
            dirty: vec![0; n],
            dirty_entries: vec![Default::default(); ENTRIES_PER_GEOM * n],
            dirty_starts: vec![0; n + 2],
            dirty_large: vec![Default::default(); n],
            base_pairs: vec![CandidatePair::default(); 8 * n],
        }
    }

    fn buffers(&mut self) -> Buffers<'_, R> {
        Buffers {
            order: &mut self.order,
            ranks: &mut self.ranks,
            roles: &mut self.roles,
            snapshot: &mut self.snapshot,
            keys: &mut self.keys,
            entries: &mut self.entries,
            starts: &mut self.starts,
            large: &mut self.large,
            sleep_entries: &mut self.sleep_entries,
            sleep_starts: &mut self.sleep_starts,
            sleep_large: &mut self.sleep_large,
            dirty: &mut self.dirty,
            dirty_entries: &mut self.dirty_entries,
            dirty_starts: &mut self.dirty_starts,
            dirty_large: &mut self.dirty_large,
            base_pairs: &mut self.base_pairs,
        }
    }
}

fn budget<R: Real>() {
    let mut rng = Rng::new(0xb4d6e7);
    let geoms = random_scene::<R>(&mut rng, Style::Clusters, 600, 0.0, 0.0);
    let mut all = Vec::new();
    BroadPhase::new()
        .update(&geoms, &Filters::ALL, &mut all)
        .unwrap();
    let found = all.len();
    assert!(found > 100, "{found}");
    for cap in [0, 1, found / 2, found - 1, found, found + 5] {
        // Owned, growable list with a budget.
        let mut bp = BroadPhase::with_pair_budget(cap);
        let mut kept = Vec::new();
        let r = bp.update(&geoms, &Filters::ALL, &mut kept);
        // Caller's fixed slice.
        let mut store = Storage::<R>::new(geoms.len());
        let mut sap = SweepAndPrune::new(store.buffers());
        let mut out = vec![CandidatePair::default(); cap];
        let r2 = sap.update(&geoms, &Filters::ALL, &mut out);
        if cap < found {
            let want = Err(BroadPhaseError::PairBudget { found, kept: cap });
            assert_eq!(r.map(|_| ()), want);
            assert_eq!(r2.map(|_| ()), want);
            // The kept pairs are the first ones of the unbudgeted order.
            assert_eq!(kept, all[..cap]);
            assert_eq!(out, all[..cap]);
        } else {
            assert_eq!(r.unwrap().pairs, found);
            assert_eq!(kept, all);
            assert_eq!(r2.unwrap().pairs, found);
            assert_eq!(out[..found], all[..]);
        }
    }
}

for_each_real!(pair_budget_error_and_kept_pairs, budget);

fn bad_input<R: Real>() {
    let mut geoms = vec![cube::<R>(0.0, 0), cube(0.5, 1), cube(1.0, 2)];
    let mut bp = BroadPhase::new();
    let mut pairs = Vec::new();
    bp.update(&geoms, &Filters::ALL, &mut pairs).unwrap();
    let good = pairs.clone();
    for bad in [R::nan(), R::infinity(), -R::infinity()] {
        for k in 0..3 {
            let mut g = geoms.clone();
            let mut v = g[1].aabb.min.to_array();
            v[k] = bad;
            g[1].aabb.min = Vec3::from_array(v);
            assert_eq!(
                bp.update(&g, &Filters::ALL, &mut pairs),
                Err(BroadPhaseError::InvalidAabb { geom: 1 })
            );
        }
    }
    // Inverted box.
    geoms[2].aabb = Aabb::new(geoms[2].aabb.max, geoms[2].aabb.min);
    assert_eq!(
        bp.update(&geoms, &Filters::ALL, &mut pairs),
        Err(BroadPhaseError::InvalidAabb { geom: 2 })
    );
    // After the refusals, the valid scene gives the same pairs again.
    geoms[2] = cube(1.0, 2);
    bp.update(&geoms, &Filters::ALL, &mut pairs).unwrap();
    assert_eq!(pairs, good);

    // Storage too small names the buffer.
    let mut store = Storage::<R>::new(2);
    let mut sap = SweepAndPrune::new(store.buffers());
    let mut out = [CandidatePair::default(); 8];
    assert_eq!(
        sap.update(&geoms, &Filters::ALL, &mut out),
        Err(BroadPhaseError::StorageTooSmall {
            buffer: "order",
            needed: 3,
            given: 2
        })
    );
    // An empty scene is fine.
    assert_eq!(sap.update(&[], &Filters::ALL, &mut out).unwrap().pairs, 0);
}

for_each_real!(bad_input_is_refused, bad_input);

/// Hand-made cases for each filter, checked against the rule as written in
/// the issue (not against the crate's code).
#[test]
fn filter_cases() {
    let f = Filters::ALL;
    let pair_kept = |a: Geom<f64>, b: Geom<f64>, filters: &Filters| {
        let mut pairs = Vec::new();
        BroadPhase::new()
            .update(&[a, b], filters, &mut pairs)
            .unwrap();
        !pairs.is_empty()
    };
    let (a, b) = (cube::<f64>(0.0, 3), cube::<f64>(0.5, 4));
    assert!(pair_kept(a, b, &f));
    // Same link.
    assert!(!pair_kept(a, Geom { link: 3, ..b }, &f));
    assert!(pair_kept(
        a,
        Geom { link: 3, ..b },
        &Filters {
            same_link: false,
            ..f
        }
    ));
    // Parent-child either way; a grandparent is not filtered.
    assert!(!pair_kept(
        Geom {
            parent_link: 4,
            ..a
        },
        b,
        &f
    ));
    assert!(!pair_kept(
        a,
        Geom {
            parent_link: 3,
            ..b
        },
        &f
    ));
    assert!(pair_kept(
        Geom {
            parent_link: 9,
            ..a
        },
        Geom {
            parent_link: 9,
            ..b
        },
        &f
    ));
    assert!(pair_kept(
        Geom {
            parent_link: 4,
            ..a
        },
        b,
        &Filters {
            parent_child: false,
            ..f
        }
    ));
    // NO_LINK never matches.
    assert!(pair_kept(
        Geom {
            parent_link: NO_LINK,
            ..a
        },
        Geom {
            parent_link: NO_LINK,
            ..b
        },
        &f
    ));
    // MuJoCo masks: kept when either direction matches.
    let m = |ct: u32, ca: u32, g: Geom<f64>| Geom {
        contype: ct,
        conaffinity: ca,
        ..g
    };
    assert!(pair_kept(m(1, 0, a), m(0, 1, b), &f));
    assert!(pair_kept(m(0, 1, a), m(1, 0, b), &f));
    assert!(!pair_kept(m(1, 0, a), m(1, 0, b), &f));
    assert!(!pair_kept(m(2, 1, a), m(2, 1, b), &f));
    assert!(pair_kept(
        m(2, 1, a),
        m(2, 1, b),
        &Filters { masks: false, ..f }
    ));
    // Both fixed.
    let fixed = |g: Geom<f64>| Geom { fixed: true, ..g };
    assert!(!pair_kept(fixed(a), fixed(b), &f));
    assert!(pair_kept(fixed(a), b, &f));
    assert!(pair_kept(
        fixed(a),
        fixed(b),
        &Filters {
            both_fixed: false,
            ..f
        }
    ));
    // Both asleep; one awake side keeps the pair.
    let sleep = |g: Geom<f64>| Geom { asleep: true, ..g };
    assert!(!pair_kept(sleep(a), sleep(b), &f));
    assert!(pair_kept(sleep(a), b, &f));
    assert!(pair_kept(a, sleep(b), &f));
    assert!(pair_kept(
        sleep(a),
        sleep(b),
        &Filters {
            both_asleep: false,
            ..f
        }
    ));
    // Touching boxes (closed intervals) overlap.
    assert!(pair_kept(cube(0.0, 1), cube(1.0, 2), &f));
}

/// A mostly sleeping scene, with islands waking and falling asleep and
/// sleeping boxes nudged: exact every frame, and the sleeping set is rebuilt
/// only when it changes.
fn sleeping<R: Real>() {
    let mut rng = Rng::new(0x51ee9);
    for style in [
        Style::Spread,
        Style::Clusters,
        Style::HugeAndTiny,
        Style::LongThin,
    ] {
        let n = 3000;
        let mut geoms = random_scene::<R>(&mut rng, style, n, 0.05, 0.9);
        let mut bp = BroadPhase::new();
        let mut pairs = Vec::new();
        let (mut rebuilt, mut quiet) = (0, 0);
        for frame in 0..16 {
            let change = frame % 4 == 3;
            if change {
                for _ in 0..30 {
                    let i = rng.below(n);
                    geoms[i].asleep = !geoms[i].asleep;
                }
            }
            // Only awake boxes move.
            for _ in 0..n / 10 {
                let i = rng.below(n);
                if !geoms[i].asleep {
                    jiggle(&mut rng, &mut geoms[i..=i], 1, 0.05);
                }
            }
            let r = bp.update(&geoms, &Filters::ALL, &mut pairs).unwrap();
            assert_eq!(
                sorted(&pairs),
                reference(&geoms, &Filters::ALL),
                "{style:?} frame {frame}"
            );
            assert_eq!(r.asleep, geoms.iter().filter(|g| g.asleep).count());
            assert_eq!(r.awake + r.asleep, n);
            if frame > 0 {
                assert_eq!(r.sleep_rebuilt, change, "{style:?} frame {frame}");
                rebuilt += usize::from(r.sleep_rebuilt);
                quiet += usize::from(!r.sleep_rebuilt);
            }
        }
        assert!(rebuilt > 0 && quiet > rebuilt);
        // Sleeping-vs-awake pairs were found.
        assert!(pairs
            .iter()
            .any(|p| geoms[p.a as usize].asleep != geoms[p.b as usize].asleep));
    }
}

for_each_real!(sleeping_scenes, sleeping);

/// Batched scenes: each exactly as its own broad phase would report.
#[test]
fn batch_matches_single_scenes() {
    let mut rng = Rng::new(0xba7c);
    let scenes: Vec<Vec<Geom<f32>>> = (0..6)
        .map(|k| random_scene(&mut rng, Style::Spread, 200 + 100 * k, 0.1, 0.3))
        .collect();
    let views: Vec<&[Geom<f32>]> = scenes.iter().map(|s| s.as_slice()).collect();
    let mut phases = vec![BroadPhase::new(); scenes.len()];
    let mut outs = vec![Vec::new(); scenes.len()];
    let results = update_batch(&mut phases, &views, &Filters::ALL, &mut outs);
    assert_eq!(results.len(), scenes.len());
    for (k, scene) in scenes.iter().enumerate() {
        assert_eq!(results[k].unwrap().pairs, outs[k].len());
        assert_eq!(sorted(&outs[k]), reference(scene, &Filters::ALL));
    }
}

/// World AABBs from shapes and poses: a sphere's is its centre ± radius.
#[test]
fn world_aabbs_of_spheres() {
    let mut rng = Rng::new(0xaabb);
    let spheres: Vec<Sphere<f64>> = (0..50)
        .map(|_| Sphere::new(rng.range_f64(0.1, 2.0)).unwrap())
        .collect();
    let poses: Vec<Iso3<f64>> = (0..50).map(|_| rng.pose(10.0)).collect();
    let mut geoms = vec![cube::<f64>(0.0, 0); 60];
    assert_eq!(update_world_aabbs(&spheres, &poses, &mut geoms), 50);
    for ((g, s), p) in geoms.iter().zip(&spheres).zip(&poses) {
        let r = Vec3::splat(s.radius());
        let want = Aabb::new(p.translation - r, p.translation + r);
        assert!(
            (g.aabb.min - want.min).max_abs() < 1e-12 && (g.aabb.max - want.max).max_abs() < 1e-12
        );
    }
    // Geometries past the shortest slice are left alone.
    assert_eq!(geoms[55], cube(0.0, 0));
}
