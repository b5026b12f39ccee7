//! The `query_line` target: any bytes, read as one line of the query format,
//! through the function the `mink-query` binary runs on each line.

use mink_query::{answer_line, Algo, Scalar};
use serde_json::Value;

/// Answers `data` (lossily decoded as UTF-8) in f32 and f64 with every
/// algorithm and panics unless each answer is one JSON object with a
/// boolean `ok`, the line's `id` echoed when the line had one, a non-empty
/// `error` when not ok, and only finite numbers when ok.
pub fn check_query_line(data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    let id = serde_json::from_str::<Value>(&line)
        .ok()
        .and_then(|v| v.get("id").cloned());
    for scalar in [Scalar::F32, Scalar::F64] {
        for algo in [Algo::Auto, Algo::Gjk, Algo::Epa, Algo::Mpr, Algo::Sat] {
            let out = answer_line(&line, scalar, algo);
            assert!(!out.contains('\n'), "an answer is one line: {out:?}");
            let v: Value = serde_json::from_str(&out)
                .unwrap_or_else(|e| panic!("answer is not JSON ({e}): {out}"));
            let ok = v["ok"].as_bool().unwrap_or_else(|| panic!("no ok: {out}"));
            if let Some(id) = &id {
                assert_eq!(&v["id"], id, "id not echoed: {out}");
            }
            if ok {
                assert!(all_finite(&v), "non-finite number in {out}");
            } else {
                assert!(
                    v["error"].as_str().is_some_and(|e| !e.is_empty()),
                    "failure without a reason: {out}"
                );
            }
        }
    }
}

/// `true` when every number under `v` (except the echoed `id`) is finite.
fn all_finite(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.as_f64().is_some_and(f64::is_finite),
        Value::Array(a) => a.iter().all(all_finite),
        Value::Object(m) => m.iter().all(|(k, x)| k == "id" || all_finite(x)),
        _ => true,
    }
}
