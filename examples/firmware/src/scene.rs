//! The fixed inputs and the queries of the firmware, generic over the scalar.
//!
//! This file is compiled twice: into the firmware (`f32`, on the device) and
//! into `build.rs` (`f64`, on the host), which runs the very same query code
//! to produce the expected answers the firmware checks itself against. It
//! needs only `core`, the mink crates, the firmware's queries crate
//! (`queries/`) and `cells.rs`.
//!
//! Both scalars start from the very same inputs: sizes are `f32` literals,
//! and the poses (and the arm's joint sines and cosines) are computed by
//! `build.rs` in `f64`, rounded to `f32` and baked; the host widens those
//! back to `f64`. So the device links no trigonometry, and an answer's
//! difference between the scalars is the queries' own rounding.
//!
//! Every GJK and MPR query takes its two shapes as [`FwShape`]s, so each
//! algorithm is compiled once for all the pairs, in the queries crate (see
//! `queries/src/shape.rs` and `queries/src/lib.rs`); the arm's capsule
//! pairs take the closed form instead ([`Capsule::distance_to_capsule`]).

use crate::cells::ByteCells;
use mink_field::FieldView;
use mink_firmware_queries::{Algorithm, FwShape, PairQueries};
use mink_support::{Capsule, Cuboid, HullView, Iso3, Mat3, Real, Sphere, Vec3};

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

/// A pair query: its algorithm, its two shapes and their poses. Its name
/// in the report is the algorithm's ([`algorithm_name`]) followed by
/// `shapes_name`: the shape names are stored once per pair of shapes, not
/// once per query.
#[derive(Clone, Copy, Debug)]
pub struct PairQuery {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The shapes' part of the report name (`" capsule-box"`).
    pub shapes_name: &'static str,
    /// Shapes A and B.
    pub shapes: [ShapeSpec; 2],
    /// The poses of A and B: indices into [`POSES`].
    pub poses: [u8; 2],
}

/// Shorthand for the table below: `poses` index [`POSES`] for A and B.
const fn q(
    algorithm: Algorithm,
    shapes_name: &'static str,
    a: ShapeSpec,
    b: ShapeSpec,
    poses: [u8; 2],
) -> PairQuery {
    PairQuery {
        algorithm,
        shapes_name,
        shapes: [a, b],
        poses,
    }
}

use Algorithm::{GjkDistance, GjkIntersect, MprIntersect, MprPenetration};
use ShapeSpec::{Capsule as Cap, Cuboid as Box3, Hull, Sphere as Ball};

/// Number of pair queries.
pub const PAIR_QUERIES: usize = 13;

/// [`PairQuery::shapes_name`] of the capsule–box queries.
const CAPSULE_BOX: &str = " capsule-box";
/// [`PairQuery::shapes_name`] of the sphere–hull queries.
const SPHERE_HULL: &str = " sphere-hull";
/// [`PairQuery::shapes_name`] of the capsule–hull queries.
const CAPSULE_HULL: &str = " capsule-hull";
/// [`PairQuery::shapes_name`] of the hull–hull queries.
const HULL_HULL: &str = " hull-hull";

/// The pair queries, in the order of [`answer`] (the field query is last).
#[rustfmt::skip]
pub const QUERIES: [PairQuery; PAIR_QUERIES] = [
    q(GjkDistance, CAPSULE_BOX, Cap(0.2, 0.5), Box3([0.4, 0.3, 0.25]), [0, 1]),
    q(GjkDistance, SPHERE_HULL, Ball(0.3), Hull, [2, 3]),
    q(GjkDistance, " box-hull", Box3([0.3, 0.2, 0.1]), Hull, [4, 5]),
    q(GjkDistance, CAPSULE_HULL, Cap(0.1, 0.4), Hull, [6, 7]),
    q(GjkDistance, HULL_HULL, Hull, Hull, [8, 9]),
    q(GjkIntersect, CAPSULE_BOX, Cap(0.2, 0.5), Box3([0.4, 0.3, 0.25]), [0, 10]),
    q(GjkIntersect, SPHERE_HULL, Ball(0.3), Hull, [2, 3]),
    q(GjkIntersect, HULL_HULL, Hull, Hull, [8, 11]),
    q(MprPenetration, " box-box", Box3([0.5, 0.4, 0.3]), Box3([0.3, 0.3, 0.3]), [7, 12]),
    q(MprPenetration, " sphere-box", Ball(0.35), Box3([0.5, 0.4, 0.3]), [13, 14]),
    q(MprPenetration, CAPSULE_HULL, Cap(0.1, 0.4), Hull, [15, 7]),
    q(MprPenetration, HULL_HULL, Hull, Hull, [8, 11]),
    q(MprIntersect, SPHERE_HULL, Ball(0.3), Hull, [2, 3]),
];

/// A pose: rotation about a (non-unit) axis by an angle (radians), then a
/// translation (meters); shape frame to world.
pub type PoseSpec = ([f64; 3], f64, [f64; 3]);

/// Number of distinct poses of the pair queries.
pub const POSE_COUNT: usize = 16;

/// The distinct poses of the pair queries' shapes, indexed by
/// [`PairQuery::poses`] (several queries share a pose, and each pose is
/// stored once: 48 bytes of flash). Read by `build.rs`, which computes
/// them in `f64` and bakes them rounded to `f32`.
#[allow(dead_code)]
#[rustfmt::skip]
pub const POSES: [PoseSpec; POSE_COUNT] = [
    ([1.0, 0.0, 0.0], 0.7, [0.1, -0.2, 0.3]),
    ([0.3, 1.0, 0.2], -0.4, [1.1, 0.3, 0.2]),
    ([0.0, 0.0, 1.0], 0.0, [-0.2, 0.9, 0.1]),
    ([1.0, 1.0, 0.0], 0.9, [0.1, -0.1, 0.0]),
    ([0.2, 0.1, 1.0], 1.1, [0.9, 0.2, -0.3]),
    ([0.0, 1.0, 0.3], 0.3, [0.0, 0.0, 0.1]),
    ([1.0, 0.0, 1.0], 1.3, [0.0, 0.1, 0.95]),
    ([0.0, 0.0, 1.0], 0.2, [0.0, 0.0, 0.0]),
    ([1.0, 2.0, 3.0], 0.5, [0.0, 0.0, 0.0]),
    ([3.0, -1.0, 1.0], 2.0, [1.2, 0.4, -0.1]),
    ([0.3, 1.0, 0.2], -0.4, [0.6, 0.1, 0.2]),
    ([3.0, -1.0, 1.0], 2.0, [0.7, 0.2, -0.1]),
    ([1.0, 1.0, 0.0], 0.5, [0.7, 0.2, 0.1]),
    ([0.0, 0.0, 1.0], 0.0, [0.0, 0.0, 0.6]),
    ([1.0, 0.0, 0.0], 0.3, [0.1, 0.0, 0.0]),
    ([1.0, 0.0, 1.0], 1.3, [0.0, 0.1, 0.35]),
];

/// The direction of the field query (normalized on the device).
pub const FIELD_DIRECTION: [f32; 3] = [0.3, -0.8, 0.5];

/// All single-answer queries: the pair queries, then the field query.
pub const QUERY_COUNT: usize = PAIR_QUERIES + 1;

/// The report name of an algorithm.
pub fn algorithm_name(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::GjkDistance => "gjk_distance",
        Algorithm::GjkIntersect => "gjk_intersect",
        Algorithm::MprPenetration => "mpr_penetration",
        Algorithm::MprIntersect => "mpr_intersect",
    }
}

/// The report name of query `k` of [`answer`], in two parts (printed one
/// after the other): `("gjk_distance", " capsule-box")`.
pub fn name(k: usize) -> (&'static str, &'static str) {
    QUERIES.get(k).map_or(("field_support", " hull"), |q| {
        (algorithm_name(q.algorithm), q.shapes_name)
    })
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
    pub field: FieldView<R, ByteCells<'a, R>>,
    /// The pair queries' distinct poses ([`POSES`]; shape frame to world).
    pub poses: &'a [Iso3<R>; POSE_COUNT],
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
/// building the pair to its result, [`PairQueries::pair_query`], out of
/// line, so that its stack frame is below the caller's stack pointer,
/// where the probe looks) runs between `m.start()` and `m.stop()`; the
/// inputs are built before.
pub fn answer<R: PairQueries, M: Meter>(k: usize, scene: &Scene<'_, R>, m: &mut M) -> R {
    let Some(query) = QUERIES.get(k) else {
        return if k == PAIR_QUERIES {
            field_support(m, scene)
        } else {
            bad()
        };
    };
    let [a, b] = query.shapes.map(|s| shape(s, scene.hull));
    let [pose_a, pose_b] = query.poses.map(|i| scene.poses.get(usize::from(i)));
    let (Some(a), Some(b), Some(pose_a), Some(pose_b)) = (a, b, pose_a, pose_b) else {
        return bad();
    };
    m.start();
    let value = R::pair_query(query.algorithm, &a, pose_a, &b, pose_b);
    m.stop();
    value
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
/// [`answer`]).
#[inline(never)]
fn field_query<R: Real>(
    field: &FieldView<R, ByteCells<'_, R>>,
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
        // The joint turns the frame about its origin; the link's centre and
        // the next joint are translations along the turned z. (Composing
        // with a pure rotation or a pure translation, written out: one
        // matrix product per link instead of three.)
        frame.rotation = frame.rotation.mul_mat(&rotation);
        let half = Vec3::new(o, o, lit::<R>(LENGTHS[i]) * R::HALF);
        poses[i] = Iso3::from_parts(frame.rotation, frame.transform_point(half));
        frame.translation = frame.transform_point(half + half);
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

/// The measured part of [`arm_check`], out of line (see [`answer`]).
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
