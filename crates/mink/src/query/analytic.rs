//! Closed forms for the pairs whose answer needs no iteration: shapes that
//! are a point or a segment swept by a radius (sphere, capsule), and a
//! sphere against a box.

use super::generic::Generic;
use super::{Algorithm, Method, Overlap, Proximity, Status};
use crate::cast::{convex_cast, CastSpec, ShapeCast};
use crate::contact::{convex_manifold, Manifold, Settings};
use crate::pair::{PairRoutine, Side};
use crate::PairVisitor;
use mink_gjk::GjkCache;
use mink_support::{core_normal, Capsule, Cuboid, Iso3, Real, Sphere, Vec3};

/// A shape that is a segment (possibly of zero length) swept by a radius.
pub(crate) trait SweptCore<R: Real> {
    /// `true` when the core is a point (both ends the same).
    const POINT: bool;
    /// The core segment's ends in the world, for the shape at `pose`.
    fn world_core(&self, pose: &Iso3<R>) -> (Vec3<R>, Vec3<R>);
    /// The sweep radius (meters).
    fn radius(&self) -> R;
}

impl<R: Real> SweptCore<R> for Sphere<R> {
    const POINT: bool = true;
    #[inline(always)]
    fn world_core(&self, pose: &Iso3<R>) -> (Vec3<R>, Vec3<R>) {
        (pose.translation, pose.translation)
    }
    #[inline(always)]
    fn radius(&self) -> R {
        Sphere::radius(self)
    }
}

impl<R: Real> SweptCore<R> for Capsule<R> {
    const POINT: bool = false;
    #[inline(always)]
    fn world_core(&self, pose: &Iso3<R>) -> (Vec3<R>, Vec3<R>) {
        let (p, q) = self.segment_ends();
        (pose.transform_point(p), pose.transform_point(q))
    }
    #[inline(always)]
    fn radius(&self) -> R {
        Capsule::radius(self)
    }
}

/// The closest points of two segments, shared with the contact code
/// (`mink-support` owns the routine).
pub(crate) use mink_support::closest_segment_points;

/// The answer for two cores `a` and `b` whose closest points are `ca` (on
/// A) and `cb` (on B), swept by `ra` and `rb` (the normal of
/// [`core_normal`]: the depth of touching cores is `ra + rb`).
#[inline(always)]
fn swept_answer<R: Real>(
    (ca, cb): (Vec3<R>, Vec3<R>),
    a: (Vec3<R>, Vec3<R>),
    b: (Vec3<R>, Vec3<R>),
    ra: R,
    rb: R,
) -> Proximity<R> {
    let normal = core_normal(ca, cb, a, parallel_as_point(a, b));
    let gap = (cb - ca).dot(normal);
    Proximity {
        distance: gap - ra - rb,
        p_a: ca + normal * ra,
        p_b: cb - normal * rb,
        normal,
        iterations: 0,
        algorithm: Algorithm::Analytic,
        status: Status::Exact,
    }
    .checked()
}

/// Core `b` as [`core_normal`] should see it next to core `a`: itself,
/// or, when both have a length and they are parallel within `√ε` (their
/// directions' cross product is rounding: coincident or collinear
/// capsules), its midpoint. `core_normal` takes the cross product of two
/// core directions as the normal of touching cores, and the cross product
/// of parallel directions computed through two poses is round-off pointing
/// anywhere, often off the perpendicular to the axis: along it the depth is
/// not the radii's sum. With `b` a point, the normal of touching cores is
/// perpendicular to `a`, which for parallel cores is the minimal
/// translation (the core difference is a segment along their common
/// direction, and every perpendicular direction has no extent). Apart
/// cores keep the direction of their closest points, which does not
/// depend on `b`'s length.
#[inline(always)]
fn parallel_as_point<R: Real>(a: (Vec3<R>, Vec3<R>), b: (Vec3<R>, Vec3<R>)) -> (Vec3<R>, Vec3<R>) {
    let (d1, d2) = (a.1 - a.0, b.1 - b.0);
    let (l1, l2) = (d1.norm_squared(), d2.norm_squared());
    let parallel = d1.cross(d2).norm_squared() <= R::EPSILON * l1 * l2;
    if l1 > R::ZERO && l2 > R::ZERO && parallel {
        let mid = (b.0 + b.1) * R::HALF;
        (mid, mid)
    } else {
        b
    }
}

/// Sphere–sphere, sphere–capsule and capsule–capsule: the closest points
/// of the core segments, then the radii.
pub(crate) struct SweptCores;

impl SweptCores {
    #[inline(always)]
    fn answer<R: Real, A: SweptCore<R>, B: SweptCore<R>>(
        a: &A,
        sa: &Side<R>,
        b: &B,
        sb: &Side<R>,
    ) -> Proximity<R> {
        let (p0, p1) = a.world_core(&sa.pose);
        let (q0, q1) = b.world_core(&sb.pose);
        let closest = if A::POINT && B::POINT {
            (p0, q0)
        } else {
            closest_segment_points(p0, p1, q0, q1)
        };
        swept_answer(
            closest,
            (p0, p1),
            (q0, q1),
            a.radius() + sa.margin,
            b.radius() + sb.margin,
        )
    }
}

/// The shared shape of the analytic routines: a closed form for the
/// distance and penetration (the same signed answer), `distance <= 0` for
/// the intersection, the generic routine when a method is forced, and the
/// support-set manifold on the closed-form first contact.
macro_rules! analytic_algorithm {
    ($routine:ty, $a:ty, $b:ty, $answer:path) => {
        impl<R: Real> PairRoutine<R, $a, $b> for $routine {
            #[inline]
            fn distance(
                &self,
                a: &$a,
                sa: &Side<R>,
                b: &$b,
                sb: &Side<R>,
                m: Method,
            ) -> Proximity<R> {
                match m {
                    Method::Auto => $answer(a, sa, b, sb),
                    _ => Generic.distance(a, sa, b, sb, m),
                }
            }
            #[inline]
            fn penetration(
                &self,
                a: &$a,
                sa: &Side<R>,
                b: &$b,
                sb: &Side<R>,
                m: Method,
            ) -> Proximity<R> {
                match m {
                    Method::Auto => $answer(a, sa, b, sb),
                    _ => Generic.penetration(a, sa, b, sb, m),
                }
            }
            #[inline]
            fn intersect(&self, a: &$a, sa: &Side<R>, b: &$b, sb: &Side<R>, m: Method) -> Overlap {
                match m {
                    Method::Auto => {
                        let p = $answer(a, sa, b, sb);
                        Overlap {
                            intersecting: p.status.is_answer() && p.distance <= R::ZERO,
                            algorithm: Algorithm::Analytic,
                            status: p.status,
                            iterations: 0,
                        }
                    }
                    _ => Generic.intersect(a, sa, b, sb, m),
                }
            }
            #[inline]
            fn manifold(
                &self,
                a: &$a,
                sa: &Side<R>,
                b: &$b,
                sb: &Side<R>,
                params: &Settings<R>,
                cache: Option<&mut GjkCache<R>>,
            ) -> Manifold<R> {
                convex_manifold(self, a, sa, b, sb, params, cache)
            }
            #[inline]
            fn cast(&self, a: &$a, b: &$b, spec: &CastSpec<R>) -> ShapeCast<R> {
                convex_cast(self, a, b, spec)
            }

            #[inline]
            fn visit<V: PairVisitor<R>>(&self, a: &$a, b: &$b, visitor: V) -> V::Output {
                visitor.convex(a, b)
            }
        }
    };
}

analytic_algorithm!(SweptCores, Sphere<R>, Sphere<R>, SweptCores::answer);
analytic_algorithm!(SweptCores, Sphere<R>, Capsule<R>, SweptCores::answer);
analytic_algorithm!(SweptCores, Capsule<R>, Sphere<R>, SweptCores::answer);
analytic_algorithm!(SweptCores, Capsule<R>, Capsule<R>, SweptCores::answer);
analytic_algorithm!(SphereBox, Sphere<R>, Cuboid<R>, SphereBox::answer);

/// Sphere (A) against a box (B): the sphere's centre in the box frame,
/// clamped to the box when outside, pushed to the nearest face when
/// inside.
pub(crate) struct SphereBox;

impl SphereBox {
    fn answer<R: Real>(
        s: &Sphere<R>,
        sa: &Side<R>,
        cuboid: &Cuboid<R>,
        sb: &Side<R>,
    ) -> Proximity<R> {
        let h = cuboid.half_extents();
        let c = sb.pose.inverse_transform_point(sa.pose.translation);
        let q = c.max(-h).min(h);
        // Outward normal of the box towards the sphere's centre, box frame,
        // and the matching point on the box's core.
        let outside = (c - q).try_normalize().filter(|_| c != q);
        let (n_local, on_box) = match outside {
            Some(n) => (n, q),
            None => {
                // Inside (or on) the box: the face of least depth.
                let depth = h - c.abs();
                let axis = if depth.x <= depth.y && depth.x <= depth.z {
                    0
                } else if depth.y <= depth.z {
                    1
                } else {
                    2
                };
                let sign = if c.get(axis) < R::ZERO {
                    -R::ONE
                } else {
                    R::ONE
                };
                let (n, p) = match axis {
                    0 => (
                        Vec3::new(sign, R::ZERO, R::ZERO),
                        Vec3::new(sign * h.x, c.y, c.z),
                    ),
                    1 => (
                        Vec3::new(R::ZERO, sign, R::ZERO),
                        Vec3::new(c.x, sign * h.y, c.z),
                    ),
                    _ => (
                        Vec3::new(R::ZERO, R::ZERO, sign),
                        Vec3::new(c.x, c.y, sign * h.z),
                    ),
                };
                (n, p)
            }
        };
        let n_box_to_sphere = sb.pose.transform_vector(n_local);
        let on_box = sb.pose.transform_point(on_box);
        let centre = sa.pose.translation;
        // Signed gap between the sphere's centre and the box core along the
        // normal (negative inside), then both inflations.
        let gap = (centre - on_box).dot(n_box_to_sphere);
        let (ra, rb) = (s.radius() + sa.margin, sb.margin);
        let normal = -n_box_to_sphere; // from the sphere (A) to the box (B)
        Proximity {
            distance: gap - ra - rb,
            p_a: centre + normal * ra,
            p_b: on_box - normal * rb,
            normal,
            iterations: 0,
            algorithm: Algorithm::Analytic,
            status: Status::Exact,
        }
        .checked()
    }
}
