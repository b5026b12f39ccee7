//! Round trips through JSON: shapes, results, contacts and a whole scene,
//! checked against the queries' own answers on the originals (feature
//! `serde`; an integration test, so it links the entry points' instances
//! that the `mink` library compiled instead of compiling its own).

use mink::contact::{contact_manifold, ContactParams, ContactPoint, Manifold, Patch};
use mink::islands::{Link, NO_PARENT};
use mink::owned::{OwnedGeomDesc, OwnedSceneDesc, OwnedShape};
use mink::query::{distance, intersect, penetration, Body, Method};
use mink::scene::{SceneBuf, SceneConfig, SceneDesc, SceneInput};
use mink::support::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Ellipsoid, HalfSpace, Iso3, Point, Quat, Real,
    Rounded, Segment, Sphere, TerrainPrism, Triangle, Vec3,
};
use mink::Shape;
use mink_testkit::json_round_trip;
use serde::de::DeserializeOwned;
use serde::Serialize;

fn v<R: Real>(x: f64, y: f64, z: f64) -> Vec3<R> {
    Vec3::new(R::lit(x), R::lit(y), R::lit(z))
}

/// A hull of 40 points on a slightly squashed sphere (deterministic).
fn hull<R: Real>() -> ConvexHull<R> {
    let points: Vec<Vec3<R>> = (0..40)
        .map(|i| {
            let t = f64::from(i) * 2.399_963;
            let z = 1.0 - 2.0 * (f64::from(i) + 0.5) / 40.0;
            let r = (1.0 - z * z).sqrt();
            v(0.4 * r * t.cos(), 0.3 * r * t.sin(), 0.35 * z)
        })
        .collect();
    ConvexHull::from_points(&points).unwrap()
}

/// One owned shape of every variant of the shape list.
fn every_shape<R: Real>() -> Vec<OwnedShape<R>> {
    let l = R::lit;
    let tri = [v(0.0, 0.0, 0.1), v(0.5, 0.0, 0.0), v(0.0, 0.4, -0.1)];
    vec![
        Point.into(),
        Sphere::new(l(0.3)).unwrap().into(),
        Cuboid::new(v(0.5, 0.4, 0.3)).unwrap().into(),
        Capsule::new(l(0.25), l(0.5)).unwrap().into(),
        Segment::new(v(-0.3, 0.1, 0.0), v(0.4, -0.2, 0.1))
            .unwrap()
            .into(),
        Rounded::new(Cuboid::new(v(0.3, 0.2, 0.1)).unwrap(), l(0.05))
            .unwrap()
            .into(),
        Ellipsoid::new(v(0.5, 0.3, 0.2)).unwrap().into(),
        Cylinder::new(l(0.4), l(0.5)).unwrap().into(),
        Cone::new(l(0.4), l(0.5)).unwrap().into(),
        Triangle::new(tri[0], tri[1], tri[2]).unwrap().into(),
        TerrainPrism::new(tri, l(-0.5)).unwrap().into(),
        hull::<R>().into(),
        HalfSpace::new(v(0.1, 0.2, 1.0), l(0.05)).unwrap().into(),
    ]
}

fn shapes_round_trip_with_the_same_answers<R: Real + Serialize + DeserializeOwned>() {
    let shapes = every_shape::<R>();
    let probe: Shape<'_, R> = Capsule::new(R::lit(0.2), R::lit(0.3)).unwrap().into();
    let rotation = Quat::from_axis_angle(v(0.6, 0.0, 0.8), R::lit(0.7));
    for (i, owned) in shapes.iter().enumerate() {
        let text = json_round_trip(owned);
        let shape = owned.as_shape();
        // The borrowed shape writes the same text, and reads back as it.
        assert_eq!(serde_json::to_string(&shape).unwrap(), text);
        let read: OwnedShape<R> = serde_json::from_str(&text).unwrap();
        assert_eq!(OwnedShape::from_shape(&shape).unwrap(), read);
        // Every query answers the same on the shape read back.
        let read_shape = read.as_shape();
        for k in 0..6 {
            let t = v(0.35 * f64::from(k) - 0.6, 0.1, 0.2 - 0.05 * f64::from(k));
            let pose = Iso3::from_quat(t, rotation).unwrap();
            let a = Body::new(&shape, Iso3::IDENTITY);
            let a2 = Body::new(&read_shape, Iso3::IDENTITY);
            let b = Body::new(&probe, pose);
            assert_eq!(
                distance(&a, &b, Method::Auto),
                distance(&a2, &b, Method::Auto),
                "{i}"
            );
            assert_eq!(
                penetration(&a, &b, Method::Auto),
                penetration(&a2, &b, Method::Auto)
            );
            assert_eq!(
                intersect(&a, &b, Method::Auto),
                intersect(&a2, &b, Method::Auto)
            );
            let params = ContactParams::new();
            let m = contact_manifold(&a, &b, &params);
            assert_eq!(m, contact_manifold(&a2, &b, &params));
            json_round_trip(&m);
            json_round_trip(&distance(&a, &b, Method::Auto));
            json_round_trip(&intersect(&a, &b, Method::Auto));
        }
    }
}

#[test]
fn shapes_round_trip_with_the_same_answers_f32() {
    shapes_round_trip_with_the_same_answers::<f32>();
}

#[test]
fn shapes_round_trip_with_the_same_answers_f64() {
    shapes_round_trip_with_the_same_answers::<f64>();
}

/// The documented format, written by hand.
#[test]
fn shapes_read_from_hand_written_json() {
    let s: OwnedShape<f64> = serde_json::from_str(r#"{"sphere": {"radius": 0.5}}"#).unwrap();
    assert_eq!(s, OwnedShape::Sphere(Sphere::new(0.5).unwrap()));
    let s: OwnedShape<f32> = serde_json::from_str(
        r#"{"rounded_cuboid": {"inner": {"half_extents": [1, 1, 1]}, "margin": 0.1}}"#,
    )
    .unwrap();
    assert_eq!(s.as_shape().inflation(), 0.1);
    let cube = r#"{"hull": {"vertices": [[0,0,0],[1,0,0],[0,1,0],[1,1,0],
                                          [0,0,1],[1,0,1],[0,1,1],[1,1,1],[0.5,0.5,0.5]]}}"#;
    let OwnedShape::<f64>::Hull(h) = serde_json::from_str(cube).unwrap() else {
        panic!("not a hull");
    };
    assert_eq!((h.view().vertex_count(), h.view().face_count()), (8, 6));
    assert!(serde_json::from_str::<OwnedShape<f64>>(r#"{"sphere": {"radius": -1}}"#).is_err());
    assert!(serde_json::from_str::<OwnedShape<f64>>(r#"{"custom": 1}"#).is_err());
    assert!(serde_json::from_str::<OwnedShape<f64>>(r#"{"teapot": {}}"#).is_err());
    let p: OwnedShape<f64> = serde_json::from_str(r#"{"point": null}"#).unwrap();
    assert_eq!(p, OwnedShape::Point(Point));
}

#[test]
fn manifolds_hold_at_most_four_points() {
    let point = ContactPoint {
        position: v::<f64>(1.0, 2.0, 3.0),
        normal: Vec3::Z,
        depth: 0.01,
    };
    let four = serde_json::to_string(&[point; 4]).unwrap();
    let m: Manifold<f64> = serde_json::from_str(&four).unwrap();
    assert_eq!(m.as_slice(), &[point; 4]);
    let five = serde_json::to_string(&[point; 5]).unwrap();
    assert!(serde_json::from_str::<Manifold<f64>>(&five).is_err());
    json_round_trip(&Manifold::<f32>::new());
}

#[test]
fn settings_and_reports_round_trip() {
    json_round_trip(&SceneConfig::<f64>::new());
    json_round_trip(&ContactParams::<f32> {
        margin: 0.01,
        method: Method::Mpr,
    });
    for patch in [Patch::Auto, Patch::Perturb, Patch::Single] {
        json_round_trip(&patch);
    }
    let config: SceneConfig<f32> =
        serde_json::from_str(&serde_json::to_string(&SceneConfig::<f32>::new()).unwrap()).unwrap();
    assert_eq!(config, SceneConfig::new());
    let sat = mink::sat::Manifold::<f64> {
        status: mink::sat::ManifoldStatus::Ok,
        normal: Vec3::Z,
        feature: mink::sat::SatFeature::EdgePair(3, 4),
        separation: -0.01,
        points: heapless::Vec::new(),
        counters: mink::sat::SatCounters::default(),
    };
    json_round_trip(&sat);
    json_round_trip(&mink::gjk::GjkSettings::<f64>::default());
    json_round_trip(&mink::mpr::MprSettings::default());
}

/// Two stacked boxes and a ball on a fixed floor, as an engine would keep
/// them in a file.
fn scene_file<R: Real>() -> OwnedSceneDesc<R> {
    let free = |dof_start| Link {
        parent: NO_PARENT,
        fixed: false,
        dof_start,
        dof_count: 6,
    };
    let floor = Link {
        parent: NO_PARENT,
        fixed: true,
        dof_start: 0,
        dof_count: 0,
    };
    let geom = |shape: OwnedShape<R>, link| OwnedGeomDesc {
        shape,
        link,
        local_pose: Iso3::IDENTITY,
        contype: 1,
        conaffinity: 1,
        margin: R::lit(0.01),
    };
    OwnedSceneDesc {
        geoms: vec![
            geom(HalfSpace::new(Vec3::Z, R::ZERO).unwrap().into(), 0),
            geom(Cuboid::new(v(0.5, 0.5, 0.25)).unwrap().into(), 1),
            geom(hull::<R>().into(), 2),
            geom(Sphere::new(R::lit(0.2)).unwrap().into(), 3),
        ],
        links: vec![floor, free(0), free(6), free(12)],
        dof_length: vec![R::ONE; 18],
        constraints: vec![[1, 2]],
        config: SceneConfig::new(),
    }
}

fn scenes_round_trip_with_the_same_contacts<R: Real + Serialize + DeserializeOwned>() {
    let file = scene_file::<R>();
    let text = json_round_trip(&file);
    let read: OwnedSceneDesc<R> = serde_json::from_str(&text).unwrap();
    let poses = [
        Iso3::IDENTITY,
        Iso3::from_translation(v(0.0, 0.0, 0.24)),
        Iso3::from_quat(
            v(0.1, 0.0, 0.8),
            Quat::from_axis_angle(Vec3::X, R::lit(0.3)),
        )
        .unwrap(),
        Iso3::from_translation(v(0.6, 0.0, 0.19)),
    ];
    let vel = vec![R::ZERO; 18];
    let mut contacts = Vec::new();
    for scene in [&file, &read] {
        let geoms = scene.geom_descs();
        let desc = scene.desc(&geoms).unwrap();
        let mut buf = SceneBuf::new(desc, scene.config).unwrap();
        buf.step(&SceneInput::new(&poses, &vel)).unwrap();
        contacts.push(buf.contacts().to_vec());
        // The owned copy of the borrowed description is the file again.
        assert_eq!(
            &OwnedSceneDesc::from_desc(&desc, scene.config).unwrap(),
            &file
        );
    }
    assert!(contacts[0].len() >= 5, "{:?}", contacts[0]);
    assert_eq!(contacts[0], contacts[1]);
    for c in &contacts[0] {
        json_round_trip(c);
    }
}

#[test]
fn scenes_round_trip_with_the_same_contacts_f32() {
    scenes_round_trip_with_the_same_contacts::<f32>();
}

#[test]
fn scenes_round_trip_with_the_same_contacts_f64() {
    scenes_round_trip_with_the_same_contacts::<f64>();
}

#[test]
fn scene_files_read_with_defaults_and_refuse_bad_scenes() {
    let text = r#"{
        "geoms": [
            {"shape": {"half_space": {"normal": [0, 0, 1], "offset": 0}}, "link": 0},
            {"shape": {"sphere": {"radius": 0.5}}, "link": 1, "margin": 0.02}
        ],
        "links": [
            {"parent": 4294967295, "fixed": true, "dof_start": 0, "dof_count": 0},
            {"parent": 4294967295, "fixed": false, "dof_start": 0, "dof_count": 3}
        ],
        "dof_length": [1, 1, 1]
    }"#;
    let scene: OwnedSceneDesc<f64> = serde_json::from_str(text).unwrap();
    assert_eq!(scene.config, SceneConfig::new());
    assert!(scene.constraints.is_empty());
    assert_eq!(scene.geoms[0].local_pose, Iso3::IDENTITY);
    assert_eq!((scene.geoms[0].contype, scene.geoms[0].conaffinity), (1, 1));
    assert_eq!((scene.geoms[0].margin, scene.geoms[1].margin), (0.0, 0.02));
    let geoms = scene.geom_descs();
    let desc: SceneDesc<'_, f64> = scene.desc(&geoms).unwrap();
    assert_eq!(desc.dof_count(), 3);
    // A geometry on a link that does not exist reads, and is refused by
    // the description's checks, naming it.
    let bad = text.replace(r#""link": 1, "margin""#, r#""link": 7, "margin""#);
    let scene: OwnedSceneDesc<f64> = serde_json::from_str(&bad).unwrap();
    let geoms = scene.geom_descs();
    assert_eq!(
        scene.desc(&geoms).unwrap_err().to_string(),
        "geometry 1: link out of range"
    );
    let typo = text.replace("\"margin\"", "\"margn\"");
    assert!(serde_json::from_str::<OwnedSceneDesc<f64>>(&typo).is_err());
}
