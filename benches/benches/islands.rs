//! mink-islands: island building and hibernation per step.
//!
//! parry3d has no islands (they live in rapier's physics pipeline), so the
//! peer here is the straightforward implementation: a breadth-first search
//! over adjacency lists (compressed rows) rebuilt from the same links,
//! contacts and constraints every step, giving the same partition. The
//! ratio printed is `bfs / mink`.
//!
//! Scenes (f32 velocities):
//! - `random`: `N` links (80% free bodies, 20% articulated children of a
//!   nearby link, a few fixed), `2 N` contacts between uniformly random
//!   links, `N / 100` equality constraints, every link moving (nothing
//!   sleeps): the full cost of a step.
//! - `clusters`: `N` links in stacks of 10 resting on the ground, `2 N`
//!   contacts inside the stacks (a chain plus random extra pairs) and with
//!   the ground. `awake`: every stack moving. `sleep90`: 90% of the stacks
//!   asleep; the step gets only the contacts a broad phase reports (at least
//!   one awake side), as in a real pipeline.
//!
//! Run: `cargo bench -p mink-benches --bench islands`. Before criterion runs,
//! a table of medians is printed (`--table-only` stops there).

use std::collections::VecDeque;
use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use mink_islands::{Islands, IslandsBuf, Link, Params, StepInput, Topology};
use mink_testkit::Rng;

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];
/// Contacts per link.
const CONTACTS_PER_LINK: usize = 2;
/// Links per stack in the cluster scene.
const STACK: usize = 10;
/// Fraction of stacks asleep in `sleep90`.
const ASLEEP_FRACTION: f64 = 0.9;

/// One scene: topology, the step's edges, velocities.
struct Scene {
    links: Vec<Link>,
    len: Vec<f32>,
    vel: Vec<f32>,
    contacts: Vec<[u32; 2]>,
    constraints: Vec<[u32; 2]>,
}

impl Scene {
    fn random(n: usize, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let mut links = Vec::with_capacity(n);
        let mut dofs = 0u32;
        for i in 0..n {
            let link = if rng.chance(0.01) {
                Link::world()
            } else if i > 0 && rng.chance(0.2) {
                Link::child((i - 1 - rng.below(i.min(8))) as u32, dofs, 1)
            } else {
                Link::free(dofs, 6)
            };
            dofs += link.dof_count;
            links.push(link);
        }
        let pair = |rng: &mut Rng| [rng.below(n) as u32, rng.below(n) as u32];
        let contacts = (0..CONTACTS_PER_LINK * n).map(|_| pair(&mut rng)).collect();
        let constraints = (0..n / 100).map(|_| pair(&mut rng)).collect();
        Self {
            links,
            len: vec![0.1; dofs as usize],
            vel: vec![1.0; dofs as usize],
            contacts,
            constraints,
        }
    }

    /// Link 0 is the ground; stacks of `STACK` free bodies follow.
    fn clusters(n: usize, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let mut links = vec![Link::world()];
        let mut contacts = Vec::new();
        let stacks = (n - 1) / STACK;
        for s in 0..stacks {
            let base = 1 + s * STACK;
            for k in 0..STACK {
                links.push(Link::free(6 * (base + k - 1) as u32, 6));
            }
            contacts.push([base as u32, 0]);
            for k in 1..STACK {
                contacts.push([(base + k) as u32, (base + k - 1) as u32]);
            }
            while contacts.len() < CONTACTS_PER_LINK * (base + STACK) {
                let a = base + rng.below(STACK);
                let b = base + rng.below(STACK);
                contacts.push([a as u32, b as u32]);
            }
        }
        let dofs = 6 * (links.len() - 1);
        Self {
            links,
            len: vec![0.1; dofs],
            vel: vec![1.0; dofs],
            contacts,
            constraints: Vec::new(),
        }
    }

    fn topo(&self) -> Topology<'_, f32> {
        Topology::new(&self.links, &self.len).unwrap()
    }

    fn input(&self) -> StepInput<'_, f32> {
        StepInput {
            contacts: &self.contacts,
            constraints: &self.constraints,
            wake: &[],
            dof_vel: &self.vel,
        }
    }

    fn edges(&self) -> usize {
        self.contacts.len() + self.constraints.len()
    }
}

/// The peer: BFS over compressed adjacency rows built every step, then the
/// same outputs as mink: links and contacts grouped island by island
/// (fixed links merge nothing, as in mink). Returns the island count. It
/// keeps no hibernation state (mink's figures include its still counters).
struct Bfs {
    start: Vec<u32>,
    adj: Vec<u32>,
    island: Vec<u32>,
    queue: VecDeque<u32>,
    links_by_island: Vec<u32>,
    contacts_by_island: Vec<u32>,
    offsets: Vec<u32>,
}

impl Bfs {
    fn new() -> Self {
        Self {
            start: Vec::new(),
            adj: Vec::new(),
            island: Vec::new(),
            queue: VecDeque::new(),
            links_by_island: Vec::new(),
            contacts_by_island: Vec::new(),
            offsets: Vec::new(),
        }
    }

    fn step(&mut self, scene: &Scene) -> u32 {
        let n = scene.links.len();
        let moving = |l: u32| !scene.links[l as usize].fixed;
        let kin = scene
            .links
            .iter()
            .enumerate()
            .filter(|(_, l)| l.parent != mink_islands::NO_PARENT)
            .map(|(i, l)| [i as u32, l.parent]);
        let edges = || {
            kin.clone()
                .chain(scene.contacts.iter().copied())
                .chain(scene.constraints.iter().copied())
                .filter(|&[a, b]| moving(a) && moving(b))
        };
        self.start.clear();
        self.start.resize(n + 1, 0);
        for [a, b] in edges() {
            self.start[a as usize + 1] += 1;
            self.start[b as usize + 1] += 1;
        }
        for i in 0..n {
            self.start[i + 1] += self.start[i];
        }
        self.adj.resize(self.start[n] as usize, 0);
        let mut fill = self.start.clone();
        for [a, b] in edges() {
            self.adj[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
            self.adj[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        }
        self.island.clear();
        self.island.resize(n, u32::MAX);
        let mut count = 0;
        self.links_by_island.clear();
        self.offsets.clear();
        for s in 0..n as u32 {
            if !moving(s) || self.island[s as usize] != u32::MAX {
                continue;
            }
            self.offsets.push(self.links_by_island.len() as u32);
            self.island[s as usize] = count;
            self.queue.push_back(s);
            while let Some(x) = self.queue.pop_front() {
                self.links_by_island.push(x);
                let x = x as usize;
                for &y in &self.adj[self.start[x] as usize..self.start[x + 1] as usize] {
                    if self.island[y as usize] == u32::MAX {
                        self.island[y as usize] = count;
                        self.queue.push_back(y);
                    }
                }
            }
            count += 1;
        }
        // Contacts by island: a counting sort on the island of a moving end.
        let owner = |[a, b]: [u32; 2]| {
            if moving(a) {
                self.island[a as usize]
            } else if moving(b) {
                self.island[b as usize]
            } else {
                u32::MAX
            }
        };
        let mut fill = vec![0u32; count as usize + 1];
        for &e in &scene.contacts {
            let id = owner(e);
            if id != u32::MAX {
                fill[id as usize + 1] += 1;
            }
        }
        for i in 0..count as usize {
            fill[i + 1] += fill[i];
        }
        self.contacts_by_island
            .resize(fill[count as usize] as usize, 0);
        for (c, &e) in scene.contacts.iter().enumerate() {
            let id = owner(e);
            if id != u32::MAX {
                self.contacts_by_island[fill[id as usize] as usize] = c as u32;
                fill[id as usize] += 1;
            }
        }
        count
    }
}

/// A state for `scene` after one step (buffers sized).
fn state(scene: &Scene) -> IslandsBuf<f32> {
    let topo = scene.topo();
    let mut s = Islands::owned(&topo, Params::new()).unwrap();
    s.step(&topo, &scene.input()).unwrap();
    s
}

/// The cluster scene with 90% of its stacks asleep, and the contacts a
/// broad phase reports for it (at least one awake side).
fn sleepy(n: usize) -> (Scene, IslandsBuf<f32>) {
    let mut scene = Scene::clusters(n, 9);
    let mut rng = Rng::new(10);
    let stacks = (scene.links.len() - 1) / STACK;
    for s in 0..stacks {
        if rng.chance(ASLEEP_FRACTION) {
            let dofs = 6 * s * STACK..6 * (s + 1) * STACK;
            scene.vel[dofs].fill(0.0);
        }
    }
    let topo = scene.topo();
    let mut state = Islands::owned(&topo, Params::new()).unwrap();
    for _ in 0..mink_islands::SLEEP_STEPS {
        state.step(&topo, &scene.input()).unwrap();
    }
    let kept: Vec<[u32; 2]> = scene
        .contacts
        .iter()
        .copied()
        .filter(|&[a, b]| state.pair_is_active(a, b))
        .collect();
    scene.contacts = kept;
    let sleeping = (1..scene.links.len() as u32)
        .filter(|&l| state.is_asleep(l))
        .count();
    assert!((sleeping as f64) > 0.85 * (scene.links.len() as f64));
    (scene, state)
}

/// This thread's CPU time in ms (Linux: `/proc/thread-self/schedstat`),
/// or NaN where unavailable. Unlike wall time it leaves out the time the
/// thread waits for a core on a loaded machine.
fn cpu_ms() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |ns| ns * 1e-6)
}

/// CPU time measured per call, at least, in ms: the clock ticks in
/// scheduler ticks (a few ms), so calls are repeated until this much has
/// passed.
const CPU_WINDOW_MS: f64 = 250.0;
/// Most calls one CPU-time measurement makes.
const MAX_CPU_CALLS: usize = 1 << 22;

/// Mean CPU time per call, in ms, over at least [`CPU_WINDOW_MS`].
fn mean_cpu_ms(mut f: impl FnMut()) -> f64 {
    f();
    let start = cpu_ms();
    let mut calls = 0;
    while calls < MAX_CPU_CALLS {
        for _ in 0..calls.max(1) {
            f();
        }
        calls += calls.max(1);
        let spent = cpu_ms() - start;
        if spent >= CPU_WINDOW_MS || spent.is_nan() {
            return spent / calls as f64;
        }
    }
    (cpu_ms() - start) / calls as f64
}

/// Median and minimum wall time of `runs` calls, in ms. On a shared
/// machine the minimum is the better estimate of the unloaded cost.
fn time_ms(runs: usize, mut f: impl FnMut()) -> (f64, f64) {
    f();
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (t[runs / 2], t[0])
}

fn runs_for(n: usize) -> usize {
    if n >= 100_000 {
        21
    } else if n >= 10_000 {
        101
    } else {
        501
    }
}

fn table() {
    println!("\nislands, f32; ms per step: wall median (min) of the runs, and mean CPU time;");
    println!("ratio = bfs / mink on wall medians; ns/elem = mink CPU time / (links + edges);");
    println!("/awake = sleep90 / awake on CPU times");
    println!(
        "{:>7} {:>7} | {:>17} {:>7} {:>17} {:>6} {:>7} | {:>17} {:>7} {:>17} {:>7} {:>7}",
        "N",
        "edges",
        "mink random",
        "cpu",
        "bfs random",
        "ratio",
        "ns/elem",
        "clusters awake",
        "cpu",
        "sleep90",
        "cpu",
        "/awake"
    );
    for &n in &SIZES {
        let runs = runs_for(n);
        let scene = Scene::random(n, 7);
        let topo = scene.topo();
        let mut s = state(&scene);
        let mut bfs = Bfs::new();
        assert_eq!(bfs.step(&scene), s.island_count(), "same islands as bfs");
        let mink = time_ms(runs, || {
            black_box(s.step(&topo, &scene.input()).unwrap());
        });
        let mink_cpu = mean_cpu_ms(|| {
            black_box(s.step(&topo, &scene.input()).unwrap());
        });
        let peer = time_ms(runs, || {
            black_box(bfs.step(&scene));
        });
        let elems = (n + scene.edges()) as f64;

        let clusters = Scene::clusters(n, 9);
        let ctopo = clusters.topo();
        let mut cs = state(&clusters);
        let awake = time_ms(runs, || {
            black_box(cs.step(&ctopo, &clusters.input()).unwrap());
        });
        let awake_cpu = mean_cpu_ms(|| {
            black_box(cs.step(&ctopo, &clusters.input()).unwrap());
        });
        let (sl, mut ss) = sleepy(n);
        let stopo = sl.topo();
        let asleep_before = ss.sleeping_island_count();
        let sleep = time_ms(runs, || {
            black_box(ss.step(&stopo, &sl.input()).unwrap());
        });
        let sleep_cpu = mean_cpu_ms(|| {
            black_box(ss.step(&stopo, &sl.input()).unwrap());
        });
        assert_eq!(ss.sleeping_island_count(), asleep_before);
        let pair = |(med, min): (f64, f64)| format!("{med:.3} ({min:.3})");
        println!(
            "{:>7} {:>7} | {:>17} {:>7.3} {:>17} {:>5.2}x {:>7.1} | {:>17} {:>7.3} {:>17} {:>7.3} {:>6.0}%",
            n,
            scene.edges(),
            pair(mink),
            mink_cpu,
            pair(peer),
            peer.0 / mink.0,
            mink_cpu * 1e6 / elems,
            pair(awake),
            awake_cpu,
            pair(sleep),
            sleep_cpu,
            100.0 * sleep_cpu / awake_cpu
        );
    }
    println!();
}

fn criterion_benches(c: &mut Criterion) {
    for &n in &SIZES {
        let mut group = c.benchmark_group(format!("islands/{n}"));
        group.sample_size(10);
        group.measurement_time(std::time::Duration::from_millis(if n >= 100_000 {
            1500
        } else {
            500
        }));
        group.warm_up_time(std::time::Duration::from_millis(200));
        let scene = Scene::random(n, 7);
        let topo = scene.topo();
        let mut s = state(&scene);
        group.bench_function("mink random", |b| {
            b.iter(|| black_box(s.step(&topo, &scene.input()).unwrap()))
        });
        let mut bfs = Bfs::new();
        group.bench_function("bfs random", |b| b.iter(|| black_box(bfs.step(&scene))));
        let clusters = Scene::clusters(n, 9);
        let ctopo = clusters.topo();
        let mut cs = state(&clusters);
        group.bench_function("mink clusters awake", |b| {
            b.iter(|| black_box(cs.step(&ctopo, &clusters.input()).unwrap()))
        });
        let (sl, mut ss) = sleepy(n);
        let stopo = sl.topo();
        group.bench_function("mink clusters 90% asleep", |b| {
            b.iter(|| black_box(ss.step(&stopo, &sl.input()).unwrap()))
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
