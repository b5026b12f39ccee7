//! The fuzz harness on thousands of seeded inputs: random bytes, and valid
//! blobs with random mutations.

use mink_field::blob::{write_blob, BlobLayout};
use mink_field::fuzz::fuzz_one_input;
use mink_field::SupportField;
use mink_support::Vec3;
use mink_testkit::Rng;

#[test]
fn random_bytes_never_break_an_invariant() {
    let mut rng = Rng::new(0xF022);
    for case in 0..4000 {
        let len = rng.below(900);
        let data: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        if let Err(e) = fuzz_one_input(&data) {
            panic!("case {case}: {e} on {data:?}");
        }
    }
}

#[test]
fn mutated_blobs_never_break_an_invariant() {
    let mut rng = Rng::new(0xB10B);
    let verts: Vec<Vec3<f32>> = rng.points_in_ball(20, 1.0);
    let field = SupportField::build(&verts, 8).unwrap();
    let mut accepted = 0;
    for case in 0..3000 {
        let layout = if case % 2 == 0 {
            BlobLayout::Full
        } else {
            BlobLayout::Compact
        };
        let mut data = write_blob(&field, &verts, None, layout).unwrap();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(data.len());
            data[at] ^= 1 << rng.below(8);
        }
        if rng.chance(0.3) {
            let cut = rng.below(data.len());
            data.truncate(cut);
        }
        if mink_field::FieldBlob::parse(&data).is_ok() {
            accepted += 1;
        }
        if let Err(e) = fuzz_one_input(&data) {
            panic!("case {case}: {e}");
        }
    }
    // A flipped bit is caught by the checksum or the header checks.
    assert_eq!(accepted, 0);
}
