//! The chord of a ray's line through a convex shape: the interval of the
//! line's parameter `t` inside the shape, with the outward normal at each
//! end (shape frame). Every closed-form ray cast computes one; [`to_cast`]
//! turns it into the answer for the ray (`t >= 0`, `max_toi`, solid or
//! not).

use mink_gjk::{Ray, RayCast, RayStatus};
use mink_support::{Aabb, Iso3, Real, Vec3};

/// The shape's outward normal at one end of a chord, in the form that
/// costs nothing until a cast reports that end: a cast reports one end of
/// one chord, and a capsule, say, would otherwise normalize six normals
/// (two per piece) to report one.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Normal<R> {
    /// This unit vector (shape frame).
    Unit(Vec3<R>),
    /// Away from this point: a ball's, about its centre.
    FromCentre(Vec3<R>),
    /// Away from the z axis: a tube's.
    FromAxis,
}

impl<R: Real> Normal<R> {
    /// The unit normal at the line's point `o + t·d` (shape frame). At a
    /// ball's centre or on a tube's axis (a ball or tube of radius 0) it
    /// faces the line: `-d`, or `-d`'s part across the axis.
    #[inline(always)]
    pub fn at(self, o: Vec3<R>, d: Vec3<R>, t: R) -> Vec3<R> {
        match self {
            Normal::Unit(n) => n,
            Normal::FromCentre(c) => ((o - c) + d * t)
                .try_normalize()
                .unwrap_or_else(|| -d.normalize_or(Vec3::X)),
            Normal::FromAxis => Vec3::new(o.x + d.x * t, o.y + d.y * t, R::ZERO)
                .try_normalize()
                .unwrap_or_else(|| Vec3::new(-d.x, -d.y, R::ZERO).normalize_or(Vec3::X)),
        }
    }
}

/// Where a line enters and leaves a convex shape, in units of its
/// direction's length, and the shape's outward normals there (shape
/// frame, resolved by [`Normal::at`] for the end a cast reports).
/// `enter <= exit`; either may be infinite (a half-space).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chord<R> {
    pub enter: R,
    pub enter_normal: Normal<R>,
    pub exit: R,
    pub exit_normal: Normal<R>,
}

impl<R: Real> Chord<R> {
    /// A chord of one point at `t` (a flat shape crossed), the unit normal
    /// `normal` on both sides.
    pub fn point(t: R, normal: Vec3<R>) -> Self {
        Self {
            enter: t,
            enter_normal: Normal::Unit(normal),
            exit: t,
            exit_normal: Normal::Unit(normal),
        }
    }

    /// The chord over the whole line (a line inside an infinite shape),
    /// the unit normal `normal` at both (infinite) ends.
    pub fn whole(normal: Vec3<R>) -> Self {
        Self {
            enter: -R::INFINITY,
            enter_normal: Normal::Unit(normal),
            exit: R::INFINITY,
            exit_normal: Normal::Unit(normal),
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
            enter_normal: Normal::Unit(n),
            exit: R::INFINITY,
            exit_normal: Normal::Unit(n),
        }
    } else {
        Chord {
            enter: -R::INFINITY,
            enter_normal: Normal::Unit(n),
            exit: t,
            exit_normal: Normal::Unit(n),
        }
    })
}

/// The chord of the slab `lo <= o + t·d <= hi` along axis `axis` (0, 1,
/// 2 for x, y, z; `o`, `d` that axis's coordinates of the line), with the
/// outward normals `-axis` at `lo` and `+axis` at `hi`; the whole line
/// when `d` is zero and `o` between the two, `None` when outside.
pub(crate) fn slab<R: Real>(o: R, d: R, lo: R, hi: R, axis: usize) -> Option<Chord<R>> {
    let (near, far) = slab_ends(o, d, lo, hi, axis)?;
    Some(Chord {
        enter: near.0,
        enter_normal: slab_normal(near),
        exit: far.0,
        exit_normal: slab_normal(far),
    })
}

/// The chord of the line `o + t·d` through the box `b` (its three slabs);
/// `None` when it misses. The same as the [`slab`]s' [`Chord::and`], ties
/// going to the earlier axis, without building a chord per slab: the
/// entering and leaving slabs are tracked by axis and side, and only their
/// two normals are made.
pub(crate) fn aabb_chord<R: Real>(b: &Aabb<R>, o: Vec3<R>, d: Vec3<R>) -> Option<Chord<R>> {
    let (mut enter, mut exit) = slab_ends(o.x, d.x, b.min.x, b.max.x, 0)?;
    for (near, far) in [
        slab_ends(o.y, d.y, b.min.y, b.max.y, 1)?,
        slab_ends(o.z, d.z, b.min.z, b.max.z, 2)?,
    ] {
        // A later slab replaces an end it moves strictly inwards.
        if near.0 > enter.0 {
            enter = near;
        }
        if far.0 < exit.0 {
            exit = far;
        }
    }
    if !(enter.0 <= exit.0) {
        return None;
    }
    Some(Chord {
        enter: enter.0,
        enter_normal: slab_normal(enter),
        exit: exit.0,
        exit_normal: slab_normal(exit),
    })
}

/// One end of a slab's chord: `(t, axis, side)`, `side` +1 at the max
/// face and -1 at the min face.
type SlabEnd<R> = (R, usize, R);

/// The outward normal at a slab's end: `side` times the axis.
#[inline(always)]
fn slab_normal<R: Real>((_, axis, side): SlabEnd<R>) -> Normal<R> {
    Normal::Unit(match axis {
        0 => Vec3::new(side, R::ZERO, R::ZERO),
        1 => Vec3::new(R::ZERO, side, R::ZERO),
        _ => Vec3::new(R::ZERO, R::ZERO, side),
    })
}

/// The ends of the chord of the slab `lo <= o + t·d <= hi` along `axis`
/// (the [`slab`]'s, its normals made only for the ends kept): a line along the slab, inside it,
/// spans it all (the +axis normal at infinity, as [`Chord::whole`] has
/// it); `None` when it runs outside.
#[inline(always)]
fn slab_ends<R: Real>(o: R, d: R, lo: R, hi: R, axis: usize) -> Option<(SlabEnd<R>, SlabEnd<R>)> {
    if d == R::ZERO {
        return (o >= lo && o <= hi)
            .then_some(((-R::INFINITY, axis, R::ONE), (R::INFINITY, axis, R::ONE)));
    }
    let (t_lo, t_hi) = ((lo - o) / d, (hi - o) / d);
    Some(if d > R::ZERO {
        ((t_lo, axis, -R::ONE), (t_hi, axis, R::ONE))
    } else {
        ((t_hi, axis, R::ONE), (t_lo, axis, -R::ONE))
    })
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
/// the shape at `pose` (shape frame; `local` is the line in that frame,
/// its origin at the ray's `t = shift`, so the chord's `t` plus `shift`
/// is the ray's): the entry at `t >= 0` when the ray starts outside,
/// [`RayStatus::Inside`] when it starts inside and `solid`, else the exit;
/// a miss past `max_toi`. Inlined into each shape's cast, where the
/// chord's normals are known to be a ball's, a tube's or unit vectors.
#[inline(always)]
pub(crate) fn to_cast<R: Real>(
    chord: Option<Chord<R>>,
    pose: &Iso3<R>,
    ray: &Ray<R>,
    local: &Ray<R>,
    shift: R,
    max_toi: R,
    solid: bool,
) -> RayCast<R> {
    let Some(c) = chord else {
        return RayCast::miss();
    };
    if !(c.exit + shift >= R::ZERO) {
        return RayCast::miss();
    }
    let (at, normal) = if c.enter + shift <= R::ZERO {
        if solid {
            return inside(ray);
        }
        (c.exit, c.exit_normal)
    } else {
        (c.enter, c.enter_normal)
    };
    let toi = at + shift;
    // An unbounded shape (a half-space) never lets a ray out.
    if !(toi <= max_toi && toi.finite()) {
        return RayCast::miss();
    }
    RayCast {
        toi,
        point: ray.at(toi),
        normal: pose.rotation * normal.at(local.origin, local.dir, at),
        iterations: 0,
        status: RayStatus::Hit,
    }
}
