//! Where a point stands relative to a height field: the terrain is the
//! union of its cells' prisms (down to the field's base), so a point
//! outside is nearest to one of them, and a point inside is nearest to the
//! union's boundary: the top surface, the grid's four outer walls or the
//! base (never a wall between two cells, which is inside the terrain).

use super::{invalid, project_point, PointProjection};
use crate::query::{Body, Status};
use crate::shape::{NoCustomShape, Shape};
use mink_sdf::geometry::closest_on_triangle;
use mink_support::{Aabb, HeightField, Iso3, Real, TerrainPrism, Vec3};

/// Projects the world point `point` on the height field `field` at `pose`
/// (field frame to world), as [`project_point`] does on a convex body: the
/// signed distance from the terrain's surface (negative inside the solid
/// under it), the nearest surface point and the unit outward normal there,
/// world frame.
///
/// Outside, the answer is the nearest cell prism's (GJK from the point,
/// [`Status::Converged`]; a cell is skipped when its box is farther than
/// the best so far). Inside (under a top triangle, above the base), it is
/// the nearest of the top triangles (closed form), the four outer walls
/// below the surface and the base ([`Status::Exact`]); the normal is the
/// direction from the point to its projection, or the surface's own
/// normal for a point on it. A non-finite point or pose gives
/// [`Status::InvalidInput`]; never panics.
pub fn height_field_project_point<R: Real>(
    field: &HeightField<'_, R>,
    pose: &Iso3<R>,
    point: Vec3<R>,
) -> PointProjection<R> {
    if !pose.is_finite() || !point.is_finite() {
        return invalid();
    }
    let p = pose.inverse_transform_point(point);
    let local = if inside(field, p) {
        from_inside(field, p)
    } else {
        from_outside(field, p)
    };
    PointProjection {
        projection: pose.transform_point(local.projection),
        normal: pose.rotation * local.normal,
        ..local
    }
}

/// The cell whose footprint holds `p`'s xy, clamped to the grid.
fn cell_of<R: Real>(field: &HeightField<'_, R>, p: Vec3<R>) -> (usize, usize) {
    let (cx, cy) = field.cell_counts();
    let index = |v: R, first: R, step: R, count: usize| {
        let k = ((v - first) / step).floor();
        if !(k > R::ZERO) {
            0
        } else {
            let k = k.to_f64();
            if k >= (count - 1) as f64 {
                count - 1
            } else {
                k as usize
            }
        }
    };
    (
        index(p.x, field.sample_x(0), field.dx(), cx),
        index(p.y, field.sample_y(0), field.dy(), cy),
    )
}

/// `true` when `p` (field frame) is in the terrain solid: over one of its
/// cell's top triangles, on or under it and on or above the base.
fn inside<R: Real>(field: &HeightField<'_, R>, p: Vec3<R>) -> bool {
    let (i, j) = cell_of(field, p);
    field
        .cell_prisms(i, j)
        .is_some_and(|prisms| prisms.iter().any(|prism| in_prism(prism, p)))
}

/// `true` when `p` lies in `prism`: its xy in the top triangle's
/// footprint (edges included) and its z between the base and the top.
fn in_prism<R: Real>(prism: &TerrainPrism<R>, p: Vec3<R>) -> bool {
    let [a, b, c] = prism.top();
    let cross =
        |u: Vec3<R>, v: Vec3<R>, w: Vec3<R>| (v.x - u.x) * (w.y - u.y) - (v.y - u.y) * (w.x - u.x);
    let area = cross(a, b, c);
    if area == R::ZERO {
        return false;
    }
    let (wa, wb, wc) = (
        cross(b, c, p) / area,
        cross(c, a, p) / area,
        cross(a, b, p) / area,
    );
    if wa < R::ZERO || wb < R::ZERO || wc < R::ZERO {
        return false;
    }
    let top = a.z * wa + b.z * wb + c.z * wc;
    p.z >= prism.base() && p.z <= top
}

/// A cell's box: its footprint, from the base to its highest sample.
fn cell_box<R: Real>(prisms: &[TerrainPrism<R>; 2]) -> Aabb<R> {
    let mut lo = prisms[0].top()[0];
    let mut hi = lo;
    for prism in prisms {
        for v in prism.top() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    lo.z = lo.z.min_of(prisms[0].base());
    Aabb::new(lo, hi)
}

/// Squared distance from `p` to `aabb` (0 inside it).
fn box_distance2<R: Real>(aabb: &Aabb<R>, p: Vec3<R>) -> R {
    let gap = (aabb.min - p).max(p - aabb.max).max(Vec3::ZERO);
    gap.norm_squared()
}

/// The nearest cell prism to a point outside the terrain (field frame):
/// the cell under the point first, then every cell whose box is nearer
/// than the best so far.
fn from_outside<R: Real>(field: &HeightField<'_, R>, p: Vec3<R>) -> PointProjection<R> {
    let (cx, cy) = field.cell_counts();
    let start = cell_of(field, p);
    let mut best: Option<PointProjection<R>> = None;
    let cells = core::iter::once(start).chain((0..cy).flat_map(|j| (0..cx).map(move |i| (i, j))));
    for (n, (i, j)) in cells.enumerate() {
        if n > 0 && (i, j) == start {
            continue;
        }
        let Some(prisms) = field.cell_prisms(i, j) else {
            continue;
        };
        if let Some(b) = best {
            if box_distance2(&cell_box(&prisms), p) >= b.distance * b.distance {
                continue;
            }
        }
        for prism in prisms {
            let shape: Shape<'_, R, NoCustomShape> = Shape::TerrainPrism(prism);
            let answer = project_point(&Body::new(&shape, Iso3::IDENTITY), p);
            if answer.status.is_answer() && best.is_none_or(|b| answer.distance < b.distance) {
                best = Some(answer);
            }
        }
    }
    match best {
        // Outside every prism: the nearest one's projection is on the
        // union's surface, and so is its normal.
        Some(b) => PointProjection {
            distance: b.distance.max_of(R::ZERO),
            inside: b.distance <= R::ZERO,
            ..b
        },
        None => invalid(),
    }
}

/// The nearest point of the terrain's boundary to a point inside it
/// (field frame): a top triangle, an outer wall under the surface, or the
/// base.
fn from_inside<R: Real>(field: &HeightField<'_, R>, p: Vec3<R>) -> PointProjection<R> {
    // The base.
    let mut best_d = p.z - field.base();
    let mut best_q = Vec3::new(p.x, p.y, field.base());
    let mut best_n = -Vec3::Z;
    // The outer walls, where the point is below the surface's edge there.
    let (cx, cy) = field.cell_counts();
    let (x0, x1) = (field.sample_x(0), field.sample_x(cx));
    let (y0, y1) = (field.sample_y(0), field.sample_y(cy));
    let walls = [
        (p.x - x0, Vec3::new(x0, p.y, p.z), -Vec3::X),
        (x1 - p.x, Vec3::new(x1, p.y, p.z), Vec3::X),
        (p.y - y0, Vec3::new(p.x, y0, p.z), -Vec3::Y),
        (y1 - p.y, Vec3::new(p.x, y1, p.z), Vec3::Y),
    ];
    for (d, q, n) in walls {
        if d < best_d && p.z <= edge_height(field, q) {
            (best_d, best_q, best_n) = (d, q, n);
        }
    }
    // The top triangles whose boxes are nearer than the best so far.
    let mut on_top = None;
    for j in 0..cy {
        for i in 0..cx {
            let Some(prisms) = field.cell_prisms(i, j) else {
                continue;
            };
            for prism in prisms {
                let top = prism.top();
                let mut lo = top[0].min(top[1]).min(top[2]);
                let hi = top[0].max(top[1]).max(top[2]);
                lo.z = lo.z.min_of(hi.z);
                if box_distance2(&Aabb::new(lo, hi), p) >= best_d * best_d {
                    continue;
                }
                let (q, _) = closest_on_triangle(p, &top);
                let d = (q - p).norm();
                if d < best_d {
                    best_d = d;
                    best_q = q;
                    on_top = Some(top);
                }
            }
        }
    }
    if let Some([a, b, c]) = on_top {
        best_n = if best_d > R::ZERO {
            (best_q - p) / best_d
        } else {
            (b - a).cross(c - a).normalize_or(Vec3::Z)
        };
    }
    PointProjection {
        distance: -best_d,
        projection: best_q,
        normal: best_n,
        inside: true,
        status: Status::Exact,
    }
}

/// The surface's height over the point `q` of the grid's outline (field
/// frame): along the border, the terrain's edge runs straight between
/// neighbouring samples.
fn edge_height<R: Real>(field: &HeightField<'_, R>, q: Vec3<R>) -> R {
    let (cx, cy) = field.cell_counts();
    let (i, j) = cell_of(field, q);
    let on_x_wall = q.x == field.sample_x(0) || q.x == field.sample_x(cx);
    let h = |i: usize, j: usize| field.height(i, j).unwrap_or(-R::INFINITY);
    if on_x_wall {
        let col = if q.x == field.sample_x(0) { 0 } else { cx };
        let (ya, yb) = (field.sample_y(j), field.sample_y(j + 1));
        let s = ((q.y - ya) / (yb - ya)).max_of(R::ZERO).min_of(R::ONE);
        h(col, j) + (h(col, j + 1) - h(col, j)) * s
    } else {
        let row = if q.y == field.sample_y(0) { 0 } else { cy };
        let (xa, xb) = (field.sample_x(i), field.sample_x(i + 1));
        let s = ((q.x - xa) / (xb - xa)).max_of(R::ZERO).min_of(R::ONE);
        h(i, row) + (h(i + 1, row) - h(i, row)) * s
    }
}
