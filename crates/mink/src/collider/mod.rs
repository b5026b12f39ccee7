//! What a scene's geometry can be, convex or not, and the narrow phase of
//! one pair of them: [`collide`] emits the pair's contacts, convex pairs
//! through [`contact_manifold`], the others through
//! their own routines (a height field: [`height_field`]; a triangle mesh
//! with its signed distance field: [`mesh`]; a convex shape carrying the
//! field of its own surface, driven deep into another: [`deep`]).

mod contact_set;
pub mod deep;
pub mod height_field;
pub mod mesh;

pub use contact_set::CONTACT_CANDIDATES;
pub use deep::DEEP_FALLBACK_FRACTION;
pub use height_field::HEIGHT_FIELD_TOLERANCE;
pub use mesh::MESH_MERGE_FRACTION;

use crate::contact::{contact_manifold, contact_manifold_cached, ContactParams, ContactPoint};
use crate::query::{height_field_project_point, mesh_project_point, Body, PointProjection};
use crate::ray::{height_field_ray_cast, mesh_ray_cast, Ray, RayCast};
use crate::shape::{NoCustomShape, Shape};
use mink_gjk::GjkCache;
use mink_sdf::SdfBody;
use mink_support::{Aabb, HeightField, Iso3, Real, Support, Vec3};

/// A geometry's shape in a scene: a convex [`Shape`] (or a half-space), or
/// a non-convex one with its own contact routine.
#[derive(Clone, Copy, Debug)]
pub enum Collider<'a, R: Real, U = NoCustomShape> {
    /// A convex shape or a half-space, answered through the pair table.
    Convex(Shape<'a, R, U>),
    /// A convex shape with the signed distance field of its own surface
    /// (its closed mesh, e.g. [`TriMesh::from_hull`](mink_sdf::TriMesh::from_hull)
    /// or [`TriMesh::from_cuboid`](mink_sdf::TriMesh::from_cuboid), in the
    /// shape's frame): contacts as [`Collider::Convex`], plus the
    /// deep-penetration fallback ([`deep`]) when the other geometry
    /// carries a field too, and mesh–mesh contacts against a
    /// [`Collider::Mesh`]. The mesh must be the shape's surface; a mesh of
    /// something else gives contacts of that something else.
    ConvexWithField(Shape<'a, R, U>, SdfBody<'a, R>),
    /// A height-field terrain (borrowing its heights, lifetime `'a`):
    /// against a convex shape, contacts per supporting cell
    /// ([`height_field`] module docs); against a mesh, [`mesh`]'s vertex
    /// passes; against a half-space or another height field, no contacts
    /// (both are unbounded or non-convex solids with no pair routine; a
    /// terrain is static scenery).
    HeightField(HeightField<'a, R>),
    /// A closed triangle mesh, convex or not, with its signed distance
    /// field (both borrowed, mesh frame): contacts per [`mesh`] module
    /// docs against every other collider.
    Mesh(SdfBody<'a, R>),
}

impl<'a, R: Real, U: Support<R>> Collider<'a, R, U> {
    /// The world AABB of the collider at `pose` (shape frame to world),
    /// meters; a half-space spans `-R::MAX..R::MAX`, a height field gives
    /// the box around its rotated local box
    /// ([`HeightField::local_aabb`]), a mesh the box around its rotated
    /// vertex box (one pass over the vertices; [`Aabb::EMPTY`] for a mesh
    /// without vertices), a convex shape with a field its shape's box.
    pub fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        match self {
            Collider::Convex(shape) | Collider::ConvexWithField(shape, _) => shape.world_aabb(pose),
            Collider::HeightField(field) => field.local_aabb().transformed(pose),
            Collider::Mesh(body) => mesh::world_aabb(body, pose),
        }
    }

    /// Casts `ray` (world frame) against the collider at `pose` (shape
    /// frame to world): the first `t` in `[0, max_toi]` at which the ray
    /// meets it, the point and the unit outward normal there, world frame.
    /// A convex shape answers as [`ray_cast`](crate::ray_cast) (no
    /// margin), a height field as
    /// [`height_field_ray_cast`], a
    /// mesh as [`mesh_ray_cast`]; `solid` and
    /// bad input as there.
    pub fn ray_cast(&self, pose: &Iso3<R>, ray: &Ray<R>, max_toi: R, solid: bool) -> RayCast<R> {
        match self {
            Collider::Convex(shape) | Collider::ConvexWithField(shape, _) => {
                crate::ray::ray_cast(&Body::new(shape, *pose), ray, max_toi, solid)
            }
            Collider::HeightField(field) => height_field_ray_cast(field, pose, ray, max_toi, solid),
            Collider::Mesh(body) => mesh_ray_cast(&body.mesh, pose, ray, max_toi, solid),
        }
    }

    /// Projects the world point `point` on the collider at `pose` (shape
    /// frame to world): its signed distance from the surface (negative
    /// inside), the nearest surface point and the unit outward normal
    /// there, world frame. A convex shape answers as
    /// [`project_point`](crate::project_point) (no margin), a height field
    /// as [`height_field_project_point`], a mesh as
    /// [`mesh_project_point`]; bad input as there.
    pub fn project_point(&self, pose: &Iso3<R>, point: Vec3<R>) -> PointProjection<R> {
        match self {
            Collider::Convex(shape) | Collider::ConvexWithField(shape, _) => {
                crate::query::project_point(&Body::new(shape, *pose), point)
            }
            Collider::HeightField(field) => height_field_project_point(field, pose, point),
            Collider::Mesh(body) => mesh_project_point(&body.mesh, pose, point),
        }
    }
}

impl<'a, R: Real, U> From<SdfBody<'a, R>> for Collider<'a, R, U> {
    fn from(body: SdfBody<'a, R>) -> Self {
        Collider::Mesh(body)
    }
}

impl<'a, R: Real, U> From<HeightField<'a, R>> for Collider<'a, R, U> {
    fn from(field: HeightField<'a, R>) -> Self {
        Collider::HeightField(field)
    }
}

impl<'a, R: Real, U> From<Shape<'a, R, U>> for Collider<'a, R, U> {
    fn from(shape: Shape<'a, R, U>) -> Self {
        Collider::Convex(shape)
    }
}

/// The contacts of `a` at `pose_a` and `b` at `pose_b` (shape frames to
/// world), passed to `emit` in the conventions of
/// [`contact`](crate::contact): world frame, normal from A to B, depth
/// positive when overlapping, speculative within `params.margin`. At most
/// `max_points` are emitted; returns how many were. Either order works for
/// a height field or a mesh and any other collider (the normal still
/// points from A to B; the mirrored order emits the same contacts with
/// the normals negated, except for two meshes, whose samples are then
/// taken in another order and the reduction may keep other points); a
/// height field against a half-space or a height field gives none. Two [`Collider::ConvexWithField`]s take the
/// deep-penetration fallback ([`deep`]).
pub fn collide<R, U, F>(
    a: &Collider<'_, R, U>,
    pose_a: &Iso3<R>,
    b: &Collider<'_, R, U>,
    pose_b: &Iso3<R>,
    params: &ContactParams<R>,
    max_points: usize,
    emit: F,
) -> usize
where
    R: Real,
    U: Support<R>,
    F: FnMut(ContactPoint<R>),
{
    collide_in(a, pose_a, b, pose_b, params, max_points, None, emit)
}

/// [`collide`] warm-started from `cache`, a GJK cache the caller keeps
/// for this pair (in this order) across frames, as a scene keeps one per
/// candidate pair: convex pairs on the general path converge in fewer GJK
/// iterations after a small motion, to the cold answer within GJK's
/// tolerance ([`contact_manifold_cached`]).
/// The other pairs leave the cache as it is.
#[allow(clippy::too_many_arguments)]
pub fn collide_cached<R, U, F>(
    a: &Collider<'_, R, U>,
    pose_a: &Iso3<R>,
    b: &Collider<'_, R, U>,
    pose_b: &Iso3<R>,
    params: &ContactParams<R>,
    max_points: usize,
    cache: &mut GjkCache<R>,
    emit: F,
) -> usize
where
    R: Real,
    U: Support<R>,
    F: FnMut(ContactPoint<R>),
{
    collide_in(a, pose_a, b, pose_b, params, max_points, Some(cache), emit)
}

/// [`collide`] with an optional warm-start cache: the pair's own routine
/// when [`collide_ordered`] has one for this order, else the routine of
/// the swapped pair with every contact mirrored (the one mirror of the
/// collider pairs).
#[allow(clippy::too_many_arguments)]
#[inline]
fn collide_in<R, U, F>(
    a: &Collider<'_, R, U>,
    pose_a: &Iso3<R>,
    b: &Collider<'_, R, U>,
    pose_b: &Iso3<R>,
    params: &ContactParams<R>,
    max_points: usize,
    cache: Option<&mut GjkCache<R>>,
    mut emit: F,
) -> usize
where
    R: Real,
    U: Support<R>,
    F: FnMut(ContactPoint<R>),
{
    let pair = Ordered { params, max_points };
    if let Some(n) = pair.collide(a, pose_a, b, pose_b, cache, &mut emit) {
        return n;
    }
    let mut mirrored = |p: ContactPoint<R>| emit(p.mirrored());
    pair.collide(b, pose_b, a, pose_a, None, &mut mirrored)
        .unwrap_or(0)
}

/// The routines of the collider pairs, each written for one order.
struct Ordered<'p, R> {
    params: &'p ContactParams<R>,
    max_points: usize,
}

impl<R: Real> Ordered<'_, R> {
    /// The contacts of `a` and `b` when the pair has a routine in this
    /// order (`Some(count)`), `None` when only the swapped order has one.
    #[allow(clippy::too_many_arguments)]
    fn collide<U, F>(
        &self,
        a: &Collider<'_, R, U>,
        pose_a: &Iso3<R>,
        b: &Collider<'_, R, U>,
        pose_b: &Iso3<R>,
        cache: Option<&mut GjkCache<R>>,
        emit: &mut F,
    ) -> Option<usize>
    where
        U: Support<R>,
        F: FnMut(ContactPoint<R>),
    {
        use Collider::{Convex, ConvexWithField, HeightField, Mesh};
        let (params, max_points) = (self.params, self.max_points);
        let n = match (a, b) {
            (ConvexWithField(sa, fa), ConvexWithField(sb, fb)) => {
                let manifold = deep::manifold(sa, fa, pose_a, sb, fb, pose_b, params);
                emit_manifold(manifold.as_slice(), max_points, emit)
            }
            (Convex(sa) | ConvexWithField(sa, _), Convex(sb) | ConvexWithField(sb, _)) => {
                let (ba, bb) = (Body::new(sa, *pose_a), Body::new(sb, *pose_b));
                let manifold = match cache {
                    Some(cache) => contact_manifold_cached(&ba, &bb, params, cache),
                    None => contact_manifold(&ba, &bb, params),
                };
                emit_manifold(manifold.as_slice(), max_points, emit)
            }
            (HeightField(field), Convex(shape) | ConvexWithField(shape, _)) => {
                height_field::collide_convex(field, pose_a, shape, pose_b, params, max_points, emit)
            }
            (HeightField(_), HeightField(_)) => 0,
            (Mesh(ma), Mesh(mb)) => {
                mesh::mesh_mesh(ma, pose_a, mb, pose_b, params, max_points, emit)
            }
            (Mesh(m), ConvexWithField(shape, field)) if mesh::closed(shape) => {
                mesh::mesh_mesh(m, pose_a, field, pose_b, params, max_points, emit)
            }
            (Mesh(m), Convex(shape) | ConvexWithField(shape, _)) => {
                mesh::mesh_convex(m, pose_a, shape, pose_b, params, max_points, emit)
            }
            (HeightField(field), Mesh(m)) => {
                mesh::mesh_height_field(m, pose_b, field, pose_a, params, max_points, emit)
            }
            (Convex(_) | ConvexWithField(..), HeightField(_) | Mesh(_))
            | (Mesh(_), HeightField(_)) => return None,
        };
        Some(n)
    }
}

/// Emits the first `max_points` of `points`; returns how many.
fn emit_manifold<R: Real, F: FnMut(ContactPoint<R>)>(
    points: &[ContactPoint<R>],
    max_points: usize,
    emit: &mut F,
) -> usize {
    let n = points.len().min(max_points);
    for p in &points[..n] {
        emit(*p);
    }
    n
}
