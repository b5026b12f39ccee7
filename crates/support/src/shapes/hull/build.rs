//! Quickhull: the exact convex hull of a point cloud, as triangles.
//!
//! Built in `f64` whatever the scalar, with the exact [`orient`] predicate
//! deciding which faces a point sees, so the triangulation is always a
//! closed, consistently oriented, convex surface whatever coincident,
//! collinear or coplanar points the input holds: a point waits on a face
//! only if it is truly above it, and each addition replaces exactly the
//! faces the new point sees (a disk). Rounded distances only choose which
//! point to add next (the farthest). Flatness is handled afterwards, with
//! the tolerance `τ`: [`super::merge`] merges the triangles into planar
//! faces and drops the vertices that stopped being corners.

use super::predicates::orient;
use crate::{Real, ShapeError, Vec3};
use alloc::vec;
use alloc::vec::Vec;

/// The builder's tolerance `τ`, in units of [`Real::EPSILON`] of the hull's
/// scalar times the point cloud's size (its largest absolute coordinate):
/// neighbouring triangles whose vertices are within `τ` of one plane are
/// merged into one face, vertices within `τ` of the line through their
/// neighbours along an edge are dropped, and the cloud must extend more than
/// `τ` in three dimensions. About `7.6e-6` relative in `f32`, `1.4e-14` in
/// `f64`.
pub const HULL_TOLERANCE_FACTOR: f64 = 64.0;

/// The largest coordinate magnitude the builder accepts (meters): the exact
/// predicate multiplies three coordinates, which must not overflow `f64`.
pub const MAX_HULL_COORDINATE: f64 = 1.0e100;

/// Marks "no triangle" in adjacency and bookkeeping arrays.
pub(crate) const NONE: u32 = u32::MAX;

/// A triangle of the hull under construction, counter-clockwise seen from
/// outside.
pub(crate) struct Tri {
    /// Point indices.
    pub v: [u32; 3],
    /// `adj[i]`: the triangle across edge `v[i] → v[i + 1]`.
    pub adj: [u32; 3],
    /// Unit outward normal (zero for a degenerate triangle).
    pub n: Vec3<f64>,
    /// Plane offset: `n · p` for points on the plane.
    pub d: f64,
    pub alive: bool,
    /// Points above this triangle (exactly), not yet on the hull.
    outside: Vec<u32>,
    /// The farthest of `outside` and its distance.
    far: (u32, f64),
}

/// The result of [`quickhull`]: the points (as `f64`), the tolerance `τ`
/// and the triangles (dead ones included, marked).
pub(crate) struct Triangulation {
    pub points: Vec<Vec3<f64>>,
    pub tau: f64,
    pub scale: f64,
    pub tris: Vec<Tri>,
}

#[inline(always)]
fn arr(p: Vec3<f64>) -> [f64; 3] {
    [p.x, p.y, p.z]
}

/// The plane of triangle `a b c`: the cross product of its two shortest
/// edges (the best conditioned choice), normalized.
fn plane(a: Vec3<f64>, b: Vec3<f64>, c: Vec3<f64>) -> (Vec3<f64>, f64) {
    let (ab, bc, ca) = (b - a, c - b, a - c);
    let (lab, lbc, lca) = (ab.norm_squared(), bc.norm_squared(), ca.norm_squared());
    // Each pair's cross product equals (b - a) × (c - a) in exact arithmetic.
    let raw = if lab >= lbc && lab >= lca {
        bc.cross(ca)
    } else if lbc >= lca {
        ca.cross(ab)
    } else {
        ab.cross(bc)
    };
    match raw.try_normalize() {
        Some(n) => (n, (n.dot(a) + n.dot(b) + n.dot(c)) / 3.0),
        None => (Vec3::ZERO, 0.0),
    }
}

impl Tri {
    fn new(v: [u32; 3], pts: &[Vec3<f64>]) -> Self {
        let (n, d) = plane(pts[v[0] as usize], pts[v[1] as usize], pts[v[2] as usize]);
        Self {
            v,
            adj: [NONE; 3],
            n,
            d,
            alive: true,
            outside: Vec::new(),
            far: (NONE, 0.0),
        }
    }

    #[inline(always)]
    fn distance(&self, p: Vec3<f64>) -> f64 {
        self.n.dot(p) - self.d
    }

    fn push_outside(&mut self, i: u32, dist: f64) {
        if self.outside.is_empty() || dist > self.far.1 {
            self.far = (i, dist);
        }
        self.outside.push(i);
    }

    /// `true` when point `p` is strictly above this triangle's plane (exact).
    fn sees(&self, pts: &[Vec3<f64>], p: Vec3<f64>) -> bool {
        let [a, b, c] = self.v.map(|i| arr(pts[i as usize]));
        orient(a, b, c, arr(p)) > 0
    }
}

/// Validates the input and returns it as `f64` with its scale (largest
/// absolute coordinate) and `τ`.
fn prepare<R: Real>(points: &[Vec3<R>]) -> Result<(Vec<Vec3<f64>>, f64, f64), ShapeError> {
    if points.len() < 4 {
        return Err(ShapeError::TooFewPoints {
            needed: 4,
            given: points.len(),
        });
    }
    if points.iter().any(|p| !p.is_finite()) {
        return Err(ShapeError::NonFinite("hull point"));
    }
    if points
        .iter()
        .any(|p| p.max_abs().to_f64() > MAX_HULL_COORDINATE)
    {
        return Err(ShapeError::Capacity(
            "hull coordinates beyond MAX_HULL_COORDINATE",
        ));
    }
    if points.len() >= NONE as usize / 4 {
        return Err(ShapeError::Capacity("hull input points"));
    }
    let pts: Vec<Vec3<f64>> = points.iter().map(|p| p.cast::<f64>()).collect();
    let scale = pts.iter().fold(0.0f64, |m, p| m.max(p.max_abs()));
    let tau = HULL_TOLERANCE_FACTOR * R::EPSILON.to_f64() * scale;
    Ok((pts, scale, tau))
}

/// The four points of the starting tetrahedron, as far apart as the axis
/// extremes allow, or the error naming the missing dimension.
fn initial_simplex(pts: &[Vec3<f64>], tau: f64) -> Result<[u32; 4], ShapeError> {
    let mut lo = [0usize; 3];
    let mut hi = [0usize; 3];
    for (i, p) in pts.iter().enumerate() {
        for k in 0..3 {
            if p.get(k) < pts[lo[k]].get(k) {
                lo[k] = i;
            }
            if p.get(k) > pts[hi[k]].get(k) {
                hi[k] = i;
            }
        }
    }
    let extent = |k: usize| pts[hi[k]].get(k) - pts[lo[k]].get(k);
    let axis = (0..3).fold(0, |b, k| if extent(k) > extent(b) { k } else { b });
    if extent(axis) <= tau {
        return Err(ShapeError::Degenerate("hull points coincide"));
    }
    let (i0, i1) = (lo[axis], hi[axis]);
    let (p0, p1) = (pts[i0], pts[i1]);
    let u = (p1 - p0).normalize_or(Vec3::X);
    let (i2, d2) = farthest(pts, |p| (p - p0).cross(u).norm());
    if d2 <= tau {
        return Err(ShapeError::Degenerate("hull points are collinear"));
    }
    let (n, _) = plane(p0, p1, pts[i2]);
    let (i3, d3) = farthest(pts, |p| n.dot(p - p0).abs());
    if d3 <= tau {
        return Err(ShapeError::Degenerate("hull points are coplanar"));
    }
    let base = [i0 as u32, i1 as u32, i2 as u32];
    let top = i3 as u32;
    // The base must face away from the fourth point.
    let above = orient(arr(p0), arr(p1), arr(pts[i2]), arr(pts[i3]));
    Ok(if above > 0 {
        [base[0], base[2], base[1], top]
    } else {
        [base[0], base[1], base[2], top]
    })
}

fn farthest(pts: &[Vec3<f64>], dist: impl Fn(Vec3<f64>) -> f64) -> (usize, f64) {
    let mut best = (0, -1.0);
    for (i, p) in pts.iter().enumerate() {
        let d = dist(*p);
        if d > best.1 {
            best = (i, d);
        }
    }
    best
}

/// Links every edge of the triangles `ids` to its reverse among them
/// (brute force; for the starting tetrahedron).
fn link_all(tris: &mut [Tri], ids: &[u32]) {
    for &t in ids {
        for i in 0..3 {
            let (a, b) = (tris[t as usize].v[i], tris[t as usize].v[(i + 1) % 3]);
            for &u in ids {
                let tv = tris[u as usize].v;
                if (0..3).any(|j| tv[j] == b && tv[(j + 1) % 3] == a) {
                    tris[t as usize].adj[i] = u;
                }
            }
        }
    }
}

/// The hull's triangulation. Errors: too few points, a non-finite point, no
/// volume (coincident, collinear or coplanar within `τ`), and (never seen,
/// but reported rather than hidden) an internal inconsistency.
pub(crate) fn quickhull<R: Real>(points: &[Vec3<R>]) -> Result<Triangulation, ShapeError> {
    let (pts, scale, tau) = prepare(points)?;
    let [a, b, c, d] = initial_simplex(&pts, tau)?;
    let mut tris: Vec<Tri> = [[a, b, c], [a, d, b], [b, d, c], [c, d, a]]
        .iter()
        .map(|&v| Tri::new(v, &pts))
        .collect();
    link_all(&mut tris, &[0, 1, 2, 3]);
    let first = [0, 1, 2, 3];
    for (i, p) in pts.iter().enumerate() {
        let i = i as u32;
        if [a, b, c, d].contains(&i) {
            continue;
        }
        if let Some((t, dist)) = home(&tris, &pts, *p, &first) {
            tris[t as usize].push_outside(i, dist);
        }
    }
    let mut builder = Builder {
        pts,
        tris,
        free: Vec::new(),
        mark: Vec::new(),
        stamp: 0,
        start_of: Vec::new(),
        start_stamp: Vec::new(),
    };
    builder.run()?;
    Ok(Triangulation {
        points: builder.pts,
        tau,
        scale,
        tris: builder.tris,
    })
}

struct Builder {
    pts: Vec<Vec3<f64>>,
    tris: Vec<Tri>,
    free: Vec<u32>,
    /// Per triangle: the stamp of the addition that found it visible.
    mark: Vec<u32>,
    stamp: u32,
    /// Per point: the new triangle whose horizon edge starts there.
    start_of: Vec<u32>,
    start_stamp: Vec<u32>,
}

/// One horizon edge: `a → b` on the visible side, and the hidden triangle
/// across it with its edge index.
struct HorizonEdge {
    a: u32,
    b: u32,
    hidden: u32,
    hidden_edge: usize,
}

fn internal<T>() -> Result<T, ShapeError> {
    Err(ShapeError::Degenerate(
        "hull construction became inconsistent",
    ))
}

impl Builder {
    fn run(&mut self) -> Result<(), ShapeError> {
        let mut work: Vec<u32> = (0..self.tris.len() as u32).collect();
        self.start_of = vec![NONE; self.pts.len()];
        self.start_stamp = vec![0; self.pts.len()];
        // Each addition takes one point off the outside lists for good
        // (onto the hull, or dropped), so there are at most as many
        // additions as points; the cap reports a bug rather than spin.
        let max_additions = self.pts.len();
        for _ in 0..=max_additions {
            // Popping shrinks `work`, so this finds the next job or ends.
            let job = loop {
                match work.pop() {
                    None => break None,
                    Some(t) => {
                        let tri = &self.tris[t as usize];
                        if tri.alive && !tri.outside.is_empty() {
                            break Some((t, tri.far.0));
                        }
                    }
                }
            };
            let Some((t, p)) = job else {
                return Ok(());
            };
            self.add_point(t, p, &mut work)?;
        }
        Err(ShapeError::Capacity("hull build iterations"))
    }

    /// Adds point `p`, the farthest outside triangle `t`.
    fn add_point(&mut self, t: u32, p: u32, work: &mut Vec<u32>) -> Result<(), ShapeError> {
        let pp = self.pts[p as usize];
        let Some(seed) = self.visible_seed(t, pp) else {
            // Not truly outside any face: inside the hull after all.
            let tri = &mut self.tris[t as usize];
            tri.outside.retain(|&q| q != p);
            refresh_far(tri, &self.pts);
            work.push(t);
            return Ok(());
        };
        self.stamp = self.stamp.wrapping_add(1).max(1);
        if self.mark.len() < self.tris.len() {
            self.mark.resize(self.tris.len(), 0);
        }
        // Flood the visible faces (exact predicate: they form a disk).
        let mut visible = vec![seed];
        self.mark[seed as usize] = self.stamp;
        let mut horizon: Vec<HorizonEdge> = Vec::new();
        let mut k = 0;
        while k < visible.len() {
            let v = visible[k];
            k += 1;
            for i in 0..3 {
                let n = self.tris[v as usize].adj[i];
                if n == NONE {
                    return internal();
                }
                if self.mark[n as usize] == self.stamp {
                    continue;
                }
                if self.tris[n as usize].sees(&self.pts, pp) {
                    self.mark[n as usize] = self.stamp;
                    visible.push(n);
                } else {
                    let tv = self.tris[v as usize].v;
                    let (a, b) = (tv[i], tv[(i + 1) % 3]);
                    let nadj = self.tris[n as usize].adj;
                    let Some(j) = (0..3).find(|&j| nadj[j] == v) else {
                        return internal();
                    };
                    horizon.push(HorizonEdge {
                        a,
                        b,
                        hidden: n,
                        hidden_edge: j,
                    });
                }
            }
        }
        // Points waiting on visible faces need a new home.
        let mut orphans: Vec<u32> = Vec::new();
        for &v in &visible {
            let tri = &mut self.tris[v as usize];
            orphans.extend(tri.outside.drain(..).filter(|&q| q != p));
            tri.alive = false;
            self.free.push(v);
        }
        // The cone from p over the horizon.
        let mut cone: Vec<u32> = Vec::with_capacity(horizon.len());
        for h in &horizon {
            let tri = Tri::new([h.a, h.b, p], &self.pts);
            let id = match self.free.pop() {
                Some(id) => {
                    self.tris[id as usize] = tri;
                    id
                }
                None => {
                    self.tris.push(tri);
                    self.mark.push(0);
                    (self.tris.len() - 1) as u32
                }
            };
            self.tris[id as usize].adj[0] = h.hidden;
            self.tris[h.hidden as usize].adj[h.hidden_edge] = id;
            let a = h.a as usize;
            if self.start_stamp[a] == self.stamp {
                return internal(); // the horizon visits a vertex twice
            }
            self.start_stamp[a] = self.stamp;
            self.start_of[a] = id;
            cone.push(id);
        }
        for &id in &cone {
            let b = self.tris[id as usize].v[1] as usize;
            if self.start_stamp[b] != self.stamp {
                return internal(); // the horizon is not closed
            }
            let next = self.start_of[b];
            self.tris[id as usize].adj[1] = next;
            self.tris[next as usize].adj[2] = id;
        }
        for q in orphans {
            if let Some((t, dist)) = home(&self.tris, &self.pts, self.pts[q as usize], &cone) {
                self.tris[t as usize].push_outside(q, dist);
            }
        }
        work.extend(
            cone.iter()
                .filter(|&&id| !self.tris[id as usize].outside.is_empty()),
        );
        Ok(())
    }

    /// A triangle that `p` is exactly above: `t` itself almost always; when
    /// `t`'s rounded plane misled (`p` is almost on it), any live triangle
    /// `p` truly sees; `None` when `p` is inside the hull after all.
    fn visible_seed(&self, t: u32, p: Vec3<f64>) -> Option<u32> {
        if self.tris[t as usize].sees(&self.pts, p) {
            return Some(t);
        }
        let mut live = self.tris.iter().enumerate().filter(|(_, tri)| tri.alive);
        live.find(|(_, tri)| tri.sees(&self.pts, p))
            .map(|(id, _)| id as u32)
    }
}

/// The triangle among `candidates` that point `q` waits on: the one it is
/// farthest above (rounded distance) if it truly sees it, else any it truly
/// sees; `None` when it sees none, so lies inside the hull (a point outside
/// the new hull sees one of the faces that replaced those it saw).
fn home(tris: &[Tri], pts: &[Vec3<f64>], q: Vec3<f64>, candidates: &[u32]) -> Option<(u32, f64)> {
    let mut best: Option<(u32, f64)> = None;
    for &id in candidates {
        let dist = tris[id as usize].distance(q);
        if best.is_none_or(|b| dist > b.1) {
            best = Some((id, dist));
        }
    }
    let (id, dist) = best?;
    if tris[id as usize].sees(pts, q) {
        return Some((id, dist));
    }
    candidates
        .iter()
        .find(|&&id| tris[id as usize].sees(pts, q))
        .map(|&id| (id, tris[id as usize].distance(q)))
}

fn refresh_far(tri: &mut Tri, pts: &[Vec3<f64>]) {
    tri.far = (NONE, 0.0);
    let list = core::mem::take(&mut tri.outside);
    for &q in &list {
        let dist = tri.distance(pts[q as usize]);
        if tri.far.0 == NONE || dist > tri.far.1 {
            tri.far = (q, dist);
        }
    }
    tri.outside = list;
}
