//! Inflated shapes whose *cores* intersect while the cores' Minkowski
//! difference is flat: a sphere's centre on a capsule's axis segment or at
//! its end point (a point against a segment), capsules whose axes cross or
//! that share a joint end point (two segments). The cores touch, so the
//! shapes overlap by exactly `r_a + r_b - d`, `d` the cores' distance (zero
//! up to the rounding of the poses), along any direction across the flat
//! difference. Issue 32: MPR called some of these pairs apart on a
//! round-off sign, in one order of A and B and not the other.
//!
//! Thousands of seeded poses per family, in both orders, in f32 and f64.
//! The reference is independent of the crate: the cores' distance by a
//! golden-section search over the segments, the shapes' supports in closed
//! form. Checked: never apart (`penetration` and `intersect`), the depth
//! against `r_a + r_b - d`, the depth being the separating translation
//! along the normal, witnesses on the shapes, and swapping A and B giving
//! the same depth and the opposite normal (or, the difference being flat,
//! an equally deep normal: a tie).

use mink_mpr::{intersect, penetration, MprStatus, Penetration};
use mink_support::{Capsule, Iso3, Pair, Real, Sphere, Support, Vec3};
use mink_testkit::{for_each_real, Rng};

/// Poses per family and order.
const CASES: usize = 2500;

/// Tolerance on depths and separating translations, meters, for shapes of
/// about 1 m: the rounding of the poses in f32 moves the cores by a few
/// 1e-7 m.
fn tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS < 30 {
        2e-4
    } else {
        1e-9
    }
}

/// A swept segment in the world, in f64: end points and radius (a sphere is
/// a segment of zero length).
#[derive(Clone, Copy, Debug)]
struct Swept {
    p0: Vec3<f64>,
    p1: Vec3<f64>,
    r: f64,
}

impl Swept {
    fn of_sphere<R: Real>(pose: &Iso3<R>, r: f64) -> Self {
        let c = pose.translation.cast::<f64>();
        Self { p0: c, p1: c, r }
    }

    fn of_capsule<R: Real>(pose: &Iso3<R>, r: f64, half_length: f64) -> Self {
        let c = pose.translation.cast::<f64>();
        let z = pose.rotation.col(2).cast::<f64>();
        Self {
            p0: c - z * half_length,
            p1: c + z * half_length,
            r,
        }
    }

    /// Support of the full shape along the unit `n`: `max n · x`.
    fn support(&self, n: Vec3<f64>) -> f64 {
        n.dot(self.p0).max(n.dot(self.p1)) + self.r
    }

    /// Distance from `x` to the core segment.
    fn core_distance(&self, x: Vec3<f64>) -> f64 {
        let d = self.p1 - self.p0;
        let l2 = d.norm_squared();
        let t = if l2 > 0.0 {
            ((x - self.p0).dot(d) / l2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (self.p0 + d * t - x).norm()
    }
}

/// Distance between two core segments: golden-section search on the convex
/// function `s -> dist(p(s), segment q)`, plus both ends.
fn core_distance(a: &Swept, b: &Swept) -> f64 {
    mink_testkit::min_convex_on_unit_interval(|s| b.core_distance(a.p0 + (a.p1 - a.p0) * s))
}

/// How often each outcome was seen, over one family in one scalar.
#[derive(Default, Debug)]
struct Tally {
    queries: usize,
    wrong_verdicts: usize,
    intersect_wrong: usize,
    wrong_depths: usize,
    wrong_translations: usize,
    wrong_witnesses: usize,
    swap_depths: usize,
    swap_normals: usize,
    ties: usize,
    converged: usize,
    worst_depth_error: f64,
    first_failure: Option<String>,
}

impl Tally {
    fn fail(&mut self, what: &str, detail: impl FnOnce() -> String) {
        if self.first_failure.is_none() {
            self.first_failure = Some(format!("{what}: {}", detail()));
        }
    }

    fn failures(&self) -> usize {
        self.wrong_verdicts
            + self.intersect_wrong
            + self.wrong_depths
            + self.wrong_translations
            + self.wrong_witnesses
            + self.swap_depths
            + self.swap_normals
    }
}

/// One order: checks the answer of `penetration` and `intersect` for A and
/// B against the reference depth; returns the answer (world frame, f64).
fn one_order<R: Real, A: Support<R> + core::fmt::Debug, B: Support<R> + core::fmt::Debug>(
    (a, pose_a, ref_a): (&A, &Iso3<R>, &Swept),
    (b, pose_b, ref_b): (&B, &Iso3<R>, &Swept),
    depth: f64,
    t: &mut Tally,
) -> Penetration<R> {
    let tol = tol::<R>();
    t.queries += 1;
    let hit = penetration(&mut Pair::new(a, pose_a, b, pose_b), pose_a);
    let boolean = intersect(&mut Pair::new(a, pose_a, b, pose_b));
    if !boolean.overlapping {
        t.intersect_wrong += 1;
        t.fail("intersect says apart", || format!("{boolean:?}"));
    }
    if !hit.is_overlapping() || hit.depth <= R::ZERO {
        t.wrong_verdicts += 1;
        t.fail("penetration says apart", || {
            format!("{hit:?}, expected depth {depth}, {pose_a:?}, {pose_b:?}")
        });
        return hit;
    }
    if hit.status == MprStatus::Converged {
        t.converged += 1;
    }
    let got = hit.depth.to_f64();
    let err = (got - depth).abs();
    t.worst_depth_error = t.worst_depth_error.max(err);
    if err > tol * depth.max(1.0) {
        t.wrong_depths += 1;
        t.fail("depth", || {
            format!("{got} vs {depth}: {hit:?}, {a:?} at {pose_a:?}, {b:?} at {pose_b:?}")
        });
    }
    // The depth is the separating translation along the normal.
    let n = hit.normal.cast::<f64>();
    let along = ref_a.support(n) + ref_b.support(-n);
    if (along - got).abs() > tol * depth.max(1.0) || (n.norm() - 1.0).abs() > 1e-3 {
        t.wrong_translations += 1;
        t.fail("separating translation", || {
            format!("{along} along the normal vs depth {got}: {hit:?}")
        });
    }
    // Witnesses on the shapes' surfaces, `p_a - p_b` close to `depth n`.
    let (pa, pb) = (hit.p_a.cast::<f64>(), hit.p_b.cast::<f64>());
    let on_a = (ref_a.core_distance(pa) - ref_a.r).abs();
    let on_b = (ref_b.core_distance(pb) - ref_b.r).abs();
    let gap = (pa - pb - n * got).norm();
    let wtol = 10.0 * tol * depth.max(1.0);
    if on_a > wtol || on_b > wtol || gap > wtol {
        t.wrong_witnesses += 1;
        t.fail("witnesses", || {
            format!(
                "off A by {on_a}, off B by {on_b}, p_a - p_b off by {gap}: {hit:?}, \
                 {a:?} at {pose_a:?}, {b:?} at {pose_b:?}"
            )
        });
    }
    hit
}

/// Both orders of one pose, and their symmetry.
fn both_orders<R: Real, A: Support<R> + core::fmt::Debug, B: Support<R> + core::fmt::Debug>(
    (a, pose_a, ref_a): (&A, &Iso3<R>, &Swept),
    (b, pose_b, ref_b): (&B, &Iso3<R>, &Swept),
    t: &mut Tally,
) {
    let tol = tol::<R>();
    let depth = ref_a.r + ref_b.r - core_distance(ref_a, ref_b);
    let ab = one_order((a, pose_a, ref_a), (b, pose_b, ref_b), depth, t);
    let ba = one_order((b, pose_b, ref_b), (a, pose_a, ref_a), depth, t);
    if !(ab.is_overlapping() && ba.is_overlapping()) {
        return;
    }
    let (d_ab, d_ba) = (ab.depth.to_f64(), ba.depth.to_f64());
    if (d_ab - d_ba).abs() > tol * depth.max(1.0) {
        t.swap_depths += 1;
        t.fail("swap changes the depth", || format!("{ab:?} vs {ba:?}"));
    }
    let (n_ab, n_ba) = (ab.normal.cast::<f64>(), ba.normal.cast::<f64>());
    if (n_ab + n_ba).norm() > 1e-3 {
        // Not flipped: right only when B-to-A's normal, flipped, is an
        // equally deep answer for A to B (the flat difference's two sides).
        let along = ref_a.support(-n_ba) + ref_b.support(n_ba);
        if (along - d_ab).abs() <= tol * depth.max(1.0) {
            t.ties += 1;
        } else {
            t.swap_normals += 1;
            t.fail("swap does not flip the normal", || {
                format!("{ab:?} vs {ba:?}, {along} along the flipped one")
            });
        }
    }
}

/// A capsule of random size and pose: the shape, its pose, its reference.
fn capsule<R: Real>(rng: &mut Rng, pose: Iso3<R>) -> (Capsule<R>, Iso3<R>, Swept) {
    let (r, l) = (rng.range_f64(0.05, 1.5), rng.range_f64(0.05, 2.0));
    let shape = Capsule::new(R::lit(r), R::lit(l)).unwrap();
    let reference = Swept::of_capsule(&pose, r, l);
    (shape, pose, reference)
}

/// A sphere of random radius centred at `c` (random rotation).
fn sphere<R: Real>(rng: &mut Rng, c: Vec3<R>) -> (Sphere<R>, Iso3<R>, Swept) {
    let r = rng.range_f64(0.05, 1.5);
    let pose = Iso3::from_parts(rng.rotation(), c);
    (
        Sphere::new(R::lit(r)).unwrap(),
        pose,
        Swept::of_sphere(&pose, r),
    )
}

/// The point of a capsule's axis at parameter `s` in `[-1, 1]`, in the
/// world, computed in `R` as a user would.
fn on_axis<R: Real>(c: &Capsule<R>, pose: &Iso3<R>, s: f64) -> Vec3<R> {
    pose.translation + pose.rotation.col(2) * (c.half_length() * R::lit(s))
}

fn report<R: Real>(family: &str, t: &Tally) {
    println!(
        "{family} ({} bits): {} queries, {} converged, {} wrong verdicts, {} intersect wrong, \
         {} depths, {} translations, {} witnesses, {} swap depths, {} swap normals, \
         {} ties, worst depth error {:.3e}",
        R::MANTISSA_BITS,
        t.queries,
        t.converged,
        t.wrong_verdicts,
        t.intersect_wrong,
        t.wrong_depths,
        t.wrong_translations,
        t.wrong_witnesses,
        t.swap_depths,
        t.swap_normals,
        t.ties,
        t.worst_depth_error,
    );
    assert_eq!(
        t.failures(),
        0,
        "{family}: {t:#?}\nfirst failure: {}",
        t.first_failure.as_deref().unwrap_or("")
    );
}

/// A sphere whose centre lies on a capsule's axis segment (inside it).
fn sphere_on_axis<R: Real>() {
    let mut rng = Rng::new(0x32_0001);
    let mut t = Tally::default();
    for _ in 0..CASES {
        let pose = rng.pose(3.0);
        let (cap, pose_c, ref_c) = capsule::<R>(&mut rng, pose);
        let s = rng.range_f64(-0.999, 0.999);
        let centre = on_axis(&cap, &pose_c, s);
        let (ball, pose_s, ref_s) = sphere(&mut rng, centre);
        both_orders((&ball, &pose_s, &ref_s), (&cap, &pose_c, &ref_c), &mut t);
    }
    report::<R>("sphere on a capsule's axis", &t);
}
for_each_real!(sphere_on_capsule_axis, sphere_on_axis);

/// A sphere centred at one of a capsule's end points.
fn sphere_at_end<R: Real>() {
    let mut rng = Rng::new(0x32_0002);
    let mut t = Tally::default();
    for _ in 0..CASES {
        let pose = rng.pose(3.0);
        let (cap, pose_c, ref_c) = capsule::<R>(&mut rng, pose);
        let s = if rng.chance(0.5) { 1.0 } else { -1.0 };
        let centre = on_axis(&cap, &pose_c, s);
        let (ball, pose_s, ref_s) = sphere(&mut rng, centre);
        both_orders((&ball, &pose_s, &ref_s), (&cap, &pose_c, &ref_c), &mut t);
    }
    report::<R>("sphere at a capsule's end point", &t);
}
for_each_real!(sphere_at_capsule_end, sphere_at_end);

/// Two capsules whose axis segments cross: B's axis passes through a point
/// of A's axis.
fn crossing_axes<R: Real>() {
    let mut rng = Rng::new(0x32_0003);
    let mut t = Tally::default();
    for _ in 0..CASES {
        let pose = rng.pose(3.0);
        let (a, pose_a, ref_a) = capsule::<R>(&mut rng, pose);
        let x = on_axis(&a, &pose_a, rng.range_f64(-0.999, 0.999));
        let rot_b = rng.rotation::<R>();
        let (rb, lb) = (rng.range_f64(0.05, 1.5), rng.range_f64(0.05, 2.0));
        let s = rng.range_f64(-0.999, 0.999);
        let centre_b = x - rot_b.col(2) * R::lit(s * lb);
        let (b, pose_b, ref_b) = capsule_sized::<R>(rb, lb, Iso3::from_parts(rot_b, centre_b));
        both_orders((&a, &pose_a, &ref_a), (&b, &pose_b, &ref_b), &mut t);
    }
    report::<R>("capsules with crossing axes", &t);
}
for_each_real!(capsules_with_crossing_axes, crossing_axes);

/// Capsule chains: B's end point is A's end point (a robot's joint). One
/// case in eight is a straight chain (B's axis along A's).
fn chain<R: Real>() {
    let mut rng = Rng::new(0x32_0004);
    let mut t = Tally::default();
    for _ in 0..CASES {
        let pose = rng.pose(3.0);
        let (a, pose_a, ref_a) = capsule::<R>(&mut rng, pose);
        let end = if rng.chance(0.5) { 1.0 } else { -1.0 };
        let joint = on_axis(&a, &pose_a, end);
        let rot_b = if rng.below(8) == 0 {
            pose_a.rotation
        } else {
            rng.rotation::<R>()
        };
        let (rb, lb) = (rng.range_f64(0.05, 1.5), rng.range_f64(0.05, 2.0));
        let side = if rng.chance(0.5) { 1.0 } else { -1.0 };
        let centre_b = joint + rot_b.col(2) * R::lit(side * lb);
        let (b, pose_b, ref_b) = capsule_sized::<R>(rb, lb, Iso3::from_parts(rot_b, centre_b));
        both_orders((&a, &pose_a, &ref_a), (&b, &pose_b, &ref_b), &mut t);
    }
    report::<R>("capsule chains sharing a joint", &t);
}
for_each_real!(capsule_chains_sharing_a_joint, chain);

/// A capsule of the given radius and half length at `pose`.
fn capsule_sized<R: Real>(r: f64, l: f64, pose: Iso3<R>) -> (Capsule<R>, Iso3<R>, Swept) {
    let shape = Capsule::new(R::lit(r), R::lit(l)).unwrap();
    (shape, pose, Swept::of_capsule(&pose, r, l))
}
