//! Signed-distance-field benchmarks on a 5,000-triangle torus (f32): build
//! time (one thread and rayon) and bytes at 32³, 64³ and 128³; ns per
//! distance-and-gradient query; torus–torus contacts from the fields
//! (`mesh_mesh_contacts`) against parry3d's TriMesh–TriMesh contact
//! manifolds (`DefaultQueryDispatcher::contact_manifolds`, a fresh
//! workspace per call) on the same touching poses.
//!
//! `cargo bench -p mink-benches --bench sdf` (about a minute). The summary
//! table, timed in this process, is printed first; a short criterion run
//! follows.

use std::f32::consts::TAU;
use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use mink_sdf::{mesh_mesh_contacts, Contact, OwnedSdf, SdfBody, SdfOptions, TriMesh};
use mink_support::{Iso3, Mat3, Vec3};
use mink_testkit::Rng;
use parry3d::math::{Pose, Vec3 as PVec3};
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry3d::shape::TriMesh as PTriMesh;

const MAJOR: f32 = 1.0;
const MINOR: f32 = 0.3;
const AROUND: usize = 100;
const ACROSS: usize = 25;
const POSES: usize = 64;
const MARGIN: f32 = 0.01;
const QUERIES: usize = 4096;

fn torus() -> (Vec<Vec3<f32>>, Vec<[u32; 3]>) {
    let mut v = Vec::new();
    for i in 0..AROUND {
        let u = TAU * i as f32 / AROUND as f32;
        for j in 0..ACROSS {
            let w = TAU * j as f32 / ACROSS as f32;
            let r = MAJOR + MINOR * w.cos();
            v.push(Vec3::new(r * u.cos(), r * u.sin(), MINOR * w.sin()));
        }
    }
    let id = |i: usize, j: usize| ((i % AROUND) * ACROSS + j % ACROSS) as u32;
    let mut t = Vec::new();
    for i in 0..AROUND {
        for j in 0..ACROSS {
            t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    (v, t)
}

fn ppose(p: &Iso3<f32>) -> Pose {
    let q = p.quat();
    let rot = parry3d::glamx::Rot3::from_xyzw(q.x, q.y, q.z, q.w).normalize();
    Pose::from_parts(
        PVec3::new(p.translation.x, p.translation.y, p.translation.z),
        rot,
    )
}

/// Seconds of the fastest of `n` runs.
fn best_of(n: usize, mut f: impl FnMut()) -> f64 {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Median µs per pose of each closure over all poses, interleaved.
fn timed<const N: usize>(mut fs: [&mut dyn FnMut() -> usize; N]) -> [f64; N] {
    let mut t: [Vec<f64>; N] = std::array::from_fn(|_| Vec::new());
    for _ in 0..9 {
        for (f, ts) in fs.iter_mut().zip(t.iter_mut()) {
            let start = Instant::now();
            black_box(f());
            ts.push(start.elapsed().as_secs_f64() * 1e6 / POSES as f64);
        }
    }
    std::array::from_fn(|i| {
        t[i].sort_by(f64::total_cmp);
        t[i][t[i].len() / 2]
    })
}

/// Linked tori whose tubes press about 1 cm into each other: B in a plane
/// through A's axis (tilted a little at random), its tube through A's
/// hole against A's inner side.
fn poses(rng: &mut Rng) -> Vec<Iso3<f32>> {
    (0..POSES)
        .map(|_| {
            let tilt = Mat3::from_axis_angle(rng.unit_vec::<f32>(), rng.range(0.0, 0.15));
            let rot = tilt.mul_mat(&Mat3::from_axis_angle(Vec3::X, std::f32::consts::FRAC_PI_2));
            let x = 2.0 * MAJOR - 2.0 * MINOR + 0.01 - rng.range::<f32>(0.0, 0.02);
            Iso3::from_parts(
                rot,
                Vec3::new(x, rng.range(-0.05, 0.05), rng.range(-0.05, 0.05)),
            )
        })
        .collect()
}

fn main() {
    let (v, t) = torus();
    let mesh = TriMesh::new(&v, &t).unwrap();
    println!(
        "torus: {} vertices, {} triangles, {} edges",
        mesh.vertices().len(),
        mesh.triangles().len(),
        mesh.edges().len()
    );

    println!(
        "\nbuild, s (one thread | rayon on this machine's cores); bytes of f32 samples\n{:>5} {:>14} {:>10} {:>10} {:>12}",
        "res", "dims", "serial", "rayon", "bytes"
    );
    let mut fields = Vec::new();
    for res in [32u32, 64, 128] {
        let opts = SdfOptions::new(res, 0.05);
        let runs = if res == 128 { 1 } else { 3 };
        let serial = best_of(runs, || {
            black_box(OwnedSdf::build_serial(&mesh, opts).unwrap());
        });
        let parallel = best_of(runs, || {
            black_box(OwnedSdf::build(&mesh, opts).unwrap());
        });
        let f = OwnedSdf::build(&mesh, opts).unwrap();
        let d = f.grid().dims;
        println!(
            "{res:>5} {:>14} {serial:>10.3} {parallel:>10.3} {:>12}",
            format!("{}x{}x{}", d[0], d[1], d[2]),
            f.view().sample_bytes()
        );
        fields.push(f);
    }

    let mut rng = Rng::new(12);
    let points: Vec<Vec3<f32>> = (0..QUERIES)
        .map(|_| {
            Vec3::new(
                rng.range(-1.4, 1.4),
                rng.range(-1.4, 1.4),
                rng.range(-0.4, 0.4),
            )
        })
        .collect();
    let view = fields[1].view();
    let q_ns = best_of(20, || {
        let mut acc = 0.0f32;
        for &p in &points {
            let (d, g) = view.distance_and_gradient(black_box(p));
            acc += d + g.x;
        }
        black_box(acc);
    }) * 1e9
        / QUERIES as f64;
    println!("\nquery (64³, distance and gradient): {q_ns:.1} ns");

    let set = poses(&mut rng);
    let pverts: Vec<PVec3> = mesh
        .vertices()
        .iter()
        .map(|p| PVec3::new(p.x, p.y, p.z))
        .collect();
    let ptri = PTriMesh::new(pverts, mesh.triangles().to_vec()).unwrap();
    let pset: Vec<Pose> = set.iter().map(ppose).collect();
    let dispatcher = DefaultQueryDispatcher;
    println!(
        "\ntorus-torus contacts, µs per pose ({POSES} linked poses, ~1 cm deep, margin {MARGIN} m)\n{:>5} {:>10} {:>10} {:>8} {:>12} {:>12}",
        "res", "mink", "parry", "parry/m", "mink points", "parry points"
    );
    for f in &fields {
        let body = SdfBody::new(mesh.view(), f.view());
        let zero = Contact {
            point_a: Vec3::ZERO,
            point_b: Vec3::ZERO,
            normal: Vec3::X,
            distance: 0.0,
        };
        let mut mink = || {
            let mut out = [zero; 8];
            set.iter()
                .map(|pb| mesh_mesh_contacts(&body, &Iso3::IDENTITY, &body, pb, MARGIN, &mut out))
                .sum::<usize>()
        };
        let mut parry = || {
            pset.iter()
                .map(|p| {
                    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
                    let mut ws = None;
                    dispatcher
                        .contact_manifolds(p, &ptri, &ptri, MARGIN, &mut manifolds, &mut ws)
                        .unwrap();
                    manifolds.iter().map(|m| m.points.len()).sum::<usize>()
                })
                .sum::<usize>()
        };
        let (mp, pp) = (mink(), parry());
        let [tm, tp] = timed([&mut mink, &mut parry]);
        let res = f.grid().dims.iter().copied().max().unwrap();
        println!(
            "{res:>5} {tm:>10.1} {tp:>10.1} {:>8.2} {:>12.1} {:>12.1}",
            tp / tm,
            mp as f64 / POSES as f64,
            pp as f64 / POSES as f64
        );
    }

    let mut c = Criterion::default().configure_from_args().sample_size(20);
    let body = SdfBody::new(mesh.view(), fields[1].view());
    c.bench_function("sdf/query_64", |b| {
        b.iter(|| view.distance_and_gradient(black_box(points[7])))
    });
    c.bench_function("sdf/torus_torus_64", |b| {
        let zero = Contact {
            point_a: Vec3::ZERO,
            point_b: Vec3::ZERO,
            normal: Vec3::X,
            distance: 0.0,
        };
        let mut out = [zero; 8];
        b.iter(|| mesh_mesh_contacts(&body, &Iso3::IDENTITY, &body, &set[0], MARGIN, &mut out))
    });
    c.final_summary();
}
