//! Decoded non-convex colliders: height fields and closed triangle meshes
//! with their signed distance fields, for the targets that fuzz
//! [`mink::Collider`] and the scene queries (`collider_queries`,
//! `scene_queries`).
//!
//! Height-field layout (reading past the end gives zeros, so every input
//! decodes):
//!
//! | bytes | meaning |
//! |---|---|
//! | 1 | samples: bits 0–1 `nx - 2`, bits 2–3 `ny - 2` (2 to 5 each), bits 4–5 the scale (1, 1, 1/100, 30), bits 6–7 the relief: flat (every height equal: rays and shapes along the surface), random, terraced (two levels: cliffs between cells), random within 1e-4 of flat |
//! | 6 | spacing `dx`, `dy` (0.05 to 1 m) and thickness (0.01 to 1 m), before the scale |
//! | 2 | the relief's amplitude (0 to 1 m before the scale) |
//! | 2 per sample | its height in `[-amplitude, amplitude]` (flat: one for all) |
//!
//! Mesh layout: a flag byte (bit 0: a box's 8 corners before the points,
//! bits 1–2 the scale as above, bit 3 non-convex), three sizes (2 bytes
//! each, 0.05 to 1 m), a point count byte (4 to 12) and the points (6
//! bytes each, within the sizes); the mesh is the points' hull's surface,
//! each face fanned from its first vertex. A non-convex mesh then moves
//! every vertex towards the hull's interior point by a decoded factor (a
//! byte each, 0.3 to 1): the triangles keep their directions from that
//! point, so the surface stays closed, consistently oriented and free of
//! self-intersections (each ray from the point still crosses it once),
//! but dents appear between the vertices pulled in. A byte picks the
//! field's resolution (4 to 19 samples along the longest axis).

use super::bytes::ByteReader;
use super::shapes::length;
use mink::sdf::{OwnedSdf, SdfBody, SdfOptions, TriMesh};
use mink::support::{ConvexHull, HeightField, Real, Support, Vec3};

/// Most samples of a decoded height field along an axis.
pub const MAX_FIELD_SAMPLES: usize = 5;

/// Most points of a decoded mesh's hull (the box's corners besides).
pub const MAX_MESH_POINTS: usize = 12;

/// A decoded height field's parameters, owning the heights a
/// [`HeightField`] borrows.
#[derive(Clone, Debug)]
pub struct FieldSpec<R> {
    heights: Vec<R>,
    nx: usize,
    ny: usize,
    dx: f64,
    dy: f64,
    thickness: f64,
}

impl<R: Real> FieldSpec<R> {
    /// The height field, or `None` when [`HeightField::new`] refuses the
    /// decoded parameters.
    pub fn field(&self) -> Option<HeightField<'_, R>> {
        HeightField::new(
            &self.heights,
            self.nx,
            self.ny,
            R::lit(self.dx),
            R::lit(self.dy),
            R::lit(self.thickness),
        )
        .ok()
    }

    /// An upper bound on the distance of the terrain's points from its
    /// frame's origin, meters.
    pub fn extent(&self) -> f64 {
        let top = self
            .heights
            .iter()
            .map(|&h| Real::to_f64(h).abs())
            .fold(0.0, f64::max);
        self.dx * (self.nx - 1) as f64 + self.dy * (self.ny - 1) as f64 + top + self.thickness
    }
}

/// Decodes a height field (layout in the module docs); `None` when
/// [`HeightField::new`] refuses it.
pub fn decode_height_field<R: Real>(r: &mut ByteReader<'_>) -> Option<FieldSpec<R>> {
    let b = r.u8();
    let nx = 2 + usize::from(b & 3) % (MAX_FIELD_SAMPLES - 1);
    let ny = 2 + usize::from((b >> 2) & 3) % (MAX_FIELD_SAMPLES - 1);
    let scale = [1.0, 1.0, 0.01, 30.0][usize::from((b >> 4) & 3)];
    let relief = b >> 6;
    let dx = length(r, 0.05, 1.0) * scale;
    let dy = length(r, 0.05, 1.0) * scale;
    let thickness = length(r, 0.01, 1.0) * scale;
    let amplitude = length(r, 0.0, 1.0) * scale;
    let flat = length(r, -amplitude, amplitude);
    let heights = (0..nx * ny)
        .map(|_| {
            let h = match relief {
                0 => flat,
                1 => length(r, -amplitude, amplitude),
                2 => {
                    if r.u8() & 1 == 0 {
                        flat
                    } else {
                        flat + amplitude
                    }
                }
                _ => flat + length(r, -1e-4, 1e-4) * scale,
            };
            R::lit(h)
        })
        .collect();
    let spec = FieldSpec {
        heights,
        nx,
        ny,
        dx,
        dy,
        thickness,
    };
    spec.field()?;
    Some(spec)
}

/// A decoded closed mesh and its signed distance field.
#[derive(Clone, Debug)]
pub struct MeshSpec<R> {
    /// The mesh (mesh frame, meters).
    pub mesh: TriMesh<R>,
    /// Its field.
    pub field: OwnedSdf<R>,
    /// `true` when the vertices were pulled in (not convex in general).
    pub dented: bool,
    /// A point every ray from which crosses the surface once (the hull's
    /// interior point the vertices were pulled towards), mesh frame.
    pub centre: Vec3<f64>,
    extent: f64,
}

impl<R: Real> MeshSpec<R> {
    /// The mesh with its field, as a [`mink::Collider::Mesh`] borrows it.
    pub fn body(&self) -> SdfBody<'_, R> {
        SdfBody::new(self.mesh.view(), self.field.view())
    }

    /// An upper bound on the distance of the mesh's points from its
    /// frame's origin, meters.
    pub fn extent(&self) -> f64 {
        self.extent
    }

    /// Whether the mesh-frame point `p` is inside the mesh, from where the
    /// ray from [`Self::centre`] through `p` crosses the surface (once: the
    /// mesh is star-shaped from the centre), in f64: `None` when no
    /// triangle reports the crossing (the ray through an edge lost to
    /// rounding) or `p` is within `tol` meters of it.
    pub fn contains(&self, p: Vec3<f64>, tol: f64) -> Option<bool> {
        let d = p - self.centre;
        let len = d.norm();
        if len <= tol {
            return Some(true);
        }
        let u = d * (1.0 / len);
        let view = self.mesh.view();
        for t in 0..view.triangles().len() {
            let Some([a, b, c]) = view.triangle(t) else {
                continue;
            };
            let (a, b, c) = (a.cast::<f64>(), b.cast::<f64>(), c.cast::<f64>());
            let Some(s) = crossing(self.centre, u, a, b, c) else {
                continue;
            };
            if (s - len).abs() <= tol {
                return None;
            }
            return Some(len < s);
        }
        None
    }
}

/// Where the ray `o + s u` (`s > 0`) crosses the triangle `a b c`
/// (Möller–Trumbore, f64, edges included), if it does.
fn crossing(o: Vec3<f64>, u: Vec3<f64>, a: Vec3<f64>, b: Vec3<f64>, c: Vec3<f64>) -> Option<f64> {
    let (e1, e2) = (b - a, c - a);
    let p = u.cross(e2);
    let det = e1.dot(p);
    if det.abs() <= 1e-300 {
        return None;
    }
    let inv = 1.0 / det;
    let w = o - a;
    let bu = w.dot(p) * inv;
    let q = w.cross(e1);
    let bv = u.dot(q) * inv;
    const EDGE: f64 = -1e-12;
    if bu < EDGE || bv < EDGE || bu + bv > 1.0 - EDGE {
        return None;
    }
    let s = e2.dot(q) * inv;
    (s > 0.0).then_some(s)
}

/// Decodes a closed mesh (layout in the module docs); `None` when the hull,
/// the mesh or its field refuses the decoded points.
pub fn decode_mesh<R: Real>(r: &mut ByteReader<'_>) -> Option<MeshSpec<R>> {
    let flags = r.u8();
    let scale = [1.0, 1.0, 0.01, 30.0][usize::from((flags >> 1) & 3)];
    let size = [
        length(r, 0.05, 1.0) * scale,
        length(r, 0.05, 1.0) * scale,
        length(r, 0.05, 1.0) * scale,
    ];
    let [x, y, z] = size;
    let v = |a: f64, b: f64, c: f64| Vec3::new(R::lit(a), R::lit(b), R::lit(c));
    let mut points = Vec::new();
    if flags & 1 != 0 {
        for i in 0..8 {
            let c = |bit: usize, h: f64| if i & bit != 0 { h } else { -h };
            points.push(v(c(1, x), c(2, y), c(4, z)));
        }
    }
    let n = 4 + usize::from(r.u8()) % (MAX_MESH_POINTS - 3);
    for _ in 0..n {
        let p = v(length(r, -x, x), length(r, -y, y), length(r, -z, z));
        points.push(p);
    }
    let hull = ConvexHull::from_points(&points).ok()?;
    let convex = TriMesh::from_hull(&hull.view()).ok()?;
    let dented = flags & 8 != 0;
    let mesh = if dented {
        let centre = hull.view().interior_point();
        let vertices: Vec<Vec3<R>> = convex
            .vertices()
            .iter()
            .map(|&p| centre + (p - centre) * R::lit(length(r, 0.3, 1.0)))
            .collect();
        TriMesh::new(&vertices, convex.triangles()).ok()?
    } else {
        convex
    };
    let resolution = 4 + u32::from(r.u8() % 16);
    let padding = R::lit(0.1 * (x + y + z));
    let field = OwnedSdf::build(&mesh, SdfOptions::new(resolution, padding)).ok()?;
    Some(MeshSpec {
        mesh,
        field,
        dented,
        centre: hull.view().interior_point().cast(),
        extent: (x * x + y * y + z * z).sqrt(),
    })
}
