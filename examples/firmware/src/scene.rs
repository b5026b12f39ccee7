//! The fixed inputs and the queries of the firmware, generic over the scalar.
//!
//! This file is compiled twice: into the firmware (`f32`, on the device) and
//! into `build.rs` (`f64`, on the host), which runs the very same query code
//! to produce the expected answers the firmware checks itself against. It
//! needs only `core`, the mink crates and `shape.rs`.
//!
//! Both scalars start from the very same inputs: sizes are `f32` literals,
//! and the poses (and the arm's joint sines and cosines) are computed by
//! `build.rs` in `f64`, rounded to `f32` and baked; the host widens those
//! back to `f64`. So the device links no trigonometry, and an answer's
//! difference between the scalars is the queries' own rounding.
//!
//! Every GJK and MPR query takes its two shapes as [`FwShape`]s, so each
//! algorithm is compiled once for all the pairs (see `shape.rs`); the arm's
//! capsule pairs take the closed form instead
//! ([`Capsule::distance_to_capsule`]).

use crate::shape::FwShape;
use mink_field::{CompactCells, FieldView};
use mink_support::{Capsule, Cuboid, HullView, Iso3, Mat3, Pair, Real, Sphere, Vec3};

/// Number of arm links (the arm of `crates/mink/examples/robot_arm.rs`).
pub const LINKS: usize = 7;
/// Link lengths along each link's local z, meters (as in the host example).
pub const LENGTHS: [f32; LINKS] = [0.34, 0.40, 0.40, 0.36, 0.30, 0.24, 0.18];
/// Link radii, meters (as in the host example).
pub const RADII: [f32; LINKS] = [0.06, 0.055, 0.05, 0.045, 0.04, 0.035, 0.03];
/// The clearance below which a configuration is flagged, meters.
pub const MIN_CLEARANCE: f32 = 0.02;
/// The non-adjacent link pairs: `(i, j)` with `j >= i + 2`.
pub const ARM_PAIRS: usize = 15;
/// The checked configurations: report name, and the time on the host
/// example's trajectory in tenths of a second (t = 0 s, 3.1 s and 7.2 s:
/// clear, folded, folded further). `build.rs` computes the joint angles
/// there and bakes their cosines and sines.
pub const ARM_CONFIGS: [(&str, u32); 3] = [
    ("arm_check t=0.0s 15 pairs", 0),
    ("arm_check t=3.1s 15 pairs", 31),
    ("arm_check t=7.2s 15 pairs", 72),
];

/// Vertices of the 32-vertex hull (points on an ellipsoid, all extreme).
pub const HULL_VERTICES: usize = 32;
/// Resolution of the baked support field (`res × res` cells).
pub const FIELD_RES: u32 = 24;

/// What an answer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A distance, depth or support value, meters.
    Length,
    /// 1 for true, 0 for false.
    Boolean,
}

/// The algorithm of a pair query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// GJK signed distance (meters).
    GjkDistance,
    /// GJK boolean intersection (1 or 0).
    GjkIntersect,
    /// MPR penetration depth of overlapping shapes (meters).
    MprPenetration,
    /// MPR boolean intersection (1 or 0).
    MprIntersect,
}

/// A shape of a pair query, from `f32` literals (meters).
#[derive(Clone, Copy, Debug)]
pub enum ShapeSpec {
    /// A sphere of this radius.
    Sphere(f32),
    /// A capsule: radius, half-length.
    Capsule(f32, f32),
    /// A box of these half-extents.
    Cuboid([f32; 3]),
    /// The scene's 32-vertex hull.
    Hull,
}

/// A pair query: its name in the report, its algorithm and its two shapes
/// (posed by [`POSES`], same index).
#[derive(Clone, Copy, Debug)]
pub struct PairQuery {
    /// Name in the report.
    pub name: &'static str,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Shapes A and B.
    pub shapes: [ShapeSpec; 2],
}

/// Shorthand for the table below.
const fn q(name: &'static str, algorithm: Algorithm, a: ShapeSpec, b: ShapeSpec) -> PairQuery {
    PairQuery {
        name,
        algorithm,
        shapes: [a, b],
    }
}

use Algorithm::{GjkDistance, GjkIntersect, MprIntersect, MprPenetration};
use ShapeSpec::{Capsule as Cap, Cuboid as Box3, Hull, Sphere as Ball};

/// Number of pair queries.
pub const PAIR_QUERIES: usize = 13;

/// The pair queries, in the order of [`answer`] (the field query is last).
#[rustfmt::skip]
pub const QUERIES: [PairQuery; PAIR_QUERIES] = [
    q("gjk_distance capsule-box", GjkDistance, Cap(0.2, 0.5), Box3([0.4, 0.3, 0.25])),
    q("gjk_distance sphere-hull", GjkDistance, Ball(0.3), Hull),
    q("gjk_distance box-hull", GjkDistance, Box3([0.3, 0.2, 0.1]), Hull),
    q("gjk_distance capsule-hull", GjkDistance, Cap(0.1, 0.4), Hull),
    q("gjk_distance hull-hull", GjkDistance, Hull, Hull),
    q("gjk_intersect capsule-box", GjkIntersect, Cap(0.2, 0.5), Box3([0.4, 0.3, 0.25])),
    q("gjk_intersect sphere-hull", GjkIntersect, Ball(0.3), Hull),
    q("gjk_intersect hull-hull", GjkIntersect, Hull, Hull),
    q("mpr_penetration box-box", MprPenetration, Box3([0.5, 0.4, 0.3]), Box3([0.3, 0.3, 0.3])),
    q("mpr_penetration sphere-box", MprPenetration, Ball(0.35), Box3([0.5, 0.4, 0.3])),
    q("mpr_penetration capsule-hull", MprPenetration, Cap(0.1, 0.4), Hull),
    q("mpr_penetration hull-hull", MprPenetration, Hull, Hull),
    q("mpr_intersect sphere-hull", MprIntersect, Ball(0.3), Hull),
];

/// A pose: rotation about a (non-unit) axis by an angle (radians), then a
/// translation (meters); shape frame to world.
pub type PoseSpec = ([f64; 3], f64, [f64; 3]);

/// The poses of each pair query's shapes A and B. Read by `build.rs`,
/// which computes them in `f64` and bakes them rounded to `f32`.
#[allow(dead_code)]
#[rustfmt::skip]
pub const POSES: [[PoseSpec; 2]; PAIR_QUERIES] = [
    [([1.0, 0.0, 0.0], 0.7, [0.1, -0.2, 0.3]), ([0.3, 1.0, 0.2], -0.4, [1.1, 0.3, 0.2])],
    [([0.0, 0.0, 1.0], 0.0, [-0.2, 0.9, 0.1]), ([1.0, 1.0, 0.0], 0.9, [0.1, -0.1, 0.0])],
    [([0.2, 0.1, 1.0], 1.1, [0.9, 0.2, -0.3]), ([0.0, 1.0, 0.3], 0.3, [0.0, 0.0, 0.1])],
    [([1.0, 0.0, 1.0], 1.3, [0.0, 0.1, 0.95]), ([0.0, 0.0, 1.0], 0.2, [0.0, 0.0, 0.0])],
    [([1.0, 2.0, 3.0], 0.5, [0.0, 0.0, 0.0]), ([3.0, -1.0, 1.0], 2.0, [1.2, 0.4, -0.1])],
    [([1.0, 0.0, 0.0], 0.7, [0.1, -0.2, 0.3]), ([0.3, 1.0, 0.2], -0.4, [0.6, 0.1, 0.2])],
    [([0.0, 0.0, 1.0], 0.0, [-0.2, 0.9, 0.1]), ([1.0, 1.0, 0.0], 0.9, [0.1, -0.1, 0.0])],
    [([1.0, 2.0, 3.0], 0.5, [0.0, 0.0, 0.0]), ([3.0, -1.0, 1.0], 2.0, [0.7, 0.2, -0.1])],
    [([0.0, 0.0, 1.0], 0.2, [0.0, 0.0, 0.0]), ([1.0, 1.0, 0.0], 0.5, [0.7, 0.2, 0.1])],
    [([0.0, 0.0, 1.0], 0.0, [0.0, 0.0, 0.6]), ([1.0, 0.0, 0.0], 0.3, [0.1, 0.0, 0.0])],
    [([1.0, 0.0, 1.0], 1.3, [0.0, 0.1, 0.35]), ([0.0, 0.0, 1.0], 0.2, [0.0, 0.0, 0.0])],
    [([1.0, 2.0, 3.0], 0.5, [0.0, 0.0, 0.0]), ([3.0, -1.0, 1.0], 2.0, [0.7, 0.2, -0.1])],
    [([0.0, 0.0, 1.0], 0.0, [-0.2, 0.9, 0.1]), ([1.0, 1.0, 0.0], 0.9, [0.1, -0.1, 0.0])],
];

/// The direction of the field query (normalized on the device).
pub const FIELD_DIRECTION: [f32; 3] = [0.3, -0.8, 0.5];

/// All single-answer queries: the pair queries, then the field query.
pub const QUERY_COUNT: usize = PAIR_QUERIES + 1;

/// The report name of query `k` of [`answer`].
pub fn name(k: usize) -> &'static str {
    QUERIES.get(k).map_or("field_support hull", |q| q.name)
}

/// Whether query `k` of [`answer`] answers a boolean (compared exactly) or
/// a length in meters.
pub fn kind(k: usize) -> Kind {
    match QUERIES.get(k).map(|q| q.algorithm) {
        Some(Algorithm::GjkIntersect | Algorithm::MprIntersect) => Kind::Boolean,
        _ => Kind::Length,
    }
}

/// The shapes of the scene: the 32-vertex hull and its baked field, and
/// the pair queries' poses (static arrays on the device, built on the
/// host).
pub struct Scene<'a, R: Real> {
    /// The 32-vertex hull.
    pub hull: HullView<'a, R>,
    /// The hull's support field.
    pub field: FieldView<R, CompactCells<'a, R>>,
    /// Poses of each pair query's shapes A and B (shape frame to world).
    pub poses: &'a [[Iso3<R>; 2]; PAIR_QUERIES],
}

/// `x` in scalar `R` (exact: every `f32` is an `f64`).
#[inline(always)]
fn lit<R: Real>(x: f32) -> R {
    R::lit(f64::from(x))
}

/// The shape of `spec`; `None` for invalid literals (never happens with
/// these constants, and would give the answer infinity through [`bad`]).
fn shape<'a, R: Real>(spec: ShapeSpec, hull: HullView<'a, R>) -> Option<FwShape<'a, R>> {
    match spec {
        ShapeSpec::Sphere(r) => Sphere::new(lit(r)).ok().map(FwShape::Sphere),
        ShapeSpec::Capsule(r, h) => Capsule::new(lit(r), lit(h)).ok().map(FwShape::Capsule),
        ShapeSpec::Cuboid(h) => Cuboid::new(Vec3::new(lit(h[0]), lit(h[1]), lit(h[2])))
            .ok()
            .map(FwShape::Cuboid),
        ShapeSpec::Hull => Some(FwShape::Hull(hull)),
    }
}

/// The answer that fails every comparison.
fn bad<R: Real>() -> R {
    R::INFINITY
}

/// Brackets the measured part of a query: the device reads its instruction
/// counter and paints/scans the stack; the host does nothing.
pub trait Meter {
    /// Called right before the query.
    fn start(&mut self);
    /// Called right after the query.
    fn stop(&mut self);
}

impl Meter for () {
    #[inline(always)]
    fn start(&mut self) {}
    #[inline(always)]
    fn stop(&mut self) {}
}

/// Answer of query `k` (the pair queries of [`QUERIES`], then the field
/// query; meters, or 1/0 for booleans); infinity for an unknown `k` or a
/// query that reports a failure status. Only the query itself (from
/// building the pair to its result) runs between `m.start()` and
/// `m.stop()`; the inputs are built before.
pub fn answer<R: Real, M: Meter>(k: usize, scene: &Scene<'_, R>, m: &mut M) -> R {
    let (Some(query), Some(poses)) = (QUERIES.get(k), scene.poses.get(k)) else {
        return if k == PAIR_QUERIES {
            field_support(m, scene)
        } else {
            bad()
        };
    };
    let [a, b] = query.shapes.map(|s| shape(s, scene.hull));
    let (Some(a), Some(b)) = (a, b) else {
        return bad();
    };
    m.start();
    let value = pair_query(query.algorithm, &a, &poses[0], &b, &poses[1]);
    m.stop();
    value
}

/// The measured part of [`answer`] for a pair query: the algorithm's
/// answer (meters, or 1/0), infinity when it reports a failure status.
/// Each algorithm runs in a function of its own, out of line, so that its
/// stack frame is below the caller's stack pointer, where the probe looks,
/// and holds only what that algorithm needs.
#[inline(always)]
fn pair_query<R: Real>(
    algorithm: Algorithm,
    a: &FwShape<'_, R>,
    pose_a: &Iso3<R>,
    b: &FwShape<'_, R>,
    pose_b: &Iso3<R>,
) -> R {
    match algorithm {
        Algorithm::GjkDistance => gjk_distance(a, pose_a, b, pose_b),
        Algorithm::GjkIntersect => gjk_intersect(a, pose_a, b, pose_b),
        Algorithm::MprPenetration => mpr_penetration(a, pose_a, b, pose_b),
        Algorithm::MprIntersect => mpr_intersect(a, pose_a, b, pose_b),
    }
}

/// GJK signed distance between `a` and `b` (meters); infinity when GJK
/// does not converge.
#[inline(never)]
fn gjk_distance<R: Real>(
    a: &FwShape<'_, R>,
    pose_a: &Iso3<R>,
    b: &FwShape<'_, R>,
    pose_b: &Iso3<R>,
) -> R {
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    let d = mink_gjk::distance(&mut pair, pose_a);
    match d.status {
        mink_gjk::GjkStatus::Converged | mink_gjk::GjkStatus::Intersecting => d.distance,
        _ => bad(),
    }
}

/// GJK boolean intersection of `a` and `b`, as 1 or 0.
#[inline(never)]
fn gjk_intersect<R: Real>(
    a: &FwShape<'_, R>,
    pose_a: &Iso3<R>,
    b: &FwShape<'_, R>,
    pose_b: &Iso3<R>,
) -> R {
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    if mink_gjk::intersect(&mut pair) {
        R::ONE
    } else {
        R::ZERO
    }
}

/// MPR penetration depth of overlapping `a` and `b` (meters); infinity
/// when MPR does not converge. An `Unverified` answer (overlap found,
/// depth an upper bound not proven minimal) counts: it is what MPR
/// returns, and the `f64` run checks it.
#[inline(never)]
fn mpr_penetration<R: Real>(
    a: &FwShape<'_, R>,
    pose_a: &Iso3<R>,
    b: &FwShape<'_, R>,
    pose_b: &Iso3<R>,
) -> R {
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    let p = mink_mpr::penetration(&mut pair, pose_a);
    match p.status {
        mink_mpr::MprStatus::Converged | mink_mpr::MprStatus::Unverified => p.depth,
        _ => bad(),
    }
}

/// MPR boolean intersection of `a` and `b`, as 1 or 0; infinity when MPR
/// reports neither overlap nor separation.
///
/// Besides the boolean itself, this query shapes the stack of the
/// penetration query: MPR's small GJK on the cores of inflated shapes
/// serves both queries, so with both in the firmware it is compiled out of
/// line, and its frame is no longer part of penetration's deepest call
/// path (with penetration alone, LLVM inlines it there: about 260 bytes
/// more stack).
#[inline(never)]
fn mpr_intersect<R: Real>(
    a: &FwShape<'_, R>,
    pose_a: &Iso3<R>,
    b: &FwShape<'_, R>,
    pose_b: &Iso3<R>,
) -> R {
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    let hit = mink_mpr::intersect(&mut pair);
    match hit.status {
        mink_mpr::MprStatus::Converged | mink_mpr::MprStatus::Separated => {
            if hit.overlapping {
                R::ONE
            } else {
                R::ZERO
            }
        }
        _ => bad(),
    }
}

/// The support value (meters) along [`FIELD_DIRECTION`] (normalized) of
/// the point the baked field returns; infinity on a field error.
fn field_support<R: Real, M: Meter>(m: &mut M, scene: &Scene<'_, R>) -> R {
    let [x, y, z] = FIELD_DIRECTION;
    let d = Vec3::new(lit(x), lit(y), lit(z)).normalize_or(Vec3::Z);
    m.start();
    let hit = field_query(&scene.field, d);
    m.stop();
    match hit {
        Ok(hit) => hit.point.dot(d),
        Err(_) => bad(),
    }
}

/// The measured part of [`field_support`], out of line (see
/// [`pair_query`]).
#[inline(never)]
fn field_query<R: Real>(
    field: &FieldView<R, CompactCells<'_, R>>,
    d: Vec3<R>,
) -> Result<mink_field::FieldHit<R>, mink_field::FieldError> {
    field.query(d)
}

/// The link capsules (radius, half its length).
pub fn arm_capsules<R: Real>() -> [Option<Capsule<R>>; LINKS] {
    core::array::from_fn(|i| Capsule::new(lit(RADII[i]), lit::<R>(LENGTHS[i]) * R::HALF).ok())
}

/// Forward kinematics, as in the host example, from each joint's
/// `[cos, sin]`: the world pose of each link's capsule centre. Joint `i`
/// turns about its parent's z (even `i`) or y (odd `i`) axis at the
/// parent's tip; link `i` extends along +z.
pub fn link_poses<R: Real>(joints: &[[R; 2]; LINKS]) -> [Iso3<R>; LINKS] {
    let o = R::ZERO;
    let mut frame = Iso3::<R>::IDENTITY;
    let mut poses = [Iso3::IDENTITY; LINKS];
    for i in 0..LINKS {
        let [c, s] = joints[i];
        let rotation = if i % 2 == 0 {
            Mat3::from_cols(Vec3::new(c, s, o), Vec3::new(-s, c, o), Vec3::Z)
        } else {
            Mat3::from_cols(Vec3::new(c, o, -s), Vec3::Y, Vec3::new(s, o, c))
        };
        frame = frame.mul(&Iso3::from_parts(rotation, Vec3::ZERO));
        let half = Vec3::new(o, o, lit::<R>(LENGTHS[i]) * R::HALF);
        poses[i] = frame.mul(&Iso3::from_translation(half));
        frame = frame.mul(&Iso3::from_translation(half + half));
    }
    poses
}

/// The arm's self-collision check: the signed distance (meters) of every
/// non-adjacent link pair, in the order `(0,2), (0,3), ..., (4,6)`, in
/// closed form (the closest points of the two core segments, then the
/// radii; GJK on the capsules converges to the same answer); infinity for
/// a pair whose query failed (a non-finite pose). Only the 15 queries run
/// between `m.start()` and `m.stop()`.
pub fn arm_check<R: Real, M: Meter>(
    m: &mut M,
    capsules: &[Option<Capsule<R>>; LINKS],
    poses: &[Iso3<R>; LINKS],
) -> [R; ARM_PAIRS] {
    m.start();
    let out = arm_pairs(capsules, poses);
    m.stop();
    out
}

/// The measured part of [`arm_check`], out of line (see [`pair_query`]).
#[inline(never)]
fn arm_pairs<R: Real>(
    capsules: &[Option<Capsule<R>>; LINKS],
    poses: &[Iso3<R>; LINKS],
) -> [R; ARM_PAIRS] {
    let mut out = [bad(); ARM_PAIRS];
    let mut k = 0;
    for i in 0..LINKS {
        for j in i + 2..LINKS {
            if let (Some(a), Some(b), Some(slot)) = (&capsules[i], &capsules[j], out.get_mut(k)) {
                if let Some(d) = a.distance_to_capsule(&poses[i], b, &poses[j]) {
                    *slot = d.distance;
                }
            }
            k += 1;
        }
    }
    out
}

/// Whether any clearance of [`arm_check`] is below [`MIN_CLEARANCE`].
pub fn below_clearance<R: Real>(clearances: &[R; ARM_PAIRS]) -> bool {
    clearances
        .iter()
        .any(|&c| c.is_nan() || c < lit(MIN_CLEARANCE))
}
