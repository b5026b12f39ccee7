//! The fuzz harness (behind `alloc`): [`fuzz_one_input`] turns arbitrary
//! bytes into a mesh, a field, a blob and query directions, and checks that
//! nothing panics and no query returns an index outside the mesh.
//!
//! A cargo-fuzz target is one line, `fuzz_target!(|data: &[u8]| {
//! mink_field::fuzz::fuzz_one_input(data).unwrap() })`; the crate's tests run
//! the same function on thousands of seeded random inputs.

use crate::blob::{write_blob, BlobLayout, FieldBlob};
use crate::view::prescale;
use crate::{CellStore, FieldSet, FieldView, HullGraph, SupportField, MIN_RESOLUTION};
use alloc::vec::Vec;
use mink_support::Vec3;

/// Resolutions the harness tries: `MIN_RESOLUTION` plus up to this.
const FUZZ_RES_SPAN: u8 = 24;
/// Most vertices the harness builds a mesh of.
const FUZZ_MAX_VERTICES: usize = 48;

/// No mesh to compare against (the field alone is checked).
const NO_MESH: Option<(&[Vec3<f32>], &HullGraph<'static, f32>)> = None;

/// An invariant the harness found broken.
pub type FuzzFailure = &'static str;

fn f32_at(data: &[u8], at: usize) -> f32 {
    match data.get(at..at + 4) {
        Some(b) => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        None => 0.0,
    }
}

/// Runs every check on one input; `Err` names the broken invariant (a
/// fuzz target unwraps it). Never panics itself.
pub fn fuzz_one_input(data: &[u8]) -> Result<(), FuzzFailure> {
    // 1. The bytes as a blob: parsing must refuse or accept, and an
    //    accepted blob must answer in range.
    if let Ok(blob) = FieldBlob::parse(data) {
        if let Ok(field) = blob.field::<f32>() {
            check_queries(&field, NO_MESH, &data[data.len().min(32)..])?;
        }
    }
    let (Some(&r), Some(&nv), Some(&mode)) = (data.first(), data.get(1), data.get(2)) else {
        return Ok(());
    };
    let res = MIN_RESOLUTION + u32::from(r % FUZZ_RES_SPAN);
    let n = 1 + usize::from(nv) % FUZZ_MAX_VERTICES;
    let body = data.get(3..).unwrap_or(&[]);
    // 2. A mesh: raw f32 bits (may be non-finite) or small integers.
    let vertices: Vec<Vec3<f32>> = (0..n)
        .map(|k| {
            let c = |i: usize| {
                let at = 12 * k + 4 * i;
                if mode & 1 == 1 {
                    f32_at(body, at)
                } else {
                    let b = body.get(at..at + 2).map_or([0, 0], |b| [b[0], b[1]]);
                    f32::from(i16::from_le_bytes(b)) / 64.0
                }
            };
            Vec3::new(c(0), c(1), c(2))
        })
        .collect();
    let dirs = body.get(12 * n..).unwrap_or(&[]);
    let field = match SupportField::build(&vertices, res) {
        Ok(f) => f,
        Err(_) if !vertices.iter().all(|v| v.is_finite()) => return Ok(()),
        Err(_) => return Err("build refused finite vertices"),
    };
    // The complete graph contains every hull edge: climbs on it are exact.
    let offsets: Vec<u32> = (0..=n as u32).map(|i| i * (n as u32 - 1)).collect();
    let neighbours: Vec<u32> = (0..n as u32)
        .flat_map(|i| (0..n as u32).filter(move |&j| j != i))
        .collect();
    let graph =
        HullGraph::new(&vertices, &offsets, &neighbours).map_err(|_| "complete graph refused")?;
    check_queries(&field.view(), Some((&vertices, &graph)), dirs)?;
    // 3. The same field through a blob, both layouts, and in a set.
    for layout in [BlobLayout::Full, BlobLayout::Compact] {
        let bytes = write_blob(&field, &vertices, Some(&graph), layout)
            .map_err(|_| "write_blob refused a valid field")?;
        let blob = FieldBlob::parse(&bytes).map_err(|_| "a written blob was refused")?;
        let view = blob.field::<f32>().map_err(|_| "blob field refused")?;
        match blob.graph::<f32>() {
            Ok(Some(g)) => check_queries(&view, Some((&vertices, &g)), dirs)?,
            // One vertex has no edges, and a blob stores no empty graph.
            Ok(None) if n == 1 => check_queries(&view, NO_MESH, dirs)?,
            _ => return Err("blob graph missing"),
        }
        if let Some(cut) = bytes.len().checked_sub(1 + usize::from(r)) {
            if FieldBlob::parse(&bytes[..cut]).is_ok() {
                return Err("a truncated blob was accepted");
            }
        }
    }
    let set = FieldSet::build(&[&vertices, &vertices[..1]], res)
        .map_err(|_| "set build refused valid meshes")?;
    for g in 0..2 {
        let view = set.view().get(g).ok_or("set geometry missing")?;
        check_queries(&view, NO_MESH, dirs)?;
    }
    Ok(())
}

/// Queries along directions from `dirs` (12 bytes each, raw `f32`, plus
/// the axes): every answer in range and a vertex of the mesh; the exact
/// mode, when a graph is given, at the brute-force maximum.
fn check_queries<C: CellStore<f32>, G: crate::VertexGraph<f32>>(
    field: &FieldView<f32, C>,
    mesh: Option<(&[Vec3<f32>], &G)>,
    dirs: &[u8],
) -> Result<(), FuzzFailure> {
    let n = field.vertex_count();
    let extra = [Vec3::X, -Vec3::Y, Vec3::Z, -Vec3::Z, Vec3::ZERO];
    let from_bytes = dirs
        .chunks_exact(12)
        .take(64)
        .map(|c| Vec3::new(f32_at(c, 0), f32_at(c, 4), f32_at(c, 8)));
    for d in extra.into_iter().chain(from_bytes) {
        let hit = match field.query(d) {
            Ok(h) => h,
            Err(_) if !d.is_finite() => continue,
            Err(_) => return Err("query refused a finite direction"),
        };
        if hit.index >= n || !hit.point.is_finite() || !(1..=4).contains(&hit.ties) {
            return Err("field query out of range");
        }
        let Some((vertices, graph)) = mesh else {
            continue;
        };
        if vertices.get(hit.index as usize) != Some(&hit.point) {
            return Err("field point is not its vertex");
        }
        let exact = field
            .query_exact(graph, d)
            .map_err(|_| "exact query refused")?;
        let s = prescale(d).map_err(|_| "prescale refused a finite direction")?;
        let best = vertices
            .iter()
            .map(|v| s.dot(*v))
            .fold(f32::NEG_INFINITY, f32::max);
        if exact.index >= n || s.dot(exact.point) < best {
            return Err("exact query below the brute-force maximum");
        }
        let lean = field
            .support_exact(graph, d, Some(hit.index))
            .map_err(|_| "lean exact query refused")?;
        if lean.index >= n || s.dot(lean.point) < best {
            return Err("lean exact query below the brute-force maximum");
        }
        if s.dot(hit.point) > best {
            return Err("field answer above the maximum");
        }
    }
    Ok(())
}
