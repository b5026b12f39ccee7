//! mink's collision step against rapier3d 0.36's `CollisionPipeline`
//! (broad phase + narrow phase, no dynamics), on the same shapes and the
//! same recorded poses, in the same process.
//!
//! Scenes (`mink_benches::pipeline::scenes`), all z-up on the plane z = 0:
//! - `pile_640`, `pile_5120`: the convex pile, 8×8×10 and 8×8×80 hulls of
//!   32 random points on a sphere of radius 0.5 m, stacked in a grid;
//! - `boxes_1000`, `boxes_10000`: boxes dropped on a plane, four layers;
//! - `robots_50`, `robots_400`: capsule robots (a body and four two-segment
//!   legs, 9 capsules on 9 links, adjacent links filtered out) walking on a
//!   height-field terrain of 64 × 64 cells over 40 m, bumps of about
//!   ±0.25 m (`mink_benches::pipeline::robots`).
//!
//! The piles and boxes fall once under rapier3d's full physics at 1/60 s;
//! the robots follow a scripted kinematic gait instead (no physics: planted
//! feet sink 4 mm to 2 cm into the terrain, legs of robots in neighbouring
//! lanes brush). The poses of every `EVERY`-th step are kept in memory (the
//! recording is part of the set-up, and is not timed). Each timed frame
//! then sets every moved body's pose (not timed) and runs one collision
//! step (timed): mink's
//! scene step (`SceneBuf::step`: world AABBs, broad phase, `mink::collide`
//! per candidate pair, contacts, islands; hibernation off) and rapier's
//! `CollisionPipeline::step` with a `BroadPhaseBvh` and a `NarrowPhase` on
//! parentless colliders, a contact-pair hook dropping parent–child pairs
//! as mink's filter does. The terrain is mink's `Collider::HeightField` and
//! rapier's height field, posed to the same surface (checked by
//! `cargo test -p mink-benches --lib terrain`). Both predict contacts within
//! rapier's default prediction distance (2 cm). rapier is built with its
//! `parallel` feature; its serial figures run inside a one-thread rayon
//! pool, its parallel ones in the global pool, as mink's rayon figures.
//!
//! `cargo bench -p mink-benches --bench pipeline` prints a table of mean
//! times per frame, serial and parallel, ratios (rapier / mink) and contacts
//! per frame (rapier's: manifold points closer than the prediction
//! distance), then runs criterion; `-- --table-only` stops after the table.
//! `PIPELINE_ONLY=<text>` keeps the scenes whose name contains it. Below a
//! scene's row, a line counts the touching pairs (over all frames) that
//! only one library found, when there are any.

use std::time::{Duration, Instant};

use criterion::Criterion;
use mink_benches::pipeline::mink_direct::{MinkDirect, PhaseTimes};
use mink_benches::pipeline::mink_scene::{MinkScene, MinkSceneData};
use mink_benches::pipeline::mink_shapes::MinkShapes;
use mink_benches::pipeline::rapier_replay::{prediction_distance, RapierReplay};
use mink_benches::pipeline::record::{record, Recording};
use mink_benches::pipeline::robots::capsule_robots;
use mink_benches::pipeline::scenes::{boxes_on_plane, convex_pile, SceneDesc};
use mink_benches::pipeline::ContactCount;
use rayon::ThreadPool;

/// Steps simulated (or scripted) per recording (2 s at 1/60 s).
const STEPS: usize = 120;
/// Every how many steps a frame is kept.
const EVERY: usize = 4;

/// A scene, its recording and mink's shapes for it.
struct Case {
    scene: SceneDesc,
    rec: Recording,
    shapes: MinkShapes,
    /// Rounds over all frames for the table.
    rounds: usize,
}

fn case(scene: SceneDesc, steps: usize, rounds: usize) -> Case {
    let t = Instant::now();
    let rec = record(&scene, steps, EVERY);
    let shapes = MinkShapes::new(&scene);
    eprintln!(
        "{}: {} bodies, {} frames recorded in {:.1} s",
        scene.name,
        scene.bodies.len(),
        rec.len(),
        t.elapsed().as_secs_f64()
    );
    Case {
        scene,
        rec,
        shapes,
        rounds,
    }
}

fn cases() -> Vec<Case> {
    let only = std::env::var("PIPELINE_ONLY").ok();
    let wanted = |name: &str| only.as_deref().is_none_or(|o| name.contains(o));
    let mut out = Vec::new();
    let mut add = |scene: SceneDesc, steps, rounds| {
        if wanted(&scene.name) {
            out.push(case(scene, steps, rounds));
        }
    };
    add(convex_pile(8, 8, 10, 11), STEPS, 5);
    add(convex_pile(8, 8, 80, 11), STEPS, 1);
    add(boxes_on_plane(1_000, 12), STEPS, 5);
    add(boxes_on_plane(10_000, 12), STEPS, 1);
    add(capsule_robots(50, 13), STEPS, 5);
    add(capsule_robots(400, 13), STEPS, 3);
    out
}

/// Which implementation a measurement runs.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    MinkSerial,
    MinkRayon,
    RapierSerial,
    RapierParallel,
}

/// The two replays of one case.
struct Replays<'a> {
    mink: MinkScene<'a>,
    direct: MinkDirect<'a>,
    rapier: RapierReplay,
    one: ThreadPool,
}

impl<'a> Replays<'a> {
    fn new(c: &'a Case, data: &'a MinkSceneData<'a>) -> Self {
        let rapier = RapierReplay::new(&c.scene);
        Self {
            mink: MinkScene::new(data),
            direct: MinkDirect::new(&c.shapes, rapier.prediction()),
            rapier,
            one: rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .expect("a one-thread pool"),
        }
    }

    /// Sets frame `f`'s poses on `side` (not timed) and times its step.
    fn frame(&mut self, side: Side, rec: &Recording, f: usize) -> Duration {
        let poses = &rec.frames[f];
        match side {
            Side::MinkSerial | Side::MinkRayon => self.mink.set_poses(poses),
            Side::RapierSerial | Side::RapierParallel => self.rapier.set_poses(poses),
        }
        let t = Instant::now();
        match side {
            Side::MinkSerial => self.mink.step(),
            Side::MinkRayon => self.mink.par_step(),
            Side::RapierSerial => self.one.install(|| self.rapier.step()),
            Side::RapierParallel => self.rapier.step(),
        }
        t.elapsed()
    }

    /// Mean time per frame in ms: one warm-up round over all frames, then the
    /// median of `rounds` rounds.
    fn mean_ms(&mut self, side: Side, rec: &Recording, rounds: usize) -> f64 {
        for f in 0..rec.len() {
            self.frame(side, rec, f);
        }
        let mut totals: Vec<f64> = (0..rounds)
            .map(|_| {
                (0..rec.len())
                    .map(|f| self.frame(side, rec, f).as_secs_f64())
                    .sum::<f64>()
            })
            .collect();
        totals.sort_by(f64::total_cmp);
        totals[rounds / 2] * 1e3 / rec.len() as f64
    }
}

/// Per-frame contacts of both sides over one round, and mink's phase times.
struct Contacts {
    mink: ContactCount,
    rapier: ContactCount,
    candidates: usize,
    /// Frames where the touching-pair counts differ by more than 5%.
    disagreeing_frames: usize,
    /// Touching pairs (over all frames) found by one side only.
    only_mink: usize,
    only_rapier: usize,
    phases: PhaseTimes,
}

fn contacts(r: &mut Replays<'_>, rec: &Recording) -> Contacts {
    let mut out = Contacts {
        mink: ContactCount::default(),
        rapier: ContactCount::default(),
        candidates: 0,
        disagreeing_frames: 0,
        only_mink: 0,
        only_rapier: 0,
        phases: PhaseTimes::default(),
    };
    for poses in &rec.frames {
        r.direct.set_poses(poses);
        out.phases.add(&r.direct.step_timed());
        r.mink.set_poses(poses);
        r.mink.step();
        r.rapier.set_poses(poses);
        r.one.install(|| r.rapier.step());
        let (m, p) = (r.mink.contacts(), r.rapier.contacts());
        out.mink.pairs += m.pairs;
        out.mink.points += m.points;
        out.rapier.pairs += p.pairs;
        out.rapier.points += p.points;
        out.candidates += r.mink.candidate_pairs();
        if m.pairs.abs_diff(p.pairs) * 20 > p.pairs.max(1) {
            out.disagreeing_frames += 1;
        }
        let (ms, rs) = (r.mink.touching_pairs(), r.rapier.touching_pairs());
        out.only_mink += ms.iter().filter(|x| rs.binary_search(x).is_err()).count();
        out.only_rapier += rs.iter().filter(|x| ms.binary_search(x).is_err()).count();
    }
    out
}

fn table(cases: &[Case]) {
    println!(
        "\npipeline, f32, mean ms per frame (ratio = rapier / mink, same threads); \
         contacts per frame: touching pairs / points"
    );
    println!(
        "{:>12} {:>6} | {:>8} {:>8} {:>6} | {:>8} {:>8} {:>6} | {:>13} {:>13} {:>6} | {:>17}",
        "scene",
        "frames",
        "mink",
        "rapier",
        "ratio",
        "mink-par",
        "rap-par",
        "ratio",
        "mink ctc",
        "rapier ctc",
        "cand",
        "phases (aabb/bp/np)"
    );
    for c in cases {
        let data = MinkSceneData::new(&c.shapes, prediction_distance());
        let mut r = Replays::new(c, &data);
        let n = c.rec.len();
        let k = contacts(&mut r, &c.rec);
        let ms = r.mean_ms(Side::MinkSerial, &c.rec, c.rounds);
        let rs = r.mean_ms(Side::RapierSerial, &c.rec, c.rounds);
        let mp = r.mean_ms(Side::MinkRayon, &c.rec, c.rounds);
        let rp = r.mean_ms(Side::RapierParallel, &c.rec, c.rounds);
        let total = (k.phases.aabbs + k.phases.broad + k.phases.narrow).as_secs_f64();
        let share = |d: Duration| 100.0 * d.as_secs_f64() / total;
        println!(
            "{:>12} {:>6} | {:>8.3} {:>8.3} {:>5.2}x | {:>8.3} {:>8.3} {:>5.2}x | {:>6}/{:<6} {:>6}/{:<6} {:>6} | {:>4.0}%/{:>3.0}%/{:>3.0}%",
            c.scene.name,
            n,
            ms,
            rs,
            rs / ms,
            mp,
            rp,
            rp / mp,
            k.mink.pairs / n,
            k.mink.points / n,
            k.rapier.pairs / n,
            k.rapier.points / n,
            k.candidates / n,
            share(k.phases.aabbs),
            share(k.phases.broad),
            share(k.phases.narrow),
        );
        if k.disagreeing_frames > 0 {
            println!(
                "{:>12}   touching pairs differ by > 5% in {} of {} frames",
                "", k.disagreeing_frames, n
            );
        }
        if k.only_mink + k.only_rapier > 0 {
            println!(
                "{:>12}   touching pairs over all frames found by mink only: {}, by rapier only: {}",
                "", k.only_mink, k.only_rapier
            );
        }
    }
    println!(
        "threads: {} (rayon global pool)\n",
        rayon::current_num_threads()
    );
}

fn criterion_benches(c: &mut Criterion, cases: &[Case]) {
    for case in cases {
        let mut group = c.benchmark_group(format!("pipeline/{}", case.scene.name));
        group.sample_size(10);
        let big = case.scene.bodies.len() > 2_000;
        group.warm_up_time(Duration::from_millis(if big { 500 } else { 200 }));
        group.measurement_time(Duration::from_millis(if big { 3000 } else { 1000 }));
        let data = MinkSceneData::new(&case.shapes, prediction_distance());
        let mut r = Replays::new(case, &data);
        for (name, side) in [
            ("mink serial", Side::MinkSerial),
            ("mink rayon", Side::MinkRayon),
            ("rapier serial", Side::RapierSerial),
            ("rapier parallel", Side::RapierParallel),
        ] {
            let mut f = 0;
            group.bench_function(name, |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        total += r.frame(side, &case.rec, f);
                        f = (f + 1) % case.rec.len();
                    }
                    total
                })
            });
        }
        group.finish();
    }
}

fn main() {
    let cases = cases();
    table(&cases);
    if std::env::args().any(|a| a == "--table-only") {
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    criterion_benches(&mut c, &cases);
    c.final_summary();
}
