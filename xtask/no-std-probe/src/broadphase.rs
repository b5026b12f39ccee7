//! mink-broadphase's core API, called without std or alloc, in `f32` and
//! `f64`: `SweepAndPrune` over caller-provided `Buffers` (fixed arrays on
//! the stack, sized for [`GEOMS`] geometries), the world AABBs refreshed
//! from shapes and poses (`update_world_aabbs`), frames with every
//! `Filters` on (same link, parent–child, masks, both fixed, both asleep),
//! with none, and with a custom set, writing the pairs into a fixed slice
//! (the pair budget, exceeded once on purpose); then coherent frames after
//! small moves (the second one incremental), a frame with two geometries
//! asleep, and `reset`. (The
//! owned `BroadPhase` needs `alloc`; `SweepAndPrune` is its no-alloc
//! equivalent.)

use core::hint::black_box;
use mink_broadphase::{
    update_world_aabbs, Buffers, CandidatePair, Entry, FilterKey, Filters, Geom, Slot,
    SweepAndPrune, ENTRIES_PER_GEOM,
};
use mink_support::{Aabb, Cuboid, Iso3, Real, Vec3};

/// Geometries of the probe's scene.
const GEOMS: usize = 5;

/// Column entries the buffers need for [`GEOMS`] geometries.
const ENTRIES: usize = ENTRIES_PER_GEOM * GEOMS;

/// Column offsets the buffers need for [`GEOMS`] geometries.
const STARTS: usize = GEOMS + 2;

/// The pair budget: the most pairs one frame may report.
const PAIRS: usize = 8;

/// Calls mink-broadphase's core API in both scalars.
pub fn exercise() {
    frames::<f32>();
    frames::<f64>();
}

/// A few frames of a five-box scene over stack storage, for the scalar `R`.
fn frames<R: Real>() {
    let Ok(cube) = Cuboid::new(black_box(Vec3::splat(R::HALF))) else {
        return;
    };
    let shapes = [cube; GEOMS];
    let at = |x: f64| Iso3::from_translation(Vec3::new(R::lit(x), R::ZERO, R::ZERO));
    let mut poses = black_box([at(0.0), at(0.8), at(5.0), at(5.5), at(0.4)]);
    let empty = Geom::new(Aabb::EMPTY, 0);
    // Geometries 0, 1 and 2 on links of their own, 3 on link 2 too, and 4
    // on link 3 (a child of link 1), fixed, colliding with mask 2 alone.
    let mut geoms = [empty; GEOMS];
    for (g, link) in geoms.iter_mut().zip([0, 1, 2, 2, 3]) {
        g.link = link;
    }
    geoms[4].parent_link = 1;
    geoms[4].fixed = true;
    geoms[4].contype = 2;
    geoms[4].conaffinity = 2;
    black_box(update_world_aabbs(&shapes, &poses, &mut geoms));
    black_box(Filters::ALL.keeps(&geoms[0], &geoms[1]));

    let mut order = [Slot::<R>::default(); GEOMS];
    let mut ranks = [0u32; GEOMS];
    let mut roles = [0u8; GEOMS];
    let mut snapshot = [empty; GEOMS];
    let mut keys = [FilterKey::default(); GEOMS];
    let mut entries = [Entry::<R>::default(); ENTRIES];
    let mut starts = [0u32; STARTS];
    let mut large = [Entry::<R>::default(); GEOMS];
    let mut sleep_entries = [Entry::<R>::default(); ENTRIES];
    let mut sleep_starts = [0u32; STARTS];
    let mut sleep_large = [Entry::<R>::default(); GEOMS];
    let mut dirty = [0u32; GEOMS];
    let mut dirty_entries = [Entry::<R>::default(); ENTRIES];
    let mut dirty_starts = [0u32; STARTS];
    let mut dirty_large = [Entry::<R>::default(); GEOMS];
    let mut base_pairs = [CandidatePair::default(); PAIRS];
    let buffers = Buffers {
        order: &mut order,
        ranks: &mut ranks,
        roles: &mut roles,
        snapshot: &mut snapshot,
        keys: &mut keys,
        entries: &mut entries,
        starts: &mut starts,
        large: &mut large,
        sleep_entries: &mut sleep_entries,
        sleep_starts: &mut sleep_starts,
        sleep_large: &mut sleep_large,
        dirty: &mut dirty,
        dirty_entries: &mut dirty_entries,
        dirty_starts: &mut dirty_starts,
        dirty_large: &mut dirty_large,
        base_pairs: &mut base_pairs,
    };
    if buffers.check(GEOMS).is_err() {
        return;
    }
    let mut sap = SweepAndPrune::new(buffers);
    let mut out = [CandidatePair::default(); PAIRS];

    frame(&mut sap, &geoms, &Filters::ALL, &mut out);
    frame(&mut sap, &geoms, &Filters::NONE, &mut out);
    let custom = Filters {
        masks: false,
        both_fixed: false,
        ..Filters::ALL
    };
    frame(&mut sap, &geoms, &custom, &mut out);
    // A budget of one pair: `PairBudget`, with the first pair kept.
    if let Some(one) = out.get_mut(..1) {
        frame(&mut sap, &geoms, &Filters::NONE, one);
    }

    // Geometry 1 moves a little, twice: the sweep order is re-sorted by
    // insertion, then the second frame reuses the first one's pairs
    // (incremental: one geometry of five changed).
    for x in [0.85, 0.9] {
        poses[1] = at(x);
        black_box(update_world_aabbs(&shapes, &poses, &mut geoms));
        frame(&mut sap, &geoms, &Filters::ALL, &mut out);
    }

    // Geometries 0 and 1 fall asleep: they leave the sweep.
    geoms[0].asleep = true;
    geoms[1].asleep = true;
    frame(&mut sap, &geoms, &Filters::ALL, &mut out);
    sap.reset();
    frame(&mut sap, &geoms, &Filters::ALL, &mut out);
}

/// One broad-phase frame, its report and the pairs it wrote.
fn frame<R: Real>(
    sap: &mut SweepAndPrune<'_, R>,
    geoms: &[Geom<R>],
    filters: &Filters,
    out: &mut [CandidatePair],
) {
    match sap.update(black_box(geoms), filters, out) {
        Ok(report) => {
            black_box(out.get(..report.pairs));
            black_box(report);
        }
        Err(e) => {
            black_box(e);
            black_box(&*out);
        }
    }
}
