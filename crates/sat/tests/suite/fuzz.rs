//! The fuzzing harness on random bytes and on structured random pairs, and
//! GJK's verdict against SAT's away from touching.

use crate::common::random_hull;
use mink_gjk::{distance, GjkStatus};
use mink_sat::fuzz::{check_bytes, check_pair};
use mink_sat::{sat, Culling};
use mink_support::{Pair, Real};
use mink_testkit::{for_each_real, Rng};

fn random_bytes_keep_invariants<R: Real>() {
    let mut rng = Rng::new(0x5a7_4001);
    for _ in 0..3000 {
        // Long enough for two 32-point hulls, two poses and the margin.
        let len = 420 + rng.below(40);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        check_bytes::<R>(&bytes).unwrap();
    }
}
for_each_real!(random_bytes_keep_invariants, random_bytes_keep_invariants);

fn random_pairs_keep_invariants_and_agree_with_gjk<R: Real>() {
    let mut rng = Rng::new(0x5a7_4002);
    let (mut apart, mut checked) = (0, 0);
    for _ in 0..1500 {
        let na = [4, 10, 32][rng.below(3)];
        let nb = [4, 10, 32][rng.below(3)];
        let a = random_hull::<R>(&mut rng, na);
        let b = random_hull::<R>(&mut rng, nb);
        let pose_a = rng.pose::<R>(1.0);
        let pose_b = rng.pose::<R>(1.0);
        let (sa, sb) = (a.sat(), b.sat());
        check_pair(&sa, &pose_a, &sb, &pose_b, R::lit(0.02)).unwrap();
        let s = sat(&sa, &pose_a, &sb, &pose_b, Culling::On)
            .best
            .separation
            .to_f64();
        let (va, vb) = (a.hull.view(), b.hull.view());
        let d = distance(&mut Pair::new(&va, &pose_a, &vb, &pose_b), &pose_a);
        let touching = 1e-3;
        if s.abs() > touching {
            let gjk_apart = d.status == GjkStatus::Converged && d.distance.to_f64() > 0.0;
            assert_eq!(
                s > 0.0,
                gjk_apart,
                "sat {s} gjk {:?} {}",
                d.status,
                d.distance
            );
            checked += 1;
            apart += (s > 0.0) as usize;
        }
    }
    let share = apart as f64 / checked as f64;
    assert!((0.2..0.8).contains(&share), "apart share {share}");
}
for_each_real!(
    random_pairs_keep_invariants_and_agree_with_gjk,
    random_pairs_keep_invariants_and_agree_with_gjk
);
