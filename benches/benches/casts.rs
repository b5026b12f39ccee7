//! Ray casts and shape casts, mink against parry3d 0.31, same process, same
//! shapes, rays and motions, f32.
//!
//! Shapes: sphere r 0.5; box half-extents (0.5, 0.4, 0.3); capsule
//! half-length 0.5, r 0.25; cylinder half-length 0.5, r 0.4; cone
//! half-length 0.5, r 0.4; hulls of 32 and 200 random points on the unit
//! sphere. parry's cylinders and cones run along y, so their poses carry a
//! fixed rotation taking y to mink's z.
//!
//! - **Rays**: 1,024 rays a shape, each against the shape at a random pose
//!   (centre within 1 m of the origin, any rotation), from a point 2 to 4 m
//!   from its centre towards a point within 0.8 m of it (most hit, some
//!   graze or miss), unit direction, unbounded, solid. mink:
//!   `mink::ray_cast` on a `Body` of `mink::Shape` (enum dispatch
//!   included); parry3d: `cast_ray_and_get_normal` (both return the hit's
//!   time, and mink also its point, with the normal).
//! - **Linear casts**: the six pairs of the GJK table, 1,024 motions a pair:
//!   B at a random pose 1.5 to 3 sizes from A, A translated by 1 to 2 times
//!   the offset to B plus a lateral offset of up to 0.8 sizes (about three
//!   in four hit). mink: `mink::shape_cast` (target distance 0); parry3d:
//!   `query::cast_shapes` with the same translation as velocity over
//!   `[0, 1]`.
//! - **Rotating casts**: the same motions with A also turning by 0.5 to 1.5
//!   rad about a random axis through its origin (mink: end pose's rotation;
//!   parry3d: `cast_shapes_nonlinear` with the same angular velocity, local
//!   centre at the origin: the same motion). The error of both is stated
//!   against a dense reference: 2,000 evenly spaced f64 distance queries
//!   along the motion, the first contact refined by bisection, on the first
//!   256 motions of each pair; a verdict is wrong when it says miss where
//!   the reference touches before the last 0.1 mm of the path, or hit where
//!   the reference never touches and the bodies are more than 1 mm apart
//!   at the reported time (mink stops at the target distance plus its
//!   tolerance, about 0.5 mm here).
//! - **Scene rays**: 10,000 rays through a scene of 1,000 static geometries
//!   (the shapes above, mixed, in a 40 m cube): rays per second through
//!   `SceneBuf::ray_cast` serial and `par_ray_cast` with rayon, and the
//!   same rays cast against every geometry one by one.
//!
//! Each time is the mean over the set and the median of 15 interleaved
//! samples of both libraries; the ratio is parry's time over mink's (above
//! 1: mink faster). Run: `cargo bench -p mink-benches --bench casts`.

use std::hint::black_box;
use std::time::Instant;

use mink::cast::{CastStatus, ShapeCast};
use mink::collider::Collider;
use mink::islands::Link;
use mink::query::{distance, Body, Method};
use mink::ray::{Ray, RayStatus};
use mink::scene::{GeomDesc, QueryFilter, SceneBuf, SceneConfig, SceneDesc, SceneInput};
use mink::{ray_cast, shape_cast, Shape};
use mink_benches::peer::{ppose, pv, y_to_z};
use mink_support::{Capsule, Cone, ConvexHull, Cuboid, Cylinder, Iso3, Mat3, Sphere, Vec3};
use mink_testkit::Rng;
use parry3d::math::{Pose, Vec3 as PVec3};
use parry3d::query::{self, NonlinearRigidMotion, Ray as PRay, ShapeCastOptions};
use parry3d::shape::{self as pshape, Shape as PShape};

const N: usize = 1024;
const SAMPLES: usize = 15;
/// Motions of each pair checked against the dense reference.
const CHECKED: usize = 256;
/// Evenly spaced samples of the dense reference.
const DENSE: usize = 2000;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Median ns per item of `a` and `b` (each runs all `n` items),
/// interleaved samples.
fn paired(n: usize, mut a: impl FnMut() -> f32, mut b: impl FnMut() -> f32) -> (f64, f64) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..SAMPLES {
        let t = Instant::now();
        black_box(a());
        ta.push(t.elapsed().as_nanos() as f64 / n as f64);
        let t = Instant::now();
        black_box(b());
        tb.push(t.elapsed().as_nanos() as f64 / n as f64);
    }
    (median(&mut ta), median(&mut tb))
}

/// One shape of both libraries: mink's (f32 and f64), parry's, and the
/// rotation that takes parry's frame to mink's.
struct Geo<'a> {
    name: &'static str,
    mink: Shape<'a, f32>,
    wide: Shape<'a, f64>,
    peer: &'a dyn PShape,
    fix: Mat3<f32>,
}

/// A ray of each library.
fn rays(rng: &mut Rng) -> Vec<(Iso3<f32>, Ray<f32>)> {
    (0..N)
        .map(|_| {
            let pose: Iso3<f32> = rng.pose(1.0);
            let o = pose.translation + rng.unit_vec::<f32>() * rng.range::<f32>(2.0, 4.0);
            let aim = pose.translation + rng.unit_vec::<f32>() * rng.range::<f32>(0.0, 0.8);
            (pose, Ray::new(o, (aim - o).normalize_or(Vec3::X)))
        })
        .collect()
}

struct RayRow {
    name: &'static str,
    mink: f64,
    parry: f64,
    hits: usize,
    disagree: usize,
    worst_toi: f64,
}

fn bench_rays(rng: &mut Rng, g: &Geo<'_>) -> RayRow {
    let set = rays(rng);
    let peer: Vec<(Pose, PRay)> = set
        .iter()
        .map(|(p, r)| (ppose(p, &g.fix), PRay::new(pv(r.origin), pv(r.dir))))
        .collect();
    let mink_one = |(pose, ray): &(Iso3<f32>, Ray<f32>)| {
        ray_cast(&Body::new(&g.mink, *pose), ray, f32::MAX, true)
    };
    let peer_one = |(pose, ray): &(Pose, PRay)| {
        g.peer
            .cast_ray_and_get_normal(pose, ray, f32::MAX, true)
            .map(|h| h.time_of_impact)
    };
    // Agreement: hit or miss, and the time of the hit.
    let (mut hits, mut disagree, mut worst_toi) = (0, 0, 0.0f64);
    for (m, p) in set.iter().zip(&peer) {
        let (a, b) = (mink_one(m), peer_one(p));
        match (a.is_hit(), b) {
            (true, Some(t)) => {
                hits += 1;
                worst_toi = worst_toi.max(f64::from((a.toi - t).abs()));
            }
            (false, None) => {}
            _ => disagree += 1,
        }
    }
    let (mink, parry) = paired(
        N,
        || set.iter().fold(0.0, |acc, c| acc + mink_one(c).toi),
        || {
            peer.iter()
                .fold(0.0, |acc, c| acc + peer_one(c).unwrap_or(0.0))
        },
    );
    RayRow {
        name: g.name,
        mink,
        parry,
        hits,
        disagree,
        worst_toi,
    }
}

/// A motion: A's start and end poses, B's (still) pose.
#[derive(Clone, Copy)]
struct Motion {
    a0: Iso3<f32>,
    a1: Iso3<f32>,
    b: Iso3<f32>,
}

fn motions(rng: &mut Rng, reach: f32, turning: bool) -> Vec<Motion> {
    (0..N)
        .map(|_| {
            let a0: Iso3<f32> = rng.pose(1.0);
            let mut b: Iso3<f32> = rng.pose(0.0);
            b.translation =
                a0.translation + rng.unit_vec::<f32>() * (reach * rng.range::<f32>(1.5, 3.0));
            let lateral = rng.unit_vec::<f32>() * (reach * rng.range::<f32>(0.0, 0.8));
            let travel = (b.translation - a0.translation + lateral) * rng.range::<f32>(1.0, 2.0);
            let rotation = if turning {
                let axis = rng.unit_vec::<f32>();
                Mat3::from_axis_angle(axis, rng.range::<f32>(0.5, 1.5)).mul_mat(&a0.rotation)
            } else {
                a0.rotation
            };
            Motion {
                a0,
                a1: Iso3::from_parts(rotation, a0.translation + travel),
                b,
            }
        })
        .collect()
}

/// parry3d's angular velocity (world frame, rad over the unit time) for
/// the turn from `r0` to `r1`.
fn angular_velocity(r0: &Mat3<f32>, r1: &Mat3<f32>) -> PVec3 {
    let turn = Iso3::from_parts(r1.mul_mat(&r0.transpose()), Vec3::ZERO).quat();
    let (x, y, z, w) = (turn.x, turn.y, turn.z, turn.w);
    let s = (x * x + y * y + z * z).sqrt();
    if s == 0.0 {
        return PVec3::ZERO;
    }
    let angle = 2.0 * s.atan2(w);
    PVec3::new(x / s * angle, y / s * angle, z / s * angle)
}

fn mink_cast(a: &Geo<'_>, b: &Geo<'_>, m: &Motion) -> ShapeCast<f32> {
    shape_cast(
        &Body::new(&a.mink, m.a0),
        &m.a1,
        &Body::new(&b.mink, m.b),
        &m.b,
        0.0,
    )
}

/// parry3d's cast of the same motion: its time over `[0, 1]`, or `None`.
fn peer_cast(a: &Geo<'_>, b: &Geo<'_>, m: &Motion, turning: bool) -> Option<f32> {
    let (pa, pb) = (ppose(&m.a0, &a.fix), ppose(&m.b, &b.fix));
    let vel = pv(m.a1.translation - m.a0.translation);
    let hit = if turning {
        let ma = NonlinearRigidMotion::new(
            pa,
            PVec3::ZERO,
            vel,
            angular_velocity(&m.a0.rotation, &m.a1.rotation),
        );
        let mb = NonlinearRigidMotion::constant_position(pb);
        query::cast_shapes_nonlinear(&ma, a.peer, &mb, b.peer, 0.0, 1.0, true)
    } else {
        query::cast_shapes(
            &pa,
            vel,
            a.peer,
            &pb,
            PVec3::ZERO,
            b.peer,
            ShapeCastOptions::with_max_time_of_impact(1.0),
        )
    };
    hit.ok().flatten().map(|h| h.time_of_impact)
}

/// The f64 distance between A and B at time `t` of the motion.
fn gap_at(a: &Geo<'_>, b: &Geo<'_>, m: &Motion, t: f64) -> f64 {
    let motion = mink::cast::Motion::new(m.a0.cast::<f64>(), m.a1.cast::<f64>());
    distance(
        &Body::new(&a.wide, motion.at(t)),
        &Body::new(&b.wide, m.b.cast::<f64>()),
        Method::Auto,
    )
    .distance
}

/// The dense reference: the first time in `[0, 1]` at which A and B (f64)
/// touch, from [`DENSE`] evenly spaced distance queries refined by
/// bisection, and the length of A's path (meters, its origin's
/// translation plus its farthest point's turn) to state errors in.
fn reference(a: &Geo<'_>, b: &Geo<'_>, m: &Motion) -> (Option<f64>, f64) {
    let gap = |t: f64| gap_at(a, b, m, t);
    let turn = {
        let r = m.a1.rotation.mul_mat(&m.a0.rotation.transpose());
        let trace = f64::from(r.x_axis.x + r.y_axis.y + r.z_axis.z);
        ((trace - 1.0) * 0.5).clamp(-1.0, 1.0).acos()
    };
    let path = f64::from((m.a1.translation - m.a0.translation).norm()) + turn * 1.0;
    if gap(0.0) <= 0.0 {
        return (Some(0.0), path);
    }
    let mut prev = 0.0;
    for k in 1..=DENSE {
        let t = k as f64 / DENSE as f64;
        if gap(t) <= 0.0 {
            let (mut lo, mut hi) = (prev, t);
            for _ in 0..40 {
                let mid = 0.5 * (lo + hi);
                if gap(mid) <= 0.0 {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return (Some(hi), path);
        }
        prev = t;
    }
    (None, path)
}

struct CastRow {
    name: String,
    mink: f64,
    parry: f64,
    hits: usize,
    /// Worst error in meters of path, mink and parry3d, against the dense
    /// reference (`None`: no motion of the set hit).
    mink_error: f64,
    parry_error: f64,
    /// Motions where a library's hit/miss verdict differs from the
    /// reference's.
    mink_wrong: usize,
    parry_wrong: usize,
}

fn bench_casts(rng: &mut Rng, a: &Geo<'_>, b: &Geo<'_>, reach: f32, turning: bool) -> CastRow {
    let set = motions(rng, reach, turning);
    let (mut mink_error, mut parry_error, mut mink_wrong, mut parry_wrong, mut hits) =
        (0.0f64, 0.0f64, 0, 0, 0);
    for m in set.iter().take(CHECKED) {
        let (truth, path) = reference(a, b, m);
        let cast = mink_cast(a, b, m);
        let mine = match cast.status {
            CastStatus::Hit | CastStatus::Initial => Some(f64::from(cast.toi)),
            _ => None,
        };
        let theirs = peer_cast(a, b, m, turning).map(f64::from);
        // A contact at the very end of the motion may be either answer,
        // and so may a hit where the reference never touches but comes
        // within the cast's tolerance (mink's: 1.2e-4 of the scene's
        // size in f32, about 5e-4 m here; it stops at the target plus
        // that, never late).
        let judge = |got: Option<f64>, error: &mut f64, wrong: &mut usize| match (truth, got) {
            (Some(t), Some(g)) => *error = error.max((g - t).abs() * path),
            (None, None) => {}
            (Some(t), None) if (1.0 - t) * path < 1e-4 => {}
            (None, Some(g)) if gap_at(a, b, m, g) < 1e-3 => {}
            _ => {
                *wrong += 1;
                let gap = got.map(|g| gap_at(a, b, m, g));
                eprintln!(
                    "{}-{}: verdict {got:?} (gap there {gap:?}) against the reference's {truth:?}; \
                     mink's cast {:?} at {} after {} steps",
                    a.name, b.name, cast.status, cast.toi, cast.iterations
                );
            }
        };
        judge(mine, &mut mink_error, &mut mink_wrong);
        judge(theirs, &mut parry_error, &mut parry_wrong);
        hits += usize::from(truth.is_some());
    }
    let (mink, parry) = paired(
        N,
        || set.iter().fold(0.0, |acc, m| acc + mink_cast(a, b, m).toi),
        || {
            set.iter().fold(0.0, |acc, m| {
                acc + peer_cast(a, b, m, turning).unwrap_or(0.0)
            })
        },
    );
    CastRow {
        name: format!("{}-{}", a.name, b.name),
        mink,
        parry,
        hits,
        mink_error,
        parry_error,
        mink_wrong,
        parry_wrong,
    }
}

/// Rays per second through a scene of 1,000 static geometries: serial,
/// with rayon, and by casting against every geometry.
fn scene_rays(rng: &mut Rng, shapes: &[&Geo<'_>]) {
    const GEOMS: usize = 1000;
    const RAYS: usize = 10_000;
    const HALF: f64 = 20.0;
    let colliders: Vec<Collider<'_, f32>> = (0..GEOMS)
        .map(|i| Collider::from(shapes[i % shapes.len()].mink))
        .collect();
    let poses: Vec<Iso3<f32>> = (0..GEOMS)
        .map(|_| {
            let mut p: Iso3<f32> = rng.pose(0.0);
            p.translation = rng.in_cube::<f32>(HALF);
            p
        })
        .collect();
    let geoms: Vec<GeomDesc<'_, f32>> = colliders
        .iter()
        .zip(&poses)
        .map(|(c, p)| GeomDesc::new(*c, 0).with_pose(*p))
        .collect();
    let links = [Link::world()];
    let desc = SceneDesc::new(&geoms, &links, &[], &[]).expect("a valid scene");
    let mut scene = SceneBuf::new(desc, SceneConfig::new()).expect("a valid scene");
    scene
        .step(&SceneInput::new(&[Iso3::IDENTITY], &[] as &[f32]))
        .expect("a scene step");
    let rays: Vec<Ray<f32>> = (0..RAYS)
        .map(|_| {
            let o = rng.in_cube::<f32>(HALF * 1.2);
            let aim = rng.in_cube::<f32>(HALF);
            Ray::new(o, (aim - o).normalize_or(Vec3::X))
        })
        .collect();
    let filter = QueryFilter::ALL;
    let brute = |ray: &Ray<f32>| {
        let mut best: Option<(u32, f32)> = None;
        for (i, (c, p)) in colliders.iter().zip(&poses).enumerate() {
            let h = c.ray_cast(p, ray, f32::MAX, true);
            if matches!(h.status, RayStatus::Hit | RayStatus::Inside)
                && best.is_none_or(|(_, t)| h.toi < t)
            {
                best = Some((i as u32, h.toi));
            }
        }
        best
    };
    // The scene's nearest hit is the brute force's, on every ray.
    let mut hits = 0;
    for ray in &rays {
        let s = scene.ray_cast(ray, f32::MAX, true, &filter);
        let b = brute(ray);
        match (s, b) {
            (Some(s), Some((g, t))) => {
                assert!(
                    s.geom == g || (s.toi - t).abs() <= 1e-4 * (1.0 + t),
                    "scene hit {s:?} against geometry {g} at {t}"
                );
                hits += 1;
            }
            (None, None) => {}
            other => panic!("scene and brute force disagree: {other:?}"),
        }
    }
    let mut out = vec![None; RAYS];
    let time = |f: &mut dyn FnMut()| {
        let mut t = Vec::new();
        for _ in 0..5 {
            let start = Instant::now();
            f();
            t.push(start.elapsed().as_secs_f64());
        }
        median(&mut t)
    };
    let serial = time(&mut || {
        for (o, ray) in out.iter_mut().zip(&rays) {
            *o = scene.ray_cast(ray, f32::MAX, true, &filter);
        }
        black_box(&out);
    });
    let parallel = time(&mut || {
        scene.par_ray_cast(&rays, f32::MAX, true, &filter, &mut out);
        black_box(&out);
    });
    let brute_time = time(&mut || {
        for ray in rays.iter().take(RAYS / 10) {
            black_box(brute(ray));
        }
    }) * 10.0;
    println!(
        "\nscene rays: {RAYS} rays through {GEOMS} static geometries in a {:.0} m cube ({hits} hit), \
         f32, rays per second (median of 5 runs)",
        HALF * 2.0
    );
    println!("{:<28} {:>14}", "query", "rays/s");
    println!(
        "{:<28} {:>14.0}",
        "SceneBuf::ray_cast",
        RAYS as f64 / serial
    );
    println!(
        "{:<28} {:>14.0}   ({} threads)",
        "SceneBuf::par_ray_cast",
        RAYS as f64 / parallel,
        rayon::current_num_threads()
    );
    println!(
        "{:<28} {:>14.0}",
        "every geometry, one by one",
        RAYS as f64 / brute_time
    );
}

fn main() {
    let mut rng = Rng::new(30);
    let id = Mat3::IDENTITY;
    let hull_of = |rng: &mut Rng, n: usize| {
        let pts: Vec<Vec3<f32>> = rng.points_on_sphere(n, 1.0);
        let hull = ConvexHull::from_points(&pts).unwrap();
        let ppts: Vec<PVec3> = hull.view().vertices().iter().map(|p| pv(*p)).collect();
        let peer = pshape::ConvexPolyhedron::from_convex_hull(&ppts).unwrap();
        let wide: Vec<Vec3<f64>> = hull.view().vertices().iter().map(|p| p.cast()).collect();
        let hull64 = ConvexHull::<f64>::from_points(&wide).unwrap();
        (hull, peer, hull64)
    };
    let (h32, p_h32, w32) = hull_of(&mut rng, 32);
    let (h200, p_h200, w200) = hull_of(&mut rng, 200);

    let p_ball = pshape::Ball::new(0.5);
    let p_cube = pshape::Cuboid::new(PVec3::new(0.5, 0.4, 0.3));
    let p_capsule = pshape::Capsule::new_z(0.5, 0.25);
    let p_cyl = pshape::Cylinder::new(0.5, 0.4);
    let p_cone = pshape::Cone::new(0.5, 0.4);
    let sphere = Geo {
        name: "sphere",
        mink: Shape::Sphere(Sphere::new(0.5).unwrap()),
        wide: Shape::Sphere(Sphere::new(0.5).unwrap()),
        peer: &p_ball,
        fix: id,
    };
    let cube = Geo {
        name: "box",
        mink: Shape::Cuboid(Cuboid::new(Vec3::new(0.5, 0.4, 0.3)).unwrap()),
        wide: Shape::Cuboid(Cuboid::new(Vec3::new(0.5, 0.4, 0.3)).unwrap()),
        peer: &p_cube,
        fix: id,
    };
    let capsule = Geo {
        name: "capsule",
        mink: Shape::Capsule(Capsule::new(0.25, 0.5).unwrap()),
        wide: Shape::Capsule(Capsule::new(0.25, 0.5).unwrap()),
        peer: &p_capsule,
        fix: id,
    };
    let cylinder = Geo {
        name: "cylinder",
        mink: Shape::Cylinder(Cylinder::new(0.4, 0.5).unwrap()),
        wide: Shape::Cylinder(Cylinder::new(0.4, 0.5).unwrap()),
        peer: &p_cyl,
        fix: y_to_z(),
    };
    let cone = Geo {
        name: "cone",
        mink: Shape::Cone(Cone::new(0.4, 0.5).unwrap()),
        wide: Shape::Cone(Cone::new(0.4, 0.5).unwrap()),
        peer: &p_cone,
        fix: y_to_z(),
    };
    let hull32 = Geo {
        name: "hull32",
        mink: Shape::Hull(h32.view()),
        wide: Shape::Hull(w32.view()),
        peer: &p_h32,
        fix: id,
    };
    let hull200 = Geo {
        name: "hull200",
        mink: Shape::Hull(h200.view()),
        wide: Shape::Hull(w200.view()),
        peer: &p_h200,
        fix: id,
    };

    println!(
        "ray casts, mink vs parry3d 0.31, f32, ns per ray (mean over {N} rays, median of {SAMPLES} samples)"
    );
    println!(
        "{:<10} {:>8} {:>9} {:>8} {:>6} {:>9} {:>10}",
        "shape", "mink", "parry3d", "speedup", "hits", "disagree", "worst dt"
    );
    for g in [
        &sphere, &cube, &capsule, &cylinder, &cone, &hull32, &hull200,
    ] {
        let r = bench_rays(&mut rng, g);
        println!(
            "{:<10} {:>8.1} {:>9.1} {:>7.2}x {:>6} {:>9} {:>10.1e}",
            r.name,
            r.mink,
            r.parry,
            r.parry / r.mink,
            r.hits,
            r.disagree,
            r.worst_toi
        );
    }

    let pairs: [(&Geo<'_>, &Geo<'_>, f32); 6] = [
        (&cube, &cube, 1.4),
        (&sphere, &cube, 1.2),
        (&capsule, &capsule, 1.5),
        (&cylinder, &cylinder, 1.3),
        (&hull32, &hull32, 2.0),
        (&hull200, &hull200, 2.0),
    ];
    for turning in [false, true] {
        let (title, peer) = if turning {
            ("rotating shape casts", "cast_shapes_nonlinear")
        } else {
            ("linear shape casts", "cast_shapes")
        };
        println!(
            "\n{title}, mink::shape_cast vs parry3d's {peer}, f32, ns per cast (mean over {N} motions, \
             median of {SAMPLES} samples); error against the dense f64 reference on {CHECKED} motions \
             (meters of A's path; wrong: hit/miss verdicts that differ from it)"
        );
        println!(
            "{:<18} {:>8} {:>9} {:>8} {:>5} {:>10} {:>10} {:>6} {:>6}",
            "pair", "mink", "parry3d", "speedup", "hits", "mink err", "parry err", "wrong", "wrong"
        );
        for (a, b, reach) in pairs {
            let r = bench_casts(&mut rng, a, b, reach, turning);
            println!(
                "{:<18} {:>8.0} {:>9.0} {:>7.2}x {:>5} {:>10.1e} {:>10.1e} {:>6} {:>6}",
                r.name,
                r.mink,
                r.parry,
                r.parry / r.mink,
                r.hits,
                r.mink_error,
                r.parry_error,
                r.mink_wrong,
                r.parry_wrong
            );
        }
    }

    scene_rays(
        &mut rng,
        &[
            &sphere, &cube, &capsule, &cylinder, &cone, &hull32, &hull200,
        ],
    );
}
