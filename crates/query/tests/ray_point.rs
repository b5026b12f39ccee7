//! The `"ray"`, `"point"` and `"cast"` queries of mink-query (`FORMAT.md`, "Ray,
//! point and cast queries"): answers checked against closed forms worked
//! out by hand in each test, in f32 and f64 and with every `--algo` (which
//! does not apply to them); every kind of bad input answers `ok: false`
//! naming the field at fault, with the id echoed; `"cast"` answers against
//! closed forms (linear and turning motion); and
//! one run of the binary shows a bad line does not stop the run.

use std::io::Write;
use std::process::{Command, Stdio};

mod common;

use common::{close, mutate};
use mink_query::spec::{parse_line, Query, RaySpec};
use mink_query::{answer_line, Algo, Scalar};
use mink_testkit::Rng;
use serde_json::{json, Value};

const SCALARS: [Scalar; 2] = [Scalar::F32, Scalar::F64];
const ALGOS: [Algo; 5] = [Algo::Auto, Algo::Gjk, Algo::Epa, Algo::Mpr, Algo::Sat];

fn parse(line: &str) -> Value {
    serde_json::from_str(line).expect("every result line is JSON")
}

/// The tolerance of a closed-form answer of size about 10 in `scalar`.
fn tol(scalar: Scalar) -> f64 {
    match scalar {
        Scalar::F32 => 1e-4,
        Scalar::F64 => 1e-9,
    }
}

/// Answers `line` in both scalars with every algorithm and hands each
/// answer (checked to be `ok` and the same whatever the algorithm) to
/// `check` with the scalar's tolerance.
fn each_answer(line: &str, tol_scale: f64, check: impl Fn(&Value, f64)) {
    for scalar in SCALARS {
        let first = parse(&answer_line(line, scalar, Algo::Auto));
        assert_eq!(first["ok"], true, "{line} gave {first}");
        for algo in ALGOS {
            let out = parse(&answer_line(line, scalar, algo));
            assert_eq!(out, first, "--algo must not change a ray or point answer");
        }
        check(&first, tol(scalar) * tol_scale);
    }
}

/// A ray line that must hit at `toi`, `point`, `normal`; also checks
/// `point = origin + toi·dir` from the line itself.
fn expect_hit(line: &str, toi: f64, point: [f64; 3], normal: [f64; 3], tol_scale: f64) {
    let input = parse(line);
    each_answer(line, tol_scale, |out, tol| {
        assert_eq!(out["hit"], true, "{line} gave {out}");
        assert!(
            close(&out["toi"], &json!(toi), tol),
            "toi: {line} gave {out}"
        );
        assert!(
            close(&out["point"], &json!(point), tol),
            "point: {line} gave {out}"
        );
        assert!(
            close(&out["normal"], &json!(normal), tol),
            "normal: {line} gave {out}"
        );
        let t = out["toi"].as_f64().unwrap();
        for i in 0..3 {
            let on_ray =
                input["origin"][i].as_f64().unwrap() + t * input["dir"][i].as_f64().unwrap();
            assert!(
                (out["point"][i].as_f64().unwrap() - on_ray).abs() <= tol,
                "{out}"
            );
        }
        assert_eq!(out["id"], input["id"]);
    });
}

/// A ray line that must miss: `hit` false and no `toi`, `point`, `normal`.
fn expect_miss(line: &str) {
    each_answer(line, 1.0, |out, _| {
        assert_eq!(out["hit"], false, "{line} gave {out}");
        for key in ["toi", "point", "normal"] {
            assert!(out.get(key).is_none(), "{key} present on a miss: {out}");
        }
    });
}

/// A point line that must answer `inside`, `distance`, `projection`,
/// `normal`.
fn expect_point(
    line: &str,
    inside: bool,
    distance: f64,
    projection: [f64; 3],
    normal: [f64; 3],
    tol_scale: f64,
) {
    each_answer(line, tol_scale, |out, tol| {
        assert_eq!(out["inside"], inside, "{line} gave {out}");
        assert!(
            close(&out["distance"], &json!(distance), tol),
            "distance: {line} gave {out}"
        );
        assert!(
            close(&out["projection"], &json!(projection), tol),
            "projection: {line} gave {out}"
        );
        assert!(
            close(&out["normal"], &json!(normal), tol),
            "normal: {line} gave {out}"
        );
        assert!(out["status"].is_string(), "{out}");
    });
}

/// A line that must answer `ok: false` in both scalars with every
/// algorithm, its id echoed and its error naming `field`.
fn expect_refused(line: &str, field: &str) {
    let id = serde_json::from_str::<Value>(line)
        .ok()
        .and_then(|v| v.get("id").cloned())
        .unwrap_or(Value::Null);
    for scalar in SCALARS {
        for algo in ALGOS {
            let out = parse(&answer_line(line, scalar, algo));
            assert_eq!(out["ok"], false, "{line} gave {out}");
            assert_eq!(out["id"], id, "{line} gave {out}");
            let error = out["error"].as_str().expect("an error in words");
            assert!(
                error.contains(field),
                "{line}: error {error:?} must name {field}"
            );
        }
    }
}

/// `[w, x, y, z]` of a quarter turn about z.
const QUARTER_Z: &str = "[0.7071067811865476, 0, 0, 0.7071067811865476]";
/// `[w, x, y, z]` of a quarter turn about x.
const QUARTER_X: &str = "[0.7071067811865476, 0.7071067811865476, 0, 0]";

#[test]
fn ray_hits_a_box_along_an_axis() {
    // Box [-1, 1] x [-2, 2] x [-3, 3]: from x = -5 at 2 m per unit of t,
    // the face x = -1 is 4 m away, t = 2.
    expect_hit(
        r#"{"id": 1, "query": "ray", "a": {"type": "box", "half_extents": [1, 2, 3]},
            "origin": [-5, 0.5, -1], "dir": [2, 0, 0]}"#
            .replace('\n', " ")
            .as_str(),
        2.0,
        [-1.0, 0.5, -1.0],
        [-1.0, 0.0, 0.0],
        1.0,
    );
    // The same box moved to z = 10, hit from below: face z = 7.
    expect_hit(
        r#"{"id": "up", "query": "ray", "a": {"type": "box", "half_extents": [1, 2, 3]},
            "pose_a": {"translation": [0, 0, 10], "rotation": [1, 0, 0, 0]},
            "origin": [0.5, -0.5, 0], "dir": [0, 0, 1], "max_toi": 100}"#
            .replace('\n', " ")
            .as_str(),
        7.0,
        [0.5, -0.5, 7.0],
        [0.0, 0.0, -1.0],
        1.0,
    );
    // Turned a quarter about z, its x half-extent is 2 in the world.
    expect_hit(
        &format!(
            r#"{{"id": 3, "query": "ray", "a": {{"type": "box", "half_extents": [1, 2, 3]}},
            "pose_a": {{"translation": [0, 0, 0], "rotation": {QUARTER_Z}}},
            "origin": [5, 0, 0], "dir": [-1, 0, 0]}}"#
        )
        .replace('\n', " "),
        3.0,
        [2.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        1.0,
    );
}

#[test]
fn ray_hits_a_sphere_at_an_offset() {
    // Centre (3, 4, 0), radius 1; the line y = 4.6 passes 0.6 from the
    // centre at x = 3, so it enters 0.8 before: x = 2.2, normal
    // (2.2 - 3, 0.6, 0) = (-0.8, 0.6, 0).
    expect_hit(
        r#"{"id": 4, "query": "ray", "a": {"type": "sphere", "radius": 1}, "pose_a": {"translation": [3, 4, 0], "rotation": [1, 0, 0, 0]}, "origin": [0, 4.6, 0], "dir": [1, 0, 0]}"#,
        2.2,
        [2.2, 4.6, 0.0],
        [-0.8, 0.6, 0.0],
        1.0,
    );
    // A cylinder (radius 1, half-length 2) lying along y after a quarter
    // turn about x, hit from above on its side: z = 1 at t = 4.
    expect_hit(
        &format!(
            r#"{{"id": 5, "query": "ray", "a": {{"type": "cylinder", "radius": 1, "half_length": 2}}, "pose_a": {{"rotation": {QUARTER_X}}}, "origin": [0, 1.5, 5], "dir": [0, 0, -1]}}"#
        ),
        4.0,
        [0.0, 1.5, 1.0],
        [0.0, 0.0, 1.0],
        1.0,
    );
}

#[test]
fn ray_starting_inside() {
    // Solid (the default): hit at once, at the origin, zero normal.
    for solid in ["", r#", "solid": true"#] {
        let line = format!(
            r#"{{"id": 6, "query": "ray", "a": {{"type": "sphere", "radius": 2}}, "origin": [0.5, 0, 0], "dir": [0, 1, 0]{solid}}}"#
        );
        expect_hit(&line, 0.0, [0.5, 0.0, 0.0], [0.0, 0.0, 0.0], 1.0);
    }
    // Not solid: where it leaves, 0.25 + y² = 4, the outward normal there.
    let y = 3.75f64.sqrt();
    expect_hit(
        r#"{"id": 7, "query": "ray", "a": {"type": "sphere", "radius": 2}, "origin": [0.5, 0, 0], "dir": [0, 1, 0], "solid": false}"#,
        y,
        [0.5, y, 0.0],
        [0.25, y / 2.0, 0.0],
        1.0,
    );
    // A box left through its bottom face: 1.5 m at 0.5 m per unit.
    expect_hit(
        r#"{"id": 8, "query": "ray", "a": {"type": "box", "half_extents": [1, 1, 1]}, "origin": [0, 0, 0.5], "dir": [0, 0, -0.5], "solid": false}"#,
        3.0,
        [0.0, 0.0, -1.0],
        [0.0, 0.0, -1.0],
        1.0,
    );
}

#[test]
fn ray_that_misses() {
    // Passes 2 m from a unit sphere's centre.
    expect_miss(
        r#"{"id": 9, "query": "ray", "a": {"type": "sphere", "radius": 1}, "origin": [-5, 2, 0], "dir": [1, 0, 0]}"#,
    );
    // Points away from it.
    expect_miss(
        r#"{"id": 10, "query": "ray", "a": {"type": "sphere", "radius": 1}, "origin": [5, 0, 0], "dir": [1, 0, 0]}"#,
    );
    // Beside a box.
    expect_miss(
        r#"{"id": 11, "query": "ray", "a": {"type": "box", "half_extents": [1, 1, 1]}, "origin": [-5, 0, 1.5], "dir": [1, 0, 0]}"#,
    );
}

#[test]
fn ray_max_toi() {
    // The face x = -1 is at t = 4: a shorter ray misses, t = 4 itself
    // counts, a longer one hits.
    let line = |max: &str| {
        format!(
            r#"{{"id": 12, "query": "ray", "a": {{"type": "box", "half_extents": [1, 1, 1]}}, "origin": [-5, 0, 0], "dir": [1, 0, 0], "max_toi": {max}}}"#
        )
    };
    expect_miss(&line("3.9"));
    expect_miss(&line("0"));
    expect_hit(&line("4"), 4.0, [-1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], 1.0);
    expect_hit(&line("4.1"), 4.0, [-1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], 1.0);
    expect_hit(&line("null"), 4.0, [-1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], 1.0);
    // Too large for f32, it is no bound there.
    expect_hit(&line("1e300"), 4.0, [-1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], 1.0);
    // In units of dir's length: dir 2 m long, the face 4 m away, t = 2.
    let long = r#"{"id": 13, "query": "ray", "a": {"type": "box", "half_extents": [1, 1, 1]}, "origin": [-5, 0, 0], "dir": [2, 0, 0], "max_toi": 1.9}"#;
    expect_miss(long);
}

#[test]
fn ray_against_a_plane() {
    // The half-space 2z <= 1 (z <= 0.5), its normal written unnormalized.
    let plane = r#""a": {"type": "plane", "normal": [0, 0, 2], "offset": 1}"#;
    expect_hit(
        &format!(
            r#"{{"id": 14, "query": "ray", {plane}, "origin": [1, 2, 5], "dir": [0, 0, -1]}}"#
        ),
        4.5,
        [1.0, 2.0, 0.5],
        [0.0, 0.0, 1.0],
        1.0,
    );
    // Oblique: z = 5 - 2t = 0.5 at t = 2.25.
    expect_hit(
        &format!(
            r#"{{"id": 15, "query": "ray", {plane}, "origin": [0, 0, 5], "dir": [1, 0, -2]}}"#
        ),
        2.25,
        [2.25, 0.0, 0.5],
        [0.0, 0.0, 1.0],
        1.0,
    );
    // Going up from above: never.
    expect_miss(&format!(
        r#"{{"id": 16, "query": "ray", {plane}, "origin": [0, 0, 5], "dir": [0, 0, 1]}}"#
    ));
    // From inside, not solid: out through the plane at t = 1.5, or
    // never when heading deeper.
    expect_hit(
        &format!(
            r#"{{"id": 17, "query": "ray", {plane}, "origin": [0, 0, -1], "dir": [0, 0, 1], "solid": false}}"#
        ),
        1.5,
        [0.0, 0.0, 0.5],
        [0.0, 0.0, 1.0],
        1.0,
    );
    expect_miss(&format!(
        r#"{{"id": 18, "query": "ray", {plane}, "origin": [0, 0, -1], "dir": [0, 0, -1], "solid": false}}"#
    ));
    // From inside, solid.
    expect_hit(
        &format!(
            r#"{{"id": 19, "query": "ray", {plane}, "origin": [0, 0, -1], "dir": [0, 0, -1]}}"#
        ),
        0.0,
        [0.0, 0.0, -1.0],
        [0.0, 0.0, 0.0],
        1.0,
    );
}

#[test]
fn ray_includes_the_margin() {
    // A unit sphere with margin 0.5 is a ball of radius 1.5.
    expect_hit(
        r#"{"id": 20, "query": "ray", "a": {"type": "sphere", "radius": 1, "margin": 0.5}, "origin": [-5, 0, 0], "dir": [1, 0, 0]}"#,
        3.5,
        [-1.5, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        1.0,
    );
    // A rounded box (GJK's cast): the face x = -1 moved out to -1.25.
    expect_hit(
        r#"{"id": 21, "query": "ray", "a": {"type": "box", "half_extents": [1, 1, 1], "margin": 0.25}, "origin": [-5, 0.5, 0], "dir": [1, 0, 0]}"#,
        3.75,
        [-1.25, 0.5, 0.0],
        [-1.0, 0.0, 0.0],
        10.0,
    );
    // Over the rounded edge of that box, at y = 1 + 0.25·sin 30°:
    // x = -1 - 0.25·cos 30°, normal (-cos 30°, sin 30°, 0).
    let (c, s) = (30f64.to_radians().cos(), 30f64.to_radians().sin());
    expect_hit(
        &format!(
            r#"{{"id": 22, "query": "ray", "a": {{"type": "box", "half_extents": [1, 1, 1], "margin": 0.25}}, "origin": [-5, {}, 0], "dir": [1, 0, 0]}}"#,
            1.0 + 0.25 * s
        ),
        5.0 - 1.0 - 0.25 * c,
        [-1.0 - 0.25 * c, 1.0 + 0.25 * s, 0.0],
        [-c, s, 0.0],
        100.0,
    );
    // A hull (GJK's cast) of the cube [-1, 1]³ with margin 0.5.
    expect_hit(
        r#"{"id": 23, "query": "ray", "a": {"type": "convex", "points": [[-1, -1, -1], [1, -1, -1], [-1, 1, -1], [1, 1, -1], [-1, -1, 1], [1, -1, 1], [-1, 1, 1], [1, 1, 1]], "margin": 0.5}, "origin": [0, 0.25, 6], "dir": [0, 0, -1]}"#,
        4.5,
        [0.0, 0.25, 1.5],
        [0.0, 0.0, 1.0],
        10.0,
    );
    // A capsule (radius 0.5 + margin 0.25, along z, half-length 1),
    // hit on its side from +x.
    expect_hit(
        r#"{"id": 24, "query": "ray", "a": {"type": "capsule", "radius": 0.5, "half_length": 1, "margin": 0.25}, "origin": [3, 0, 0.5], "dir": [-1, 0, 0]}"#,
        2.25,
        [0.75, 0.0, 0.5],
        [1.0, 0.0, 0.0],
        1.0,
    );
}

#[test]
fn point_inside_a_box() {
    // (0.25, 1.5, 0) in the box [-1, 1] x [-2, 2] x [-3, 3]: the face
    // y = 2 is the nearest, 0.5 away.
    expect_point(
        r#"{"id": 30, "query": "point", "a": {"type": "box", "half_extents": [1, 2, 3]}, "point": [0.25, 1.5, 0]}"#,
        true,
        -0.5,
        [0.25, 2.0, 0.0],
        [0.0, 1.0, 0.0],
        1.0,
    );
    // Turned a quarter about z it spans [-2, 2] x [-1, 1]: from
    // (0, 0.75, 0) the face y = 1 is 0.25 away.
    expect_point(
        &format!(
            r#"{{"id": 31, "query": "point", "a": {{"type": "box", "half_extents": [1, 2, 3]}}, "pose_a": {{"rotation": {QUARTER_Z}}}, "point": [0, 0.75, 0]}}"#
        ),
        true,
        -0.25,
        [0.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
        1.0,
    );
    // Outside the unturned box: (3, 0.5, -1) is 2 from the face x = 1.
    expect_point(
        r#"{"id": 32, "query": "point", "a": {"type": "box", "half_extents": [1, 2, 3]}, "point": [3, 0.5, -1]}"#,
        false,
        2.0,
        [1.0, 0.5, -1.0],
        [1.0, 0.0, 0.0],
        1.0,
    );
}

#[test]
fn point_outside_a_sphere() {
    // Unit sphere at (1, 1, 1); (4, 5, 1) is 5 from its centre along
    // (0.6, 0.8, 0).
    expect_point(
        r#"{"id": 33, "query": "point", "a": {"type": "sphere", "radius": 1}, "pose_a": {"translation": [1, 1, 1], "rotation": [1, 0, 0, 0]}, "point": [4, 5, 1]}"#,
        false,
        4.0,
        [1.6, 1.8, 1.0],
        [0.6, 0.8, 0.0],
        1.0,
    );
    // Inside it, 0.25 below the centre: 0.75 from the surface, nearest
    // straight down.
    expect_point(
        r#"{"id": 34, "query": "point", "a": {"type": "sphere", "radius": 1}, "pose_a": {"translation": [1, 1, 1], "rotation": [1, 0, 0, 0]}, "point": [1, 1, 0.75]}"#,
        true,
        -0.75,
        [1.0, 1.0, 0.0],
        [0.0, 0.0, -1.0],
        1.0,
    );
}

#[test]
fn point_and_a_plane() {
    let plane = r#""a": {"type": "plane", "normal": [0, 0, 2], "offset": 1}"#;
    expect_point(
        &format!(r#"{{"id": 35, "query": "point", {plane}, "point": [1, 2, 3]}}"#),
        false,
        2.5,
        [1.0, 2.0, 0.5],
        [0.0, 0.0, 1.0],
        1.0,
    );
    expect_point(
        &format!(r#"{{"id": 36, "query": "point", {plane}, "point": [1, 2, -1]}}"#),
        true,
        -1.5,
        [1.0, 2.0, 0.5],
        [0.0, 0.0, 1.0],
        1.0,
    );
}

#[test]
fn point_includes_the_margin() {
    // Unit sphere + 0.5: radius 1.5.
    expect_point(
        r#"{"id": 37, "query": "point", "a": {"type": "sphere", "radius": 1, "margin": 0.5}, "point": [0, 0, 4]}"#,
        false,
        2.5,
        [0.0, 0.0, 1.5],
        [0.0, 0.0, 1.0],
        1.0,
    );
    // The unit box + 0.5, off its face and off its edge: from (3, 3, 0)
    // the core's nearest point is the edge (1, 1, 0), √8 away.
    expect_point(
        r#"{"id": 38, "query": "point", "a": {"type": "box", "half_extents": [1, 1, 1], "margin": 0.5}, "point": [3, 0.5, 0]}"#,
        false,
        1.5,
        [1.5, 0.5, 0.0],
        [1.0, 0.0, 0.0],
        10.0,
    );
    let h = 0.5f64.sqrt();
    expect_point(
        r#"{"id": 39, "query": "point", "a": {"type": "box", "half_extents": [1, 1, 1], "margin": 0.5}, "point": [3, 3, 0]}"#,
        false,
        8f64.sqrt() - 0.5,
        [1.0 + 0.5 * h, 1.0 + 0.5 * h, 0.0],
        [h, h, 0.0],
        10.0,
    );
    // Inside the rounded box, 0.25 under its top (z = 1.5).
    expect_point(
        r#"{"id": 40, "query": "point", "a": {"type": "box", "half_extents": [1, 1, 1], "margin": 0.5}, "point": [0, 0.2, 1.25]}"#,
        true,
        -0.25,
        [0.0, 0.2, 1.5],
        [0.0, 0.0, 1.0],
        10.0,
    );
}

#[test]
fn a_ray_or_point_line_needs_no_b() {
    // And one that carries a `b` (an unknown field here) answers the same.
    let without =
        r#"{"id": 41, "query": "point", "a": {"type": "sphere", "radius": 1}, "point": [0, 0, 3]}"#;
    let with = r#"{"id": 41, "query": "point", "a": {"type": "sphere", "radius": 1}, "b": {"type": "nonsense"}, "point": [0, 0, 3]}"#;
    for scalar in SCALARS {
        let out = parse(&answer_line(without, scalar, Algo::Auto));
        assert_eq!(out["ok"], true, "{out}");
        assert_eq!(out, parse(&answer_line(with, scalar, Algo::Auto)));
    }
    let ray = r#"{"id": 42, "query": "ray", "a": {"type": "point"}, "origin": [0, 0, 3], "dir": [0, 0, -1]}"#;
    let out = parse(&answer_line(ray, Scalar::F64, Algo::Auto));
    assert_eq!(out["ok"], true, "{out}");
}

#[test]
fn parsed_ray_defaults() {
    let q = parse_line(
        r#"{"id": 1, "query": "ray", "a": {"type": "point"}, "origin": [1, 2, 3], "dir": [0, 0, 1]}"#,
    )
    .unwrap();
    assert_eq!(
        q.query,
        Query::Ray(RaySpec {
            origin: [1.0, 2.0, 3.0],
            dir: [0.0, 0.0, 1.0],
            max_toi: f64::INFINITY,
            solid: true,
        })
    );
    let q =
        parse_line(r#"{"query": "point", "a": {"type": "point"}, "point": [1, 2, 3]}"#).unwrap();
    assert_eq!(q.query, Query::Point([1.0, 2.0, 3.0]));
    assert_eq!(q.id, Value::Null);
}

#[test]
fn bad_ray_input_is_refused_naming_the_field() {
    let sphere = r#""a": {"type": "sphere", "radius": 1}"#;
    let ray = |id: u32, rest: &str| format!(r#"{{"id": {id}, "query": "ray", {sphere}, {rest}}}"#);
    let cases = [
        (ray(50, r#""dir": [1, 0, 0]"#), "\"origin\""),
        (ray(51, r#""origin": [0, 0, 0]"#), "\"dir\""),
        (ray(52, r#""origin": [-5, 0, 0], "dir": [0, 0, 0]"#), "\"dir\""),
        (ray(53, r#""origin": [-5, 0, 0], "dir": [0, -0.0, 0]"#), "\"dir\""),
        (ray(54, r#""origin": [-5, 0, 0], "dir": [1, 0]"#), "\"dir\""),
        (ray(55, r#""origin": [-5, 0, 0], "dir": [1, "x", 0]"#), "\"dir\""),
        (ray(56, r#""origin": [-5, 0, 0], "dir": null"#), "\"dir\""),
        (ray(57, r#""origin": "here", "dir": [1, 0, 0]"#), "\"origin\""),
        (ray(58, r#""origin": [-5, 0, null], "dir": [1, 0, 0]"#), "\"origin\""),
        (ray(59, r#""origin": [-5, 0, 0], "dir": [1, 0, 0], "max_toi": -1"#), "\"max_toi\""),
        (ray(60, r#""origin": [-5, 0, 0], "dir": [1, 0, 0], "max_toi": "far""#), "\"max_toi\""),
        (ray(61, r#""origin": [-5, 0, 0], "dir": [1, 0, 0], "solid": "yes""#), "\"solid\""),
        (ray(62, r#""origin": [-5, 0, 0], "dir": [1, 0, 0], "solid": 1"#), "\"solid\""),
        (
            ray(63, r#""origin": [-5, 0, 0], "dir": [1, 0, 0], "pose_a": {"translation": [0, 0, 0], "rotation": [2, 0, 0, 0]}"#),
            "pose_a",
        ),
        (
            ray(64, r#""origin": [-5, 0, 0], "dir": [1, 0, 0], "pose_a": {"translation": [0, 0]}"#),
            "pose_a",
        ),
        (
            r#"{"id": 65, "query": "ray", "origin": [-5, 0, 0], "dir": [1, 0, 0]}"#.into(),
            "shape \"a\"",
        ),
        (
            r#"{"id": 66, "query": "ray", "a": {"type": "sphere", "radius": -1}, "origin": [-5, 0, 0], "dir": [1, 0, 0]}"#.into(),
            "shape a",
        ),
        (
            r#"{"id": 67, "query": "ray", "a": {"type": "sphere", "radius": 1, "margin": -0.5}, "origin": [-5, 0, 0], "dir": [1, 0, 0]}"#.into(),
            "shape a",
        ),
    ];
    for (line, field) in &cases {
        expect_refused(line, field);
    }
}

#[test]
fn values_out_of_range_for_f32_are_refused_there() {
    // Finite in f64, infinite (or zero) in f32: refused in f32 only,
    // naming the field.
    let sphere = r#""a": {"type": "sphere", "radius": 1}"#;
    let cases = [
        (
            format!(
                r#"{{"id": 70, "query": "ray", {sphere}, "origin": [1e300, 0, 0], "dir": [-1, 0, 0]}}"#
            ),
            "\"origin\"",
        ),
        (
            format!(
                r#"{{"id": 71, "query": "ray", {sphere}, "origin": [-5, 0, 0], "dir": [1e300, 0, 0]}}"#
            ),
            "\"dir\"",
        ),
        (
            format!(
                r#"{{"id": 72, "query": "ray", {sphere}, "origin": [-5, 0, 0], "dir": [1e-30, 0, 0]}}"#
            ),
            "\"dir\"",
        ),
        (
            format!(r#"{{"id": 73, "query": "point", {sphere}, "point": [0, -1e300, 0]}}"#),
            "\"point\"",
        ),
    ];
    for (line, field) in &cases {
        let out = parse(&answer_line(line, Scalar::F32, Algo::Auto));
        assert_eq!(out["ok"], false, "{line} gave {out}");
        let error = out["error"].as_str().unwrap();
        assert!(error.contains(field), "{line}: {error:?} must name {field}");
        // f64 answers, or refuses with a reason; never a non-finite number.
        let out = parse(&answer_line(line, Scalar::F64, Algo::Auto));
        if out["ok"] == true {
            assert!(all_finite(&out), "{out}");
        } else {
            assert!(out["error"].is_string());
        }
    }
    // In f64 too, a dir whose squared length overflows or vanishes.
    for (id, dir) in [(75, "1e200"), (76, "1e-200")] {
        let line = format!(
            r#"{{"id": {id}, "query": "ray", {sphere}, "origin": [-5, 0, 0], "dir": [{dir}, 0, 0]}}"#
        );
        expect_refused(&line, "\"dir\"");
    }
    // A tiny dir in f64 is a long way per unit of t.
    let tiny = format!(
        r#"{{"id": 74, "query": "ray", {sphere}, "origin": [-5, 0, 0], "dir": [1e-30, 0, 0]}}"#
    );
    let out = parse(&answer_line(&tiny, Scalar::F64, Algo::Auto));
    assert!(close(&out["toi"], &json!(4e30), 1e18), "{out}");
}

#[test]
fn bad_point_input_is_refused_naming_the_field() {
    let sphere = r#""a": {"type": "sphere", "radius": 1}"#;
    let cases = [
        (format!(r#"{{"id": 80, "query": "point", {sphere}}}"#), "\"point\""),
        (format!(r#"{{"id": 81, "query": "point", {sphere}, "point": [1, 2]}}"#), "\"point\""),
        (format!(r#"{{"id": 82, "query": "point", {sphere}, "point": [1, 2, "3"]}}"#), "\"point\""),
        (format!(r#"{{"id": 83, "query": "point", {sphere}, "point": 7}}"#), "\"point\""),
        (
            format!(r#"{{"id": 84, "query": "point", {sphere}, "point": [0, 0, 0], "pose_a": {{"rotation": [0, 0, 0, 0]}}}}"#),
            "pose_a",
        ),
        (r#"{"id": 85, "query": "point", "point": [0, 0, 0]}"#.into(), "shape \"a\""),
        (
            r#"{"id": 86, "query": "point", "a": {"type": "torus"}, "point": [0, 0, 0]}"#.into(),
            "shape a",
        ),
        (
            r#"{"id": {"nested": true}, "query": "point", "a": {"type": "box", "half_extents": [1, -1, 1]}, "point": [0, 0, 0]}"#.into(),
            "shape a",
        ),
    ];
    for (line, field) in &cases {
        expect_refused(line, field);
    }
}

/// A cast's tolerance from a closed form's (`tol`, 1e-9 in f64 and 1e-4 in
/// f32): the cast stops within `1e-7` (f64) or `1.2e-4` (f32) of the
/// scale, a few meters here, of the target distance, and its time is off
/// by that over the closing speed.
fn cast_tol(tol: f64) -> f64 {
    if tol < 1e-6 {
        tol * 1000.0
    } else {
        tol * 20.0
    }
}

const SPHERE: &str = r#"{"type": "sphere", "radius": 1}"#;

fn at(x: f64, y: f64) -> String {
    format!(r#"{{"translation": [{x}, {y}, 0], "rotation": [1, 0, 0, 0]}}"#)
}

#[test]
fn cast_answers_match_closed_forms() {
    // A unit sphere moving from x = 0 to x = 5 towards one at x = 3: the
    // surfaces meet when the centres are 2 apart, at t = 0.2, at x = 2.
    let line = format!(
        r#"{{"id": 10, "query": "cast", "a": {SPHERE}, "pose_a": {}, "pose_a_end": {}, "b": {SPHERE}, "pose_b": {}, "target_distance": 0.0}}"#,
        at(0.0, 0.0),
        at(5.0, 0.0),
        at(3.0, 0.0)
    );
    each_answer(&line, 1.0, |out, tol| {
        let tol = cast_tol(tol);
        assert_eq!(out["hit"], true, "{out}");
        assert_eq!(out["initial"], false, "{out}");
        assert_eq!(out["status"], "converged", "{out}");
        assert!(close(&out["toi"], &json!(0.2), tol), "{out}");
        assert!(close(&out["p_a"], &json!([2.0, 0.0, 0.0]), tol), "{out}");
        assert!(close(&out["p_b"], &json!([2.0, 0.0, 0.0]), tol), "{out}");
        assert!(close(&out["normal"], &json!([1.0, 0.0, 0.0]), tol), "{out}");
    });
    // Within 0.5 m: centres 2.5 apart, at t = 0.1. B moving back by 5 m
    // as A comes: closing at 10 m per unit t, centres 2.5 apart at 0.05.
    let line = format!(
        r#"{{"id": 11, "query": "cast", "a": {SPHERE}, "pose_a": {}, "pose_a_end": {}, "b": {SPHERE}, "pose_b": {}, "pose_b_end": {}, "target_distance": 0.5}}"#,
        at(0.0, 0.0),
        at(5.0, 0.0),
        at(3.0, 0.0),
        at(-2.0, 0.0)
    );
    each_answer(&line, 1.0, |out, tol| {
        let tol = cast_tol(tol);
        assert_eq!(out["hit"], true, "{out}");
        assert!(close(&out["toi"], &json!(0.05), tol), "{out}");
    });
    // Passing 3 m beside it: no hit, and no time.
    let line = format!(
        r#"{{"id": 12, "query": "cast", "a": {SPHERE}, "pose_a": {}, "pose_a_end": {}, "b": {SPHERE}, "pose_b": {}}}"#,
        at(0.0, 0.0),
        at(5.0, 0.0),
        at(3.0, 3.0)
    );
    each_answer(&line, 1.0, |out, _| {
        assert_eq!(out["hit"], false, "{out}");
        assert!(out.get("toi").is_none(), "{out}");
    });
    // Overlapping at the start: t = 0, said so.
    let line = format!(
        r#"{{"id": 13, "query": "cast", "a": {SPHERE}, "pose_a": {}, "pose_a_end": {}, "b": {SPHERE}, "pose_b": {}}}"#,
        at(0.0, 0.0),
        at(5.0, 0.0),
        at(1.0, 0.0)
    );
    each_answer(&line, 1.0, |out, _| {
        assert_eq!(out["hit"], true, "{out}");
        assert_eq!(out["initial"], true, "{out}");
        assert_eq!(out["toi"], json!(0.0), "{out}");
    });
}

#[test]
fn cast_with_rotation_matches_its_closed_form() {
    // A bar (half extents 1, 0.1, 0.1) turning a quarter turn about z at
    // the origin, towards a ball of radius 0.1 at (0, 0.8, 0). In the
    // bar's frame the ball's centre is (0.8 sin θ, 0.8 cos θ), so the gap
    // is 0.8 cos θ - 0.2: contact at cos θ = 1/4, θ = 1.3181 rad,
    // t = θ / (π/2) = 0.839139, normal (-sin θ, cos θ) from the bar.
    let line = format!(
        r#"{{"id": 14, "query": "cast", "a": {{"type": "box", "half_extents": [1, 0.1, 0.1]}}, "pose_a": {}, "pose_a_end": {{"translation": [0, 0, 0], "rotation": {QUARTER_Z}}}, "b": {{"type": "sphere", "radius": 0.1}}, "pose_b": {}}}"#,
        at(0.0, 0.0),
        at(0.0, 0.8)
    );
    let (s, c) = (0.968_245_836_551_854_3, 0.25);
    each_answer(&line, 1.0, |out, tol| {
        let tol = cast_tol(tol);
        assert_eq!(out["hit"], true, "{out}");
        assert!(
            close(&out["toi"], &json!(0.839_138_753_489_667_6), tol),
            "{out}"
        );
        assert!(close(&out["normal"], &json!([-s, c, 0.0]), tol), "{out}");
        assert!(
            close(&out["p_b"], &json!([0.1 * s, 0.8 - 0.1 * c, 0.0]), tol),
            "{out}"
        );
    });
}

#[test]
fn bad_cast_lines_are_refused() {
    let cases = [
        (
            format!(
                r#"{{"id": 20, "query": "cast", "a": {SPHERE}, "b": {SPHERE}, "pose_b": {}, "target_distance": -1}}"#,
                at(3.0, 0.0)
            ),
            "target_distance",
        ),
        (
            format!(
                r#"{{"id": 21, "query": "cast", "a": {SPHERE}, "b": {SPHERE}, "pose_b": {}, "target_distance": "far"}}"#,
                at(3.0, 0.0)
            ),
            "target_distance",
        ),
        (
            format!(
                r#"{{"id": 22, "query": "cast", "a": {SPHERE}, "pose_a_end": {{"translation": [1, 0]}}, "b": {SPHERE}}}"#
            ),
            "pose_a_end",
        ),
        (
            format!(r#"{{"id": 23, "query": "cast", "a": {SPHERE}}}"#),
            "shape \"b\"",
        ),
        (
            r#"{"id": 24, "query": "cast", "a": {"type": "plane", "normal": [0, 0, 1], "offset": 0}, "b": {"type": "plane", "normal": [0, 0, -1], "offset": 0}}"#
                .to_string(),
            "planes",
        ),
    ];
    for (line, field) in &cases {
        expect_refused(line, field);
    }
}

/// `true` when every number under `v` (except the echoed `id`) is finite.
fn all_finite(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.as_f64().is_some_and(f64::is_finite),
        Value::Array(a) => a.iter().all(all_finite),
        Value::Object(m) => m.iter().all(|(k, x)| k == "id" || all_finite(x)),
        Value::Null => false,
        _ => true,
    }
}

#[test]
fn hostile_ray_and_point_lines_give_one_result_each() {
    let seeds = [
        r#"{"id": 1, "query": "ray", "a": {"type": "box", "half_extents": [1, 2, 3]}, "pose_a": {"translation": [0, 0, 1], "rotation": [1, 0, 0, 0]}, "origin": [-5, 0.5, -1], "dir": [2, 0, 0], "max_toi": 10, "solid": false}"#,
        r#"{"id": 2, "query": "ray", "a": {"type": "convex", "points": [[-1, -1, -1], [1, -1, -1], [0, 1, -1], [0, 0, 1]], "margin": 0.1}, "origin": [0, 0, 5], "dir": [0, 0, -1]}"#,
        r#"{"id": 3, "query": "ray", "a": {"type": "plane", "normal": [0, 0, 1], "offset": 0}, "origin": [0, 0, 5], "dir": [1, 0, -1]}"#,
        r#"{"id": 4, "query": "point", "a": {"type": "cone", "radius": 1, "half_length": 1}, "pose_a": {"translation": [0, 0, 1], "rotation": [1, 0, 0, 0]}, "point": [0.5, 0, 0.5]}"#,
        r#"{"id": 5, "query": "point", "a": {"type": "capsule", "radius": 0.5, "half_length": 1, "margin": 0.1}, "point": [3, 0, 0]}"#,
    ];
    let mut rng = Rng::new(0x7a9);
    let (mut answered, mut rejected) = (0, 0);
    for _ in 0..1500 {
        let seed = seeds[rng.below(seeds.len())];
        let line = mutate(&mut rng, seed);
        let id = serde_json::from_str::<Value>(&line)
            .ok()
            .and_then(|v| v.get("id").cloned());
        for scalar in SCALARS {
            let out = answer_line(&line, scalar, Algo::Auto);
            assert!(!out.contains('\n'), "one line per result");
            let v = parse(&out);
            if let Some(id) = &id {
                assert_eq!(&v["id"], id, "{out}");
            }
            if v["ok"].as_bool().expect("ok is a boolean") {
                answered += 1;
                assert!(all_finite(&v), "non-finite number in {out} for {line}");
            } else {
                rejected += 1;
                assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{out}");
            }
        }
    }
    assert!(answered > 100, "{answered} answered");
    assert!(rejected > 100, "{rejected} rejected");
}

#[test]
fn the_binary_answers_every_line_in_order() {
    let input = [
        r#"{"id": 1, "query": "ray", "a": {"type": "sphere", "radius": 1}, "origin": [-3, 0, 0], "dir": [1, 0, 0]}"#,
        r#"{"id": 2, "query": "ray", "a": {"type": "sphere", "radius": 1}, "origin": [-3, 0, 0], "dir": [0, 0, 0]}"#,
        r#"{"id": 3, "query": "point", "a": {"type": "sphere", "radius": 1}, "point": [0, 0, 0.5]}"#,
        r#"{"id": 4, "query": "cast", "a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1}}"#,
        "not json",
        r#"{"id": 6, "query": "ray", "a": {"type": "sphere", "radius": 1}, "origin": [-3, 2, 0], "dir": [1, 0, 0]}"#,
        r#"{"id": 7, "a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1}, "pose_b": {"translation": [3, 0, 0], "rotation": [1, 0, 0, 0]}}"#,
    ]
    .join("\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mink-query"))
        .args(["--scalar", "f32", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(parse)
        .collect();
    assert_eq!(lines.len(), 7, "{lines:?}");
    let ids: Vec<Value> = lines.iter().map(|v| v["id"].clone()).collect();
    assert_eq!(
        ids,
        [
            json!(1),
            json!(2),
            json!(3),
            json!(4),
            Value::Null,
            json!(6),
            json!(7)
        ]
    );
    let oks: Vec<bool> = lines.iter().map(|v| v["ok"].as_bool().unwrap()).collect();
    assert_eq!(oks, [true, false, true, true, false, true, true]);
    assert_eq!(lines[0]["hit"], true);
    assert!(close(&lines[0]["toi"], &json!(2.0), 1e-5), "{}", lines[0]);
    assert!(lines[1]["error"].as_str().unwrap().contains("\"dir\""));
    assert_eq!(lines[2]["inside"], true);
    assert!(
        close(&lines[2]["distance"], &json!(-0.5), 1e-5),
        "{}",
        lines[2]
    );
    // Two unit spheres at the origin that do not move: within the target
    // from the start.
    assert_eq!(lines[3]["initial"], true, "{}", lines[3]);
    assert_eq!(lines[3]["toi"], json!(0.0), "{}", lines[3]);
    assert_eq!(lines[5]["hit"], false);
    assert!(lines[5].get("toi").is_none());
    assert!(
        close(&lines[6]["distance"], &json!(1.0), 1e-5),
        "{}",
        lines[6]
    );
}
