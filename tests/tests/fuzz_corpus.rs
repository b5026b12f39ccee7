//! Replays every committed fuzz corpus through its harness on stable, checks
//! the seed files are the generated ones, runs the harness on thousands of
//! seeded random inputs, and checks the harness's checks catch broken
//! shapes (so a passing corpus means something).

use mink_support::{Aabb, CapacityError, Cuboid, Iso3, Sphere, Support, SupportSet, Vec3};
use mink_testkit::Rng;
use mink_tests::fuzz::bytes::{ByteWriter, Special};
use mink_tests::fuzz::seeds::seeds;
use mink_tests::fuzz::{
    check_shape, has_open_bug, support_points_outcome, Outcome, Range, MAX_HULL_INPUT, SHAPE_KINDS,
    TARGETS,
};
use mink_tests::oracle::{Oracle, Samples};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// `fuzz/` at the workspace root.
fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("fuzz")
}

/// The files of a target's committed corpus, sorted by name.
fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = fuzz_dir().join("corpus").join(target);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("corpus entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).expect("corpus file"))
        })
        .collect();
    files.sort();
    files
}

/// The `[[bin]]` names of `fuzz/Cargo.toml`.
fn declared_targets() -> Vec<String> {
    let text = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).expect("fuzz/Cargo.toml");
    let mut names = Vec::new();
    let mut in_bin = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if let Some(v) = line.strip_prefix("name") {
            if in_bin {
                names.push(
                    v.trim_start_matches([' ', '='])
                        .trim()
                        .trim_matches('"')
                        .into(),
                );
            }
        }
    }
    names
}

#[test]
fn every_fuzz_target_has_a_harness_and_a_corpus() {
    let mut declared = declared_targets();
    declared.sort();
    let mut harnessed: Vec<String> = TARGETS.iter().map(|(n, _)| n.to_string()).collect();
    harnessed.sort();
    assert_eq!(
        declared, harnessed,
        "fuzz/Cargo.toml targets vs mink_tests::fuzz::TARGETS"
    );
    for (name, _) in TARGETS {
        assert!(!corpus(name).is_empty(), "fuzz/corpus/{name} is empty");
    }
}

#[test]
fn seed_files_are_the_generated_seeds() {
    let bless = std::env::var_os("MINK_BLESS_SEEDS").is_some_and(|v| v == "1");
    for (target, _) in TARGETS {
        let dir = fuzz_dir().join("corpus").join(target);
        let generated: BTreeMap<String, Vec<u8>> = seeds(target).into_iter().collect();
        assert!(!generated.is_empty(), "no seeds for {target}");
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            for (name, _) in corpus(target)
                .iter()
                .filter(|(n, _)| n.starts_with("seed-"))
            {
                std::fs::remove_file(dir.join(name)).unwrap();
            }
            for (name, bytes) in &generated {
                std::fs::write(dir.join(name), bytes).unwrap();
            }
        }
        let committed: BTreeMap<String, Vec<u8>> = corpus(target)
            .into_iter()
            .filter(|(n, _)| n.starts_with("seed-"))
            .collect();
        assert_eq!(
            committed.keys().collect::<Vec<_>>(),
            generated.keys().collect::<Vec<_>>(),
            "fuzz/corpus/{target}: seed files differ from the generator; rerun with \
             MINK_BLESS_SEEDS=1 to rewrite them"
        );
        for (name, bytes) in &generated {
            assert_eq!(
                &committed[name], bytes,
                "fuzz/corpus/{target}/{name} differs"
            );
        }
    }
}

#[test]
fn corpus_replays_without_a_failure() {
    let mut failures = Vec::new();
    let mut total = 0;
    for (target, body) in TARGETS {
        for (name, bytes) in corpus(target) {
            total += 1;
            if let Err(e) = catch_unwind(|| body(&bytes)) {
                let why = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!("fuzz/corpus/{target}/{name}: {why}"));
            }
        }
    }
    assert!(total > 0, "no corpus files");
    assert!(
        failures.is_empty(),
        "{} of {total} inputs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_checks_every_shape_kind_on_moderate_input() {
    let mut kinds = [0usize; SHAPE_KINDS as usize];
    let files = corpus("support_points");
    for (_, bytes) in &files {
        if let Outcome::Checked {
            kind,
            moderate: true,
        } = support_points_outcome(bytes)
        {
            kinds[usize::from(kind)] += 1;
        }
    }
    for (kind, count) in kinds.iter().enumerate() {
        assert!(
            *count >= 2,
            "shape kind {kind} is checked on moderate input by {count} corpus files"
        );
    }
    let checked: usize = kinds.iter().sum();
    assert!(
        checked * 4 >= files.len(),
        "only {checked} of {} corpus inputs reach the full checks",
        files.len()
    );
}

/// The targets of the umbrella crate, left out of
/// [`random_bytes_pass_the_checks`].
const UMBRELLA_TARGETS: [&str; 3] = ["umbrella_queries", "contact_manifold", "scene_step"];

#[test]
fn random_bytes_pass_the_checks() {
    let mut rng = Rng::new(0x5eed_b17e);
    let mut outcomes = [0usize; 3];
    for i in 0..20_000 {
        let len = rng.below(160);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        // Every target on every tenth input (the scene-decoding harnesses
        // cost milliseconds an input; each crate also runs its own harness
        // over thousands of seeded inputs), support_points on all of them.
        for (name, body) in TARGETS {
            // The umbrella targets have their own seeded sweeps
            // (`tests/umbrella_fuzz.rs`), ignored while the library bugs
            // they found are open.
            if UMBRELLA_TARGETS.contains(name) || has_open_bug(name) {
                continue;
            }
            if i % 10 == 0 || *name == "support_points" {
                body(&bytes);
            }
        }
        outcomes[match support_points_outcome(&bytes) {
            Outcome::Refused => 0,
            Outcome::Checked {
                moderate: false, ..
            } => 1,
            Outcome::Checked { moderate: true, .. } => 2,
        }] += 1;
    }
    // Random bytes must reach the full checks often, and the hostile paths too.
    assert!(outcomes[2] > 2_000, "moderate checked: {outcomes:?}");
    assert!(
        outcomes[1] > 500 && outcomes[0] > 500,
        "outcomes: {outcomes:?}"
    );
}

/// Random valid, moderate inputs for every shape kind, through the encoder.
fn structured_input(rng: &mut Rng, kind: u8) -> Vec<u8> {
    let mut w = ByteWriter::new();
    let rounded = rng.chance(0.3);
    w.u8(rng.below(2) as u8)
        .u8(kind | if rounded { 0x80 } else { 0 });
    let size = 10f64.powf(rng.range_f64(-2.0, 2.0));
    let pos = |rng: &mut Rng| rng.range_f64(0.1, 1.0) * size;
    match kind {
        0 => {}
        1 => {
            w.real(pos(rng));
        }
        2 | 5 => {
            w.vec3([pos(rng), pos(rng), pos(rng)]);
        }
        3 | 6 | 7 => {
            w.real(pos(rng)).real(pos(rng));
        }
        4 | 8 => {
            for _ in 0..if kind == 4 { 2 } else { 3 } {
                let v = rng.in_cube::<f64>(size);
                w.vec3(v.to_array());
            }
        }
        9 => {
            let mut low = f64::INFINITY;
            for _ in 0..3 {
                let v = rng.in_cube::<f64>(size);
                low = low.min(v.z);
                w.vec3(v.to_array());
            }
            w.real(low - pos(rng));
        }
        _ => {
            let n = 4 + rng.below(MAX_HULL_INPUT - 3);
            w.u8((n - 4) as u8);
            for _ in 0..n {
                w.vec3(rng.in_cube::<f64>(size).to_array());
            }
        }
    }
    if rounded {
        w.real(pos(rng) * 0.1);
    }
    w.vec3(rng.in_cube::<f64>(10.0 * size).to_array());
    let q = rng.quat::<f64>();
    w.real(q.w).real(q.x).real(q.y).real(q.z);
    let d = rng.direction::<f64>();
    if d.max_abs() < 1e-3 || d.max_abs() > 1e3 {
        w.vec3((d * (1.0 / d.max_abs())).to_array());
    } else {
        w.vec3(d.to_array());
    }
    w.u8(rng.below(4) as u8);
    w.into_bytes()
}

#[test]
fn structured_inputs_pass_the_checks() {
    let mut rng = Rng::new(0xc0ffee);
    for kind in 0..SHAPE_KINDS {
        let mut checked = 0;
        for _ in 0..1_000 {
            let bytes = structured_input(&mut rng, kind);
            if let Outcome::Checked {
                kind: k,
                moderate: true,
            } = support_points_outcome(&bytes)
            {
                assert_eq!(k, kind);
                checked += 1;
            }
        }
        // Random triangles and prisms can be refused as near-degenerate,
        // rarely; everything else is valid by construction.
        assert!(
            checked >= 950,
            "kind {kind}: {checked} of 1000 reached the full checks"
        );
    }
}

/// A cuboid whose behaviour can be broken in one way, to see the checks
/// notice.
#[derive(Clone, Copy, Debug)]
struct Broken {
    inner: Cuboid<f64>,
    flaw: Flaw,
}

/// The ways [`Broken`] can be broken.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Flaw {
    /// None: must pass.
    Sound,
    /// The support point is 1% outside the box.
    Outside,
    /// The support point is the opposite corner (on the box, not extreme).
    NotExtreme,
    /// The world AABB is 1% too small.
    SmallAabb,
    /// The support set holds only the support point, even for a face.
    ShortSet,
}

impl Support<f64> for Broken {
    type Hint = ();
    fn support(&self, dir: Vec3<f64>, h: &mut ()) -> Vec3<f64> {
        match self.flaw {
            Flaw::Outside => self.inner.support(dir, h) * 1.01,
            Flaw::NotExtreme => self.inner.support(-dir, h),
            _ => self.inner.support(dir, h),
        }
    }
    fn world_aabb(&self, pose: &Iso3<f64>) -> Aabb<f64> {
        let a = self.inner.world_aabb(pose);
        if self.flaw == Flaw::SmallAabb {
            Aabb::from_center_half_extents(a.center(), a.half_extents() * 0.99)
        } else {
            a
        }
    }
    fn support_set(
        &self,
        dir: Vec3<f64>,
        tol: f64,
        out: &mut SupportSet<f64>,
    ) -> Result<(), CapacityError> {
        if self.flaw == Flaw::ShortSet {
            out.clear();
            out.push(self.support(dir, &mut ()))
        } else {
            self.inner.support_set(dir, tol, out)
        }
    }
}

impl Oracle<f64> for Broken {
    fn core_contains(&self, p: Vec3<f64>, tol: f64) -> bool {
        self.inner.core_contains(p, tol)
    }
    fn extent(&self) -> f64 {
        Oracle::<f64>::extent(&self.inner)
    }
    fn core_samples(&self, out: &mut Vec<Vec3<f64>>) -> Samples {
        self.inner.core_samples(out)
    }
}

#[test]
fn the_checks_catch_broken_shapes() {
    let inner = Cuboid::new(Vec3::new(1.0, 0.5, 0.25)).unwrap();
    let pose = Iso3::from_quat(
        Vec3::new(1.0, 2.0, 3.0),
        mink_support::Quat::from_wxyz(0.9, 0.1, -0.3, 0.2)
            .normalize()
            .unwrap(),
    )
    .unwrap();
    // Along the box's local +z: the top face is the support set.
    let dir = pose.transform_vector(Vec3::Z);
    for flaw in [
        Flaw::Sound,
        Flaw::Outside,
        Flaw::NotExtreme,
        Flaw::SmallAabb,
        Flaw::ShortSet,
    ] {
        let shape = Broken { inner, flaw };
        let caught = catch_unwind(AssertUnwindSafe(|| {
            check_shape(&shape, &pose, dir, 1e-9, Range::All);
        }))
        .is_err();
        assert_eq!(caught, flaw != Flaw::Sound, "{flaw:?}");
    }
}

/// Hostile scalars through the encoder: the harness refuses or checks, and
/// never panics for a sound shape.
#[test]
fn hostile_scalars_are_survived() {
    let specials = [
        Special::Zero,
        Special::NegZero,
        Special::Epsilon,
        Special::MinPositive,
        Special::Subnormal,
        Special::Max,
        Special::Min,
        Special::Infinity,
        Special::NegInfinity,
        Special::NaN,
        Special::Huge,
        Special::Tiny,
    ];
    let mut rng = Rng::new(7);
    for _ in 0..5_000 {
        let mut w = ByteWriter::new();
        w.u8(rng.below(2) as u8).u8(rng.next_u64() as u8);
        for _ in 0..rng.below(24) {
            if rng.chance(0.3) {
                w.special(specials[rng.below(specials.len())]);
            } else {
                w.real(rng.range_f64(-4.0, 4.0));
            }
        }
        w.u8(rng.next_u64() as u8);
        support_points_outcome(&w.into_bytes());
    }
    // A sphere survives every special as a direction.
    let sphere = Sphere::new(0.5_f64).unwrap();
    for s in [f64::NAN, f64::INFINITY, f64::MAX, 0.0] {
        check_shape(
            &sphere,
            &Iso3::IDENTITY,
            Vec3::splat(s),
            0.0,
            Range::ShapeOnly,
        );
    }
}

/// The GJK harness on random inputs long enough to decode two shapes and
/// two poses: both regimes are reached often, and no check fails.
#[test]
fn gjk_harness_reaches_both_regimes() {
    use mink_tests::fuzz::gjk_distance::{check_bytes, GjkOutcome};
    let mut rng = Rng::new(0x6a6b);
    let mut counts = [0usize; 3];
    for _ in 0..3_000 {
        let bytes: Vec<u8> = (0..120).map(|_| rng.next_u64() as u8).collect();
        for outcome in [check_bytes::<f32>(&bytes), check_bytes::<f64>(&bytes)] {
            match outcome {
                Ok(GjkOutcome::Refused) => counts[0] += 1,
                Ok(GjkOutcome::Separated) => counts[1] += 1,
                Ok(GjkOutcome::Overlapping) => counts[2] += 1,
                Err(e) => panic!("{e}: {bytes:?}"),
            }
        }
    }
    assert!(counts[1] > 1_000 && counts[2] > 1_000, "{counts:?}");
}
