//! Ray casting against any convex shape by GJK (van den Bergen, "Ray
//! casting against general convex objects", 2004): conservative advancement
//! of the ray's point `x` to the separating plane GJK finds between `x` and
//! the shape, until `x` reaches the shape.
//!
//! The iteration runs on the shape's *core* and treats the inflation radius
//! `ρ` exactly: a support point `p` along `v` (the direction from the core's
//! point closest to `x` towards `x`) bounds the core by the plane
//! `v · y = v · p`, so the inflated shape lies below `v · y = v · p + ρ|v|`;
//! `x` moves to that plane along the ray, never past the shape. The cast
//! ends when `x` is within the tolerance of the inflated surface (its
//! distance to the core within `ρ` plus the tolerance), or when the ray
//! points away from a separating plane (a miss).
//!
//! Everything runs in the shape's frame; the answer is mapped to the world
//! with the shape's pose, and its point is `origin + toi · dir` exactly as
//! the caller's ray gives it.

use crate::simplex::greater;
use crate::{gjk_tolerance, Simplex, MAX_GJK_ITERATIONS};
use mink_support::{Iso3, Real, Support, Vec3};

/// A ray: the points `origin + t · dir` for `t >= 0`, world frame, meters.
/// `dir` need not be unit length: `t` is in units of its length.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Ray<R> {
    /// Where the ray starts.
    pub origin: Vec3<R>,
    /// Its direction (any non-zero length).
    pub dir: Vec3<R>,
}

impl<R: Real> Ray<R> {
    /// The ray from `origin` along `dir`.
    pub const fn new(origin: Vec3<R>, dir: Vec3<R>) -> Self {
        Self { origin, dir }
    }

    /// The ray's point at `t`: `origin + t · dir`.
    #[inline]
    pub fn at(&self, t: R) -> Vec3<R> {
        self.origin + self.dir * t
    }

    /// `true` when both vectors are finite and `dir`'s squared length is
    /// neither zero nor overflowing (the casts work with it).
    pub fn is_valid(&self) -> bool {
        let dd = self.dir.norm_squared();
        self.origin.is_finite() && self.dir.is_finite() && dd > R::ZERO && dd.finite()
    }

    /// The same ray seen from a shape's frame (`pose` maps that frame to
    /// the world): `t` keeps its meaning.
    pub fn to_local(&self, pose: &Iso3<R>) -> Self {
        Self {
            origin: pose.inverse_transform_point(self.origin),
            dir: pose.inverse_transform_vector(self.dir),
        }
    }
}

/// How a ray cast ended, and so what its [`RayCast`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RayStatus {
    /// The ray reaches the shape's surface at `toi <= max_toi`: `point` is
    /// there (within the tolerance) and `normal` is the unit outward normal
    /// of the surface there. With `solid: false` and the origin inside,
    /// this is where the ray leaves the shape.
    Hit,
    /// The origin is inside the shape (or on its surface) and the cast is
    /// solid: `toi` is 0, `point` the origin and `normal` zero.
    Inside,
    /// The ray does not reach the shape for `t` in `[0, max_toi]`.
    Miss,
    /// [`MAX_GJK_ITERATIONS`] reached: the ray is proven free of the shape
    /// up to `toi` (a lower bound on the hit), `point` is there and
    /// `normal` the last separating plane's.
    IterationLimit,
    /// The ray, the pose, the inflation or `max_toi` is not finite (or
    /// `max_toi` is negative, or `dir` zero or so long that its squared
    /// length overflows): every field is zero.
    NonFinite,
}

/// The answer of a ray cast, world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RayCast<R> {
    /// The ray parameter of the hit, in units of the ray's `dir` length.
    pub toi: R,
    /// `origin + toi · dir`, meters.
    pub point: Vec3<R>,
    /// Unit outward surface normal at `point` (zero when [`RayStatus::Inside`]).
    pub normal: Vec3<R>,
    /// Support calls made.
    pub iterations: u32,
    /// How the cast ended (see [`RayStatus`] for what each field holds).
    pub status: RayStatus,
}

impl<R: Real> RayCast<R> {
    /// The answer for bad input ([`RayStatus::NonFinite`]).
    pub fn non_finite() -> Self {
        Self::empty(RayStatus::NonFinite)
    }

    /// The answer for a ray that misses ([`RayStatus::Miss`]).
    pub fn miss() -> Self {
        Self::empty(RayStatus::Miss)
    }

    fn empty(status: RayStatus) -> Self {
        Self {
            toi: R::ZERO,
            point: Vec3::ZERO,
            normal: Vec3::ZERO,
            iterations: 0,
            status,
        }
    }

    /// `true` when the ray reached the shape ([`RayStatus::Hit`] or
    /// [`RayStatus::Inside`]).
    pub fn is_hit(&self) -> bool {
        matches!(self.status, RayStatus::Hit | RayStatus::Inside)
    }
}

/// Casts `ray` (world frame) against `shape` at `pose` (shape frame to
/// world), inflation included: the first `t` in `[0, max_toi]` at which
/// `ray.at(t)` is on the shape, its point and outward normal.
///
/// A ray starting inside the shape gives [`RayStatus::Inside`] when
/// `solid`, else the point where it leaves the shape (a [`RayStatus::Hit`]
/// with the outward normal there), or a miss when that is past `max_toi`.
/// The hit is accurate to GJK's relative tolerance ([`gjk_tolerance`]) of
/// the shape's size plus the ray point's distance from the shape's origin:
/// the cast never reports a `toi` past the surface by more than that.
/// Non-finite input gives [`RayStatus::NonFinite`]; nothing panics.
///
/// ```
/// use mink_gjk::{ray_cast, Ray, RayStatus};
/// use mink_support::{Capsule, Iso3, Vec3};
///
/// // A capsule along z at the origin (radius 0.5), a ray from x = 3.
/// let capsule = Capsule::new(0.5_f64, 1.0).unwrap();
/// let ray = Ray::new(Vec3::new(3.0, 0.0, 0.2), Vec3::new(-2.0, 0.0, 0.0));
/// let hit = ray_cast(&capsule, &Iso3::IDENTITY, &ray, 10.0, true);
/// assert_eq!(hit.status, RayStatus::Hit);
/// assert!((hit.toi - 1.25).abs() < 1e-8); // t in units of |dir| = 2
/// assert!((hit.normal - Vec3::X).norm() < 1e-6);
/// ```
pub fn ray_cast<R: Real, S: Support<R>>(
    shape: &S,
    pose: &Iso3<R>,
    ray: &Ray<R>,
    max_toi: R,
    solid: bool,
) -> RayCast<R> {
    let radius = shape.inflation();
    if !(ray.is_valid()
        && pose.is_finite()
        && radius.finite()
        && radius >= R::ZERO
        && max_toi >= R::ZERO
        && !max_toi.is_nan())
    {
        return RayCast::non_finite();
    }
    let local = ray.to_local(pose);
    let first = advance(shape, radius, &local, max_toi);
    let hit = match first.end {
        End::Inside if !solid => exit(shape, radius, &local, max_toi),
        _ => first,
    };
    let (toi, normal) = match hit.end {
        End::Miss => {
            return RayCast {
                iterations: hit.iterations,
                ..RayCast::miss()
            }
        }
        End::Inside => (R::ZERO, Vec3::ZERO),
        End::Hit | End::IterationLimit => (hit.toi, pose.rotation * hit.normal),
    };
    RayCast {
        toi,
        point: ray.at(toi),
        normal,
        iterations: hit.iterations,
        status: match hit.end {
            End::Hit => RayStatus::Hit,
            End::Inside => RayStatus::Inside,
            End::IterationLimit => RayStatus::IterationLimit,
            End::Miss => RayStatus::Miss,
        },
    }
}

/// How [`advance`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Hit,
    Inside,
    Miss,
    IterationLimit,
}

/// What [`advance`] found, in the shape's frame.
#[derive(Clone, Copy, Debug)]
struct Advance<R> {
    toi: R,
    normal: Vec3<R>,
    iterations: u32,
    end: End,
}

/// The conservative advancement of `ray` (shape frame) against `shape`'s
/// core inflated by `radius`, up to `max_toi`.
fn advance<R: Real, S: Support<R>>(shape: &S, radius: R, ray: &Ray<R>, max_toi: R) -> Advance<R> {
    let tol_factor = gjk_tolerance::<R>();
    let aabb = shape.local_aabb();
    let size = (aabb.max - aabb.min).norm() * R::HALF + (aabb.max + aabb.min).norm() * R::HALF;
    let mut hint = S::Hint::default();
    let mut simplex = Simplex::new();
    let mut t = R::ZERO;
    let mut x = ray.origin;
    let mut normal = Vec3::ZERO;
    let mut moved = false;
    let mut prev_dist = R::INFINITY;
    let mut v_is_closest = false;
    // Any point of the core gives a first direction; one at `x` itself
    // gives the ray's reverse.
    let mut v = (x - shape.interior_point()).normalize_or(-ray.dir);
    for iteration in 1..=MAX_GJK_ITERATIONS {
        // GJK's tolerance at the ray's point, and at least a few ulps of
        // the ray's own coordinates (`x` is rounded to those: a ray from
        // 10 km cannot place it closer than millimeters in f32).
        let ray_ulps = R::lit(8.0) * R::EPSILON * (ray.origin.norm() + (ray.dir * t).norm());
        let tol = (tol_factor * (size + x.norm())).max_of(ray_ulps);
        let p = shape.support(v, &mut hint);
        let vn = v.norm();
        let gap = v.dot(x - p) - radius * vn;
        // `x` is beyond the plane that bounds the inflated shape: move it
        // to the plane along the ray, or miss when the ray leaves it.
        let advanced = greater(gap, tol * vn);
        if advanced {
            // A miss's normal is the plane that proves it: the shape is
            // below it and the rest of the ray above.
            let vd = v.dot(ray.dir);
            if !(vd < R::ZERO) {
                return Advance {
                    toi: t,
                    normal: v / vn,
                    iterations: iteration,
                    end: End::Miss,
                };
            }
            t -= gap / vd;
            if !(t <= max_toi) {
                return Advance {
                    toi: t,
                    normal: v / vn,
                    iterations: iteration,
                    end: End::Miss,
                };
            }
            x = ray.at(t);
            simplex.rebase(x);
            normal = v / vn;
            moved = true;
        }
        // No move, and `v` is the simplex's closest vector at `x`: its
        // length is an upper bound on the core's distance and the plane a
        // lower one; once they meet, `x` is on the inflated surface with
        // `v` its direction. (Tested before the new point joins: a support
        // point that improves nothing can make a sliver simplex whose
        // reduction lands farther than `v`, and GJK would cycle.)
        if !advanced && v_is_closest && !greater(vn - radius - gap / vn, tol) {
            if radius > R::ZERO && greater(vn, tol) {
                normal = v / vn;
            }
            return Advance {
                toi: t,
                normal,
                iterations: iteration,
                end: if moved { End::Hit } else { End::Inside },
            };
        }
        simplex.push_point(x, p);
        let closest = simplex.reduce();
        v = closest.v;
        v_is_closest = true;
        let dist = v.norm();
        // Without a move, the plane proves the core at least
        // `radius + gap / |v|` from `x`, within the tolerance of the
        // inflated surface; once the simplex is that close too, `x` is on
        // it (GJK at a fixed point has converged).
        let converged = !advanced && !greater(dist - radius - gap / vn, tol);
        // Or no move and no progress: the simplex is as close as round-off
        // lets it get (the plane's bound is round-off itself once `|v|` is
        // a few thousand ulps of the support points), within the square
        // root of ε of the surface.
        let stalled = !advanced
            && !(dist < prev_dist * R::lit(0.999))
            && !greater(dist, radius + R::sqrt_epsilon() * (size + x.norm()));
        prev_dist = dist;
        // Within the tolerance of the inflated surface. An inflated shape's
        // normal is the direction from the core's closest point, so a hit
        // waits for GJK at `x` to converge before it reads it.
        let on_surface = !greater(dist, radius + tol) && (radius == R::ZERO || !moved);
        if closest.inside || converged || stalled || on_surface {
            // On the surface (or in the inflation's skin): the outward
            // normal is the direction from the core's closest point when it
            // is far enough from the core to have one, else the plane's.
            let end = if moved { End::Hit } else { End::Inside };
            if radius > R::ZERO && greater(dist, tol) {
                normal = v / dist;
            }
            return Advance {
                toi: t,
                normal,
                iterations: iteration,
                end,
            };
        }
    }
    Advance {
        toi: t,
        normal,
        iterations: MAX_GJK_ITERATIONS,
        end: End::IterationLimit,
    }
}

/// Where `ray` (shape frame), whose origin is inside the shape, leaves it:
/// the hit of the reverse ray cast from a point past the shape, mapped
/// back; a miss when that is past `max_toi`.
fn exit<R: Real, S: Support<R>>(shape: &S, radius: R, ray: &Ray<R>, max_toi: R) -> Advance<R> {
    let aabb = shape.local_aabb();
    let center = (aabb.min + aabb.max) * R::HALF;
    // Farther than any point of the shape from the origin, in ray units.
    let reach = ((aabb.max - aabb.min).norm() + (ray.origin - center).norm() + radius) * R::TWO
        / ray.dir.norm();
    let back = Ray::new(ray.at(reach), -ray.dir);
    let from_far = advance(shape, radius, &back, reach);
    let iterations = from_far.iterations;
    match from_far.end {
        End::Hit | End::IterationLimit => {
            let toi = (reach - from_far.toi).max_of(R::ZERO);
            if toi <= max_toi {
                Advance {
                    toi,
                    iterations,
                    ..from_far
                }
            } else {
                Advance {
                    toi,
                    normal: Vec3::ZERO,
                    iterations,
                    end: End::Miss,
                }
            }
        }
        // The far point is outside by construction, so a miss here means
        // the ray runs within the tolerance of the surface all the way
        // from its origin (along a flat side or an edge, or through a
        // shape thinner than the tolerance): it leaves where it starts.
        // The plane that proved the miss bounds the shape with the whole
        // ray on its far side, the origin included, so it is a normal of
        // the surface there.
        End::Inside | End::Miss => Advance {
            toi: R::ZERO,
            normal: if from_far.end == End::Miss && from_far.normal.is_finite() {
                from_far.normal
            } else {
                -ray.dir.normalize_or(Vec3::X)
            },
            iterations,
            end: End::Hit,
        },
    }
}
