//! The fuzz harness: decodes arbitrary bytes into a scene and a sequence of
//! frames (small moves, teleports, sleep changes, filter changes, geometries
//! added and removed) and checks every path of the broad phase against
//! brute force. cargo-fuzz calls [`fuzz_broadphase`] with its input; the
//! seeded property test in `tests/` calls it with thousands of random byte
//! strings.

use crate::sap::ENTRIES_PER_GEOM;
use crate::{
    brute_force_pairs, BroadPhase, BroadPhaseError, Buffers, CandidatePair, Filters, Geom,
    SweepAndPrune, NO_LINK,
};
use crate::{FilterKey, Slot};
use alloc::vec;
use alloc::vec::Vec;
use mink_support::{Aabb, Real, Vec3};

/// At most this many geometries per fuzz scene (brute force is quadratic).
pub const FUZZ_MAX_GEOMS: usize = 256;

/// At most this many frames per fuzz input.
pub const FUZZ_MAX_FRAMES: usize = 12;

/// Coordinates lie on a lattice of this step (meters, exact in binary) so
/// that touching boxes, equal bounds and ties are common.
pub const FUZZ_LATTICE_STEP: f64 = 0.25;

/// Lattice cells per axis for box corners.
const LATTICE_CELLS: u8 = 40;

/// What one fuzz input exercised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FuzzSummary {
    /// Frames run.
    pub frames: usize,
    /// Pairs checked, over all frames.
    pub pairs: usize,
    /// Frames whose sweep order was fully sorted.
    pub full_sorts: usize,
    /// Frames with at least one sleeping geometry kept out of the sweep.
    pub sleeping_frames: usize,
    /// Frames that exceeded the pair budget (and were checked for it).
    pub budget_errors: usize,
    /// Frames refused for a non-finite bound (then rerun without it).
    pub invalid_frames: usize,
    /// Frames that reused the last full frame's pairs.
    pub incremental_frames: usize,
}

/// The first disagreement found: the frame, what disagreed, and the sizes of
/// the expected and the obtained pair lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FuzzMismatch {
    /// The frame (from 0).
    pub frame: usize,
    /// Which path disagreed with which reference.
    pub what: &'static str,
    /// Pairs expected.
    pub expected: usize,
    /// Pairs obtained.
    pub got: usize,
}

struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bytes<'_> {
    /// The next byte, 0 past the end (so every input decodes).
    fn next(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
}

/// How the scene's boxes are laid out.
#[derive(Clone, Copy)]
enum Style {
    Spread,
    Cluster,
    Line(usize),
    Identical,
    HugeAndTiny,
}

fn decode_box<R: Real>(bytes: &mut Bytes<'_>, style: Style, huge: bool) -> Aabb<R> {
    let step = R::lit(FUZZ_LATTICE_STEP);
    let coord = |b: u8, cells: u8| R::lit(f64::from(b % cells)) * step;
    let mut lo = [R::ZERO; 3];
    let mut size = [R::ZERO; 3];
    for k in 0..3 {
        let (c, s) = (bytes.next(), bytes.next());
        lo[k] = match style {
            Style::Cluster => coord(c, 6),
            Style::Line(axis) if axis != k => R::ZERO,
            Style::Identical => R::ZERO,
            _ => coord(c, LATTICE_CELLS),
        };
        size[k] = match style {
            Style::Identical => step,
            _ => coord(s, 6),
        };
        if huge {
            size[k] *= R::lit(f64::from(LATTICE_CELLS));
        }
    }
    let lo = Vec3::from_array(lo);
    Aabb::new(lo, lo + Vec3::from_array(size))
}

fn decode_geom<R: Real>(bytes: &mut Bytes<'_>, style: Style) -> Geom<R> {
    let flags = bytes.next();
    let huge = matches!(style, Style::HugeAndTiny) && flags & 0x80 != 0;
    let aabb = decode_box(bytes, style, huge);
    let parent = bytes.next() % 17;
    Geom {
        aabb,
        link: u32::from(bytes.next() % 16),
        parent_link: if parent == 16 {
            NO_LINK
        } else {
            u32::from(parent)
        },
        contype: u32::from(flags & 3),
        conaffinity: u32::from((flags >> 2) & 3),
        fixed: flags & 0x10 != 0,
        asleep: flags & 0x20 != 0,
    }
}

fn decode_filters(b: u8) -> Filters {
    // Mostly all on (the usual case), otherwise any combination.
    if b & 0x80 == 0 {
        return Filters::ALL;
    }
    Filters {
        same_link: b & 1 != 0,
        parent_child: b & 2 != 0,
        masks: b & 4 != 0,
        both_fixed: b & 8 != 0,
        both_asleep: b & 16 != 0,
    }
}

fn sorted(pairs: &[CandidatePair]) -> Vec<CandidatePair> {
    let mut v = pairs.to_vec();
    v.sort_unstable();
    v
}

/// Decodes `data` into a scene and frames, runs them through every broad
/// phase path and checks, each frame: the owned [`BroadPhase`] gives exactly
/// the brute-force pair set (no pair missing, none extra, none twice); the
/// allocation-free [`SweepAndPrune`] (whose base-pair store is sometimes
/// too short) gives the same set; with `rayon`, the parallel path gives the
/// very same list; a fresh broad phase (full sort) gives the same
/// set; a budgeted broad phase returns the budget error with the true count
/// and keeps exactly the first pairs of the unbudgeted list. Returns what was
/// exercised, or the first disagreement.
pub fn fuzz_broadphase<R: Real>(data: &[u8]) -> Result<FuzzSummary, FuzzMismatch> {
    let mut bytes = Bytes { data, pos: 0 };
    let n = 1 + (usize::from(bytes.next()) | usize::from(bytes.next()) << 8) % FUZZ_MAX_GEOMS;
    let style = match bytes.next() % 8 {
        0 => Style::Cluster,
        1 => Style::Line(usize::from(bytes.next() % 3)),
        2 => Style::Identical,
        3 => Style::HugeAndTiny,
        _ => Style::Spread,
    };
    let mut filters = decode_filters(bytes.next());
    let budget_byte = bytes.next();
    let budget = (budget_byte < 64).then_some(usize::from(budget_byte) * 2);
    let frames = 1 + usize::from(bytes.next()) % FUZZ_MAX_FRAMES;
    let mut geoms: Vec<Geom<R>> = (0..n).map(|_| decode_geom(&mut bytes, style)).collect();
    let mut active = n;

    let mut owned = BroadPhase::new();
    let mut budgeted = BroadPhase::with_pair_budget(budget.unwrap_or(0));
    #[cfg(feature = "rayon")]
    let mut parallel = BroadPhase::new();
    let (mut order, mut ranks, mut roles) = (vec![Slot::default(); n], vec![0u32; n], vec![0u8; n]);
    let mut snapshot = vec![Slot::<R>::default().geom; n];
    let mut keys = vec![FilterKey::default(); n];
    let (mut entries, mut starts, mut large) = (
        vec![Default::default(); n * ENTRIES_PER_GEOM],
        vec![0u32; n + 2],
        vec![Default::default(); n],
    );
    let (mut sleep_entries, mut sleep_starts, mut sleep_large) = (
        vec![Default::default(); n * ENTRIES_PER_GEOM],
        vec![0u32; n + 2],
        vec![Default::default(); n],
    );
    let (mut dirty, mut dirty_entries, mut dirty_starts, mut dirty_large) = (
        vec![0u32; n],
        vec![Default::default(); n * ENTRIES_PER_GEOM],
        vec![0u32; n + 2],
        vec![Default::default(); n],
    );
    // A base-pair store that is sometimes too short (full frames only).
    let mut base_pairs = vec![CandidatePair::default(); usize::from(bytes.next()) * 4];
    let mut borrowed = SweepAndPrune::new(Buffers {
        dirty: &mut dirty,
        dirty_entries: &mut dirty_entries,
        dirty_starts: &mut dirty_starts,
        dirty_large: &mut dirty_large,
        base_pairs: &mut base_pairs,
        keys: &mut keys,
        order: &mut order,
        ranks: &mut ranks,
        roles: &mut roles,
        snapshot: &mut snapshot,
        entries: &mut entries,
        starts: &mut starts,
        large: &mut large,
        sleep_entries: &mut sleep_entries,
        sleep_starts: &mut sleep_starts,
        sleep_large: &mut sleep_large,
    });
    let mut slice_out = vec![CandidatePair::default(); n * n / 2 + 1];
    let mut summary = FuzzSummary::default();
    let mut pairs = Vec::new();
    let mut other = Vec::new();

    for frame in 0..frames {
        if frame > 0 {
            mutate(&mut bytes, &mut geoms, &mut active, &mut filters, style);
        }
        let mismatch = |what, expected: usize, got: usize| FuzzMismatch {
            frame,
            what,
            expected,
            got,
        };
        // Now and then a non-finite bound: every path must refuse the frame
        // (naming the geometry) and then carry on as if it never happened.
        if bytes.next().is_multiple_of(16) {
            let i = usize::from(bytes.next()) % active;
            let kept = geoms[i];
            geoms[i].aabb.max.y = R::nan();
            let bad = &geoms[..active];
            let want = Err(BroadPhaseError::InvalidAabb { geom: i as u32 });
            if owned.update(bad, &filters, &mut other).map(|_| ()) != want
                || borrowed.update(bad, &filters, &mut slice_out).map(|_| ()) != want
            {
                return Err(mismatch("invalid AABB accepted", 0, other.len()));
            }
            #[cfg(feature = "rayon")]
            if parallel.par_update(bad, &filters, &mut other).map(|_| ()) != want {
                return Err(mismatch("invalid AABB accepted (parallel)", 0, other.len()));
            }
            geoms[i] = kept;
            summary.invalid_frames += 1;
        }
        let scene = &geoms[..active];
        let expected = brute_force_pairs(scene, &filters);
        let report = owned
            .update(scene, &filters, &mut pairs)
            .map_err(|_| mismatch("owned update failed", expected.len(), 0))?;
        if sorted(&pairs) != expected || report.pairs != pairs.len() {
            return Err(mismatch(
                "owned vs brute force",
                expected.len(),
                pairs.len(),
            ));
        }
        summary.frames += 1;
        summary.pairs += pairs.len();
        summary.full_sorts += usize::from(report.full_sort);
        summary.sleeping_frames += usize::from(report.asleep > 0 && filters.both_asleep);

        let got = borrowed
            .update(scene, &filters, &mut slice_out)
            .map_err(|_| mismatch("borrowed update failed", pairs.len(), 0))?;
        // The borrowed base store has another size than the owned one, so
        // their histories (and orders) differ: the sets must agree.
        let got_pairs = &slice_out[..got.pairs.min(slice_out.len())];
        if sorted(got_pairs) != expected {
            return Err(mismatch(
                "borrowed vs brute force",
                expected.len(),
                got.pairs,
            ));
        }
        summary.incremental_frames += usize::from(report.incremental);

        #[cfg(feature = "rayon")]
        {
            parallel
                .par_update(scene, &filters, &mut other)
                .map_err(|_| mismatch("parallel update failed", pairs.len(), 0))?;
            if other != pairs {
                return Err(mismatch("parallel vs serial", pairs.len(), other.len()));
            }
        }

        BroadPhase::new()
            .update(scene, &filters, &mut other)
            .map_err(|_| mismatch("fresh update failed", pairs.len(), 0))?;
        if sorted(&other) != expected {
            return Err(mismatch(
                "fresh vs brute force",
                expected.len(),
                other.len(),
            ));
        }

        if let Some(cap) = budget {
            match budgeted.update(scene, &filters, &mut other) {
                Err(BroadPhaseError::PairBudget { found, kept }) => {
                    if found != pairs.len()
                        || kept != cap
                        || other[..] != pairs[..cap.min(pairs.len())]
                    {
                        return Err(mismatch("budget error", pairs.len(), found));
                    }
                    summary.budget_errors += 1;
                }
                Ok(r) => {
                    if pairs.len() > cap || other != pairs || r.pairs != pairs.len() {
                        return Err(mismatch("budget kept", pairs.len(), other.len()));
                    }
                }
                Err(_) => return Err(mismatch("budgeted update failed", pairs.len(), 0)),
            }
        }
    }
    Ok(summary)
}

/// One frame's changes, decoded from the bytes.
fn mutate<R: Real>(
    bytes: &mut Bytes<'_>,
    geoms: &mut [Geom<R>],
    active: &mut usize,
    filters: &mut Filters,
    style: Style,
) {
    let n = geoms.len();
    let step = R::lit(FUZZ_LATTICE_STEP);
    let moves = usize::from(bytes.next()) % (n + 1);
    match bytes.next() % 8 {
        // Teleports: new boxes anywhere.
        0 => {
            for _ in 0..moves {
                let i = usize::from(bytes.next()) % n;
                let flags_kept = geoms[i];
                geoms[i].aabb = decode_box(bytes, style, false);
                geoms[i].asleep = flags_kept.asleep;
            }
        }
        // Sleep changes.
        1 => {
            for _ in 0..moves {
                let i = usize::from(bytes.next()) % n;
                geoms[i].asleep = !geoms[i].asleep;
            }
        }
        // Another filter set.
        2 => *filters = decode_filters(bytes.next() | 0x80),
        // Geometries removed or added (the count changes).
        3 => *active = 1 + usize::from(bytes.next()) % n,
        // Filter fields change (of awake and sleeping geometries alike).
        4 => {
            for _ in 0..moves {
                let i = usize::from(bytes.next()) % n;
                let b = bytes.next();
                geoms[i].contype = u32::from(b & 3);
                geoms[i].conaffinity = u32::from((b >> 2) & 3);
                geoms[i].link = u32::from((b >> 4) % 16);
                geoms[i].fixed = !geoms[i].fixed;
            }
        }
        // Small moves (of awake and, rarely, sleeping geometries).
        _ => {
            for _ in 0..moves {
                let i = usize::from(bytes.next()) % n;
                let d = bytes.next();
                let k = usize::from(d % 3);
                let mut delta = [R::ZERO; 3];
                delta[k] = if d & 4 != 0 { step } else { -step };
                let dv = Vec3::from_array(delta);
                geoms[i].aabb = Aabb::new(geoms[i].aabb.min + dv, geoms[i].aabb.max + dv);
            }
        }
    }
}
