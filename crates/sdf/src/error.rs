//! What building a mesh or a field, or checking baked data, can refuse.

use core::fmt;

/// Why a triangle mesh was refused ([`TriMesh::new`](crate::TriMesh::new)).
///
/// Indices name the offending triangle or vertices of the input (before
/// welding) unless stated otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshError {
    /// No vertex or no triangle.
    Empty,
    /// More vertices or triangles than a `u32` index can name.
    TooLarge,
    /// Vertex `vertex` has a NaN or infinite coordinate.
    NonFinite {
        /// The input vertex.
        vertex: usize,
    },
    /// Triangle `triangle` names a vertex `>= vertices.len()`.
    IndexOutOfRange {
        /// The input triangle.
        triangle: usize,
    },
    /// Triangle `triangle` has (after welding) two equal corners or an area
    /// below [`DEGENERATE_AREA_EPS`](crate::DEGENERATE_AREA_EPS) times the
    /// squared mesh size.
    DegenerateTriangle {
        /// The input triangle.
        triangle: usize,
    },
    /// The edge between welded vertices `a` and `b` borders one triangle
    /// only: the mesh is open.
    OpenEdge {
        /// One end (welded index).
        a: u32,
        /// The other end (welded index).
        b: u32,
    },
    /// The edge between welded vertices `a` and `b` borders more than two
    /// triangles: the mesh is not a manifold.
    NonManifoldEdge {
        /// One end (welded index).
        a: u32,
        /// The other end (welded index).
        b: u32,
    },
    /// The two triangles at the edge between welded vertices `a` and `b`
    /// run along it in the same direction: their orientations disagree.
    InconsistentOrientation {
        /// One end (welded index).
        a: u32,
        /// The other end (welded index).
        b: u32,
    },
    /// The closed mesh encloses no volume (within rounding): nothing has an
    /// inside.
    ZeroVolume,
}

impl fmt::Display for MeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "mesh has no vertex or no triangle"),
            Self::TooLarge => write!(f, "mesh has more elements than u32 indices can name"),
            Self::NonFinite { vertex } => write!(f, "vertex {vertex} is not finite"),
            Self::IndexOutOfRange { triangle } => {
                write!(f, "triangle {triangle} has an index out of range")
            }
            Self::DegenerateTriangle { triangle } => write!(f, "triangle {triangle} is degenerate"),
            Self::OpenEdge { a, b } => write!(f, "edge {a}-{b} borders one triangle (open mesh)"),
            Self::NonManifoldEdge { a, b } => {
                write!(f, "edge {a}-{b} borders more than two triangles")
            }
            Self::InconsistentOrientation { a, b } => {
                write!(f, "triangles at edge {a}-{b} have opposite orientations")
            }
            Self::ZeroVolume => write!(f, "mesh encloses no volume"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for MeshError {}

/// Why a field was refused: by [`OwnedSdf::build`](crate::OwnedSdf::build)
/// (bad options) or [`SdfView::new`](crate::SdfView::new) (inconsistent
/// arrays).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SdfError {
    /// The resolution is below [`MIN_RESOLUTION`](crate::MIN_RESOLUTION) or
    /// above [`MAX_RESOLUTION`](crate::MAX_RESOLUTION).
    Resolution,
    /// The padding is negative or not finite, or the grid's origin or cell
    /// size is not finite, or the cell size is not positive.
    Geometry,
    /// A grid axis has fewer than 2 samples, or the sample count does not
    /// match the grid's dimensions.
    Dimensions,
    /// A sample is NaN or infinite.
    NonFiniteSample,
}

impl fmt::Display for SdfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Resolution => write!(f, "resolution out of range"),
            Self::Geometry => write!(f, "non-finite or non-positive grid geometry or padding"),
            Self::Dimensions => write!(f, "grid dimensions and sample count disagree"),
            Self::NonFiniteSample => write!(f, "a sample is not finite"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SdfError {}
