//! Writing blobs (behind `alloc`).

use super::{fnv1a32, BlobLayout, BLOB_HEADER_BYTES, BLOB_MAGIC, BLOB_VERSION};
use crate::{FieldError, HullGraph, SupportField};
use alloc::vec::Vec;
use mink_support::{Real, Vec3};

/// Appends one scalar, little-endian, at `R`'s width.
fn push_real<R: Real>(out: &mut Vec<u8>, x: R) {
    if core::mem::size_of::<R>() == 4 {
        out.extend_from_slice(&(x.to_f64() as f32).to_le_bytes());
    } else {
        out.extend_from_slice(&x.to_f64().to_le_bytes());
    }
}

/// The blob (layout in [`crate::blob`]) of `field`, built from `vertices`
/// (the same array, mesh's local frame, meters), with the hull's vertex
/// `graph` when given (so the reader can run the exact mode), cells in
/// `layout`.
///
/// Refuses vertices or a graph of another vertex count than the field's,
/// the compact layout for more than 65,536 vertices, and sizes beyond the
/// header's `u32` fields.
pub fn write_blob<R: Real>(
    field: &SupportField<R>,
    vertices: &[Vec3<R>],
    graph: Option<&HullGraph<'_, R>>,
    layout: BlobLayout,
) -> Result<Vec<u8>, FieldError> {
    let n = field.vertex_count();
    if vertices.len() != n as usize {
        return Err(FieldError::Length("vertices vs the field's vertex count"));
    }
    if !vertices.iter().all(|v| v.is_finite()) {
        return Err(FieldError::NonFinite("mesh vertices"));
    }
    let (offsets, neighbours): (&[u32], &[u32]) = match graph {
        Some(g) => {
            if g.vertices().len() != n as usize {
                return Err(FieldError::GraphMismatch {
                    field: n,
                    graph: g.vertices().len() as u32,
                });
            }
            (g.offsets(), g.neighbour_lists())
        }
        None => (&[], &[]),
    };
    let m = u32::try_from(neighbours.len())
        .map_err(|_| FieldError::Length("neighbour lists exceed u32"))?;
    let compact = match layout {
        BlobLayout::Full => None,
        BlobLayout::Compact => Some(field.compact_indices()?),
    };

    let mut out = Vec::new();
    out.extend_from_slice(&BLOB_MAGIC);
    out.extend_from_slice(&BLOB_VERSION.to_le_bytes());
    out.push(core::mem::size_of::<R>() as u8);
    out.push(match layout {
        BlobLayout::Full => 0,
        BlobLayout::Compact => 1,
    });
    out.extend_from_slice(&field.res().to_le_bytes());
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&m.to_le_bytes());
    out.extend_from_slice(&[0; 8]); // payload size and checksum, below
    debug_assert_eq!(out.len(), BLOB_HEADER_BYTES);

    for v in vertices {
        for c in v.to_array() {
            push_real(&mut out, c);
        }
    }
    if m > 0 {
        for &o in offsets.iter().chain(neighbours) {
            out.extend_from_slice(&o.to_le_bytes());
        }
    }
    match &compact {
        None => {
            for p in field.points() {
                for &c in p {
                    push_real(&mut out, c);
                }
            }
            for &i in field.indices() {
                out.extend_from_slice(&i.to_le_bytes());
            }
        }
        Some(idx) => {
            for &i in idx {
                out.extend_from_slice(&i.to_le_bytes());
            }
        }
    }
    let payload = u32::try_from(out.len() - BLOB_HEADER_BYTES)
        .map_err(|_| FieldError::Length("blob payload exceeds u32"))?;
    let checksum = fnv1a32(&out[BLOB_HEADER_BYTES..]);
    out[24..28].copy_from_slice(&payload.to_le_bytes());
    out[28..32].copy_from_slice(&checksum.to_le_bytes());
    Ok(out)
}
