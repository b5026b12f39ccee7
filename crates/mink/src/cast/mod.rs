//! Shape casts through the pair table: the first time two bodies, each
//! moving from its start pose to an end pose, come within a target
//! distance.
//!
//! The advancement itself is `mink_gjk`'s ([`mink_gjk::advance`]):
//! conservative advancement with a proven bound on every point's speed
//! (translation interpolated linearly, rotation at constant speed along the
//! shorter arc), so a motion reported clear is clear. What the pair table
//! adds is the distance at each step: the pair's own routine (a closed
//! form for spheres and capsules, sphere–box and box–box; GJK for the
//! rest), and the bound for a half-space, whose points are unbounded
//! (`plane`).

mod convex;
mod plane;

pub(crate) use convex::convex_cast;
pub(crate) use plane::{plane_cast, planes_cast};

pub use mink_gjk::{cast_tolerance, CastStatus, Motion, ShapeCast, MAX_CAST_ITERATIONS};

use crate::pair::table::{run_pair, CastQuery};
use crate::pair::Side;
use crate::query::Body;
use mink_support::{Iso3, Real, Support};

/// The two moving sides of a cast, as the pair routines take them: each
/// side's start pose and margin, its end pose, and the target distance
/// (meters). Validated at the front door.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastSpec<R> {
    pub a: Side<R>,
    pub end_a: Iso3<R>,
    pub b: Side<R>,
    pub end_b: Iso3<R>,
    pub target: R,
}

impl<R: Real> CastSpec<R> {
    /// The same cast with A and B swapped.
    pub fn mirrored(&self) -> Self {
        Self {
            a: self.b,
            end_a: self.end_b,
            b: self.a,
            end_b: self.end_a,
            target: self.target,
        }
    }

    /// A's motion.
    pub fn motion_a(&self) -> Motion<R> {
        Motion::new(self.a.pose, self.end_a)
    }

    /// B's motion.
    pub fn motion_b(&self) -> Motion<R> {
        Motion::new(self.b.pose, self.end_b)
    }
}

/// The first time `t` in `[0, 1]` at which body `a`, moving from its pose
/// (`a.pose`, at `t = 0`) to `end_a` (at `t = 1`), and body `b`, moving
/// from `b.pose` to `end_b`, come within `target_distance` meters of each
/// other (margins included); the translation is interpolated linearly and
/// the rotation at constant angular speed along the shorter arc. World
/// frame; the normal points from A to B.
///
/// - [`CastStatus::Hit`]: at `toi` the signed distance is within the
///   tolerance of the target ([`cast_tolerance`] times the bodies'
///   bounding radii plus their start offset), never below it by more than
///   that: the time is never late, and `p_a`, `p_b` and `normal` are the
///   closest points and normal then.
/// - [`CastStatus::Initial`]: already within the target at `t = 0`, so
///   `toi` is 0 (the fields are the start's signed distance, witnesses
///   and normal, a penetration when overlapping).
/// - [`CastStatus::Miss`]: the whole motion stays farther apart than the
///   target.
/// - [`CastStatus::IterationLimit`]: the motion is proven clear up to
///   `toi` only; a safety check treats it as a hit there.
///
/// A still body is one whose end pose is its pose. A non-finite pose, a
/// negative or non-finite margin or target distance gives
/// [`CastStatus::NonFinite`]; two half-spaces give
/// [`CastStatus::Unsupported`]. Never panics.
///
/// ```
/// use mink::cast::{shape_cast, CastStatus};
/// use mink::support::{Capsule, Cuboid, Iso3, Mat3, Vec3};
/// use mink::{Body, Shape};
///
/// // A 1 m link (capsule along z, radius 5 cm) turning 90° about y around
/// // its end at the origin, from pointing up to pointing along +x, and a
/// // 10 cm box at x = 0.7 m on the floor.
/// let link: Shape<f64> = Shape::Capsule(Capsule::new(0.05, 0.5).unwrap());
/// let boxed: Shape<f64> = Shape::Cuboid(Cuboid::new(Vec3::new(0.05, 0.05, 0.05)).unwrap());
/// let up = Iso3::from_translation(Vec3::new(0.0, 0.0, 0.5));
/// let turn = Mat3::from_axis_angle(Vec3::Y, core::f64::consts::FRAC_PI_2);
/// let along_x = Iso3::from_parts(turn, Vec3::new(0.5, 0.0, 0.0));
/// let obstacle = Iso3::from_translation(Vec3::new(0.7, 0.0, 0.2));
/// let cast = shape_cast(
///     &Body::new(&link, up),
///     &along_x,
///     &Body::new(&boxed, obstacle),
///     &obstacle,
///     0.0,
/// );
/// assert_eq!(cast.status, CastStatus::Hit);
/// assert!(cast.toi > 0.0 && cast.toi < 1.0);
/// assert!(cast.distance.abs() < 1e-6);
/// ```
pub fn shape_cast<R: Real, U: Support<R>>(
    a: &Body<'_, '_, R, U>,
    end_a: &Iso3<R>,
    b: &Body<'_, '_, R, U>,
    end_b: &Iso3<R>,
    target_distance: R,
) -> ShapeCast<R> {
    let spec = CastSpec {
        a: a.side(),
        end_a: *end_a,
        b: b.side(),
        end_b: *end_b,
        target: target_distance,
    };
    let valid = spec.a.valid()
        && spec.b.valid()
        && end_a.is_finite()
        && end_b.is_finite()
        && target_distance.finite()
        && target_distance >= R::ZERO;
    if !valid {
        return ShapeCast::non_finite();
    }
    run_pair(a.shape, b.shape, CastQuery(spec))
}
