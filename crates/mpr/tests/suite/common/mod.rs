//! Brute-force references shared by the integration tests.
#![allow(dead_code)]

use mink_support::{Iso3, Real, Vec3};

/// The exact penetration of two convex polytopes given as world-space vertex
/// sets, by the separating-axis theorem over a superset of the needed axes:
/// the normal of every vertex triple of each set (which includes the face
/// normals) and the cross product of every vertex-pair direction of A with
/// every one of B (which includes the edge–edge axes). Along any unit axis
/// `u` the overlap `max_A u·x - min_B u·x` is a translation that separates
/// the shapes, so the minimum over a superset of the true axes is the true
/// depth. Returns `(depth, unit normal from A to B, second-best depth along
/// an axis more than 1e-3 rad away)`; depth is negative when apart.
pub fn sat(a: &[Vec3<f64>], b: &[Vec3<f64>]) -> (f64, Vec3<f64>, f64) {
    let mut axes: Vec<Vec3<f64>> = Vec::new();
    for pts in [a, b] {
        let n = pts.len();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    let c = (pts[j] - pts[i]).cross(pts[k] - pts[i]);
                    if let Some(u) = c.try_normalize() {
                        if c.norm() > 1e-9 {
                            axes.push(u);
                        }
                    }
                }
            }
        }
    }
    let dirs = |pts: &[Vec3<f64>]| {
        let mut d = Vec::new();
        for i in 0..pts.len() {
            for j in i + 1..pts.len() {
                d.push(pts[j] - pts[i]);
            }
        }
        d
    };
    for ea in dirs(a) {
        for eb in dirs(b) {
            let c = ea.cross(eb);
            if c.norm() > 1e-9 * ea.norm() * eb.norm() {
                axes.push(c / c.norm());
            }
        }
    }
    let overlap = |u: Vec3<f64>| {
        let ma = a.iter().map(|p| p.dot(u)).fold(f64::MIN, f64::max);
        let mb = b.iter().map(|p| p.dot(u)).fold(f64::MAX, f64::min);
        ma - mb
    };
    let mut best = (f64::MAX, Vec3::X);
    let mut all = Vec::with_capacity(axes.len() * 2);
    for u in axes {
        for s in [u, -u] {
            let o = overlap(s);
            all.push((o, s));
            if o < best.0 {
                best = (o, s);
            }
        }
    }
    let second = all
        .iter()
        .filter(|(_, s)| s.dot(best.1) < (1.0f64 - 5e-7))
        .map(|(o, _)| *o)
        .fold(f64::MAX, f64::min);
    (best.0, best.1, second)
}

/// The minimum width of a polytope (meters): the smallest extent along the
/// normal of any vertex triple that has every vertex on one side.
pub fn min_width(pts: &[Vec3<f64>]) -> f64 {
    let n = pts.len();
    let mut best = f64::MAX;
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let Some(u) = (pts[j] - pts[i]).cross(pts[k] - pts[i]).try_normalize() else {
                    continue;
                };
                let proj: Vec<f64> = pts.iter().map(|p| (*p - pts[i]).dot(u)).collect();
                let hi = proj.iter().cloned().fold(f64::MIN, f64::max);
                let lo = proj.iter().cloned().fold(f64::MAX, f64::min);
                if hi < 1e-9 || lo > -1e-9 {
                    best = best.min(hi - lo);
                }
            }
        }
    }
    best
}

/// Maps local points to the world with `pose`, in f64.
pub fn world<R: Real>(pts: &[Vec3<R>], pose: &Iso3<R>) -> Vec<Vec3<f64>> {
    pts.iter()
        .map(|p| pose.transform_point(*p).cast::<f64>())
        .collect()
}

/// Angle between two unit vectors (radians).
pub fn angle(a: Vec3<f64>, b: Vec3<f64>) -> f64 {
    a.cross(b).norm().atan2(a.dot(b))
}
