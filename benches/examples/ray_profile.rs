//! A fixed loop of ray casts against one primitive, mink's or parry3d's,
//! for instruction counts (the same rays and poses as the `casts` bench):
//!
//! ```sh
//! cargo build --release -p mink-benches --example ray_profile
//! valgrind --tool=callgrind target/release/examples/ray_profile sphere mink
//! valgrind --tool=callgrind target/release/examples/ray_profile sphere parry
//! ```
//!
//! Shapes: `sphere`, `box`, `capsule` (the bench's sizes); 2,000 passes over
//! 1,024 rays, so the total divided by 2,048,000 is the count per cast
//! (setup is under 0.1% of it).

use mink::query::Body;
use mink::ray::Ray;
use mink::support::{Capsule, Cuboid, Iso3, Mat3, Sphere, Vec3};
use mink::{ray_cast, Shape};
use mink_benches::peer::{ppose, pv};
use mink_testkit::Rng;
use parry3d::math::{Pose, Vec3 as PVec3};
use parry3d::query::Ray as PRay;
use parry3d::shape::{Ball, Capsule as PCapsule, Cuboid as PCuboid, Shape as PShape};
use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (which, lib) = match args.as_slice() {
        [_, which, lib] => (which.as_str(), lib.as_str()),
        _ => {
            eprintln!("usage: ray_profile sphere|box|capsule mink|parry");
            std::process::exit(2);
        }
    };
    let mut rng = Rng::new(7);
    let set: Vec<(Iso3<f32>, Ray<f32>)> = (0..1024)
        .map(|_| {
            let pose: Iso3<f32> = rng.pose(1.0);
            let o = pose.translation + rng.unit_vec::<f32>() * rng.range::<f32>(2.0, 4.0);
            let aim = pose.translation + rng.unit_vec::<f32>() * rng.range::<f32>(0.0, 0.8);
            (pose, Ray::new(o, (aim - o).normalize_or(Vec3::X)))
        })
        .collect();
    let (shape, peer): (Shape<'_, f32>, Box<dyn PShape>) = match which {
        "sphere" => (Sphere::new(0.5).unwrap().into(), Box::new(Ball::new(0.5))),
        "box" => (
            Cuboid::new(Vec3::new(0.5, 0.4, 0.3)).unwrap().into(),
            Box::new(PCuboid::new(PVec3::new(0.5, 0.4, 0.3))),
        ),
        _ => (
            Capsule::new(0.25, 0.5).unwrap().into(),
            Box::new(PCapsule::new_z(0.5, 0.25)),
        ),
    };
    let pset: Vec<(Pose, PRay)> = set
        .iter()
        .map(|(p, r)| {
            (
                ppose(p, &Mat3::IDENTITY),
                PRay::new(pv(r.origin), pv(r.dir)),
            )
        })
        .collect();
    let mut acc = 0.0f32;
    for _ in 0..2000 {
        if lib == "mink" {
            for (pose, ray) in &set {
                acc += ray_cast(&Body::new(&shape, *pose), black_box(ray), f32::MAX, true).toi;
            }
        } else {
            for (pose, ray) in &pset {
                acc += peer
                    .cast_ray_and_get_normal(pose, black_box(ray), f32::MAX, true)
                    .map_or(0.0, |h| h.time_of_impact);
            }
        }
    }
    println!("{acc}");
}
