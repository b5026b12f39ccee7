//! The ray table: which routine casts rays against each shape variant,
//! and the one `match` that resolves a shape to it, generated from the
//! shape list (`shape_list!`).

use super::capsule::capsule_chord;
use super::chord::{to_cast, Chord};
use super::cone::cone_chord;
use super::cuboid::box_chord;
use super::cylinder::cylinder_chord;
use super::ellipsoid::ellipsoid_chord;
use super::half_space::half_space_chord;
use super::sphere::ball_chord;
use super::terrain_prism::prism_chord;
use super::triangle::triangle_chord;
use crate::pair::Side;
use crate::shape::Shape;
use mink_gjk::{Ray, RayCast};
use mink_support::{
    Capsule, Cone, Cuboid, Cylinder, Ellipsoid, HalfSpace, Real, Rounded, Sphere, Support,
    TerrainPrism, Triangle, Vec3,
};

/// What a ray cast asks, besides the shape and its side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RayQuery<R> {
    /// The ray, world frame.
    pub ray: Ray<R>,
    /// The largest `t` that counts.
    pub max_toi: R,
    /// Whether a ray starting inside hits at once.
    pub solid: bool,
}

/// How one shape type answers a ray cast (side valid, ray valid).
pub(crate) trait RayRoutine<R: Real, S> {
    /// The cast of `q` against `s` at `side`.
    fn cast(&self, s: &S, side: &Side<R>, q: &RayQuery<R>) -> RayCast<R>;
}

/// GJK's ray cast, on the shape swept by the body's margin: every convex
/// shape.
pub(crate) struct GjkRay;

impl<R: Real, S: Support<R>> RayRoutine<R, S> for GjkRay {
    fn cast(&self, s: &S, side: &Side<R>, q: &RayQuery<R>) -> RayCast<R> {
        match Rounded::new(s, side.margin) {
            Ok(rounded) => mink_gjk::ray_cast(&rounded, &side.pose, &q.ray, q.max_toi, q.solid),
            Err(_) => RayCast::non_finite(),
        }
    }
}

/// A shape with a closed-form chord: the interval of the ray's line
/// inside it, in its own frame. `None` when the closed form does not cover
/// the body's margin (GJK's cast answers then).
pub(crate) trait ClosedChord<R: Real> {
    /// The chord of the line `o + t·d` (shape frame) through the shape
    /// swept by `margin`: `Some(None)` when the line misses.
    fn chord(&self, margin: R, o: Vec3<R>, d: Vec3<R>) -> Option<Option<Chord<R>>>;
}

/// A closed form ([`ClosedChord`]), with GJK's cast for the margins it
/// does not cover.
pub(crate) struct ChordRay;

impl<R: Real, S: Support<R> + ClosedChord<R>> RayRoutine<R, S> for ChordRay {
    fn cast(&self, s: &S, side: &Side<R>, q: &RayQuery<R>) -> RayCast<R> {
        let local = q.ray.to_local(&side.pose);
        // Solved from the line's point nearest the shape's centre: the
        // quadrics' coefficients from a far origin cancel to round-off (in
        // f32, a flat cone 730 m away was hit 4.5 m off its cap).
        let (o, d) = (local.origin, local.dir);
        let shift = -o.dot(d) / d.dot(d);
        let near = Ray::new(o + d * shift, d);
        match s.chord(side.margin, near.origin, near.dir) {
            Some(chord) => to_cast(chord, &side.pose, &q.ray, &near, shift, q.max_toi, q.solid),
            None => GjkRay.cast(s, side, q),
        }
    }
}

/// `Some(chord)` for a shape without margin, `None` (GJK's cast) with one.
fn without_margin<R: Real>(
    margin: R,
    chord: impl FnOnce() -> Option<Chord<R>>,
) -> Option<Option<Chord<R>>> {
    (margin == R::ZERO).then(chord)
}

impl<R: Real> ClosedChord<R> for Sphere<R> {
    fn chord(&self, m: R, o: Vec3<R>, d: Vec3<R>) -> Option<Option<Chord<R>>> {
        Some(ball_chord(o, d, Vec3::ZERO, self.radius() + m))
    }
}

impl<R: Real> ClosedChord<R> for Cuboid<R> {
    fn chord(&self, m: R, o: Vec3<R>, d: Vec3<R>) -> Option<Option<Chord<R>>> {
        without_margin(m, || box_chord(o, d, self.half_extents()))
    }
}

impl<R: Real> ClosedChord<R> for Capsule<R> {
    fn chord(&self, m: R, o: Vec3<R>, d: Vec3<R>) -> Option<Option<Chord<R>>> {
        Some(capsule_chord(o, d, self.radius() + m, self.half_length()))
    }
}

impl<R: Real> ClosedChord<R> for Cylinder<R> {
    fn chord(&self, m: R, o: Vec3<R>, d: Vec3<R>) -> Option<Option<Chord<R>>> {
        without_margin(m, || {
            cylinder_chord(o, d, self.radius(), self.half_length())
        })
    }
}

impl<R: Real> ClosedChord<R> for Cone<R> {
    fn chord(&self, m: R, o: Vec3<R>, d: Vec3<R>) -> Option<Option<Chord<R>>> {
        without_margin(m, || cone_chord(o, d, self.radius(), self.half_length()))
    }
}

impl<R: Real> ClosedChord<R> for Ellipsoid<R> {
    fn chord(&self, m: R, o: Vec3<R>, d: Vec3<R>) -> Option<Option<Chord<R>>> {
        without_margin(m, || ellipsoid_chord(o, d, self.radii()))
    }
}

impl<R: Real> ClosedChord<R> for Triangle<R> {
    fn chord(&self, m: R, o: Vec3<R>, d: Vec3<R>) -> Option<Option<Chord<R>>> {
        without_margin(m, || triangle_chord(self, o, d))
    }
}

impl<R: Real> ClosedChord<R> for TerrainPrism<R> {
    fn chord(&self, m: R, o: Vec3<R>, d: Vec3<R>) -> Option<Option<Chord<R>>> {
        without_margin(m, || prism_chord(self, o, d))
    }
}

/// A half-space (not [`Support`]): its plane moved out by the margin.
fn half_space<R: Real>(plane: &HalfSpace<R>, side: &Side<R>, q: &RayQuery<R>) -> RayCast<R> {
    let local = q.ray.to_local(&side.pose);
    let chord = half_space_chord(plane, side.margin, local.origin, local.dir);
    to_cast(
        chord,
        &side.pose,
        &q.ray,
        &local,
        R::ZERO,
        q.max_toi,
        q.solid,
    )
}

/// The routine of each variant: the first matching line wins; every
/// variant not listed gets GJK's cast. A closed form is a
/// [`ClosedChord`] of the shape type, in its own file.
macro_rules! ray_routine {
    (Sphere) => {
        ChordRay
    };
    (Cuboid) => {
        ChordRay
    };
    (Capsule) => {
        ChordRay
    };
    (Cylinder) => {
        ChordRay
    };
    (Cone) => {
        ChordRay
    };
    (Ellipsoid) => {
        ChordRay
    };
    (Triangle) => {
        ChordRay
    };
    (TerrainPrism) => {
        ChordRay
    };
    ($v:ident) => {
        GjkRay
    };
}

/// Expands the shape list into [`cast_shape`]: one `match` on the variant,
/// each arm calling the routine `ray_routine!` names.
macro_rules! define_ray_table {
    ($( $(#[$doc:meta])* $variant:ident($ty:ty) = $name:literal, )*) => {
        /// Resolves the shape once and casts `q` with its routine.
        pub(crate) fn cast_shape<R: Real, U: Support<R>>(
            shape: &Shape<'_, R, U>,
            side: &Side<R>,
            q: &RayQuery<R>,
        ) -> RayCast<R> {
            match shape {
                $( Shape::$variant(s) => ray_routine!($variant).cast(s, side, q), )*
                Shape::Custom(s) => GjkRay.cast(s, side, q),
                Shape::HalfSpace(h) => half_space(h, side, q),
            }
        }
    };
}

crate::shape_list!(define_ray_table);
