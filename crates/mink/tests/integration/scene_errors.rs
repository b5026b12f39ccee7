//! Every capacity and bad input is an error that names it: the pair budget,
//! a full contact buffer (with the number dropped), short inputs, short
//! storage, non-finite poses, bad descriptions. Nothing panics.

use crate::scene_common;

use mink::broadphase::BroadPhaseError;
use mink::islands::{Link, TopologyError};
use mink::scene::{
    DescError, GeomDesc, Scene, SceneBuf, SceneCapacity, SceneConfig, SceneDesc, SceneError,
    SceneInput,
};
use mink::support::{Iso3, Real, Sphere, Vec3};
use mink::Shape;
use mink_testkit::for_each_real;
use scene_common::Store;

/// Three balls on three free links, all overlapping: three pairs, one
/// contact each.
fn three_balls<R: Real>() -> ([Link; 3], [R; 18]) {
    (
        [Link::free(0, 6), Link::free(6, 6), Link::free(12, 6)],
        [R::ONE; 18],
    )
}

fn poses<R: Real>() -> [Iso3<R>; 3] {
    let at = |x: f64| Iso3::from_translation(Vec3::new(R::lit(x), R::ZERO, R::ZERO));
    [at(0.0), at(0.5), at(1.0)]
}

fn capacities_are_errors<R: Real>() {
    let (links, dof_length) = three_balls::<R>();
    let ball: Shape<'_, R> = Sphere::new(R::lit(0.6)).unwrap().into();
    let geoms = [
        GeomDesc::new(ball, 0),
        GeomDesc::new(ball, 1),
        GeomDesc::new(ball, 2),
    ];
    let desc = SceneDesc::new(&geoms, &links, &dof_length, &[]).unwrap();
    let (poses, vel) = (poses::<R>(), [R::ZERO; 18]);
    let input = SceneInput::new(&poses, &vel);

    // Unbounded: three pairs, three contacts.
    let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
    let report = scene.step(&input).unwrap();
    assert_eq!((report.broadphase_pairs, report.contacts), (3, 3));

    // Pair budget of 2.
    let mut scene = SceneBuf::new(desc, SceneConfig::new())
        .unwrap()
        .with_pair_budget(2);
    assert_eq!(scene.pair_budget(), Some(2));
    assert_eq!(
        scene.step(&input),
        Err(SceneError::BroadPhase(BroadPhaseError::PairBudget {
            found: 3,
            kept: 2
        }))
    );
    // Contact capacity of 1: two dropped, and said so.
    let mut scene = SceneBuf::new(desc, SceneConfig::new())
        .unwrap()
        .with_contact_capacity(1);
    let err = scene.step(&input).unwrap_err();
    assert_eq!(err, SceneError::ContactCapacity { found: 3, kept: 1 });
    assert!(format!("{err}").contains("2 dropped"));
    assert_eq!(scene.contacts().len(), 1);

    // The same on caller storage.
    let cap = |pairs, contacts| SceneCapacity {
        geoms: 3,
        links: 3,
        constraints: 0,
        pairs,
        contacts,
    };
    let mut store = Store::<R>::new(cap(2, 8));
    let mut fixed = Scene::new(desc, store.buffers(), SceneConfig::new()).unwrap();
    assert_eq!(fixed.pair_budget(), 2);
    assert_eq!(
        fixed.step(&input),
        Err(SceneError::BroadPhase(BroadPhaseError::PairBudget {
            found: 3,
            kept: 2
        }))
    );
    let mut store = Store::<R>::new(cap(8, 2));
    let mut fixed = Scene::new(desc, store.buffers(), SceneConfig::new()).unwrap();
    assert_eq!(
        fixed.step(&input),
        Err(SceneError::ContactCapacity { found: 3, kept: 2 })
    );
    // Room enough: the step succeeds, as the owning scene's.
    let mut store = Store::<R>::new(cap(3, 3));
    let mut fixed = Scene::new(desc, store.buffers(), SceneConfig::new()).unwrap();
    assert_eq!(fixed.step(&input).unwrap(), report);
}
for_each_real!(capacities_are_errors, capacities_are_errors);

fn bad_inputs_are_errors<R: Real>() {
    let (links, dof_length) = three_balls::<R>();
    let ball: Shape<'_, R> = Sphere::new(R::lit(0.6)).unwrap().into();
    let geoms = [
        GeomDesc::new(ball, 0),
        GeomDesc::new(ball, 1),
        GeomDesc::new(ball, 2),
    ];
    let desc = SceneDesc::new(&geoms, &links, &dof_length, &[]).unwrap();
    let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
    let vel = [R::ZERO; 18];
    let mut poses = poses::<R>();

    // Short inputs.
    assert_eq!(
        scene.step(&SceneInput::new(&poses[..2], &vel)),
        Err(SceneError::InputTooShort {
            input: "link_poses",
            needed: 3,
            given: 2
        })
    );
    assert_eq!(
        scene.step(&SceneInput::new(&poses, &vel[..5])),
        Err(SceneError::InputTooShort {
            input: "dof_vel",
            needed: 18,
            given: 5
        })
    );
    // A non-finite pose: refused by the broad phase, naming the geometry.
    poses[1].translation.x = R::nan();
    assert_eq!(
        scene.step(&SceneInput::new(&poses, &vel)),
        Err(SceneError::BroadPhase(BroadPhaseError::InvalidAabb {
            geom: 1
        }))
    );
    poses[1].translation.x = R::INFINITY;
    assert!(scene.step(&SceneInput::new(&poses, &vel)).is_err());
    // A wake request naming no link.
    let poses = self::poses::<R>();
    let input = SceneInput {
        wake: &[7],
        ..SceneInput::new(&poses, &vel)
    };
    assert!(matches!(scene.step(&input), Err(SceneError::Islands(_))));
    // The scene still works afterwards.
    assert_eq!(
        scene.step(&SceneInput::new(&poses, &vel)).unwrap().contacts,
        3
    );

    // Short caller storage is refused, naming the buffer.
    let mut store = Store::<R>::new(SceneCapacity {
        geoms: 2,
        links: 3,
        constraints: 0,
        pairs: 4,
        contacts: 4,
    });
    assert!(matches!(
        Scene::new(desc, store.buffers(), SceneConfig::new()),
        Err(SceneError::StorageTooSmall {
            buffer: "geoms",
            needed: 3,
            given: 2
        })
    ));
}
for_each_real!(bad_inputs_are_errors, bad_inputs_are_errors);

fn bad_descriptions_are_errors<R: Real>() {
    let (links, dof_length) = three_balls::<R>();
    let ball: Shape<'_, R> = Sphere::new(R::lit(0.6)).unwrap().into();
    let on = |l| GeomDesc::new(ball, l);
    let check = |geoms: &[GeomDesc<'_, R>], constraints: &[[u32; 2]], want: DescError| {
        let got = SceneDesc::new(geoms, &links, &dof_length, constraints).map(|_| ());
        assert_eq!(got, Err(want));
    };
    check(
        &[on(0), on(3)],
        &[],
        DescError::GeomLinkOutOfRange { geom: 1 },
    );
    check(
        &[on(0).with_margin(R::lit(-0.1))],
        &[],
        DescError::BadMargin { geom: 0 },
    );
    check(
        &[on(0).with_margin(R::nan())],
        &[],
        DescError::BadMargin { geom: 0 },
    );
    let mut bad_pose = Iso3::IDENTITY;
    bad_pose.translation.y = R::INFINITY;
    check(
        &[on(1).with_pose(bad_pose)],
        &[],
        DescError::BadLocalPose { geom: 0 },
    );
    check(
        &[on(0)],
        &[[0, 1], [2, 3]],
        DescError::ConstraintOutOfRange { index: 1 },
    );
    // The topology's own checks.
    let parent_after = [Link::child(1, 0, 1), Link::free(1, 6)];
    let got = SceneDesc::<R>::new(&[], &parent_after, &dof_length, &[]).map(|_| ());
    assert_eq!(
        got,
        Err(DescError::Topology(TopologyError::ParentNotBefore {
            link: 0
        }))
    );
}
for_each_real!(bad_descriptions_are_errors, bad_descriptions_are_errors);
