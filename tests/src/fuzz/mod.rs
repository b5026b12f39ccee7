//! The bodies of the fuzz targets in `fuzz/`, as plain functions, so that
//! `cargo test` replays the committed corpus through them on stable
//! (`tests/fuzz_corpus.rs`) and the fuzz targets stay one-line wrappers.

pub mod bytes;
pub mod collider_queries;
pub mod colliders;
pub mod contact_manifold;
pub mod gjk_distance;
mod query_line;
pub mod ray_cast;
pub mod scene_queries;
pub mod scene_step;
pub mod seeds;
pub mod shape_cast;
pub mod shapes;
mod support_points;
pub mod umbrella_queries;

pub use support_points::{
    check_shape, decode_set_tolerance, Outcome, Range, AABB_ULPS, CHECK_ULPS,
    FACE_LOOPS_MAY_EXCEED_TOLERANCE, MAX_HULL_INPUT, SHAPE_KINDS,
};

/// `true` when `fuzz/open-bugs/<target>/` holds an input: the target has a
/// library bug its oracle finds and no fix yet, so `cargo xtask fuzz-ci`
/// and the stable tests that run every target on generated inputs leave
/// it out (see `fuzz/open-bugs/README.md`).
pub fn has_open_bug(target: &str) -> bool {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("fuzz")
        .join("open-bugs")
        .join(target);
    std::fs::read_dir(dir)
        .is_ok_and(|mut entries| entries.any(|e| e.is_ok_and(|e| e.path().is_file())))
}

/// A fuzz target's body: decodes the bytes and panics when a check fails.
pub type Harness = fn(&[u8]);

/// Every fuzz target: its name (the `[[bin]]` name in `fuzz/Cargo.toml` and
/// the folder of its corpus in `fuzz/corpus/`) and its body.
pub const TARGETS: &[(&str, Harness)] = &[
    ("support_points", support_points),
    ("support_field", support_field),
    ("mpr_penetration", mpr_penetration),
    ("broadphase_pairs", broadphase_pairs),
    ("islands", islands),
    ("sat_manifold", sat_manifold),
    ("query_line", query_line),
    ("sdf_build", sdf_build),
    ("gjk_distance", gjk_distance),
    ("umbrella_queries", umbrella_queries),
    ("contact_manifold", contact_manifold),
    ("scene_step", scene_step),
    ("ray_cast", ray_cast),
    ("shape_cast", shape_cast),
    ("scene_queries", scene_queries),
    ("collider_queries", collider_queries),
];

/// The `ray_cast` target: [`ray_cast::check_bytes`] in f32 and f64 — a
/// decoded `mink::Shape` (every kind, half-spaces included) with a margin
/// and a pose, and a ray aimed at it, from inside it, grazing it or
/// anywhere, through `mink::ray_cast`: each answer checked against point
/// projections along the ray, closed forms against GJK's cast, and
/// invariance under a rigid motion of shape and ray together.
pub fn ray_cast(data: &[u8]) {
    if let Err(e) = ray_cast::check_bytes::<f32>(data) {
        panic!("ray_cast (f32): {e}");
    }
    if let Err(e) = ray_cast::check_bytes::<f64>(data) {
        panic!("ray_cast (f64): {e}");
    }
}

/// The `shape_cast` target: [`shape_cast::check_bytes`] in f32 and f64 —
/// two decoded `mink::Shape`s with margins, start poses biased to the hard
/// cases and decoded end poses (turning or not, far or near, aimed through
/// each other), through `mink::cast::shape_cast` in both orders: every
/// answer checked against the umbrella's distance query along the motion
/// (a reported clear interval is clear, a hit is at the target), and
/// invariance under a rigid motion of the whole scene.
pub fn shape_cast(data: &[u8]) {
    if let Err(e) = shape_cast::check_bytes::<f32>(data) {
        panic!("shape_cast (f32): {e}");
    }
    if let Err(e) = shape_cast::check_bytes::<f64>(data) {
        panic!("shape_cast (f64): {e}");
    }
}

/// The `scene_queries` target: [`scene_queries::check_bytes`] in f32 and
/// f64 — a small decoded scene (convex shapes, half-spaces, height fields
/// and meshes on a world link and free links) placed by one step, its ray
/// and point queries checked against a brute force over every geometry
/// the query filter sees, and its sweep to decoded end poses checked
/// against the umbrella's distance query sampled along the motion (a
/// motion reported clear is clear, a hit is at the clearance).
pub fn scene_queries(data: &[u8]) {
    if let Err(e) = scene_queries::check_bytes::<f32>(data) {
        panic!("scene_queries (f32): {e}");
    }
    if let Err(e) = scene_queries::check_bytes::<f64>(data) {
        panic!("scene_queries (f64): {e}");
    }
}

/// The `collider_queries` target: [`collider_queries::check_bytes`] in f32
/// and f64 — a decoded height field, closed mesh, or pair of hulls carrying
/// their own surfaces' fields, with a convex shape placed on, in or near
/// it: `Collider::ray_cast`, `Collider::project_point` and `mink::collide`
/// (both orders), each checked against an f64 model written in the harness
/// (the terrain's prisms, the mesh's triangles and winding number, GJK
/// per piece), and invariance under a rigid motion of the whole scene.
pub fn collider_queries(data: &[u8]) {
    if let Err(e) = collider_queries::check_bytes::<f32>(data) {
        panic!("collider_queries (f32): {e}");
    }
    if let Err(e) = collider_queries::check_bytes::<f64>(data) {
        panic!("collider_queries (f64): {e}");
    }
}

/// The `contact_manifold` target: [`contact_manifold::check_bytes`] in f32
/// and f64 — two decoded `mink::Shape`s with margins, poses and a contact
/// margin through `mink::contact_manifold` in both orders: non-empty
/// exactly within the margin (by the certified distance), the deepest
/// depth the overlap along the shared unit normal, every point's two
/// surface points on the two shapes' surfaces.
pub fn contact_manifold(data: &[u8]) {
    if let Err(e) = contact_manifold::check_bytes::<f32>(data) {
        panic!("contact_manifold (f32): {e}");
    }
    if let Err(e) = contact_manifold::check_bytes::<f64>(data) {
        panic!("contact_manifold (f64): {e}");
    }
}

/// The `scene_step` target: [`scene_step::check_bytes`] in f32 and f64 —
/// a small decoded scene stepped a few times; each step's contacts equal a
/// brute-force `mink::collide` over every pair the filters keep (bit for
/// bit without warm start, within a tolerance band near the margin with
/// it).
pub fn scene_step(data: &[u8]) {
    if let Err(e) = scene_step::check_bytes::<f32>(data) {
        panic!("scene_step (f32): {e}");
    }
    if let Err(e) = scene_step::check_bytes::<f64>(data) {
        panic!("scene_step (f64): {e}");
    }
}

/// The `umbrella_queries` target: [`umbrella_queries::check_bytes`] in f32
/// and f64 — two decoded `mink::Shape`s (every kind, half-spaces
/// included) with margins and poses through `mink::distance`,
/// `penetration` and `intersect` with every method, in both orders; each
/// answer certified from the shapes' support functions, swap symmetry and
/// invariance under a rigid motion of both.
pub fn umbrella_queries(data: &[u8]) {
    if let Err(e) = umbrella_queries::check_bytes::<f32>(data) {
        panic!("umbrella_queries (f32): {e}");
    }
    if let Err(e) = umbrella_queries::check_bytes::<f64>(data) {
        panic!("umbrella_queries (f64): {e}");
    }
}

/// The `gjk_distance` target: [`gjk_distance::check_bytes`] in f32 and f64
/// — two decoded shapes and poses through mink-gjk's distance, intersect
/// and penetration in both orders, each answer certified through the
/// shapes' support functions.
pub fn gjk_distance(data: &[u8]) {
    if let Err(e) = gjk_distance::check_bytes::<f32>(data) {
        panic!("gjk_distance (f32): {e}");
    }
    if let Err(e) = gjk_distance::check_bytes::<f64>(data) {
        panic!("gjk_distance (f64): {e}");
    }
}

/// The `query_line` target: any bytes as one line of the query format
/// through `mink_query::answer_line`, in f32 and f64 with every algorithm:
/// one well-formed JSON answer each, the id echoed, finite numbers, never a
/// panic.
pub fn query_line(data: &[u8]) {
    query_line::check_query_line(data);
}

/// The `sat_manifold` target: `mink_sat::fuzz::check_bytes` in f32 and f64
/// — two decoded hulls and poses; SAT with culling equals SAT without, and
/// every contact point lies on both hulls' surfaces.
pub fn sat_manifold(data: &[u8]) {
    if let Err(e) = mink_sat::fuzz::check_bytes::<f32>(data) {
        panic!("sat_manifold (f32): {e:?}");
    }
    if let Err(e) = mink_sat::fuzz::check_bytes::<f64>(data) {
        panic!("sat_manifold (f64): {e:?}");
    }
}

/// The `sdf_build` target: `mink_sdf::fuzz::fuzz_one_input` in f32 and
/// f64 — a decoded mesh and mutation is refused with the right error or
/// built, and every field query and contact on it is finite.
pub fn sdf_build(data: &[u8]) {
    if let Err(e) = mink_sdf::fuzz::fuzz_one_input(data) {
        panic!("sdf_build: {e:?}");
    }
}

/// The `support_field` target: `mink_field::fuzz::fuzz_one_input` — blobs
/// parsed from raw bytes are refused or answer in range, fields built from
/// decoded meshes answer within the mesh, and exact mode equals brute force.
pub fn support_field(data: &[u8]) {
    if let Err(e) = mink_field::fuzz::fuzz_one_input(data) {
        panic!("support_field: {e:?}");
    }
}

/// The `mpr_penetration` target: `mink_mpr::fuzz::check_bytes` — two
/// decoded shapes and poses; no NaN, depth >= 0, unit normal, intersect
/// agrees with penetration, the depth separates the shapes, and swapping A
/// and B flips the normal.
pub fn mpr_penetration(data: &[u8]) {
    if let Err(e) = mink_mpr::fuzz::check_bytes(data) {
        panic!("mpr_penetration: {e:?}");
    }
}

/// The `broadphase_pairs` target: `mink_broadphase::fuzz::fuzz_broadphase`
/// in f32 and f64 — every frame of a decoded scene and motion reports
/// exactly the brute-force pair set under the same filters and budget.
pub fn broadphase_pairs(data: &[u8]) {
    if let Err(e) = mink_broadphase::fuzz::fuzz_broadphase::<f32>(data) {
        panic!("broadphase_pairs (f32): {e:?}");
    }
    if let Err(e) = mink_broadphase::fuzz::fuzz_broadphase::<f64>(data) {
        panic!("broadphase_pairs (f64): {e:?}");
    }
}

/// The `islands` target: `mink_islands::check::check_bytes` in f32 and f64
/// — island assignment equals a BFS reference every step, and no link falls
/// asleep without 10 still steps.
pub fn islands(data: &[u8]) {
    if let Err(e) = mink_islands::check::check_bytes::<f32>(data) {
        panic!("islands (f32): {e:?}");
    }
    if let Err(e) = mink_islands::check::check_bytes::<f64>(data) {
        panic!("islands (f64): {e:?}");
    }
}

/// The `support_points` target: decodes a shape (any that mink-support
/// exports), a pose and a direction from `data`, and checks the shape's
/// support point, AABBs and support set against an independent description
/// of the shape. Panics with the reason when a check fails. The input
/// layout is documented at the top of `tests/src/fuzz/support_points.rs`.
pub fn support_points(data: &[u8]) {
    let _ = support_points::support_points(data);
}

/// Like [`support_points`], but says what the harness did with the input
/// (for tests that check the corpus exercises the checks).
pub fn support_points_outcome(data: &[u8]) -> Outcome {
    support_points::support_points(data)
}
