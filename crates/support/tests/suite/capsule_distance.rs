//! `closest_segment_points` and `Capsule::distance_to_capsule` against an
//! independent brute force (the distance between dense samples of both
//! segments, refined around the best sample pair, in f64), in f32 and f64:
//! generic, parallel, collinear, nearly parallel, crossing and zero-length
//! segments; then exact answers for hand-made capsule pairs and the
//! non-finite inputs that must give `None`, not a panic.

use mink_support::{closest_segment_points, Capsule, CapsuleDistance, Iso3, Mat3, Real, Vec3};
use mink_testkit::{for_each_real, Rng};

/// Segment pairs per family.
const CASES: usize = 250;
/// Samples per segment in the coarse grid (plus one: both ends).
const COARSE: usize = 128;
/// Samples per segment in the refined grid around the best coarse pair.
const FINE: usize = 32;

/// The families of segment pairs.
const FAMILIES: [&str; 8] = [
    "generic",
    "parallel",
    "collinear",
    "nearly parallel",
    "crossing",
    "first a point",
    "second a point",
    "both points",
];

fn cast(v: Vec3<impl Real>) -> Vec3<f64> {
    v.cast()
}

/// The distance from `x` to the segment `a b`, f64, by projection.
fn point_segment_distance(x: Vec3<f64>, a: Vec3<f64>, b: Vec3<f64>) -> f64 {
    let d = b - a;
    let dd = d.dot(d);
    let t = if dd > 0.0 {
        ((x - a).dot(d) / dd).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + d * t - x).norm()
}

/// The brute-force distance between segments `p0 p1` and `q0 q1`: the least
/// distance over a grid of sample pairs, then over a finer grid around the
/// best pair; with the offset `q - p` of that pair. Every sample is a pair
/// of points of the segments, so the result is never below the true
/// distance.
fn sampled(p0: Vec3<f64>, p1: Vec3<f64>, q0: Vec3<f64>, q1: Vec3<f64>) -> (f64, Vec3<f64>) {
    let at = |s: f64, t: f64| (q0 + (q1 - q0) * t) - (p0 + (p1 - p0) * s);
    let mut best = (f64::INFINITY, Vec3::ZERO, 0.0, 0.0);
    let h = 1.0 / COARSE as f64;
    for i in 0..=COARSE {
        for j in 0..=COARSE {
            let (s, t) = (i as f64 * h, j as f64 * h);
            let d = at(s, t);
            if d.norm() < best.0 {
                best = (d.norm(), d, s, t);
            }
        }
    }
    let (s0, t0) = (best.2, best.3);
    for i in 0..=FINE {
        for j in 0..=FINE {
            let s = (s0 - h + 2.0 * h * i as f64 / FINE as f64).clamp(0.0, 1.0);
            let t = (t0 - h + 2.0 * h * j as f64 / FINE as f64).clamp(0.0, 1.0);
            let d = at(s, t);
            if d.norm() < best.0 {
                best = (d.norm(), d, s, t);
            }
        }
    }
    (best.0, best.1)
}

/// A segment pair of family `k` of [`FAMILIES`], about a metre in size.
fn segment_pair<R: Real>(rng: &mut Rng, k: usize) -> [Vec3<R>; 4] {
    let p0: Vec3<f64> = rng.in_cube(1.0);
    let p1: Vec3<f64> = rng.in_cube(1.0);
    let d1 = p1 - p0;
    let pts = match k {
        0 => [p0, p1, rng.in_cube(1.0), rng.in_cube(1.0)],
        1 => {
            let offset = rng.range_f64(0.01, 1.0);
            let q0 = p0 + rng.in_cube(offset);
            [p0, p1, q0, q0 + d1 * rng.range_f64(-2.0, 2.0)]
        }
        2 => {
            let q0 = p0 + d1 * rng.range_f64(-2.0, 2.0);
            [p0, p1, q0, q0 + d1 * rng.range_f64(-1.5, 1.5)]
        }
        3 => {
            let q0 = p0 + rng.in_cube(0.5);
            let tilt: Vec3<f64> = rng.in_cube(1e-4);
            [p0, p1, q0, q0 + d1 + tilt]
        }
        4 => {
            let c: Vec3<f64> = rng.in_cube(1.0);
            let (u, v): (Vec3<f64>, Vec3<f64>) = (rng.unit_vec(), rng.unit_vec());
            let (a, b) = (rng.range_f64(0.05, 1.0), rng.range_f64(0.05, 1.0));
            let (e, f) = (rng.range_f64(0.05, 1.0), rng.range_f64(0.05, 1.0));
            [c - u * a, c + u * b, c - v * e, c + v * f]
        }
        5 => [p0, p0, rng.in_cube(1.0), rng.in_cube(1.0)],
        6 => {
            let q: Vec3<f64> = rng.in_cube(1.0);
            [p0, p1, q, q]
        }
        _ => {
            let q: Vec3<f64> = rng.in_cube(1.0);
            [p0, p0, q, q]
        }
    };
    pts.map(|p| p.cast())
}

/// Rounding allowance of a closed-form distance in scalar `R` for points
/// of size `scale` (meters): a few hundred ulps of the coordinates.
fn rounding<R: Real>(scale: f64) -> f64 {
    256.0 * R::EPSILON.to_f64() * scale.max(1.0)
}

/// The documented extra error of nearly parallel segments (directions
/// `d1`, `d2`): below an angle of `4 √ε` (twice that here, for the
/// rounding of the test itself), the angle times the longer length.
fn parallel_allowance<R: Real>(d1: Vec3<f64>, d2: Vec3<f64>) -> f64 {
    let (l1, l2) = (d1.norm(), d2.norm());
    if l1 == 0.0 || l2 == 0.0 {
        return 0.0;
    }
    let sin = d1.cross(d2).norm() / (l1 * l2);
    if sin <= 8.0 * R::EPSILON.to_f64().sqrt() {
        sin * l1.max(l2)
    } else {
        0.0
    }
}

fn closest_points_match_brute_force<R: Real>() {
    let mut rng = Rng::new(0x5e9_c105e);
    let mut worst = 0.0f64;
    for (k, family) in FAMILIES.iter().enumerate() {
        for case in 0..CASES {
            let [p0, p1, q0, q1] = segment_pair::<R>(&mut rng, k);
            let (on_p, on_q) = closest_segment_points(p0, p1, q0, q1);
            let [p0, p1, q0, q1] = [p0, p1, q0, q1].map(cast);
            let (on_p, on_q) = (cast(on_p), cast(on_q));
            let scale = [p0, p1, q0, q1]
                .iter()
                .map(|p| p.max_abs())
                .fold(0.0, f64::max);
            let tol = rounding::<R>(scale);
            let what = format!("{family} case {case}: {p0:?} {p1:?} / {q0:?} {q1:?}");
            // The points lie on their segments: their distance is never
            // below the true one.
            assert!(
                point_segment_distance(on_p, p0, p1) <= tol,
                "{what}: {on_p:?} off the first segment"
            );
            assert!(
                point_segment_distance(on_q, q0, q1) <= tol,
                "{what}: {on_q:?} off the second segment"
            );
            // And no sample pair is closer.
            let got = (on_q - on_p).norm();
            let (want, _) = sampled(p0, p1, q0, q1);
            let slack = tol + parallel_allowance::<R>(p1 - p0, q1 - q0);
            assert!(got <= want + slack, "{what}: {got} > sampled {want}");
            if k != 3 {
                worst = worst.max(got - want);
            }
            if k == 4 {
                assert!(got <= tol, "{what}: crossing segments {got} apart");
            }
        }
    }
    assert!(worst <= rounding::<R>(2.0), "{worst}");
}

for_each_real!(
    closest_points_agree_with_sampling,
    closest_points_match_brute_force
);

/// Non-finite ends give some points and never a panic; finite ends of any
/// size give finite points.
fn closest_points_hostile_input<R: Real>() {
    let (nan, inf) = (R::nan(), R::INFINITY);
    let o = Vec3::<R>::ZERO;
    let x = Vec3::<R>::X;
    for bad in [
        Vec3::splat(nan),
        Vec3::splat(inf),
        Vec3::new(-inf, o.y, o.z),
    ] {
        let _ = closest_segment_points(bad, x, o, x);
        let _ = closest_segment_points(o, x, bad, bad);
    }
    let big = Vec3::splat(R::lit(1e15));
    let (a, b) = closest_segment_points(-big, big, -x, x);
    assert!(a.is_finite() && b.is_finite());
    let tiny = Vec3::splat(R::min_positive_value());
    let (a, b) = closest_segment_points(o, tiny, tiny, tiny * R::TWO);
    assert!(a.is_finite() && b.is_finite());
}

for_each_real!(closest_points_never_panic, closest_points_hostile_input);

/// A capsule of radius `r`, half-length `h`, from literals.
fn capsule<R: Real>(r: f64, h: f64) -> Capsule<R> {
    Capsule::new(R::lit(r), R::lit(h)).unwrap()
}

/// The world ends of a capsule's core, f64, by transforming the local ends.
fn core_ends<R: Real>(c: &Capsule<R>, pose: &Iso3<R>) -> (Vec3<f64>, Vec3<f64>) {
    let (a, b) = c.segment_ends();
    (
        pose.transform_point(a).cast(),
        pose.transform_point(b).cast(),
    )
}

/// Checks `d` against the brute force for capsules `a` at `pa` and `b` at
/// `pb`; returns the brute-force signed distance.
fn check_capsules<R: Real>(
    a: &Capsule<R>,
    pa: &Iso3<R>,
    b: &Capsule<R>,
    pb: &Iso3<R>,
    d: &CapsuleDistance<R>,
    what: &str,
) -> f64 {
    let (p0, p1) = core_ends(a, pa);
    let (q0, q1) = core_ends(b, pb);
    let (ra, rb) = (a.radius().to_f64(), b.radius().to_f64());
    let scale = [p0, p1, q0, q1]
        .iter()
        .map(|p| p.max_abs())
        .fold(0.0, f64::max);
    let tol = rounding::<R>(scale);
    let (core, delta) = sampled(p0, p1, q0, q1);
    let want = core - ra - rb;
    let (dist, n) = (d.distance.to_f64(), cast(d.normal));
    let (p_a, p_b) = (cast(d.p_a), cast(d.p_b));
    // Never farther than a sample pair; never nearer than the true
    // distance (the witnesses are on the surfaces, checked below).
    assert!(dist <= want + tol, "{what}: {dist} > sampled {want}");
    let h = 1.0 / COARSE as f64;
    let lipschitz = (p1 - p0).norm() + (q1 - q0).norm();
    assert!(
        dist >= want - lipschitz * h / 2.0 - tol,
        "{what}: {dist} < sampled {want}"
    );
    assert!(
        (n.norm() - 1.0).abs() <= tol,
        "{what}: |normal| {}",
        n.norm()
    );
    // The witnesses lie on the surfaces: their core distance is the radius.
    let on_a = point_segment_distance(p_a, p0, p1);
    let on_b = point_segment_distance(p_b, q0, q1);
    assert!((on_a - ra).abs() <= tol, "{what}: p_a {on_a} from A's core");
    assert!((on_b - rb).abs() <= tol, "{what}: p_b {on_b} from B's core");
    // p_b - p_a = distance · normal.
    assert!(
        (p_b - p_a - n * dist).max_abs() <= 2.0 * tol,
        "{what}: p_b - p_a {:?}, distance · normal {:?}",
        p_b - p_a,
        n * dist
    );
    // The closest offset of two convex sets is unique: apart cores give
    // the normal (within the sampling's angle).
    if core > 0.05 {
        let sampled_n = delta * (1.0 / delta.norm());
        let angle = (n - sampled_n).norm();
        assert!(
            angle <= lipschitz * h / core + tol,
            "{what}: normal {n:?}, sampled {sampled_n:?}"
        );
    }
    want
}

fn capsules_match_brute_force<R: Real>() {
    let mut rng = Rng::new(0xca95_01e5);
    let (mut overlapping, mut total) = (0, 0);
    for case in 0..4 * CASES {
        let half = if case % 5 == 0 {
            0.0
        } else {
            rng.range_f64(0.0, 0.8)
        };
        let a = capsule::<R>(rng.range_f64(0.05, 0.4), half);
        let b = capsule::<R>(rng.range_f64(0.05, 0.4), rng.range_f64(0.0, 0.8));
        let (pa, pb) = (rng.pose::<R>(0.6), rng.pose::<R>(0.6));
        let what = format!("case {case}: {a:?} at {pa:?}, {b:?} at {pb:?}");
        let d = a
            .distance_to_capsule(&pa, &b, &pb)
            .unwrap_or_else(|| panic!("{what}: no answer"));
        let want = check_capsules(&a, &pa, &b, &pb, &d, &what);
        // The reverse pair: the same distance, the normal and witnesses
        // swapped.
        let r = b.distance_to_capsule(&pb, &a, &pa).unwrap();
        let tol = rounding::<R>(2.0);
        assert!((r.distance - d.distance).to_f64().abs() <= tol, "{what}");
        if want > 0.05 {
            assert!(
                (cast(r.normal) + cast(d.normal)).max_abs() <= 1e-2,
                "{what}"
            );
        }
        overlapping += usize::from(want < 0.0);
        total += 1;
    }
    // Both outcomes are well represented.
    assert!(
        (total / 5..=4 * total / 5).contains(&overlapping),
        "{overlapping} of {total} overlap"
    );
}

for_each_real!(
    capsule_distance_agrees_with_sampling,
    capsules_match_brute_force
);

/// A pose from a rotation of `angle` about unit `axis` and a translation.
fn pose<R: Real>(axis: Vec3<f64>, angle: f64, t: [f64; 3]) -> Iso3<R> {
    Iso3::from_parts(
        Mat3::from_axis_angle(axis, angle),
        Vec3::new(t[0], t[1], t[2]),
    )
    .cast()
}

fn close<R: Real>(got: R, want: f64) -> bool {
    (got.to_f64() - want).abs() <= rounding::<R>(2.0)
}

fn close_vec<R: Real>(got: Vec3<R>, want: [f64; 3]) -> bool {
    (cast(got) - Vec3::new(want[0], want[1], want[2])).max_abs() <= rounding::<R>(2.0)
}

/// Hand-made pairs with known answers: crossing, parallel side by side,
/// coaxial end to end, two points (spheres), and coincident points.
fn known_capsule_answers<R: Real>() {
    let half_pi = core::f64::consts::FRAC_PI_2;
    let (a, b) = (capsule::<R>(0.1, 0.5), capsule::<R>(0.2, 0.4));

    // Crossing cores: A along z at the origin, B along x, 0.05 above in y.
    // The cores cross when B's centre is at y = 0; there the depth is the
    // sum of the radii and the normal is ±y (perpendicular to both),
    // turned towards B's centre.
    let pa = Iso3::<R>::IDENTITY;
    let pb = pose::<R>(Vec3::Y, half_pi, [0.0, 0.0, 0.1]);
    let d = a.distance_to_capsule(&pa, &b, &pb).unwrap();
    assert!(close(d.distance, -0.3), "crossing: {d:?}");
    assert!(d.normal.z.abs() <= R::lit(1e-3), "crossing: {d:?}");
    assert!(close(d.normal.norm(), 1.0), "crossing: {d:?}");
    let pb = pose::<R>(Vec3::Y, half_pi, [0.0, 0.05, 0.1]);
    let d = a.distance_to_capsule(&pa, &b, &pb).unwrap();
    assert!(close(d.distance, 0.05 - 0.3), "crossing above: {d:?}");
    assert!(
        close_vec(d.normal, [0.0, 1.0, 0.0]),
        "crossing above: {d:?}"
    );
    assert!(close_vec(d.p_a, [0.0, 0.1, 0.1]), "crossing above: {d:?}");
    assert!(
        close_vec(d.p_b, [0.0, 0.05 - 0.2, 0.1]),
        "crossing above: {d:?}"
    );

    // Parallel, side by side along x, overlapping in z: gap 1 - 0.3.
    let pb = pose::<R>(Vec3::Z, 0.0, [1.0, 0.0, 0.3]);
    let d = a.distance_to_capsule(&pa, &b, &pb).unwrap();
    assert!(close(d.distance, 0.7), "parallel: {d:?}");
    assert!(close_vec(d.normal, [1.0, 0.0, 0.0]), "parallel: {d:?}");
    assert!(close(d.p_b.x - d.p_a.x, 0.7), "parallel: {d:?}");

    // Coaxial, end to end: A's top at 0.5, B's bottom at 2 - 0.4.
    let pb = pose::<R>(Vec3::Z, 0.0, [0.0, 0.0, 2.0]);
    let d = a.distance_to_capsule(&pa, &b, &pb).unwrap();
    assert!(close(d.distance, 1.1 - 0.3), "coaxial: {d:?}");
    assert!(close_vec(d.normal, [0.0, 0.0, 1.0]), "coaxial: {d:?}");
    assert!(close_vec(d.p_a, [0.0, 0.0, 0.6]), "coaxial: {d:?}");
    assert!(close_vec(d.p_b, [0.0, 0.0, 1.4]), "coaxial: {d:?}");

    // Coaxial and overlapping (collinear cores that share a stretch): the
    // depth is the sum of the radii, the normal perpendicular to the axis.
    let pb = pose::<R>(Vec3::Z, 0.0, [0.0, 0.0, 0.5]);
    let d = a.distance_to_capsule(&pa, &b, &pb).unwrap();
    assert!(close(d.distance, -0.3), "coaxial overlap: {d:?}");
    assert!(d.normal.z.abs() <= R::lit(1e-6), "coaxial overlap: {d:?}");
    assert!(close(d.normal.norm(), 1.0), "coaxial overlap: {d:?}");

    // Zero-length cores (spheres): centre distance minus the radii.
    let (s, t) = (capsule::<R>(0.25, 0.0), capsule::<R>(0.5, 0.0));
    let pt = pose::<R>(Vec3::X, 1.0, [0.6, 0.8, 0.0]);
    let d = s.distance_to_capsule(&pa, &t, &pt).unwrap();
    assert!(close(d.distance, 1.0 - 0.75), "spheres: {d:?}");
    assert!(close_vec(d.normal, [0.6, 0.8, 0.0]), "spheres: {d:?}");

    // Coincident points: +x, depth the sum of the radii.
    let d = s.distance_to_capsule(&pa, &t, &pa).unwrap();
    assert!(close(d.distance, -0.75), "coincident: {d:?}");
    assert_eq!(d.normal, Vec3::X, "coincident: {d:?}");

    // A point on a segment: perpendicular to the segment, towards B.
    let pt = pose::<R>(Vec3::X, 0.0, [0.0, 0.0, 0.2]);
    let d = a.distance_to_capsule(&pa, &t, &pt).unwrap();
    assert!(close(d.distance, -0.6), "point on a core: {d:?}");
    assert!(d.normal.z.abs() <= R::lit(1e-6), "point on a core: {d:?}");
}

for_each_real!(capsule_distance_known_answers, known_capsule_answers);

/// Non-finite poses give `None`; so do finite ones whose answer overflows.
fn capsule_distance_bad_poses<R: Real>() {
    let c = capsule::<R>(0.1, 0.5);
    let ok = Iso3::<R>::IDENTITY;
    for bad in [R::nan(), R::INFINITY, -R::INFINITY] {
        let mut p = ok;
        p.translation.y = bad;
        assert_eq!(c.distance_to_capsule(&p, &c, &ok), None);
        assert_eq!(c.distance_to_capsule(&ok, &c, &p), None);
        let mut p = ok;
        p.rotation.z_axis.x = bad;
        assert_eq!(c.distance_to_capsule(&ok, &c, &p), None);
    }
    let mut far = ok;
    far.translation.x = R::MAX;
    let mut other = ok;
    other.translation.x = -R::MAX;
    assert_eq!(c.distance_to_capsule(&far, &c, &other), None);
}

for_each_real!(
    capsule_distance_non_finite_is_none,
    capsule_distance_bad_poses
);
