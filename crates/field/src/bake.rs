//! Baking a field on a host (behind `std`): read a mesh, build its field,
//! write it as Rust `static` arrays or as a blob ([`crate::blob`]), so a
//! microcontroller queries a field it never had to build.
//!
//! `cargo xtask bake-field MESH OUT` calls [`bake_file`]: `MESH` is an OBJ
//! file (its `v x y z` lines) or JSON `{"points": [[x, y, z], ...]}`; `OUT`
//! ending in `.rs` gets Rust source, anything else a blob. Fields are baked
//! in `f32`, the scalar of microcontrollers with an FPU, over the mesh's
//! convex hull, with its vertex graph for the exact mode.

use crate::blob::{write_blob, BlobLayout};
use crate::{FieldError, HullGraph, SupportField, DEFAULT_RESOLUTION};
use mink_support::Vec3;
use std::fmt::Write as _;
use std::path::Path;
use std::string::{String, ToString};
use std::vec::Vec;

/// Why a bake failed.
#[derive(Debug)]
pub enum BakeError {
    /// Reading the mesh or writing the output failed.
    Io(std::io::Error),
    /// The mesh file is malformed: 1-based line (0 when unknown) and what.
    Parse {
        /// Line of the problem (1-based; 0 for JSON structure errors).
        line: usize,
        /// What was wrong.
        what: String,
    },
    /// The mesh extension is neither `.obj` nor `.json`.
    UnknownFormat(String),
    /// Building or writing the field was refused.
    Field(FieldError),
}

impl core::fmt::Display for BakeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            BakeError::Io(e) => write!(f, "i/o error: {e}"),
            BakeError::Parse { line, what } => write!(f, "line {line}: {what}"),
            BakeError::UnknownFormat(p) => {
                write!(
                    f,
                    "{p}: mesh must be .obj or .json ({{\"points\": [[x, y, z], ...]}})"
                )
            }
            BakeError::Field(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BakeError {}

impl From<std::io::Error> for BakeError {
    fn from(e: std::io::Error) -> Self {
        BakeError::Io(e)
    }
}

impl From<FieldError> for BakeError {
    fn from(e: FieldError) -> Self {
        BakeError::Field(e)
    }
}

/// How to bake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BakeOptions {
    /// Resolution (default [`DEFAULT_RESOLUTION`]).
    pub res: u32,
    /// Cell layout of a blob (default full; Rust source is always full).
    pub layout: BlobLayout,
}

impl Default for BakeOptions {
    fn default() -> Self {
        Self {
            res: DEFAULT_RESOLUTION,
            layout: BlobLayout::Full,
        }
    }
}

/// What a bake wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BakeReport {
    /// Points read from the mesh.
    pub points: usize,
    /// Vertices of the field (the hull's, or every point without a hull).
    pub vertices: usize,
    /// Resolution.
    pub res: u32,
    /// Bytes written.
    pub bytes: usize,
}

/// The `v x y z` vertices of OBJ text (other lines ignored; a `w` after
/// `z` is ignored). Refuses a `v` line without three numbers.
pub fn parse_obj(text: &str) -> Result<Vec<Vec3<f64>>, BakeError> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let mut it = line.split_whitespace();
        if it.next() != Some("v") {
            continue;
        }
        let mut c = [0.0; 3];
        for slot in &mut c {
            let tok = it.next().ok_or_else(|| BakeError::Parse {
                line: k + 1,
                what: "vertex needs three coordinates".to_string(),
            })?;
            *slot = tok.parse().map_err(|_| BakeError::Parse {
                line: k + 1,
                what: std::format!("not a number: {tok:?}"),
            })?;
        }
        out.push(Vec3::from_array(c));
    }
    Ok(out)
}

/// The points of JSON text `{"points": [[x, y, z], ...]}` (other keys
/// ignored if they come after; whitespace free). Refuses anything else.
pub fn parse_json_points(text: &str) -> Result<Vec<Vec3<f64>>, BakeError> {
    let err = |what: &str| BakeError::Parse {
        line: 0,
        what: what.to_string(),
    };
    let key = text
        .find("\"points\"")
        .ok_or_else(|| err("no \"points\" key"))?;
    let rest = text[key + 8..].trim_start();
    let rest = rest
        .strip_prefix(':')
        .ok_or_else(|| err("expected ':' after \"points\""))?
        .trim_start();
    let mut rest = rest
        .strip_prefix('[')
        .ok_or_else(|| err("\"points\" must be an array"))?;
    let mut out = Vec::new();
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix(']') {
            let _ = r;
            return Ok(out);
        }
        if !out.is_empty() {
            rest = rest
                .strip_prefix(',')
                .ok_or_else(|| err("expected ',' between points"))?
                .trim_start();
        }
        rest = rest
            .strip_prefix('[')
            .ok_or_else(|| err("a point must be an array [x, y, z]"))?;
        let end = rest.find(']').ok_or_else(|| err("unterminated point"))?;
        let nums: Result<Vec<f64>, _> = rest[..end].split(',').map(|t| t.trim().parse()).collect();
        let nums = nums.map_err(|_| err("a coordinate is not a number"))?;
        if nums.len() != 3 {
            return Err(err("a point must have three coordinates"));
        }
        out.push(Vec3::new(nums[0], nums[1], nums[2]));
        rest = &rest[end + 1..];
    }
}

/// The points of a mesh file, by extension (`.obj` or `.json`).
pub fn read_mesh(path: &Path) -> Result<Vec<Vec3<f64>>, BakeError> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let text = std::fs::read_to_string(path)?;
    match ext.as_str() {
        "obj" => parse_obj(&text),
        "json" => parse_json_points(&text),
        _ => Err(BakeError::UnknownFormat(path.display().to_string())),
    }
}

/// Rust source declaring a baked field as `static` arrays:
/// `RES`, `VERTICES: [Vec3<f32>; n]`, `CELL_POINTS: [[f32; 3]; res²]`,
/// `CELL_INDICES: [u32; res²]`, and when `graph` is given
/// `GRAPH_OFFSETS` and `GRAPH_NEIGHBOURS`. Floats are printed in Rust's
/// shortest round-trip form, so the statics equal the field bit for bit.
///
/// Use: `FieldView::new(RES, FullCells::new(&CELL_POINTS, &CELL_INDICES,
/// VERTICES.len() as u32)?)`.
pub fn rust_source(
    field: &SupportField<f32>,
    vertices: &[Vec3<f32>],
    graph: Option<&HullGraph<'_, f32>>,
    origin: &str,
) -> String {
    let mut s = String::new();
    let (n, cells) = (vertices.len(), field.indices().len());
    let _ = writeln!(
        s,
        "// Support field baked by `cargo xtask bake-field` from {origin}: \
         resolution {}, {n} vertices, layout `mink_field::grid`. Do not edit.",
        field.res()
    );
    let _ = writeln!(s, "\n/// Resolution of the baked field.");
    let _ = writeln!(s, "pub const RES: u32 = {};", field.res());
    let _ = writeln!(s, "\n/// The mesh's vertices (local frame, meters).");
    let _ = writeln!(s, "pub static VERTICES: [mink_support::Vec3<f32>; {n}] = [");
    for v in vertices {
        let _ = writeln!(
            s,
            "    mink_support::Vec3::new({:?}, {:?}, {:?}),",
            v.x, v.y, v.z
        );
    }
    let _ = writeln!(s, "];");
    let _ = writeln!(
        s,
        "\n/// Winning vertex position per cell (local frame, meters)."
    );
    let _ = writeln!(s, "pub static CELL_POINTS: [[f32; 3]; {cells}] = [");
    for p in field.points() {
        let _ = writeln!(s, "    [{:?}, {:?}, {:?}],", p[0], p[1], p[2]);
    }
    let _ = writeln!(s, "];");
    let _ = writeln!(s, "\n/// Winning vertex index per cell.");
    write_u32s(&mut s, "CELL_INDICES", field.indices());
    if let Some(g) = graph {
        let _ = writeln!(s, "\n/// Vertex graph offsets (`VERTICES.len() + 1`).");
        write_u32s(&mut s, "GRAPH_OFFSETS", g.offsets());
        let _ = writeln!(s, "\n/// Vertex graph neighbour lists.");
        write_u32s(&mut s, "GRAPH_NEIGHBOURS", g.neighbour_lists());
    }
    s
}

fn write_u32s(s: &mut String, name: &str, xs: &[u32]) {
    let _ = writeln!(s, "pub static {name}: [u32; {}] = [", xs.len());
    for chunk in xs.chunks(16) {
        s.push_str("   ");
        for x in chunk {
            let _ = write!(s, " {x},");
        }
        s.push('\n');
    }
    let _ = writeln!(s, "];");
}

/// Reads `mesh`, builds its convex hull (mink-support's quickhull) and
/// the hull's field in `f32` at `options.res`, and writes `out`: Rust
/// source when `out` ends in `.rs`, a blob otherwise, both with the hull's
/// vertex graph so the reader can run the exact mode.
///
/// When the points have no hull with volume (fewer than 4, or flat), the
/// field is built over the points as given and no graph is written.
pub fn bake_file(mesh: &Path, out: &Path, options: &BakeOptions) -> Result<BakeReport, BakeError> {
    let points = read_mesh(mesh)?;
    let points: Vec<Vec3<f32>> = points.iter().map(|p| p.cast()).collect();
    let hull = mink_support::ConvexHull::from_points(&points).ok();
    let (vertices, offsets, neighbours) = match &hull {
        Some(h) => {
            let a = h.arrays();
            (
                a.vertices.to_vec(),
                a.neighbor_starts.iter().map(|&o| u32::from(o)).collect(),
                a.neighbors.iter().map(|&o| u32::from(o)).collect(),
            )
        }
        None => (points.clone(), Vec::new(), Vec::new()),
    };
    let graph = if hull.is_some() {
        Some(HullGraph::new(&vertices, &offsets, &neighbours)?)
    } else {
        None
    };
    let field = SupportField::build(&vertices, options.res)?;
    let bytes = if out.extension().and_then(|e| e.to_str()) == Some("rs") {
        rust_source(
            &field,
            &vertices,
            graph.as_ref(),
            &mesh.display().to_string(),
        )
        .into_bytes()
    } else {
        write_blob(&field, &vertices, graph.as_ref(), options.layout)?
    };
    std::fs::write(out, &bytes)?;
    Ok(BakeReport {
        points: points.len(),
        vertices: vertices.len(),
        res: options.res,
        bytes: bytes.len(),
    })
}
