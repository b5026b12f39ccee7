//! The chord of a ray's line through a convex shape: the interval of the
//! line's parameter `t` inside the shape, with the outward normal at each
//! end (shape frame). Every closed-form ray cast computes one; [`to_cast`]
//! turns it into the answer for the ray (`t >= 0`, `max_toi`, solid or
//! not).

use mink_gjk::{Ray, RayCast, RayStatus};
use mink_support::{Aabb, Iso3, Real, Vec3};

/// Where a line enters and leaves a convex shape, in units of its
/// direction's length, and the shape's unit outward normals there (shape
/// frame). `enter <= exit`; either may be infinite (a half-space).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chord<R> {
    pub enter: R,
    pub enter_normal: Vec3<R>,
    pub exit: R,
    pub exit_normal: Vec3<R>,
}

impl<R: Real> Chord<R> {
    /// A chord of one point at `t` (a flat shape crossed), the normal
    /// `normal` on both sides.
    pub fn point(t: R, normal: Vec3<R>) -> Self {
        Self {
            enter: t,
            enter_normal: normal,
            exit: t,
            exit_normal: normal,
        }
    }

    /// The chord over the whole line (a line inside an infinite shape).
    pub fn whole(normal: Vec3<R>) -> Self {
        Self {
            enter: -R::INFINITY,
            enter_normal: normal,
            exit: R::INFINITY,
            exit_normal: normal,
        }
    }

    /// The part of this chord also inside `other` (the chord of the
    /// intersection of two convex shapes); `None` when empty.
    pub fn and(self, other: Self) -> Option<Self> {
        let (enter, enter_normal) = if other.enter > self.enter {
            (other.enter, other.enter_normal)
        } else {
            (self.enter, self.enter_normal)
        };
        let (exit, exit_normal) = if other.exit < self.exit {
            (other.exit, other.exit_normal)
        } else {
            (self.exit, self.exit_normal)
        };
        (enter <= exit).then_some(Self {
            enter,
            enter_normal,
            exit,
            exit_normal,
        })
    }

    /// The chord of the union of two convex pieces whose union is convex
    /// (a capsule's cylinder and end spheres): from the first entry to
    /// the last exit.
    pub fn or(self, other: Self) -> Self {
        let (enter, enter_normal) = if other.enter < self.enter {
            (other.enter, other.enter_normal)
        } else {
            (self.enter, self.enter_normal)
        };
        let (exit, exit_normal) = if other.exit > self.exit {
            (other.exit, other.exit_normal)
        } else {
            (self.exit, self.exit_normal)
        };
        Self {
            enter,
            enter_normal,
            exit,
            exit_normal,
        }
    }
}

/// [`Chord::or`] of two optional chords.
pub(crate) fn either<R: Real>(a: Option<Chord<R>>, b: Option<Chord<R>>) -> Option<Chord<R>> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.or(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

/// The chord of the line `o + t·d` through the half-space
/// `n · x <= offset` (`n` the unit outward normal): unbounded on one side;
/// the whole line when it runs inside parallel to the plane, `None` when
/// it runs outside.
pub(crate) fn plane_chord<R: Real>(
    n: Vec3<R>,
    offset: R,
    o: Vec3<R>,
    d: Vec3<R>,
) -> Option<Chord<R>> {
    let above = n.dot(o) - offset;
    let towards = n.dot(d);
    if towards == R::ZERO {
        return (above <= R::ZERO).then(|| Chord::whole(n));
    }
    let t = -above / towards;
    Some(if towards < R::ZERO {
        Chord {
            enter: t,
            enter_normal: n,
            exit: R::INFINITY,
            exit_normal: n,
        }
    } else {
        Chord {
            enter: -R::INFINITY,
            enter_normal: n,
            exit: t,
            exit_normal: n,
        }
    })
}

/// The chord of the slab `lo <= o + t·d <= hi` along one axis (`o`, `d`
/// that axis's coordinates of the line), with the outward normals `-axis`
/// at `lo` and `+axis` at `hi`; the whole line when `d` is zero and `o`
/// between the two, `None` when outside.
pub(crate) fn slab<R: Real>(o: R, d: R, lo: R, hi: R, axis: Vec3<R>) -> Option<Chord<R>> {
    if d == R::ZERO {
        return (o >= lo && o <= hi).then(|| Chord::whole(axis));
    }
    let (t_lo, t_hi) = ((lo - o) / d, (hi - o) / d);
    Some(if d > R::ZERO {
        Chord {
            enter: t_lo,
            enter_normal: -axis,
            exit: t_hi,
            exit_normal: axis,
        }
    } else {
        Chord {
            enter: t_hi,
            enter_normal: axis,
            exit: t_lo,
            exit_normal: -axis,
        }
    })
}

/// The chord of the line `o + t·d` through the box `b` (its three slabs);
/// `None` when it misses.
pub(crate) fn aabb_chord<R: Real>(b: &Aabb<R>, o: Vec3<R>, d: Vec3<R>) -> Option<Chord<R>> {
    let x = slab(o.x, d.x, b.min.x, b.max.x, Vec3::X)?;
    let y = slab(o.y, d.y, b.min.y, b.max.y, Vec3::Y)?;
    let z = slab(o.z, d.z, b.min.z, b.max.z, Vec3::Z)?;
    x.and(y)?.and(z)
}

/// The answer for a solid ray that starts inside: `toi` 0 at its origin,
/// no normal.
pub(crate) fn inside<R: Real>(ray: &Ray<R>) -> RayCast<R> {
    RayCast {
        toi: R::ZERO,
        point: ray.origin,
        normal: Vec3::ZERO,
        iterations: 0,
        status: RayStatus::Inside,
    }
}

/// The answer for `ray` (world frame) from the chord of its line through
/// the shape at `pose` (shape frame): the entry at `t >= 0` when the ray
/// starts outside, [`RayStatus::Inside`] when it starts inside and
/// `solid`, else the exit; a miss past `max_toi`.
pub(crate) fn to_cast<R: Real>(
    chord: Option<Chord<R>>,
    pose: &Iso3<R>,
    ray: &Ray<R>,
    max_toi: R,
    solid: bool,
) -> RayCast<R> {
    let Some(c) = chord else {
        return RayCast::miss();
    };
    if !(c.exit >= R::ZERO) {
        return RayCast::miss();
    }
    let (toi, normal) = if c.enter <= R::ZERO {
        if solid {
            return inside(ray);
        }
        (c.exit, c.exit_normal)
    } else {
        (c.enter, c.enter_normal)
    };
    // An unbounded shape (a half-space) never lets a ray out.
    if !(toi <= max_toi && toi.finite()) {
        return RayCast::miss();
    }
    RayCast {
        toi,
        point: ray.at(toi),
        normal: pose.rotation * normal,
        iterations: 0,
        status: RayStatus::Hit,
    }
}
