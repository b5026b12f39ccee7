//! Why a field, a graph or a query was refused.

/// A refusal from a field constructor, a blob reader or a query, naming
/// what was wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum FieldError {
    /// The resolution is outside `MIN_RESOLUTION..=MAX_RESOLUTION`.
    Resolution(u32),
    /// An array's length disagrees with the others (the array is named).
    Length(&'static str),
    /// A stored vertex index is not below the mesh's vertex count.
    IndexOutOfRange {
        /// The flat cell (or neighbour-list entry) holding it.
        at: usize,
        /// The index found there.
        index: u32,
    },
    /// A stored position (named array) is NaN or infinite.
    NonFinite(&'static str),
    /// The mesh has no vertices, or more than a layout can index (named).
    VertexCount(&'static str),
    /// The query direction has a NaN or infinite component.
    NonFiniteDirection,
    /// A field and a neighbour graph were paired that describe meshes of
    /// different vertex counts.
    GraphMismatch {
        /// Vertices the field indexes.
        field: u32,
        /// Vertices the graph has.
        graph: u32,
    },
    /// A geometry index past the end of a field set.
    NoSuchGeometry(usize),
    /// A blob does not start with the magic bytes `MINKFLD\0`.
    BlobMagic,
    /// A blob's format version is not one this reader knows.
    BlobVersion(u16),
    /// A blob stores a scalar of another width than the reader's (bytes).
    BlobScalar(u8),
    /// A blob is shorter than its header says (bytes needed, bytes given).
    BlobTruncated {
        /// Bytes the header implies.
        needed: usize,
        /// Bytes present.
        given: usize,
    },
    /// A blob's payload checksum does not match its header.
    BlobChecksum,
    /// A blob's header is malformed (the field is named).
    BlobHeader(&'static str),
}

impl core::fmt::Display for FieldError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FieldError::Resolution(r) => write!(f, "resolution {r} is out of range"),
            FieldError::Length(what) => write!(f, "length of {what} is inconsistent"),
            FieldError::IndexOutOfRange { at, index } => {
                write!(f, "vertex index {index} at entry {at} is out of range")
            }
            FieldError::NonFinite(what) => write!(f, "{what} holds a non-finite value"),
            FieldError::VertexCount(what) => write!(f, "unsupported vertex count: {what}"),
            FieldError::NonFiniteDirection => write!(f, "query direction is not finite"),
            FieldError::GraphMismatch { field, graph } => write!(
                f,
                "field indexes {field} vertices but the graph has {graph}"
            ),
            FieldError::NoSuchGeometry(g) => write!(f, "no geometry {g} in the field set"),
            FieldError::BlobMagic => write!(f, "not a mink field blob (bad magic)"),
            FieldError::BlobVersion(v) => write!(f, "unsupported field blob version {v}"),
            FieldError::BlobScalar(b) => {
                write!(
                    f,
                    "blob stores {b}-byte scalars, reader expects another width"
                )
            }
            FieldError::BlobTruncated { needed, given } => {
                write!(f, "field blob truncated: needs {needed} bytes, has {given}")
            }
            FieldError::BlobChecksum => write!(f, "field blob checksum mismatch"),
            FieldError::BlobHeader(what) => write!(f, "malformed field blob header: {what}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for FieldError {}
