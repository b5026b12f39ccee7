//! The fixed inputs and the queries of the firmware, generic over the scalar.
//!
//! This file is compiled twice: into the firmware (`f32`, on the device) and
//! into `build.rs` (`f64`, on the host), which runs the very same query code
//! to produce the expected answers the firmware checks itself against. It
//! needs only `core` and the mink crates.

use mink_field::{CompactCells, FieldView};
use mink_support::{Capsule, Cuboid, HullView, Iso3, Mat3, Pair, Real, Sphere, Vec3};

/// Number of arm links (the arm of `crates/mink/examples/robot_arm.rs`).
pub const LINKS: usize = 7;
/// Link lengths along each link's local z, meters (as in the host example).
pub const LENGTHS: [f64; LINKS] = [0.34, 0.40, 0.40, 0.36, 0.30, 0.24, 0.18];
/// Link radii, meters (as in the host example).
pub const RADII: [f64; LINKS] = [0.06, 0.055, 0.05, 0.045, 0.04, 0.035, 0.03];
/// The clearance below which a configuration is flagged, meters.
pub const MIN_CLEARANCE: f64 = 0.02;
/// The non-adjacent link pairs: `(i, j)` with `j >= i + 2`.
pub const ARM_PAIRS: usize = 15;
/// The arm's joint angles for each checked configuration, radians: the
/// host example's trajectory at t = 0 s, 3.1 s and 7.2 s (clear, folded,
/// folded further).
pub const ARM_CONFIGS: [f64; 3] = [0.0, 3.1, 7.2];

/// Vertices of the 32-vertex hull (points on an ellipsoid, all extreme).
pub const HULL_VERTICES: usize = 32;
/// Resolution of the baked support field (`res × res` cells).
pub const FIELD_RES: u32 = 24;

/// The single-answer queries, in the order of [`answer`]: name, and whether
/// the answer is a boolean (compared exactly) or a length in meters.
pub const QUERIES: [(&str, Kind); 13] = [
    ("gjk_distance capsule-box", Kind::Length),
    ("gjk_distance sphere-hull", Kind::Length),
    ("gjk_distance box-hull", Kind::Length),
    ("gjk_distance capsule-hull", Kind::Length),
    ("gjk_distance hull-hull", Kind::Length),
    ("gjk_intersect capsule-box", Kind::Boolean),
    ("gjk_intersect sphere-hull", Kind::Boolean),
    ("gjk_intersect hull-hull", Kind::Boolean),
    ("mpr_penetration box-box", Kind::Length),
    ("mpr_penetration sphere-box", Kind::Length),
    ("mpr_penetration capsule-hull", Kind::Length),
    ("mpr_penetration hull-hull", Kind::Length),
    ("field_support hull", Kind::Length),
];

/// What an answer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A distance, depth or support value, meters.
    Length,
    /// 1 for true, 0 for false.
    Boolean,
}

/// The shapes of the scene: the 32-vertex hull and its baked field are
/// passed in (static arrays on the device, built on the host).
pub struct Scene<'a, R: Real> {
    /// The 32-vertex hull.
    pub hull: HullView<'a, R>,
    /// The hull's support field.
    pub field: FieldView<R, CompactCells<'a, R>>,
}

/// A pose from a rotation about a (non-unit) axis by `angle` radians and a
/// translation, from literals.
fn pose<R: Real>(axis: [f64; 3], angle: f64, t: [f64; 3]) -> Iso3<R> {
    let a = Vec3::new(R::lit(axis[0]), R::lit(axis[1]), R::lit(axis[2]));
    let a = a.normalize_or(Vec3::Z);
    Iso3::from_parts(
        Mat3::from_axis_angle(a, R::lit(angle)),
        Vec3::new(R::lit(t[0]), R::lit(t[1]), R::lit(t[2])),
    )
}

/// A capsule from literals (NaN-free inputs; an invalid one never happens
/// with these constants, and would give the answer NaN through [`bad`]).
fn capsule<R: Real>(radius: f64, half_length: f64) -> Option<Capsule<R>> {
    Capsule::new(R::lit(radius), R::lit(half_length)).ok()
}

/// A box from literal half-extents.
fn cuboid<R: Real>(h: [f64; 3]) -> Option<Cuboid<R>> {
    Cuboid::new(Vec3::new(R::lit(h[0]), R::lit(h[1]), R::lit(h[2]))).ok()
}

/// A sphere from a literal radius.
fn sphere<R: Real>(radius: f64) -> Option<Sphere<R>> {
    Sphere::new(R::lit(radius)).ok()
}

/// The answer that fails every comparison.
fn bad<R: Real>() -> R {
    R::INFINITY
}

/// 1 or 0.
fn flag<R: Real>(b: bool) -> R {
    if b {
        R::ONE
    } else {
        R::ZERO
    }
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

/// Answer of query `k` of [`QUERIES`] (meters, or 1/0 for booleans);
/// infinity for an unknown `k` or a query that reports a failure status.
/// Only the query itself (from building the pair to its result) runs
/// between `m.start()` and `m.stop()`; the inputs are built before.
pub fn answer<R: Real, M: Meter>(k: usize, scene: &Scene<'_, R>, m: &mut M) -> R {
    let hull = &scene.hull;
    match k {
        0 => gjk_distance(
            m,
            &capsule(0.2, 0.5),
            &pose([1.0, 0.0, 0.0], 0.7, [0.1, -0.2, 0.3]),
            &cuboid([0.4, 0.3, 0.25]),
            &pose([0.3, 1.0, 0.2], -0.4, [1.1, 0.3, 0.2]),
        ),
        1 => gjk_distance(
            m,
            &sphere(0.3),
            &pose([0.0, 0.0, 1.0], 0.0, [-0.2, 0.9, 0.1]),
            &Some(*hull),
            &pose([1.0, 1.0, 0.0], 0.9, [0.1, -0.1, 0.0]),
        ),
        2 => gjk_distance(
            m,
            &cuboid([0.3, 0.2, 0.1]),
            &pose([0.2, 0.1, 1.0], 1.1, [0.9, 0.2, -0.3]),
            &Some(*hull),
            &pose([0.0, 1.0, 0.3], 0.3, [0.0, 0.0, 0.1]),
        ),
        3 => gjk_distance(
            m,
            &capsule(0.1, 0.4),
            &pose([1.0, 0.0, 1.0], 1.3, [0.0, 0.1, 0.95]),
            &Some(*hull),
            &pose([0.0, 0.0, 1.0], 0.2, [0.0, 0.0, 0.0]),
        ),
        4 => gjk_distance(
            m,
            &Some(*hull),
            &pose([1.0, 2.0, 3.0], 0.5, [0.0, 0.0, 0.0]),
            &Some(*hull),
            &pose([3.0, -1.0, 1.0], 2.0, [1.2, 0.4, -0.1]),
        ),
        5 => gjk_intersect(
            m,
            &capsule(0.2, 0.5),
            &pose([1.0, 0.0, 0.0], 0.7, [0.1, -0.2, 0.3]),
            &cuboid([0.4, 0.3, 0.25]),
            &pose([0.3, 1.0, 0.2], -0.4, [0.6, 0.1, 0.2]),
        ),
        6 => gjk_intersect(
            m,
            &sphere(0.3),
            &pose([0.0, 0.0, 1.0], 0.0, [-0.2, 0.9, 0.1]),
            &Some(*hull),
            &pose([1.0, 1.0, 0.0], 0.9, [0.1, -0.1, 0.0]),
        ),
        7 => gjk_intersect(
            m,
            &Some(*hull),
            &pose([1.0, 2.0, 3.0], 0.5, [0.0, 0.0, 0.0]),
            &Some(*hull),
            &pose([3.0, -1.0, 1.0], 2.0, [0.7, 0.2, -0.1]),
        ),
        8 => mpr_penetration(
            m,
            &cuboid([0.5, 0.4, 0.3]),
            &pose([0.0, 0.0, 1.0], 0.2, [0.0, 0.0, 0.0]),
            &cuboid([0.3, 0.3, 0.3]),
            &pose([1.0, 1.0, 0.0], 0.5, [0.7, 0.2, 0.1]),
        ),
        9 => mpr_penetration(
            m,
            &sphere(0.35),
            &pose([0.0, 0.0, 1.0], 0.0, [0.0, 0.0, 0.6]),
            &cuboid([0.5, 0.4, 0.3]),
            &pose([1.0, 0.0, 0.0], 0.3, [0.1, 0.0, 0.0]),
        ),
        10 => mpr_penetration(
            m,
            &capsule(0.1, 0.4),
            &pose([1.0, 0.0, 1.0], 1.3, [0.0, 0.1, 0.35]),
            &Some(*hull),
            &pose([0.0, 0.0, 1.0], 0.2, [0.0, 0.0, 0.0]),
        ),
        11 => mpr_penetration(
            m,
            &Some(*hull),
            &pose([1.0, 2.0, 3.0], 0.5, [0.0, 0.0, 0.0]),
            &Some(*hull),
            &pose([3.0, -1.0, 1.0], 2.0, [0.7, 0.2, -0.1]),
        ),
        12 => field_support(m, scene, [0.3, -0.8, 0.5]),
        _ => bad(),
    }
}

/// GJK signed distance between `a` and `b` (meters); infinity when a shape
/// is missing or GJK does not converge.
#[inline(never)]
fn gjk_distance<R: Real, A: mink_support::Support<R>, B: mink_support::Support<R>, M: Meter>(
    m: &mut M,
    a: &Option<A>,
    pose_a: &Iso3<R>,
    b: &Option<B>,
    pose_b: &Iso3<R>,
) -> R {
    let (Some(a), Some(b)) = (a, b) else {
        return bad();
    };
    m.start();
    let d = gjk_distance_query(a, pose_a, b, pose_b);
    m.stop();
    d
}

/// The measured part of [`gjk_distance`], out of line so that its stack
/// frame is below the caller's stack pointer, where the probe looks.
#[inline(never)]
fn gjk_distance_query<R: Real, A: mink_support::Support<R>, B: mink_support::Support<R>>(
    a: &A,
    pose_a: &Iso3<R>,
    b: &B,
    pose_b: &Iso3<R>,
) -> R {
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    let d = mink_gjk::distance(&mut pair, pose_a);
    match d.status {
        mink_gjk::GjkStatus::Converged | mink_gjk::GjkStatus::Intersecting => d.distance,
        _ => bad(),
    }
}

/// GJK boolean intersection as 1/0; infinity when a shape is missing.
#[inline(never)]
fn gjk_intersect<R: Real, A: mink_support::Support<R>, B: mink_support::Support<R>, M: Meter>(
    m: &mut M,
    a: &Option<A>,
    pose_a: &Iso3<R>,
    b: &Option<B>,
    pose_b: &Iso3<R>,
) -> R {
    let (Some(a), Some(b)) = (a, b) else {
        return bad();
    };
    m.start();
    let hit = gjk_intersect_query(a, pose_a, b, pose_b);
    m.stop();
    flag(hit)
}

/// The measured part of [`gjk_intersect`], out of line (see
/// [`gjk_distance_query`]).
#[inline(never)]
fn gjk_intersect_query<R: Real, A: mink_support::Support<R>, B: mink_support::Support<R>>(
    a: &A,
    pose_a: &Iso3<R>,
    b: &B,
    pose_b: &Iso3<R>,
) -> bool {
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    mink_gjk::intersect(&mut pair)
}

/// MPR penetration depth of overlapping `a` and `b` (meters); infinity when
/// a shape is missing or MPR does not converge.
#[inline(never)]
fn mpr_penetration<R: Real, A: mink_support::Support<R>, B: mink_support::Support<R>, M: Meter>(
    m: &mut M,
    a: &Option<A>,
    pose_a: &Iso3<R>,
    b: &Option<B>,
    pose_b: &Iso3<R>,
) -> R {
    let (Some(a), Some(b)) = (a, b) else {
        return bad();
    };
    m.start();
    let depth = mpr_penetration_query(a, pose_a, b, pose_b);
    m.stop();
    depth
}

/// The measured part of [`mpr_penetration`], out of line (see
/// [`gjk_distance_query`]). An `Unverified` answer (overlap found, depth
/// an upper bound not proven minimal) counts: it is what MPR returns, and
/// the `f64` run checks it.
#[inline(never)]
fn mpr_penetration_query<R: Real, A: mink_support::Support<R>, B: mink_support::Support<R>>(
    a: &A,
    pose_a: &Iso3<R>,
    b: &B,
    pose_b: &Iso3<R>,
) -> R {
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    let p = mink_mpr::penetration(&mut pair, pose_a);
    match p.status {
        mink_mpr::MprStatus::Converged | mink_mpr::MprStatus::Unverified => p.depth,
        _ => bad(),
    }
}

/// The support value (meters) along unit `dir` of the point the baked field
/// returns; infinity on a field error.
#[inline(never)]
fn field_support<R: Real, M: Meter>(m: &mut M, scene: &Scene<'_, R>, dir: [f64; 3]) -> R {
    let d = Vec3::new(R::lit(dir[0]), R::lit(dir[1]), R::lit(dir[2])).normalize_or(Vec3::Z);
    m.start();
    let hit = field_query(&scene.field, d);
    m.stop();
    match hit {
        Ok(hit) => hit.point.dot(d),
        Err(_) => bad(),
    }
}

/// The measured part of [`field_support`], out of line (see
/// [`gjk_distance_query`]).
#[inline(never)]
fn field_query<R: Real>(
    field: &FieldView<R, CompactCells<'_, R>>,
    d: Vec3<R>,
) -> Result<mink_field::FieldHit<R>, mink_field::FieldError> {
    field.query(d)
}

/// The host example's joint angles at time `t` (seconds): each joint swings
/// sinusoidally with its own amplitude, frequency and phase.
pub fn joint_angles<R: Real>(t: f64) -> [R; LINKS] {
    let amp = [2.6, 1.9, 2.7, 2.3, 2.7, 2.0, 2.9];
    let freq = [0.11, 0.17, 0.13, 0.19, 0.23, 0.29, 0.31];
    let phase = [0.0, 0.7, 1.9, 0.3, 2.2, 1.1, 0.5];
    let tau = R::lit(core::f64::consts::TAU);
    core::array::from_fn(|i| {
        R::lit(amp[i]) * (tau * R::lit(freq[i]) * R::lit(t) + R::lit(phase[i])).sin()
    })
}

/// The link capsules (radius, half its length).
pub fn arm_capsules<R: Real>() -> [Option<Capsule<R>>; LINKS] {
    core::array::from_fn(|i| capsule(RADII[i], LENGTHS[i] / 2.0))
}

/// Forward kinematics, as in the host example: the world pose of each
/// link's capsule centre. Joint `i` turns about its parent's z (even `i`)
/// or y (odd `i`) axis at the parent's tip; link `i` extends along +z.
pub fn link_poses<R: Real>(q: &[R; LINKS]) -> [Iso3<R>; LINKS] {
    let mut frame = Iso3::<R>::IDENTITY;
    let mut poses = [Iso3::IDENTITY; LINKS];
    for i in 0..LINKS {
        let axis = if i % 2 == 0 { Vec3::Z } else { Vec3::Y };
        let joint = Iso3::from_parts(Mat3::from_axis_angle(axis, q[i]), Vec3::ZERO);
        frame = frame.mul(&joint);
        let half = Vec3::new(R::ZERO, R::ZERO, R::lit(LENGTHS[i]) * R::HALF);
        poses[i] = frame.mul(&Iso3::from_translation(half));
        frame = frame.mul(&Iso3::from_translation(half + half));
    }
    poses
}

/// The arm's self-collision check: the signed distance (meters) of every
/// non-adjacent link pair, in the order `(0,2), (0,3), ..., (4,6)`;
/// infinity for a pair whose query failed. Only the 15 queries run between
/// `m.start()` and `m.stop()`.
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

/// The measured part of [`arm_check`], out of line (see
/// [`gjk_distance_query`]).
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
                let mut pair = Pair::new(a, &poses[i], b, &poses[j]);
                let d = mink_gjk::distance(&mut pair, &poses[i]);
                if matches!(
                    d.status,
                    mink_gjk::GjkStatus::Converged | mink_gjk::GjkStatus::Intersecting
                ) {
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
        .any(|&c| c.is_nan() || c < R::lit(MIN_CLEARANCE))
}
