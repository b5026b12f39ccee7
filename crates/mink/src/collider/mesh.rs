//! A triangle mesh with its signed distance field ([`SdfBody`], from
//! `mink-sdf`) against every other collider.
//!
//! A mesh may be non-convex (a torus, a bowl): its contacts come from the
//! field, never from a support function. Each pair samples points of one
//! side against the other side's surface:
//!
//! - **mesh–mesh** (and a mesh against a [`Collider::ConvexWithField`],
//!   whose field is its own surface's): every vertex and edge of each mesh
//!   against the other's field ([`mesh_mesh_contacts`]);
//! - **mesh–convex**: the convex shape's surface samples (its support
//!   points along [`CONVEX_SAMPLE_DIRECTIONS`](mink_sdf::CONVEX_SAMPLE_DIRECTIONS)
//!   directions: a polytope's vertices) against the mesh's field
//!   ([`mesh_convex_contacts`]), and every mesh vertex inside the convex
//!   shape's box (grown by the margin) against the shape itself, by the
//!   signed distance of a point ([`distance`]): so
//!   a mesh resting on a wide face, where no vertex of the shape is near
//!   the mesh, still gets its contacts;
//! - **mesh–half-space**: every mesh vertex against the plane (the lowest
//!   points of a mesh against a plane are vertices);
//! - **mesh–height field**: every mesh vertex over the terrain against the
//!   top triangle below it, and every terrain sample under the mesh's box
//!   against the mesh's field. A terrain edge crossing a mesh face between
//!   samples, or a mesh edge crossing a terrain ridge between vertices, is
//!   not seen: use samples finer than the features that matter.
//!
//! Conventions as for every collider ([`crate::contact`]): world frame,
//! `position` the midpoint of the two surface points, unit `normal` from A
//! to B, `depth` positive when overlapping and minus the gap for a
//! speculative contact within the margin. `mink-sdf` already merges its
//! samples within [`MERGE_CELL_FRACTION`](mink_sdf::MERGE_CELL_FRACTION)
//! of a cell; the candidates of all passes are merged when closer than
//! [`MESH_MERGE_FRACTION`] of the mesh field's cell (the deeper kept), and
//! at most `max_points` are emitted, the deepest first and then the most
//! spread ([`CONTACT_CANDIDATES`](super::CONTACT_CANDIDATES)).
//! Accuracy is the field's (its cell size; `mink-sdf`'s docs). No
//! allocation; a non-finite pose or a bad margin gives no contact.
//!
//! [`Collider::ConvexWithField`]: super::Collider::ConvexWithField

use super::contact_set::ContactSet;
use super::height_field::{over_footprint, top_normal};
use crate::contact::{ContactParams, ContactPoint};
use crate::query::{distance, Body};
use crate::shape::{Shape, ShapeVisitor};
use mink_sdf::{mesh_convex_contacts, mesh_mesh_contacts, Contact, SdfBody, MAX_MANIFOLD_POINTS};
use mink_support::{Aabb, HalfSpace, HeightField, Iso3, Point, Real, Support, Vec3};

/// The world AABB of the mesh's vertices at `pose` ([`Aabb::EMPTY`] for a
/// mesh without vertices). `O(vertices)`.
pub(crate) fn world_aabb<R: Real>(body: &SdfBody<'_, R>, pose: &Iso3<R>) -> Aabb<R> {
    if body.mesh.vertices().is_empty() {
        return Aabb::EMPTY;
    }
    body.mesh.aabb().transformed(pose)
}

/// `true` unless `shape` is a half-space (which has no closed mesh).
pub(crate) fn closed<R: Real, U>(shape: &Shape<'_, R, U>) -> bool {
    !matches!(shape, Shape::HalfSpace(_))
}

/// `mink-sdf`'s contact as a [`ContactPoint`].
fn point_of<R: Real>(c: &Contact<R>) -> ContactPoint<R> {
    ContactPoint {
        position: (c.point_a + c.point_b) * R::HALF,
        normal: c.normal,
        depth: -c.distance,
    }
}

/// `true` when the poses are finite, the margin finite and `>= 0`, and
/// some point is asked for.
fn usable<R: Real>(poses: [&Iso3<R>; 2], params: &ContactParams<R>, max_points: usize) -> bool {
    max_points > 0
        && params.margin.finite()
        && params.margin >= R::ZERO
        && poses.iter().all(|p| p.is_finite())
}

/// Contacts of a mesh pair closer than this fraction of the mesh field's
/// cell are one (the deeper kept), and the choice of the first point
/// emitted treats depths within it as equal. 1e-2 (0.5 mm for 5 cm
/// cells): it removes the duplicates two passes find at one point
/// (a vertex on a shared edge, a point both sides sample) and keeps a
/// contact deeper by more than that ahead of speculative ones.
pub const MESH_MERGE_FRACTION: f64 = 1e-2;

/// The merge distance of a pair with `body`'s field.
fn merge_distance<R: Real>(body: &SdfBody<'_, R>) -> R {
    body.field.grid().cell * R::lit(MESH_MERGE_FRACTION)
}

/// A blank `mink-sdf` contact buffer.
fn buffer<R: Real>() -> [Contact<R>; MAX_MANIFOLD_POINTS] {
    [Contact {
        point_a: Vec3::ZERO,
        point_b: Vec3::ZERO,
        normal: Vec3::X,
        distance: R::ZERO,
    }; MAX_MANIFOLD_POINTS]
}

/// The contacts of mesh `a` at `pose_a` and mesh `b` at `pose_b`, normals
/// from `a` to `b`, passed to `emit`; at most
/// `max_points`; returns how many.
#[allow(clippy::too_many_arguments)]
pub(crate) fn mesh_mesh<R: Real, F: FnMut(ContactPoint<R>)>(
    a: &SdfBody<'_, R>,
    pose_a: &Iso3<R>,
    b: &SdfBody<'_, R>,
    pose_b: &Iso3<R>,
    params: &ContactParams<R>,
    max_points: usize,
    emit: &mut F,
) -> usize {
    if !usable([pose_a, pose_b], params, max_points) {
        return 0;
    }
    let mut out = buffer();
    let n = mesh_mesh_contacts(a, pose_a, b, pose_b, params.margin, &mut out);
    let merge = merge_distance(a).min_of(merge_distance(b));
    let mut set = ContactSet::new(merge);
    for c in &out[..n] {
        set.insert(point_of(c));
    }
    set.emit(max_points, emit)
}

/// [`mesh_convex_contacts`] on the convex shape's concrete type (a
/// half-space, which has no support function, gives 0): the shape's
/// surface samples against the mesh's field, into `out`; the visit
/// returns how many were written.
struct SampleConvex<'q, 'm, R: Real> {
    mesh: &'q SdfBody<'m, R>,
    pose_m: &'q Iso3<R>,
    pose_s: &'q Iso3<R>,
    margin: R,
    out: &'q mut [Contact<R>],
}

impl<R: Real> ShapeVisitor<R> for SampleConvex<'_, '_, R> {
    type Output = usize;

    fn convex<S: Support<R>>(self, shape: &S) -> usize {
        mesh_convex_contacts(
            self.mesh,
            self.pose_m,
            shape,
            self.pose_s,
            self.margin,
            self.out,
        )
    }

    fn half_space(self, _: &HalfSpace<R>) -> usize {
        0
    }
}

/// The contacts of mesh `mesh` at `pose_m` and convex shape (or
/// half-space) `shape` at `pose_s`, normals from the mesh to the shape,
/// passed to `emit`; at most `max_points`; returns
/// how many.
#[allow(clippy::too_many_arguments)]
pub(crate) fn mesh_convex<R, U, F>(
    mesh: &SdfBody<'_, R>,
    pose_m: &Iso3<R>,
    shape: &Shape<'_, R, U>,
    pose_s: &Iso3<R>,
    params: &ContactParams<R>,
    max_points: usize,
    emit: &mut F,
) -> usize
where
    R: Real,
    U: Support<R>,
    F: FnMut(ContactPoint<R>),
{
    if !usable([pose_m, pose_s], params, max_points) {
        return 0;
    }
    let mut set = ContactSet::new(merge_distance(mesh));
    if let Shape::HalfSpace(plane) = shape {
        // Every vertex below the plane's surface plus the margin.
        let Some(world) = plane.transformed(pose_s) else {
            return 0;
        };
        let n = world.normal();
        for &v in mesh.mesh.vertices() {
            let p = pose_m.transform_point(v);
            let d = world.signed_distance(p);
            if d <= params.margin {
                // The mesh's point `p`, the plane's `p - n d`: the normal
                // from the mesh to the plane is `-n`.
                set.insert(ContactPoint {
                    position: p - n * (d * R::HALF),
                    normal: -n,
                    depth: -d,
                });
            }
        }
        return set.emit(max_points, emit);
    }
    let mut out = buffer();
    let n = shape.visit(SampleConvex {
        mesh,
        pose_m,
        pose_s,
        margin: params.margin,
        out: &mut out,
    });
    for c in &out[..n] {
        set.insert(point_of(c));
    }
    // The mesh's vertices against the shape: the signed distance of a
    // point, normal from the point (the mesh's side) to the shape.
    let reach = shape.world_aabb(pose_s).inflated(params.margin);
    let probe: Shape<'_, R, U> = Shape::Point(Point);
    let body = Body::new(shape, *pose_s);
    for &v in mesh.mesh.vertices() {
        let p = pose_m.transform_point(v);
        if !reach.contains_point(p) {
            continue;
        }
        let d = distance(
            &Body::new(&probe, Iso3::from_translation(p)),
            &body,
            params.method,
        );
        if d.status.is_answer() && d.distance <= params.margin {
            set.insert(ContactPoint {
                position: (d.p_a + d.p_b) * R::HALF,
                normal: d.normal,
                depth: -d.distance,
            });
        }
    }
    set.emit(max_points, emit)
}

/// The contacts of mesh `mesh` at `pose_m` and height field `field` at
/// `pose_f`, normals from the terrain to the mesh,
/// passed to `emit`; at most `max_points`; returns how many.
#[allow(clippy::too_many_arguments)]
pub(crate) fn mesh_height_field<R: Real, F: FnMut(ContactPoint<R>)>(
    mesh: &SdfBody<'_, R>,
    pose_m: &Iso3<R>,
    field: &HeightField<'_, R>,
    pose_f: &Iso3<R>,
    params: &ContactParams<R>,
    max_points: usize,
    emit: &mut F,
) -> usize {
    if !usable([pose_m, pose_f], params, max_points) {
        return 0;
    }
    let margin = params.margin;
    let mut set = ContactSet::new(merge_distance(mesh));
    // Mesh vertices against the top triangle under them (field frame).
    let rel = pose_f.inv_mul(pose_m);
    for &v in mesh.mesh.vertices() {
        let q = rel.transform_point(v);
        if !(q.z >= field.base()) {
            continue;
        }
        let probe = Aabb::new(q - Vec3::new(R::ZERO, R::ZERO, margin), q);
        let (columns, rows) = field.cell_range(&probe);
        let mut found = false;
        for j in rows {
            for i in columns.clone() {
                let Some(prisms) = field.cell_prisms(i, j) else {
                    continue;
                };
                for prism in prisms {
                    if found || !over_footprint(&prism, q, R::ZERO) {
                        continue;
                    }
                    found = true;
                    let n = top_normal(&prism);
                    let d = n.dot(q - prism.top()[0]);
                    if d <= margin {
                        set.insert(ContactPoint {
                            position: pose_f.transform_point(q - n * (d * R::HALF)),
                            normal: pose_f.rotation.mul_vec(n),
                            depth: -d,
                        });
                    }
                }
            }
        }
    }
    // Terrain samples under the mesh's box against the mesh's field.
    let reach = world_aabb(mesh, pose_m)
        .inflated(margin)
        .transformed(&pose_f.inverse());
    let (columns, rows) = field.cell_range(&reach);
    if columns.is_empty() || rows.is_empty() {
        return set.emit(max_points, emit);
    }
    for j in rows.start..=rows.end {
        for i in columns.start..=columns.end {
            let Some(s) = field.sample(i, j) else {
                continue;
            };
            let p = pose_f.transform_point(s);
            let (d, g) = mesh
                .field
                .distance_and_gradient(pose_m.inverse_transform_point(p));
            if !(d <= margin) {
                continue;
            }
            let Some(g) = g.try_normalize() else {
                continue;
            };
            // The mesh's outward normal `g` faces the terrain; its surface
            // point is `p - g d`.
            let g = pose_m.rotation.mul_vec(g);
            set.insert(ContactPoint {
                position: p - g * (d * R::HALF),
                normal: -g,
                depth: -d,
            });
        }
    }
    set.emit(max_points, emit)
}
