//! mink-query end to end: the committed query file (tests/data/cases.jsonl)
//! through the same line-answering function the binary runs, with answers
//! checked against the closed forms written in each line's `expect`, in f32
//! and f64 and with every algorithm; and hostile lines (mutated bytes) that
//! must give one well-formed result line each, never a panic.

mod common;

use common::{close, mutate};
use mink_query::{answer_line, Algo, Scalar};
use mink_testkit::Rng;
use serde_json::Value;

const CASES: &str = include_str!("data/cases.jsonl");

fn parse(line: &str) -> Value {
    serde_json::from_str(line).expect("every result line is JSON")
}

#[test]
fn committed_cases_match_the_closed_forms() {
    let lines: Vec<&str> = CASES.lines().collect();
    let mut checked = 0;
    for scalar in [Scalar::F32, Scalar::F64] {
        let tol = if scalar == Scalar::F32 { 2e-3 } else { 1e-6 };
        for algo in [Algo::Auto, Algo::Gjk, Algo::Epa, Algo::Mpr, Algo::Sat] {
            for line in &lines {
                let out = parse(&answer_line(line, scalar, algo));
                let input: Option<Value> = serde_json::from_str(line).ok();
                let id = input.as_ref().and_then(|v| v.get("id")).cloned();
                assert_eq!(
                    out.get("id").cloned(),
                    Some(id.unwrap_or(Value::Null)),
                    "{line}"
                );
                let ok = out["ok"].as_bool().expect("ok is a boolean");
                if !ok {
                    assert!(out["error"].as_str().is_some_and(|e| !e.is_empty()));
                }
                let Some(expect) = input.as_ref().and_then(|v| v.get("expect")) else {
                    continue;
                };
                if algo == Algo::Sat {
                    assert!(!ok, "SAT is not available: {out}");
                    continue;
                }
                if expect.get("ok") == Some(&Value::Bool(false)) {
                    assert!(!ok, "{line} gave {out}");
                    continue;
                }
                assert!(ok, "{line} gave {out}");
                if let Some(c) = expect.get("collide") {
                    assert_eq!(&out["collide"], c, "{line} gave {out}");
                }
                for key in ["distance", "normal"] {
                    if let Some(e) = expect.get(key) {
                        assert!(close(&out[key], e, tol), "{key}: {line} gave {out}");
                    }
                }
                if let Some(d) = out["distance"].as_f64() {
                    // Witnesses: p_b - p_a = distance * normal.
                    let v = |k: &str, i: usize| out[k][i].as_f64().unwrap();
                    for i in 0..3 {
                        let gap = v("p_b", i) - v("p_a", i) - d * v("normal", i);
                        assert!(gap.abs() <= tol * 4.0, "witnesses: {out}");
                    }
                    assert_eq!(out["collide"], Value::Bool(d <= 0.0));
                }
                checked += 1;
            }
        }
    }
    // 15 answerable lines with expectations, 2 scalars, 4 algorithms.
    assert_eq!(checked, 15 * 2 * 4);
}

#[test]
fn auto_uses_the_table() {
    let lines: Vec<Value> = CASES
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let algo_of = |id: i64| {
        let line = lines.iter().find(|v| v["id"] == id).unwrap().to_string();
        parse(&answer_line(&line, Scalar::F64, Algo::Auto))["algo"].clone()
    };
    assert_eq!(algo_of(1), "analytic"); // sphere–sphere
    assert_eq!(algo_of(3), "analytic"); // capsule–capsule
    assert_eq!(algo_of(4), "analytic"); // plane–box
    assert_eq!(algo_of(6), "gjk"); // cylinder–cylinder distance
    assert_eq!(algo_of(12), "mpr"); // box–box penetration
    let forced = lines.iter().find(|v| v["id"] == 1).unwrap().to_string();
    assert_eq!(
        parse(&answer_line(&forced, Scalar::F64, Algo::Gjk))["algo"],
        "gjk"
    );
}

#[test]
fn hostile_lines_give_one_result_each() {
    let mut rng = Rng::new(0x5eed);
    let seeds: Vec<&str> = CASES.lines().filter(|l| !l.is_empty()).collect();
    let mut rejected = 0;
    const MUTANTS: usize = 4000;
    for _ in 0..MUTANTS {
        let seed = seeds[rng.below(seeds.len())];
        let line = mutate(&mut rng, seed);
        for scalar in [Scalar::F32, Scalar::F64] {
            let out = answer_line(&line, scalar, Algo::Auto);
            assert!(!out.contains('\n'), "one line per result");
            let v = parse(&out);
            let ok = v["ok"].as_bool().expect("ok is a boolean");
            if ok {
                for key in ["distance", "p_a", "p_b", "normal"] {
                    if let Some(x) = v.get(key) {
                        assert!(!x.is_null(), "{key} must be finite: {out}");
                    }
                }
            } else {
                rejected += 1;
                assert!(v["error"].is_string());
            }
        }
    }
    // The mutations must hit both outcomes: most lines are broken, but a
    // few percent stay answerable and run the shape-building and query
    // paths on odd values.
    let answered = MUTANTS * 2 - rejected;
    assert!(rejected > MUTANTS / 2, "{rejected} rejected");
    assert!(answered > MUTANTS * 2 / 50, "{answered} answered");
}

/// Every numeric `id` comes back as the same number after the answer is
/// written and read again: integers too long for 64 bits, many digits, tiny
/// and huge exponents (fuzzing found a 76-digit id echoed one ulp off).
/// The reference is Rust's own correctly rounded `str::parse::<f64>`.
#[test]
fn numeric_ids_round_trip() {
    let mut rng = Rng::new(0x1d_ec40);
    let mut ids: Vec<String> = vec![
        format!("1{}", "5".repeat(75)),
        "9".repeat(300),
        "123456789012345678901234567890".into(),
        "1.1555555555555555e75".into(),
        "-0.000000000000000000000000000123456789123456789".into(),
        "2.2250738585072011e-308".into(),
    ];
    for _ in 0..2000 {
        let digits: String = (0..1 + rng.below(40))
            .map(|_| char::from(b'0' + rng.below(10) as u8))
            .collect();
        let digits = format!("{}{digits}", 1 + rng.below(9));
        ids.push(match rng.below(3) {
            0 => digits,
            1 => format!("{}.{}", &digits[..1], &digits[1..]),
            _ => format!("{digits}e{}", rng.below(500) as i32 - 250),
        });
    }
    for text in &ids {
        let line = format!(r#"{{"id": {text}, "a": {{"type": "sphere", "radius": 1}}}}"#);
        let out = parse(&answer_line(&line, Scalar::F64, Algo::Auto));
        let exact: f64 = text.parse().expect("a Rust float literal");
        assert_eq!(out["id"].as_f64(), Some(exact), "id {text}: {out}");
    }
}
