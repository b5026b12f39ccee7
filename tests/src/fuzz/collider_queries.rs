//! The `collider_queries` fuzz target: the non-convex colliders of the
//! umbrella crate ([`Collider::HeightField`], [`Collider::Mesh`], and
//! [`Collider::ConvexWithField`] pairs for the deep fallback) through
//! [`Collider::ray_cast`], [`Collider::project_point`] and [`collide`], in
//! f32 and f64, each answer checked against an oracle that does not share
//! the code under test.
//!
//! # Input layout
//!
//! Reading past the end gives zeros, so every input decodes.
//!
//! | bytes | meaning |
//! |---|---|
//! | 1 | selector, modulo 8: 0–3 a height field, 4–6 a mesh, 7 two convex hulls carrying the fields of their own surfaces (the deep fallback) |
//! | … | the collider ([`decode_height_field`] or [`decode_mesh`]; for the deep pair, a mesh whose hull becomes the shape `A`) |
//! | 7 | its pose ([`decode_pose`], within the collider's extent) |
//! | … | a convex shape ([`decode_shape`]; the deep pair: a second mesh whose hull is `B`) |
//! | 1 | the contact margin ([`decode_margin`] of the shape's size) |
//! | 1 + … | the shape's placement, biased to the hard cases: on a height field, resting on the top surface (its lowest point along the field's up direction at the surface height under a decoded point, moved by 0, ±1e-7, ±1e-4 or ±1e-2 of its size), sunk deep, over a cliff (a line of samples), against an outer wall, or anywhere; on a mesh, touching it along a decoded direction (the same offsets), nested at its interior point, or anywhere |
//! | 1 + … | the ray: height field — straight down, along a flat surface (origin at a small decoded offset from it), from inside, at a grid sample, along a cell's diagonal, anywhere; mesh — at a vertex, from inside, at an edge, at a face, in a face's plane, anywhere. The byte also picks `solid`, whether `max_toi` is finite (then a byte) and the direction's length (1, 1e-3, 30, 0.37) |
//! | 1 + … | the query point: above the surface, below it, deep inside, on it, anywhere |
//! | 1 | `max_points`: 0 to 8 |
//! | 7 | a rigid motion ([`decode_pose`]) |
//!
//! # Checks
//!
//! `tol` = [`rel_tol`] × the scene's size (collider extent, shape extent,
//! pose offsets, ray origin and query point), loosened only where a
//! comment says why. Every failure is an `Err` naming the check and the
//! numbers; nothing panics.
//!
//! 1. **Ray, height field** (oracle: `mink::gjk::ray_cast`, GJK's
//!    conservative advancement, on every cell prism, and a model of the
//!    terrain in f64 written here: prisms from `cell_prisms`, inside test by
//!    barycentric footprint and height, distance to the union's boundary
//!    from point–triangle distances): a hit is in `[0, max_toi]`, at
//!    `origin + toi·dir`, on the terrain's surface (model distance within
//!    `2 tol`), with a unit normal equal to the face's where the point is
//!    within `tol` of one face and of no other (a top triangle, the base,
//!    an outer wall; walls between cells are not faces). From outside, the
//!    hit is the nearest entry over the prisms within `2 tol` (along the
//!    ray, meters),
//!    and the ray before it is outside (with a normal against the ray where
//!    the hit is inside one face); a hit or miss differing from the
//!    prisms' is accepted only when the ray between the two answers (or
//!    after the lone hit) is nowhere inside by more than `2 tol` (a graze).
//!    From inside (by more than `tol`): solid gives `Inside` at 0; not
//!    solid, the exit from the union (the ray inside before it, outside
//!    just after it; inner walls between cells are not surface), or a miss
//!    with the ray inside up to `max_toi`.
//! 2. **Ray, mesh** (oracle: the world triangles in f64, plane crossing plus
//!    barycentric test, and the winding number of the origin from the
//!    Van Oosterom–Strackee solid angles, |w| > 0.5 inside): a hit is on the
//!    surface, no clear crossing (inside its triangle by more than the
//!    rounding of its position, which grows as the ray turns into the
//!    triangle's plane) comes before it, and its normal is the triangle's
//!    when it is a clear crossing and no other crossing is within that
//!    rounding of it (a thin part entered and left within it may answer
//!    with either); a miss leaves no clear crossing in
//!    `[0, max_toi]`. The side (solid: `Inside`; not solid: an exit facing
//!    along the ray) comes from the winding number, skipped within `tol`
//!    of the surface.
//! 3. **Point projection**: height field — the distance equals the f64
//!    model's signed distance to the union's boundary (outside: the nearest
//!    prism, from its 8 boundary triangles; inside: the nearest of top
//!    triangles, outer walls under the edge and base) within `2 tol`, and
//!    inside it is at least the depth in any single prism containing the
//!    point; mesh — |distance| is the brute-force f64 point–triangle
//!    minimum, its sign the winding number's (skipped within `tol`). Both:
//!    the projection is on the surface (model distance and a second
//!    projection within `2 tol`), `|point − projection| = |distance|`, unit
//!    normal.
//! 4. **Contacts** (`collide` in both orders; not for a half-space against
//!    a height field, documented as none): every contact finite, unit
//!    normal, depth at least `−margin − tol`, at most `max_points`, the
//!    count returned the count emitted, and the swapped order emits the same
//!    contacts bit for bit with the normals negated (promised for a height
//!    field or a mesh against any other collider but a mesh). Height field:
//!    non-empty exactly when the smallest `mink::distance` from a cell prism
//!    to the shape is below the margin (either answer within `tol` of it);
//!    each depth at most the overlap of the shape with some prism along
//!    the contact's normal, from their support functions (every contact is
//!    a prism pair's, or the deep fallback's point below a top triangle's
//!    plane: both bounded so). Mesh: contacts come from samples against the
//!    field (`mesh_convex_contacts`: the shape's support points only, the
//!    field accurate to `√3` cells), so the promise is one-sided: non-empty
//!    when a mesh vertex lies in the shape (by `mink::distance` of a point)
//!    deeper than `margin − tol`, or the shape lies wholly inside the mesh
//!    (winding number of a point of it) farther than `√3` cells from the
//!    surface; empty when the smallest `Shape::Triangle` distance exceeds
//!    `margin + √3 cells + tol` and the shape is outside. Depths are only
//!    bounded by the larger of the two sizes there (a sample's depth is its
//!    depth in the mesh, a vertex's its depth in the shape; not at all
//!    against a half-space).
//! 5. **Deep fallback** (two hulls, each with the field of its own
//!    surface): the checks of 4 but the swap; non-empty when
//!    `mink::intersect` says they overlap, with the deepest depth at least
//!    `−tol`; empty when `mink::distance` exceeds the margin by `tol`; the
//!    deepest depth at most the overlap along its own normal (the
//!    contract). Not at most [`sampled_depth_bound`]: the fallback promises
//!    the overlap along the best of its candidate axes, which can exceed
//!    the best sampled direction's; only that bound plus the larger size
//!    is checked.
//! 6. **Invariance**: moving collider, shape, ray and point by one decoded
//!    rigid motion moves the hit (same status, `toi` within `2 tol`), the
//!    projection distance and the in-contact verdict with them, but where
//!    an exemption above applied (a graze, an origin on the surface, a
//!    distance within `tol` of the margin).

use super::bytes::ByteReader;
use super::colliders::{decode_height_field, decode_mesh, FieldSpec, MeshSpec};
use super::shapes::{
    decode_margin, decode_pose, decode_rotation, decode_shape, length, overlap_along, rel_tol,
    sampled_depth_bound, shape_reach, Placed, ShapeSpec,
};
use mink::contact::{ContactParams, ContactPoint};
use mink::query::Status;
use mink::ray::{Ray, RayCast, RayStatus};
use mink::sdf::{OwnedSdf, SdfBody, SdfOptions, TriMesh};
use mink::support::{ConvexHull, HeightField, Iso3, Point, Real, TerrainPrism, Triangle, Vec3};
use mink::{collide, distance, intersect, Body, Collider, Method, Shape};

/// What the harness did with an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColliderOutcome {
    /// A constructor refused the decoded parameters.
    Refused,
    /// Checked; the ray missed and the shape had no contact.
    Miss,
    /// Checked; the ray hit (or started inside), no contact.
    Hit,
    /// Checked; the shape had contacts.
    Contacts,
    /// Checked a deep-fallback pair (two hulls with fields).
    Deep,
}

type V = Vec3<f64>;

// ---------------------------------------------------------------------
// f64 geometry written here (independent of the library's).
// ---------------------------------------------------------------------

/// The point of triangle `t` nearest to `p` (Ericson, Real-Time Collision
/// Detection, 5.1.5), in f64.
fn closest_on_tri(p: V, t: &[V; 3]) -> V {
    let [a, b, c] = *t;
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return a + ab * v;
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return a + ac * w;
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return b + (c - b) * w;
    }
    let denom = 1.0 / (va + vb + vc);
    let (v, w) = (vb * denom, vc * denom);
    a + ab * v + ac * w
}

/// Distance from `p` to triangle `t`.
fn tri_dist(p: V, t: &[V; 3]) -> f64 {
    (p - closest_on_tri(p, t)).norm()
}

/// Distance from `p` to the segment `a b`.
fn seg_dist(p: V, a: V, b: V) -> f64 {
    let ab = b - a;
    let l = ab.norm_squared();
    let s = if l > 0.0 {
        ((p - a).dot(ab) / l).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + ab * s)).norm()
}

/// The solid angle of triangle `t` seen from `p` over 4π (Van Oosterom and
/// Strackee): positive when `p` is behind the triangle's (counter-
/// clockwise) face.
fn solid_angle(p: V, t: &[V; 3]) -> f64 {
    let (a, b, c) = (t[0] - p, t[1] - p, t[2] - p);
    let (la, lb, lc) = (a.norm(), b.norm(), c.norm());
    let num = a.dot(b.cross(c));
    let den = la * lb * lc + a.dot(b) * lc + a.dot(c) * lb + b.dot(c) * la;
    2.0 * num.atan2(den) / (4.0 * core::f64::consts::PI)
}

/// The winding number of the closed triangle soup `tris` about `p`.
fn winding(p: V, tris: &[[V; 3]]) -> f64 {
    tris.iter().map(|t| solid_angle(p, t)).sum()
}

/// A 2D cross product of `b - a` and `c - a` (xy only).
fn cross2(a: V, b: V, c: V) -> f64 {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

// ---------------------------------------------------------------------
// The terrain in f64.
// ---------------------------------------------------------------------

/// A cell prism in f64 (field frame): its top triangle and base height.
#[derive(Clone, Copy, Debug)]
struct Prism {
    top: [V; 3],
    base: f64,
}

impl Prism {
    /// Barycentric weights of `p`'s xy in the footprint.
    fn bary(&self, p: V) -> [f64; 3] {
        let [a, b, c] = self.top;
        let area = cross2(a, b, c);
        [
            cross2(b, c, p) / area,
            cross2(c, a, p) / area,
            cross2(a, b, p) / area,
        ]
    }

    /// The top's height over `p`'s xy (the plane's, anywhere).
    fn top_at(&self, p: V) -> f64 {
        let w = self.bary(p);
        w[0] * self.top[0].z + w[1] * self.top[1].z + w[2] * self.top[2].z
    }

    /// `true` when `p` is in the prism (closed).
    fn contains(&self, p: V) -> bool {
        self.bary(p).iter().all(|&w| w >= 0.0) && p.z >= self.base && p.z <= self.top_at(p)
    }

    /// The upward unit normal of the top.
    fn up(&self) -> V {
        let [a, b, c] = self.top;
        let n = (b - a).cross(c - a);
        if n.z < 0.0 { -n } else { n }.normalize_or(Vec3::Z)
    }

    /// The 8 boundary triangles (top, base, three walls of two).
    fn faces(&self) -> [[V; 3]; 8] {
        let [a, b, c] = self.top;
        let lo = |v: V| Vec3::new(v.x, v.y, self.base);
        let (la, lb, lc) = (lo(a), lo(b), lo(c));
        [
            [a, b, c],
            [la, lb, lc],
            [a, b, lb],
            [a, lb, la],
            [b, c, lc],
            [b, lc, lb],
            [c, a, la],
            [c, la, lc],
        ]
    }

    /// Depth of an inside point `p` below the prism's boundary (min over
    /// its faces' planes; a convex polytope).
    fn depth(&self, p: V) -> f64 {
        let n = self.up();
        let mut d = n.dot(self.top[0] - p).min(p.z - self.base);
        let [a, b, c] = self.top;
        for (u, v, w) in [(a, b, c), (b, c, a), (c, a, b)] {
            // Vertical wall through u v; inward towards w.
            let e = Vec3::new(v.x - u.x, v.y - u.y, 0.0);
            let mut m = Vec3::new(-e.y, e.x, 0.0).normalize_or(Vec3::X);
            if m.dot(w - u) < 0.0 {
                m = -m;
            }
            d = d.min(m.dot(p - u));
        }
        d
    }
}

/// The terrain solid in f64, field frame, with its pose.
struct Terrain {
    prisms: Vec<Prism>,
    /// Heights, row-major.
    h: Vec<f64>,
    nx: usize,
    ny: usize,
    dx: f64,
    dy: f64,
    base: f64,
    pose: Iso3<f64>,
}

impl Terrain {
    fn new<R: Real>(field: &HeightField<'_, R>, pose: &Iso3<R>) -> Self {
        let (cx, cy) = field.cell_counts();
        let mut prisms = Vec::new();
        for j in 0..cy {
            for i in 0..cx {
                if let Some(ps) = field.cell_prisms(i, j) {
                    for p in ps {
                        prisms.push(Prism {
                            top: p.top().map(|v| v.cast()),
                            base: p.base().to_f64(),
                        });
                    }
                }
            }
        }
        Terrain {
            prisms,
            h: field.heights().iter().map(|&h| Real::to_f64(h)).collect(),
            nx: field.nx(),
            ny: field.ny(),
            dx: field.dx().to_f64(),
            dy: field.dy().to_f64(),
            base: field.base().to_f64(),
            pose: pose.cast(),
        }
    }

    fn height(&self, i: usize, j: usize) -> f64 {
        self.h[j * self.nx + i]
    }

    fn x1(&self) -> f64 {
        self.dx * (self.nx - 1) as f64
    }

    fn y1(&self) -> f64 {
        self.dy * (self.ny - 1) as f64
    }

    /// World to field frame.
    fn local(&self, p: V) -> V {
        self.pose.inverse_transform_point(p)
    }

    /// World up (the field's z).
    fn up(&self) -> V {
        self.pose.rotation.mul_vec(Vec3::Z)
    }

    /// The surface height over `(x, y)` (field frame), clamped to the grid.
    fn surface(&self, x: f64, y: f64) -> f64 {
        let x = x.clamp(0.0, self.x1());
        let y = y.clamp(0.0, self.y1());
        let p = Vec3::new(x, y, 0.0);
        let mut best = (f64::NEG_INFINITY, None);
        for pr in &self.prisms {
            let w = pr.bary(p);
            let m = w[0].min(w[1]).min(w[2]);
            if m > best.0 {
                best = (m, Some(pr.top_at(p)));
            }
        }
        best.1.unwrap_or(0.0)
    }

    /// Height of the surface's edge at the outline point (field frame).
    fn edge_height(&self, x_wall: Option<usize>, y_wall: Option<usize>, s: f64) -> f64 {
        if let Some(i) = x_wall {
            let t = (s / self.dy).clamp(0.0, (self.ny - 1) as f64);
            let j = (t.floor() as usize).min(self.ny - 2);
            let f = t - j as f64;
            self.height(i, j) * (1.0 - f) + self.height(i, j + 1) * f
        } else {
            let j = y_wall.unwrap_or(0);
            let t = (s / self.dx).clamp(0.0, (self.nx - 1) as f64);
            let i = (t.floor() as usize).min(self.nx - 2);
            let f = t - i as f64;
            self.height(i, j) * (1.0 - f) + self.height(i + 1, j) * f
        }
    }

    /// The signed distance of the world point `p` from the union's boundary
    /// (negative inside), and the deepest depth in a single prism holding
    /// it (0 outside).
    fn signed(&self, p: V) -> (f64, f64) {
        let q = self.local(p);
        let holders: Vec<&Prism> = self.prisms.iter().filter(|pr| pr.contains(q)).collect();
        if holders.is_empty() {
            let d = self
                .prisms
                .iter()
                .flat_map(|pr| pr.faces())
                .map(|f| tri_dist(q, &f))
                .fold(f64::INFINITY, f64::min);
            return (d, 0.0);
        }
        let single = holders.iter().map(|pr| pr.depth(q)).fold(0.0, f64::max);
        let mut d = q.z - self.base;
        let (x1, y1) = (self.x1(), self.y1());
        let walls = [
            (q.x, Some(0), None, q.y),
            (x1 - q.x, Some(self.nx - 1), None, q.y),
            (q.y, None, Some(0), q.x),
            (y1 - q.y, None, Some(self.ny - 1), q.x),
        ];
        for (w, xw, yw, s) in walls {
            if q.z <= self.edge_height(xw, yw, s) {
                d = d.min(w);
            }
        }
        for pr in &self.prisms {
            d = d.min(tri_dist(q, &pr.top));
        }
        (-d, single)
    }

    /// The outward normal of the face the world point `p` lies on, when it
    /// lies within `tol` of that face and of no other (a top triangle, the
    /// base, an outer wall; the walls between cells are not faces).
    fn face_normal(&self, p: V, tol: f64) -> Option<V> {
        let q = self.local(p);
        let (x1, y1) = (self.x1(), self.y1());
        let mut near: Vec<V> = self
            .prisms
            .iter()
            .filter(|pr| tri_dist(q, &pr.top) <= tol)
            .map(|pr| pr.up())
            .collect();
        let over_footprint = q.x >= -tol && q.x <= x1 + tol && q.y >= -tol && q.y <= y1 + tol;
        if (q.z - self.base).abs() <= tol && over_footprint {
            near.push(-Vec3::Z);
        }
        let walls = [
            (q.x, Some(0), None, q.y, y1, -Vec3::X),
            (x1 - q.x, Some(self.nx - 1), None, q.y, y1, Vec3::X),
            (q.y, None, Some(0), q.x, x1, -Vec3::Y),
            (y1 - q.y, None, Some(self.ny - 1), q.x, x1, Vec3::Y),
        ];
        for (w, xw, yw, s, end, n) in walls {
            let h = self.edge_height(xw, yw, s.clamp(0.0, end));
            if w.abs() <= tol
                && s >= -tol
                && s <= end + tol
                && q.z >= self.base - tol
                && q.z <= h + tol
            {
                near.push(n);
            }
        }
        match near.as_slice() {
            [only] => Some(self.pose.rotation.mul_vec(*only)),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------
// The mesh in f64.
// ---------------------------------------------------------------------

/// A closed mesh's triangles in world coordinates, f64.
struct Soup {
    tris: Vec<[V; 3]>,
}

impl Soup {
    fn new<R: Real>(mesh: &TriMesh<R>, pose: &Iso3<R>) -> Self {
        let pose = pose.cast::<f64>();
        let vs: Vec<V> = mesh
            .vertices()
            .iter()
            .map(|v| pose.transform_point(v.cast()))
            .collect();
        let tris = mesh
            .triangles()
            .iter()
            .map(|t| t.map(|i| vs[i as usize]))
            .collect();
        Soup { tris }
    }

    fn dist(&self, p: V) -> f64 {
        self.tris
            .iter()
            .map(|t| tri_dist(p, t))
            .fold(f64::INFINITY, f64::min)
    }

    fn inside(&self, p: V) -> bool {
        winding(p, &self.tris).abs() > 0.5
    }

    fn signed(&self, p: V) -> f64 {
        let d = self.dist(p);
        if self.inside(p) {
            -d
        } else {
            d
        }
    }
}

/// One plane crossing of a ray with a mesh triangle.
#[derive(Clone, Copy, Debug)]
struct Crossing {
    t: f64,
    /// Inside its triangle by more than the rounding of its position.
    clear: bool,
    /// How far `t` (ray units) may be off.
    dt: f64,
    normal: V,
}

/// Every crossing of the line `o + t d` with the planes of `soup`'s
/// triangles that lands within (or within rounding of) the triangle.
fn crossings(soup: &Soup, o: V, d: V, tol: f64) -> Vec<Crossing> {
    let len = d.norm();
    let mut out = Vec::new();
    for tri in &soup.tris {
        let [a, b, c] = *tri;
        let n = (b - a).cross(c - a);
        let nn = n.norm();
        if nn == 0.0 {
            continue;
        }
        let denom = n.dot(d);
        let sin = denom.abs() / (nn * len);
        if sin < 1e-12 {
            continue;
        }
        let t = n.dot(a - o) / denom;
        let q = o + d * t;
        // The triangle's position is known to `tol`: the crossing point
        // moves by `tol / sin` within its plane.
        let slack = 2.0 * tol / sin;
        let off = tri_dist(q, tri);
        if off > slack {
            continue;
        }
        let edge = seg_dist(q, a, b)
            .min(seg_dist(q, b, c))
            .min(seg_dist(q, c, a));
        out.push(Crossing {
            t,
            clear: off == 0.0 && edge > slack,
            dt: slack / len,
            normal: n / nn,
        });
    }
    out
}

// ---------------------------------------------------------------------
// Decoding helpers.
// ---------------------------------------------------------------------

/// A unit direction from six bytes.
fn direction(r: &mut ByteReader<'_>) -> V {
    let mut c = || f64::from(r.u16()) / f64::from(u16::MAX) * 2.0 - 1.0;
    Vec3::new(c(), c(), c()).normalize_or(Vec3::X)
}

/// A fraction in `[0, 1]` from a byte.
fn frac(r: &mut ByteReader<'_>) -> f64 {
    f64::from(r.u8()) / 255.0
}

/// A small signed offset: 0, ±1e-7, ±1e-4 or ±1e-2 (times a size).
fn gap(r: &mut ByteReader<'_>) -> f64 {
    [0.0, 1e-7, -1e-7, 1e-4, -1e-4, 1e-2, -1e-2, 0.0][usize::from(r.u8() % 8)]
}

/// Rounds a world vector to `R` and back.
fn round<R: Real>(v: V) -> V {
    v.cast::<R>().cast()
}

/// The collider under test and its f64 model.
enum Model {
    Field(Terrain),
    Mesh(Soup),
}

impl Model {
    /// Signed distance from the surface (negative inside) and, for a
    /// height field, the deepest depth in one prism holding the point.
    fn signed(&self, p: V) -> (f64, f64) {
        match self {
            Model::Field(t) => t.signed(p),
            Model::Mesh(s) => (s.signed(p), 0.0),
        }
    }
}

/// Everything the checks of one scene need.
struct Scene<'s, 'a, R: Real> {
    collider: Collider<'a, R>,
    pose: Iso3<R>,
    model: Model,
    shape: Option<&'s Shape<'a, R>>,
    shape_pose: Iso3<R>,
    margin: f64,
    max_points: usize,
    ray: Ray<R>,
    max_toi: f64,
    solid: bool,
    point: V,
    tol: f64,
    extent: f64,
    /// The mesh field's cell, for mesh contacts.
    cell: f64,
}

/// What the scene's checks found, for the invariance comparison.
#[derive(Clone, Copy, Debug)]
struct Answers {
    ray: RayStatus,
    toi: f64,
    /// An exemption applied to the ray (graze, origin on the surface).
    ray_loose: bool,
    distance: f64,
    contact: Option<bool>,
    contact_loose: bool,
}

// ---------------------------------------------------------------------
// Check 1 and 2: rays.
// ---------------------------------------------------------------------

/// Checks the collider's ray cast; returns it and whether an exemption
/// applied.
fn check_ray<R: Real>(s: &Scene<'_, '_, R>) -> Result<(RayCast<R>, bool), String> {
    let got = s
        .collider
        .ray_cast(&s.pose, &s.ray, R::lit(s.max_toi), s.solid);
    let tol = s.tol;
    let o: V = s.ray.origin.cast();
    let d: V = s.ray.dir.cast();
    let len = d.norm();
    let at = |t: f64| o + d * t;
    let signed = |p: V| s.model.signed(p).0;
    let far = ((o - s.pose.translation.cast::<f64>()).norm() + 2.0 * s.extent) * 2.0 / len;
    let end = s.max_toi.min(far);
    let start = signed(o);
    let near_surface = start.abs() <= tol;
    let mut loose = near_surface;
    // Generic checks of a hit.
    if matches!(got.status, RayStatus::NonFinite | RayStatus::IterationLimit) {
        return Err(format!("status {got:?}"));
    }
    if got.status == RayStatus::Inside {
        if !s.solid {
            return Err(format!("Inside for a ray that is not solid: {got:?}"));
        }
        if start > tol || got.toi != R::ZERO {
            return Err(format!(
                "Inside, but the origin is {start} m outside: {got:?}"
            ));
        }
    }
    let t = got.toi.to_f64();
    let n: V = got.normal.cast();
    let mut face = None;
    if got.status == RayStatus::Hit {
        if !(t >= 0.0 && t <= s.max_toi) {
            return Err(format!("toi {t} outside [0, {}]", s.max_toi));
        }
        // A hit within rounding of `max_toi` may be a miss once the scene
        // has moved (and the other way round).
        if (s.max_toi - t) * len <= 2.0 * tol {
            loose = true;
        }
        let p: V = got.point.cast();
        if (p - at(t)).norm() > tol {
            return Err(format!("point is not origin + toi dir: {got:?}"));
        }
        let x = signed(p);
        if x.abs() > 2.0 * tol {
            return Err(format!("hit point {x} m from the surface: {got:?}"));
        }
        if (n.norm() - 1.0).abs() > 1e-3 {
            return Err(format!("normal not unit: {got:?}"));
        }
        face = match &s.model {
            Model::Field(terrain) => terrain.face_normal(p, tol),
            // The face's normal where the hit is one clear crossing and no
            // other crossing is within its rounding (a thin part entered
            // and left within it, in f32 at a grazing angle, may be
            // answered by either).
            Model::Mesh(soup) => {
                let near: Vec<Crossing> = crossings(soup, o, d, tol)
                    .into_iter()
                    .filter(|c| (c.t - t).abs() <= c.dt)
                    .collect();
                match near.as_slice() {
                    [only] if only.clear => Some(only.normal),
                    _ => None,
                }
            }
        };
        if let Some(f) = face {
            if (f - n).norm() > 1e-3 {
                return Err(format!("normal {n:?} is not the face's {f:?}: {got:?}"));
            }
        }
    }
    if near_surface {
        return Ok((got, loose));
    }
    let inside_from = start < 0.0;
    if let Model::Mesh(soup) = &s.model {
        // Rays grazing an edge or a vertex, or running (nearly) in a
        // triangle's plane, make only ambiguous crossings: the exact
        // predicates then answer by which side of the rounded vertices the
        // line passes, which a rigid motion of the scene may change (a ray
        // from inside along a face, through the face's edge and on to its
        // far vertex, leaves at the edge or at the vertex).
        if crossings(soup, o, d, tol)
            .iter()
            .any(|c| !c.clear && c.t >= -c.dt && c.t <= s.max_toi + c.dt)
        {
            loose = true;
        }
    }
    if inside_from {
        // From inside: solid says so; otherwise the exit.
        match (s.solid, got.status) {
            (true, RayStatus::Inside) => {}
            (true, _) => return Err(format!("a solid ray from {start} m inside: {got:?}")),
            (false, RayStatus::Hit) => {
                if n.dot(d) < -1e-3 * len {
                    return Err(format!("exit normal against the ray: {got:?}"));
                }
                for k in 1..8 {
                    let q = at(t * k as f64 / 8.0);
                    let x = signed(q);
                    if x > 2.0 * tol {
                        return Err(format!(
                            "the ray is {x} m outside at {q:?} before its exit {got:?}"
                        ));
                    }
                }
                // Just after the exit: outside (the union's inner walls are
                // no surface, so the exit is where it leaves the union).
                // Sampled over `4 tol` past the exit, not at one point: a
                // ray leaving through a top at a grazing angle may re-enter
                // the terrain less than `tol` later and be deep inside
                // again by the end of that stretch.
                let window = 4.0 * tol / len;
                if t + window <= s.max_toi {
                    let furthest_out = (1..=8)
                        .map(|k| signed(at(t + window * k as f64 / 8.0)))
                        .fold(f64::NEG_INFINITY, f64::max);
                    if furthest_out < -2.0 * tol {
                        return Err(format!(
                            "{furthest_out} m inside (at most) over {} m past the exit {got:?} (not where the ray leaves the solid)",
                            4.0 * tol
                        ));
                    }
                }
            }
            (false, _) => {
                for k in 0..=16 {
                    let q = at(end * k as f64 / 16.0);
                    let x = signed(q);
                    if x > 2.0 * tol {
                        return Err(format!(
                            "missed from inside, but {q:?} is {x} m outside before max_toi"
                        ));
                    }
                }
                if s.max_toi >= far {
                    return Err(format!("a ray from inside never left: {got:?}"));
                }
            }
        }
        return Ok((got, loose));
    }
    // From outside. The entering normal faces the ray where the hit is
    // inside one face: at a graze (a silhouette edge or vertex) the hit is
    // on the surface and the normal is that of a triangle there, which may
    // face along the ray (`mesh_ray_cast`: the normal of the triangle hit).
    if got.status == RayStatus::Hit {
        if face.is_some() && n.dot(d) > 1e-3 * len {
            return Err(format!("entering normal along the ray: {got:?}"));
        }
        for k in 0..8 {
            let q = at(t * k as f64 / 8.0);
            let x = signed(q);
            if x < -2.0 * tol {
                return Err(format!(
                    "the ray is {x} m inside at {q:?} before the hit {got:?}"
                ));
            }
        }
    } else {
        for k in 0..=32 {
            let q = at(end * k as f64 / 32.0);
            let x = signed(q);
            if x < -2.0 * tol {
                return Err(format!("missed, but {q:?} on the ray is {x} m inside"));
            }
        }
    }
    // Nowhere between `a` and `b` (ray units) inside by more than `2 tol`.
    let clear_between =
        |a: f64, b: f64| (0..=16).all(|k| signed(at(a + (b - a) * k as f64 / 16.0)) >= -2.0 * tol);
    let got_t = (got.status == RayStatus::Hit).then_some(t);
    match &s.model {
        Model::Field(_) => {
            // The nearest entry over every prism, by GJK's cast.
            let Collider::HeightField(field) = &s.collider else {
                return Ok((got, loose));
            };
            let (cx, cy) = field.cell_counts();
            let mut best: Option<f64> = None;
            for j in 0..cy {
                for i in 0..cx {
                    for prism in field.cell_prisms(i, j).into_iter().flatten() {
                        let c =
                            mink::gjk::ray_cast(&prism, &s.pose, &s.ray, R::lit(s.max_toi), true);
                        let tc = match c.status {
                            RayStatus::Hit => c.toi.to_f64(),
                            RayStatus::Inside => 0.0,
                            RayStatus::Miss => continue,
                            _ => return Ok((got, true)),
                        };
                        best = Some(best.map_or(tc, |b: f64| b.min(tc)));
                    }
                }
            }
            match (got_t, best) {
                (Some(a), Some(b)) if (a - b).abs() * len <= 2.0 * tol => {}
                (Some(a), Some(b)) => {
                    loose = true;
                    if !clear_between(a.min(b), a.max(b)) {
                        return Err(format!(
                            "toi {a} but the prisms' nearest entry (GJK) is at {b}: {got:?}"
                        ));
                    }
                }
                (Some(a), None) => {
                    loose = true;
                    if !clear_between(a, end.max(a)) {
                        return Err(format!("hit at {a}, every prism missed (GJK), and the ray enters after it: {got:?}"));
                    }
                }
                (None, Some(b)) => {
                    loose = true;
                    let boundary = (s.max_toi - b) * len <= 2.0 * tol;
                    if !boundary && !clear_between(b, end.max(b)) {
                        return Err(format!("missed, but a prism is entered at {b} (GJK)"));
                    }
                }
                (None, None) => {}
            }
        }
        Model::Mesh(soup) => {
            // (Ambiguous crossings made the answer loose above.)
            let cs = crossings(soup, o, d, tol);
            let limit = got_t.unwrap_or(s.max_toi);
            for c in &cs {
                let before = c.t >= c.dt && c.t < limit - c.dt;
                let counts = got_t.is_some() || c.t <= s.max_toi - c.dt;
                if c.clear && before && counts {
                    return Err(format!(
                        "a clear crossing at t = {} (normal {:?}) before the answer {got:?}",
                        c.t, c.normal
                    ));
                }
            }
        }
    }
    Ok((got, loose))
}

// ---------------------------------------------------------------------
// Check 3: point projection.
// ---------------------------------------------------------------------

fn check_projection<R: Real>(s: &Scene<'_, '_, R>) -> Result<f64, String> {
    let tol = s.tol;
    let p = s.point;
    let got = s.collider.project_point(&s.pose, p.cast());
    if !matches!(got.status, Status::Exact | Status::Converged) {
        return Err(format!("projection status {got:?}"));
    }
    let d = got.distance.to_f64();
    let q: V = got.projection.cast();
    let n: V = got.normal.cast();
    let (expect, single) = s.model.signed(p);
    if !(d.is_finite() && q.is_finite() && n.is_finite()) {
        return Err(format!("non-finite projection {got:?}"));
    }
    if (n.norm() - 1.0).abs() > 1e-3 {
        return Err(format!("normal not unit: {got:?}"));
    }
    if expect.abs() > tol {
        if (d - expect).abs() > 2.0 * tol {
            return Err(format!("distance {d}, the model's {expect}: {got:?}"));
        }
    } else if d.abs() > 2.0 * tol {
        return Err(format!(
            "distance {d} for a point {expect} m from the surface: {got:?}"
        ));
    }
    // The union's boundary is at least as far as a single prism's.
    if expect < -tol && -d < single - tol {
        return Err(format!(
            "depth {} below the point's depth {single} in one prism",
            -d
        ));
    }
    let on = s.model.signed(q).0;
    if on.abs() > 2.0 * tol {
        return Err(format!(
            "projection {q:?} is {on} m from the surface: {got:?}"
        ));
    }
    let again = s
        .collider
        .project_point(&s.pose, got.projection)
        .distance
        .to_f64();
    if again.abs() > 2.0 * tol {
        return Err(format!("projecting the projection gives {again}: {got:?}"));
    }
    if ((p - q).norm() - d.abs()).abs() > 2.0 * tol {
        return Err(format!(
            "|point - projection| = {} but distance {d}",
            (p - q).norm()
        ));
    }
    Ok(d)
}

// ---------------------------------------------------------------------
// Check 4: contacts.
// ---------------------------------------------------------------------

fn is_proven(s: Status) -> bool {
    matches!(s, Status::Exact | Status::Converged)
}

/// The contacts of `a` against `b` and the count `collide` returned.
fn run_collide<R: Real>(
    a: &Collider<'_, R>,
    pa: &Iso3<R>,
    b: &Collider<'_, R>,
    pb: &Iso3<R>,
    margin: f64,
    max_points: usize,
) -> (Vec<ContactPoint<R>>, usize) {
    let mut out = Vec::new();
    let params = ContactParams::new().with_margin(R::lit(margin));
    let n = collide(a, pa, b, pb, &params, max_points, |c| out.push(c));
    (out, n)
}

/// The checks every contact list passes.
fn check_points<R: Real>(
    pts: &[ContactPoint<R>],
    n: usize,
    max_points: usize,
    margin: f64,
    tol: f64,
    order: &str,
) -> Result<(), String> {
    if n != pts.len() {
        return Err(format!("{order}: returned {n}, emitted {}", pts.len()));
    }
    if n > max_points {
        return Err(format!("{order}: {n} points, max_points {max_points}"));
    }
    for p in pts {
        if !(p.position.is_finite() && p.normal.is_finite() && p.depth.finite()) {
            return Err(format!("{order}: non-finite {p:?}"));
        }
        if (p.normal.cast::<f64>().norm() - 1.0).abs() > 1e-3 {
            return Err(format!("{order}: normal not unit {p:?}"));
        }
        if p.depth.to_f64() < -margin - tol {
            return Err(format!("{order}: depth below -margin {margin}: {p:?}"));
        }
    }
    Ok(())
}

/// Checks the contacts of collider and shape; returns the verdict and
/// whether it sat in a band where either is right.
fn check_contacts<R: Real>(s: &Scene<'_, '_, R>) -> Result<Option<(bool, bool)>, String> {
    let Some(shape) = s.shape else {
        return Ok(None);
    };
    let tol = s.tol;
    let other = Collider::Convex(*shape);
    let (ab, n_ab) = run_collide(
        &s.collider,
        &s.pose,
        &other,
        &s.shape_pose,
        s.margin,
        s.max_points,
    );
    let (ba, n_ba) = run_collide(
        &other,
        &s.shape_pose,
        &s.collider,
        &s.pose,
        s.margin,
        s.max_points,
    );
    let is_half = matches!(shape, Shape::HalfSpace(_));
    if is_half && matches!(s.model, Model::Field(_)) {
        if n_ab != 0 || n_ba != 0 || !ab.is_empty() || !ba.is_empty() {
            return Err(format!(
                "a half-space against a height field gave {ab:?} / {ba:?}"
            ));
        }
        return Ok(None);
    }
    check_points(&ab, n_ab, s.max_points, s.margin, tol, "collider-shape")?;
    check_points(&ba, n_ba, s.max_points, s.margin, tol, "shape-collider")?;
    // Mirrored bit for bit (`collide`: a height field or a mesh and any
    // other collider).
    let mirrored: Vec<ContactPoint<R>> = ab.iter().map(|c| c.mirrored()).collect();
    if mirrored != ba {
        return Err(format!("swapped order is not the mirror: {ab:?} vs {ba:?}"));
    }
    if s.max_points == 0 {
        return if ab.is_empty() {
            Ok(None)
        } else {
            Err(format!("max_points 0 gave {ab:?}"))
        };
    }
    let placed = Placed {
        shape,
        pose: s.shape_pose,
        margin: R::ZERO,
    };
    let non_empty = !ab.is_empty();
    match &s.collider {
        Collider::HeightField(field) => {
            // The smallest prism-to-shape distance.
            let (cx, cy) = field.cell_counts();
            let mut dmin = f64::INFINITY;
            let mut proven = true;
            let mut prisms: Vec<TerrainPrism<R>> = Vec::new();
            for j in 0..cy {
                for i in 0..cx {
                    prisms.extend(field.cell_prisms(i, j).into_iter().flatten());
                }
            }
            for prism in &prisms {
                let ps = Shape::TerrainPrism(*prism);
                let dd = distance(&Body::new(&ps, s.pose), &placed.body(), Method::Auto);
                proven &= is_proven(dd.status);
                dmin = dmin.min(dd.distance.to_f64());
            }
            let band = (dmin - s.margin).abs() <= tol || !proven;
            if !band && non_empty != (dmin < s.margin) {
                return Err(format!(
                    "{} contacts at prism distance {dmin}, margin {}: {ab:?}",
                    ab.len(),
                    s.margin
                ));
            }
            // Every depth at most the overlap along its normal with a prism.
            for c in &ab {
                let nrm: V = c.normal.cast::<f64>().normalize_or(Vec3::Z);
                let bound = prisms
                    .iter()
                    .map(|p| {
                        let ps = Shape::TerrainPrism(*p);
                        let pp = Placed {
                            shape: &ps,
                            pose: s.pose,
                            margin: R::ZERO,
                        };
                        overlap_along(&pp, &placed, nrm)
                    })
                    .fold(f64::NEG_INFINITY, f64::max);
                if c.depth.to_f64() > bound + tol {
                    return Err(format!(
                        "depth {} beyond every prism's overlap along the normal ({bound}): {c:?}",
                        c.depth.to_f64()
                    ));
                }
            }
            Ok(Some((non_empty, band)))
        }
        Collider::Mesh(body) => {
            let Model::Mesh(soup) = &s.model else {
                return Ok(None);
            };
            let field_err = 3f64.sqrt() * s.cell;
            // Must: a mesh vertex in the shape deeper than the margin.
            let point = Shape::Point(Point);
            let mut vertex_in = false;
            let mut vertex_band = false;
            for v in body.mesh.vertices() {
                let w = s.pose.transform_point(*v);
                let dd = distance(
                    &Body::new(&point, Iso3::from_translation(w)),
                    &placed.body(),
                    Method::Auto,
                );
                if dd.status.is_answer() {
                    let x = dd.distance.to_f64();
                    vertex_in |= is_proven(dd.status) && x < s.margin - tol;
                    vertex_band |= (x - s.margin).abs() <= tol;
                }
            }
            // The smallest triangle distance, and a point of the shape.
            let mut dmin = f64::INFINITY;
            let mut witness = None;
            let mut proven = true;
            for t in 0..body.mesh.triangles().len() {
                let Some(tri) = body.mesh.triangle(t) else {
                    continue;
                };
                let tw = tri.map(|v| s.pose.transform_point(v));
                let Ok(tr) = Triangle::new(tw[0], tw[1], tw[2]) else {
                    // A sliver the constructor refuses: its edges are
                    // shared with its neighbours, which are measured.
                    continue;
                };
                let ts = Shape::Triangle(tr);
                let dd = distance(
                    &Body::new(&ts, Iso3::IDENTITY),
                    &placed.body(),
                    Method::Auto,
                );
                proven &= is_proven(dd.status);
                let x = dd.distance.to_f64();
                if x < dmin {
                    dmin = x;
                    witness = Some(dd.p_b.cast::<f64>());
                }
            }
            let wholly_inside = witness.is_some_and(|w| soup.inside(w));
            let must = vertex_in
                || (proven && wholly_inside && dmin > field_err + tol - s.margin && dmin > tol);
            let must_not = proven && !wholly_inside && dmin > s.margin + field_err + tol;
            if must && !non_empty {
                return Err(format!(
                    "no contact: a mesh vertex in the shape ({vertex_in}) or the shape inside (distance {dmin}, inside {wholly_inside}), margin {}",
                    s.margin
                ));
            }
            if must_not && non_empty {
                return Err(format!(
                    "contacts at triangle distance {dmin} > margin {} + field error {field_err}: {ab:?}",
                    s.margin
                ));
            }
            // A half-space is unbounded: a mesh vertex's depth below its
            // plane is bounded by no size.
            let bound = if is_half {
                f64::INFINITY
            } else {
                s.extent + field_err
            };
            for c in &ab {
                if c.depth.to_f64() > bound + tol {
                    return Err(format!("depth beyond both sizes {bound}: {c:?}"));
                }
            }
            let band = !(must || must_not) || vertex_band;
            Ok(Some((non_empty, band)))
        }
        _ => Ok(None),
    }
}

// ---------------------------------------------------------------------
// Decoding the scene.
// ---------------------------------------------------------------------

/// A world point on the terrain's top at the field-frame xy `(x, y)`.
fn terrain_point(t: &Terrain, x: f64, y: f64) -> V {
    t.pose.transform_point(Vec3::new(x, y, t.surface(x, y)))
}

/// The pose putting `shape` (turned by `rot`) with its lowest point along
/// the unit `up` at `at`, moved by `off` along `up`.
fn rest_on<R: Real>(
    shape: &Shape<'_, R>,
    rot: mink::support::Mat3<R>,
    up: V,
    at: V,
    off: f64,
) -> Iso3<R> {
    let reach = shape_reach(shape, &Iso3::from_parts(rot, Vec3::ZERO), -up);
    let reach = if reach.is_finite() { reach } else { 0.0 };
    Iso3::from_parts(rot, (at + up * (reach + off)).cast())
}

/// Decodes `data` in scalar `R` and checks every query (module docs):
/// what it checked, or the first check that failed.
pub fn check_bytes<R: Real>(data: &[u8]) -> Result<ColliderOutcome, String> {
    let mut r = ByteReader::new(data);
    let sel = r.u8() % 8;
    if sel == 7 {
        return check_deep::<R>(&mut r);
    }
    let is_field = sel < 4;
    let fspec: Option<FieldSpec<R>>;
    let mspec: Option<MeshSpec<R>>;
    let field;
    let (collider, extent, cell) = if is_field {
        fspec = decode_height_field::<R>(&mut r);
        let Some(f) = fspec.as_ref() else {
            return Ok(ColliderOutcome::Refused);
        };
        let Some(hf) = f.field() else {
            return Ok(ColliderOutcome::Refused);
        };
        field = hf;
        (Collider::HeightField(field), f.extent(), 0.0)
    } else {
        mspec = decode_mesh::<R>(&mut r);
        let Some(m) = mspec.as_ref() else {
            return Ok(ColliderOutcome::Refused);
        };
        (
            Collider::Mesh(m.body()),
            m.extent(),
            m.field.grid().cell.to_f64(),
        )
    };
    let pose: Iso3<R> = decode_pose(&mut r, extent);
    let spec: Option<ShapeSpec<R>> = decode_shape::<R>(&mut r);
    let shape = spec.as_ref().and_then(|s| s.shape());
    let s_extent = spec.as_ref().map_or(0.02, |s| s.extent().max(0.02));
    let margin = decode_margin(&mut r, s_extent);
    let model = match &collider {
        Collider::HeightField(f) => Model::Field(Terrain::new(f, &pose)),
        Collider::Mesh(b) => {
            let m = TriMesh::new(b.mesh.vertices(), b.mesh.triangles());
            match m {
                Ok(m) => Model::Mesh(Soup::new(&m, &pose)),
                Err(_) => return Ok(ColliderOutcome::Refused),
            }
        }
        _ => return Ok(ColliderOutcome::Refused),
    };
    let centre: V = match &collider {
        Collider::HeightField(f) => {
            let b = f.local_aabb();
            pose.cast::<f64>()
                .transform_point(((b.min + b.max) * R::HALF).cast())
        }
        _ => pose.translation.cast(),
    };
    let up: V = match &model {
        Model::Field(t) => t.up(),
        Model::Mesh(_) => Vec3::Z,
    };
    // The shape's placement.
    let place = r.u8() % 8;
    let rot = decode_rotation::<R>(&mut r);
    let shape_pose: Iso3<R> = match (&model, shape.as_ref()) {
        (Model::Field(t), Some(sh)) => {
            let (fx, fy) = (length(&mut r, -0.1, 1.1), length(&mut r, -0.1, 1.1));
            let (x, y) = (fx * t.x1(), fy * t.y1());
            let g = gap(&mut r) * s_extent;
            match place {
                0 | 1 => rest_on(sh, rot, up, terrain_point(t, x, y), g),
                2 => {
                    let depth = frac(&mut r) * (t.surface(x, y) - t.base);
                    Iso3::from_parts(rot, (terrain_point(t, x, y) - up * depth).cast())
                }
                3 => {
                    // Over a line of samples (a cliff on a terraced field).
                    let i = usize::from(r.u8()) % t.nx;
                    let x = t.dx * i as f64;
                    let z = t.surface(x - 1e-9, y).max(t.surface(x + 1e-9, y));
                    rest_on(sh, rot, up, t.pose.transform_point(Vec3::new(x, y, z)), g)
                }
                4 => {
                    // Against an outer wall (x = 0 or x = end), from outside.
                    let right = r.u8() & 1 == 1;
                    let x = if right { t.x1() } else { 0.0 };
                    let out = if right { Vec3::X } else { -Vec3::X };
                    let z = t.base + frac(&mut r) * (t.surface(x, y) - t.base);
                    let at = t.pose.transform_point(Vec3::new(x, y, z));
                    rest_on(sh, rot, t.pose.rotation.mul_vec(out), at, g)
                }
                _ => {
                    let p: Iso3<R> = decode_pose(&mut r, extent + s_extent);
                    Iso3::from_parts(rot, p.translation + centre.cast())
                }
            }
        }
        (Model::Mesh(soup), Some(sh)) => match place {
            0..=3 => {
                let u = direction(&mut r);
                let reach = soup
                    .tris
                    .iter()
                    .flat_map(|t| t.iter())
                    .map(|v| v.dot(u))
                    .fold(f64::NEG_INFINITY, f64::max);
                let g = gap(&mut r) * s_extent;
                let side = direction(&mut r) * (0.3 * extent);
                let lateral = side - u * side.dot(u);
                let at = centre + lateral + u * (reach - centre.dot(u));
                rest_on(sh, rot, u, at, g)
            }
            4 | 5 => {
                let off = direction(&mut r) * (0.2 * extent * frac(&mut r));
                Iso3::from_parts(rot, (centre + off).cast())
            }
            _ => {
                let p: Iso3<R> = decode_pose(&mut r, extent + s_extent);
                Iso3::from_parts(rot, p.translation + centre.cast())
            }
        },
        _ => Iso3::IDENTITY,
    };
    // The ray.
    let mode = r.u8();
    let scale = [1.0, 1e-3, 30.0, 0.37][usize::from((mode >> 3) & 3)];
    let solid = mode & 0x20 == 0;
    let (origin, dir): (V, V) = match &model {
        Model::Field(t) => {
            let (x, y) = (
                length(&mut r, -0.1, 1.1) * t.x1(),
                length(&mut r, -0.1, 1.1) * t.y1(),
            );
            let surf = terrain_point(t, x, y);
            match mode % 8 {
                0 => (surf + up * (extent * (0.05 + frac(&mut r))), -up),
                1 => {
                    let g = gap(&mut r) * extent;
                    let a = frac(&mut r) * core::f64::consts::TAU;
                    let h = t.pose.rotation.mul_vec(Vec3::new(a.cos(), a.sin(), 0.0));
                    (surf + up * g - h * extent, h)
                }
                2 => {
                    let depth = frac(&mut r) * (t.surface(x, y) - t.base);
                    (surf - up * depth, direction(&mut r))
                }
                3 | 4 => {
                    let i = usize::from(r.u8()) % (t.nx - 1);
                    let j = usize::from(r.u8()) % (t.ny - 1);
                    let a = t.pose.transform_point(Vec3::new(
                        t.dx * i as f64,
                        t.dy * j as f64,
                        t.height(i, j),
                    ));
                    let b = t.pose.transform_point(Vec3::new(
                        t.dx * (i + 1) as f64,
                        t.dy * (j + 1) as f64,
                        t.height(i + 1, j + 1),
                    ));
                    if mode % 8 == 3 {
                        let o = a + direction(&mut r) * extent;
                        (o, a - o)
                    } else {
                        // Along the cell's diagonal edge, from before it.
                        let g = gap(&mut r) * extent;
                        (a - (b - a) * 0.5 + up * g, b - a)
                    }
                }
                _ => (
                    centre + direction(&mut r) * (2.0 * extent * frac(&mut r)),
                    direction(&mut r),
                ),
            }
        }
        Model::Mesh(soup) => {
            let k = usize::from(r.u16()) % soup.tris.len().max(1);
            let tri = soup.tris.get(k).copied().unwrap_or([centre; 3]);
            let [a, b, c] = tri;
            let mid = (a + b + c) * (1.0 / 3.0);
            match mode % 8 {
                0 => {
                    let o = a + direction(&mut r) * extent;
                    (o, a - o)
                }
                1 => (
                    centre + direction(&mut r) * (0.2 * extent * frac(&mut r)),
                    direction(&mut r),
                ),
                2 => {
                    let o = (a + b) * 0.5 + direction(&mut r) * extent;
                    (o, (a + b) * 0.5 - o)
                }
                3 => {
                    let o = mid + direction(&mut r) * extent;
                    (o, mid - o)
                }
                4 => {
                    // In the face's plane, from beyond an edge, at its middle.
                    let g = gap(&mut r) * extent;
                    let n = (b - a).cross(c - a).normalize_or(Vec3::Z);
                    let o = mid + (mid - (a + b) * 0.5) * -2.0 + n * g;
                    (o, mid - o)
                }
                _ => (
                    centre + direction(&mut r) * (2.0 * extent * frac(&mut r)),
                    direction(&mut r),
                ),
            }
        }
    };
    let dir = dir.normalize_or(Vec3::X) * scale;
    let max_toi = if mode & 0x40 == 0 {
        f64::INFINITY
    } else {
        // As the cast sees it (rounded to `R`).
        R::lit(3.0 * extent * frac(&mut r) / scale).to_f64()
    };
    let ray = Ray::new(origin.cast::<R>(), dir.cast::<R>());
    // The query point.
    let pmode = r.u8() % 8;
    let point: V = match &model {
        Model::Field(t) => {
            let (x, y) = (
                length(&mut r, -0.2, 1.2) * t.x1(),
                length(&mut r, -0.2, 1.2) * t.y1(),
            );
            let surf = terrain_point(t, x, y);
            let depth = t.surface(x, y) - t.base;
            match pmode {
                0 => surf + up * (extent * frac(&mut r)),
                1 => surf - up * (1.3 * depth * frac(&mut r)),
                2 => surf - up * (0.5 * depth),
                3 => surf + up * (gap(&mut r) * extent),
                _ => centre + direction(&mut r) * (2.0 * extent * frac(&mut r)),
            }
        }
        Model::Mesh(soup) => {
            let k = usize::from(r.u16()) % soup.tris.len().max(1);
            let [a, b, c] = soup.tris.get(k).copied().unwrap_or([centre; 3]);
            let (u, v) = (frac(&mut r), frac(&mut r));
            let (u, v) = if u + v > 1.0 {
                (1.0 - u, 1.0 - v)
            } else {
                (u, v)
            };
            let on = a + (b - a) * u + (c - a) * v;
            match pmode {
                0 => a + direction(&mut r) * (gap(&mut r) * extent),
                1 | 2 => centre + direction(&mut r) * (0.3 * extent * frac(&mut r)),
                3 => on,
                _ => centre + direction(&mut r) * (2.0 * extent * frac(&mut r)),
            }
        }
    };
    let point = round::<R>(point);
    let max_points = usize::from(r.u8() % 9);
    let motion: Iso3<R> = decode_pose(&mut r, extent);
    let size = extent
        + s_extent
        + pose.translation.cast::<f64>().norm()
        + shape_pose.translation.cast::<f64>().norm()
        + origin.norm()
        + point.norm()
        + margin;
    let tol = rel_tol::<R>() * size;
    let shape_ref = shape.as_ref();
    let scene = Scene {
        collider,
        pose,
        model,
        shape: shape_ref,
        shape_pose,
        margin,
        max_points,
        ray,
        max_toi,
        solid,
        point,
        tol,
        extent: extent + s_extent,
        cell,
    };
    let context = |e: String| {
        format!(
            "{e}\n  [{}] pose {pose:?}\n  shape {:?} at {shape_pose:?} margin {margin} max_points {max_points}\n  ray {ray:?} max_toi {max_toi} solid {solid}\n  point {point:?} tol {tol}",
            if is_field { "height field" } else { "mesh" },
            shape_ref.map(|s| s.name()),
        )
    };
    let first = answers(&scene).map_err(context)?;
    // Invariance under one rigid motion of everything.
    let moved_size = size + motion.translation.cast::<f64>().norm() * 4.0;
    let mtol = rel_tol::<R>() * moved_size;
    let m64 = motion.cast::<f64>();
    let moved_pose = motion.mul(&pose);
    let moved_model = match &scene.collider {
        Collider::HeightField(f) => Model::Field(Terrain::new(f, &moved_pose)),
        Collider::Mesh(b) => match TriMesh::new(b.mesh.vertices(), b.mesh.triangles()) {
            Ok(m) => Model::Mesh(Soup::new(&m, &moved_pose)),
            Err(_) => return Ok(ColliderOutcome::Refused),
        },
        _ => return Ok(ColliderOutcome::Refused),
    };
    let moved = Scene {
        collider: scene.collider,
        pose: moved_pose,
        model: moved_model,
        shape: shape_ref,
        shape_pose: motion.mul(&shape_pose),
        margin,
        max_points,
        ray: Ray::new(
            motion.transform_point(ray.origin),
            motion.rotation * ray.dir,
        ),
        max_toi,
        solid,
        point: round::<R>(m64.transform_point(point)),
        tol: mtol,
        extent: scene.extent,
        cell,
    };
    let second =
        answers(&moved).map_err(|e| context(format!("after the motion {motion:?}: {e}")))?;
    compare(&first, &second, mtol.max(tol), dir.norm())
        .map_err(|e| context(format!("after the motion {motion:?}: {e}")))?;
    Ok(match first {
        Answers {
            contact: Some(true),
            ..
        } => ColliderOutcome::Contacts,
        Answers {
            ray: RayStatus::Miss,
            ..
        } => ColliderOutcome::Miss,
        _ => ColliderOutcome::Hit,
    })
}

/// Runs checks 1–4 on a scene.
fn answers<R: Real>(s: &Scene<'_, '_, R>) -> Result<Answers, String> {
    let (ray, ray_loose) = check_ray(s).map_err(|e| format!("ray: {e}"))?;
    let distance = check_projection(s).map_err(|e| format!("projection: {e}"))?;
    let contact = check_contacts(s).map_err(|e| format!("contacts: {e}"))?;
    Ok(Answers {
        ray: ray.status,
        toi: ray.toi.to_f64(),
        ray_loose,
        distance,
        contact: contact.map(|c| c.0),
        contact_loose: contact.is_none_or(|c| c.1),
    })
}

/// Check 6: the answers before and after a rigid motion agree.
fn compare(a: &Answers, b: &Answers, tol: f64, len: f64) -> Result<(), String> {
    if !(a.ray_loose || b.ray_loose) {
        if a.ray != b.ray {
            return Err(format!(
                "ray status {:?} (toi {}) then {:?} (toi {})",
                a.ray, a.toi, b.ray, b.toi
            ));
        }
        if (a.toi - b.toi).abs() * len > 2.0 * tol {
            return Err(format!("toi {} then {}", a.toi, b.toi));
        }
    }
    if (a.distance - b.distance).abs() > 2.0 * tol {
        return Err(format!(
            "projection distance {} then {}",
            a.distance, b.distance
        ));
    }
    if !(a.contact_loose || b.contact_loose) && a.contact != b.contact {
        return Err(format!("in contact {:?} then {:?}", a.contact, b.contact));
    }
    Ok(())
}

// ---------------------------------------------------------------------
// Check 5: the deep fallback.
// ---------------------------------------------------------------------

/// A decoded mesh's hull: the shape, its surface mesh and field.
struct HullBody<R: Real> {
    hull: ConvexHull<R>,
    field: OwnedSdf<R>,
    mesh: TriMesh<R>,
    extent: f64,
}

fn decode_hull<R: Real>(r: &mut ByteReader<'_>) -> Option<HullBody<R>> {
    let spec = decode_mesh::<R>(r)?;
    let hull = ConvexHull::from_points(spec.mesh.vertices()).ok()?;
    let extent = spec.extent();
    if !spec.dented {
        // The mesh is already the hull's surface.
        return Some(HullBody {
            hull,
            field: spec.field,
            mesh: spec.mesh,
            extent,
        });
    }
    let mesh = TriMesh::from_hull(&hull.view()).ok()?;
    let resolution = 4 + u32::from(r.u8() % 12);
    let field = OwnedSdf::build(&mesh, SdfOptions::new(resolution, R::lit(0.1 * extent))).ok()?;
    Some(HullBody {
        hull,
        field,
        mesh,
        extent,
    })
}

fn check_deep<R: Real>(r: &mut ByteReader<'_>) -> Result<ColliderOutcome, String> {
    let (Some(a), Some(b)) = (decode_hull::<R>(r), decode_hull::<R>(r)) else {
        return Ok(ColliderOutcome::Refused);
    };
    let (sa, sb) = (Shape::Hull(a.hull.view()), Shape::Hull(b.hull.view()));
    let (fa, fb) = (
        SdfBody::new(a.mesh.view(), a.field.view()),
        SdfBody::new(b.mesh.view(), b.field.view()),
    );
    let (ca, cb) = (
        Collider::ConvexWithField(sa, fa),
        Collider::ConvexWithField(sb, fb),
    );
    let unit = a.extent.max(b.extent);
    let pose_a: Iso3<R> = decode_pose(r, unit);
    let rot = decode_rotation::<R>(r);
    let pose_b: Iso3<R> = match r.u8() % 4 {
        // Nested, sunk deep: the case the fallback exists for.
        0 | 1 => {
            let off = direction(r) * (0.5 * unit * frac(r));
            Iso3::from_parts(rot, pose_a.translation + off.cast())
        }
        2 => {
            let u = direction(r);
            let pa = Placed {
                shape: &sa,
                pose: pose_a,
                margin: R::ZERO,
            };
            let g = gap(r) * unit;
            let at = pose_a.translation.cast::<f64>()
                + u * (pa.reach(u) - pose_a.translation.cast::<f64>().dot(u));
            rest_on(&sb, rot, u, at, g)
        }
        _ => {
            let p: Iso3<R> = decode_pose(r, 2.0 * unit);
            Iso3::from_parts(rot, p.translation)
        }
    };
    let margin = decode_margin(r, unit);
    let max_points = 1 + usize::from(r.u8() % 8);
    let size = a.extent
        + b.extent
        + pose_a.translation.cast::<f64>().norm()
        + pose_b.translation.cast::<f64>().norm()
        + margin;
    let tol = rel_tol::<R>() * size;
    let pa = Placed {
        shape: &sa,
        pose: pose_a,
        margin: R::ZERO,
    };
    let pb = Placed {
        shape: &sb,
        pose: pose_b,
        margin: R::ZERO,
    };
    let context =
        |e: String| format!("deep: {e}\n  A {pa:?}\n  B {pb:?}\n  margin {margin} tol {tol}");
    let (pts, n) = run_collide(&ca, &pose_a, &cb, &pose_b, margin, max_points);
    check_points(&pts, n, max_points, margin, tol, "A-B").map_err(context)?;
    let over = intersect(&pa.body(), &pb.body(), Method::Auto);
    let dist = distance(&pa.body(), &pb.body(), Method::Auto);
    let deepest = pts
        .iter()
        .map(|p| p.depth.to_f64())
        .fold(f64::NEG_INFINITY, f64::max);
    if over.status.is_answer() && over.intersecting {
        if pts.is_empty() {
            return Err(context("GJK says they overlap, no contact".into()));
        }
        if deepest < -tol {
            return Err(context(format!("overlapping, deepest depth {deepest}")));
        }
    }
    if is_proven(dist.status) && dist.distance.to_f64() > margin + tol && !pts.is_empty() {
        return Err(context(format!(
            "contacts at distance {}: {pts:?}",
            dist.distance.to_f64()
        )));
    }
    if let Some(first) = pts.first() {
        let nrm: V = first.normal.cast::<f64>().normalize_or(Vec3::Z);
        let along = overlap_along(&pa, &pb, nrm);
        if deepest > along + tol {
            return Err(context(format!(
                "deepest {deepest} beyond the overlap {along} along its normal {nrm:?}"
            )));
        }
        // Not checked against `sampled_depth_bound`: the fallback's depth is
        // the overlap along the best of its candidate axes (the fields',
        // the first contact's, EPA's), "an upper bound on the exact depth,
        // equal to it when the axis is optimal" (`collider/deep.rs`), so a
        // sampled direction may overlap less (a small hull deep inside a
        // large box: 11.9 m along its axis, 6.6 m along a box face). The
        // bound is kept as a loose sanity limit: no deeper than the
        // sampled bound plus the larger shape's size.
        let bound = sampled_depth_bound(&pa, &pb) + unit;
        if deepest > bound + tol {
            return Err(context(format!(
                "deepest {deepest} beyond the sampled-direction bound plus the size, {bound}: {pts:?}"
            )));
        }
    }
    Ok(ColliderOutcome::Deep)
}
