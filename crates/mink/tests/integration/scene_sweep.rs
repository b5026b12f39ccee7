//! `SceneBuf::sweep`, the continuous check of a scene's motion, against
//! references that share no code with the advancement:
//! - random scenes of mixed convex shapes on a ground half-space, every
//!   moving link turned and moved between two pose sets: each pair the
//!   filter rule (written out in `scene_common`) keeps is sampled densely
//!   along the motion with the umbrella's distance query; a pair that
//!   comes within the clearance at a sample is a hit no later than that
//!   sample, a hit is at the clearance at its time, and no hit names a
//!   pair the samples (and the hit's own time) show clear;
//! - a ball through a flat terrain and through a thin plate mesh in one
//!   step, where neither end pose touches: the closed-form time;
//! - a ball wholly inside a mesh at the start: an `Initial` contact.
//!
//! Seeded, f32 and f64.

use crate::scene_common::{may_collide, random_hulls, random_scene};
use mink::cast::{CastStatus, Motion};
use mink::islands::Link;
use mink::query::Status;
use mink::scene::{GeomDesc, SceneBuf, SceneConfig, SceneDesc, SweepHit};
use mink::sdf::{OwnedSdf, SdfBody, SdfOptions, TriMesh};
use mink::support::{Cuboid, HeightField, Iso3, Mat3, Real, Sphere, Vec3};
use mink::{distance, Body, Method, Shape};
use mink_testkit::{for_each_real, Rng};

/// Samples of each pair's motion.
const SAMPLES: usize = 200;

/// Tolerance of the distances here (scenes of about 2 m).
fn tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS > 30 {
        1e-6
    } else {
        4e-3
    }
}

fn random_scenes_against_sampling<R: Real>() {
    let mut rng = Rng::new(0x30_5ee9);
    let hulls = random_hulls::<R>(&mut rng, 6);
    let t = tol::<R>();
    let (mut hits, mut initial, mut clear) = (0, 0, 0);
    for case in 0..60 {
        let s = random_scene::<R>(&mut rng, &hulls);
        let desc = SceneDesc::new(&s.geoms, &s.links, &s.dof_length, &[]).unwrap();
        let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
        let start = s.poses.clone();
        let end: Vec<Iso3<R>> = start
            .iter()
            .enumerate()
            .map(|(l, p)| {
                if l == 0 {
                    *p
                } else {
                    let turn = Mat3::from_axis_angle(rng.unit_vec::<R>(), rng.range(0.0, 2.5));
                    Iso3::from_parts(
                        turn.mul_mat(&p.rotation),
                        p.translation + rng.in_cube::<R>(0.8),
                    )
                }
            })
            .collect();
        let clearance = if case % 2 == 0 { 0.0 } else { 0.05 };
        let mut found: Vec<SweepHit<R>> = Vec::new();
        let report = scene
            .sweep(&start, &end, R::lit(clearance), &mut found)
            .unwrap();
        assert_eq!(report.unsupported_pairs, 0);
        assert_eq!(report.hits, found.len());
        assert!(
            found.windows(2).all(|w| w[0].toi <= w[1].toi),
            "case {case}: not sorted"
        );
        let n = s.geoms.len();
        for i in 0..n {
            for j in i + 1..n {
                if !may_collide(&desc, i, j) {
                    assert!(!found
                        .iter()
                        .any(|h| (h.geom_a, h.geom_b) == (i as u32, j as u32)));
                    continue;
                }
                let (gi, gj) = (&s.geoms[i], &s.geoms[j]);
                fn shape<'g, 's, R: Real>(g: &'g GeomDesc<'s, R>) -> &'g Shape<'s, R> {
                    match &g.collider {
                        mink::Collider::Convex(s) => s,
                        _ => unreachable!(),
                    }
                }
                let (si, sj) = (shape(gi), shape(gj));
                let motion = |g: &GeomDesc<'_, R>| {
                    Motion::new(
                        start[g.link as usize].mul(&g.local_pose),
                        end[g.link as usize].mul(&g.local_pose),
                    )
                };
                let (mi, mj) = (motion(gi), motion(gj));
                // The distance at `u`, when settled.
                let at = |u: f64| {
                    let p = distance(
                        &Body::new(si, mi.at(R::lit(u))),
                        &Body::new(sj, mj.at(R::lit(u))),
                        Method::Auto,
                    );
                    matches!(p.status, Status::Exact | Status::Converged)
                        .then(|| p.distance.to_f64())
                };
                let hit = found
                    .iter()
                    .find(|h| (h.geom_a, h.geom_b) == (i as u32, j as u32));
                let what = format!(
                    "case {case} pair ({i} {}, {j} {}) clearance {clearance}: {hit:?}",
                    si.name(),
                    sj.name()
                );
                let first_close = (0..=SAMPLES)
                    .map(|k| k as f64 / SAMPLES as f64)
                    .find(|&u| at(u).is_some_and(|d| d < clearance - t));
                match (hit, first_close) {
                    (None, Some(u)) => panic!("{what}: within the clearance at {u}, no hit"),
                    (Some(h), close) => {
                        let toi = h.toi.to_f64();
                        if let Some(u) = close {
                            assert!(toi <= u + 1e-9, "{what}: late, close at {u}");
                        }
                        assert_eq!(h.link_a, gi.link, "{what}");
                        match h.status {
                            CastStatus::Initial => {
                                initial += 1;
                                assert_eq!(toi, 0.0, "{what}");
                                if let Some(d) = at(0.0) {
                                    assert!(d <= clearance + t, "{what}: starts {d} apart");
                                }
                            }
                            CastStatus::Hit => {
                                hits += 1;
                                if let Some(d) = at(toi) {
                                    assert!(
                                        (d - clearance).abs() <= t,
                                        "{what}: {d} apart at its time"
                                    );
                                }
                                // Clear before it.
                                for k in 0..50 {
                                    let u = toi * k as f64 / 50.0;
                                    if let Some(d) = at(u) {
                                        assert!(d >= clearance - t, "{what}: {d} apart at {u}");
                                    }
                                }
                            }
                            CastStatus::IterationLimit => {}
                            other => panic!("{what}: {other:?}"),
                        }
                    }
                    (None, None) => clear += 1,
                }
            }
        }
    }
    assert!(
        hits > 40 && initial > 20 && clear > 200,
        "{hits} hits, {initial} initial, {clear} clear"
    );
}
for_each_real!(
    random_scenes_against_sampling,
    random_scenes_against_sampling
);

/// A ball falling through a flat terrain and through a 1 cm plate mesh in
/// one step: at both ends it touches nothing, the sweep finds the
/// crossing at the closed-form time.
fn tunnelling_ball<R: Real>() {
    let heights = [R::lit(0.3); 25];
    let field = HeightField::new(&heights, 5, 5, R::HALF, R::HALF, R::lit(0.01)).unwrap();
    let plate =
        TriMesh::from_cuboid(&Cuboid::new(Vec3::new(R::ONE, R::ONE, R::lit(0.005))).unwrap())
            .unwrap();
    let sdf = OwnedSdf::build(&plate, SdfOptions::new(16, R::lit(0.05))).unwrap();
    let ball: Shape<'_, R> = Sphere::new(R::lit(0.05)).unwrap().into();
    let links = [Link::world(), Link::free(0, 6)];
    let dof = [R::ONE; 6];
    for terrain in [true, false] {
        let ground = if terrain {
            GeomDesc::new(field, 0)
        } else {
            GeomDesc::new(SdfBody::new(plate.view(), sdf.view()), 0).with_pose(
                Iso3::from_translation(Vec3::new(R::ONE, R::ONE, R::lit(0.3))),
            )
        };
        let geoms = [ground, GeomDesc::new(ball, 1)];
        let desc = SceneDesc::new(&geoms, &links, &dof, &[]).unwrap();
        let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
        // From 0.5 m above the surface (z = 0.3) to 0.5 m below it.
        let at = |z: f64| Iso3::from_translation(Vec3::new(R::lit(1.1), R::lit(0.9), R::lit(z)));
        let (start, end) = ([Iso3::IDENTITY, at(0.8)], [Iso3::IDENTITY, at(-0.2)]);
        let mut hits = Vec::new();
        let report = scene.sweep(&start, &end, R::ZERO, &mut hits).unwrap();
        assert_eq!(report.unsupported_pairs, 0, "terrain {terrain}");
        assert_eq!(hits.len(), 1, "terrain {terrain}: {hits:?}");
        let h = hits[0];
        assert_eq!(h.status, CastStatus::Hit);
        // The ball's bottom (z - 0.05) reaches 0.3 (terrain top) or 0.305
        // (plate top) after falling 0.45 or 0.445 of 1 m.
        let expect = if terrain { 0.45 } else { 0.445 };
        assert!(
            (h.toi.to_f64() - expect).abs() < tol::<R>() * 10.0,
            "terrain {terrain}: {h:?}"
        );
        // From A (the ground) towards B (the ball above it).
        assert!(
            (h.normal.cast::<f64>() - Vec3::new(0.0, 0.0, 1.0)).norm() < 1e-2,
            "{h:?}"
        );
    }
    // A ball wholly inside a block's mesh at the start: `Initial`.
    let block = TriMesh::from_cuboid(&Cuboid::new(Vec3::splat(R::HALF)).unwrap()).unwrap();
    let sdf = OwnedSdf::build(&block, SdfOptions::new(16, R::lit(0.05))).unwrap();
    let geoms = [
        GeomDesc::new(SdfBody::new(block.view(), sdf.view()), 0),
        GeomDesc::new(ball, 1),
    ];
    let desc = SceneDesc::new(&geoms, &links, &dof, &[]).unwrap();
    let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
    let inside = Iso3::from_translation(Vec3::new(R::lit(0.1), R::ZERO, R::ZERO));
    let mut hits = Vec::new();
    scene
        .sweep(
            &[Iso3::IDENTITY, inside],
            &[Iso3::IDENTITY, inside],
            R::ZERO,
            &mut hits,
        )
        .unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].status, CastStatus::Initial);
    // Bad input.
    assert!(scene
        .sweep(
            &[Iso3::IDENTITY],
            &[Iso3::IDENTITY, inside],
            R::ZERO,
            &mut hits
        )
        .is_err());
    assert!(scene
        .sweep(
            &[Iso3::IDENTITY, inside],
            &[Iso3::IDENTITY, inside],
            -R::ONE,
            &mut hits
        )
        .is_err());
}
for_each_real!(tunnelling_ball, tunnelling_ball);
