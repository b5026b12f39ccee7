//! Contact queries and filters on hand-built scenes: a box on a plane gives
//! exactly the direct `collide` contacts, oriented per link; filtered pairs
//! (same link, parent–child, masks) give none; entity queries follow
//! Genesis' `get_contacts(with_entity, exclude_self_contact)`.

use mink::contact::MAX_MANIFOLD_POINTS;
use mink::islands::Link;
use mink::scene::{EntityFilter, GeomDesc, SceneBuf, SceneConfig, SceneDesc, SceneInput};
use mink::support::{Cuboid, HalfSpace, Iso3, Real, Sphere, Vec3};
use mink::{collide, ContactParams, Shape};
use mink_testkit::for_each_real;

fn v<R: Real>(x: f64, y: f64, z: f64) -> Vec3<R> {
    Vec3::new(R::lit(x), R::lit(y), R::lit(z))
}

fn at<R: Real>(x: f64, y: f64, z: f64) -> Iso3<R> {
    Iso3::from_translation(v(x, y, z))
}

fn box_on_plane<R: Real>() {
    let links = [Link::world(), Link::free(0, 6)];
    let dof_length = [R::ONE; 6];
    let plane: Shape<'_, R> = HalfSpace::new(Vec3::Z, R::ZERO).unwrap().into();
    let cube: Shape<'_, R> = Cuboid::new(v(0.5, 0.4, 0.3)).unwrap().into();
    let geoms = [GeomDesc::new(plane, 0), GeomDesc::new(cube, 1)];
    let desc = SceneDesc::new(&geoms, &links, &dof_length, &[]).unwrap();
    let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
    let poses = [Iso3::IDENTITY, at(0.0, 0.0, 0.29)];
    let vel = [R::ZERO; 6];
    let report = scene.step(&SceneInput::new(&poses, &vel)).unwrap();

    // Exactly the contacts of the direct call, however many the manifold
    // holds.
    let mut direct = Vec::new();
    let n = collide(
        &geoms[0].collider,
        &poses[0],
        &geoms[1].collider,
        &poses[1],
        &ContactParams::new(),
        MAX_MANIFOLD_POINTS,
        |p| direct.push(p),
    );
    assert!(n >= 1);
    assert_eq!(scene.contacts().len(), n);
    assert_eq!(report.contacts, n);
    assert_eq!(report.pairs_in_contact, 1);
    let tol = R::lit(1e-4);
    for (c, p) in scene.contacts().iter().zip(&direct) {
        assert_eq!((c.geom_a, c.geom_b, c.link_a, c.link_b), (0, 1, 0, 1));
        assert_eq!(
            (c.position, c.normal, c.depth),
            (p.position, p.normal, p.depth)
        );
        // Plane (A) towards box (B): up; 1 cm deep.
        assert!((c.normal - Vec3::Z).norm() < tol);
        assert!((c.depth - R::lit(0.01)).abs() < tol);
    }
    // Seen from the box, the normal points down into the plane.
    let of_box: Vec<_> = scene.contacts_of(1).collect();
    assert_eq!(of_box.len(), n);
    for c in &of_box {
        assert_eq!((c.link_a, c.link_b), (1, 0));
        assert!((c.normal + Vec3::Z).norm() < tol);
    }
    assert_eq!(scene.contacts_between(1, 0).count(), n);
    assert_eq!(scene.contacts_between(0, 1).count(), n);
    assert!(scene.contacts_between(0, 1).all(|c| c.link_a == 0));
}
for_each_real!(box_on_plane, box_on_plane);

fn filtered_pairs_give_no_contact<R: Real>() {
    // Link 1: free; link 2: child of 1; link 3: free; link 4: free.
    let links = [
        Link::world(),
        Link::free(0, 6),
        Link::child(1, 6, 1),
        Link::free(7, 6),
        Link::free(13, 6),
    ];
    let dof_length = [R::ONE; 19];
    let ball: Shape<'_, R> = Sphere::new(R::lit(0.5)).unwrap().into();
    let geoms = [
        GeomDesc::new(ball, 1),
        // Overlaps geom 0, on the child link: parent–child, dropped.
        GeomDesc::new(ball, 2),
        // Two geometries on link 3, overlapping each other: same link.
        GeomDesc::new(ball, 3),
        GeomDesc::new(ball, 3).with_pose(at(0.2, 0.0, 0.0)),
        // Link 4 overlaps link 3 but its masks do not match (2/2 vs 1/1).
        GeomDesc::new(ball, 4).with_masks(2, 2),
    ];
    let desc = SceneDesc::new(&geoms, &links, &dof_length, &[]).unwrap();
    let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
    let poses = [
        Iso3::IDENTITY,
        at(0.0, 0.0, 0.0),
        at(0.3, 0.0, 0.0),
        at(5.0, 0.0, 0.0),
        at(5.5, 0.0, 0.0),
    ];
    let vel = [R::ZERO; 19];
    let report = scene.step(&SceneInput::new(&poses, &vel)).unwrap();
    assert_eq!(report.broadphase_pairs, 0);
    assert!(scene.contacts().is_empty());

    // The same scene with every filter off reports all four overlaps.
    let mut config = SceneConfig::new();
    config.filters = mink::broadphase::Filters::NONE;
    let mut open = SceneBuf::new(desc, config).unwrap();
    open.step(&SceneInput::new(&poses, &vel)).unwrap();
    let mut pairs: Vec<_> = open
        .contacts()
        .iter()
        .map(|c| (c.geom_a, c.geom_b))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    assert_eq!(pairs, [(0, 1), (2, 3), (2, 4), (3, 4)]);
}
for_each_real!(
    filtered_pairs_give_no_contact,
    filtered_pairs_give_no_contact
);

fn entity_queries<R: Real>() {
    // Entity 1: an arm of links 1 (root, free), 2 and 3 (a chain).
    // Entity 4: a free ball touching the arm's tip.
    let links = [
        Link::world(),
        Link::free(0, 6),
        Link::child(1, 6, 1),
        Link::child(2, 7, 1),
        Link::free(8, 6),
    ];
    let dof_length = [R::ONE; 14];
    let ball: Shape<'_, R> = Sphere::new(R::lit(0.5)).unwrap().into();
    let geoms = [
        GeomDesc::new(ball, 1),
        GeomDesc::new(ball, 2),
        GeomDesc::new(ball, 3),
        GeomDesc::new(ball, 4),
    ];
    let desc = SceneDesc::new(&geoms, &links, &dof_length, &[]).unwrap();
    assert_eq!(desc.root_of(3), 1);
    assert_eq!(desc.root_of(4), 4);
    let mut scene = SceneBuf::new(desc, SceneConfig::new()).unwrap();
    // Links 1 and 3 overlap (not adjacent: a self-contact); 1–2 and 2–3 are
    // adjacent (filtered) and 3 touches the ball on link 4.
    let poses = [
        Iso3::IDENTITY,
        at(0.0, 0.0, 0.0),
        at(0.0, 3.0, 0.0),
        at(0.8, 0.0, 0.0),
        at(1.6, 0.0, 0.0),
    ];
    let vel = [R::ZERO; 14];
    scene.step(&SceneInput::new(&poses, &vel)).unwrap();
    let links_of = |it: &mut dyn Iterator<Item = mink::scene::Contact<R>>| {
        let mut v: Vec<_> = it.map(|c| (c.link_a, c.link_b)).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let all = EntityFilter::default();
    assert_eq!(
        links_of(&mut scene.contacts_of_entity(1, all)),
        [(1, 3), (3, 4)]
    );
    let no_self = EntityFilter {
        exclude_self_contact: true,
        ..all
    };
    assert_eq!(
        links_of(&mut scene.contacts_of_entity(1, no_self)),
        [(3, 4)]
    );
    let only_self = EntityFilter {
        with_entity: Some(1),
        ..all
    };
    assert_eq!(
        links_of(&mut scene.contacts_of_entity(1, only_self)),
        [(1, 3)]
    );
    // From the ball's side, oriented with the ball as A.
    assert_eq!(links_of(&mut scene.contacts_of_entity(4, all)), [(4, 3)]);
    let with_arm = EntityFilter {
        with_entity: Some(1),
        exclude_self_contact: true,
    };
    assert_eq!(
        links_of(&mut scene.contacts_of_entity(4, with_arm)),
        [(4, 3)]
    );
    let self_contacts = scene
        .contacts()
        .iter()
        .filter(|c| scene.is_self_contact(c))
        .count();
    assert_eq!(self_contacts, scene.contacts_between(1, 3).count());
    assert!(self_contacts >= 1);
}
for_each_real!(entity_queries, entity_queries);
