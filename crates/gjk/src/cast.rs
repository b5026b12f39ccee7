//! Shape casts: the first time two convex shapes, each moving rigidly from
//! a start pose to an end pose, come within a target distance, by
//! conservative advancement (Mirtich, "Impulse-based dynamic simulation of
//! rigid body systems", 1996).
//!
//! Each shape's motion over `t` in `[0, 1]` interpolates its translation
//! linearly and its rotation at constant angular speed along the shorter
//! arc ([`Motion`]). A point of a shape at distance at most `r` from its
//! frame's origin then moves at most `|v| + θ r` per unit of `t` (`v` the
//! translation's change, `θ` the rotation's angle), and along a unit
//! direction `n` at most `v · n + θ r |n × ω|` (`ω` the rotation's world
//! axis, fixed over the motion). At a time `t` where the shapes are `d`
//! apart along the unit normal `n`, the plane normal to `n` between them
//! keeps them apart by at least
//! `d - Δ ((v_a - v_b) · n + θ_a r_a |n × ω_a| + θ_b r_b |n × ω_b|)` at
//! `t + Δ`, so the cast
//! advances `t` by the `Δ` at which that bound reaches the target distance,
//! measures again, and repeats: it never steps past the first time of
//! contact. It ends when the distance is within the tolerance of the
//! target (a hit), when the bound proves the rest of the motion clear (a
//! miss: the shapes do not approach along `n`, or `t` passes 1), or at
//! [`MAX_CAST_ITERATIONS`], when the motion is proven clear only up to the
//! `toi` returned.
//!
//! The distance at each step comes from a caller's function (GJK in
//! [`shape_cast`], a closed form in an umbrella's pair table), so the
//! advancement is written once for every pair.

use crate::{gjk, Distance, GjkCache, GjkSettings, GjkStatus};
use mink_support::{Iso3, Mat3, Pair, Quat, Real, Support, Vec3};

/// Cap on conservative-advancement steps (distance queries) of one cast.
/// A translation toward a flat face needs one or two; a rotation, whose
/// bound `θ r` is loose for points near the axis, can need tens on a
/// grazing contact.
pub const MAX_CAST_ITERATIONS: u32 = 256;

/// The cast's default tolerance on the distance at the time of impact,
/// relative to the pair's scale ([`cast_scale`]): `1e-7` in f64 and
/// `1000 ε` (1.2e-4) in f32, where GJK's distances are good to about that
/// much.
pub fn cast_tolerance<R: Real>() -> R {
    R::lit(1e-7).max_of(R::EPSILON * R::lit(1000.0))
}

/// The scale of a cast's tolerance, meters: the two shapes' bounding
/// radii plus the distance between their frames' origins at the start
/// (the magnitude the distances are computed from).
pub fn cast_scale<R: Real>(a: &Moving<R>, b: &Moving<R>) -> R {
    a.radius + b.radius + (b.motion.start.translation - a.motion.start.translation).norm()
}

/// A rigid motion over `t` in `[0, 1]`: from `start` at `t = 0` to `end`
/// at `t = 1`, the translation interpolated linearly and the rotation at
/// constant angular speed along the shorter arc (spherical linear
/// interpolation of the quaternions). Poses map the shape's frame to the
/// world (meters).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Motion<R> {
    /// The pose at `t = 0`.
    pub start: Iso3<R>,
    /// The pose at `t = 1`.
    pub end: Iso3<R>,
}

impl<R: Real> Motion<R> {
    /// The motion from `start` to `end`.
    pub const fn new(start: Iso3<R>, end: Iso3<R>) -> Self {
        Self { start, end }
    }

    /// A shape that stays at `pose`.
    pub const fn still(pose: Iso3<R>) -> Self {
        Self {
            start: pose,
            end: pose,
        }
    }

    /// `true` when both poses are finite.
    pub fn is_finite(&self) -> bool {
        self.start.is_finite() && self.end.is_finite()
    }

    /// The change of translation over the motion (meters per unit of `t`).
    pub fn velocity(&self) -> Vec3<R> {
        self.end.translation - self.start.translation
    }

    /// The rotation from `start` to `end` in the start frame, along the
    /// shorter arc: its unit axis and its angle in `[0, π]` (radians, the
    /// angular speed per unit of `t`); the axis is `x` when the angle is
    /// zero.
    pub fn rotation(&self) -> (Vec3<R>, R) {
        let relative = self.start.rotation.transpose_mul_mat(&self.end.rotation);
        let q = Quat::from_mat3(&relative);
        // The shorter arc: the quaternion with a non-negative scalar part.
        let (w, v) = if q.w < R::ZERO {
            (-q.w, Vec3::new(-q.x, -q.y, -q.z))
        } else {
            (q.w, Vec3::new(q.x, q.y, q.z))
        };
        let s = v.norm();
        if s > R::ZERO {
            (v * (R::ONE / s), R::TWO * s.atan2(w))
        } else {
            (Vec3::X, R::ZERO)
        }
    }

    /// The pose at `t` (any `t`; `0` gives `start`, `1` gives `end` up to
    /// the rounding of the rotation's axis and angle).
    pub fn at(&self, t: R) -> Iso3<R> {
        let (axis, angle) = self.rotation();
        self.at_with(t, axis, angle)
    }

    /// [`Motion::at`] with the rotation's axis and angle known.
    fn at_with(&self, t: R, axis: Vec3<R>, angle: R) -> Iso3<R> {
        let translation = self.start.translation + self.velocity() * t;
        if angle == R::ZERO {
            return Iso3::from_parts(self.start.rotation, translation);
        }
        let turn = Mat3::from_axis_angle(axis, angle * t);
        Iso3::from_parts(self.start.rotation.mul_mat(&turn), translation)
    }
}

/// A motion with its rotation resolved once, for the many poses a cast
/// asks for, and the speed bound of its shape's points.
#[derive(Clone, Copy, Debug)]
struct Sweep<R> {
    motion: Motion<R>,
    axis: Vec3<R>,
    angle: R,
    /// The largest distance of the shape's points from its frame's origin
    /// (meters): its points move at most `|v| + angle · radius`.
    radius: R,
}

impl<R: Real> Sweep<R> {
    fn new(motion: &Motion<R>, radius: R) -> Self {
        let (axis, angle) = motion.rotation();
        Self {
            motion: *motion,
            axis,
            angle,
            radius,
        }
    }

    fn at(&self, t: R) -> Iso3<R> {
        if t >= R::ONE {
            return self.motion.end;
        }
        self.motion.at_with(t, self.axis, self.angle)
    }
}

/// The largest distance from a shape's frame origin to a point of the
/// shape (core and inflation), meters: the farthest corner of its local
/// box. An upper bound, which is all the advancement needs.
pub fn bounding_radius<R: Real, S: Support<R>>(shape: &S) -> R {
    let b = shape.local_aabb();
    let far = |lo: R, hi: R| lo.abs().max_of(hi.abs());
    Vec3::new(
        far(b.min.x, b.max.x),
        far(b.min.y, b.max.y),
        far(b.min.z, b.max.z),
    )
    .norm()
}

/// How a shape cast ended, and so what its [`ShapeCast`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CastStatus {
    /// The shapes come within the target distance at `toi` in `(0, 1]`:
    /// their distance there is within the tolerance of the target, never
    /// below it by more than the tolerance (the time is never late), and
    /// `p_a`, `p_b` and `normal` are their closest points and normal then.
    Hit,
    /// The shapes are already within the target distance at `t = 0` (or
    /// overlapping): `toi` is 0; `distance`, `p_a`, `p_b` and `normal`
    /// are the signed distance, witnesses and normal at the start.
    Initial,
    /// The motion is clear: the shapes stay farther apart than the target
    /// distance for every `t` in `[0, 1]`. `toi` is 1 and the other fields
    /// are the last distance query's.
    Miss,
    /// [`MAX_CAST_ITERATIONS`] steps, or a distance query that could not
    /// settle: the motion is proven clear up to `toi` only, and the fields
    /// are the last settled query's. A caller checking a motion for safety
    /// treats it as a hit at `toi`.
    IterationLimit,
    /// A pose, the target or a shape's inflation is not finite (or the
    /// target is negative): every field is zero.
    NonFinite,
    /// The pair has no meaningful answer (two half-spaces, in an umbrella
    /// whose distance has none for them either): every field is zero.
    Unsupported,
}

/// The answer of a shape cast, world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ShapeCast<R> {
    /// The time in `[0, 1]` (see [`CastStatus`]).
    pub toi: R,
    /// The signed distance of the shapes at `toi`, meters.
    pub distance: R,
    /// The closest point of A at `toi` (witness), meters.
    pub p_a: Vec3<R>,
    /// The closest point of B at `toi`, meters.
    pub p_b: Vec3<R>,
    /// The unit normal from A towards B at `toi`.
    pub normal: Vec3<R>,
    /// Distance queries made.
    pub iterations: u32,
    /// How the cast ended.
    pub status: CastStatus,
}

impl<R: Real> ShapeCast<R> {
    /// The answer for bad input ([`CastStatus::NonFinite`]).
    pub fn non_finite() -> Self {
        Self {
            toi: R::ZERO,
            distance: R::ZERO,
            p_a: Vec3::ZERO,
            p_b: Vec3::ZERO,
            normal: Vec3::ZERO,
            iterations: 0,
            status: CastStatus::NonFinite,
        }
    }

    /// The answer for a pair with no meaningful one
    /// ([`CastStatus::Unsupported`]).
    pub fn unsupported() -> Self {
        Self {
            status: CastStatus::Unsupported,
            ..Self::non_finite()
        }
    }

    /// The same answer for the pair swapped (B first): witnesses
    /// exchanged, normal flipped.
    pub fn mirrored(self) -> Self {
        Self {
            p_a: self.p_b,
            p_b: self.p_a,
            normal: -self.normal,
            ..self
        }
    }

    /// `true` when the shapes come within the target distance during the
    /// motion ([`CastStatus::Hit`] or [`CastStatus::Initial`]).
    pub fn is_hit(&self) -> bool {
        matches!(self.status, CastStatus::Hit | CastStatus::Initial)
    }

    fn at(toi: R, d: &Distance<R>, iterations: u32, status: CastStatus) -> Self {
        Self {
            toi,
            distance: d.distance,
            p_a: d.p_a,
            p_b: d.p_b,
            normal: d.normal,
            iterations,
            status,
        }
    }
}

/// What a cast needs of each shape: its motion and the bound on its
/// points' distance from its frame origin ([`bounding_radius`]), meters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moving<R> {
    /// The shape's motion.
    pub motion: Motion<R>,
    /// Its bounding radius about its frame's origin.
    pub radius: R,
}

/// Conservative advancement with the distance from `distance_at(pose_a,
/// pose_b)` (world frame, a [`Distance`] as GJK's: `Converged` with the
/// signed distance, witnesses and normal, `Intersecting` for overlapping
/// shapes, `IterationLimit` for an answer cut short whose distance is an
/// upper bound (the distance between two points of the shapes), anything
/// else unsettled). The advancement steps only on `Converged` answers; a
/// cut-short one ends it, as the contact when its distance is within
/// `target + tolerance`. The first time in `[0, 1]` the shapes
/// come within `target` (meters, `>= 0`) of each other, within
/// `tolerance` (meters; see [`cast_tolerance`] for a default relative to
/// the shapes' size). See the module's documentation for the bound; see
/// [`CastStatus`] for what each ending holds. Never panics.
pub fn advance<R, F>(
    a: &Moving<R>,
    b: &Moving<R>,
    target: R,
    tolerance: R,
    mut distance_at: F,
) -> ShapeCast<R>
where
    R: Real,
    F: FnMut(&Iso3<R>, &Iso3<R>) -> Distance<R>,
{
    let valid = a.motion.is_finite()
        && b.motion.is_finite()
        && a.radius.finite()
        && b.radius.finite()
        && target.finite()
        && target >= R::ZERO
        && tolerance.finite();
    if !valid {
        return ShapeCast::non_finite();
    }
    let (sa, sb) = (
        Sweep::new(&a.motion, a.radius),
        Sweep::new(&b.motion, b.radius),
    );
    let relative = sa.motion.velocity() - sb.motion.velocity();
    // Each shape turns about a fixed world axis at a constant rate: a
    // point at `x` from the frame's origin moves along `n` at
    // `n · (ω × x) = x · (n × ω)`, at most `|n × ω| r`.
    let spin_a = sa.motion.start.rotation.mul_vec(sa.axis) * (sa.angle * sa.radius);
    let spin_b = sb.motion.start.rotation.mul_vec(sb.axis) * (sb.angle * sb.radius);
    let tolerance = tolerance.max_of(R::ZERO);
    let mut t = R::ZERO;
    let mut iterations = 0;
    let mut last: Option<Distance<R>> = None;
    while iterations < MAX_CAST_ITERATIONS {
        iterations += 1;
        let d = distance_at(&sa.at(t), &sb.at(t));
        let settled = d.status == GjkStatus::Converged && d.distance.finite();
        // An answer cut short (`IterationLimit`: GJK's at a contact that
        // does not settle, two cylinders' rims) still measures the
        // distance between two points of the shapes, an upper bound on
        // it: within the target, the shapes are, and every step so far
        // was safe, so this is the contact.
        let within = d.distance.finite()
            && d.distance <= target + tolerance
            && (settled || d.status == GjkStatus::IterationLimit);
        if d.status == GjkStatus::Intersecting || within {
            let status = if t == R::ZERO {
                CastStatus::Initial
            } else {
                CastStatus::Hit
            };
            // An overlap found after a step is round-off at the contact
            // (every step stops short of the target). Without a normal of
            // its own (GJK's `Intersecting`), the last settled query's
            // witnesses and normal stand for it.
            let bare = !(d.normal.norm_squared() > R::HALF);
            let d = match (d.status, last) {
                (GjkStatus::Intersecting, Some(prev)) if t > R::ZERO && bare => Distance {
                    distance: d.distance.min_of(prev.distance),
                    ..prev
                },
                _ => d,
            };
            return ShapeCast::at(t, &d, iterations, status);
        }
        if !settled {
            return match last {
                Some(prev) => ShapeCast::at(t, &prev, iterations, CastStatus::IterationLimit),
                None => ShapeCast {
                    toi: t,
                    iterations,
                    status: CastStatus::IterationLimit,
                    ..ShapeCast::non_finite()
                },
            };
        }
        // How fast the gap along `n` can close: the translations' part
        // along it plus every point's turn across it.
        let n = d.normal;
        let closing = relative.dot(n) + n.cross(spin_a).norm() + n.cross(spin_b).norm();
        last = Some(d);
        if !(closing > R::ZERO) {
            return ShapeCast::at(R::ONE, &d, iterations, CastStatus::Miss);
        }
        let step = (d.distance - target) / closing;
        if t + step > R::ONE {
            return ShapeCast::at(R::ONE, &d, iterations, CastStatus::Miss);
        }
        if !(step > R::ZERO) {
            break;
        }
        t += step;
    }
    match last {
        Some(prev) => ShapeCast::at(t, &prev, iterations, CastStatus::IterationLimit),
        None => ShapeCast::non_finite(),
    }
}

/// The first time in `[0, 1]` that A, moving along `motion_a`, and B,
/// moving along `motion_b`, come within `target` meters of each other
/// (inflation included), by conservative advancement ([`advance`]) on
/// GJK distances warm-started from step to step, with the tolerance
/// [`cast_tolerance`] times [`cast_scale`]. World frame.
///
/// ```
/// use mink_gjk::{shape_cast, CastStatus, Motion};
/// use mink_support::{Iso3, Sphere, Vec3};
///
/// // A unit sphere moving 10 m along x towards one at x = 5.
/// let ball = Sphere::new(1.0_f64).unwrap();
/// let moving = Motion::new(Iso3::IDENTITY, Iso3::from_translation(Vec3::new(10.0, 0.0, 0.0)));
/// let still = Motion::still(Iso3::from_translation(Vec3::new(5.0, 0.0, 0.0)));
/// let cast = shape_cast(&ball, &moving, &ball, &still, 0.0);
/// assert_eq!(cast.status, CastStatus::Hit);
/// assert!((cast.toi - 0.3).abs() < 1e-6); // centres 2 m apart at x = 3
/// ```
pub fn shape_cast<R, A, B>(
    a: &A,
    motion_a: &Motion<R>,
    b: &B,
    motion_b: &Motion<R>,
    target: R,
) -> ShapeCast<R>
where
    R: Real,
    A: Support<R>,
    B: Support<R>,
{
    let a_moving = Moving {
        motion: *motion_a,
        radius: bounding_radius(a),
    };
    let b_moving = Moving {
        motion: *motion_b,
        radius: bounding_radius(b),
    };
    let tolerance = cast_tolerance::<R>() * cast_scale(&a_moving, &b_moving);
    let mut cache = GjkCache::<R, A::Hint, B::Hint>::new();
    let settings = GjkSettings::default();
    advance(&a_moving, &b_moving, target, tolerance, |pa, pb| {
        gjk(&mut Pair::new(a, pa, b, pb), pa, &settings, &mut cache)
    })
}
