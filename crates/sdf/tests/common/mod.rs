//! Procedural meshes and an independent brute-force signed distance for
//! the tests: nearest point by plane projection or the nearest edge, sign
//! by ray-crossing parity along three fixed directions, majority vote.
#![allow(dead_code)]

use mink_sdf::{Contact, OwnedSdf, SdfOptions, TriMesh};
use mink_support::{Real, Vec3};
use std::f64::consts::TAU;

/// A mesh in f64: vertices and triangles.
#[derive(Clone, Debug)]
pub struct Soup {
    pub vertices: Vec<[f64; 3]>,
    pub triangles: Vec<[u32; 3]>,
}

impl Soup {
    /// The validated mesh in scalar `R`.
    pub fn mesh<R: Real>(&self) -> TriMesh<R> {
        let v: Vec<Vec3<R>> = self
            .vertices
            .iter()
            .map(|p| Vec3::new(R::lit(p[0]), R::lit(p[1]), R::lit(p[2])))
            .collect();
        TriMesh::new(&v, &self.triangles).expect("valid test mesh")
    }

    /// The mesh and its field.
    pub fn field<R: Real>(&self, resolution: u32, padding: f64) -> (TriMesh<R>, OwnedSdf<R>) {
        let mesh = self.mesh::<R>();
        let field = OwnedSdf::build(&mesh, SdfOptions::new(resolution, R::lit(padding))).unwrap();
        (mesh, field)
    }

    /// The corners of triangle `t`.
    fn tri(&self, t: &[u32; 3]) -> [[f64; 3]; 3] {
        t.map(|i| self.vertices[i as usize])
    }

    /// Unsigned distance from `p` to the surface, brute force.
    pub fn unsigned(&self, p: [f64; 3]) -> f64 {
        self.triangles
            .iter()
            .map(|t| point_triangle(p, self.tri(t)))
            .fold(f64::INFINITY, f64::min)
    }

    /// `true` when `p` is inside: ray crossings along three directions,
    /// majority of the parities.
    pub fn inside(&self, p: [f64; 3]) -> bool {
        const DIRS: [[f64; 3]; 3] = [
            [0.577_215_66, 0.312_029_99, 0.759_001_21],
            [-0.411_421_35, 0.718_281_83, -0.561_254_12],
            [0.123_456_78, -0.876_543_21, 0.465_243_79],
        ];
        let votes = DIRS
            .iter()
            .filter(|d| {
                self.triangles
                    .iter()
                    .filter(|t| ray_hits(p, **d, self.tri(t)))
                    .count()
                    % 2
                    == 1
            })
            .count();
        votes >= 2
    }

    /// Signed distance, negative inside.
    pub fn signed(&self, p: [f64; 3]) -> f64 {
        let d = self.unsigned(p);
        if self.inside(p) {
            -d
        } else {
            d
        }
    }

    /// Moves every vertex by `t`.
    pub fn translated(mut self, t: [f64; 3]) -> Self {
        for v in &mut self.vertices {
            *v = add(*v, t);
        }
        self
    }
}

pub fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
pub fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
pub fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
pub fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
pub fn scale(a: [f64; 3], s: f64) -> [f64; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}
pub fn norm(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

/// Distance from `p` to segment `ab`.
fn point_segment(p: [f64; 3], a: [f64; 3], b: [f64; 3]) -> f64 {
    let ab = sub(b, a);
    let t = (dot(sub(p, a), ab) / dot(ab, ab)).clamp(0.0, 1.0);
    norm(sub(p, add(a, scale(ab, t))))
}

/// Distance from `p` to a triangle: the plane distance when `p` projects
/// inside (all three edge tests agree), else the nearest of the edges.
fn point_triangle(p: [f64; 3], t: [[f64; 3]; 3]) -> f64 {
    let n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    let inside = (0..3).all(|k| {
        let e = sub(t[(k + 1) % 3], t[k]);
        dot(cross(e, sub(p, t[k])), n) >= 0.0
    });
    if inside {
        return (dot(sub(p, t[0]), n) / norm(n)).abs();
    }
    (0..3)
        .map(|k| point_segment(p, t[k], t[(k + 1) % 3]))
        .fold(f64::INFINITY, f64::min)
}

/// Möller–Trumbore: does the ray from `o` along `d` cross the triangle?
fn ray_hits(o: [f64; 3], d: [f64; 3], t: [[f64; 3]; 3]) -> bool {
    let e1 = sub(t[1], t[0]);
    let e2 = sub(t[2], t[0]);
    let h = cross(d, e2);
    let a = dot(e1, h);
    if a.abs() < 1e-14 {
        return false;
    }
    let f = 1.0 / a;
    let s = sub(o, t[0]);
    let u = f * dot(s, h);
    if !(0.0..=1.0).contains(&u) {
        return false;
    }
    let q = cross(s, e1);
    let v = f * dot(d, q);
    if v < 0.0 || u + v > 1.0 {
        return false;
    }
    f * dot(e2, q) > 0.0
}

/// A surface of revolution about z of a closed profile loop `(r, z)` that
/// stays off the axis (a torus-like solid), `nu` segments around.
pub fn revolve_loop(profile: &[(f64, f64)], nu: usize) -> Soup {
    let nv = profile.len();
    let mut vertices = Vec::new();
    for i in 0..nu {
        let u = TAU * i as f64 / nu as f64;
        for &(r, z) in profile {
            vertices.push([r * u.cos(), r * u.sin(), z]);
        }
    }
    let id = |i: usize, j: usize| ((i % nu) * nv + (j % nv)) as u32;
    let mut triangles = Vec::new();
    for i in 0..nu {
        for j in 0..nv {
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
    }
    Soup {
        vertices,
        triangles,
    }
}

/// A surface of revolution about z of an open profile `(r, z)` whose first
/// and last points are on the axis (poles), `nu` segments around.
pub fn revolve_poles(profile: &[(f64, f64)], nu: usize) -> Soup {
    let rings = &profile[1..profile.len() - 1];
    let nv = rings.len();
    let mut vertices = vec![[0.0, 0.0, profile[0].1]];
    for i in 0..nu {
        let u = TAU * i as f64 / nu as f64;
        for &(r, z) in rings {
            vertices.push([r * u.cos(), r * u.sin(), z]);
        }
    }
    let last = vertices.len() as u32;
    vertices.push([0.0, 0.0, profile[profile.len() - 1].1]);
    let id = |i: usize, j: usize| (1 + (i % nu) * nv + j) as u32;
    let mut triangles = Vec::new();
    for i in 0..nu {
        triangles.push([0, id(i + 1, 0), id(i, 0)]);
        for j in 0..nv - 1 {
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
        triangles.push([last, id(i, nv - 1), id(i + 1, nv - 1)]);
    }
    Soup {
        vertices,
        triangles,
    }
}

/// A torus about z: `major` radius, tube `minor`, `nu × nv` quads.
pub fn torus(major: f64, minor: f64, nu: usize, nv: usize) -> Soup {
    let profile: Vec<(f64, f64)> = (0..nv)
        .map(|j| {
            let w = TAU * j as f64 / nv as f64;
            (major + minor * w.cos(), minor * w.sin())
        })
        .collect();
    revolve_loop(&profile, nu)
}

/// A sphere of `radius` at the origin, `nu × nv` segments.
pub fn sphere(radius: f64, nu: usize, nv: usize) -> Soup {
    let profile: Vec<(f64, f64)> = (0..=nv)
        .map(|j| {
            let a = std::f64::consts::PI * j as f64 / nv as f64;
            (radius * a.sin(), -radius * a.cos())
        })
        .collect();
    revolve_poles(&profile, nu)
}

/// A bowl opening up: a hemispherical shell of outer radius `outer` and
/// thickness `thick`, centred on the origin, its bottom at `z = -outer`, a
/// flat rim at `z = 0`.
pub fn bowl(outer: f64, thick: f64, nu: usize, nv: usize) -> Soup {
    let inner = outer - thick;
    let mut profile = Vec::new();
    for j in 0..=nv {
        let a = std::f64::consts::FRAC_PI_2 * j as f64 / nv as f64;
        profile.push((outer * a.sin(), -outer * a.cos()));
    }
    for j in (0..=nv).rev() {
        let a = std::f64::consts::FRAC_PI_2 * j as f64 / nv as f64;
        profile.push((inner * a.sin(), -inner * a.cos()));
    }
    revolve_poles(&profile, nu)
}

/// An axis-aligned box with the given half extents at the origin.
pub fn cuboid(h: [f64; 3]) -> Soup {
    let vertices = (0..8)
        .map(|i| {
            let s = |bit: u32, x: f64| if i & bit != 0 { x } else { -x };
            [s(1, h[0]), s(2, h[1]), s(4, h[2])]
        })
        .collect();
    let quads = [
        [0, 4, 6, 2],
        [1, 3, 7, 5],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 2, 3, 1],
        [4, 5, 7, 6],
    ];
    let triangles = quads
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .collect();
    Soup {
        vertices,
        triangles,
    }
}

/// `Vec3<R>` to `[f64; 3]`.
pub fn arr<R: Real>(v: Vec3<R>) -> [f64; 3] {
    [v.x.to_f64(), v.y.to_f64(), v.z.to_f64()]
}

/// A blank contact buffer.
pub fn buffer<R: Real, const N: usize>() -> [Contact<R>; N] {
    [Contact {
        point_a: Vec3::ZERO,
        point_b: Vec3::ZERO,
        normal: Vec3::X,
        distance: R::ZERO,
    }; N]
}
