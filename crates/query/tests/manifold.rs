//! `"query": "manifold"`: the distance fields plus `"contacts"`, checked
//! against closed forms (a box on a plane, a sphere on a box, a pair apart)
//! in both scalars.

use mink_query::{answer_line, Algo, Scalar};
use serde_json::Value;

fn answer(line: &str, scalar: Scalar) -> Value {
    serde_json::from_str(&answer_line(line, scalar, Algo::Auto)).expect("a JSON line")
}

fn contacts(v: &Value) -> &Vec<Value> {
    v["contacts"].as_array().expect("contacts is an array")
}

fn close(v: &Value, expected: f64, tol: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - expected).abs() <= tol)
}

#[test]
fn box_on_plane_gives_four_corners_with_their_depth() {
    let line = r#"{"id": 1, "query": "manifold",
        "a": {"type": "plane", "normal": [0, 0, 1], "offset": 0},
        "pose_a": {"translation": [0, 0, 0], "rotation": [1, 0, 0, 0]},
        "b": {"type": "box", "half_extents": [0.5, 0.25, 0.5]},
        "pose_b": {"translation": [1, 2, 0.48], "rotation": [1, 0, 0, 0]}}"#
        .replace('\n', " ");
    for (scalar, tol) in [(Scalar::F32, 1e-5), (Scalar::F64, 1e-12)] {
        let v = answer(&line, scalar);
        assert_eq!(v["ok"], Value::Bool(true), "{v}");
        assert_eq!(v["id"], 1);
        assert!(close(&v["distance"], -0.02, tol), "{v}");
        let cs = contacts(&v);
        assert_eq!(cs.len(), 4, "{v}");
        let mut corners = vec![(0.5, 1.75), (1.5, 1.75), (1.5, 2.25), (0.5, 2.25)];
        for c in cs {
            assert!(close(&c["depth"], 0.02, tol), "{c}");
            let n = &c["normal"];
            assert!(close(&n[0], 0.0, tol) && close(&n[1], 0.0, tol) && close(&n[2], 1.0, tol));
            let p = &c["position"];
            assert!(close(&p[2], -0.01, tol), "{c}");
            let k = corners
                .iter()
                .position(|&(x, y)| close(&p[0], x, tol) && close(&p[1], y, tol))
                .expect("a bottom corner");
            corners.remove(k);
        }
    }
}

#[test]
fn sphere_on_box_gives_one_point_and_apart_gives_none() {
    let sphere_on_box = r#"{"id": "s", "query": "manifold",
        "a": {"type": "box", "half_extents": [1, 1, 1]},
        "pose_a": {"translation": [0, 0, 0], "rotation": [1, 0, 0, 0]},
        "b": {"type": "sphere", "radius": 0.5},
        "pose_b": {"translation": [0.2, 0.1, 1.4], "rotation": [1, 0, 0, 0]}}"#
        .replace('\n', " ");
    let apart = sphere_on_box.replace("1.4]", "3.0]");
    for (scalar, tol) in [(Scalar::F32, 1e-5), (Scalar::F64, 1e-12)] {
        let v = answer(&sphere_on_box, scalar);
        let cs = contacts(&v);
        assert_eq!(cs.len(), 1, "{v}");
        assert!(close(&cs[0]["depth"], 0.1, tol), "{v}");
        let p = &cs[0]["position"];
        assert!(close(&p[0], 0.2, tol) && close(&p[1], 0.1, tol) && close(&p[2], 0.95, tol));
        let v = answer(&apart, scalar);
        assert_eq!(v["ok"], Value::Bool(true));
        assert!(close(&v["distance"], 1.5, tol), "{v}");
        assert!(contacts(&v).is_empty());
    }
}
