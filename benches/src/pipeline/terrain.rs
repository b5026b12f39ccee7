//! The robots' terrain: a grid of heights both libraries build their height
//! field from, and its exact surface height, so a scripted gait can put a
//! foot a chosen depth into it.
//!
//! z-up, meters. The surface over cell `(i, j)` (between samples `(i, j)`
//! and `(i + 1, j + 1)`) is two triangles split along the diagonal from
//! sample `(i, j)` to sample `(i + 1, j + 1)`, as mink's
//! [`HeightField`](mink_support::HeightField) splits it; rapier's collider is
//! built so that its triangles are the same ([`super::rapier_shapes`]), and
//! the tests below check both libraries' surfaces against
//! [`Terrain::height_at`].

use mink_testkit::Rng;

/// Depth of the terrain's solid below its lowest sample, meters (mink's
/// height field is a solid down to there; rapier's is a surface).
pub const TERRAIN_THICKNESS: f32 = 1.0;

/// A height-field terrain: `nx × ny` samples, row-major with x fastest
/// (sample `(i, j)` is `heights[j * nx + i]`), `dx` and `dy` apart (meters),
/// sample `(0, 0)` at world `(origin[0], origin[1])`; the surface is at world
/// `z = height`.
#[derive(Clone, Debug, PartialEq)]
pub struct Terrain {
    /// The heights, meters, row-major (x fastest).
    pub heights: Vec<f32>,
    /// Samples along x (at least 2).
    pub nx: usize,
    /// Samples along y (at least 2).
    pub ny: usize,
    /// Sample spacing along x, meters.
    pub dx: f32,
    /// Sample spacing along y, meters.
    pub dy: f32,
    /// World xy of sample `(0, 0)`, meters.
    pub origin: [f32; 2],
}

impl Terrain {
    /// Smooth bumps: `cells × cells` cells over a square of `size` meters
    /// centred on the world origin, heights a sum of three sine products
    /// (amplitudes 12, 8 and 5 cm, wavelengths 4 to 11 m, phases from
    /// `seed`) plus uniform noise of ±1 cm per sample. Heights stay within
    /// ±0.26 m. `cells` of 0 is taken as 1.
    pub fn bumps(cells: usize, size: f32, seed: u64) -> Self {
        let cells = cells.max(1);
        let mut rng = Rng::new(seed);
        let tau = std::f64::consts::TAU;
        let phase: [f64; 4] = std::array::from_fn(|_| rng.range_f64(0.0, tau));
        let d = size / cells as f32;
        let origin = [-0.5 * size, -0.5 * size];
        let n = cells + 1;
        let mut heights = Vec::with_capacity(n * n);
        for j in 0..n {
            for i in 0..n {
                let x = f64::from(origin[0] + i as f32 * d);
                let y = f64::from(origin[1] + j as f32 * d);
                let h = 0.12 * (tau * x / 9.0 + phase[0]).sin() * (tau * y / 11.0 + phase[1]).cos()
                    + 0.08 * (tau * (x + y) / 6.3 + phase[2]).sin()
                    + 0.05 * (tau * (x - 0.5 * y) / 4.1 + phase[3]).sin()
                    + rng.range_f64(-0.01, 0.01);
                heights.push(h as f32);
            }
        }
        Self {
            heights,
            nx: n,
            ny: n,
            dx: d,
            dy: d,
            origin,
        }
    }

    /// The world xy of the grid's centre, meters.
    pub fn centre(&self) -> [f32; 2] {
        let (sx, sy) = self.extent();
        [self.origin[0] + 0.5 * sx, self.origin[1] + 0.5 * sy]
    }

    /// The grid's size along x and y, meters.
    pub fn extent(&self) -> (f32, f32) {
        (
            (self.nx - 1) as f32 * self.dx,
            (self.ny - 1) as f32 * self.dy,
        )
    }

    /// The surface height at world `(x, y)`, meters: the height of the
    /// triangle over that point (see the module docs). A point off the grid
    /// takes the height of the nearest point on its border.
    pub fn height_at(&self, x: f64, y: f64) -> f64 {
        let gx = (x - f64::from(self.origin[0])) / f64::from(self.dx);
        let gy = (y - f64::from(self.origin[1])) / f64::from(self.dy);
        let (cx, cy) = ((self.nx - 2) as f64, (self.ny - 2) as f64);
        let (i, j) = (gx.floor().clamp(0.0, cx), gy.floor().clamp(0.0, cy));
        let (u, v) = ((gx - i).clamp(0.0, 1.0), (gy - j).clamp(0.0, 1.0));
        let (i, j) = (i as usize, j as usize);
        let h = |a: usize, b: usize| f64::from(self.heights[b * self.nx + a]);
        let (h00, h10, h01, h11) = (h(i, j), h(i + 1, j), h(i, j + 1), h(i + 1, j + 1));
        if u >= v {
            // The triangle (i, j), (i + 1, j), (i + 1, j + 1).
            h00 + u * (h10 - h00) + v * (h11 - h10)
        } else {
            // The triangle (i, j), (i + 1, j + 1), (i, j + 1).
            h00 + v * (h01 - h00) + u * (h11 - h01)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::mink_shapes::MinkShapes;
    use crate::pipeline::rapier_shapes::ground_collider;
    use crate::pipeline::scenes::{Ground, Motion, SceneDesc};
    use mink::{collide, Collider, ContactParams, Shape};
    use mink_support::{Iso3, Sphere, Vec3};
    use rapier3d::parry::query::Ray;
    use rapier3d::prelude::Vector;

    /// Agreement asked of each library's surface height, meters (f32
    /// rounding of coordinates up to 20 m and heights up to 0.3 m).
    const HEIGHT_TOLERANCE: f64 = 2e-5;

    /// Probe points: random ones, and next to every sample of a few rows
    /// (a hundredth of a cell off: a vertical ray exactly through a vertex
    /// may slip between parry's triangles) and on either side of the cells'
    /// diagonals (where a wrong split would show most).
    fn probes(t: &Terrain, rng: &mut Rng) -> Vec<(f64, f64)> {
        let mut out = Vec::new();
        let (sx, sy) = t.extent();
        for _ in 0..400 {
            let x = f64::from(t.origin[0]) + rng.range_f64(0.01, 0.99) * f64::from(sx);
            let y = f64::from(t.origin[1]) + rng.range_f64(0.01, 0.99) * f64::from(sy);
            out.push((x, y));
        }
        for j in (1..t.ny - 1).step_by(7) {
            for i in 1..t.nx - 2 {
                let x0 = f64::from(t.origin[0]) + i as f64 * f64::from(t.dx);
                let y0 = f64::from(t.origin[1]) + j as f64 * f64::from(t.dy);
                let (dx, dy) = (f64::from(t.dx), f64::from(t.dy));
                out.push((x0 + 0.01 * dx, y0 + 0.02 * dy));
                out.push((x0 + 0.75 * dx, y0 + 0.25 * dy));
                out.push((x0 + 0.25 * dx, y0 + 0.75 * dy));
            }
        }
        out
    }

    fn terrain_scene(t: &Terrain) -> SceneDesc {
        SceneDesc {
            name: "terrain".into(),
            bodies: Vec::new(),
            ground: Ground::HeightField(t.clone()),
            motion: Motion::Fall,
        }
    }

    /// The per-cell split matters: a terrain whose two diagonals give
    /// different heights at the probes (so the tests below can fail).
    #[test]
    fn diagonal_split_is_visible() {
        let t = Terrain::bumps(64, 40.0, 5);
        let mut rng = Rng::new(1);
        let mut differs = 0;
        let ps = probes(&t, &mut rng);
        for &(x, y) in &ps {
            let gx = (x - f64::from(t.origin[0])) / f64::from(t.dx);
            let gy = (y - f64::from(t.origin[1])) / f64::from(t.dy);
            let (i, j) = (gx.floor() as usize, gy.floor() as usize);
            let (u, v) = (gx - gx.floor(), gy - gy.floor());
            let h = |a: usize, b: usize| f64::from(t.heights[b * t.nx + a]);
            // The other split, along (i + 1, j)–(i, j + 1).
            let other = if u + v <= 1.0 {
                h(i, j) + u * (h(i + 1, j) - h(i, j)) + v * (h(i, j + 1) - h(i, j))
            } else {
                h(i + 1, j + 1)
                    + (1.0 - u) * (h(i, j + 1) - h(i + 1, j + 1))
                    + (1.0 - v) * (h(i + 1, j) - h(i + 1, j + 1))
            };
            if (other - t.height_at(x, y)).abs() > 10.0 * HEIGHT_TOLERANCE {
                differs += 1;
            }
        }
        assert!(differs * 2 > ps.len(), "{differs} of {}", ps.len());
    }

    /// rapier's height field, cast straight down on, has the surface of
    /// [`Terrain::height_at`].
    #[test]
    fn rapier_surface_matches() {
        let t = Terrain::bumps(64, 40.0, 5);
        let collider = ground_collider(&Ground::HeightField(t.clone())).build();
        let mut rng = Rng::new(2);
        for (x, y) in probes(&t, &mut rng) {
            let top = 10.0;
            let ray = Ray::new(
                Vector::new(x as f32, y as f32, top),
                Vector::new(0.0, 0.0, -1.0),
            );
            let toi = collider
                .shape()
                .cast_ray(collider.position(), &ray, 100.0, true)
                .expect("the ray hits the terrain");
            let z = f64::from(top) - f64::from(toi);
            let want = t.height_at(f64::from(x as f32), f64::from(y as f32));
            assert!(
                (z - want).abs() < HEIGHT_TOLERANCE,
                "rapier at ({x}, {y}): {z} against {want}"
            );
        }
    }

    /// mink's height field, probed with a small ball sunk 1 cm into the
    /// surface: the terrain side of every contact lies on the surface of
    /// [`Terrain::height_at`], and every probe gets a contact (probes next
    /// to a sample included, where the nearest points of the triangles
    /// around a concave vertex are their edges or the vertex).
    #[test]
    fn mink_surface_matches() {
        let t = Terrain::bumps(64, 40.0, 5);
        let shapes = MinkShapes::new(&terrain_scene(&t));
        let colliders = shapes.colliders();
        let field = colliders[0];
        assert!(matches!(field, Collider::HeightField(_)));
        let ground_pose = shapes.ground_pose();
        let ball: Collider<'_, f32> = Shape::from(Sphere::new(0.05_f32).unwrap()).into();
        let params = ContactParams::new().with_margin(0.5_f32);
        let mut rng = Rng::new(3);
        let (mut checked, mut missed) = (0, 0);
        let ps = probes(&t, &mut rng);
        for &(x, y) in &ps {
            let centre = Vec3::new(x, y, t.height_at(x, y) + 0.04).cast::<f32>();
            let mut n = 0;
            collide(
                &field,
                &ground_pose,
                &ball,
                &Iso3::from_translation(centre),
                &params,
                4,
                |c| {
                    // Terrain side: the midpoint moved back by half the gap.
                    let q = c.position + c.normal * (c.depth * 0.5);
                    let want = t.height_at(f64::from(q.x), f64::from(q.y));
                    assert!(
                        (f64::from(q.z) - want).abs() < HEIGHT_TOLERANCE,
                        "mink at ({}, {}): {} against {want}",
                        q.x,
                        q.y,
                        q.z
                    );
                    n += 1;
                },
            );
            if n == 0 {
                println!("mink: no contact at ({x}, {y})");
                missed += 1;
            }
            checked += n;
        }
        assert!(checked > ps.len() / 2, "{checked} contacts");
        assert_eq!(missed, 0, "{missed} of {} missed", ps.len());
    }
}
