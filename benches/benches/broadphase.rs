//! mink-broadphase against parry3d 0.31's `Bvh`, on the same boxes and the
//! same motion, in the same process.
//!
//! Scene: `N` random boxes (sides uniform in [0.5, 1.5] m) in a cube sized so
//! that each box overlaps about 3.3 others. Measured per frame:
//! - `full`: a full rebuild and all pairs (mink: `reset` + `update`, serial
//!   and with rayon; parry: `Bvh::from_leaves` + `traverse_bvtt_single_tree`),
//! - `coherent`: 10% of the boxes move slightly (mink: `update`; parry:
//!   `insert_or_update_partially` for the moved leaves + `refit` + all pairs),
//! - `sleep90`: 90% of the boxes asleep and the awake 10% moving, against
//!   `all-move`: every box awake and moving slightly (mink only; the issue's
//!   target is sleep90 <= 25% of all-move).
//!
//! Run: `cargo bench -p mink-benches --bench broadphase`. Before criterion
//! runs, a table of medians and ratios is printed.

use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use mink_broadphase::{BroadPhase, CandidatePair, Filters, Geom};
use mink_support::{Aabb, Vec3};
use mink_testkit::Rng;
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::math::Vec3 as PVec3;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];
/// Mean overlaps per box the cube is sized for.
const OVERLAPS_PER_BOX: f64 = 3.3;
/// Fraction of boxes moved per coherent frame.
const MOVED_FRACTION: f64 = 0.1;
/// How far a moved box goes per frame, as a fraction of the mean box side.
const STEP: f64 = 0.05;

struct Scene {
    geoms: Vec<Geom<f32>>,
    moved: Vec<usize>,
    deltas: Vec<Vec3<f32>>,
    flip: bool,
}

impl Scene {
    fn new(n: usize, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        // Expected overlaps per box: n * (2 * mean side / L)^3 with mean side 1.
        let side = 2.0 * (n as f64 / OVERLAPS_PER_BOX).cbrt();
        let geoms = (0..n)
            .map(|i| {
                let c = Vec3::new(
                    rng.range_f64(0.0, side) as f32,
                    rng.range_f64(0.0, side) as f32,
                    rng.range_f64(0.0, side) as f32,
                );
                let h = Vec3::new(
                    rng.range_f64(0.25, 0.75) as f32,
                    rng.range_f64(0.25, 0.75) as f32,
                    rng.range_f64(0.25, 0.75) as f32,
                );
                Geom::new(Aabb::from_center_half_extents(c, h), i as u32)
            })
            .collect();
        let moved: Vec<usize> = (0..n).filter(|_| rng.chance(MOVED_FRACTION)).collect();
        let deltas = moved
            .iter()
            .map(|_| rng.unit_vec::<f32>() * STEP as f32)
            .collect();
        Self {
            geoms,
            moved,
            deltas,
            flip: false,
        }
    }

    /// Moves the 10% back and forth (so the scene stays the same on average).
    fn step(&mut self) {
        self.flip = !self.flip;
        let s = if self.flip { 1.0 } else { -1.0 };
        for (&i, &d) in self.moved.iter().zip(&self.deltas) {
            let a = &mut self.geoms[i].aabb;
            *a = Aabb::new(a.min + d * s, a.max + d * s);
        }
    }

    /// Puts all but the moving 10% to sleep (sleeping bodies do not move).
    fn sleep_most(&mut self) {
        for g in &mut self.geoms {
            g.asleep = true;
        }
        for &i in &self.moved {
            self.geoms[i].asleep = false;
        }
    }

    /// Moves every box slightly (an all-awake scene where everything moves).
    fn step_all(&mut self) {
        self.flip = !self.flip;
        let s = if self.flip { 1.0 } else { -1.0 };
        let n = self.deltas.len();
        for (k, g) in self.geoms.iter_mut().enumerate() {
            let d = self.deltas[k % n] * s;
            g.aabb = Aabb::new(g.aabb.min + d, g.aabb.max + d);
        }
    }

    fn parry_aabbs(&self) -> Vec<PAabb> {
        self.geoms.iter().map(|g| parry_aabb(&g.aabb)).collect()
    }
}

fn parry_aabb(a: &Aabb<f32>) -> PAabb {
    PAabb::new(
        PVec3::new(a.min.x, a.min.y, a.min.z),
        PVec3::new(a.max.x, a.max.y, a.max.z),
    )
}

struct Parry {
    bvh: Bvh,
    ws: BvhWorkspace,
    pairs: Vec<(u32, u32)>,
}

impl Parry {
    fn build(scene: &Scene) -> Self {
        let mut p = Self {
            bvh: Bvh::from_leaves(BvhBuildStrategy::Binned, &scene.parry_aabbs()),
            ws: BvhWorkspace::default(),
            pairs: Vec::new(),
        };
        p.all_pairs();
        p
    }

    fn all_pairs(&mut self) {
        self.pairs.clear();
        let pairs = &mut self.pairs;
        self.bvh
            .traverse_bvtt_single_tree::<false>(&mut self.ws, &mut |a, b| pairs.push((a, b)));
    }

    fn coherent(&mut self, scene: &Scene) {
        for &i in &scene.moved {
            self.bvh
                .insert_or_update_partially(parry_aabb(&scene.geoms[i].aabb), i as u32, 0.0);
        }
        self.bvh.refit(&mut self.ws);
        self.all_pairs();
    }
}

fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    t[runs / 2]
}

fn runs_for(n: usize) -> usize {
    if n >= 100_000 {
        9
    } else {
        31
    }
}

fn table() {
    let filters = Filters::ALL;
    println!(
        "\nbroadphase, f32, ~{OVERLAPS_PER_BOX} overlaps/box; medians in ms (ratio = parry / mink)"
    );
    println!(
        "{:>7} {:>6} | {:>8} {:>8} {:>8} {:>6} | {:>8} {:>8} {:>8} {:>6} | {:>8} {:>8} {:>6}",
        "N",
        "pairs",
        "full",
        "full-par",
        "parry",
        "ratio",
        "coher",
        "coh-par",
        "parry",
        "ratio",
        "all-move",
        "sleep90",
        "share"
    );
    for &n in &SIZES {
        let runs = runs_for(n);
        let mut scene = Scene::new(n, 7);
        let mut bp = BroadPhase::new();
        let mut pairs: Vec<CandidatePair> = Vec::new();
        bp.update(&scene.geoms, &filters, &mut pairs).unwrap();
        let mut parry = Parry::build(&scene);
        assert_eq!(parry.pairs.len(), pairs.len(), "same pair count as parry");
        let n_pairs = pairs.len();

        let full = median_ms(runs, || {
            bp.reset();
            bp.update(&scene.geoms, &filters, &mut pairs).unwrap();
        });
        let full_par = median_ms(runs, || {
            bp.reset();
            bp.par_update(&scene.geoms, &filters, &mut pairs).unwrap();
        });
        let full_parry = median_ms(runs, || {
            black_box(Parry::build(&scene));
        });

        let coherent = median_ms(runs, || {
            scene.step();
            bp.update(&scene.geoms, &filters, &mut pairs).unwrap();
        });
        let coherent_par = median_ms(runs, || {
            scene.step();
            bp.par_update(&scene.geoms, &filters, &mut pairs).unwrap();
        });
        let coherent_parry = median_ms(runs, || {
            scene.step();
            parry.coherent(&scene);
        });
        bp.update(&scene.geoms, &filters, &mut pairs).unwrap();
        parry.coherent(&scene);
        assert_eq!(
            parry.pairs.len(),
            pairs.len(),
            "same pair count after motion"
        );

        let mut moving = Scene::new(n, 7);
        let mut bp_moving = BroadPhase::new();
        let all_move = median_ms(runs, || {
            moving.step_all();
            bp_moving
                .update(&moving.geoms, &filters, &mut pairs)
                .unwrap();
        });
        let mut sleepy = Scene::new(n, 7);
        sleepy.sleep_most();
        let mut bp_sleep = BroadPhase::new();
        bp_sleep
            .update(&sleepy.geoms, &filters, &mut pairs)
            .unwrap();
        let sleep = median_ms(runs, || {
            sleepy.step();
            bp_sleep
                .update(&sleepy.geoms, &filters, &mut pairs)
                .unwrap();
        });

        println!(
            "{:>7} {:>6} | {:>8.3} {:>8.3} {:>8.3} {:>5.2}x | {:>8.3} {:>8.3} {:>8.3} {:>5.2}x | {:>8.3} {:>8.3} {:>5.0}%",
            n,
            n_pairs,
            full,
            full_par,
            full_parry,
            full_parry / full,
            coherent,
            coherent_par,
            coherent_parry,
            coherent_parry / coherent,
            all_move,
            sleep,
            100.0 * sleep / all_move
        );
    }
    println!();
}

fn criterion_benches(c: &mut Criterion) {
    let filters = Filters::ALL;
    for &n in &SIZES {
        let mut group = c.benchmark_group(format!("broadphase/{n}"));
        group.sample_size(10);
        group.measurement_time(std::time::Duration::from_millis(if n >= 100_000 {
            1500
        } else {
            500
        }));
        group.warm_up_time(std::time::Duration::from_millis(200));
        let mut scene = Scene::new(n, 7);
        let mut bp = BroadPhase::new();
        let mut pairs = Vec::new();
        group.bench_function("mink full", |b| {
            b.iter(|| {
                bp.reset();
                bp.update(&scene.geoms, &filters, &mut pairs).unwrap()
            })
        });
        group.bench_function("mink full rayon", |b| {
            b.iter(|| {
                bp.reset();
                bp.par_update(&scene.geoms, &filters, &mut pairs).unwrap()
            })
        });
        group.bench_function("parry full", |b| b.iter(|| black_box(Parry::build(&scene))));
        group.bench_function("mink coherent", |b| {
            b.iter(|| {
                scene.step();
                bp.update(&scene.geoms, &filters, &mut pairs).unwrap()
            })
        });
        group.bench_function("mink coherent rayon", |b| {
            b.iter(|| {
                scene.step();
                bp.par_update(&scene.geoms, &filters, &mut pairs).unwrap()
            })
        });
        let mut parry = Parry::build(&scene);
        group.bench_function("parry coherent", |b| {
            b.iter(|| {
                scene.step();
                parry.coherent(&scene);
            })
        });
        let mut moving = Scene::new(n, 7);
        let mut bp_moving = BroadPhase::new();
        group.bench_function("mink all awake, all moving", |b| {
            b.iter(|| {
                moving.step_all();
                bp_moving
                    .update(&moving.geoms, &filters, &mut pairs)
                    .unwrap()
            })
        });
        let mut sleepy = Scene::new(n, 7);
        sleepy.sleep_most();
        let mut bp_sleep = BroadPhase::new();
        group.bench_function("mink 90% asleep, awake moving", |b| {
            b.iter(|| {
                sleepy.step();
                bp_sleep
                    .update(&sleepy.geoms, &filters, &mut pairs)
                    .unwrap()
            })
        });
        group.finish();
    }
}

fn main() {
    table();
    if std::env::args().any(|a| a == "--table-only") {
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    criterion_benches(&mut c);
    c.final_summary();
}
