//! What a scene's geometry can be, convex or not, and the narrow phase of
//! one pair of them: [`collide`] emits the pair's contacts, convex pairs
//! through [`contact_manifold`], the others through
//! their own routines (a height field: [`height_field`]).

mod contact_set;
pub mod height_field;

pub use contact_set::CONTACT_CANDIDATES;
pub use height_field::HEIGHT_FIELD_TOLERANCE;

use crate::contact::{contact_manifold, ContactParams, ContactPoint};
use crate::query::Body;
use crate::shape::{NoCustomShape, Shape};
use mink_support::{Aabb, HeightField, Iso3, Real, Support};

/// A geometry's shape in a scene: a convex [`Shape`] (or a half-space), or
/// a non-convex one with its own contact routine.
#[derive(Clone, Copy, Debug)]
pub enum Collider<'a, R: Real, U = NoCustomShape> {
    /// A convex shape or a half-space, answered through the pair matrix.
    Convex(Shape<'a, R, U>),
    /// A height-field terrain (borrowing its heights, lifetime `'a`):
    /// against a convex shape, contacts per supporting cell
    /// ([`height_field`] module docs); against a half-space or another
    /// height field, no contacts (both are unbounded or non-convex solids
    /// with no convex pair routine; a terrain is static scenery).
    HeightField(HeightField<'a, R>),
}

impl<'a, R: Real, U: Support<R>> Collider<'a, R, U> {
    /// The world AABB of the collider at `pose` (shape frame to world),
    /// meters; a half-space spans `-R::MAX..R::MAX`, a height field gives
    /// the box around its rotated local box
    /// ([`HeightField::local_aabb`]).
    pub fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
        match self {
            Collider::Convex(shape) => shape.world_aabb(pose),
            Collider::HeightField(field) => field.local_aabb().transformed(pose),
        }
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
/// a height field and a convex shape (the normal still points from A to
/// B); a height field against a half-space or a height field gives none.
pub fn collide<R, U, F>(
    a: &Collider<'_, R, U>,
    pose_a: &Iso3<R>,
    b: &Collider<'_, R, U>,
    pose_b: &Iso3<R>,
    params: &ContactParams<R>,
    max_points: usize,
    mut emit: F,
) -> usize
where
    R: Real,
    U: Support<R>,
    F: FnMut(ContactPoint<R>),
{
    match (a, b) {
        (Collider::Convex(sa), Collider::Convex(sb)) => {
            let manifold =
                contact_manifold(&Body::new(sa, *pose_a), &Body::new(sb, *pose_b), params);
            let n = manifold.len().min(max_points);
            for p in &manifold.as_slice()[..n] {
                emit(*p);
            }
            n
        }
        (Collider::HeightField(field), Collider::Convex(shape)) => height_field::collide_convex(
            field, pose_a, shape, pose_b, params, max_points, false, &mut emit,
        ),
        (Collider::Convex(shape), Collider::HeightField(field)) => height_field::collide_convex(
            field, pose_b, shape, pose_a, params, max_points, true, &mut emit,
        ),
        (Collider::HeightField(_), Collider::HeightField(_)) => 0,
    }
}
