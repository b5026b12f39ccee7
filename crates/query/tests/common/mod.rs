//! Helpers shared by the query tool's integration tests.

use mink_testkit::Rng;

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
