//! Baked fields: blobs and Rust statics read back bit for bit, corrupt
//! blobs refused, the bake entry point end to end.

mod common;

use common::{random_hull, Kind};
use mink_field::bake::{bake_file, parse_json_points, parse_obj, rust_source, BakeOptions};
use mink_field::blob::{fnv1a32, write_blob, BlobLayout, BLOB_HEADER_BYTES};
use mink_field::{CellStore, FieldBlob, FieldError, HullGraph, SupportField};
use mink_support::{Real, Vec3};
use mink_testkit::{for_each_real, Rng};

fn bits<R: Real>(v: Vec3<R>) -> [u64; 3] {
    v.to_array().map(|c| c.to_f64().to_bits())
}

/// A blob written from a field reads back equal, cell for cell and query
/// for query, in both layouts, with the graph.
fn blob_round_trip<R: Real>() {
    let mut rng = Rng::new(3);
    let hull = random_hull(&mut rng, 300, Kind::Ball).cast::<R>();
    let graph = HullGraph::new(&hull.vertices, &hull.offsets, &hull.neighbours).unwrap();
    let field = SupportField::build(&hull.vertices, 45).unwrap();
    let view = field.view();
    for layout in [BlobLayout::Full, BlobLayout::Compact] {
        let bytes = write_blob(&field, &hull.vertices, Some(&graph), layout).unwrap();
        let blob = FieldBlob::parse(&bytes).unwrap();
        assert_eq!(
            (blob.res(), blob.layout(), blob.has_graph()),
            (45, layout, true)
        );
        let back = blob.field::<R>().unwrap();
        for k in 0..45 * 45 {
            let (a, b) = (view.cell(k).unwrap(), back.cell(k).unwrap());
            assert_eq!(a.0, b.0);
            assert_eq!(bits(a.1), bits(b.1));
        }
        let g = blob.graph::<R>().unwrap().unwrap();
        for _ in 0..2000 {
            let d: Vec3<R> = rng.direction();
            assert_eq!(view.query(d).unwrap(), back.query(d).unwrap());
            assert_eq!(
                view.query_exact(&graph, d).unwrap(),
                back.query_exact(&g, d).unwrap()
            );
        }
        let expected = match layout {
            BlobLayout::Full => 45 * 45 * (3 * core::mem::size_of::<R>() + 4),
            BlobLayout::Compact => 45 * 45 * 2,
        };
        assert_eq!(back.cells().cell_bytes(), expected);
    }
    // Without a graph, and read with the wrong scalar.
    let bytes = write_blob(&field, &hull.vertices, None, BlobLayout::Full).unwrap();
    let blob = FieldBlob::parse(&bytes).unwrap();
    assert!(blob.graph::<R>().unwrap().is_none());
    let width = core::mem::size_of::<R>() as u8;
    if width == 4 {
        assert_eq!(blob.field::<f64>().unwrap_err(), FieldError::BlobScalar(4));
    } else {
        assert_eq!(blob.field::<f32>().unwrap_err(), FieldError::BlobScalar(8));
    }
}
for_each_real!(blob_round_trip, blob_round_trip);

/// Rewrites the checksum after tampering, so the content checks are hit.
fn reseal(b: &mut [u8]) {
    let c = fnv1a32(&b[BLOB_HEADER_BYTES..]);
    b[28..32].copy_from_slice(&c.to_le_bytes());
}

#[test]
fn corrupt_blobs_are_refused() {
    let mut rng = Rng::new(4);
    let hull = random_hull(&mut rng, 40, Kind::Sphere).cast::<f32>();
    let graph = HullGraph::new(&hull.vertices, &hull.offsets, &hull.neighbours).unwrap();
    let field = SupportField::build(&hull.vertices, 16).unwrap();
    let good = write_blob(&field, &hull.vertices, Some(&graph), BlobLayout::Full).unwrap();
    assert!(FieldBlob::parse(&good).is_ok());

    // Every truncation is refused.
    for cut in 0..good.len() {
        let e = FieldBlob::parse(&good[..cut]).unwrap_err();
        assert!(
            matches!(e, FieldError::BlobTruncated { given, .. } if given == cut),
            "{cut}: {e}"
        );
    }
    // Trailing bytes.
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(
        FieldBlob::parse(&long),
        Err(FieldError::BlobHeader(_))
    ));
    // Magic, version, scalar width, layout.
    let mut b = good.clone();
    b[0] = b'X';
    assert_eq!(FieldBlob::parse(&b).unwrap_err(), FieldError::BlobMagic);
    let mut b = good.clone();
    b[8] = 2;
    assert_eq!(
        FieldBlob::parse(&b).unwrap_err(),
        FieldError::BlobVersion(2)
    );
    let mut b = good.clone();
    b[10] = 2;
    assert!(matches!(
        FieldBlob::parse(&b),
        Err(FieldError::BlobHeader(_))
    ));
    let mut b = good.clone();
    b[11] = 7;
    assert!(matches!(
        FieldBlob::parse(&b),
        Err(FieldError::BlobHeader(_))
    ));
    // Inconsistent sizes: resolution, vertex count, neighbour count.
    for (at, value) in [(12usize, 17u32), (16, 41), (20, 3), (24, 12)] {
        let mut b = good.clone();
        b[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let e = FieldBlob::parse(&b).unwrap_err();
        assert!(matches!(e, FieldError::BlobHeader(_)), "offset {at}: {e}");
    }
    let mut b = good.clone();
    b[12..16].copy_from_slice(&5000u32.to_le_bytes());
    assert_eq!(
        FieldBlob::parse(&b).unwrap_err(),
        FieldError::Resolution(5000)
    );
    let mut b = good.clone();
    b[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        FieldBlob::parse(&b),
        Err(FieldError::BlobHeader(_))
    ));
    // A flipped payload bit.
    for at in [BLOB_HEADER_BYTES, good.len() / 2, good.len() - 1] {
        let mut b = good.clone();
        b[at] ^= 0x10;
        assert_eq!(FieldBlob::parse(&b).unwrap_err(), FieldError::BlobChecksum);
    }
    // Resealed tampering: an index out of range, a NaN, bad offsets.
    let n = hull.vertices.len();
    let mut b = good.clone();
    let last = b.len() - 4;
    b[last..].copy_from_slice(&(n as u32).to_le_bytes());
    reseal(&mut b);
    assert!(matches!(
        FieldBlob::parse(&b),
        Err(FieldError::IndexOutOfRange { .. })
    ));
    let mut b = good.clone();
    b[BLOB_HEADER_BYTES..BLOB_HEADER_BYTES + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    reseal(&mut b);
    assert!(matches!(
        FieldBlob::parse(&b),
        Err(FieldError::NonFinite(_))
    ));
    let mut b = good.clone();
    let off = BLOB_HEADER_BYTES + 12 * n + 4;
    b[off..off + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    reseal(&mut b);
    assert!(matches!(FieldBlob::parse(&b), Err(FieldError::Length(_))));
}

/// The Rust source holds the field's numbers bit for bit.
#[test]
fn rust_source_is_bit_exact() {
    let mut rng = Rng::new(8);
    let hull = random_hull(&mut rng, 60, Kind::Sliver).cast::<f32>();
    let field = SupportField::build(&hull.vertices, 12).unwrap();
    let src = rust_source(&field, &hull.vertices, None, "test");
    let section = |name: &str| {
        let start = src.find(&format!("pub static {name}")).unwrap();
        let body = &src[start..];
        let body = &body[body.find("= [").unwrap() + 3..body.find("\n];").unwrap()];
        body.to_string()
    };
    let floats = |s: String| -> Vec<f32> {
        s.replace("mink_support::Vec3::new", "")
            .split(|c: char| "[](),\n ".contains(c))
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap())
            .collect()
    };
    let pts = floats(section("CELL_POINTS"));
    let want: Vec<f32> = field.points().iter().flatten().copied().collect();
    assert_eq!(
        pts.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        want.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    let verts = floats(section("VERTICES"));
    let want: Vec<f32> = hull.vertices.iter().flat_map(|v| v.to_array()).collect();
    assert_eq!(
        verts.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        want.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    let idx: Vec<u32> = section("CELL_INDICES")
        .split(|c: char| ", \n".contains(c))
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(idx, field.indices());
    assert!(src.contains("pub const RES: u32 = 12;"));
}

#[test]
fn mesh_parsers() {
    let obj = "# cube\nv 1 2 3\nvn 0 0 1\nv -1.5 0 2e-3 1.0\nf 1 2 3\n";
    assert_eq!(
        parse_obj(obj).unwrap(),
        vec![Vec3::new(1.0, 2.0, 3.0), Vec3::new(-1.5, 0.0, 2e-3)]
    );
    assert!(parse_obj("v 1 2\n").is_err());
    assert!(parse_obj("v 1 2 x\n").is_err());
    let json = "{ \"points\" : [ [1, 2, 3], [ -1.5,0, 2e-3 ] ] }";
    assert_eq!(
        parse_json_points(json).unwrap(),
        vec![Vec3::new(1.0, 2.0, 3.0), Vec3::new(-1.5, 0.0, 2e-3)]
    );
    assert!(parse_json_points("{\"points\": [[1, 2]]}").is_err());
    assert!(parse_json_points("{\"pts\": []}").is_err());
    assert!(parse_json_points("{\"points\": [[1, 2, 3] [4, 5, 6]]}").is_err());
}

/// `bake_file` end to end: OBJ to blob, JSON to Rust source.
#[test]
fn bake_end_to_end() {
    let dir = std::env::temp_dir().join(format!("mink-field-bake-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng::new(12);
    let pts: Vec<Vec3<f64>> = rng.points_on_sphere(30, 0.5);
    let obj: String = pts
        .iter()
        .map(|p| format!("v {} {} {}\n", p.x, p.y, p.z))
        .collect();
    std::fs::write(dir.join("m.obj"), obj).unwrap();
    let opts = BakeOptions {
        res: 20,
        ..BakeOptions::default()
    };
    let report = bake_file(&dir.join("m.obj"), &dir.join("m.bin"), &opts).unwrap();
    // Points on a sphere: every one is a hull vertex.
    assert_eq!((report.points, report.vertices, report.res), (30, 30, 20));
    let bytes = std::fs::read(dir.join("m.bin")).unwrap();
    assert_eq!(bytes.len(), report.bytes);
    let blob = FieldBlob::parse(&bytes).unwrap();
    assert!(blob.has_graph());
    let verts: Vec<Vec3<f32>> = pts.iter().map(|p| p.cast()).collect();
    let back = blob.field::<f32>().unwrap();
    let graph = blob.graph::<f32>().unwrap().unwrap();
    for _ in 0..2000 {
        let d: Vec3<f32> = rng.unit_vec();
        let hit = back.query_exact(&graph, d).unwrap();
        let best = common::brute(&verts, d);
        assert!((d.dot(hit.point) - best).abs() <= 1e-6);
    }
    let json = format!(
        "{{\"points\": [{}]}}",
        pts.iter()
            .map(|p| format!("[{}, {}, {}]", p.x, p.y, p.z))
            .collect::<Vec<_>>()
            .join(", ")
    );
    std::fs::write(dir.join("m.json"), json).unwrap();
    bake_file(&dir.join("m.json"), &dir.join("m.rs"), &opts).unwrap();
    let src = std::fs::read_to_string(dir.join("m.rs")).unwrap();
    assert!(src.contains("pub static CELL_INDICES: [u32; 400]"));
    assert!(bake_file(&dir.join("m.bin"), &dir.join("x.rs"), &opts).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
