//! The seed corpus of the fuzz targets, generated deterministically.
//!
//! `fuzz/corpus/<target>/seed-*` are these inputs; `tests/fuzz_corpus.rs`
//! checks the committed files match (`MINK_BLESS_SEEDS=1 cargo test -p
//! mink-tests --test fuzz_corpus` rewrites them). Everything else in a corpus
//! folder came from fuzzing.

use super::bytes::{ByteWriter, Special};

/// The seed inputs of `target` as `(file name, bytes)`; empty for an
/// unknown target.
pub fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    match target {
        "support_points" => support_points(),
        "support_field" | "mpr_penetration" | "broadphase_pairs" | "islands" | "sat_manifold"
        | "sdf_build" | "gjk_distance" | "scene_queries" | "collider_queries" => {
            byte_strings(target)
        }
        "query_line" => query_lines(),
        "umbrella_queries" | "contact_manifold" | "shape_cast" => shape_pairs(target),
        "scene_step" => scenes(),
        "ray_cast" => rays(),
        _ => Vec::new(),
    }
}

/// The query lines of mink-query's end-to-end file (one per shape pair and
/// query kind, with malformed lines among them), then byte strings.
fn query_lines() -> Vec<(String, Vec<u8>)> {
    let lines = include_str!("../../../crates/query/tests/data/cases.jsonl");
    let mut seeds: Vec<(String, Vec<u8>)> = lines
        .lines()
        .enumerate()
        .map(|(i, line)| (format!("seed-line-{i:03}"), line.as_bytes().to_vec()))
        .collect();
    seeds.extend(byte_strings("query_line"));
    seeds
}

/// Sixteen deterministic byte strings of 8 to 1,024 bytes for the targets
/// whose harness decodes any bytes into a case: a SplitMix64 stream seeded
/// by the target's name, so each target gets its own.
fn byte_strings(target: &str) -> Vec<(String, Vec<u8>)> {
    let mut next = stream(target);
    (0..16)
        .map(|i| {
            let len = 8usize << (i % 8);
            let bytes = (0..len).map(|_| next() as u8).collect();
            (format!("seed-{i:02}"), bytes)
        })
        .collect()
}

/// One valid set of parameters per shape kind, in decoder order, written as
/// the constructor takes them.
fn shape_params(kind: u8, w: &mut ByteWriter) {
    match kind {
        0 => {}
        1 => {
            w.real(0.5);
        }
        2 => {
            w.vec3([1.0, 0.5, 0.25]);
        }
        3 | 6 | 7 => {
            w.real(0.5).real(1.0);
        }
        4 => {
            w.vec3([-1.0, 0.0, 0.0]).vec3([1.0, 2.0, 0.5]);
        }
        5 => {
            w.vec3([1.0, 0.5, 2.0]);
        }
        8 => {
            w.vec3([0.0, 0.0, 0.0])
                .vec3([1.0, 0.0, 0.0])
                .vec3([0.0, 1.0, 0.5]);
        }
        9 => {
            w.vec3([0.0, 0.0, 1.0])
                .vec3([1.0, 0.0, 1.5])
                .vec3([0.0, 1.0, 1.2])
                .real(-1.0);
        }
        _ => {
            // A box's corners plus a point inside and one on a face: the
            // count byte is `n - 4`.
            w.u8(6);
            for i in 0..8 {
                let c = |bit: usize, h: f64| if i & bit != 0 { h } else { -h };
                w.vec3([c(1, 1.0), c(2, 0.5), c(4, 0.25)]);
            }
            w.vec3([0.1, 0.1, 0.1]).vec3([1.0, 0.0, 0.0]);
        }
    }
}

/// Short names of the shape kinds, in decoder order.
const KIND_NAMES: [&str; 11] = [
    "point",
    "sphere",
    "cuboid",
    "capsule",
    "segment",
    "ellipsoid",
    "cylinder",
    "cone",
    "triangle",
    "prism",
    "hull",
];

/// A query: scalar, pose, direction, tolerance selector, optional margin.
struct Query {
    f64: bool,
    margin: Option<f64>,
    translation: [f64; 3],
    quat_wxyz: [f64; 4],
    dir: [f64; 3],
    tol_selector: u8,
}

/// The bytes of one `support_points` input.
fn encode(kind: u8, q: &Query, hostile_dir: Option<Special>) -> Vec<u8> {
    let mut w = ByteWriter::new();
    w.u8(u8::from(q.f64));
    w.u8(kind | if q.margin.is_some() { 0x80 } else { 0 });
    shape_params(kind, &mut w);
    if let Some(m) = q.margin {
        w.real(m);
    }
    w.vec3(q.translation);
    for c in q.quat_wxyz {
        w.real(c);
    }
    match hostile_dir {
        Some(s) => {
            w.special(s).real(1.0).special(s);
        }
        None => {
            w.vec3(q.dir);
        }
    }
    w.u8(q.tol_selector);
    w.into_bytes()
}

/// Three queries for every shape kind (plain, posed and rounded in f32,
/// along an axis with zero tolerance), then hostile and invalid inputs.
fn support_points() -> Vec<(String, Vec<u8>)> {
    let plain = Query {
        f64: true,
        margin: None,
        translation: [0.0; 3],
        quat_wxyz: [1.0, 0.0, 0.0, 0.0],
        dir: [1.0, 0.5, -0.25],
        tol_selector: 2,
    };
    let posed = Query {
        f64: false,
        margin: Some(0.05),
        translation: [1.0, -2.0, 3.0],
        quat_wxyz: [0.9, 0.1, -0.3, 0.2],
        dir: [-1.5, 5.0, 3.5],
        tol_selector: 1,
    };
    let axis = Query {
        f64: true,
        margin: None,
        translation: [0.25, 0.0, -0.5],
        quat_wxyz: [1.0, 0.0, 0.0, 0.0],
        dir: [0.0, 0.0, 1.0],
        tol_selector: 0,
    };
    let mut out = Vec::new();
    for (kind, name) in KIND_NAMES.iter().enumerate() {
        let kind = kind as u8;
        out.push((format!("seed-{name}-plain"), encode(kind, &plain, None)));
        out.push((format!("seed-{name}-posed"), encode(kind, &posed, None)));
        out.push((format!("seed-{name}-axis"), encode(kind, &axis, None)));
    }
    for (kind, special, tag) in [
        (2u8, Special::NaN, "nan"),
        (6, Special::Zero, "zero"),
        (7, Special::Infinity, "inf"),
        (5, Special::Subnormal, "subnormal"),
        (9, Special::Max, "max"),
    ] {
        let name = format!("seed-{}-dir-{tag}", KIND_NAMES[usize::from(kind)]);
        out.push((name, encode(kind, &plain, Some(special))));
    }
    // Invalid parameters, which the constructors must refuse.
    let mut w = ByteWriter::new();
    w.u8(0).u8(1).real(-1.0);
    out.push(("seed-sphere-negative-radius".into(), w.into_bytes()));
    let mut w = ByteWriter::new();
    w.u8(1).u8(2).real(1.0).special(Special::Infinity).real(1.0);
    out.push(("seed-cuboid-infinite".into(), w.into_bytes()));
    let mut w = ByteWriter::new();
    w.u8(1)
        .u8(8)
        .vec3([0.0; 3])
        .vec3([1.0, 1.0, 1.0])
        .vec3([2.0, 2.0, 2.0]);
    out.push(("seed-triangle-collinear".into(), w.into_bytes()));
    let mut w = ByteWriter::new();
    w.u8(0)
        .u8(0x80 | 3)
        .real(0.5)
        .real(1.0)
        .special(Special::NaN);
    out.push(("seed-capsule-nan-margin".into(), w.into_bytes()));
    out
}

/// A SplitMix64 stream seeded by the FNV-1a hash of `name`.
fn stream(name: &str) -> impl FnMut() -> u64 {
    let mut state = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Names of the kinds of `shapes::decode_shape`, in its order.
const SHAPE_NAMES: [&str; 13] = [
    "point",
    "sphere",
    "box",
    "capsule",
    "segment",
    "rbox",
    "ellipsoid",
    "cylinder",
    "cone",
    "triangle",
    "prism",
    "hull",
    "plane",
];

/// The bytes of one shape of `shapes::decode_shape`: `kind` with about
/// half-metre sizes; `variant` picks the flags (plain, flat, tiny, huge).
/// Triangles and prisms get three spread points, hulls a box's corners
/// plus four points inside, half-spaces a tilted normal.
fn shape_bytes(kind: u8, variant: usize, w: &mut Vec<u8>) {
    let flags = [0u8, 0, 0, 4, 2, 3][variant % 6] | if kind == 11 { 8 } else { 0 };
    w.extend([kind, flags]);
    for size in [0x4000u16, 0x3000, 0x2000] {
        w.extend(size.to_le_bytes());
    }
    let point = |w: &mut Vec<u8>, c: [u16; 3]| {
        for x in c {
            w.extend(x.to_le_bytes());
        }
    };
    match kind {
        9 | 10 => {
            point(w, [0xffff, 0x8000, 0x8000]);
            point(w, [0, 0xffff, 0x8000]);
            point(w, [0x8000, 0, 0xffff]);
        }
        11 => {
            w.push(0);
            for i in 0..12u16 {
                point(
                    w,
                    [
                        0x6000 + 0x800 * (i % 3),
                        0x7000 + 0x400 * i,
                        0x9000 - 0x300 * i,
                    ],
                );
            }
        }
        12 => point(w, [0x9000, 0x8800, 0xf000]),
        _ => {}
    }
}

/// One input per ordered pair of shape kinds for the targets decoding two
/// shapes: the pair, then margins, placement (cycling through every
/// placement mode) and motion from a stream seeded by the target's name.
fn shape_pairs(target: &str) -> Vec<(String, Vec<u8>)> {
    let mut next = stream(target);
    let mut out = Vec::new();
    for a in 0..13u8 {
        for b in 0..13u8 {
            let i = usize::from(a) * 13 + usize::from(b);
            let mut w = Vec::new();
            shape_bytes(a, i / 7, &mut w);
            shape_bytes(b, i / 11, &mut w);
            // Margins: none, then the placement byte (its mode is `% 8`).
            w.extend([0, (i % 3) as u8 * 4, (i % 8) as u8]);
            w.extend((0..64).map(|_| next() as u8));
            let name = format!(
                "seed-{}-{}",
                SHAPE_NAMES[usize::from(a)],
                SHAPE_NAMES[usize::from(b)]
            );
            out.push((name, w));
        }
    }
    out
}

/// Scenes for `scene_step`: sixteen byte strings, then one four-link
/// scene (the world, a free body, a child of the world, a free body) of
/// seven geometries per shape kind, kinds cycling from it, stepped four
/// times with every filter on, the methods and point caps cycling, with
/// and without warm start.
fn scenes() -> Vec<(String, Vec<u8>)> {
    let mut out = byte_strings("scene_step");
    let mut next = stream("scene_step structured");
    for k in 0..13u8 {
        let mut w = vec![3, 1, 0, 2, 0, 5];
        for g in 0..7u8 {
            shape_bytes((k + g) % 13, 0, &mut w);
            w.extend([g, 0, g, 0]);
        }
        let settings = (k % 4) | if k % 2 == 0 { 4 } else { 0 } | ((k % 4) << 3);
        w.extend([0, settings, 3]);
        w.extend((0..256).map(|_| next() as u8));
        out.push((format!("seed-scene-{}", SHAPE_NAMES[usize::from(k)]), w));
    }
    out
}

/// One input per shape kind and ray mode for `ray_cast`: the shape, no
/// margin, then bytes from a stream seeded by the target's name (the pose,
/// the mode byte cycling through every aim, length, solidity and reach,
/// the ray's parameters and the rigid motion).
fn rays() -> Vec<(String, Vec<u8>)> {
    let mut next = stream("ray_cast");
    let mut out = Vec::new();
    for kind in 0..13u8 {
        for mode in 0..8u8 {
            let mut w = Vec::new();
            shape_bytes(kind, usize::from(mode), &mut w);
            w.push(0);
            let pose: Vec<u8> = (0..14).map(|_| next() as u8).collect();
            w.extend(pose);
            w.push(
                mode | ((kind % 4) << 3)
                    | ((mode & 1) << 5)
                    | (((kind + mode) % 3 == 0) as u8) << 6,
            );
            w.extend((0..40).map(|_| next() as u8));
            out.push((format!("seed-{}-{mode}", SHAPE_NAMES[usize::from(kind)]), w));
        }
    }
    out
}
