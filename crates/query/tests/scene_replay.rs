//! The scene replay format: a scene written with `write_scene`, read back
//! and replayed, gives the contacts of stepping the scene directly; a
//! hand-written file with a height field replays to its analytic contact;
//! malformed documents give errors, never a panic.

use mink::islands::Link;
use mink::scene::{GeomDesc, SceneBuf, SceneConfig, SceneDesc, SceneInput};
use mink::support::{ConvexHull, Cuboid, HalfSpace, Iso3, Quat, Sphere, Vec3};
use mink::Shape;
use mink_query::{parse_scene, replay_scene, write_scene};
use mink_testkit::Rng;
use serde_json::Value;

#[test]
fn written_scenes_replay_to_the_same_contacts() {
    let mut rng = Rng::new(7);
    let ground = HalfSpace::new(Vec3::Z, 0.0).unwrap();
    let cube = Cuboid::new(Vec3::new(0.5, 0.4, 0.3)).unwrap();
    let ball = Sphere::new(0.35).unwrap();
    let pts: Vec<Vec3<f64>> = rng.points_on_sphere(24, 0.5);
    let hull = ConvexHull::from_points(&pts).unwrap();
    let links = [
        Link::world(),
        Link::free(0, 6),
        Link::free(6, 6),
        Link::free(12, 6),
    ];
    let dof_length = [1.0, 1.0, 1.0, 0.5, 0.5, 0.5].repeat(3);
    let geoms: [GeomDesc<'_, f64>; 4] = [
        GeomDesc::new(Shape::from(ground), 0),
        GeomDesc::new(Shape::from(cube), 1).with_margin(0.01),
        GeomDesc::new(Shape::from(ball), 2).with_masks(1, 3),
        GeomDesc::new(Shape::Hull(hull.view()), 3)
            .with_pose(Iso3::from_translation(Vec3::new(0.0, 0.0, 0.1))),
    ];
    let desc = SceneDesc::new(&geoms, &links, &dof_length, &[]).unwrap();
    let config = SceneConfig::new();
    let poses: Vec<Vec<Iso3<f64>>> = (0..4)
        .map(|k| {
            let s = 0.05 * k as f64;
            vec![
                Iso3::IDENTITY,
                Iso3::from_quat(
                    Vec3::new(0.0, 0.0, 0.28 - s * 0.1),
                    Quat::from_axis_angle(Vec3::Z, 0.3 + s),
                )
                .unwrap(),
                Iso3::from_translation(Vec3::new(0.6, 0.1, 0.3 - s)),
                Iso3::from_translation(Vec3::new(-0.7, 0.0, 0.45 - s)),
            ]
        })
        .collect();
    let vel = [0.1; 18];
    let inputs: Vec<SceneInput<'_, f64>> = poses.iter().map(|p| SceneInput::new(p, &vel)).collect();
    let text = write_scene(&desc, &config, &inputs).unwrap();
    let spec = parse_scene(&text).unwrap();
    let lines = replay_scene::<f64>(&spec).unwrap();
    assert_eq!(lines.len(), inputs.len());

    let mut scene = SceneBuf::new(desc, config).unwrap();
    let mut total = 0;
    for (k, (input, line)) in inputs.iter().zip(&lines).enumerate() {
        let report = scene.step(input).unwrap();
        let out: Value = serde_json::from_str(line).unwrap();
        assert_eq!(out["step"], k);
        assert_eq!(out["ok"], true, "{line}");
        assert_eq!(out["report"]["contacts"], report.contacts);
        let replayed = out["contacts"].as_array().unwrap();
        assert_eq!(replayed.len(), scene.contacts().len());
        for (c, r) in scene.contacts().iter().zip(replayed) {
            assert_eq!(r["geom_a"], c.geom_a);
            assert_eq!(r["geom_b"], c.geom_b);
            // Poses went through JSON as decimal text and back: the same
            // f64 values, so the same contacts up to rounding.
            assert!((r["depth"].as_f64().unwrap() - c.depth).abs() < 1e-9);
            let n = r["normal"].as_array().unwrap();
            assert!((n[2].as_f64().unwrap() - c.normal.z).abs() < 1e-9);
        }
        total += replayed.len();
    }
    assert!(total >= 4, "the scene should touch: {total} contacts");
}

#[test]
fn a_ball_on_a_height_field_replays_to_its_analytic_contact() {
    let text = r#"{"format": "mink-scene", "version": 1,
      "links": [{"parent": null, "fixed": true, "dof_start": 0, "dof_count": 0},
                {"parent": null, "fixed": false, "dof_start": 0, "dof_count": 3}],
      "dof_length": [1, 1, 1],
      "geoms": [
        {"collider": {"type": "height_field", "heights": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2],
                      "nx": 3, "ny": 3, "dx": 1.0, "dy": 1.0, "thickness": 1.0},
         "link": 0, "pose": {"translation": [0, 0, 0], "rotation": [1, 0, 0, 0]}},
        {"collider": {"type": "sphere", "radius": 0.5}, "link": 1,
         "pose": {"translation": [0, 0, 0], "rotation": [1, 0, 0, 0]}}],
      "steps": [{"link_poses": [{"translation": [0, 0, 0], "rotation": [1, 0, 0, 0]},
                                {"translation": [0.7, 0.9, 0.65], "rotation": [1, 0, 0, 0]}],
                 "dof_vel": [0, 0, 0]}]}"#;
    let spec = parse_scene(text).unwrap();
    for lines in [
        replay_scene::<f64>(&spec).unwrap(),
        replay_scene::<f32>(&spec).unwrap(),
    ] {
        let out: Value = serde_json::from_str(&lines[0]).unwrap();
        assert_eq!(out["ok"], true, "{}", lines[0]);
        let contacts = out["contacts"].as_array().unwrap();
        assert_eq!(contacts.len(), 1, "{}", lines[0]);
        let depth = contacts[0]["depth"].as_f64().unwrap();
        // Ball bottom at 0.15, terrain at 0.2: 5 cm deep.
        assert!((depth - 0.05).abs() < 1e-5, "depth {depth}");
        let nz = contacts[0]["normal"][2].as_f64().unwrap().abs();
        assert!((nz - 1.0).abs() < 1e-5);
    }
}

#[test]
fn malformed_scenes_are_errors_not_panics() {
    let good = r#"{"format": "mink-scene", "version": 1,
      "links": [{"parent": null, "fixed": false, "dof_start": 0, "dof_count": 1}],
      "dof_length": [1],
      "geoms": [{"collider": {"type": "sphere", "radius": 1}, "link": 0}],
      "steps": [{"link_poses": [{"translation": [0, 0, 0], "rotation": [1, 0, 0, 0]}], "dof_vel": [0]}]}"#;
    assert!(replay_scene::<f64>(&parse_scene(good).unwrap()).is_ok());
    let bad = [
        "",
        "[]",
        r#"{"format": "other", "version": 1}"#,
        &good.replace("\"version\": 1", "\"version\": 9"),
        &good.replace("\"radius\": 1", "\"radius\": -1"),
        &good.replace("\"link\": 0", "\"link\": 5"),
        &good.replace("\"radius\": 1}", "\"radius\": 1, \"margin\": 0.1}"),
        &good.replace("\"dof_length\": [1]", "\"dof_length\": []"),
    ];
    for text in bad {
        let result = parse_scene(text).and_then(|s| replay_scene::<f64>(&s));
        assert!(result.is_err(), "accepted: {text}");
    }
    // A step with a bad pose is one failed step, not a failed replay.
    let bad_step = good.replace(
        "\"rotation\": [1, 0, 0, 0]}], \"dof_vel\"",
        "\"rotation\": [2, 0, 0, 0]}], \"dof_vel\"",
    );
    let lines = replay_scene::<f64>(&parse_scene(&bad_step).unwrap());
    match lines {
        Ok(lines) => {
            let out: Value = serde_json::from_str(&lines[0]).unwrap();
            assert_eq!(out["ok"], false);
        }
        Err(e) => panic!("one bad step failed the replay: {e}"),
    }
}
