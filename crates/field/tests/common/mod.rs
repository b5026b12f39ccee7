//! Shared by the field tests: random hulls with their edge graphs (from a
//! small incremental hull written here, independent of the crate), brute
//! force supports and mesh diameters.
#![allow(dead_code)]

use mink_support::{Real, Vec3};
use mink_testkit::Rng;
use std::collections::HashSet;

/// A convex hull: vertices and the CSR edge graph.
pub struct TestHull<R> {
    pub vertices: Vec<Vec3<R>>,
    pub offsets: Vec<u32>,
    pub neighbours: Vec<u32>,
}

fn orient(a: Vec3<f64>, b: Vec3<f64>, c: Vec3<f64>, p: Vec3<f64>) -> f64 {
    (b - a).cross(c - a).dot(p - a)
}

/// The convex hull of `pts` (general position assumed) by incremental
/// construction in f64: `O(n · faces)`.
pub fn hull_f64(pts: &[Vec3<f64>]) -> TestHull<f64> {
    let n = pts.len();
    assert!(n >= 4);
    let scale = pts.iter().map(|p| p.max_abs()).fold(0.0, f64::max);
    let eps = 1e-11 * scale * scale * scale;
    // Initial tetrahedron.
    let i0 = 0;
    let i1 = (0..n)
        .max_by(|&a, &b| {
            pts[a]
                .distance(pts[i0])
                .total_cmp(&pts[b].distance(pts[i0]))
        })
        .unwrap();
    let line = |k: usize| (pts[k] - pts[i0]).cross(pts[i1] - pts[i0]).norm();
    let i2 = (0..n).max_by(|&a, &b| line(a).total_cmp(&line(b))).unwrap();
    let plane = |k: usize| orient(pts[i0], pts[i1], pts[i2], pts[k]).abs();
    let i3 = (0..n)
        .max_by(|&a, &b| plane(a).total_cmp(&plane(b)))
        .unwrap();
    let mut faces: Vec<[usize; 3]> = if orient(pts[i0], pts[i1], pts[i2], pts[i3]) < 0.0 {
        vec![[i0, i1, i2], [i0, i3, i1], [i1, i3, i2], [i2, i3, i0]]
    } else {
        vec![[i0, i2, i1], [i0, i1, i3], [i1, i2, i3], [i2, i0, i3]]
    };
    for p in 0..n {
        if [i0, i1, i2, i3].contains(&p) {
            continue;
        }
        let (visible, keep): (Vec<[usize; 3]>, Vec<[usize; 3]>) = faces
            .iter()
            .partition(|f| orient(pts[f[0]], pts[f[1]], pts[f[2]], pts[p]) > eps);
        if visible.is_empty() {
            continue;
        }
        let edges: HashSet<(usize, usize)> = visible
            .iter()
            .flat_map(|f| [(f[0], f[1]), (f[1], f[2]), (f[2], f[0])])
            .collect();
        faces = keep;
        for &(a, b) in &edges {
            if !edges.contains(&(b, a)) {
                faces.push([a, b, p]);
            }
        }
    }
    let mut used: Vec<usize> = faces.iter().flatten().copied().collect();
    used.sort_unstable();
    used.dedup();
    let mut remap = vec![u32::MAX; n];
    for (k, &u) in used.iter().enumerate() {
        remap[u] = k as u32;
    }
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); used.len()];
    for f in &faces {
        for e in 0..3 {
            let (a, b) = (remap[f[e]], remap[f[(e + 1) % 3]]);
            adj[a as usize].push(b);
            adj[b as usize].push(a);
        }
    }
    let mut offsets = vec![0u32];
    let mut neighbours = Vec::new();
    for mut l in adj {
        l.sort_unstable();
        l.dedup();
        neighbours.extend_from_slice(&l);
        offsets.push(neighbours.len() as u32);
    }
    TestHull {
        vertices: used.iter().map(|&u| pts[u]).collect(),
        offsets,
        neighbours,
    }
}

impl TestHull<f64> {
    pub fn cast<R: Real>(&self) -> TestHull<R> {
        TestHull {
            vertices: self.vertices.iter().map(|v| v.cast()).collect(),
            offsets: self.offsets.clone(),
            neighbours: self.neighbours.clone(),
        }
    }
}

/// Kinds of random hull.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Points on a sphere: every point a vertex.
    Sphere,
    /// Points in a ball: some inside.
    Ball,
    /// A flat, elongated ellipsoid (narrow features along its thin axes).
    Sliver,
}

/// A random hull with about `n` vertices, radius about 1 around a random
/// centre.
pub fn random_hull(rng: &mut Rng, n: usize, kind: Kind) -> TestHull<f64> {
    let centre: Vec3<f64> = rng.in_cube(0.5);
    let pts: Vec<Vec3<f64>> = match kind {
        Kind::Sphere => rng.points_on_sphere(n, 1.0),
        Kind::Ball => rng.points_in_ball(n, 1.0),
        Kind::Sliver => rng
            .points_on_sphere::<f64>(n, 1.0)
            .into_iter()
            .map(|p| Vec3::new(p.x * 2.0, p.y * 0.3, p.z * 0.05))
            .collect(),
    };
    hull_f64(&pts.into_iter().map(|p| p + centre).collect::<Vec<_>>())
}

/// The largest projection of `vertices` on `d`, by brute force.
pub fn brute<R: Real>(vertices: &[Vec3<R>], d: Vec3<R>) -> R {
    vertices
        .iter()
        .map(|v| d.dot(*v))
        .fold(-R::INFINITY, |a, b| a.max_of(b))
}

/// The largest distance between two vertices, by brute force (f64).
pub fn diameter<R: Real>(vertices: &[Vec3<R>]) -> f64 {
    let mut best = 0.0f64;
    for (i, a) in vertices.iter().enumerate() {
        let a = a.cast::<f64>();
        for b in &vertices[i + 1..] {
            best = best.max(a.distance(b.cast()));
        }
    }
    best
}
