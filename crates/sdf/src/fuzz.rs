//! The fuzz harness (feature `alloc`): decodes arbitrary bytes into a mesh
//! (a procedural solid, a triangle soup or raw arrays) and a mutation
//! (drop, duplicate or flip a triangle, collapse or poison a vertex, an
//! index out of range, rescale, jitter), then checks that building refuses
//! exactly the meshes it must, with the right error, and that every query
//! on a built field is finite. cargo-fuzz calls [`fuzz_one_input`]; the
//! crate's tests run it over thousands of seeded random byte strings.

use crate::{
    convex_convex_deep, mesh_convex_contacts, mesh_mesh_contacts, Contact, MeshError, OwnedSdf,
    SdfBody, SdfOptions, TriMesh,
};
use alloc::vec::Vec;
use mink_support::{Cuboid, Iso3, Quat, Real, Vec3};

/// Samples along the longest axis of a fuzzed field, at most (fields stay
/// small so an input runs in about a millisecond).
pub const FUZZ_MAX_RESOLUTION: u32 = 12;

/// Segments around a fuzzed torus, at most, each way.
pub const FUZZ_MAX_TORUS_SEGMENTS: usize = 8;

/// Vertices of a raw fuzzed mesh, at most.
pub const FUZZ_MAX_RAW_VERTICES: usize = 16;

/// What one input exercised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuzzOutcome {
    /// The mesh was refused, rightly.
    Refused(MeshError),
    /// The mesh and its field were built and every check passed.
    Built,
}

/// The first failed check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FuzzFailure {
    /// Which check, and for which scalar.
    pub what: &'static str,
}

/// Bytes read in order; zeros once exhausted.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u8(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    /// A lattice coordinate in `[-2, 2]` meters, step 1/32.
    fn coord<R: Real>(&mut self) -> R {
        R::lit(f64::from(self.u8() as i8) / 32.0)
    }
}

/// The mutation a procedural mesh undergoes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mutation {
    None,
    DropTriangle,
    DuplicateTriangle,
    FlipTriangle,
    Collapse,
    NonFinite,
    OutOfRange,
    FlipAll,
    Rescale,
    Jitter,
}

fn procedural<R: Real>(kind: u8, r: &mut Reader<'_>) -> (Vec<Vec3<R>>, Vec<[u32; 3]>) {
    let v = |x: f64, y: f64, z: f64| Vec3::new(R::lit(x), R::lit(y), R::lit(z));
    match kind {
        0 => (
            alloc::vec![v(0., 0., 0.), v(1., 0., 0.), v(0., 1., 0.), v(0., 0., 1.)],
            alloc::vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
        ),
        1 | 4 => {
            let corners: Vec<Vec3<R>> = (0..8)
                .map(|i| {
                    let s = |bit: u32| if i & bit != 0 { 0.5 } else { -0.5 };
                    v(s(1), s(2), s(4))
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
            let mut tris = Vec::new();
            for q in quads {
                tris.push([q[0], q[1], q[2]]);
                tris.push([q[0], q[2], q[3]]);
            }
            if kind == 4 {
                // A soup: every triangle with its own copies of its corners.
                let mut soup = Vec::new();
                let mut st = Vec::new();
                for t in &tris {
                    let base = soup.len() as u32;
                    soup.extend(t.iter().map(|&i| corners[i as usize]));
                    st.push([base, base + 1, base + 2]);
                }
                return (soup, st);
            }
            (corners, tris)
        }
        2 => (
            alloc::vec![
                v(1., 0., 0.),
                v(-1., 0., 0.),
                v(0., 1., 0.),
                v(0., -1., 0.),
                v(0., 0., 1.),
                v(0., 0., -1.)
            ],
            alloc::vec![
                [0, 2, 4],
                [2, 1, 4],
                [1, 3, 4],
                [3, 0, 4],
                [2, 0, 5],
                [1, 2, 5],
                [3, 1, 5],
                [0, 3, 5]
            ],
        ),
        _ => {
            let nu = 3 + usize::from(r.u8()) % (FUZZ_MAX_TORUS_SEGMENTS - 2);
            let nv = 3 + usize::from(r.u8()) % (FUZZ_MAX_TORUS_SEGMENTS - 2);
            let minor = 0.1 + f64::from(r.u8() % 64) / 100.0;
            let mut verts = Vec::new();
            for i in 0..nu {
                let u = core::f64::consts::TAU * i as f64 / nu as f64;
                for j in 0..nv {
                    let w = core::f64::consts::TAU * j as f64 / nv as f64;
                    let rr = 1.0 + minor * libm_cos(w);
                    verts.push(v(rr * libm_cos(u), rr * libm_sin(u), minor * libm_sin(w)));
                }
            }
            let id = |i: usize, j: usize| ((i % nu) * nv + (j % nv)) as u32;
            let mut tris = Vec::new();
            for i in 0..nu {
                for j in 0..nv {
                    let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
                    tris.push([a, b, c]);
                    tris.push([a, c, d]);
                }
            }
            (verts, tris)
        }
    }
}

/// `cos` through [`Real`]'s float functions (libm without std).
fn libm_cos(x: f64) -> f64 {
    fn c<R: Real>(x: R) -> R {
        x.cos()
    }
    c(x)
}

/// `sin` through [`Real`]'s float functions (libm without std).
fn libm_sin(x: f64) -> f64 {
    fn s<R: Real>(x: R) -> R {
        x.sin()
    }
    s(x)
}

/// A query point: lattice, far, special, or one of the mesh's vertices.
fn point<R: Real>(r: &mut Reader<'_>, verts: &[Vec3<R>]) -> Vec3<R> {
    match r.u8() % 8 {
        0 => Vec3::new(R::nan(), R::ZERO, R::ZERO),
        1 => Vec3::new(R::INFINITY, -R::INFINITY, R::ZERO),
        2 => Vec3::new(R::MAX, -R::MAX, R::MAX),
        3 => Vec3::new(R::min_positive_value(), R::ZERO, -R::ZERO),
        4 => {
            let i = usize::from(r.u8()) % verts.len().max(1);
            verts.get(i).copied().unwrap_or(Vec3::ZERO)
        }
        _ => Vec3::new(r.coord(), r.coord(), r.coord()),
    }
}

fn fail(what: &'static str) -> FuzzFailure {
    FuzzFailure { what }
}

/// Runs the checks for one scalar type.
pub fn check_bytes<R: Real>(data: &[u8]) -> Result<FuzzOutcome, FuzzFailure> {
    let mut r = Reader { data, at: 0 };
    let kind = r.u8() % 6;
    let mutation = match r.u8() % 16 {
        4 => Mutation::DropTriangle,
        5 => Mutation::DuplicateTriangle,
        6 => Mutation::FlipTriangle,
        7 => Mutation::Collapse,
        8 => Mutation::NonFinite,
        9 => Mutation::OutOfRange,
        10 => Mutation::FlipAll,
        11 => Mutation::Rescale,
        12 | 13 => Mutation::Jitter,
        _ => Mutation::None,
    };
    let (mut verts, mut tris) = if kind == 5 {
        let n = 1 + usize::from(r.u8()) % FUZZ_MAX_RAW_VERTICES;
        let verts: Vec<Vec3<R>> = (0..n)
            .map(|_| Vec3::new(r.coord(), r.coord(), r.coord()))
            .collect();
        let m = usize::from(r.u8()) % 24;
        let tris = (0..m)
            .map(|_| [0; 3].map(|_: u32| u32::from(r.u8()) % (n as u32 + 1)))
            .collect();
        (verts, tris)
    } else {
        procedural::<R>(kind, &mut r)
    };
    let pick = usize::from(r.u8()) % tris.len().max(1);
    match mutation {
        Mutation::DropTriangle if !tris.is_empty() => {
            tris.remove(pick);
        }
        Mutation::DuplicateTriangle if !tris.is_empty() => tris.push(tris[pick]),
        Mutation::FlipTriangle if !tris.is_empty() => tris[pick].swap(0, 1),
        Mutation::Collapse if verts.len() > 1 => verts[1] = verts[0],
        Mutation::NonFinite => {
            let i = pick % verts.len();
            verts[i].y = R::nan();
        }
        Mutation::OutOfRange if !tris.is_empty() => tris[pick][2] = verts.len() as u32,
        Mutation::FlipAll => tris.iter_mut().for_each(|t| t.swap(1, 2)),
        Mutation::Rescale => {
            let s = R::lit([1e-12, 1e-3, 1e3, 1e12][pick % 4]);
            verts.iter_mut().for_each(|v| *v *= s);
        }
        Mutation::Jitter => {
            for v in verts.iter_mut() {
                let d = Vec3::new(r.coord::<R>(), r.coord(), r.coord()) * R::lit(1e-3);
                *v += d;
            }
        }
        _ => {}
    }

    let mesh = TriMesh::new(&verts, &tris);
    let procedural = kind != 5;
    let expect = |ok: bool, what| if ok { Ok(()) } else { Err(fail(what)) };
    let mesh = match mesh {
        Err(e) => {
            if procedural {
                match mutation {
                    Mutation::None | Mutation::FlipAll => return Err(fail("valid mesh refused")),
                    Mutation::DropTriangle => expect(
                        matches!(e, MeshError::OpenEdge { .. }),
                        "dropped triangle: not OpenEdge",
                    )?,
                    Mutation::DuplicateTriangle => expect(
                        matches!(e, MeshError::NonManifoldEdge { .. }),
                        "duplicated triangle: not NonManifoldEdge",
                    )?,
                    Mutation::FlipTriangle => expect(
                        matches!(e, MeshError::InconsistentOrientation { .. }),
                        "flipped triangle: not InconsistentOrientation",
                    )?,
                    Mutation::NonFinite => expect(
                        matches!(e, MeshError::NonFinite { .. }),
                        "NaN vertex: not NonFinite",
                    )?,
                    Mutation::OutOfRange => expect(
                        matches!(e, MeshError::IndexOutOfRange { .. }),
                        "bad index: not IndexOutOfRange",
                    )?,
                    _ => {}
                }
            }
            return Ok(FuzzOutcome::Refused(e));
        }
        Ok(m) => m,
    };
    if procedural
        && matches!(
            mutation,
            Mutation::DropTriangle
                | Mutation::DuplicateTriangle
                | Mutation::FlipTriangle
                | Mutation::NonFinite
                | Mutation::OutOfRange
        )
    {
        return Err(fail("broken mesh accepted"));
    }

    let resolution = 2 + u32::from(r.u8()) % (FUZZ_MAX_RESOLUTION - 1);
    let size = (mesh.view().aabb().max - mesh.view().aabb().min).max_element();
    let padding = size * R::lit(f64::from(r.u8() % 4) / 10.0);
    let field = OwnedSdf::build_serial(&mesh, SdfOptions::new(resolution, padding))
        .map_err(|_| fail("build refused a valid mesh"))?;
    let view = field.view();
    if field.samples().iter().any(|s| !s.finite()) {
        return Err(fail("non-finite sample"));
    }
    let cell = view.grid().cell;
    // A surface point's interpolated distance is within √3 h: every corner
    // of its cell is within √3 h of it.
    let tol = cell * R::lit(1.75) + size * R::lit(1e-4);
    for &v in mesh.vertices() {
        let (d, g) = view.distance_and_gradient(v);
        if d.is_nan() || d.abs() > tol || !g.is_finite() {
            return Err(fail("vertex distance beyond the cell bound"));
        }
    }
    for _ in 0..16 {
        let p = point::<R>(&mut r, mesh.vertices());
        let (d, g) = view.distance_and_gradient(p);
        if !d.finite() || !g.is_finite() {
            return Err(fail("non-finite query"));
        }
        if !p.is_finite() && (d != R::MAX || g != Vec3::ZERO) {
            return Err(fail("non-finite input: not the documented fallback"));
        }
    }

    // Contacts of the mesh with itself at a decoded pose.
    let body = SdfBody::new(mesh.view(), view);
    let t = Vec3::new(r.coord::<R>(), r.coord(), r.coord()) * (size / R::TWO);
    let q = Quat::from_wxyz(
        R::ONE + R::lit(f64::from(r.u8()) / 64.0),
        r.coord(),
        r.coord(),
        r.coord(),
    )
    .normalize()
    .unwrap_or(Quat::IDENTITY);
    let pose = Iso3::from_quat(t, q).unwrap_or(Iso3::IDENTITY);
    let margin = size * R::lit(f64::from(r.u8() % 4) / 20.0);
    let zero = Contact {
        point_a: Vec3::ZERO,
        point_b: Vec3::ZERO,
        normal: Vec3::X,
        distance: R::ZERO,
    };
    let mut out = [zero; 8];
    let n = mesh_mesh_contacts(&body, &Iso3::IDENTITY, &body, &pose, margin, &mut out);
    check_contacts(&out[..n], margin)?;
    let cuboid = Cuboid::new(Vec3::splat(size / R::lit(4.0))).map_err(|_| fail("cuboid"))?;
    let n = mesh_convex_contacts(&body, &Iso3::IDENTITY, &cuboid, &pose, margin, &mut out);
    check_contacts(&out[..n], margin)?;
    if let Some(deep) = convex_convex_deep(&body, &Iso3::IDENTITY, &body, &pose) {
        let sound = deep.depth > R::ZERO
            && deep.depth.finite()
            && deep.normal.is_finite()
            && deep.point_a.is_finite()
            && deep.point_b.is_finite();
        if !sound {
            return Err(fail("deep penetration not finite and positive"));
        }
    }
    Ok(FuzzOutcome::Built)
}

fn check_contacts<R: Real>(cs: &[Contact<R>], margin: R) -> Result<(), FuzzFailure> {
    for c in cs {
        let unit = (c.normal.norm() - R::ONE).abs() <= R::sqrt_epsilon();
        let finite = c.point_a.is_finite() && c.point_b.is_finite() && c.distance.finite();
        if !unit || !finite || c.distance > margin {
            return Err(fail("contact not finite, not unit or beyond the margin"));
        }
    }
    Ok(())
}

/// The fuzz target's body: [`check_bytes`] in `f32` and `f64`.
pub fn fuzz_one_input(data: &[u8]) -> Result<FuzzOutcome, FuzzFailure> {
    check_bytes::<f32>(data)?;
    check_bytes::<f64>(data)
}
