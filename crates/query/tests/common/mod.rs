//! Helpers shared by the query tool's integration tests.

use mink_testkit::Rng;
use serde_json::Value;

/// Mutates a query line: flips, deletes or inserts bytes, or splices in a
/// hostile token (non-finite and out-of-range numbers, broken JSON).
pub fn mutate(rng: &mut Rng, line: &str) -> String {
    const TOKENS: [&str; 15] = [
        "NaN", "1e400", "-1e400", "1e308", "1e-320", "null", "\"", "{", "]", "-0", "0", "true",
        "[[[[[[", "\u{fffd}", ",",
    ];
    let mut bytes = line.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(4) {
            0 if at < bytes.len() => bytes[at] = rng.next_u64() as u8,
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            2 => {
                let tok = TOKENS[rng.below(TOKENS.len())];
                bytes.splice(at..at, tok.bytes());
            }
            _ => {
                let digit = b'0' + rng.below(10) as u8;
                bytes.insert(at, digit);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `true` when two JSON numbers, or arrays of them (nested alike), are
/// within `tol` of each other entry by entry.
pub fn close(a: &Value, b: &Value, tol: f64) -> bool {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| close(p, q, tol))
        }
        _ => match (a.as_f64(), b.as_f64()) {
            (Some(p), Some(q)) => (p - q).abs() <= tol,
            _ => false,
        },
    }
}
