//! mink's (the umbrella crate's) core API, called without std or alloc, in
//! `f32`: `mink::Shape` values (a box, a sphere, a capsule, a ground
//! half-space) and their per-shape methods; `mink::Body` with a margin;
//! the pair table through `mink::dispatch_pair` with a `PairVisitor` of the
//! probe's own (a gap along one axis, run on every pair's concrete types);
//! and the allocation-free `mink::scene::Scene` over caller-provided
//! `SceneBuffers` (fixed arrays on the stack), described (`SceneDesc`),
//! built (`Scene::new`) and read back. (`SceneBuf` and `SceneBatch`, the
//! owning scenes, need `alloc`.)
//!
//! Not called, for size, not for std or alloc: `mink::distance`,
//! `mink::intersect`, `mink::penetration`, `mink::contact_manifold` and
//! `Scene::step`. None of them allocates, but each resolves its pair of
//! shapes at run time through the pair table, whose dispatch is too large
//! to be inlined into its callers: one call links the routine of every
//! pair of the 13 shape variants (169: GJK, EPA, MPR and the manifold,
//! each monomorphized per pair), whichever shapes it is called with.
//! Measured, the probe with the four queries (every method, on box,
//! sphere, capsule and ground bodies) and `Scene::step` called: 9.1 MB of
//! code for the Cortex-M4F, 9.3 MB for the M0 (3 MB of it EPA), against
//! 0.63 MB without them; over four times the 2 MB of flash in `link.x`,
//! and five to seven minutes to build and link per target. Linking them
//! takes a larger `FLASH` in `link.x` (16M).

use core::hint::black_box;
use mink::broadphase::{Buffers, CandidatePair, Entry, FilterKey, Geom, Slot, ENTRIES_PER_GEOM};
use mink::islands::Link;
use mink::scene::{Contact, GeomDesc, Scene, SceneBuffers, SceneCapacity, SceneConfig, SceneDesc};
use mink::support::{
    Aabb, Capsule, Cuboid, HalfSpace, Iso3, Pair, Quat, Real, Sphere, Support, Vec3,
};
use mink::{dispatch_pair, Body, ContactParams, PairVisitor, Shape};

/// The sizes of the scene's buffers.
const CAP: SceneCapacity = SceneCapacity {
    geoms: 4,
    links: 4,
    constraints: 0,
    pairs: 8,
    contacts: 16,
};

/// Geometries of the scene.
const GEOMS: usize = CAP.geoms;

/// Column entries of the scene's broad phase.
const ENTRIES: usize = ENTRIES_PER_GEOM * GEOMS;

/// Column offsets of the scene's broad phase.
const STARTS: usize = GEOMS + 2;

/// Words of the scene's islands state (0 on an overflow, which
/// `Scene::new` then refuses).
const ISLAND_WORDS: usize = match CAP.islands_words() {
    Some(w) => w,
    None => 0,
};

/// Calls the umbrella crate's core API.
pub fn exercise() {
    let cube = Cuboid::new(black_box(Vec3::new(0.5f32, 0.5, 0.25)));
    let ball = Sphere::new(black_box(0.25f32));
    let rod = Capsule::new(black_box(0.1f32), black_box(0.4));
    let ground = HalfSpace::new(Vec3::Z, black_box(0.0f32));
    let (Ok(cube), Ok(ball), Ok(rod), Ok(ground)) = (cube, ball, rod, ground) else {
        return;
    };
    let shapes: [Shape<'static, f32>; GEOMS] = black_box([
        Shape::from(ground),
        Shape::from(cube),
        Shape::from(ball),
        Shape::from(rod),
    ]);
    pairs(&shapes);
    scene(&shapes);
}

/// The shapes' own methods, bodies, and the probe's query on every pair.
fn pairs(shapes: &[Shape<'_, f32>; GEOMS]) {
    let q = Quat::from_axis_angle(Vec3::X, black_box(0.7f32));
    let t = black_box(Vec3::new(0.3, 0.0, 0.6));
    let pose = Iso3::from_quat(t, q).unwrap_or(Iso3::IDENTITY);
    for s in shapes {
        black_box((s.name(), s.inflation(), s.world_aabb(&pose)));
    }
    let other = Iso3::from_translation(black_box(Vec3::new(0.6f32, 0.1, 0.2)));
    for a in shapes {
        for b in shapes {
            let body_a = Body::new(a, pose).with_margin(black_box(0.01));
            let body_b = Body::new(b, other);
            let gap = GapAlong {
                pose_a: body_a.pose,
                pose_b: body_b.pose,
                margin: body_a.margin + body_b.margin,
                dir: black_box(Vec3::X),
            };
            black_box(dispatch_pair(body_a.shape, body_b.shape, gap));
        }
    }
    black_box(ContactParams::<f32>::new().with_margin(black_box(0.005)));
}

/// The probe's own pair query: the gap between A and B along a fixed
/// direction, from one support point of their Minkowski difference (for a
/// half-space, the other shape's signed distance from it).
struct GapAlong<R: Real> {
    /// A's pose (shape frame to world).
    pose_a: Iso3<R>,
    /// B's pose (shape frame to world).
    pose_b: Iso3<R>,
    /// The bodies' margins together, meters.
    margin: R,
    /// The world direction from A to B to measure along.
    dir: Vec3<R>,
}

impl<R: Real> PairVisitor<R> for GapAlong<R> {
    type Output = R;

    fn convex<A: Support<R>, B: Support<R>>(self, a: &A, b: &B) -> R {
        let mut pair = Pair::new(a, &self.pose_a, b, &self.pose_b);
        let local = self.pose_a.inverse_transform_vector(self.dir);
        let s = pair.support(local);
        -s.w.dot(local) - pair.inflation() - self.margin
    }

    fn half_space<S: Support<R>>(self, plane: &HalfSpace<R>, other: &S, plane_is_a: bool) -> R {
        let (pose_plane, pose_other) = if plane_is_a {
            (self.pose_a, self.pose_b)
        } else {
            (self.pose_b, self.pose_a)
        };
        plane
            .deepest_point(other, &pose_plane.inv_mul(&pose_other))
            .map_or(R::INFINITY, |c| c.distance - self.margin)
    }

    fn half_spaces(self, _: &HalfSpace<R>, _: &HalfSpace<R>) -> R {
        -R::INFINITY
    }
}

/// A scene of `shapes` (the ground first, then one body each) over stack
/// storage: described, built and read back (not stepped: see the module
/// docs).
fn scene(shapes: &[Shape<'_, f32>; GEOMS]) {
    // Link 0: the ground (fixed). Links 1, 2, 3: free bodies, 6 dofs each.
    let links = [
        Link::world(),
        Link::free(0, 6),
        Link::free(6, 6),
        Link::free(12, 6),
    ];
    let (t, r) = (1.0f32, 0.5f32);
    let dof_length = [t, t, t, r, r, r, t, t, t, r, r, r, t, t, t, r, r, r];
    let geoms = [
        GeomDesc::new(shapes[0], 0),
        GeomDesc::new(shapes[1], 1).with_margin(black_box(0.01)),
        GeomDesc::new(shapes[2], 2).with_masks(1, 3),
        GeomDesc::new(shapes[3], 3).with_pose(Iso3::from_translation(Vec3::new(0.0, 0.0, 0.1))),
    ];
    let Ok(desc) = SceneDesc::new(&geoms, &links, &dof_length, &[]) else {
        return;
    };
    black_box((desc.link_count(), desc.dof_count(), desc.root_of(3)));

    let empty = Geom::new(Aabb::EMPTY, 0);
    let no_contact = Contact {
        geom_a: 0,
        geom_b: 0,
        link_a: 0,
        link_b: 0,
        position: Vec3::ZERO,
        normal: Vec3::Z,
        depth: 0.0,
    };
    let mut order = [Slot::<f32>::default(); GEOMS];
    let mut ranks = [0u32; GEOMS];
    let mut roles = [0u8; GEOMS];
    let mut snapshot = [empty; GEOMS];
    let mut keys = [FilterKey::default(); GEOMS];
    let mut entries = [Entry::<f32>::default(); ENTRIES];
    let mut starts = [0u32; STARTS];
    let mut large = [Entry::<f32>::default(); GEOMS];
    let mut sleep_entries = [Entry::<f32>::default(); ENTRIES];
    let mut sleep_starts = [0u32; STARTS];
    let mut sleep_large = [Entry::<f32>::default(); GEOMS];
    let mut dirty = [0u32; GEOMS];
    let mut dirty_entries = [Entry::<f32>::default(); ENTRIES];
    let mut dirty_starts = [0u32; STARTS];
    let mut dirty_large = [Entry::<f32>::default(); GEOMS];
    let mut base_pairs = [CandidatePair::default(); CAP.pairs];
    let mut pairs = [CandidatePair::default(); CAP.pairs];
    let mut geom_records = [empty; GEOMS];
    let mut poses = [Iso3::IDENTITY; GEOMS];
    let mut flags = [0u8; GEOMS];
    let mut contacts = [no_contact; CAP.contacts];
    let mut contact_links = [[0u32; 2]; CAP.contacts];
    let mut islands = [0u32; ISLAND_WORDS];
    let buffers = SceneBuffers {
        broadphase: Buffers {
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
        },
        pairs: &mut pairs,
        geoms: &mut geom_records,
        poses: &mut poses,
        flags: &mut flags,
        contacts: &mut contacts,
        contact_links: &mut contact_links,
        islands: &mut islands,
    };
    let Ok(scene) = Scene::new(desc, buffers, SceneConfig::new()) else {
        return;
    };
    black_box((scene.contact_capacity(), scene.pair_budget()));
    black_box((scene.report(), scene.contacts(), scene.pairs()));
    black_box((scene.geom_poses(), scene.broadphase_geoms()));
    black_box(scene.contacts_of(1).count());
    black_box(scene.islands().awake_links());
    black_box(scene.config());
}
