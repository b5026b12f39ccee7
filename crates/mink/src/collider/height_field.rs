//! A convex shape against a height field: contacts per supporting cell,
//! through the cells' prisms, without the prisms' internal walls.
//!
//! The height field is the union of its cells' [`TerrainPrism`]s. Each prism
//! under the convex shape's box is a convex pair with it, answered by
//! [`contact_manifold`]. A prism's own contacts are not all contacts of the
//! union: a shape near a cell border can reach a prism through a vertical
//! wall that is inside the terrain, or through the top edge between two
//! coplanar triangles, and get a sideways or tilted normal although the
//! surface there is flat. Three rules turn prism contacts into terrain
//! contacts:
//!
//! 1. **Supporting plane.** A contact is kept only when the plane through
//!    its terrain-side point `q` with its normal `n` supports the terrain
//!    near `q`: every vertex `v` (top and base) of every prism whose
//!    footprint holds `q`'s xy satisfies `n · (v - q) <= tol`, and `q` lies
//!    on or below those prisms' tops (within `tol`). On the
//!    interior of a top triangle this keeps exactly the triangle's normal;
//!    on an edge or a vertex, exactly the normals between the faces that
//!    meet there when the terrain is convex there (a ridge, a peak), and
//!    none across a flat or concave border, whose neighbouring faces report
//!    the contact themselves. A wall between two cells fails (the
//!    neighbour's vertices lie beyond it); the grid's outer walls and the
//!    base pass, since they are the solid terrain's true faces.
//!    A prism's manifold points share the pair's normal but stand where
//!    the two features overlap seen along it: against the edge between
//!    an outer wall and a steep top, the normal is the edge's and a point
//!    may lie on the wall below the edge, which the rule rejects. When
//!    every point of a prism within the margin but apart is rejected, the
//!    pair's first contact alone (its closest points) is put to the rule
//!    too.
//! 2. **Deep fallback.** When every contact of a prism failed rule 1 and
//!    the centre of the shape's box lies inside that prism, or a rejected
//!    contact overlaps it with the core point of its shape side (the
//!    surface point less the shape's inflation) under the terrain's
//!    surface, both by more than the tolerance (the shape has sunk into
//!    the terrain, and the prism's answer
//!    came out through a wall or the base), the prism
//!    answers instead with the shape's deepest points below the plane of
//!    its top triangle, normal the triangle's, each kept when its terrain
//!    side (on that plane) lies over the triangle's footprint, so on the
//!    triangle; a point whose terrain side lands under a neighbour's
//!    surface (the shape is sunk beneath a valley's crease, which each
//!    face's plane misses), off the grid, or over a lower neighbour while
//!    the shape's deepest point itself lies under this triangle (sunk
//!    under a steep top, whose tilted normal carries the plane point past
//!    the triangle's side) is pushed out to the nearest point of the top
//!    triangle instead, normal the way there when it points out of the
//!    top and up (under a steep top, a way out of the top's plane may
//!    still lead down). A sunk shape is thus pushed up, never sideways or
//!    down through the terrain. Contacts that failed rule 1 but whose
//!    terrain point lies on their prism's top (the shape sunk, or within
//!    the margin above it)
//!    are kept when they are deeper than every surviving contact (none
//!    survived, say): the shape sits in a concave crease or pit
//!    where each face's nearest point to it is the faces' shared edge or
//!    vertex, which is then the terrain's. (Across a flat or convex border
//!    such a contact is never the deepest.) Last, when the shape overlaps
//!    the terrain and still no contact is left (a plate stuck through a
//!    ridge: each prism's shallowest way out is the plate's own face
//!    normal, which supports neither prism), every prism it overlaps
//!    answers by the deep fallback, as if sunk, and if that leaves none
//!    either (a ball sunk through a thin terrain's base, whose deepest
//!    points lie under no prism it overlaps), with every point pushed out
//!    to the prism's top triangle.
//! 3. **Merging and cap.** Neighbouring prisms report a shared point (on a
//!    shared edge or vertex) each: points closer than the merge distance are
//!    one contact, the deeper kept; then at most `max_points` are emitted,
//!    the deepest first and then the most spread (see
//!    [`CONTACT_CANDIDATES`](super::CONTACT_CANDIDATES) for the buffer).
//!
//! The tolerances are [`HEIGHT_FIELD_TOLERANCE`] times the smaller cell
//! side (footprints, supporting plane) or times the smaller of that side
//! and the shape's size (merging).

use super::contact_set::ContactSet;
use crate::contact::{contact_manifold, contact_manifold_with, ContactParams, ContactPoint, Patch};
use crate::query::Body;
use crate::shape::Shape;
use mink_support::{Aabb, HalfSpace, HeightField, Iso3, Real, Support, TerrainPrism, Vec3};

/// The relative tolerance of height-field contacts: how far (as a fraction
/// of the smaller cell side, so 1 mm for 1 m cells) a contact's terrain
/// point may lie outside a triangle's footprint and still belong to it,
/// and how far a vertex near it may lie above its contact plane. Merging
/// uses this fraction of the smaller of the cell side and the shape's size.
/// It absorbs the rounding of the convex pair's answer (f32 included).
pub const HEIGHT_FIELD_TOLERANCE: f64 = 1e-3;

/// The least footprint and supporting-plane slack, in units of
/// `R::EPSILON` times the shape's size plus the margin.
const ROUNDING_ULPS: f64 = 256.0;

/// Sizes the tolerances of one pair are made of (meters).
#[derive(Clone, Copy, Debug)]
struct Tolerances<R> {
    /// Footprint slack and supporting-plane slack.
    length: R,
    /// Merge distance of two contacts.
    merge: R,
}

/// The contacts of `shape` at `pose_shape` against `field` at `pose_field`
/// (shape frames to world), world frame, normals from the field to the
/// shape, passed to `emit`; at
/// most `max_points`, and returns how many. A half-space, a non-finite
/// pose or a bad margin gives none.
#[allow(clippy::too_many_arguments)]
pub(crate) fn collide_convex<R, U, F>(
    field: &HeightField<'_, R>,
    pose_field: &Iso3<R>,
    shape: &Shape<'_, R, U>,
    pose_shape: &Iso3<R>,
    params: &ContactParams<R>,
    max_points: usize,
    emit: &mut F,
) -> usize
where
    R: Real,
    U: Support<R>,
    F: FnMut(ContactPoint<R>),
{
    let margin_ok = params.margin.finite() && params.margin >= R::ZERO;
    let unbounded = matches!(shape, Shape::HalfSpace(_));
    if max_points == 0 || unbounded || !margin_ok {
        return 0;
    }
    if !pose_field.is_finite() || !pose_shape.is_finite() {
        return 0;
    }
    let bounds = shape.world_aabb(pose_shape);
    let local = bounds
        .inflated(params.margin)
        .transformed(&pose_field.inverse());
    let (columns, rows) = field.cell_range(&local);
    let cell = field.dx().min_of(field.dy());
    let size = (bounds.max - bounds.min).max_element();
    let fraction = R::lit(HEIGHT_FIELD_TOLERANCE);
    // The footprint and supporting-plane slack never below the round-off
    // of the pair's answer, whose points carry that of the shape's size
    // and margin (in f32, a 2 m cone on a 1 cm terrain).
    let rounding = R::lit(ROUNDING_ULPS) * R::EPSILON * (size + params.margin);
    let tol = Tolerances {
        length: (cell * fraction).max_of(rounding),
        merge: cell.min_of(size) * fraction,
    };
    let mut set = ContactSet::new(tol.merge);
    let mut spare = ContactSet::new(tol.merge);
    let body = Body::new(shape, *pose_shape);
    let centre = pose_field.inverse_transform_point(bounds.center());
    // The prisms near the shape: those whose highest point is not below
    // the shape's box (margin included).
    let near_prisms = |visit: &mut dyn FnMut(&TerrainPrism<R>)| {
        for j in rows.clone() {
            for i in columns.clone() {
                for prism in field.cell_prisms(i, j).into_iter().flatten() {
                    let top = prism.top();
                    if top[0].z.max_of(top[1].z).max_of(top[2].z) >= local.min.z {
                        visit(&prism);
                    }
                }
            }
        }
    };
    let mut unanswered = false;
    near_prisms(&mut |prism| {
        unanswered |= prism_contacts(
            field,
            pose_field,
            prism,
            &body,
            centre,
            params,
            &tol,
            &mut set,
            &mut spare,
            Pass::First,
        );
    });
    // Rule 2, last part: over a concave crease or pit (the shape sunk into
    // it or within the margin above it), each face's nearest point to the
    // shape is an edge or vertex the faces share, and each such contact
    // fails rule 1 (the neighbouring faces rise above its plane). Those
    // contacts are the terrain's when none survived, or when they are
    // deeper than every one that did (the shared vertex is nearer the
    // shape than the faces' own nearest points).
    let deepest = set
        .as_slice()
        .iter()
        .fold(-R::INFINITY, |d, c| d.max_of(c.depth));
    let above = deepest + R::EPSILON.sqrt() * cell;
    for c in spare.as_slice() {
        if c.depth > above {
            set.insert(*c);
        }
    }
    // Rule 2, for an overlap nothing answered: the shape overlaps prisms
    // whose every contact failed rule 1, and no contact is left (a plate
    // stuck through a ridge, whose shallowest way out of each prism is its
    // own face normal and which no prism counts sunk; a ball sunk through
    // a thin terrain's base, whose deepest points below the tops lie under
    // no prism it overlaps). Those prisms answer by the deep fallback, as
    // if sunk, and then, if still nothing, with every plane point pushed
    // out to their top triangles. Only when nothing else answered: where a
    // neighbour's face does (a ball over a flat border reaching this prism
    // through an inner wall), the fallback's points would be spurious.
    for pass in [Pass::Unanswered, Pass::LastResort] {
        if !unanswered || !set.as_slice().is_empty() {
            break;
        }
        near_prisms(&mut |prism| {
            prism_contacts(
                field, pose_field, prism, &body, centre, params, &tol, &mut set, &mut spare, pass,
            );
        });
    }
    set.emit(max_points, emit)
}

/// Which prisms answer by the deep fallback (rule 2).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Those the shape has sunk into.
    First,
    /// Also those it overlaps with every contact rejected (no contact was
    /// left after the first pass).
    Unanswered,
    /// The same, every plane point pushed out to the top triangle (none
    /// was left after the second).
    LastResort,
}

/// Adds the terrain contacts of one prism to `set` (rules 1 and 2);
/// `centre` is the centre of the shape's box in the field's frame. The
/// rejected contacts whose terrain point lies on the prism's top go to
/// `spare` (kept by the caller when deeper than every surviving one).
/// Returns `true` when the shape overlaps the prism but every contact
/// failed rule 1 (the later passes' prisms, see [`Pass`]).
#[allow(clippy::too_many_arguments)]
fn prism_contacts<R: Real, U: Support<R>>(
    field: &HeightField<'_, R>,
    pose_field: &Iso3<R>,
    prism: &TerrainPrism<R>,
    body: &Body<'_, '_, R, U>,
    centre: Vec3<R>,
    params: &ContactParams<R>,
    tol: &Tolerances<R>,
    set: &mut ContactSet<R>,
    spare: &mut ContactSet<R>,
    pass: Pass,
) -> bool {
    let prism_shape = Shape::TerrainPrism(*prism);
    let prism_body = Body::new(&prism_shape, *pose_field);
    let manifold = contact_manifold(&prism_body, body, params);
    let (mut kept, mut rejected, mut overlaps) = (false, false, false);
    let inside = |p: Vec3<R>| over_footprint(prism, p, R::ZERO) && below_top(prism, p, R::ZERO);
    let mut sunk = inside(centre);
    let inflation = body.shape.inflation() + body.margin;
    let bounds = prism.local_aabb();
    let prism_size = bounds.max.distance(bounds.min);
    for c in manifold.as_slice() {
        let (q, n) = terrain_point(c, pose_field);
        if supports_terrain(field, q, n, tol) {
            set.insert(*c);
            kept = true;
        } else {
            rejected = true;
            overlaps = overlaps || c.depth > R::ZERO;
            let (up, a) = (top_normal(prism), prism.top()[0]);
            let on_top = up.dot(q - a).abs() <= tol.length && over_footprint(prism, q, tol.length);
            if on_top && n.dot(up) > R::ZERO {
                spare.insert(*c);
            }
            // A rejected contact overlapping the prism whose shape side
            // has its core point (the surface point less the inflation)
            // under the terrain's surface: the shape has sunk into the
            // terrain, whatever its box centre does. Both by more than the
            // tolerance: a shape touching a steep face within round-off
            // (a plate leaning on a ridge) is not sunk, and this prism's
            // top plane, extended over the neighbour it leans into, would
            // push it out sideways and down.
            let p = pose_field.inverse_transform_point(c.position - c.normal * (c.depth * R::HALF));
            let core = p + n * inflation;
            let under = surface_height(field, core, tol).is_some_and(|h| core.z < h - tol.length);
            // Or an overlap deeper than the prism is wide: the shape has
            // swallowed the prism (a shape a hundred times a cell's size),
            // and its core point is far off the grid.
            sunk = sunk || (c.depth > tol.length && under) || c.depth > prism_size;
        }
    }
    // The manifold's points share the first contact's normal but stand
    // where the two features overlap seen along it, not where that normal
    // supports the prism: against the edge between the grid's outer wall
    // and a steep top, the normal is the edge's and the points lie on the
    // wall below the edge, so rule 1 rejects them all although the pair's
    // closest points (on the edge) are a contact of the terrain. When a
    // pair within the margin but apart had every point rejected, its
    // first contact alone is tried too. (An overlap whose points all
    // failed is the fallbacks' below.)
    if rejected && !kept && !overlaps {
        let single = contact_manifold_with(&prism_body, body, params, Patch::Single);
        for c in single.as_slice() {
            let (q, n) = terrain_point(c, pose_field);
            if supports_terrain(field, q, n, tol) {
                set.insert(*c);
                kept = true;
            }
        }
    }
    let unanswered = rejected && !kept && overlaps;
    let fallback = match pass {
        Pass::First => rejected && !kept && sunk,
        Pass::Unanswered | Pass::LastResort => rejected && !kept && (sunk || overlaps),
    };
    if fallback {
        deep_fallback(
            field,
            pose_field,
            prism,
            body,
            params,
            tol,
            set,
            pass == Pass::LastResort,
        );
    }
    unanswered
}

/// The terrain's side of the prism contact `c` (its point on the
/// prism) and its normal, in the field's frame.
fn terrain_point<R: Real>(c: &ContactPoint<R>, pose_field: &Iso3<R>) -> (Vec3<R>, Vec3<R>) {
    let q = pose_field.inverse_transform_point(c.position + c.normal * (c.depth * R::HALF));
    (q, pose_field.inverse_transform_vector(c.normal))
}

/// Rule 1: does the plane through `q` with normal `n` (field frame)
/// support every prism whose footprint holds `q`'s xy, with `q` on or
/// below their tops?
fn supports_terrain<R: Real>(
    field: &HeightField<'_, R>,
    q: Vec3<R>,
    n: Vec3<R>,
    tol: &Tolerances<R>,
) -> bool {
    let (columns, rows) = column_cells(field, q, tol.length);
    let mut any = false;
    for j in rows {
        for i in columns.clone() {
            let Some(prisms) = field.cell_prisms(i, j) else {
                continue;
            };
            for prism in prisms {
                if !over_footprint(&prism, q, tol.length) {
                    continue;
                }
                any = true;
                // The terrain's point must lie on the terrain, not above it.
                let above_top = !below_top(&prism, q, -tol.length);
                if above_top {
                    return false;
                }
                for v in prism.vertices() {
                    let above = n.dot(v - q) > tol.length;
                    if above {
                        return false;
                    }
                }
            }
        }
    }
    any
}

/// The cell columns and rows of `field` whose footprint is within `slack`
/// (horizontally, in the field's frame) of the vertical line through `q`.
fn column_cells<R: Real>(
    field: &HeightField<'_, R>,
    q: Vec3<R>,
    slack: R,
) -> (core::ops::Range<usize>, core::ops::Range<usize>) {
    let pad = Vec3::new(slack, slack, R::ZERO);
    let probe = Aabb::new(
        Vec3::new(q.x, q.y, field.base()) - pad,
        Vec3::new(q.x, q.y, field.max_height()) + pad,
    );
    field.cell_range(&probe)
}

/// `true` when `p`'s xy lies in the prism's triangular footprint or within
/// `slack` meters of it.
pub(crate) fn over_footprint<R: Real>(prism: &TerrainPrism<R>, p: Vec3<R>, slack: R) -> bool {
    let t = prism.top();
    // Counter-clockwise from above: inside is left of every edge.
    (0..3).all(|k| {
        let (a, b) = (t[k], t[(k + 1) % 3]);
        let (ex, ey) = (b.x - a.x, b.y - a.y);
        let cross = ex * (p.y - a.y) - ey * (p.x - a.x);
        cross >= -slack * (ex * ex + ey * ey).sqrt()
    })
}

/// The unit upward normal of the prism's top triangle (field frame).
pub(crate) fn top_normal<R: Real>(prism: &TerrainPrism<R>) -> Vec3<R> {
    let [a, b, c] = prism.top();
    (b - a).cross(c - a).normalize_or(Vec3::Z)
}

/// `true` when `q` lies more than `slack` below the plane of the prism's
/// top triangle.
fn below_top<R: Real>(prism: &TerrainPrism<R>, q: Vec3<R>, slack: R) -> bool {
    top_normal(prism).dot(q - prism.top()[0]) < -slack
}

/// Rule 2: the shape's deepest points below the plane of the prism's top,
/// each with the triangle's normal when its terrain side (on that plane)
/// lies over the prism's footprint; otherwise, when that side lands under
/// a neighbour's surface (sunk beneath a valley's crease), or always with
/// `push_every_point`, pushed out to the nearest point of the top
/// triangle, its normal the way there (kept when it leads out of the top
/// and up).
#[allow(clippy::too_many_arguments)]
fn deep_fallback<R: Real, U: Support<R>>(
    field: &HeightField<'_, R>,
    pose_field: &Iso3<R>,
    prism: &TerrainPrism<R>,
    body: &Body<'_, '_, R, U>,
    params: &ContactParams<R>,
    tol: &Tolerances<R>,
    set: &mut ContactSet<R>,
    push_every_point: bool,
) {
    let n = top_normal(prism);
    let Ok(plane) = HalfSpace::new(n, n.dot(prism.top()[0])) else {
        return;
    };
    let plane_shape = Shape::HalfSpace(plane);
    let manifold = contact_manifold(&Body::new(&plane_shape, *pose_field), body, params);
    for c in manifold.as_slice() {
        // The terrain's side of the contact, in the field's frame: on the
        // plane of the top, so on the top triangle when over its footprint
        // (the shape's side lies along the tilted normal, maybe over another).
        let q = pose_field.inverse_transform_point(c.position + c.normal * (c.depth * R::HALF));
        if over_footprint(prism, q, tol.length) {
            set.insert(*c);
            continue;
        }
        // Over a neighbour whose surface there is not above the plane (a
        // flat or ridged border), the neighbour reports the point itself;
        // off the grid (a shape sunk near the edge of a steep cell, whose
        // deepest point the tilted normal carries past the grid's side)
        // no other prism does.
        let beneath = surface_height(field, q, tol).is_none_or(|h| h > q.z + tol.length);
        // The shape's deepest point under this triangle itself: sunk here
        // (the steep top's normal carried its plane point over a lower
        // neighbour, which the shape does not reach), so pushed out here.
        let p = pose_field.inverse_transform_point(c.position - c.normal * (c.depth * R::HALF));
        let sunk_here = over_footprint(prism, p, tol.length);
        if !(c.depth > R::ZERO && (beneath || sunk_here || push_every_point)) {
            continue;
        }
        let edge = nearest_on_edges(prism.top(), q);
        let out = edge - p;
        let depth = out.norm();
        let Some(dir) = out.try_normalize() else {
            continue;
        };
        if dir.dot(n) > R::ZERO && dir.z > R::ZERO {
            set.insert(ContactPoint {
                position: pose_field.transform_point((p + edge) * R::HALF),
                normal: pose_field.transform_vector(dir),
                depth,
            });
        }
    }
}

/// The terrain's height at `q`'s xy (field frame): the highest top of the
/// prisms whose footprint holds it (within `tol.length`); `None` off the
/// grid.
fn surface_height<R: Real>(
    field: &HeightField<'_, R>,
    q: Vec3<R>,
    tol: &Tolerances<R>,
) -> Option<R> {
    let (columns, rows) = column_cells(field, q, tol.length);
    let mut top: Option<R> = None;
    for j in rows {
        for i in columns.clone() {
            let Some(prisms) = field.cell_prisms(i, j) else {
                continue;
            };
            for prism in prisms {
                if !over_footprint(&prism, q, tol.length) {
                    continue;
                }
                let (n, a) = (top_normal(&prism), prism.top()[0]);
                let h = a.z - (n.x * (q.x - a.x) + n.y * (q.y - a.y)) / n.z;
                top = Some(top.map_or(h, |t| t.max_of(h)));
            }
        }
    }
    top
}

/// The point of the triangle `t`'s edges nearest to `q` (the nearest point
/// of the triangle to a point of its plane outside it).
fn nearest_on_edges<R: Real>(t: [Vec3<R>; 3], q: Vec3<R>) -> Vec3<R> {
    let mut best = t[0];
    let mut gap = R::INFINITY;
    for k in 0..3 {
        let (a, b) = (t[k], t[(k + 1) % 3]);
        let e = b - a;
        let len2 = e.norm_squared();
        let s = if len2 > R::ZERO {
            ((q - a).dot(e) / len2).max_of(R::ZERO).min_of(R::ONE)
        } else {
            R::ZERO
        };
        let x = a + e * s;
        let d = (x - q).norm_squared();
        if d < gap {
            gap = d;
            best = x;
        }
    }
    best
}
