//! mink-field's core API, called without std or alloc: a cube's support
//! field at resolution 8, baked by `cargo xtask bake-field` (`--res 8`:
//! the winning vertex of each cell; `--res 8 --compact` to a `.bin`: the
//! blob) into `static` data, read in place: `FieldView` over `FullCells`
//! (Genesis' layout), over `CompactCells` (`u16` indices into the hull's
//! vertices) and over a parsed `FieldBlob`'s cells; `query` (field alone),
//! `query_exact` and `support_exact` (refined by climbing the `HullGraph`
//! or the blob's graph), `climb`; the field as a shape (`FieldShape`,
//! `ExactFieldShape`) through the `Support` trait; and a one-mesh
//! `FieldSetView`. (Building a field, `SupportField` and `FieldSet`, needs
//! `alloc`; baking needs `std`.)

use core::hint::black_box;
use mink_field::{
    climb, CellStore, CompactCells, ExactFieldShape, FieldBlob, FieldSetView, FieldShape,
    FieldView, FullCells, HullGraph, VertexGraph,
};
use mink_support::{Support, Vec3};

/// Resolution of the baked field (the smallest allowed): 8 × 8 cells.
const RES: u32 = 8;

/// Cells of the baked field, `RES²`.
const CELLS: usize = (RES * RES) as usize;

/// The cube's corners (half-extent 1 m; corner `i` has `+x` for bit 0, `+y`
/// for bit 1, `+z` for bit 2): the field's vertices.
static VERTICES: [Vec3<f32>; 8] = CORNERS;

/// [`VERTICES`] as a `const`, for [`cell_points`].
const CORNERS: [Vec3<f32>; 8] = [
    Vec3::new(-1.0, -1.0, -1.0),
    Vec3::new(1.0, -1.0, -1.0),
    Vec3::new(-1.0, 1.0, -1.0),
    Vec3::new(1.0, 1.0, -1.0),
    Vec3::new(-1.0, -1.0, 1.0),
    Vec3::new(1.0, -1.0, 1.0),
    Vec3::new(-1.0, 1.0, 1.0),
    Vec3::new(1.0, 1.0, 1.0),
];

/// The winning vertex of each cell `i · RES + j`, as baked.
const WINNERS: [u16; CELLS] = [
    4, 4, 4, 4, 0, 0, 0, 0, 4, 4, 4, 4, 0, 0, 0, 0, 4, 4, 4, 4, 4, 1, 0, 0, 4, 5, 5, 5, 1, 1, 1, 1,
    4, 5, 5, 5, 5, 1, 1, 1, 4, 7, 7, 7, 3, 3, 3, 3, 4, 6, 6, 6, 6, 3, 2, 2, 4, 6, 6, 6, 2, 2, 2, 2,
];

/// Full layout: the winning vertex's index per cell.
static CELL_INDICES: [u32; CELLS] = cell_indices();

/// Full layout: the winning vertex's position per cell (local frame,
/// meters): bake-field's `CELL_POINTS`, computed here from the indices.
static CELL_POINTS: [[f32; 3]; CELLS] = cell_points();

/// Compact layout: the winning vertex's index per cell.
static COMPACT_INDICES: [u16; CELLS] = WINNERS;

/// The hull's vertex graph: offsets of each vertex's neighbours, plus the
/// end.
static GRAPH_OFFSETS: [u32; 9] = [0, 3, 6, 9, 12, 15, 18, 21, 24];

/// The hull's vertex graph: every vertex's neighbours (the corners
/// differing in one bit).
static GRAPH_NEIGHBOURS: [u32; 24] = [
    1, 2, 4, 0, 3, 5, 0, 3, 6, 1, 2, 7, 0, 5, 6, 1, 4, 7, 2, 4, 7, 3, 5, 6,
];

/// The same field as a versioned blob (`f32`, compact cells, with the
/// vertex graph), as it would sit in flash.
static BLOB: [u8; 388] = [
    0x4d, 0x49, 0x4e, 0x4b, 0x46, 0x4c, 0x44, 0x00, 0x01, 0x00, 0x04, 0x01, 0x08, 0x00, 0x00, 0x00,
    0x08, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x64, 0x01, 0x00, 0x00, 0xb2, 0x2a, 0x2f, 0x60,
    0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x80, 0x3f,
    0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x80, 0x3f,
    0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0xbf,
    0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f,
    0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x80, 0x3f,
    0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f,
    0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00,
    0x0c, 0x00, 0x00, 0x00, 0x0f, 0x00, 0x00, 0x00, 0x12, 0x00, 0x00, 0x00, 0x15, 0x00, 0x00, 0x00,
    0x18, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x03, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
    0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
    0x04, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
    0x06, 0x00, 0x00, 0x00, 0x04, 0x00, 0x04, 0x00, 0x04, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x04, 0x00, 0x04, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x04, 0x00, 0x04, 0x00, 0x04, 0x00, 0x04, 0x00, 0x01, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x05, 0x00, 0x05, 0x00, 0x05, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x01, 0x00, 0x01, 0x00, 0x04, 0x00, 0x05, 0x00, 0x05, 0x00, 0x05, 0x00, 0x05, 0x00, 0x01, 0x00,
    0x01, 0x00, 0x01, 0x00, 0x04, 0x00, 0x07, 0x00, 0x07, 0x00, 0x07, 0x00, 0x03, 0x00, 0x03, 0x00,
    0x03, 0x00, 0x03, 0x00, 0x04, 0x00, 0x06, 0x00, 0x06, 0x00, 0x06, 0x00, 0x06, 0x00, 0x03, 0x00,
    0x02, 0x00, 0x02, 0x00, 0x04, 0x00, 0x06, 0x00, 0x06, 0x00, 0x06, 0x00, 0x02, 0x00, 0x02, 0x00,
    0x02, 0x00, 0x02, 0x00,
];

/// [`WINNERS`] widened for the full layout.
const fn cell_indices() -> [u32; CELLS] {
    let mut out = [0; CELLS];
    let mut k = 0;
    while k < CELLS {
        out[k] = WINNERS[k] as u32;
        k += 1;
    }
    out
}

/// The position of each cell's winning vertex.
const fn cell_points() -> [[f32; 3]; CELLS] {
    let mut out = [[0.0; 3]; CELLS];
    let mut k = 0;
    while k < CELLS {
        let v = CORNERS[WINNERS[k] as usize];
        out[k] = [v.x, v.y, v.z];
        k += 1;
    }
    out
}

/// Queries the baked field in every layout.
pub fn exercise() {
    let dir = black_box(Vec3::new(0.3f32, -0.9, 0.2));
    let Ok(graph) = HullGraph::new(&VERTICES, &GRAPH_OFFSETS, &GRAPH_NEIGHBOURS) else {
        return;
    };
    black_box(climb(&graph, dir, black_box(0)).ok());

    if let Ok(cells) = FullCells::new(&CELL_POINTS, &CELL_INDICES, VERTICES.len() as u32) {
        if let Ok(view) = FieldView::new(RES, cells) {
            queries(&view, &graph, dir);
        }
    }
    if let Ok(cells) = CompactCells::new(&COMPACT_INDICES, &VERTICES) {
        if let Ok(view) = FieldView::new(RES, cells) {
            queries(&view, &graph, dir);
        }
    }
    if let Ok(blob) = FieldBlob::parse(black_box(&BLOB)) {
        black_box((blob.res(), blob.vertex_count(), blob.layout()));
        black_box(blob.vertex::<f32>(black_box(7)));
        if let (Ok(view), Ok(Some(graph))) = (blob.field::<f32>(), blob.graph::<f32>()) {
            queries(&view, &graph, dir);
        }
    }

    let res = [RES];
    let cell_start = [0, CELLS as u32];
    let vertex_count = [VERTICES.len() as u32];
    let set = FieldSetView::new(
        &res,
        &cell_start,
        &vertex_count,
        &CELL_POINTS,
        &CELL_INDICES,
    );
    if let Ok(set) = set {
        black_box(set.query(black_box(0), dir).ok());
        black_box(set.get(0).map(|view| view.query(dir)));
    }
}

/// The field's queries, exact ones over `graph`, and the field as a shape.
fn queries<C: CellStore<f32>, G: VertexGraph<f32> + Copy>(
    view: &FieldView<f32, C>,
    graph: &G,
    dir: Vec3<f32>,
) {
    black_box((view.res(), view.vertex_count(), view.cell(black_box(9))));
    black_box(view.query(dir).ok());
    black_box(view.query_libm(dir).ok());
    if let Ok(hit) = view.query_exact(graph, dir) {
        black_box(hit.field_error(dir));
        black_box(hit);
    }
    black_box(view.query_exact_from(graph, dir, Some(black_box(3))).ok());
    black_box(view.support_exact(graph, dir, None).ok());

    let shape = FieldShape::new(*view);
    black_box(shape.support(dir, &mut ()));
    black_box(shape.local_aabb());
    if let Ok(exact) = ExactFieldShape::new(*view, *graph) {
        let mut hint = 0;
        black_box(exact.support(dir, &mut hint));
        black_box(exact.support(-dir, &mut hint));
    }
}
