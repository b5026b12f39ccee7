//! The `support_points` fuzz target: any shape mink-support exports, any
//! pose and direction, and the checks every support query must pass.
//!
//! Input layout (see [`super::bytes`] for how scalars are encoded):
//!
//! | bytes | meaning |
//! |---|---|
//! | 1 | scalar: bit 0 clear for f32, set for f64 |
//! | 1 | shape: low 7 bits modulo [`SHAPE_KINDS`] pick the shape, bit 7 wraps it in `Rounded` |
//! | ... | the shape's parameters, as its constructor takes them |
//! | ... | the `Rounded` margin, when bit 7 is set |
//! | 3 + 4 scalars | pose: translation, then a quaternion `w x y z` that the harness normalizes (zero gives the identity) |
//! | 3 scalars | direction, world frame, any length |
//! | 1 (+ 1 scalar) | support-set tolerance, meters: see [`decode_set_tolerance`] (the set is asked along the unit direction) |
//!
//! Reading past the end gives zeros, so every input is valid.

use super::bytes::ByteReader;
use crate::oracle::{HullFromPoints, Oracle, Samples};
use mink_support::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Ellipsoid, Iso3, Point, Quat, Real, Rounded,
    Segment, ShapeError, Sphere, SupportSet, TerrainPrism, Triangle, Vec3, SUPPORT_SET_CAPACITY,
};

/// Number of shape kinds the decoder knows (one match arm each).
pub const SHAPE_KINDS: u8 = 11;

/// Most input points the decoder gives a convex hull.
pub const MAX_HULL_INPUT: usize = 32;

/// Relative tolerance of the membership and extremality checks, in
/// epsilons of the shape's extent (a handful of roundings, with margin).
pub const CHECK_ULPS: f64 = 64.0;

/// Relative tolerance of the AABB checks, in epsilons of the shape's extent
/// plus the pose's translation (closed forms and support-based AABBs alike
/// are a handful of roundings from the exact box).
pub const AABB_ULPS: f64 = 64.0;

/// Which inputs stayed in the moderate range (finite, not subnormal, at
/// most [`super::bytes::MODERATE_LIMIT`]), deciding which checks apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Range {
    /// The shape or pose is huge, tiny or refused: only "no panic, and every
    /// returned point is finite" is checked (the oracles' own arithmetic is
    /// not trustworthy there).
    Hostile,
    /// Shape and pose are moderate, the direction or tolerance is not (zero,
    /// NaN, infinite...): returned points must also lie on the core.
    ShapeOnly,
    /// Everything is moderate: every check, extremality and AABBs included.
    All,
}

/// Whether a polytope's support set may hold face-loop vertices below
/// `top - tol`. `false`: every shape, the hull included, keeps only points
/// within `tol` (the contract of `Support::support_set`), and the lower
/// bound is checked for face loops too.
pub const FACE_LOOPS_MAY_EXCEED_TOLERANCE: bool = false;

/// What the harness did with an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The shape's constructor refused the parameters (rightly: checked).
    Refused,
    /// A shape was built and every check ran; `moderate` tells whether the
    /// input stayed in the moderate range, where the finiteness, extremality
    /// and AABB checks apply too.
    Checked {
        /// The shape kind (the decoder's arm, `0..SHAPE_KINDS`).
        kind: u8,
        /// Every scalar was moderate (see [`super::bytes::MODERATE_LIMIT`]).
        moderate: bool,
    },
}

/// Decodes `data` and checks the shape's support queries; panics (with the
/// reason) when a check fails. The fuzz target's body.
pub fn support_points(data: &[u8]) -> Outcome {
    let mut r = ByteReader::new(data);
    if r.u8() & 1 == 0 {
        decode_shape::<f32>(&mut r)
    } else {
        decode_shape::<f64>(&mut r)
    }
}

/// What a constructor should do with its parameters, judged by the harness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// The parameters are valid: the shape must be built.
    Accept,
    /// The parameters are invalid: the constructor must refuse them.
    Refuse,
    /// Either is right (a near-degenerate case decided by the shape's own
    /// documented tolerance).
    Either,
}

/// `Accept` when `ok`, else `Refuse`.
fn accept_if(ok: bool) -> Expect {
    if ok {
        Expect::Accept
    } else {
        Expect::Refuse
    }
}

/// Checks a constructor's answer against the expectation; the shape when
/// built.
fn built<S: core::fmt::Debug>(
    result: Result<S, ShapeError>,
    expect: Expect,
    what: &str,
) -> Option<S> {
    match (&result, expect) {
        (Ok(s), Expect::Refuse) => panic!("{what}: invalid parameters were accepted as {s:?}"),
        (Err(e), Expect::Accept) => panic!("{what}: valid parameters were refused: {e}"),
        _ => {}
    }
    result.ok()
}

/// `true` when `x` is finite and positive.
fn positive<R: Real>(x: R) -> bool {
    x.finite() && x > R::ZERO
}

/// Decodes the shape (one arm per shape kind; a new shape is one new arm)
/// and runs the checks on it.
fn decode_shape<R: Real>(r: &mut ByteReader<'_>) -> Outcome {
    let byte = r.u8();
    let rounded = byte & 0x80 != 0;
    let kind = (byte & 0x7f) % SHAPE_KINDS;
    let checked = match kind {
        0 => finish::<R, _>(r, rounded, Some(Point)),
        1 => {
            let radius: R = r.real();
            let s = built(Sphere::new(radius), accept_if(positive(radius)), "sphere");
            finish(r, rounded, s)
        }
        2 => {
            let h: Vec3<R> = r.vec3();
            let ok = positive(h.x) && positive(h.y) && positive(h.z);
            finish(r, rounded, built(Cuboid::new(h), accept_if(ok), "cuboid"))
        }
        3 => {
            let (radius, half): (R, R) = (r.real(), r.real());
            let ok = positive(radius) && half.finite() && half >= R::ZERO;
            let s = built(Capsule::new(radius, half), accept_if(ok), "capsule");
            finish(r, rounded, s)
        }
        4 => {
            let (a, b): (Vec3<R>, Vec3<R>) = (r.vec3(), r.vec3());
            let ok = a.is_finite() && b.is_finite();
            finish(
                r,
                rounded,
                built(Segment::new(a, b), accept_if(ok), "segment"),
            )
        }
        5 => {
            let radii: Vec3<R> = r.vec3();
            let ok = positive(radii.x) && positive(radii.y) && positive(radii.z);
            let s = built(Ellipsoid::new(radii), accept_if(ok), "ellipsoid");
            finish(r, rounded, s)
        }
        6 => {
            let (radius, half): (R, R) = (r.real(), r.real());
            let ok = positive(radius) && positive(half);
            let s = built(Cylinder::new(radius, half), accept_if(ok), "cylinder");
            finish(r, rounded, s)
        }
        7 => {
            let (radius, half): (R, R) = (r.real(), r.real());
            let ok = positive(radius) && positive(half);
            finish(
                r,
                rounded,
                built(Cone::new(radius, half), accept_if(ok), "cone"),
            )
        }
        8 => {
            let (a, b, c): (Vec3<R>, Vec3<R>, Vec3<R>) = (r.vec3(), r.vec3(), r.vec3());
            let expect = triangle_expectation(a, b, c);
            finish(
                r,
                rounded,
                built(Triangle::new(a, b, c), expect, "triangle"),
            )
        }
        9 => {
            let top: [Vec3<R>; 3] = [r.vec3(), r.vec3(), r.vec3()];
            let base: R = r.real();
            let expect = prism_expectation(top, base);
            let s = built(TerrainPrism::new(top, base), expect, "terrain prism");
            finish(r, rounded, s)
        }
        _ => {
            // 4 to MAX_HULL_INPUT points; any finite set may be refused as
            // degenerate (no volume), a non-finite one must be.
            let n = 4 + usize::from(r.u8()) % (MAX_HULL_INPUT - 3);
            let points: Vec<Vec3<R>> = (0..n).map(|_| r.vec3()).collect();
            let finite = points.iter().all(|p| p.is_finite());
            let expect = if finite {
                Expect::Either
            } else {
                Expect::Refuse
            };
            let hull = built(ConvexHull::from_points(&points), expect, "convex hull");
            finish(r, rounded, hull.map(|hull| HullFromPoints { hull, points }))
        }
    };
    match checked {
        Some(moderate) => Outcome::Checked { kind, moderate },
        None => Outcome::Refused,
    }
}

/// A triangle must be refused when a vertex is not finite or its area is
/// exactly zero, and accepted when its area is clearly above rounding
/// noise; in between, the shape's documented threshold decides.
fn triangle_expectation<R: Real>(a: Vec3<R>, b: Vec3<R>, c: Vec3<R>) -> Expect {
    if !(a.is_finite() && b.is_finite() && c.is_finite()) {
        return Expect::Refuse;
    }
    area_expectation::<R>(a.cast(), b.cast(), c.cast())
}

/// The expectation for the triangle `a b c` (computed in f64) whose
/// constructor works in `R`: refuse a zero area; accept an area well above
/// `R`'s epsilon times the longest edge squared, when squared lengths stay
/// well inside `R`'s normal range (else the constructor's own arithmetic
/// may overflow or underflow, and refusing is right too).
fn area_expectation<R: Real>(a: Vec3<f64>, b: Vec3<f64>, c: Vec3<f64>) -> Expect {
    let eps = R::EPSILON.to_f64();
    // Area against the longest side squared, both measured on the edges
    // scaled to unit size: the ratio is scale-free, and unscaled the cross
    // product's norm of edges past 1e154 overflows to infinity (a sliver
    // would then look like a fat triangle).
    let (ab, ac) = (b - a, c - a);
    let unit = ab.max_abs().max(ac.max_abs());
    let (ab_u, ac_u) = (ab / unit, ac / unit);
    let twice_area = ab_u.cross(ac_u).norm();
    let longest2_u = ab_u
        .norm_squared()
        .max(ac_u.norm_squared())
        .max((ac_u - ab_u).norm_squared());
    let longest2 = (b - a)
        .norm_squared()
        .max((c - b).norm_squared())
        .max((a - c).norm_squared());
    if twice_area == 0.0 || !(unit > 0.0) {
        Expect::Refuse
    } else if twice_area > 1e6 * eps * longest2_u
        && longest2 < R::MAX.to_f64() / 16.0
        && longest2 * eps * eps > R::min_positive_value().to_f64()
    {
        Expect::Accept
    } else {
        Expect::Either
    }
}

/// A terrain prism must be refused for a non-finite input, a base above the
/// lowest top vertex, or a footprint of zero area; accepted when the
/// footprint is clearly non-degenerate and the top is clearly above the base.
fn prism_expectation<R: Real>(top: [Vec3<R>; 3], base: R) -> Expect {
    if !(top.iter().all(|v| v.is_finite()) && base.finite()) {
        return Expect::Refuse;
    }
    let lowest = top[0].z.min_of(top[1].z).min_of(top[2].z);
    if base > lowest {
        return Expect::Refuse;
    }
    let flat = |v: Vec3<R>| Vec3::new(v.x.to_f64(), v.y.to_f64(), 0.0);
    let footprint = area_expectation::<R>(flat(top[0]), flat(top[1]), flat(top[2]));
    let highest = top[0].z.max_of(top[1].z).max_of(top[2].z);
    match footprint {
        Expect::Accept if highest > base => Expect::Accept,
        Expect::Refuse => Expect::Refuse,
        _ => Expect::Either,
    }
}

/// Wraps the shape in `Rounded` when asked (checking the margin's
/// validation), then decodes the pose, direction and tolerance and checks.
/// `None` when a constructor refused; else whether the input was moderate.
fn finish<R: Real, S: Oracle<R>>(
    r: &mut ByteReader<'_>,
    rounded: bool,
    shape: Option<S>,
) -> Option<bool> {
    let shape = shape?;
    if rounded {
        let margin: R = r.real();
        let ok = margin.finite() && margin >= R::ZERO;
        built(Rounded::new(shape, margin), accept_if(ok), "rounded shape")
            .map(|s| decode_query(r, &s))
    } else {
        Some(decode_query(r, &shape))
    }
}

/// Decodes the pose, direction and support-set tolerance, and checks;
/// returns whether every scalar was moderate.
fn decode_query<R: Real, S: Oracle<R>>(r: &mut ByteReader<'_>, shape: &S) -> bool {
    let translation: Vec3<R> = r.vec3();
    let q = Quat::from_wxyz(r.real(), r.real(), r.real(), r.real());
    let rotation = q.normalize().unwrap_or(Quat::IDENTITY);
    let pose = match Iso3::from_quat(translation, rotation) {
        Ok(pose) => pose,
        Err(e) => {
            assert!(
                !translation.is_finite(),
                "a normalized quaternion {rotation:?} was refused: {e}"
            );
            // Keep checking, with the identity pose, as a hostile input.
            r.mark_hostile();
            Iso3::IDENTITY
        }
    };
    let shape_moderate = r.all_moderate();
    let dir: Vec3<R> = r.vec3();
    let set_tol = decode_set_tolerance(r, shape.extent());
    let range = match (shape_moderate, r.all_moderate()) {
        (false, _) => Range::Hostile,
        (true, false) => Range::ShapeOnly,
        (true, true) => Range::All,
    };
    check_shape(shape, &pose, dir, set_tol, range);
    range == Range::All
}

/// The support-set tolerance (meters), from a selector byte: 0, a few
/// epsilons, 1/64 or all of `scale` (the shape's extent), or a raw scalar
/// (any value, hostile included).
pub fn decode_set_tolerance<R: Real>(r: &mut ByteReader<'_>, scale: R) -> R {
    match r.u8() % 5 {
        0 => R::ZERO,
        1 => scale * R::EPSILON * R::lit(16.0),
        2 => scale / R::lit(64.0),
        3 => scale,
        _ => r.real(),
    }
}

/// Every check on one shape at `pose`, queried along `dir` (world frame)
/// with support-set tolerance `set_tol`. Panics with the reason when one
/// fails. `range` says which checks apply (see [`Range`]).
pub fn check_shape<R: Real, S: Oracle<R>>(
    shape: &S,
    pose: &Iso3<R>,
    dir: Vec3<R>,
    set_tol: R,
    range: Range,
) {
    if range != Range::Hostile {
        shape.check_construction();
    }
    let tol = check_tolerance(shape);
    let d = pose.inverse_transform_vector(dir);
    let on_core = |p: Vec3<R>| range == Range::Hostile || shape.core_contains(p, tol);
    let strict = range == Range::All && d.is_finite() && pose.is_finite();
    let slack = projection_slack(tol, d);

    let mut samples = Vec::new();
    let kind = shape.core_samples(&mut samples);

    // The support point: finite, on the core, and extreme.
    let mut hint = S::Hint::default();
    let p = shape.support(d, &mut hint);
    assert!(p.is_finite(), "{shape:?}: support along {d:?} is {p:?}");
    assert!(
        on_core(p),
        "{shape:?}: support {p:?} along {d:?} is not on the core"
    );
    if strict {
        let best = samples
            .iter()
            .fold(-R::INFINITY, |m, q| m.max_of(d.dot(*q)));
        assert!(
            d.dot(p) >= best - slack,
            "{shape:?}: support {p:?} along {d:?} projects to {:?}, a core point reaches {best:?}",
            d.dot(p)
        );
    }
    // Again with the hint the first call left: as extreme as before.
    let p2 = shape.support(d, &mut hint);
    assert!(
        p2.is_finite() && on_core(p2),
        "{shape:?}: warm-started support {p2:?} along {d:?} is not on the core"
    );
    if strict {
        assert!(
            d.dot(p2) >= d.dot(p) - slack,
            "{shape:?}: warm-started support {p2:?} is less extreme than {p:?} along {d:?}"
        );
    }

    // From stale or out-of-range hints: still on the core, still extreme.
    for byte in [7, 0xff] {
        let mut stale = shape.hint_from_byte(byte);
        let p3 = shape.support(d, &mut stale);
        assert!(
            p3.is_finite() && on_core(p3),
            "{shape:?}: support {p3:?} along {d:?} from hint {byte} is not on the core"
        );
        if strict {
            assert!(
                d.dot(p3) >= d.dot(p) - slack,
                "{shape:?}: support {p3:?} from hint {byte} is less extreme than {p:?} along {d:?}"
            );
        }
    }

    let interior = shape.interior_point();
    assert!(
        interior.is_finite() && on_core(interior),
        "{shape:?}: interior point {interior:?} is not on the core"
    );

    if strict {
        check_aabbs(shape, pose, dir, p, interior, &samples);
    }
    check_support_set(shape, d, set_tol, p, range, strict, &samples, kind);
}

/// The membership tolerance for `shape`: [`CHECK_ULPS`] epsilons of its
/// extent, and never below that many of the smallest subnormal spacing
/// (a shape of subnormal size rounds at that absolute scale).
fn check_tolerance<R: Real, S: Oracle<R>>(shape: &S) -> R {
    let ulps = R::lit(CHECK_ULPS);
    (ulps * R::EPSILON * shape.extent()).max_of(ulps * R::EPSILON * R::min_positive_value())
}

/// How far two projections `d · p` of core points may differ by rounding
/// when `p` is off by `tol`: `tol` times a bound on `|d|` that does not
/// underflow (`2 max |d_i| >= |d|`; a direction of `1e-308` has a norm that
/// squares to zero), plus [`CHECK_ULPS`] of the smallest subnormal spacing,
/// the rounding of a dot product whose terms are subnormal.
fn projection_slack<R: Real>(tol: R, d: Vec3<R>) -> R {
    let ulps = R::lit(CHECK_ULPS);
    tol * d.max_abs() * R::TWO + ulps * R::EPSILON * R::min_positive_value()
}

/// The local and world AABBs: finite, containing the whole shape (support
/// point, interior point, samples, each grown by the inflation), and tight
/// (each face at the shape's support along that axis).
fn check_aabbs<R: Real, S: Oracle<R>>(
    shape: &S,
    pose: &Iso3<R>,
    dir: Vec3<R>,
    p: Vec3<R>,
    interior: Vec3<R>,
    samples: &[Vec3<R>],
) {
    let radius = shape.inflation();
    for (which, at, aabb) in [
        ("local", Iso3::IDENTITY, shape.local_aabb()),
        ("world", *pose, shape.world_aabb(pose)),
    ] {
        let scale = shape.extent() + at.translation.max_abs();
        let tol = R::EPSILON * R::lit(AABB_ULPS) * scale;
        assert!(
            aabb.min.is_finite() && aabb.max.is_finite() && !aabb.is_empty(),
            "{shape:?}: {which} AABB {aabb:?} at {at:?} is not a finite box"
        );
        let grown = aabb.inflated(tol);
        let full = dir
            .try_normalize()
            .map(|u| at.transform_point(p) + u * radius);
        let core_points = samples.iter().chain([&p, &interior]);
        for q in core_points {
            let w = at.transform_point(*q);
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                for s in [radius, -radius] {
                    assert!(
                        grown.contains_point(w + axis * s),
                        "{shape:?}: {which} AABB {aabb:?} misses {:?} (core point {q:?} at {at:?})",
                        w + axis * s
                    );
                }
            }
        }
        if let (Some(f), true) = (full, which == "world") {
            assert!(
                grown.contains_point(f),
                "{shape:?}: world AABB {aabb:?} misses the support point {f:?} along {dir:?}"
            );
        }
        // Tight: each face is where the support along that axis reaches.
        for i in 0..3 {
            let axis = [Vec3::X, Vec3::Y, Vec3::Z][i];
            let mut h = S::Hint::default();
            let hi = at.transform_point(shape.support(at.inverse_transform_vector(axis), &mut h));
            let lo = at.transform_point(shape.support(at.inverse_transform_vector(-axis), &mut h));
            let (want_hi, want_lo) = (hi.get(i) + radius, lo.get(i) - radius);
            assert!(
                (aabb.max.get(i) - want_hi).abs() <= tol
                    && (aabb.min.get(i) - want_lo).abs() <= tol,
                "{shape:?}: {which} AABB {aabb:?} at {at:?} is not tight on axis {i}: the support \
                 reaches [{want_lo:?}, {want_hi:?}]"
            );
        }
    }
}

/// The support set: finite, on the core, within `set_tol` of the support value, and
/// (for polytopes) holding every vertex that is.
fn check_support_set<R: Real, S: Oracle<R>>(
    shape: &S,
    d: Vec3<R>,
    set_tol: R,
    p: Vec3<R>,
    range: Range,
    strict: bool,
    samples: &[Vec3<R>],
    kind: Samples,
) {
    let tol = check_tolerance(shape);
    // A unit direction where there is one: shapes read `tol` either as
    // meters or as projection units, which agree only for a unit direction.
    // Along a zero direction every point is extreme and which ones the set
    // holds is unspecified (like the support point itself), so the
    // completeness check below needs a direction.
    let (d, p, has_direction) = match d.try_normalize() {
        Some(u) => (u, shape.support(u, &mut S::Hint::default()), true),
        None => (d, p, false),
    };
    let mut set = SupportSet::new();
    let full = shape.support_set(d, set_tol, &mut set).is_err();
    if full {
        assert_eq!(
            set.len(),
            SUPPORT_SET_CAPACITY,
            "{shape:?}: support set reported full with {} points",
            set.len()
        );
    }
    for q in set.points() {
        assert!(
            q.is_finite() && (range == Range::Hostile || shape.core_contains(*q, tol)),
            "{shape:?}: support-set point {q:?} along {d:?} is not on the core"
        );
    }
    if !(strict && set_tol.finite() && set_tol >= R::ZERO) {
        return;
    }
    assert!(!set.is_empty(), "{shape:?}: empty support set along {d:?}");
    let (top, slack) = (d.dot(p), projection_slack(tol, d));
    let face_loop = S::POLYTOPE && set.len() >= 3 && FACE_LOOPS_MAY_EXCEED_TOLERANCE;
    for q in set.points() {
        let v = d.dot(*q);
        assert!(
            (face_loop || v >= top - set_tol - slack) && v <= top + slack,
            "{shape:?}: support-set point {q:?} projects to {v:?} along {d:?}, outside \
             [{:?}, {top:?}] (tolerance {set_tol:?})",
            top - set_tol
        );
    }
    if kind == Samples::Vertices && !full && has_direction {
        for v in samples
            .iter()
            .filter(|v| d.dot(**v) >= top - set_tol + slack)
        {
            assert!(
                set.points().iter().any(|q| (*q - *v).norm() <= tol),
                "{shape:?}: vertex {v:?} is within {set_tol:?} of the top along {d:?} but not in \
                 the support set {:?}",
                set.points()
            );
        }
    }
}
