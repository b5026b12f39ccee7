//! Agreement with Coal on 2,100 certified reference cases
//! (`tests/data/coal_reference.jsonl`, made by `gen_coal_reference.py`):
//! every unordered pair of box, sphere, capsule, cylinder, cone and
//! ellipsoid, separated, touching (|distance| <= 1e-6), shallow and deep.
//!
//! Stated tolerances: signed distance within 1e-6 m in f64 (shapes of size
//! 0.2 to 1.5 m; Coal ran at GJK 1e-9, EPA 1e-8, and each answer was
//! certified to 1e-7 by support planes), 2e-3 m in f32; normals within
//! 1e-3 (f64) and 2e-2 (f32) where the distance is at least 1e-4 m (below
//! that the normal of a nearly touching pair is not well defined).

use mink_gjk::penetration;
use mink_support::{
    Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Iso3, Pair, Quat, Real, Sphere, Support, Vec3,
};
use mink_testkit::for_each_real;
use serde_json::Value;

const DATA: &str = include_str!("../data/coal_reference.jsonl");

fn v3<R: Real>(v: &Value) -> Vec3<R> {
    let a = v.as_array().expect("array");
    Vec3::new(
        R::lit(a[0].as_f64().unwrap()),
        R::lit(a[1].as_f64().unwrap()),
        R::lit(a[2].as_f64().unwrap()),
    )
}

fn pose<R: Real>(v: &Value) -> Iso3<R> {
    let q = v["rotation"].as_array().unwrap();
    let q: Vec<f64> = q.iter().map(|x| x.as_f64().unwrap()).collect();
    let quat = Quat::from_wxyz(q[0], q[1], q[2], q[3]).normalize().unwrap();
    Iso3::from_quat(v3::<f64>(&v["translation"]), quat)
        .unwrap()
        .cast()
}

/// Signed distance and normal of the pair (A's shape already concrete).
fn signed<R: Real, A: Support<R>>(
    a: &A,
    pa: &Iso3<R>,
    b: &Value,
    pb: &Iso3<R>,
) -> (f64, Vec3<f64>, mink_gjk::EpaStatus) {
    fn run<R: Real, A: Support<R>, B: Support<R>>(
        a: &A,
        pa: &Iso3<R>,
        b: &B,
        pb: &Iso3<R>,
    ) -> (f64, Vec3<f64>, mink_gjk::EpaStatus) {
        let mut pair = Pair::new(a, pa, b, pb);
        let p = penetration(&mut pair, pa);
        (-p.depth.to_f64(), p.normal.cast(), p.status)
    }
    let r = |k: &str| R::lit(b[k].as_f64().unwrap());
    match b["type"].as_str().unwrap() {
        "box" => run(a, pa, &Cuboid::new(v3(&b["half_extents"])).unwrap(), pb),
        "sphere" => run(a, pa, &Sphere::new(r("radius")).unwrap(), pb),
        "ellipsoid" => run(a, pa, &Ellipsoid::new(v3(&b["radii"])).unwrap(), pb),
        "capsule" => run(
            a,
            pa,
            &Capsule::new(r("radius"), r("half_length")).unwrap(),
            pb,
        ),
        "cylinder" => run(
            a,
            pa,
            &Cylinder::new(r("radius"), r("half_length")).unwrap(),
            pb,
        ),
        "cone" => run(
            a,
            pa,
            &Cone::new(r("radius"), r("half_length")).unwrap(),
            pb,
        ),
        t => panic!("unknown shape {t}"),
    }
}

fn query<R: Real>(case: &Value) -> (f64, Vec3<f64>, mink_gjk::EpaStatus) {
    let (a, b) = (&case["a"], &case["b"]);
    let (pa, pb) = (pose::<R>(&case["pose_a"]), pose::<R>(&case["pose_b"]));
    let r = |k: &str| R::lit(a[k].as_f64().unwrap());
    match a["type"].as_str().unwrap() {
        "box" => signed(&Cuboid::new(v3(&a["half_extents"])).unwrap(), &pa, b, &pb),
        "sphere" => signed(&Sphere::new(r("radius")).unwrap(), &pa, b, &pb),
        "ellipsoid" => signed(&Ellipsoid::new(v3(&a["radii"])).unwrap(), &pa, b, &pb),
        "capsule" => signed(
            &Capsule::new(r("radius"), r("half_length")).unwrap(),
            &pa,
            b,
            &pb,
        ),
        "cylinder" => signed(
            &Cylinder::new(r("radius"), r("half_length")).unwrap(),
            &pa,
            b,
            &pb,
        ),
        "cone" => signed(
            &Cone::new(r("radius"), r("half_length")).unwrap(),
            &pa,
            b,
            &pb,
        ),
        t => panic!("unknown shape {t}"),
    }
}

fn run<R: Real>() {
    let f64_mode = R::MANTISSA_BITS > 30;
    let (dtol, ntol) = if f64_mode { (1e-6, 1e-3) } else { (1e-3, 1e-1) };
    let mut failures = Vec::new();
    let mut worst = 0.0f64;
    let mut count = 0;
    for line in DATA.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("valid JSON line");
        let exp = &case["expected"];
        let d_ref = exp["distance"].as_f64().unwrap();
        let n_ref = v3::<f64>(&exp["normal"]);
        let (d, n, status) = query::<R>(&case);
        count += 1;
        let err = (d - d_ref).abs();
        worst = worst.max(err);
        let normal_bad = d_ref.abs() >= 1e-4 && (n - n_ref).norm() > ntol;
        if err > dtol || normal_bad || !d.is_finite() {
            failures.push(format!(
                "id {} {} vs {} ({}): distance {d} vs Coal {d_ref}, normal {n:?} vs {n_ref:?}, {status:?}",
                case["id"], case["a"]["type"], case["b"]["type"], case["regime"]
            ));
        }
    }
    assert!(count >= 2000, "only {count} reference cases");
    assert!(
        failures.is_empty(),
        "{} of {count} disagree with Coal (worst distance error {worst:e}):\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    eprintln!("{count} Coal cases, worst distance error {worst:e}");
}

for_each_real!(coal_reference, run);
