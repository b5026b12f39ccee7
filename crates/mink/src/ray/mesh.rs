//! How a ray meets a closed triangle mesh: the nearest triangle its line
//! crosses at `t >= 0`, by a test that never lets a line slip between two
//! triangles sharing an edge, and the side it crosses from.

use super::chord::{aabb_chord, inside};
use super::orient::edge_side;
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
/// Inside or outside is counted: a closed, consistently oriented mesh (as
/// [`mink_sdf::TriMesh`] builds) is left once more than it is entered
/// along a ray from inside. A ray starting inside gives
/// [`RayStatus::Inside`] when `solid`, else the first point where it
/// meets the surface (its exit); from outside, the first point where it
/// meets the surface (a touch at a vertex or along an edge included).
/// Whether the line meets a triangle is read from the side of each edge
/// it passes, decided exactly from the edge's two vertices alone (in the
/// plane across the ray), so neighbouring triangles agree on every edge
/// and no line slips between them; for the count, a line through an edge
/// or a vertex is nudged off it symbolically, so that it crosses the
/// surface exactly once there or not at all. The cost is one test per
/// triangle (rays that miss the mesh's box cost nothing
/// more). A non-finite pose, an invalid ray or a negative or NaN
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
    // inside it): from one near the mesh, the round-off of the vertices'
    // positions relative to the line is the mesh's size's, not the
    // origin's distance's (from 57 m away, f32 positions relative to a
    // far origin were noise about a 4 mm mesh and a ray from outside came
    // out `Inside`).
    let start = match aabb_chord(&mesh.aabb(), o, d) {
        Some(c) if c.exit >= R::ZERO => c.enter.max_of(R::ZERO),
        _ => return RayCast::miss(),
    };
    let near = o + d * start;
    let across = Across::of(d);
    // The first triangle the line touches facing against it and the first
    // facing along it (by the parameter from `near`: adding `start` would
    // round crossings a few ulps apart together), and how many more times
    // the nudged line leaves than enters ahead.
    let mut first_against: Option<(R, Vec3<R>)> = None;
    let mut first_along: Option<(R, Vec3<R>)> = None;
    let mut leaves_minus_enters = 0i64;
    for t in 0..mesh.triangles().len() {
        let Some([a, b, c]) = mesh.triangle(t) else {
            continue;
        };
        let Some(x) = crossing([a, b, c], near, d, &across) else {
            continue;
        };
        if !(start + x.from_near >= R::ZERO) {
            continue;
        }
        match x.passes {
            Some(true) => leaves_minus_enters -= 1,
            Some(false) => leaves_minus_enters += 1,
            None => {}
        }
        let first = if x.normal.dot(d) < R::ZERO {
            &mut first_against
        } else {
            &mut first_along
        };
        if first.is_none_or(|(best, _)| x.from_near < best) {
            *first = Some((x.from_near, x.normal));
        }
    }
    // Past the last crossing the ray is outside: it started inside when it
    // leaves more often than it enters.
    let started_inside = leaves_minus_enters > 0;
    if started_inside && solid {
        return inside(ray);
    }
    // From outside, the surface is met facing against the ray (a touch at
    // an edge or a vertex meets triangles of both facings there; a
    // crossing a few ulps after a leaving one it precedes is the true
    // first); from inside, facing along it.
    let (preferred, other) = if started_inside {
        (first_along, first_against)
    } else {
        (first_against, first_along)
    };
    let Some((from_near, n)) = preferred.or(other) else {
        return RayCast::miss();
    };
    let toi = (start + from_near).max_of(R::ZERO);
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

/// The plane across a ray's direction `d`: two axes `u`, `v` with
/// `u × v` along `d`.
struct Across<R: Real> {
    u: Vec3<R>,
    v: Vec3<R>,
}

impl<R: Real> Across<R> {
    fn of(d: Vec3<R>) -> Self {
        let u = d.any_orthonormal();
        Self {
            u,
            v: d.normalize_or(Vec3::Z).cross(u),
        }
    }

    /// Where the line through the origin along `d` sees `p`: the same bits
    /// for a vertex in every triangle that has it.
    fn project(&self, p: Vec3<R>) -> (R, R) {
        (p.dot(self.u), p.dot(self.v))
    }
}

/// A triangle the line touches.
struct Crossing<R: Real> {
    /// The line's parameter there, from the point it is computed from.
    from_near: R,
    /// The triangle's (unnormalized) outward normal `(b - a) × (c - a)`.
    normal: Vec3<R>,
    /// Whether the nudged line passes through it: `Some(true)` entering
    /// (the triangle faces against the line), `Some(false)` leaving,
    /// `None` when it passes beside it.
    passes: Option<bool>,
}

/// Whether the line `o + t·d` touches the triangle `a, b, c` (its closed
/// surface: edges and corners included), where, and whether the nudged
/// line passes through it; `None` when the line passes beside it.
///
/// Seen along `d`, the line touches the triangle when it is on no edge's
/// outer side, and the nudged line passes through it when it is on the
/// same side of all three ([`edge_side`]: exact, and the neighbour across
/// an edge sees exactly the opposite side, so the nudged line crosses the
/// closed surface a whole number of times, entering and leaving in turn).
/// The side is also the direction: to the left of the edges of a triangle
/// that turns counter-clockwise seen along `d`, which faces away from the
/// line (leaving).
fn crossing<R: Real>(
    [a, b, c]: [Vec3<R>; 3],
    o: Vec3<R>,
    d: Vec3<R>,
    across: &Across<R>,
) -> Option<Crossing<R>> {
    let (pa, pb, pc) = (a - o, b - o, c - o);
    let (qa, qb, qc) = (across.project(pa), across.project(pb), across.project(pc));
    let sides = [edge_side(qa, qb), edge_side(qb, qc), edge_side(qc, qa)];
    let exact = sides.map(|s| s.exact);
    let on_left = exact.iter().all(|&s| s >= 0);
    let on_right = exact.iter().all(|&s| s <= 0);
    // All three zero: the triangle is seen edge-on and the line is in its
    // plane; its neighbours catch the line where it crosses its edges.
    if !(on_left || on_right) || exact == [0; 3] {
        return None;
    }
    let nudged = sides[0].nudged;
    let passes = (nudged != 0 && sides.iter().all(|s| s.nudged == nudged)).then_some(nudged < 0);
    let n = (b - a).cross(c - a);
    let towards = n.dot(d);
    let edges = [(pa, b - a), (pb, c - b), (pc, a - c)];
    // The plane crossing, unless the line runs in the plane (then the
    // prism's bounds alone place it).
    let t = if towards != R::ZERO && towards.finite() {
        n.dot(pa) / towards
    } else {
        R::ZERO
    };
    Some(Crossing {
        from_near: within_prism(t, edges, n, d),
        normal: n,
        passes,
    })
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
