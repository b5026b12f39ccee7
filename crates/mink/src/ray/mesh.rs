//! How a ray meets a closed triangle mesh: the nearest triangle its line
//! crosses at `t >= 0`, by a test that never lets a line slip between two
//! triangles sharing an edge, and the side it crosses from.

use super::chord::{aabb_chord, inside};
use mink_gjk::{Ray, RayCast, RayStatus};
use mink_sdf::MeshView;
use mink_support::{Iso3, Real, Vec3};

/// Casts `ray` (world frame) against the closed mesh `mesh` at `pose`
/// (mesh frame to world), as [`ray_cast`](super::ray_cast) does against a
/// convex body: the first `t` in `[0, max_toi]` at which `ray.at(t)` is on
/// the mesh, that point and the unit outward normal of the triangle there
/// (world frame, [`RayStatus::Hit`]). `t` is in units of the ray
/// direction's length.
///
/// Inside or outside is read from the first triangle the ray crosses: a
/// closed, consistently oriented mesh (as [`mink_sdf::TriMesh`] builds)
/// is left through a triangle facing along the ray. A ray starting
/// inside gives [`RayStatus::Inside`] when `solid`, else that exit. Each
/// edge's side is computed from its two vertices alone (the sign of the
/// ray's moment about the edge), so neighbouring triangles agree on it
/// bit for bit and a ray through an edge or a vertex hits one of them.
/// The cost is one test per triangle (rays that miss the mesh's box cost
/// nothing more). A non-finite pose, an invalid ray or a negative or NaN
/// `max_toi` gives [`RayStatus::NonFinite`]; never panics.
pub fn mesh_ray_cast<R: Real>(
    mesh: &MeshView<'_, R>,
    pose: &Iso3<R>,
    ray: &Ray<R>,
    max_toi: R,
    solid: bool,
) -> RayCast<R> {
    if !pose.is_finite() || !ray.is_valid() || !(max_toi >= R::ZERO) {
        return RayCast::non_finite();
    }
    let local = ray.to_local(pose);
    let (o, d) = (local.origin, local.dir);
    // The crossings are computed from a point of the line near the mesh
    // (where the line enters the mesh's box, or the origin when that is
    // inside it): the line's moment about an edge is the same from any of
    // its points, and from one near the mesh its round-off is the mesh's
    // size's, not the origin's distance's (from 57 m away, f32 moments
    // about a 4 mm mesh's edges were noise and a ray from outside came
    // out `Inside`).
    let start = match aabb_chord(&mesh.aabb(), o, d) {
        Some(c) if c.exit >= R::ZERO => c.enter.max_of(R::ZERO),
        _ => return RayCast::miss(),
    };
    let near = o + d * start;
    // The first crossing, by its parameter from `near` (adding `start`
    // would round crossings a few ulps apart together); of crossings at
    // the same point (a line through a silhouette edge, entering and
    // leaving there), the entering one: the line comes from outside.
    let mut first: Option<(R, Vec3<R>)> = None;
    for t in 0..mesh.triangles().len() {
        let Some([a, b, c]) = mesh.triangle(t) else {
            continue;
        };
        if let Some((from_near, n)) = crossing(a, b, c, near, d) {
            if !(start + from_near >= R::ZERO) {
                continue;
            }
            let earlier = first.is_none_or(|(best, m)| {
                from_near < best || (from_near == best && n.dot(d) < R::ZERO && m.dot(d) > R::ZERO)
            });
            if earlier {
                first = Some((from_near, n));
            }
        }
    }
    let Some((from_near, n)) = first else {
        return RayCast::miss();
    };
    let toi = (start + from_near).max_of(R::ZERO);
    if n.dot(d) > R::ZERO && solid {
        return inside(ray);
    }
    if toi > max_toi {
        return RayCast::miss();
    }
    RayCast {
        toi,
        point: ray.at(toi),
        normal: pose.rotation * n.normalize_or(Vec3::Z),
        iterations: 0,
        status: RayStatus::Hit,
    }
}

/// Where the line `o + t·d` crosses the triangle `a, b, c`: `t` and the
/// triangle's (unnormalized) normal `(b - a) × (c - a)`; `None` when it
/// passes beside it or runs in its plane.
///
/// The line is inside when its moment about each edge, `d · ((p - o) ×
/// (q - o))` for the edge from `p` to `q`, has the same sign for all
/// three (zero counts as either): the neighbour across an edge computes
/// exactly the opposite value for it.
fn crossing<R: Real>(
    a: Vec3<R>,
    b: Vec3<R>,
    c: Vec3<R>,
    o: Vec3<R>,
    d: Vec3<R>,
) -> Option<(R, Vec3<R>)> {
    let (pa, pb, pc) = (a - o, b - o, c - o);
    let moments = [
        d.dot(pa.cross(pb)),
        d.dot(pb.cross(pc)),
        d.dot(pc.cross(pa)),
    ];
    let positive = moments.iter().all(|&m| m >= R::ZERO);
    let negative = moments.iter().all(|&m| m <= R::ZERO);
    if !(positive || negative) {
        return None;
    }
    let n = (b - a).cross(c - a);
    let towards = n.dot(d);
    if towards == R::ZERO || !towards.finite() {
        return None;
    }
    let t = n.dot(pa) / towards;
    Some((
        within_prism(t, [(pa, b - a), (pb, c - b), (pc, a - c)], n, d),
        n,
    ))
}

/// `t` clamped to the part of the line `o + t·d` inside the triangle's
/// prism (the walls through its edges, `(p - o, q - p)` for the edge from
/// `p` to `q`, perpendicular to its plane, normal `n`).
///
/// A line the moments put through the triangle meets its plane inside the
/// prism; but a line (nearly) in the plane, along an edge say, has a plane
/// crossing that is round-off over round-off, anywhere on the line (in
/// f32, 1.3 m before a 1.5 m mesh). The walls the line crosses at an angle
/// bound it to where it is over the triangle; a wall it runs along (within
/// round-off) bounds nothing, and the moments have already put the line
/// on its inner side.
fn within_prism<R: Real>(t: R, edges: [(Vec3<R>, Vec3<R>); 3], n: Vec3<R>, d: Vec3<R>) -> R {
    let parallel = R::lit(64.0) * R::EPSILON;
    let (mut lo, mut hi) = (-R::INFINITY, R::INFINITY);
    for (from_o, edge) in edges {
        // Inside the wall: w · (o + t·d - p) >= 0, i.e. t·s >= w · (p - o).
        let w = n.cross(edge);
        let s = w.dot(d);
        if s * s <= parallel * parallel * w.dot(w) * d.dot(d) {
            continue;
        }
        let bound = w.dot(from_o) / s;
        if s > R::ZERO {
            lo = lo.max_of(bound);
        } else {
            hi = hi.min_of(bound);
        }
    }
    // Walls that disagree by round-off (a line through a vertex): the
    // crossing stays between their bounds.
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    t.max_of(lo).min_of(hi)
}
