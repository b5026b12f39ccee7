//! Baked fields as byte blobs: a documented, versioned, little-endian
//! layout, read in place (zero-copy, no allocation) and written behind
//! `alloc`.
//!
//! # Layout, version 1
//!
//! All integers and floats little-endian, sections packed with no padding
//! (the reader never needs aligned access).
//!
//! | offset | type | meaning |
//! |---:|---|---|
//! | 0 | `[u8; 8]` | magic `MINKFLD\0` |
//! | 8 | `u16` | format version, [`BLOB_VERSION`] |
//! | 10 | `u8` | scalar width in bytes: 4 (`f32`) or 8 (`f64`) |
//! | 11 | `u8` | cell layout: 0 full, 1 compact ([`BlobLayout`]) |
//! | 12 | `u32` | resolution `res` |
//! | 16 | `u32` | vertex count `n` (≥ 1; ≤ 65,536 for compact) |
//! | 20 | `u32` | neighbour-list length `m` (0: no vertex graph) |
//! | 24 | `u32` | payload bytes (everything after this 32-byte header) |
//! | 28 | `u32` | FNV-1a (32-bit) checksum of the payload |
//!
//! Payload, in order:
//!
//! 1. vertices: `n × [x, y, z]` scalars (mesh's local frame, meters);
//! 2. when `m > 0`, the vertex graph in compressed-row form: `n + 1`
//!    `u32` offsets, then `m` `u32` neighbour indices;
//! 3. cells (`res²`, flat index `i · res + j`, Genesis' layout): full,
//!    `res² × [x, y, z]` scalars then `res² × u32` vertex indices; compact,
//!    `res² × u16` vertex indices (positions are the vertices').
//!
//! [`FieldBlob::parse`] refuses a wrong magic, an unknown version, sizes
//! that disagree with the header, a truncated or over-long blob, a checksum
//! mismatch, an index out of range and non-finite numbers, each with its
//! own [`FieldError`]; a parsed blob's queries never fail on its data.

use crate::graph::VertexGraph;
use crate::store::CellStore;
use crate::{FieldError, FieldView, MAX_RESOLUTION, MIN_RESOLUTION};
use core::marker::PhantomData;
use mink_support::{Real, Vec3};

/// The magic bytes a blob starts with.
pub const BLOB_MAGIC: [u8; 8] = *b"MINKFLD\0";
/// The format version this crate writes and reads.
pub const BLOB_VERSION: u16 = 1;
/// Bytes of the header.
pub const BLOB_HEADER_BYTES: usize = 32;

/// How a blob stores its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BlobLayout {
    /// Position and `u32` index per cell (Genesis' layout).
    Full,
    /// A `u16` index per cell; positions read from the vertices.
    Compact,
}

/// FNV-1a, 32 bits: a simple, well-specified checksum.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

#[inline(always)]
fn read_u16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

#[inline(always)]
fn read_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// Reads one scalar of `R`'s width at `at`.
#[inline(always)]
fn read_real<R: Real>(b: &[u8], at: usize) -> Option<R> {
    if core::mem::size_of::<R>() == 4 {
        let x = f32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?);
        num_traits::NumCast::from(x)
    } else {
        let x = f64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?);
        num_traits::NumCast::from(x)
    }
}

/// Reads a scalar of `width` bytes as `f64` (for validation).
fn read_f64(b: &[u8], at: usize, width: usize) -> Option<f64> {
    if width == 4 {
        Some(f64::from(f32::from_le_bytes(
            b.get(at..at + 4)?.try_into().ok()?,
        )))
    } else {
        Some(f64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
    }
}

/// A validated blob, borrowed: its header and where its sections start.
#[derive(Clone, Copy, Debug)]
pub struct FieldBlob<'a> {
    bytes: &'a [u8],
    width: usize,
    layout: BlobLayout,
    res: u32,
    n: u32,
    m: u32,
    offsets_at: usize,
    neighbours_at: usize,
    cells_at: usize,
}

/// Checked `a * b`, as a header-size error on overflow.
fn mul(a: usize, b: usize) -> Result<usize, FieldError> {
    a.checked_mul(b)
        .ok_or(FieldError::BlobHeader("sizes overflow"))
}

/// Checked `a + b`, as a header-size error on overflow.
fn add(a: usize, b: usize) -> Result<usize, FieldError> {
    a.checked_add(b)
        .ok_or(FieldError::BlobHeader("sizes overflow"))
}

impl<'a> FieldBlob<'a> {
    /// Validates `bytes` as a blob (see the module docs): header, sizes,
    /// checksum, then every index and number. `O(size)`, no allocation.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, FieldError> {
        let given = bytes.len();
        if given < BLOB_HEADER_BYTES {
            if bytes.len() >= 8 && bytes[..8] != BLOB_MAGIC {
                return Err(FieldError::BlobMagic);
            }
            return Err(FieldError::BlobTruncated {
                needed: BLOB_HEADER_BYTES,
                given,
            });
        }
        if bytes[..8] != BLOB_MAGIC {
            return Err(FieldError::BlobMagic);
        }
        let bad = FieldError::BlobHeader("unreadable");
        let version = read_u16(bytes, 8).ok_or(bad)?;
        if version != BLOB_VERSION {
            return Err(FieldError::BlobVersion(version));
        }
        let width = bytes[10];
        if width != 4 && width != 8 {
            return Err(FieldError::BlobHeader("scalar width (must be 4 or 8)"));
        }
        let width = usize::from(width);
        let layout = match bytes[11] {
            0 => BlobLayout::Full,
            1 => BlobLayout::Compact,
            _ => return Err(FieldError::BlobHeader("cell layout (must be 0 or 1)")),
        };
        let res = read_u32(bytes, 12).ok_or(bad)?;
        if !(MIN_RESOLUTION..=MAX_RESOLUTION).contains(&res) {
            return Err(FieldError::Resolution(res));
        }
        let n = read_u32(bytes, 16).ok_or(bad)?;
        let m = read_u32(bytes, 20).ok_or(bad)?;
        let payload = read_u32(bytes, 24).ok_or(bad)? as usize;
        let checksum = read_u32(bytes, 28).ok_or(bad)?;
        if n == 0 {
            return Err(FieldError::VertexCount("no vertices"));
        }
        if layout == BlobLayout::Compact && n as usize > crate::COMPACT_MAX_VERTICES {
            return Err(FieldError::VertexCount(
                "more than 65,536 vertices in the compact layout",
            ));
        }
        let (nu, mu) = (n as usize, m as usize);
        let cells = mul(res as usize, res as usize)?;
        let offsets_at = add(BLOB_HEADER_BYTES, mul(mul(nu, 3)?, width)?)?;
        let graph_bytes = if m > 0 {
            mul(add(add(nu, 1)?, mu)?, 4)?
        } else {
            0
        };
        let neighbours_at = if m > 0 {
            add(offsets_at, mul(add(nu, 1)?, 4)?)?
        } else {
            offsets_at
        };
        let cells_at = add(offsets_at, graph_bytes)?;
        let cell_bytes = match layout {
            BlobLayout::Full => mul(cells, add(mul(3, width)?, 4)?)?,
            BlobLayout::Compact => mul(cells, 2)?,
        };
        let needed = add(cells_at, cell_bytes)?;
        if payload != needed - BLOB_HEADER_BYTES {
            return Err(FieldError::BlobHeader(
                "payload size disagrees with res, vertex and neighbour counts",
            ));
        }
        if given < needed {
            return Err(FieldError::BlobTruncated { needed, given });
        }
        if given > needed {
            return Err(FieldError::BlobHeader("trailing bytes after the payload"));
        }
        if fnv1a32(&bytes[BLOB_HEADER_BYTES..]) != checksum {
            return Err(FieldError::BlobChecksum);
        }
        let blob = Self {
            bytes,
            width,
            layout,
            res,
            n,
            m,
            offsets_at,
            neighbours_at,
            cells_at,
        };
        blob.check_contents(cells)?;
        Ok(blob)
    }

    /// Every number finite, every index in range, offsets a prefix sum.
    fn check_contents(&self, cells: usize) -> Result<(), FieldError> {
        let (b, w) = (self.bytes, self.width);
        let bad = FieldError::BlobHeader("unreadable");
        let finite = |at: usize, count: usize, what| -> Result<(), FieldError> {
            for k in 0..count {
                let x = read_f64(b, at + k * w, w).ok_or(bad)?;
                if !x.is_finite() {
                    return Err(FieldError::NonFinite(what));
                }
            }
            Ok(())
        };
        finite(BLOB_HEADER_BYTES, 3 * self.n as usize, "blob vertices")?;
        if self.m > 0 {
            let mut prev = 0;
            for k in 0..=self.n as usize {
                let o = read_u32(b, self.offsets_at + 4 * k).ok_or(bad)?;
                if (k == 0 && o != 0) || o < prev {
                    return Err(FieldError::Length("blob graph offsets (not a prefix sum)"));
                }
                prev = o;
            }
            if prev != self.m {
                return Err(FieldError::Length("blob graph offsets (last must be m)"));
            }
            for k in 0..self.m as usize {
                let i = read_u32(b, self.neighbours_at + 4 * k).ok_or(bad)?;
                if i >= self.n {
                    return Err(FieldError::IndexOutOfRange { at: k, index: i });
                }
            }
        }
        match self.layout {
            BlobLayout::Full => {
                finite(self.cells_at, 3 * cells, "blob cell points")?;
                let idx_at = self.cells_at + 3 * cells * w;
                for k in 0..cells {
                    let i = read_u32(b, idx_at + 4 * k).ok_or(bad)?;
                    if i >= self.n {
                        return Err(FieldError::IndexOutOfRange { at: k, index: i });
                    }
                }
            }
            BlobLayout::Compact => {
                for k in 0..cells {
                    let i = u32::from(read_u16(b, self.cells_at + 2 * k).ok_or(bad)?);
                    if i >= self.n {
                        return Err(FieldError::IndexOutOfRange { at: k, index: i });
                    }
                }
            }
        }
        Ok(())
    }

    /// The resolution.
    pub fn res(&self) -> u32 {
        self.res
    }

    /// The mesh's vertex count.
    pub fn vertex_count(&self) -> u32 {
        self.n
    }

    /// The scalar width in bytes (4 or 8).
    pub fn scalar_width(&self) -> usize {
        self.width
    }

    /// The cell layout.
    pub fn layout(&self) -> BlobLayout {
        self.layout
    }

    /// `true` when the blob carries the hull's vertex graph (exact mode).
    pub fn has_graph(&self) -> bool {
        self.m > 0
    }

    fn check_width<R: Real>(&self) -> Result<(), FieldError> {
        if core::mem::size_of::<R>() == self.width {
            Ok(())
        } else {
            Err(FieldError::BlobScalar(self.width as u8))
        }
    }

    /// The field, read in place as scalar `R`; refuses a scalar width
    /// other than `R`'s.
    pub fn field<R: Real>(&self) -> Result<FieldView<R, BlobCells<'a, R>>, FieldError> {
        self.check_width::<R>()?;
        let cells = BlobCells {
            blob: *self,
            _r: PhantomData,
        };
        FieldView::new(self.res, cells)
    }

    /// The vertex graph, read in place as scalar `R` (`None` when the blob
    /// has none); refuses a scalar width other than `R`'s.
    pub fn graph<R: Real>(&self) -> Result<Option<BlobGraph<'a, R>>, FieldError> {
        self.check_width::<R>()?;
        Ok(self.has_graph().then_some(BlobGraph {
            blob: *self,
            _r: PhantomData,
        }))
    }

    /// Vertex `i` as scalar `R` (local frame, meters); `None` out of range
    /// (or for a scalar of the wrong width).
    #[inline(always)]
    pub fn vertex<R: Real>(&self, i: u32) -> Option<Vec3<R>> {
        if i >= self.n || core::mem::size_of::<R>() != self.width {
            return None;
        }
        let at = BLOB_HEADER_BYTES + 3 * self.width * i as usize;
        Some(Vec3::new(
            read_real(self.bytes, at)?,
            read_real(self.bytes, at + self.width)?,
            read_real(self.bytes, at + 2 * self.width)?,
        ))
    }
}

/// A parsed blob's cells, read in place (see [`FieldBlob::field`]).
#[derive(Clone, Copy, Debug)]
pub struct BlobCells<'a, R> {
    blob: FieldBlob<'a>,
    _r: PhantomData<R>,
}

impl<R: Real> CellStore<R> for BlobCells<'_, R> {
    #[inline(always)]
    fn cell_count(&self) -> usize {
        (self.blob.res as usize) * (self.blob.res as usize)
    }
    #[inline(always)]
    fn vertex_count(&self) -> u32 {
        self.blob.n
    }
    #[inline(always)]
    fn cell(&self, k: usize) -> Option<(u32, Vec3<R>)> {
        let cells = self.cell_count();
        if k >= cells {
            return None;
        }
        let (b, w, at) = (self.blob.bytes, self.blob.width, self.blob.cells_at);
        match self.blob.layout {
            BlobLayout::Full => {
                let p = at + 3 * w * k;
                let i = read_u32(b, at + 3 * w * cells + 4 * k)?;
                let v = Vec3::new(
                    read_real(b, p)?,
                    read_real(b, p + w)?,
                    read_real(b, p + 2 * w)?,
                );
                Some((i, v))
            }
            BlobLayout::Compact => {
                let i = u32::from(read_u16(b, at + 2 * k)?);
                Some((i, self.blob.vertex(i)?))
            }
        }
    }
    fn cell_bytes(&self) -> usize {
        let cells = self.cell_count();
        match self.blob.layout {
            BlobLayout::Full => cells * (3 * self.blob.width + 4),
            BlobLayout::Compact => cells * 2,
        }
    }
}

/// A parsed blob's vertex graph, read in place (see [`FieldBlob::graph`]).
#[derive(Clone, Copy, Debug)]
pub struct BlobGraph<'a, R> {
    blob: FieldBlob<'a>,
    _r: PhantomData<R>,
}

/// The neighbours of one vertex of a [`BlobGraph`].
#[derive(Clone, Debug)]
pub struct BlobNeighbours<'a> {
    bytes: &'a [u8],
    at: usize,
    end: usize,
}

impl Iterator for BlobNeighbours<'_> {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.at >= self.end {
            return None;
        }
        let v = read_u32(self.bytes, self.at);
        self.at += 4;
        v
    }
}

impl<R: Real> VertexGraph<R> for BlobGraph<'_, R> {
    type Neighbours<'s>
        = BlobNeighbours<'s>
    where
        Self: 's;

    #[inline(always)]
    fn vertex_count(&self) -> u32 {
        self.blob.n
    }
    #[inline(always)]
    fn vertex(&self, i: u32) -> Option<Vec3<R>> {
        self.blob.vertex(i)
    }
    #[inline(always)]
    fn neighbours(&self, i: u32) -> Self::Neighbours<'_> {
        let b = self.blob.bytes;
        let at = self.blob.offsets_at + 4 * i as usize;
        let (lo, hi) = if i < self.blob.n {
            (
                read_u32(b, at).unwrap_or(0),
                read_u32(b, at + 4).unwrap_or(0),
            )
        } else {
            (0, 0)
        };
        BlobNeighbours {
            bytes: b,
            at: self.blob.neighbours_at + 4 * lo as usize,
            end: self.blob.neighbours_at + 4 * hi as usize,
        }
    }
}

#[cfg(feature = "alloc")]
mod write;
#[cfg(feature = "alloc")]
pub use write::write_blob;
