//! Ray casts against the non-convex colliders, against references that
//! share no code with them:
//! - height fields: a dense march along the ray through an inside test
//!   written here from the grid's definition (the height of the cell's
//!   triangle under a point, the grid's footprint, the base): the ray is
//!   outside before an entering hit and inside just past it, inside before
//!   an exit, outside along a miss; a flat field against the closed form;
//! - meshes: the mesh of a convex hull against GJK's ray cast on the hull
//!   itself; two disjoint boxes and a hollow box (a cube with a cubic
//!   cavity) as one mesh against the boxes' slab chords; rays through
//!   shared edges and vertices, which must never slip through.
//!
//! Seeded, f32 and f64.

use mink::ray::{height_field_ray_cast, mesh_ray_cast, ray_cast, Ray, RayCast, RayStatus};
use mink::sdf::TriMesh;
use mink::support::{ConvexHull, HeightField, Iso3, Real, Support, Vec3};
use mink::{Body, Collider, Shape};
use mink_testkit::{for_each_real, Rng};

/// Tolerance of a hit, meters, at the scale of these scenes (a few m).
pub(crate) fn tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS > 30 {
        1e-9
    } else {
        2e-4
    }
}

/// A random terrain: `nx × ny` samples, spacing `dx, dy`, heights in
/// `[0, 0.6]` m, 0.4 m thick.
pub(crate) struct Terrain {
    pub nx: usize,
    pub ny: usize,
    pub dx: f64,
    pub dy: f64,
    pub heights: Vec<f64>,
    pub thickness: f64,
}

impl Terrain {
    pub(crate) fn random(rng: &mut Rng) -> Self {
        let (nx, ny) = (2 + rng.below(8), 2 + rng.below(8));
        let heights = (0..nx * ny).map(|_| rng.range_f64(0.0, 0.6)).collect();
        Self {
            nx,
            ny,
            dx: rng.range_f64(0.1, 0.5),
            dy: rng.range_f64(0.1, 0.5),
            heights,
            thickness: 0.4,
        }
    }

    /// The heights in scalar `R`, for [`Terrain::field`].
    pub(crate) fn heights_in<R: Real>(&self) -> Vec<R> {
        self.heights.iter().map(|&h| R::lit(h)).collect()
    }

    /// The height field over `heights` (from [`Terrain::heights_in`]).
    pub(crate) fn field<'h, R: Real>(&self, heights: &'h [R]) -> HeightField<'h, R> {
        HeightField::new(
            heights,
            self.nx,
            self.ny,
            R::lit(self.dx),
            R::lit(self.dy),
            R::lit(self.thickness),
        )
        .unwrap()
    }

    pub(crate) fn h(&self, i: usize, j: usize) -> f64 {
        self.heights[j * self.nx + i]
    }

    /// How far inside the solid the local point `p` is (positive inside),
    /// through the least of its clearances: under the surface, above the
    /// base, within the footprint. Each cell is split along its diagonal
    /// from sample (i, j) to (i + 1, j + 1).
    pub(crate) fn depth(&self, p: Vec3<f64>) -> f64 {
        let (w, l) = (
            (self.nx - 1) as f64 * self.dx,
            (self.ny - 1) as f64 * self.dy,
        );
        let side = p.x.min(w - p.x).min(p.y).min(l - p.y);
        let (cx, cy) = (p.x.clamp(0.0, w), p.y.clamp(0.0, l));
        let i = ((cx / self.dx).floor() as usize).min(self.nx - 2);
        let j = ((cy / self.dy).floor() as usize).min(self.ny - 2);
        let (fx, fy) = (cx / self.dx - i as f64, cy / self.dy - j as f64);
        let (h00, h10, h01, h11) = (
            self.h(i, j),
            self.h(i + 1, j),
            self.h(i, j + 1),
            self.h(i + 1, j + 1),
        );
        let top = if fx >= fy {
            h00 + fx * (h10 - h00) + fy * (h11 - h10)
        } else {
            h00 + fy * (h01 - h00) + fx * (h11 - h01)
        };
        let min = self.heights.iter().cloned().fold(f64::INFINITY, f64::min);
        let base = min - self.thickness;
        // Clearances under a sloped top are vertical; scaled down by the
        // steepest slope so that "inside by more than x" means it.
        let under = (top - p.z) / 4.0;
        side.min(under).min(p.z - base)
    }
}

fn height_fields_against_a_march<R: Real>() {
    let mut rng = Rng::new(0x30_4ea1);
    let t = tol::<R>() * 10.0;
    let (mut hits, mut exits, mut misses, mut inside) = (0, 0, 0, 0);
    for case in 0..400 {
        let terrain = Terrain::random(&mut rng);
        let heights = terrain.heights_in::<R>();
        let field = terrain.field(&heights);
        let pose: Iso3<R> = rng.pose(1.0);
        let pose64 = pose.cast::<f64>();
        let centre = Vec3::new(
            0.5 * (terrain.nx - 1) as f64 * terrain.dx,
            0.5 * (terrain.ny - 1) as f64 * terrain.dy,
            0.2,
        );
        for _ in 0..10 {
            // From above, from the side, or from inside; aimed near the
            // centre; some vertical.
            let from = match rng.below(4) {
                0 => centre + Vec3::new(0.0, 0.0, rng.range_f64(0.2, 1.0)),
                1 => centre + rng.unit_vec::<f64>() * rng.range_f64(1.0, 3.0),
                2 => Vec3::new(
                    rng.range_f64(0.0, 2.0 * centre.x),
                    rng.range_f64(0.0, 2.0 * centre.y),
                    -0.1,
                ),
                _ => centre + Vec3::new(rng.range_f64(-1.0, 1.0), rng.range_f64(-1.0, 1.0), 1.5),
            };
            let aim = centre + rng.unit_vec::<f64>() * rng.range_f64(0.0, 1.0);
            let dir = (aim - from).normalize_or(-Vec3::Z) * rng.range_f64(0.5, 2.0);
            let ray = Ray::new(
                pose64.transform_point(from).cast::<R>(),
                pose64.rotation.mul_vec(dir).cast::<R>(),
            );
            let solid = rng.chance(0.5);
            let got = height_field_ray_cast(&field, &pose, &ray, R::lit(5.0), solid);
            let what = format!("case {case}: {ray:?} solid {solid}: {got:?}");
            // The march, in the field's frame.
            let o = ray.origin.cast::<f64>();
            let d = ray.dir.cast::<f64>();
            let depth_at = |s: f64| terrain.depth(pose64.inverse_transform_point(o + d * s));
            let len = d.norm();
            let step = 2e-3 / len;
            let start = depth_at(0.0);
            match got.status {
                RayStatus::Inside => {
                    inside += 1;
                    assert!(solid && start > -t, "{what}: start depth {start}");
                }
                RayStatus::Hit => {
                    let s = got.toi.to_f64();
                    let entering = got.normal.cast::<f64>().dot(d) < 0.0;
                    assert!(((got.normal.norm()).to_f64() - 1.0).abs() < 1e-4, "{what}");
                    assert!((got.point.cast::<f64>() - (o + d * s)).norm() < t, "{what}");
                    assert!(depth_at(s).abs() < t, "{what}: hit depth {}", depth_at(s));
                    if entering {
                        hits += 1;
                        assert!(start < t, "{what}: an entry from inside ({start})");
                        let mut k = 0.0;
                        while k < s - step {
                            assert!(depth_at(k) < t, "{what}: inside at {k} before the hit");
                            k += step;
                        }
                    } else {
                        exits += 1;
                        assert!(
                            !solid && start > -t,
                            "{what}: an exit from outside ({start})"
                        );
                        let mut k = step;
                        while k < s - step {
                            assert!(depth_at(k) > -t, "{what}: outside at {k} before the exit");
                            k += step;
                        }
                    }
                }
                RayStatus::Miss => {
                    misses += 1;
                    if start > t {
                        // From inside, not solid: the exit is past 5.
                        assert!(!solid, "{what}");
                        assert!(depth_at(5.0) > -t, "{what}: left before max_toi");
                    } else {
                        let mut k = 0.0;
                        while k <= 5.0 {
                            assert!(depth_at(k) < t, "{what}: inside at {k} along a miss");
                            k += step;
                        }
                    }
                }
                other => panic!("{what}: {other:?}"),
            }
        }
    }
    assert!(
        hits > 1_500 && misses > 400 && exits > 100 && inside > 100,
        "{hits} hits, {exits} exits, {misses} misses, {inside} inside"
    );
}
for_each_real!(height_fields_against_a_march, height_fields_against_a_march);

/// Rays into and out of a height field's outer walls exactly where a wall
/// between two cells meets them (a seam column): the terrain's surface
/// there is the outer wall, so the hit's normal is the wall's, never the
/// inner wall's (which the ray crosses at the same point by round-off).
fn rays_through_wall_seams_report_the_wall<R: Real>() {
    let mut rng = Rng::new(0x05ea_3c01);
    let t = tol::<R>() * 10.0;
    let mut checked = 0;
    for case in 0..150 {
        let terrain = Terrain::random(&mut rng);
        let heights = terrain.heights_in::<R>();
        let field = terrain.field(&heights);
        let pose: Iso3<R> = rng.pose(1.0);
        let pose64 = pose.cast::<f64>();
        let (w, l) = (
            field.sample_x(terrain.nx - 1).to_f64(),
            field.sample_y(terrain.ny - 1).to_f64(),
        );
        let base = field.base().to_f64();
        // Seam columns on each outer wall: (point on the wall at the seam,
        // the wall's outward normal), field frame.
        let mut seams = Vec::new();
        for i in 1..terrain.nx - 1 {
            let x = field.sample_x(i).to_f64();
            seams.push((Vec3::new(x, 0.0, 0.0), -Vec3::Y));
            seams.push((Vec3::new(x, l, 0.0), Vec3::Y));
        }
        for j in 1..terrain.ny - 1 {
            let y = field.sample_y(j).to_f64();
            seams.push((Vec3::new(0.0, y, 0.0), -Vec3::X));
            seams.push((Vec3::new(w, y, 0.0), Vec3::X));
        }
        // Below every sample, so that a short run inside stays inside.
        let low = terrain
            .heights
            .iter()
            .cloned()
            .fold(f64::INFINITY, f64::min);
        for (foot, n) in seams {
            let aim = foot + Vec3::Z * rng.range_f64(base + 0.05, low - 0.05);
            // Tilted out of the wall's plane and along it.
            let along = Vec3::Z.cross(n);
            let v = n + along * rng.range_f64(-1.5, 1.5) + Vec3::Z * rng.range_f64(-0.5, 0.5);
            let entering = rng.chance(0.5);
            let (o, dir) = if entering {
                (aim + v * rng.range_f64(0.2, 2.0), -v)
            } else {
                // From just inside, out through the seam.
                (aim - v * 0.02, v)
            };
            let world_o = pose64.transform_point(o);
            let ray = Ray::new(
                world_o.cast::<R>(),
                pose64.rotation.mul_vec(dir).cast::<R>(),
            );
            let hit = height_field_ray_cast(&field, &pose, &ray, R::lit(1e3), false);
            let expect = (aim - o).norm() / dir.norm();
            let what =
                format!("case {case}: entering {entering}, seam at {aim:?} wall {n:?}: {hit:?}");
            assert_eq!(hit.status, RayStatus::Hit, "{what}");
            assert!((hit.toi.to_f64() - expect).abs() < t, "{what}");
            let want = pose64.rotation.mul_vec(n);
            assert!((hit.normal.cast::<f64>() - want).norm() < 1e-3, "{what}");
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked}");
}
for_each_real!(
    rays_through_wall_seams_report_the_wall,
    rays_through_wall_seams_report_the_wall
);

/// Rays from origins on a cell's diagonal wall, inside the terrain (the
/// two prisms meet there, and by round-off the origin may be in neither):
/// solid, `Inside`; not solid, the exit, at least as far as the origin is
/// inside (once a hit at `t` 2e-18 at the origin itself).
fn rays_from_a_diagonal_wall_start_inside<R: Real>() {
    let mut rng = Rng::new(0x0d1a_9011);
    let mut checked = 0;
    for case in 0..3000 {
        let terrain = Terrain::random(&mut rng);
        let heights = terrain.heights_in::<R>();
        let field = terrain.field(&heights);
        let pose: Iso3<R> = rng.pose(1.0);
        let pose64 = pose.cast::<f64>();
        let (i, j) = (rng.below(terrain.nx - 1), rng.below(terrain.ny - 1));
        let s = rng.range_f64(0.1, 0.9);
        let (x, y) = (
            field.sample_x(i).to_f64() + s * terrain.dx,
            field.sample_y(j).to_f64() + s * terrain.dy,
        );
        let low = terrain
            .heights
            .iter()
            .cloned()
            .fold(f64::INFINITY, f64::min);
        let base = field.base().to_f64();
        let z = rng.range_f64(base + 0.05, low - 0.05);
        let o = pose64.transform_point(Vec3::new(x, y, z));
        // Along the diagonal (in the wall's plane) or anywhere.
        let local_dir = if rng.chance(0.5) {
            Vec3::new(terrain.dx, terrain.dy, rng.range_f64(-0.3, 0.3))
                * (if rng.chance(0.5) { 1.0 } else { -1.0 })
        } else {
            rng.unit_vec::<f64>()
        };
        let dir = pose64.rotation.mul_vec(local_dir);
        let ray = Ray::new(o.cast::<R>(), dir.cast::<R>());
        let what = format!(
            "case {case}: origin {:?} (field frame), {ray:?}",
            Vec3::new(x, y, z)
        );
        let solid = height_field_ray_cast(&field, &pose, &ray, R::lit(1e3), true);
        assert_eq!(solid.status, RayStatus::Inside, "{what}: {solid:?}");
        let exit = height_field_ray_cast(&field, &pose, &ray, R::lit(1e3), false);
        // Inside by at least the least of 0.05 m (top, base) and the
        // distance to the grid's sides.
        let (w, l) = (
            field.sample_x(terrain.nx - 1).to_f64(),
            field.sample_y(terrain.ny - 1).to_f64(),
        );
        let depth = 0.05_f64.min(x).min(w - x).min(y).min(l - y);
        assert_eq!(exit.status, RayStatus::Hit, "{what}: {exit:?}");
        assert!(
            exit.toi.to_f64() * dir.norm() > 0.9 * depth,
            "{what}: {exit:?}"
        );
        checked += 1;
    }
    assert_eq!(checked, 3000);
}
for_each_real!(
    rays_from_a_diagonal_wall_start_inside,
    rays_from_a_diagonal_wall_start_inside
);

/// Rays from inside the terrain through a pit's top vertex at a shallow
/// slope (along a cell's diagonal, along a grid line, or any way): the
/// ray touches the surface at the vertex from inside and stays inside for
/// at least a cell beyond it (the pit's faces rise faster than it), so its exit is past the vertex, where the
/// terrain ends (checked by the terrain's own model). The top the ray
/// leaves at the vertex and the next cell's prism it is under again meet
/// there only within round-off, grazing: once the exit walk stopped at
/// the vertex, inside the terrain.
fn rays_from_inside_through_a_pit_vertex_go_on<R: Real>() {
    let mut rng = Rng::new(0x9ea4_7e27);
    let mut checked = 0;
    while checked < 3000 {
        let mut terrain = Terrain::random(&mut rng);
        if terrain.nx < 3 || terrain.ny < 3 {
            continue;
        }
        let (i, j) = (1 + rng.below(terrain.nx - 2), 1 + rng.below(terrain.ny - 2));
        let low = terrain.heights.iter().cloned().fold(f64::MAX, f64::min);
        terrain.heights[j * terrain.nx + i] = low - rng.range_f64(0.1, 0.3);
        let heights = terrain.heights_in::<R>();
        let field = terrain.field(&heights);
        let vertex = Vec3::new(
            field.sample_x(i).to_f64(),
            field.sample_y(j).to_f64(),
            heights[j * terrain.nx + i].to_f64(),
        );
        let (dx, dy) = (terrain.dx, terrain.dy);
        let across = match rng.below(3) {
            0 => Vec3::new(dx, dy, 0.0),
            1 => Vec3::new(1.0, 0.0, 0.0),
            _ => {
                let a = rng.range_f64(0.0, core::f64::consts::TAU);
                Vec3::new(a.cos(), a.sin(), 0.0)
            }
        } * (if rng.chance(0.5) { 1.0 } else { -1.0 });
        let across = across * (1.0 / across.norm());
        // Slope at most 0.05; the pit's faces rise at least 0.14.
        let local_dir = across + Vec3::new(0.0, 0.0, rng.range_f64(-0.05, 0.05));
        let cell = dx.min(dy);
        let before = rng.range_f64(0.2, 0.8) * cell;
        let origin = vertex - local_dir * before;
        let pose: Iso3<R> = rng.pose(1.0);
        let pose64 = pose.cast::<f64>();
        let ray = Ray::new(
            pose64.transform_point(origin).cast::<R>(),
            pose64.rotation.mul_vec(local_dir).cast::<R>(),
        );
        let what = format!(
            "pit ({i}, {j}) at {vertex:?}, local origin {origin:?}, dir {local_dir:?}, {ray:?}"
        );
        let exit = height_field_ray_cast(&field, &pose, &ray, R::lit(1e3), false);
        assert_eq!(exit.status, RayStatus::Hit, "{what}: {exit:?}");
        let t = exit.toi.to_f64();
        assert!(
            t >= before + 0.5 * cell,
            "{what}: exit {exit:?}, vertex at t {before}"
        );
        // Where the terrain ends: just after the exit, outside.
        let after = origin + local_dir * (t + 10.0 * tol::<R>());
        let depth = terrain.depth(after);
        assert!(
            depth < tol::<R>(),
            "{what}: {exit:?} is not where it ends ({depth} m inside just after, field {}x{} of {dx} x {dy})",
            terrain.nx,
            terrain.ny
        );
        checked += 1;
    }
}
for_each_real!(
    rays_from_inside_through_a_pit_vertex_go_on,
    rays_from_inside_through_a_pit_vertex_go_on
);

/// A flat terrain, tilted: the hit is the plane's, by closed form.
fn flat_height_field<R: Real>() {
    let heights = [R::lit(0.25); 16];
    let field = HeightField::new(&heights, 4, 4, R::ONE, R::ONE, R::ONE).unwrap();
    let pose = Iso3::from_parts(
        mink::support::Mat3::from_axis_angle(Vec3::X, R::lit(0.3)),
        Vec3::new(R::ONE, R::ZERO, R::ZERO),
    );
    let up = pose.rotation * Vec3::Z;
    let on = pose.transform_point(Vec3::new(R::lit(1.5), R::lit(1.5), R::lit(0.25)));
    let ray = Ray::new(on + up * R::TWO, -up);
    let hit = height_field_ray_cast(&field, &pose, &ray, R::lit(10.0), true);
    assert_eq!(hit.status, RayStatus::Hit);
    assert!((hit.toi - R::TWO).abs().to_f64() < tol::<R>(), "{hit:?}");
    assert!((hit.normal - up).norm().to_f64() < tol::<R>(), "{hit:?}");
    // Through the same spot from below the base: the base's normal.
    let below = Ray::new(on - up * R::lit(3.0), up);
    let hit = height_field_ray_cast(&field, &pose, &below, R::lit(10.0), true);
    assert_eq!(hit.status, RayStatus::Hit);
    assert!((hit.toi - R::TWO).abs().to_f64() < tol::<R>(), "{hit:?}");
    assert!((hit.normal + up).norm().to_f64() < tol::<R>(), "{hit:?}");
    // From inside, not solid: out through the top.
    let inside = Ray::new(on - up * R::HALF, up);
    let hit = height_field_ray_cast(&field, &pose, &inside, R::lit(10.0), false);
    assert_eq!(hit.status, RayStatus::Hit);
    assert!((hit.toi - R::HALF).abs().to_f64() < tol::<R>(), "{hit:?}");
    assert!((hit.normal - up).norm().to_f64() < tol::<R>(), "{hit:?}");
    // Horizontally inside, not solid: out through the grid's side.
    let across = Ray::new(on - up * R::lit(0.1), pose.rotation * Vec3::X);
    let hit = height_field_ray_cast(&field, &pose, &across, R::lit(10.0), false);
    assert_eq!(hit.status, RayStatus::Hit);
    assert!(
        (hit.toi - R::lit(1.5)).abs().to_f64() < tol::<R>(),
        "{hit:?}"
    );
    // Beside the grid: a miss; bad input: NonFinite.
    let beside = Ray::new(
        on + pose.rotation * Vec3::new(R::lit(5.0), R::ZERO, R::ZERO),
        -up,
    );
    let miss = height_field_ray_cast(&field, &pose, &beside, R::lit(10.0), true);
    assert_eq!(miss.status, RayStatus::Miss);
    let bad = Ray::new(on, Vec3::ZERO);
    let nf = height_field_ray_cast(&field, &pose, &bad, R::lit(10.0), true);
    assert_eq!(nf.status, RayStatus::NonFinite);
    // Through the collider.
    let collider: Collider<'_, R> = field.into();
    assert_eq!(
        collider.ray_cast(&pose, &ray, R::lit(10.0), true).status,
        RayStatus::Hit
    );
}
for_each_real!(flat_height_field, flat_height_field);

/// The triangles of a box's surface, outward, two per face.
pub(crate) fn box_triangles(
    lo: Vec3<f64>,
    hi: Vec3<f64>,
    inward: bool,
    first: u32,
) -> (Vec<Vec3<f64>>, Vec<[u32; 3]>) {
    let corner = |k: u32| {
        Vec3::new(
            if k & 1 == 0 { lo.x } else { hi.x },
            if k & 2 == 0 { lo.y } else { hi.y },
            if k & 4 == 0 { lo.z } else { hi.z },
        )
    };
    let vertices = (0..8).map(corner).collect();
    // Each face as a loop counter-clockwise seen from outside.
    let faces: [[u32; 4]; 6] = [
        [0, 2, 3, 1], // -z
        [4, 5, 7, 6], // +z
        [0, 1, 5, 4], // -y
        [2, 6, 7, 3], // +y
        [0, 4, 6, 2], // -x
        [1, 3, 7, 5], // +x
    ];
    let mut tris = Vec::new();
    for f in faces {
        let (a, b) = ([f[0], f[1], f[2]], [f[0], f[2], f[3]]);
        for mut t in [a, b] {
            if inward {
                t.swap(1, 2);
            }
            tris.push(t.map(|k| k + first));
        }
    }
    (vertices, tris)
}

/// Two meshes of boxes: `two`, the disjoint boxes `a` and `b`; `hollow`,
/// the box `outer` less the box `cavity` (its triangles facing into the
/// cavity). Boxes as `(lo, hi)`, mesh frame.
pub(crate) struct BoxMeshes<R: Real> {
    pub two: TriMesh<R>,
    pub hollow: TriMesh<R>,
    pub a: (Vec3<f64>, Vec3<f64>),
    pub b: (Vec3<f64>, Vec3<f64>),
    pub outer: (Vec3<f64>, Vec3<f64>),
    pub cavity: (Vec3<f64>, Vec3<f64>),
}

impl<R: Real> BoxMeshes<R> {
    pub(crate) fn new() -> Self {
        let a = (Vec3::new(-1.0, -0.5, -0.5), Vec3::new(-0.2, 0.5, 0.5));
        let b = (Vec3::new(0.3, -0.4, -0.3), Vec3::new(1.1, 0.6, 0.4));
        let outer = (Vec3::splat(-1.0), Vec3::splat(1.0));
        let cavity = (Vec3::splat(-0.5), Vec3::splat(0.5));
        let mesh = |first: (Vec3<f64>, Vec3<f64>), second: (Vec3<f64>, Vec3<f64>), inward: bool| {
            let (mut v, mut t) = box_triangles(first.0, first.1, false, 0);
            let (v2, t2) = box_triangles(second.0, second.1, inward, 8);
            v.extend(v2);
            t.extend(t2);
            let v: Vec<Vec3<R>> = v.iter().map(|p| p.cast::<R>()).collect();
            TriMesh::new(&v, &t).unwrap()
        };
        Self {
            two: mesh(a, b, false),
            hollow: mesh(outer, cavity, true),
            a,
            b,
            outer,
            cavity,
        }
    }
}

/// The first `t >= 0` of the line through the box (lo, hi), and whether
/// the origin is inside; `None` when the ray misses it.
fn box_entry(o: Vec3<f64>, d: Vec3<f64>, lo: Vec3<f64>, hi: Vec3<f64>) -> Option<(f64, f64)> {
    let (mut enter, mut exit) = (f64::NEG_INFINITY, f64::INFINITY);
    for k in 0..3 {
        let (ok, dk, l, h) = (o[k], d[k], lo[k], hi[k]);
        if dk == 0.0 {
            if ok < l || ok > h {
                return None;
            }
            continue;
        }
        let (a, b) = ((l - ok) / dk, (h - ok) / dk);
        enter = enter.max(a.min(b));
        exit = exit.min(a.max(b));
    }
    (enter <= exit && exit >= 0.0).then_some((enter, exit))
}

/// A mesh of two disjoint boxes and one of a hollow box: the nearest
/// entry, the exit from inside (of the box the origin is in), the cavity
/// seen from inside it as outside.
fn meshes_of_boxes<R: Real>() {
    let mut rng = Rng::new(0x30_4ea2);
    let BoxMeshes {
        two,
        hollow,
        a: (a_lo, a_hi),
        b: (b_lo, b_hi),
        outer: (c_lo, c_hi),
        cavity: (h_lo, h_hi),
    } = BoxMeshes::new();
    let t = tol::<R>() * 10.0;
    let mut counts = [0usize; 3];
    for case in 0..6_000 {
        let pose: Iso3<R> = rng.pose(1.0);
        let p64 = pose.cast::<f64>();
        let o_local = rng.in_cube::<f64>(1.6);
        let d_local = rng.unit_vec::<f64>() * rng.range_f64(0.5, 2.0);
        let ray = Ray::new(
            p64.transform_point(o_local).cast::<R>(),
            p64.rotation.mul_vec(d_local).cast::<R>(),
        );
        let solid = rng.chance(0.5);
        let hollow_case = case % 2 == 1;
        let mesh = if hollow_case { &hollow } else { &two };
        let got = mesh_ray_cast(&mesh.view(), &pose, &ray, R::lit(100.0), solid);
        // The reference, in the mesh frame: the first surface crossing.
        let (o, d) = (o_local, d_local);
        let surfaces: Vec<(Option<(f64, f64)>, bool)> = if hollow_case {
            vec![
                (box_entry(o, d, c_lo, c_hi), false),
                (box_entry(o, d, h_lo, h_hi), true),
            ]
        } else {
            vec![
                (box_entry(o, d, a_lo, a_hi), false),
                (box_entry(o, d, b_lo, b_hi), false),
            ]
        };
        // Crossings at t >= 0: entries and exits of each box.
        let mut first: Option<(f64, bool)> = None; // (t, leaving the solid)
        for (chord, cavity) in &surfaces {
            if let Some((enter, exit)) = chord {
                for (s, into_box) in [(*enter, true), (*exit, false)] {
                    if s >= 0.0 && first.is_none_or(|(b, _)| s < b) {
                        // Entering a cavity leaves the solid.
                        first = Some((s, into_box == *cavity));
                    }
                }
            }
        }
        let what =
            format!("case {case} hollow {hollow_case} solid {solid}: {got:?}, first {first:?}");
        match first {
            None => assert_eq!(got.status, RayStatus::Miss, "{what}"),
            Some((s, leaving)) => {
                if leaving && solid {
                    assert_eq!(got.status, RayStatus::Inside, "{what}");
                    counts[2] += 1;
                    continue;
                }
                assert_eq!(got.status, RayStatus::Hit, "{what}");
                let len = d.norm();
                assert!((got.toi.to_f64() - s).abs() * len < t, "{what}");
                let cos = got.normal.cast::<f64>().dot(ray.dir.cast::<f64>());
                assert!(if leaving { cos >= 0.0 } else { cos <= 0.0 }, "{what}");
                counts[usize::from(leaving)] += 1;
            }
        }
    }
    assert!(counts.iter().all(|&c| c > 200), "{counts:?}");
}
for_each_real!(meshes_of_boxes, meshes_of_boxes);

/// The mesh of a convex hull and the hull itself (GJK's ray cast): the
/// same hits.
fn hull_mesh_against_gjk<R: Real>() {
    let mut rng = Rng::new(0x30_4ea3);
    let t = if R::MANTISSA_BITS > 30 { 1e-6 } else { 2e-3 };
    let mut hits = 0;
    for case in 0..200 {
        let hull = ConvexHull::from_points(&rng.points_in_ball::<R>(24, 0.8)).unwrap();
        let mesh = TriMesh::from_hull(&hull.view()).unwrap();
        let shape: Shape<'_, R> = Shape::Hull(hull.view());
        let pose: Iso3<R> = rng.pose(1.0);
        for _ in 0..20 {
            let o =
                pose.translation.cast::<f64>() + rng.unit_vec::<f64>() * rng.range_f64(0.0, 2.5);
            let aim =
                pose.translation.cast::<f64>() + rng.unit_vec::<f64>() * rng.range_f64(0.0, 0.8);
            let ray = Ray::new(o.cast::<R>(), (aim - o).normalize_or(Vec3::X).cast::<R>());
            let solid = rng.chance(0.5);
            let m = mesh_ray_cast(&mesh.view(), &pose, &ray, R::lit(10.0), solid);
            let g = ray_cast(&Body::new(&shape, pose), &ray, R::lit(10.0), solid);
            let what = format!("case {case}: {ray:?} solid {solid}\n mesh {m:?}\n gjk {g:?}");
            if m.status != g.status {
                // Only grazing: the hit's normal nearly across the ray.
                let h = if m.is_hit() { m } else { g };
                assert!(
                    h.is_hit() && h.normal.dot(ray.dir).abs().to_f64() < 0.05,
                    "{what}"
                );
                continue;
            }
            if m.status == RayStatus::Hit {
                hits += 1;
                assert!((m.toi - g.toi).abs().to_f64() < t, "{what}");
            }
        }
    }
    assert!(hits > 1_500, "{hits}");
}
for_each_real!(hull_mesh_against_gjk, hull_mesh_against_gjk);

/// Small meshes (4 mm to 4 cm hulls) hit from far away (20 to 500 m,
/// `|dir|` the distance): a ray from outside is never `Inside`, and hits
/// where GJK's ray cast on the hull does. The crossing tests once took
/// their moments about the ray's origin, whose distance drowned the
/// mesh's size in f32 round-off, and a ray from 57 m away was `Inside` a
/// 4 mm mesh (the `scene_queries` fuzz target); then, through a
/// silhouette edge, the entering and leaving crossings 1e-9 apart rounded
/// to one `t` and the leaving one, first in index order, was taken. f32
/// fails at case 0 without the fixes; f64 passes either way.
fn small_meshes_from_far_away<R: Real>() {
    // The round-off of a ray from `far` meters, in units of `ε · far`: the
    // origin's own coordinates, moved into the mesh's frame and along the
    // ray, carry a few hundred of them (two casts from 69 m in f32 differ
    // by 9e-4 m, 110 of them, at a hull's edge).
    const ORIGIN_ULPS: f64 = 256.0;
    let mut rng = Rng::new(0x05a1_1fa7);
    let mut hits = 0;
    let mut misses = Vec::new();
    for case in 0..300 {
        let size = [0.004, 0.01, 0.04][case % 3];
        let hull = ConvexHull::from_points(&rng.points_in_ball::<R>(10, size)).unwrap();
        let Ok(mesh) = TriMesh::from_hull(&hull.view()) else {
            continue;
        };
        let shape: Shape<'_, R> = Shape::Hull(hull.view());
        let pose: Iso3<R> = rng.pose(1.0);
        for _ in 0..10 {
            let far = rng.range_f64(20.0, 500.0);
            let centre = pose
                .transform_point(hull.view().interior_point())
                .cast::<f64>();
            let aim = centre + rng.unit_vec::<f64>() * rng.range_f64(0.0, 0.5 * size);
            let o = aim + rng.unit_vec::<f64>() * far;
            let ray = Ray::new(o.cast::<R>(), (aim - o).cast::<R>());
            let m = mesh_ray_cast(&mesh.view(), &pose, &ray, R::lit(2.0), true);
            let g = ray_cast(&Body::new(&shape, pose), &ray, R::lit(2.0), true);
            let what = format!("case {case}: {ray:?}\n mesh {m:?}\n gjk {g:?}");
            assert_ne!(m.status, RayStatus::Inside, "{what}");
            if m.status == RayStatus::Hit && g.status == RayStatus::Hit {
                hits += 1;
                // Both within the round-off of the origin's distance.
                let apart = (m.point - g.point).norm().to_f64();
                assert!(apart < ORIGIN_ULPS * R::EPSILON.to_f64() * far, "{what}");
            } else if m.is_hit() != g.is_hit() {
                // A miss of one where the other hits: the ray passes
                // within the origin's round-off of the hull's edge.
                let h = if m.is_hit() { m } else { g };
                let edge = edge_distance(&hull, &pose, h.point.cast());
                if edge > ORIGIN_ULPS * R::EPSILON.to_f64() * far {
                    misses.push(format!("{what}\n hit {edge} m from an edge"));
                }
            }
        }
    }
    assert!(
        misses.is_empty(),
        "{} misses:\n{}",
        misses.len(),
        misses.join("\n")
    );
    assert!(hits > 2_000, "{hits}");
}
for_each_real!(small_meshes_from_far_away, small_meshes_from_far_away);

/// The distance of the world point `p` from the nearest edge of the hull's
/// faces at `pose`, meters (f64).
fn edge_distance<R: Real>(hull: &ConvexHull<R>, pose: &Iso3<R>, p: Vec3<f64>) -> f64 {
    let view = hull.view();
    let mesh = TriMesh::from_hull(&view).unwrap();
    let mut best = f64::INFINITY;
    for &[a, b] in mesh.edges() {
        let at = |i: u32| {
            pose.transform_point(mesh.vertices()[i as usize])
                .cast::<f64>()
        };
        let (a, b) = (at(a), at(b));
        let ab = b - a;
        let s = ((p - a).dot(ab) / ab.dot(ab)).clamp(0.0, 1.0);
        best = best.min((a + ab * s - p).norm());
    }
    best
}

/// Rays through a cube mesh's face diagonals (the edge two triangles
/// share), its edges and its corners: every one hits, none slips through.
fn rays_through_shared_edges_hit<R: Real>() {
    let (v, tris) = box_triangles(Vec3::splat(-0.5), Vec3::splat(0.5), false, 0);
    let verts: Vec<Vec3<R>> = v.iter().map(|p| p.cast()).collect();
    let cube = TriMesh::new(&verts, &tris).unwrap();
    let mut checked = 0;
    for k in 0..=20 {
        let s = -0.5 + k as f64 / 20.0;
        // Along every axis, at points of the faces' diagonals and edges.
        let cases: [(Vec3<f64>, Vec3<f64>, f64); 6] = [
            (Vec3::new(s, s, 3.0), -Vec3::Z, 2.5),
            (Vec3::new(s, -s, -3.0), Vec3::Z, 2.5),
            (Vec3::new(3.0, s, s), -Vec3::X, 2.5),
            (Vec3::new(s, 3.0, -s), -Vec3::Y, 2.5),
            (Vec3::new(0.5, s, 3.0), -Vec3::Z, 2.5),
            (Vec3::new(s, -0.5, 3.0), -Vec3::Z, 2.5),
        ];
        for (o, d, expect) in cases {
            let ray = Ray::new(o.cast::<R>(), d.cast::<R>());
            let hit = mesh_ray_cast(&cube.view(), &Iso3::IDENTITY, &ray, R::lit(10.0), true);
            assert_eq!(hit.status, RayStatus::Hit, "{ray:?}: {hit:?}");
            assert!(
                (hit.toi.to_f64() - expect).abs() < tol::<R>(),
                "{ray:?}: {hit:?}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 21 * 6);
}
for_each_real!(rays_through_shared_edges_hit, rays_through_shared_edges_hit);

/// Rays aimed exactly at a vertex of a hull's mesh, from outside and from
/// inside, solid or not, against GJK's cast on the hull: the same side
/// (never `Inside` from outside: the triangles around a vertex crossed a
/// few ulps apart in the wrong order once made a ray that touched a
/// silhouette vertex from 0.4 m away `Inside`), and the same hit but for
/// a graze of the vertex itself.
fn rays_through_vertices_against_gjk<R: Real>() {
    let mut rng = Rng::new(0x7e47_1ce5);
    let t = if R::MANTISSA_BITS > 30 { 1e-6 } else { 2e-3 };
    let (mut hits, mut grazes, mut rays) = (0, 0, 0);
    for case in 0..200 {
        let hull = ConvexHull::from_points(&rng.points_in_ball::<R>(16, 0.8)).unwrap();
        let mesh = TriMesh::from_hull(&hull.view()).unwrap();
        let shape: Shape<'_, R> = Shape::Hull(hull.view());
        let pose: Iso3<R> = rng.pose(1.0);
        for &v in mesh.vertices() {
            let vertex = pose.transform_point(v).cast::<f64>();
            let centre = pose.translation.cast::<f64>();
            // From anywhere around (outside mostly), or from inside.
            let o = if rng.chance(0.8) {
                vertex + rng.unit_vec::<f64>() * rng.range_f64(0.05, 2.0)
            } else {
                centre + (vertex - centre) * rng.range_f64(0.0, 0.9)
            };
            let ray = Ray::new(o.cast::<R>(), (vertex - o).cast::<R>());
            let solid = rng.chance(0.5);
            let m = mesh_ray_cast(&mesh.view(), &pose, &ray, R::lit(10.0), solid);
            let g = ray_cast(&Body::new(&shape, pose), &ray, R::lit(10.0), solid);
            rays += 1;
            let what = format!("case {case}: {ray:?} solid {solid}\n mesh {m:?}\n gjk {g:?}");
            if m.status != g.status {
                // Only a touch of the vertex (toi 1): the hit at it.
                let h = if m.is_hit() { m } else { g };
                assert!(
                    h.status == RayStatus::Hit
                        && (h.point.cast::<f64>() - vertex).norm() < 10.0 * t,
                    "{what}"
                );
                grazes += 1;
                continue;
            }
            if m.status == RayStatus::Hit {
                hits += 1;
                assert!((m.toi - g.toi).abs().to_f64() < t, "{what}");
            }
        }
    }
    assert!(
        hits > rays / 3 && grazes < rays / 2,
        "{hits} hits, {grazes} grazes of {rays}"
    );
}
for_each_real!(
    rays_through_vertices_against_gjk,
    rays_through_vertices_against_gjk
);

/// Rays run along an edge of a convex mesh from up to 50 m away: the line
/// lies in the planes of the two triangles sharing the edge, where their
/// plane crossing is round-off over round-off. The ray as rounded may
/// graze the hull anywhere along the edge (or miss it), so a hit must be
/// on the edge, within the round-off of the origin's distance; from one
/// such ray the f32 cast once answered a point 1.3 m before the mesh's
/// box.
fn rays_along_edges_hit_the_edge<R: Real>() {
    const ORIGIN_ULPS: f64 = 256.0;
    let mut rng = Rng::new(0x0ed9_e5a1);
    let (mut hits, mut rays) = (0, 0);
    for case in 0..200 {
        let size = rng.range_f64(0.05, 2.0);
        let hull = ConvexHull::from_points(&rng.points_in_ball::<R>(8, size)).unwrap();
        let Ok(mesh) = TriMesh::from_hull(&hull.view()) else {
            continue;
        };
        let pose: Iso3<R> = rng.pose(2.0);
        let at = |i: u32| {
            pose.transform_point(mesh.vertices()[i as usize])
                .cast::<f64>()
        };
        for &[i, j] in mesh.edges() {
            let (a, b) = if rng.below(2) == 0 {
                (at(i), at(j))
            } else {
                (at(j), at(i))
            };
            let along = (b - a).normalize_or(Vec3::X);
            let far = rng.range_f64(0.5, 50.0);
            let o = a - along * far;
            let scale = rng.range_f64(0.1, 40.0);
            let ray = Ray::new(o.cast::<R>(), (along * scale).cast::<R>());
            let hit = mesh_ray_cast(&mesh.view(), &pose, &ray, R::INFINITY, false);
            rays += 1;
            if !hit.is_hit() {
                continue;
            }
            hits += 1;
            // The line's round-off: the origin's coordinates and the
            // direction's, carried `far` along the ray.
            let tol = ORIGIN_ULPS * R::EPSILON.to_f64() * (o.norm() + far + size);
            let what = format!("case {case}: edge {a:?} to {b:?}, {ray:?}: {hit:?}");
            assert_eq!(hit.status, RayStatus::Hit, "{what}");
            let ab = b - a;
            let s = ((hit.point.cast::<f64>() - a).dot(ab) / ab.dot(ab)).clamp(0.0, 1.0);
            let off = (a + ab * s - hit.point.cast::<f64>()).norm();
            assert!(off < tol, "{what}: {off} m off the edge");
        }
    }
    // The rounded line grazes the hull: it hits or misses about as often.
    assert!(hits * 4 > rays, "{hits} of {rays}");
}
for_each_real!(rays_along_edges_hit_the_edge, rays_along_edges_hit_the_edge);

/// Bad input never panics: non-finite poses and rays, negative `max_toi`.
#[test]
fn bad_input_is_refused() {
    let (v, tris) = box_triangles(Vec3::splat(-0.5), Vec3::splat(0.5), false, 0);
    let cube = TriMesh::new(&v, &tris).unwrap();
    let good = Ray::new(Vec3::new(0.0, 0.0, 3.0), -Vec3::Z);
    let nan = Iso3::from_translation(Vec3::new(f64::NAN, 0.0, 0.0));
    let cases: [(Iso3<f64>, Ray<f64>, f64); 3] = [
        (nan, good, 1.0),
        (
            Iso3::IDENTITY,
            Ray::new(Vec3::ZERO, Vec3::new(f64::INFINITY, 0.0, 0.0)),
            1.0,
        ),
        (Iso3::IDENTITY, good, -1.0),
    ];
    for (pose, ray, max_toi) in cases {
        let r: RayCast<f64> = mesh_ray_cast(&cube.view(), &pose, &ray, max_toi, true);
        assert_eq!(r.status, RayStatus::NonFinite);
    }
}
