//! From the builder's triangles to the hull's arrays: coplanar triangles
//! merged into planar faces, vertices that stopped being corners removed,
//! then planes, edges and neighbour lists.

use super::build::{Triangulation, NONE};
use super::predicates::loop_normal;
use super::topology::{FacePlane, HullEdge, HullIndex, MAX_HULL_ARRAY_LEN};
use crate::{Real, ShapeError, Vec3};
use alloc::vec;
use alloc::vec::Vec;

/// The tolerance stored with a built hull is this factor times the larger
/// of `τ` (see [`HULL_TOLERANCE_FACTOR`](super::HULL_TOLERANCE_FACTOR)) and
/// the flatness measured on the result (the largest distance of a face's
/// vertex from its plane, or of a neighbouring vertex above it), plus the
/// rounding [`HULL_STORAGE_ROUNDING_EPS`]. The margin covers the points
/// merged away, which lie within `τ` of a plane the face's own differs from
/// by up to `τ`; where an input point measures farther above a face plane
/// than that (a merged face's plane tilted off its triangles, seen from a
/// point far along a needle), the stored tolerance is that measured height
/// instead.
pub const HULL_FLATNESS_MARGIN: f64 = 2.0;

/// Rounding of the stored planes to the hull's scalar, in units of its
/// [`Real::EPSILON`] times the point cloud's size; added to the tolerance.
pub const HULL_STORAGE_ROUNDING_EPS: f64 = 8.0;

/// The owned arrays of a finished hull (see
/// [`HullArrays`](super::HullArrays) for their layout).
pub(crate) struct HullData<R> {
    pub vertices: Vec<Vec3<R>>,
    pub planes: Vec<FacePlane<R>>,
    pub face_starts: Vec<HullIndex>,
    pub face_vertices: Vec<HullIndex>,
    pub edges: Vec<HullEdge>,
    pub neighbor_starts: Vec<HullIndex>,
    pub neighbors: Vec<HullIndex>,
    pub tolerance: R,
}

fn internal<T>() -> Result<T, ShapeError> {
    Err(ShapeError::Degenerate(
        "hull construction became inconsistent",
    ))
}

/// Merges the triangulation into planar faces and lays out the arrays.
pub(crate) fn finish<R: Real>(tri: Triangulation) -> Result<HullData<R>, ShapeError> {
    let pts = &tri.points;
    let tau = tri.tau;
    // Live triangles, renumbered.
    let mut new_id = vec![NONE; tri.tris.len()];
    let mut live: Vec<usize> = Vec::new();
    for (i, t) in tri.tris.iter().enumerate() {
        if t.alive {
            new_id[i] = live.len() as u32;
            live.push(i);
        }
    }
    let tv: Vec<[u32; 3]> = live.iter().map(|&i| tri.tris[i].v).collect();
    let mut tadj: Vec<[u32; 3]> = Vec::with_capacity(live.len());
    for &i in &live {
        let adj = tri.tris[i].adj;
        let mut out = [NONE; 3];
        for k in 0..3 {
            out[k] = *new_id.get(adj[k] as usize).unwrap_or(&NONE);
            if out[k] == NONE {
                return internal();
            }
        }
        tadj.push(out);
    }
    let planes: Vec<(Vec3<f64>, f64)> = live
        .iter()
        .map(|&i| (tri.tris[i].n, tri.tris[i].d))
        .collect();
    let areas: Vec<f64> = tv
        .iter()
        .map(|v| {
            let [a, b, c] = v.map(|i| pts[i as usize]);
            (b - a).cross(c - a).norm()
        })
        .collect();

    let loops = merge_regions(pts, tau, &tv, &tadj, &planes, &areas)?;
    let loops = prune_collinear(pts, tau, loops);
    if loops.len() < 4 {
        // Everything merged into at most three faces: the cloud is flat
        // to within τ, though its extreme points were not.
        return Err(ShapeError::Degenerate("hull points are coplanar"));
    }
    layout::<R>(pts, tau, tri.scale, &loops)
}

/// Grows planar regions from the largest triangles and returns one vertex
/// loop (counter-clockwise from outside) per region.
fn merge_regions(
    pts: &[Vec3<f64>],
    tau: f64,
    tv: &[[u32; 3]],
    tadj: &[[u32; 3]],
    planes: &[(Vec3<f64>, f64)],
    areas: &[f64],
) -> Result<Vec<Vec<u32>>, ShapeError> {
    let nt = tv.len();
    let mut order: Vec<usize> = (0..nt).collect();
    order.sort_by(|&a, &b| areas[b].total_cmp(&areas[a]));
    let mut region_of = vec![NONE; nt];
    let mut loops: Vec<Vec<u32>> = Vec::new();
    let mut region: Vec<usize> = Vec::new();
    for &seed in &order {
        if region_of[seed] != NONE {
            continue;
        }
        let id = loops.len() as u32;
        let (n, d) = planes[seed];
        let near = |t: usize| {
            tv[t]
                .iter()
                .all(|&v| (n.dot(pts[v as usize]) - d).abs() <= tau)
        };
        region.clear();
        region.push(seed);
        region_of[seed] = id;
        let mut k = 0;
        while k < region.len() {
            let t = region[k];
            k += 1;
            for &u in &tadj[t] {
                let u = u as usize;
                if region_of[u] == NONE && near(u) {
                    region_of[u] = id;
                    region.push(u);
                }
            }
        }
        match boundary_loop(&region, id, tv, tadj, &region_of) {
            Some(lp) => loops.push(lp),
            None => {
                // Not a disk (never seen): keep the triangles as faces.
                region_of[seed] = id;
                loops.push(tv[seed].to_vec());
                for &t in &region[1..] {
                    region_of[t] = loops.len() as u32;
                    loops.push(tv[t].to_vec());
                }
            }
        }
    }
    Ok(loops)
}

/// The boundary of a region as one loop, or `None` when it is not a single
/// simple loop.
fn boundary_loop(
    region: &[usize],
    id: u32,
    tv: &[[u32; 3]],
    tadj: &[[u32; 3]],
    region_of: &[u32],
) -> Option<Vec<u32>> {
    let mut edges: Vec<(u32, u32)> = Vec::new();
    for &t in region {
        for k in 0..3 {
            if region_of[tadj[t][k] as usize] != id {
                edges.push((tv[t][k], tv[t][(k + 1) % 3]));
            }
        }
    }
    edges.sort_unstable();
    if edges.windows(2).any(|w| w[0].0 == w[1].0) || edges.len() < 3 {
        return None;
    }
    let mut lp = Vec::with_capacity(edges.len());
    let start = edges[0].0;
    let mut cur = start;
    for _ in 0..edges.len() {
        lp.push(cur);
        let k = edges.binary_search_by_key(&cur, |e| e.0).ok()?;
        cur = edges[k].1;
    }
    (cur == start).then_some(lp)
}

/// Removes loop vertices that lie on exactly two faces and within `τ` of the
/// line through their loop neighbours: they are points along an edge, not
/// corners. A face never drops below three vertices.
fn prune_collinear(pts: &[Vec3<f64>], tau: f64, mut loops: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    let mut faces_of: Vec<Vec<u32>> = vec![Vec::new(); pts.len()];
    for (f, lp) in loops.iter().enumerate() {
        for &v in lp {
            faces_of[v as usize].push(f as u32);
        }
    }
    for (v, faces) in faces_of.iter().enumerate() {
        let [f, g] = faces[..] else {
            continue;
        };
        let v = v as u32;
        let (f, g) = (f as usize, g as usize);
        if loops[f].len() <= 3 || loops[g].len() <= 3 {
            continue;
        }
        let Some((prev, next)) = around(&loops[f], v) else {
            continue;
        };
        // On the shared chain, g's loop passes v the other way.
        if around(&loops[g], v) != Some((next, prev)) {
            continue;
        }
        let (a, b, p) = (pts[prev as usize], pts[next as usize], pts[v as usize]);
        let dir = (b - a).normalize_or(Vec3::ZERO);
        let off_line = (p - a).cross(dir).norm();
        if dir != Vec3::ZERO && off_line <= tau {
            loops[f].retain(|&x| x != v);
            loops[g].retain(|&x| x != v);
        }
    }
    loops
}

/// The loop neighbours `(previous, next)` of `v` in `lp`.
fn around(lp: &[u32], v: u32) -> Option<(u32, u32)> {
    let n = lp.len();
    let i = lp.iter().position(|&x| x == v)?;
    Some((lp[(i + n - 1) % n], lp[(i + 1) % n]))
}

fn index(i: usize) -> Result<HullIndex, ShapeError> {
    HullIndex::try_from(i)
        .map_err(|_| ShapeError::Capacity("hull arrays longer than MAX_HULL_ARRAY_LEN"))
}

/// Planes, edges and neighbour lists from the face loops, with vertices
/// renumbered to those the loops use (in input order).
fn layout<R: Real>(
    pts: &[Vec3<f64>],
    tau: f64,
    scale: f64,
    loops: &[Vec<u32>],
) -> Result<HullData<R>, ShapeError> {
    let mut new_vertex = vec![NONE; pts.len()];
    for lp in loops {
        for &v in lp {
            new_vertex[v as usize] = 0;
        }
    }
    let mut vertices_f64: Vec<Vec3<f64>> = Vec::new();
    for (i, slot) in new_vertex.iter_mut().enumerate() {
        if *slot != NONE {
            *slot = vertices_f64.len() as u32;
            vertices_f64.push(pts[i]);
        }
    }
    let nv = vertices_f64.len();
    let total: usize = loops.iter().map(|l| l.len()).sum();
    if nv + 1 > MAX_HULL_ARRAY_LEN
        || loops.len() + 1 > MAX_HULL_ARRAY_LEN
        || total > MAX_HULL_ARRAY_LEN
    {
        return Err(ShapeError::Capacity(
            "hull arrays longer than MAX_HULL_ARRAY_LEN",
        ));
    }
    // Faces: loops renumbered, planes by Newell's method (summed exactly).
    let pts_arr: Vec<[f64; 3]> = pts.iter().map(|p| [p.x, p.y, p.z]).collect();
    let mut face_starts = vec![0 as HullIndex];
    let mut face_vertices: Vec<HullIndex> = Vec::with_capacity(total);
    let mut planes64: Vec<(Vec3<f64>, f64)> = Vec::with_capacity(loops.len());
    for lp in loops {
        let normal = match loop_normal(&pts_arr, lp) {
            Some([x, y, z]) => Vec3::new(x, y, z),
            None => newell_rounded(pts, lp),
        };
        let Some(n) = normal.try_normalize() else {
            return internal();
        };
        let offset = lp
            .iter()
            .map(|&v| n.dot(pts[v as usize]))
            .fold(f64::NEG_INFINITY, f64::max);
        planes64.push((n, offset));
        for &v in lp {
            face_vertices.push(index(new_vertex[v as usize] as usize)?);
        }
        face_starts.push(index(face_vertices.len())?);
    }
    // Edges: every directed loop edge paired with its reverse.
    let mut directed: Vec<(HullIndex, HullIndex, HullIndex, HullIndex)> = Vec::with_capacity(total);
    for f in 0..loops.len() {
        let (s, e) = (face_starts[f] as usize, face_starts[f + 1] as usize);
        let lp = &face_vertices[s..e];
        for k in 0..lp.len() {
            let (a, b) = (lp[k], lp[(k + 1) % lp.len()]);
            directed.push((a.min(b), a.max(b), a, f as HullIndex));
        }
    }
    directed.sort_unstable();
    if !directed.len().is_multiple_of(2) {
        return internal();
    }
    let mut edges: Vec<HullEdge> = Vec::with_capacity(directed.len() / 2);
    for pair in directed.chunks(2) {
        let (x, y) = (pair[0], pair[1]);
        if (x.0, x.1) != (y.0, y.1) || x.2 == y.2 || x.3 == y.3 {
            return internal();
        }
        let (lo, hi) = (x.0, x.1);
        // x runs x.2 → other in face x.3.
        let (start, end) = if x.2 == lo { (lo, hi) } else { (hi, lo) };
        edges.push(HullEdge::new([start, end], [x.3, y.3]));
    }
    // Neighbour lists by counting sort over the edges.
    let mut degree = vec![0usize; nv + 1];
    for e in &edges {
        degree[e.vertices[0] as usize + 1] += 1;
        degree[e.vertices[1] as usize + 1] += 1;
    }
    for i in 0..nv {
        degree[i + 1] += degree[i];
    }
    let mut fill = degree.clone();
    let mut neighbors = vec![0 as HullIndex; 2 * edges.len()];
    for e in &edges {
        let [a, b] = e.vertices;
        neighbors[fill[a as usize]] = b;
        fill[a as usize] += 1;
        neighbors[fill[b as usize]] = a;
        fill[b as usize] += 1;
    }
    let neighbor_starts = degree
        .iter()
        .map(|&s| index(s))
        .collect::<Result<Vec<_>, _>>()?;
    // Tolerance: the measured flatness (every vertex against the planes of
    // the faces around it), with margin, plus the rounding of storage.
    let mut flat = 0.0f64;
    for (f, &(n, d)) in planes64.iter().enumerate() {
        for &v in &face_vertices[face_starts[f] as usize..face_starts[f + 1] as usize] {
            flat = flat.max((n.dot(vertices_f64[v as usize]) - d).abs());
            let ns = &neighbors
                [neighbor_starts[v as usize] as usize..neighbor_starts[v as usize + 1] as usize];
            for &w in ns {
                flat = flat.max(n.dot(vertices_f64[w as usize]) - d);
            }
        }
    }
    // The margin is a bound only for points near the face they were merged
    // under; a merged face's plane tilts off its triangles, and on a needle
    // an input point far along the hull can end above it by more (fuzzing
    // found 3.15 m against a margin of 2.13 m on an f32 needle 131 km
    // long). So the stored tolerance is at least what every input point
    // measures against every face plane, which is the contract
    // `ConvexHull::from_points` writes down.
    let mut beyond = 0.0f64;
    for &(n, d) in &planes64 {
        for p in pts {
            beyond = beyond.max(n.dot(*p) - d);
        }
    }
    let eps = R::EPSILON.to_f64();
    let tolerance = (HULL_FLATNESS_MARGIN * flat.max(tau)).max(beyond)
        + HULL_STORAGE_ROUNDING_EPS * eps * scale;
    Ok(HullData {
        vertices: vertices_f64.iter().map(|p| p.cast::<R>()).collect(),
        planes: planes64
            .iter()
            .map(|&(n, d)| FacePlane::new(n.cast::<R>(), R::lit(d)))
            .collect(),
        face_starts,
        face_vertices,
        edges,
        neighbor_starts,
        neighbors,
        tolerance: R::lit(tolerance),
    })
}

/// Newell's normal of a loop with rounded sums, relative to its first
/// vertex: the fallback of [`loop_normal`].
fn newell_rounded(pts: &[Vec3<f64>], lp: &[u32]) -> Vec3<f64> {
    let origin = lp.first().map_or(Vec3::ZERO, |&v| pts[v as usize]);
    let mut normal = Vec3::ZERO;
    for (k, &v) in lp.iter().enumerate() {
        let a = pts[v as usize] - origin;
        let b = pts[lp[(k + 1) % lp.len()] as usize] - origin;
        normal += a.cross(b);
    }
    normal
}
