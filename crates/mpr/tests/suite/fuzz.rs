//! The fuzzing harness (`mink_mpr::fuzz`) on thousands of seeded random
//! cases: random shape pairs and poses for f32 and f64, and random bytes.

use mink_mpr::fuzz::{check_bytes, check_pair};
use mink_support::{
    Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Iso3, Point, Real, Rounded, Segment, Sphere,
    Support,
};
use mink_testkit::{for_each_real, Rng};

fn run_pair<R: Real, A: Support<R>, B: Support<R>>(
    a: &A,
    b: &B,
    rng: &mut Rng,
    n: usize,
) -> (usize, usize) {
    // Tolerance on depths (meters, shapes of about 1 m).
    let tol = R::lit(if R::MANTISSA_BITS < 30 { 2e-3 } else { 1e-6 });
    let mut overlaps = 0;
    for _ in 0..n {
        let pose_a: Iso3<R> = rng.pose(1.0);
        let pose_b = if rng.chance(0.1) {
            Iso3::from_translation(pose_a.translation + rng.in_cube(1.0)) // axis-aligned ties
        } else {
            Iso3::from_parts(rng.rotation(), pose_a.translation + rng.in_cube(1.0))
        };
        match check_pair(a, &pose_a, b, &pose_b, tol) {
            Ok(hit) => overlaps += hit.is_overlapping() as usize,
            Err(e) => panic!("{e}: {pose_a:?} {pose_b:?}"),
        }
    }
    (overlaps, n)
}

fn random_pairs<R: Real>() {
    let mut rng = Rng::new(7);
    let v = |x: f64, y: f64, z: f64| mink_support::Vec3::new(R::lit(x), R::lit(y), R::lit(z));
    let cube = Cuboid::new(v(0.5, 0.3, 0.4)).unwrap();
    let ball = Sphere::new(R::lit(0.4)).unwrap();
    let cap = Capsule::new(R::lit(0.2), R::lit(0.4)).unwrap();
    let cyl = Cylinder::new(R::lit(0.3), R::lit(0.4)).unwrap();
    let cone = Cone::new(R::lit(0.4), R::lit(0.4)).unwrap();
    let ell = Ellipsoid::new(v(0.5, 0.3, 0.2)).unwrap();
    let seg = Segment::new(v(-0.4, 0.0, 0.0), v(0.4, 0.1, 0.0)).unwrap();
    let rounded = Rounded::new(cube, R::lit(0.1)).unwrap();
    let mut total = (0, 0);
    let mut add = |r: (usize, usize)| {
        total.0 += r.0;
        total.1 += r.1;
    };
    add(run_pair(&cube, &cube, &mut rng, 600));
    add(run_pair(&cube, &ball, &mut rng, 400));
    add(run_pair(&cap, &cap, &mut rng, 400));
    add(run_pair(&cyl, &cyl, &mut rng, 400));
    add(run_pair(&cone, &cube, &mut rng, 400));
    add(run_pair(&ell, &cyl, &mut rng, 400));
    add(run_pair(&seg, &cube, &mut rng, 400));
    add(run_pair(&rounded, &cap, &mut rng, 400));
    add(run_pair(&Point, &ell, &mut rng, 300));
    add(run_pair(&ball, &ball, &mut rng, 300));
    let rate = total.0 as f64 / total.1 as f64;
    assert!((0.3..0.8).contains(&rate), "overlap rate {rate}");
}
for_each_real!(fuzz_harness_on_random_pairs, random_pairs);

#[test]
fn fuzz_harness_on_random_bytes() {
    let mut rng = Rng::new(8);
    for len in 0..20_000usize {
        let bytes: Vec<u8> = (0..len % 48).map(|_| rng.next_u64() as u8).collect();
        if let Err(e) = check_bytes(&bytes) {
            panic!("{e}: {bytes:?}");
        }
    }
}

/// Byte strings that once failed the harness (random bytes from the
/// workspace's fuzz-corpus test). All ten pair an inflated shape (capsule,
/// rounded box) with a cone or cylinder whose cores are apart but close
/// enough to overlap once inflated; the core-distance GJK crowded its
/// simplex with near-equal rim points and then reported the cores as
/// overlapping (or ran to its cap), so MPR ran on the cores and answered
/// "separated": intersect and penetration disagreed, swapping A and B
/// changed the verdict, or a core-separating normal was reported for the
/// inflated shapes.
const REGRESSIONS: &[&str] = &[
    "e7e06ddd9877887412fb56d0998112f6198998e3ce7917acab7ded7cfae1514e1def51df91f25cb4508a50758857d830308634830f0a9fd7941e6b0b088944225a3de76cc063a49b39c3e3d1b4d6c6e27e1e8a9d754933287fc3eb754acc200c2e25e5a93e32f8d307c9eed278f933756745b65288e3711915572c756ffc960d1e92931fb5e6",
    "72c16ffadc112a4245d0f1d14c1d6a58639102bc98a17e84bde914cbc052f5590cbb5a6e095679348a9c0f251279fcb39bf79a35ab2ec610f84d30b2d381fde155bff7e5f2b3783a1adc65b8473fff0a61bd3b631bcef47962876d0f0f440550d50d079712af48daefd9364a9ff3605b41ab5bfe26",
    "ba4dbad47c862454818a0c130ff12c6ee1a6a0cc056f0b4c91989e8fe279068a60e4bff4f5d0165a04d7b85a56b63a022adac324fe0379cae9f6e96f634bfcdef9a5e3f7385f2512ea063faa8525b5e6ca7adbdde7e364e40314e039fdc7e76d608dcada040afcc72d312aa5f53ea35dae5b021df8",
    "ae80dac2e4bb91693b68bec975c085237e581bcdd8a9a072516a9e52b52486796f8d762db8adc6b063bc3ed32cba4823101407e3c1c2a11da9b703db5ecf1f3e1caf790f2dfa8d5fb8c27d984f34106307790d041b6c8a2b55b072d69e7e097346a8785e6368064af797d41b9047633eeac84e4f30b9763994",
    "d2af2875c2961e45f9f85f2fda37e868f7b465cb9d899ed1be136524dd2cfadb221bf12ff90a6ebd35ad91f33c1ecaffad79ed43f7a7c216672953927d82f721bab171",
    "3c5596b621bc07b3f4310e37065a60c99d9d437973acade791be51e48b649874a0ace9146151e95e77adcc0f9b4d308f2ff8619b7886485cf69ac89dbf7ab5068bed627e563e11147c6259d8c35398ecc1343d289aacefaf93196b05a42862cdc163829e0ac365ef363f2391f09839dae662381d2e094913e66d1e6866",
    "15bcc60fab89a0a84bee2dc99d51cd4566cf6a82d539698cb5c19c6229e8cccabe8c4c88c0d7a96f2a00d2a0e6775d459e824f797104c9a03f26014c74d09c563840610aa99029362c5b69c60fd5426b66f1965c04e5050780be8cf0e35a7a289126bbbe9cd187",
    "b78a8b4c5325163c4cb212802d5b36d9524376342d045be687e5524328e9874caa6e6431c3c1bbc67d07dc45654a9e9c2762bacf79851e6956b4084d944c8fbe24d11bd987d06bdc6d02d6fd7faee94345cb387c779cdf6641d636cf4aabebe72718eddcdf59525bed069ef1ee4652a568f3558aa50e15d247f3e5a0aa4ce18324653a02a245f3e716e9af",
    "cbf2a5039b14bab756b3496626f0d145e190787770fbff19a6802a31cfd2fa28663eb1eea897051f19aa9791dc439320f1dd2e73908e9505ef35802ed9984e9296a5469aaab592a58543798e984b90c35c669b3e338adc0b42c281315a22cd",
    "aea0bf00f417ac69797aafc705ac5e6e2839357437b7fdf6e87901188c32a993e1b9c4ad64c5810179c7d3e8d7acccdfe4e2a26f91f07863b9d1f90dd63f9b7e3f142a76aef32b76776be30f7a5451e9b2b2e4c2ae2d3ab163176249cdfeafa8108976ed9734047dfc35282c15222691d0aefdcd7ff4ea8c79ff6eb0aaef06d4489489bd5e33ef",
];

fn from_hex(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn fuzz_harness_regressions() {
    for hex in REGRESSIONS {
        if let Err(e) = check_bytes(&from_hex(hex)) {
            panic!("{e}: {hex}");
        }
    }
}
