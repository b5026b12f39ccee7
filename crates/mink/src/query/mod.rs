//! Distance, intersection and penetration of two [`Shape`]s: the pair is
//! resolved once through the pair table (`crate::pair`), whose routine for
//! each pair is an analytic special case or the generic one (GJK for
//! distance, MPR or GJK+EPA for penetration).
//!
//! Every result is in the world frame, meters; normals point from A to B;
//! distances are signed (negative when overlapping, minus the depth).

pub(crate) mod analytic;
pub(crate) mod generic;
pub(crate) mod half_space;
mod point;
mod result;

pub use point::{height_field_project_point, mesh_project_point, project_point, PointProjection};
pub use result::{Algorithm, Overlap, Proximity, Status};

/// The closest points of two segments, shared with the contact routines.
pub(crate) use analytic::closest_segment_points;

use crate::pair::table::{self, run_pair};
use crate::pair::Side;
use crate::shape::{NoCustomShape, Shape};
use mink_support::{Iso3, Real, Support};

/// Which algorithm a query runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Method {
    /// The pair's entry in the table: analytic for sphere–sphere,
    /// sphere–capsule, capsule–capsule, sphere–box and half-space pairs;
    /// otherwise GJK for distance, MPR for [`penetration`] (fast on the
    /// shallow overlaps of contacts; an answer it cannot prove minimal,
    /// on deep overlaps and curved surfaces, is checked by GJK+EPA) and
    /// GJK+EPA for the depth of overlapping shapes in [`distance`] (a
    /// signed distance is a precision query; EPA agrees with Coal on every
    /// pair of the query format).
    #[default]
    Auto,
    /// GJK for distance and intersection, GJK+EPA for penetration.
    Gjk,
    /// GJK+EPA: same as [`Method::Gjk`] (EPA only runs for depths).
    Epa,
    /// MPR for intersection and penetration; the gap of separated shapes
    /// still comes from GJK (MPR does not measure gaps).
    Mpr,
}

/// A shape placed in the world, with a swept-sphere margin.
///
/// The margin (meters, finite, `>= 0`) inflates the shape: it adds to the
/// shape's own inflation radius, so it costs one addition per query and
/// keeps the analytic paths exact.
#[derive(Clone, Copy, Debug)]
pub struct Body<'s, 'a, R: Real, U = NoCustomShape> {
    /// The shape, in its local frame.
    pub shape: &'s Shape<'a, R, U>,
    /// Shape frame to world.
    pub pose: Iso3<R>,
    /// Swept-sphere margin, meters.
    pub margin: R,
}

impl<'s, 'a, R: Real, U> Body<'s, 'a, R, U> {
    /// `shape` at `pose` (shape frame to world), without margin.
    pub fn new(shape: &'s Shape<'a, R, U>, pose: Iso3<R>) -> Self {
        Self {
            shape,
            pose,
            margin: R::ZERO,
        }
    }

    /// The same body inflated by `margin` meters (validated by the queries:
    /// a negative or non-finite margin gives [`Status::InvalidInput`]).
    pub fn with_margin(self, margin: R) -> Self {
        Self { margin, ..self }
    }

    /// The body's pose and margin, for the pair routines.
    pub(crate) fn side(&self) -> Side<R> {
        Side {
            pose: self.pose,
            margin: self.margin,
        }
    }
}

/// Signed distance of two bodies, with witnesses and the normal from A to
/// B, world frame (see [`Proximity`]).
///
/// Apart, `distance` is the gap and `p_b - p_a = distance * normal`;
/// overlapping, it is minus the penetration depth, found by the
/// penetration algorithm of `method` ([`Method::Auto`]: the table's).
/// A non-finite pose or a bad margin gives [`Status::InvalidInput`]; never
/// NaN, never a panic.
///
/// ```
/// use mink::query::{distance, Body, Method, Status};
/// use mink::support::{Capsule, Iso3, Sphere, Vec3};
/// use mink::Shape;
///
/// let ball: Shape<f64> = Sphere::new(0.5).unwrap().into();
/// let rod: Shape<f64> = Capsule::new(0.25, 1.0).unwrap().into();
/// let a = Body::new(&ball, Iso3::IDENTITY);
/// let b = Body::new(&rod, Iso3::from_translation(Vec3::new(2.0, 0.0, 0.0)));
/// let d = distance(&a, &b, Method::Auto);
/// assert_eq!(d.status, Status::Exact); // sphere–capsule is analytic
/// assert!((d.distance - 1.25).abs() < 1e-12);
/// assert!((d.normal - Vec3::X).norm() < 1e-12);
/// ```
pub fn distance<R: Real, U: Support<R>>(
    a: &Body<'_, '_, R, U>,
    b: &Body<'_, '_, R, U>,
    method: Method,
) -> Proximity<R> {
    let (sa, sb) = (a.side(), b.side());
    if !sa.valid() || !sb.valid() {
        return Proximity::failed(Status::InvalidInput, Algorithm::Analytic);
    }
    run_pair(a.shape, b.shape, table::DistanceQuery { sa, sb, method })
}

/// Penetration of two bodies: when they overlap, `distance` is minus the
/// depth, `normal` the direction (A to B) to move B by the depth to make
/// them touch, `p_a` A's deepest point inside B and `p_b` B's deepest point
/// inside A (`p_a - p_b = depth * normal`), world frame. When they are
/// apart the result is the gap, as [`distance`] gives it.
///
/// [`Method::Auto`] uses the table (analytic, or MPR), and certifies MPR:
/// an MPR answer that is not proven minimal ([`Status::Unverified`], or
/// [`Status::IterationLimit`] on an overlap; deep overlaps, curved
/// surfaces) is checked by GJK+EPA, whose converged answer replaces it
/// when it is shallower; `iterations` then counts both. So the depth is
/// the penetration depth (the smallest translation that separates the
/// shapes) whenever the status is [`Status::Converged`] or
/// [`Status::Exact`]. [`Method::Mpr`] is MPR alone. A non-finite pose or a
/// bad margin gives [`Status::InvalidInput`].
///
/// ```
/// use mink::query::{penetration, Body, Method, Status};
/// use mink::support::{Cuboid, Iso3, Vec3};
/// use mink::Shape;
///
/// // Two unit cubes, the second pushed 0.9 m into the first along x and
/// // 0.8 m along y: the shallowest way out is 0.2 m along y.
/// let cube: Shape<f64> = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap().into();
/// let a = Body::new(&cube, Iso3::IDENTITY);
/// let b = Body::new(&cube, Iso3::from_translation(Vec3::new(0.1, 0.8, 0.0)));
/// let p = penetration(&a, &b, Method::Auto);
/// assert_eq!(p.status, Status::Converged);
/// assert!((p.distance + 0.2).abs() < 1e-9);
/// assert!((p.normal - Vec3::Y).norm() < 1e-9);
/// ```
pub fn penetration<R: Real, U: Support<R>>(
    a: &Body<'_, '_, R, U>,
    b: &Body<'_, '_, R, U>,
    method: Method,
) -> Proximity<R> {
    let (sa, sb) = (a.side(), b.side());
    if !sa.valid() || !sb.valid() {
        return Proximity::failed(Status::InvalidInput, Algorithm::Analytic);
    }
    let query = table::PenetrationQuery {
        sa,
        sb,
        method,
        certify: true,
    };
    run_pair(a.shape, b.shape, query)
}

/// Whether two bodies overlap or touch (see [`Overlap`]). A non-finite
/// pose or a bad margin gives `intersecting: false` with
/// [`Status::InvalidInput`].
pub fn intersect<R: Real, U: Support<R>>(
    a: &Body<'_, '_, R, U>,
    b: &Body<'_, '_, R, U>,
    method: Method,
) -> Overlap {
    let (sa, sb) = (a.side(), b.side());
    if !sa.valid() || !sb.valid() {
        return Overlap {
            intersecting: false,
            algorithm: Algorithm::Analytic,
            status: Status::InvalidInput,
            iterations: 0,
        };
    }
    run_pair(a.shape, b.shape, table::IntersectQuery { sa, sb, method })
}
