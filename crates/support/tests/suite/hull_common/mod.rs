//! Shared checks and point clouds for the hull tests.
#![allow(dead_code)]

use mink_support::{ConvexHull, HullView, Real, Vec3};
use mink_testkit::Rng;
use std::collections::HashSet;

/// Bit pattern of a point, for exact set membership.
pub fn key<R: Real>(p: Vec3<R>) -> [u64; 3] {
    [
        p.x.to_f64().to_bits(),
        p.y.to_f64().to_bits(),
        p.z.to_f64().to_bits(),
    ]
}

/// `true` when the loop `lp` holds `a → b` (cyclically).
pub fn has_directed(lp: &[u16], a: u16, b: u16) -> bool {
    (0..lp.len()).any(|i| lp[i] == a && lp[(i + 1) % lp.len()] == b)
}

/// Every invariant of a built hull, checked by brute force against the
/// input points: containment, planar and convex faces, Euler's formula,
/// edge/face/neighbour consistency, vertices drawn from the input.
pub fn check_hull<R: Real>(hull: &ConvexHull<R>, input: &[Vec3<R>]) {
    let v = hull.view();
    let tol = v.tolerance();
    let scale = input.iter().fold(R::ZERO, |m, p| m.max_of(p.max_abs()));
    assert!(
        tol >= R::ZERO && tol <= scale * R::EPSILON * R::lit(1024.0),
        "tolerance {tol} too large"
    );
    let (nv, nf, ne) = (v.vertex_count(), v.face_count(), v.edges().len());
    assert_eq!(
        nv as i64 - ne as i64 + nf as i64,
        2,
        "Euler: V={nv} E={ne} F={nf}"
    );
    // Vertices are input points, without repeats.
    let inputs: HashSet<[u64; 3]> = input.iter().map(|p| key(*p)).collect();
    let mut seen = HashSet::new();
    for p in v.vertices() {
        assert!(
            inputs.contains(&key(*p)),
            "vertex {p:?} is not an input point"
        );
        assert!(seen.insert(key(*p)), "vertex {p:?} repeated");
    }
    // Containment of every input point.
    for p in input {
        for (f, plane) in v.planes().iter().enumerate() {
            let d = plane.distance(*p);
            assert!(
                d <= tol,
                "input point {p:?} is {d} above face {f} (tol {tol})"
            );
        }
    }
    // Faces: unit normals, planar, counter-clockwise, convex.
    for (f, plane) in v.planes().iter().enumerate() {
        let lp = v.face(f);
        assert!(lp.len() >= 3, "face {f} has {} vertices", lp.len());
        assert!((plane.normal.norm() - R::ONE).abs() <= R::EPSILON * R::lit(8.0));
        // The loop's vector area, relative to its first vertex (absolute
        // coordinates would cancel for a small face far from the origin).
        let origin = v.vertices()[lp[0] as usize].cast::<f64>();
        let mut newell = Vec3::<f64>::ZERO;
        for (k, &i) in lp.iter().enumerate() {
            let a = v.vertices()[i as usize].cast::<f64>();
            let b = v.vertices()[lp[(k + 1) % lp.len()] as usize].cast::<f64>();
            newell += (a - origin).cross(b - origin);
            let d = plane.distance(a.cast());
            assert!(
                d.abs() <= tol,
                "face {f} vertex {i} is {d} off its plane (tol {tol})"
            );
        }
        assert!(
            newell.dot(plane.normal.cast()) > 0.0,
            "face {f} is not counter-clockwise"
        );
        for (i, p) in v.vertices().iter().enumerate() {
            let d = plane.distance(*p);
            assert!(d <= tol, "vertex {i} is {d} above face {f} (tol {tol})");
        }
    }
    // Edges: distinct ends and faces, present in both loops, each once.
    let mut pairs = HashSet::new();
    for e in v.edges() {
        let [a, b] = e.vertices;
        let [f, g] = e.faces;
        assert_ne!(a, b);
        assert_ne!(f, g, "edge {a}-{b} has the same face on both sides");
        assert!(has_directed(v.face(f as usize), a, b));
        assert!(has_directed(v.face(g as usize), b, a));
        assert!(pairs.insert((a.min(b), a.max(b))), "edge {a}-{b} repeated");
    }
    // Neighbour lists: symmetric, and exactly the edges.
    let mut from_lists = HashSet::new();
    for a in 0..nv {
        for &b in v.neighbors(a) {
            assert!(
                v.neighbors(b as usize).contains(&(a as u16)),
                "{a}→{b} not symmetric"
            );
            from_lists.insert((a.min(b as usize) as u16, a.max(b as usize) as u16));
        }
        assert!(v.neighbors(a).len() >= 2);
    }
    assert_eq!(from_lists, pairs);
}

/// `n` points on the surface of the cube `[-h, h]³`, exactly on its faces
/// (many coplanar points), with its 8 corners and points along its edges.
pub fn cube_surface<R: Real>(rng: &mut Rng, n: usize, h: f64) -> Vec<Vec3<R>> {
    let mut pts = Vec::with_capacity(n + 8);
    for i in 0..8 {
        let s = |bit: usize| if i & bit != 0 { h } else { -h };
        pts.push(Vec3::new(s(1), s(2), s(4)).cast());
    }
    for _ in 0..n {
        let mut c = [
            rng.range_f64(-h, h),
            rng.range_f64(-h, h),
            rng.range_f64(-h, h),
        ];
        let axis = rng.below(3);
        c[axis] = if rng.chance(0.5) { h } else { -h };
        if rng.chance(0.2) {
            // On an edge: a second coordinate at the bound too.
            let other = (axis + 1 + rng.below(2)) % 3;
            c[other] = if rng.chance(0.5) { h } else { -h };
        }
        pts.push(Vec3::from_array(c).cast());
    }
    pts
}

/// `pts` moved by independent uniform offsets in `[-amp, amp]` per axis.
pub fn jitter<R: Real>(rng: &mut Rng, pts: &[Vec3<R>], amp: f64) -> Vec<Vec3<R>> {
    pts.iter()
        .map(|p| {
            let d = Vec3::new(
                rng.range_f64(-amp, amp),
                rng.range_f64(-amp, amp),
                rng.range_f64(-amp, amp),
            );
            (p.cast::<f64>() + d).cast()
        })
        .collect()
}

/// `n` points in a ball of radius `r`, with those above `0.5 r` pushed down
/// onto the plane `z = 0.5 r` (one large coplanar face), rotated and moved.
pub fn clipped_ball<R: Real>(rng: &mut Rng, n: usize, r: f64) -> Vec<Vec3<R>> {
    let pose = rng.pose::<f64>(2.0 * r);
    rng.points_in_ball::<f64>(n, r)
        .into_iter()
        .map(|mut p| {
            p.z = p.z.min(0.5 * r);
            pose.transform_point(p).cast()
        })
        .collect()
}

/// A prism over a regular `k`-gon (radius `r`, height `2h`), with `extra`
/// random points on its side and caps: two `k`-gon caps of coplanar points.
pub fn prism<R: Real>(rng: &mut Rng, k: usize, r: f64, h: f64, extra: usize) -> Vec<Vec3<R>> {
    let ring = |i: usize| {
        let a = std::f64::consts::TAU * i as f64 / k as f64;
        (r * a.cos(), r * a.sin())
    };
    let mut pts = Vec::new();
    for i in 0..k {
        let (x, y) = ring(i);
        pts.push(Vec3::new(x, y, h));
        pts.push(Vec3::new(x, y, -h));
    }
    for _ in 0..extra {
        let i = rng.below(k);
        let (x0, y0) = ring(i);
        let (x1, y1) = ring(i + 1);
        let t = rng.unit_f64();
        let (x, y) = (x0 + t * (x1 - x0), y0 + t * (y1 - y0));
        let s = rng.unit_f64();
        let z = if rng.chance(0.5) {
            rng.range_f64(-h, h)
        } else if rng.chance(0.5) {
            h
        } else {
            -h
        };
        pts.push(Vec3::new(x * s.max(0.99), y * s.max(0.99), z));
    }
    pts.into_iter().map(|p| p.cast()).collect()
}

/// The largest projection of the input points on `d`, by brute force.
pub fn brute_max<R: Real>(pts: &[Vec3<R>], d: Vec3<R>) -> R {
    pts.iter()
        .map(|p| d.dot(*p))
        .fold(-R::INFINITY, |m, x| m.max_of(x))
}

/// Shorthand for a view's vertex.
pub fn vtx<R: Real>(v: &HullView<'_, R>, i: u32) -> Vec3<R> {
    v.vertex(i).expect("vertex index in range")
}

/// Hostile clouds, by `kind` (0 to 6): rotated grids, points sampled on
/// the faces of a random polyhedron, cylinder rims and caps, a needle of two
/// far clusters with duplicates, thin slabs, spheres with duplicates and
/// points along chords, jittered cube surfaces (noise from 1e-17 to 1e-2);
/// scaled, rotated and sometimes moved far from the origin.
pub fn hostile_cloud<R: Real>(rng: &mut Rng, kind: usize) -> Vec<Vec3<R>> {
    let n = 4 + rng.below(600);
    let far = if rng.chance(0.3) { 1000.0 } else { 2.0 };
    let pose = rng.pose::<f64>(far);
    let s = rng.range_f64(0.001, 50.0);
    let raw: Vec<Vec3<f64>> = match kind {
        0 => {
            // grid k^3 rotated
            let k = 2 + rng.below(5);
            let mut v = Vec::new();
            for i in 0..k {
                for j in 0..k {
                    for l in 0..k {
                        v.push(Vec3::new(i as f64, j as f64, l as f64));
                    }
                }
            }
            v
        }
        1 => {
            // random polyhedron faces sampled: points on planes of a random hull
            let m = 4 + rng.below(10);
            let corners: Vec<Vec3<f64>> = rng.points_on_sphere(m, 1.0);
            let mut v = corners.clone();
            for _ in 0..n {
                let a = corners[rng.below(corners.len())];
                let b = corners[rng.below(corners.len())];
                let c = corners[rng.below(corners.len())];
                let (u, w) = (rng.unit_f64(), rng.unit_f64());
                let (u, w) = if u + w > 1.0 {
                    (1.0 - u, 1.0 - w)
                } else {
                    (u, w)
                };
                v.push(a + (b - a) * u + (c - a) * w);
            }
            v
        }
        2 => {
            // cylinder rims + caps
            let k = 3 + rng.below(60);
            let mut v = Vec::new();
            for _ in 0..n {
                let a = std::f64::consts::TAU * rng.below(k) as f64 / k as f64;
                let z = if rng.chance(0.5) { 1.0 } else { -1.0 };
                let r = if rng.chance(0.7) { 1.0 } else { rng.unit_f64() };
                v.push(Vec3::new(r * a.cos(), r * a.sin(), z));
            }
            v.push(Vec3::new(0.0, 0.0, 5.0));
            v.push(Vec3::new(1.0, 0.0, 1.0));
            v.push(Vec3::new(0.0, 1.0, -1.0));
            v.push(Vec3::new(-1.0, 0.0, 1.0));
            v
        }
        3 => {
            // two far clusters (needle) with duplicates
            let mut v = Vec::new();
            for _ in 0..n {
                let c = if rng.chance(0.5) {
                    Vec3::new(0.0, 0.0, 0.0)
                } else {
                    Vec3::new(100.0, 0.0, 0.0)
                };
                v.push(c + rng.in_cube::<f64>(0.5));
            }
            let d = v[0];
            for _ in 0..10 {
                v.push(d);
            }
            v
        }
        4 => {
            // thin slab
            let t = rng.range_f64(1e-4, 1e-1);
            (0..n)
                .map(|_| {
                    Vec3::new(
                        rng.range_f64(-1.0, 1.0),
                        rng.range_f64(-1.0, 1.0),
                        if rng.chance(0.5) { t } else { -t },
                    )
                })
                .chain([Vec3::new(0.0, 0.0, t * 2.0)])
                .collect()
        }
        5 => {
            // sphere with exact duplicates and points on segments between vertices
            let mut v: Vec<Vec3<f64>> = rng.points_on_sphere(n, 1.0);
            for _ in 0..n / 2 {
                let a = v[rng.below(v.len())];
                let b = v[rng.below(v.len())];
                let t = rng.unit_f64();
                v.push(a + (b - a) * t);
                v.push(a);
            }
            v
        }
        _ => {
            // cube surface jittered at various amplitudes
            let base = cube_surface::<f64>(rng, n, 1.0);
            let amp = 10f64.powf(rng.range_f64(-17.0, -2.0));
            jitter::<f64>(rng, &base, amp)
        }
    };
    raw.into_iter()
        .map(|p| pose.transform_point(p * s).cast())
        .collect()
}
