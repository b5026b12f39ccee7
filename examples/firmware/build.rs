//! Host side of the firmware, run by cargo before it compiles the firmware:
//!
//! 1. puts `memory.x` where the linker finds it;
//! 2. builds the 32-vertex hull (from points on an ellipsoid, rounded to
//!    `f32`) and its support field, and bakes the hull's vertices (`f32`)
//!    and the field's cells (a byte each), all the device reads of them;
//! 3. computes the pair queries' distinct poses and the arm's joint
//!    cosines and sines in `f64` (the only trigonometry: the device links
//!    none), and bakes them rounded to `f32`;
//! 4. runs every query of `src/scene.rs` in `f64` on the same inputs (the
//!    same hull points, the same `f32` poses and joints, widened) and bakes
//!    the answers as the constants the firmware checks itself against.
//!
//! Everything goes to `$OUT_DIR/baked.rs`, included by `src/main.rs`.

#[path = "src/cells.rs"]
mod cells;
#[path = "src/scene.rs"]
#[allow(dead_code)]
mod scene;

use cells::ByteCells;
use mink_field::{FieldView, SupportField};
use mink_firmware_queries::vertex_hull;
use mink_support::{ConvexHull, HullView, Iso3, Mat3, Vec3};
use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    std::fs::copy(manifest.join("memory.x"), out.join("memory.x")).expect("copy memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    // cortex-m-rt's linker script (it includes memory.x); here rather than
    // in .cargo/config.toml so that builds from any directory link.
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=src/scene.rs");
    println!("cargo:rerun-if-changed=src/cells.rs");
    println!("cargo:rerun-if-changed=build.rs");

    // The hull: a Fibonacci lattice on an ellipsoid (semi-axes 0.5, 0.4,
    // 0.3 m), every point extreme; rounded to f32 so both scalars start
    // from the very same points.
    let points32: Vec<Vec3<f32>> = (0..scene::HULL_VERTICES)
        .map(|i| {
            let n = scene::HULL_VERTICES as f64;
            let z = 1.0 - (2.0 * i as f64 + 1.0) / n;
            let r = (1.0 - z * z).sqrt();
            let phi = i as f64 * core::f64::consts::PI * (3.0 - 5.0_f64.sqrt());
            Vec3::new(0.5 * r * phi.cos(), 0.4 * r * phi.sin(), 0.3 * z).cast()
        })
        .collect();
    let points64: Vec<Vec3<f64>> = points32.iter().map(|p| p.cast()).collect();
    let hull32 = ConvexHull::from_points(&points32).expect("the f32 hull builds");
    let hull64 = ConvexHull::from_points(&points64).expect("the f64 hull builds");
    assert_eq!(hull32.view().vertex_count(), scene::HULL_VERTICES);
    assert_eq!(hull64.view().vertex_count(), scene::HULL_VERTICES);

    let field32 =
        SupportField::build_serial(hull32.view().vertices(), scene::FIELD_RES).expect("field f32");
    let field64 =
        SupportField::build_serial(hull64.view().vertices(), scene::FIELD_RES).expect("field f64");
    let indices64: Vec<u8> = field64.indices().iter().map(|&i| byte(i)).collect();
    // The poses in f64, rounded to f32 (baked), widened back for the host.
    let poses32: [Iso3<f32>; scene::POSE_COUNT] = scene::POSES.map(|p| pose(p).cast::<f32>());
    let poses64: [Iso3<f64>; scene::POSE_COUNT] = poses32.map(|p| p.cast());
    let scene64 = scene::Scene {
        hull: vertex_hull(hull64.view().vertices()),
        field: FieldView::new(
            scene::FIELD_RES,
            ByteCells::new(&indices64, hull64.view().vertices()).expect("byte cells"),
        )
        .expect("field view"),
        poses: &poses64,
    };

    let mut s = String::new();
    s.push_str("// Baked by build.rs: the 32-vertex hull and its support field in f32,\n");
    s.push_str("// and the expected answers computed on the host in f64. Do not edit.\n\n");
    bake_hull(&mut s, &hull32.view());
    let indices: Vec<String> = field32
        .indices()
        .iter()
        .map(|&i| byte(i).to_string())
        .collect();
    let _ = writeln!(
        s,
        "/// The hull's support field: a vertex index per cell.\npub static FIELD_INDICES: [u8; {}] = [{}];\n",
        indices.len(),
        indices.join(", ")
    );

    bake_poses(&mut s, &poses32);
    let expected: Vec<String> = (0..scene::QUERY_COUNT)
        .map(|k| f32_lit(scene::answer(k, &scene64, &mut ())))
        .collect();
    let _ = writeln!(
        s,
        "/// Expected answer of each query of `scene::QUERIES` (f64 on the host, rounded).\npub const EXPECTED: [f32; {}] = [{}];\n",
        expected.len(),
        expected.join(", ")
    );
    let capsules = scene::arm_capsules::<f64>();
    let mut arm = Vec::new();
    let mut below = Vec::new();
    let mut joints = Vec::new();
    for &(_, ds) in &scene::ARM_CONFIGS {
        let q = joint_angles(f64::from(ds) / 10.0);
        let cs32: [[f32; 2]; scene::LINKS] = q.map(|a| [a.cos() as f32, a.sin() as f32]);
        joints.push(format!(
            "[{}]",
            cs32.iter()
                .map(|[c, s]| format!("[{c:?}, {s:?}]"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let poses = scene::link_poses(&cs32.map(|cs| cs.map(f64::from)));
        let c = scene::arm_check(&mut (), &capsules, &poses);
        below.push(scene::below_clearance(&c).to_string());
        arm.push(format!(
            "[{}]",
            c.iter().map(|&v| f32_lit(v)).collect::<Vec<_>>().join(", ")
        ));
    }
    let _ = writeln!(
        s,
        "/// The arm's joint `[cos, sin]` per configuration (f64, rounded).\npub static ARM_JOINTS: [[[f32; 2]; {}]; {}] = [{}];\n",
        scene::LINKS,
        joints.len(),
        joints.join(",\n    ")
    );
    let _ = writeln!(
        s,
        "/// Expected clearances of the arm's 15 pairs, per configuration.\npub const EXPECTED_ARM: [[f32; {}]; {}] = [{}];\n",
        scene::ARM_PAIRS,
        arm.len(),
        arm.join(",\n    ")
    );
    let _ = writeln!(
        s,
        "/// Expected verdict (below the minimum clearance), per configuration.\npub const EXPECTED_ARM_BELOW: [bool; {}] = [{}];",
        below.len(),
        below.join(", ")
    );
    std::fs::write(out.join("baked.rs"), s).expect("write baked.rs");
}

/// The host example's joint angles at time `t` (seconds): each joint
/// swings sinusoidally with its own amplitude, frequency and phase.
fn joint_angles(t: f64) -> [f64; scene::LINKS] {
    let amp = [2.6, 1.9, 2.7, 2.3, 2.7, 2.0, 2.9];
    let freq = [0.11, 0.17, 0.13, 0.19, 0.23, 0.29, 0.31];
    let phase = [0.0, 0.7, 1.9, 0.3, 2.2, 1.1, 0.5];
    core::array::from_fn(|i| amp[i] * (core::f64::consts::TAU * freq[i] * t + phase[i]).sin())
}

/// The pose of `spec` in f64: rotation about the normalized axis, then
/// the translation.
fn pose((axis, angle, t): scene::PoseSpec) -> Iso3<f64> {
    let axis = Vec3::new(axis[0], axis[1], axis[2]).normalize_or(Vec3::Z);
    Iso3::from_parts(
        Mat3::from_axis_angle(axis, angle),
        Vec3::new(t[0], t[1], t[2]),
    )
}

/// Writes the pair queries' distinct poses as `QUERY_POSES`.
fn bake_poses(s: &mut String, poses: &[Iso3<f32>]) {
    let v3 = |v: Vec3<f32>| format!("Vec3::new({:?}, {:?}, {:?})", v.x, v.y, v.z);
    let iso = |p: &Iso3<f32>| {
        format!(
            "Iso3 {{ rotation: Mat3::from_cols({}, {}, {}), translation: {} }}",
            v3(p.rotation.x_axis),
            v3(p.rotation.y_axis),
            v3(p.rotation.z_axis),
            v3(p.translation)
        )
    };
    let list: Vec<String> = poses.iter().map(iso).collect();
    let _ = writeln!(
        s,
        "/// The pair queries' distinct poses (f64, rounded to f32), indexed by\n\
         /// `scene::PairQuery::poses`.\npub static QUERY_POSES: [Iso3<f32>; {}] = [{}];\n",
        poses.len(),
        list.join(",\n    ")
    );
}

/// A field's vertex index as a byte (the hull has 32 vertices).
fn byte(i: u32) -> u8 {
    u8::try_from(i).expect("a vertex index of the 32-vertex hull fits a byte")
}

/// `x` as an `f32` literal that reads back exactly.
fn f32_lit(x: f64) -> String {
    let v = x as f32;
    if v.is_finite() {
        format!("{v:?}")
    } else {
        "f32::INFINITY".to_string()
    }
}

/// Writes the hull's vertices as `HULL_VERTICES`: all the device reads
/// of the hull (see `mink_firmware_queries::vertex_hull`).
fn bake_hull(s: &mut String, hull: &HullView<'_, f32>) {
    let v3 = |v: &Vec3<f32>| format!("Vec3::new({:?}, {:?}, {:?})", v.x, v.y, v.z);
    let vertices = hull.vertices();
    let _ = writeln!(
        s,
        "/// The 32-vertex hull's vertices, built on the host from the f32 points.\n\
         pub static HULL_VERTICES: [Vec3<f32>; {}] = [{}];\n",
        vertices.len(),
        vertices.iter().map(v3).collect::<Vec<_>>().join(", ")
    );
}
