//! Shared helpers of the scene tests: random scenes of mixed shapes,
//! caller-owned storage for the allocation-free scene, and an independent
//! brute-force reference of the whole detection.

#![allow(dead_code)]

use mink::broadphase::{Buffers, CandidatePair, Geom, ENTRIES_PER_GEOM};
use mink::islands::{Link, NO_PARENT};
use mink::scene::{Contact, GeomDesc, SceneBuffers, SceneCapacity, SceneDesc};
use mink::support::{Aabb, Capsule, ConvexHull, Cuboid, HalfSpace, Iso3, Real, Sphere, Vec3};
use mink::{collide, ContactParams, Shape};
use mink_testkit::Rng;

/// A random scene's parts: geometries, links, dof lengths, link poses.
pub struct RandomScene<'h, R: Real> {
    pub geoms: Vec<GeomDesc<'h, R>>,
    pub links: Vec<Link>,
    pub dof_length: Vec<R>,
    pub poses: Vec<Iso3<R>>,
}

/// Random hulls (points in a ball), to be borrowed by scenes.
pub fn random_hulls<R: Real>(rng: &mut Rng, n: usize) -> Vec<ConvexHull<R>> {
    (0..n)
        .map(|_| {
            let r = rng.range_f64(0.15, 0.4);
            ConvexHull::from_points(&rng.points_in_ball::<R>(12, r)).unwrap()
        })
        .collect()
}

/// A random shape: sphere, box, capsule or hull.
pub fn random_shape<'h, R: Real>(rng: &mut Rng, hulls: &'h [ConvexHull<R>]) -> Shape<'h, R> {
    match rng.below(4) {
        0 => Sphere::new(rng.range(0.1, 0.35)).unwrap().into(),
        1 => Cuboid::new(Vec3::new(
            rng.range(0.1, 0.35),
            rng.range(0.1, 0.35),
            rng.range(0.1, 0.35),
        ))
        .unwrap()
        .into(),
        2 => Capsule::new(rng.range(0.08, 0.25), rng.range(0.1, 0.3))
            .unwrap()
            .into(),
        _ => hulls[rng.below(hulls.len())].view().into(),
    }
}

/// A random small scene: link 0 is the fixed ground (a half-space at
/// `z = -0.6`), then free bodies and short chains (a child of the previous
/// link), one or two geometries per moving link, random masks and margins,
/// link poses in a cube of half-width 0.9.
pub fn random_scene<'h, R: Real>(rng: &mut Rng, hulls: &'h [ConvexHull<R>]) -> RandomScene<'h, R> {
    let mut links = vec![Link::world()];
    let mut dof_length = Vec::new();
    let mut geoms = vec![GeomDesc::new(
        Shape::from(HalfSpace::new(Vec3::Z, R::lit(-0.6)).unwrap()),
        0,
    )];
    let n_links = 3 + rng.below(6);
    for l in 1..n_links as u32 {
        let dof_start = dof_length.len() as u32;
        let link = if l > 1 && rng.chance(0.3) {
            Link::child(l - 1, dof_start, 1)
        } else {
            Link::free(dof_start, 6)
        };
        for _ in 0..link.dof_count {
            dof_length.push(R::ONE);
        }
        links.push(link);
        for _ in 0..1 + rng.below(2) {
            let masks = if rng.chance(0.2) {
                (2, 2)
            } else if rng.chance(0.1) {
                (1, 2)
            } else {
                (1, 1)
            };
            let margin = if rng.chance(0.5) {
                R::ZERO
            } else {
                rng.range(0.0, 0.05)
            };
            geoms.push(
                GeomDesc::new(random_shape(rng, hulls), l)
                    .with_pose(rng.pose(0.2))
                    .with_masks(masks.0, masks.1)
                    .with_margin(margin),
            );
        }
    }
    let poses = (0..links.len())
        .map(|l| {
            if l == 0 {
                Iso3::IDENTITY
            } else {
                rng.pose(0.9)
            }
        })
        .collect();
    RandomScene {
        geoms,
        links,
        dof_length,
        poses,
    }
}

/// The filter rule, written out independently of the broad phase: `true`
/// when the pair may collide (different, non-adjacent links, masks
/// matching, not both fixed).
pub fn may_collide<R: Real>(desc: &SceneDesc<'_, R>, i: usize, j: usize) -> bool {
    let (a, b) = (&desc.geoms()[i], &desc.geoms()[j]);
    let links = desc.links();
    let (la, lb) = (&links[a.link as usize], &links[b.link as usize]);
    if a.link == b.link {
        return false;
    }
    if (la.parent != NO_PARENT && la.parent == b.link)
        || (lb.parent != NO_PARENT && lb.parent == a.link)
    {
        return false;
    }
    if a.contype & b.conaffinity == 0 && b.contype & a.conaffinity == 0 {
        return false;
    }
    !(la.fixed && lb.fixed)
}

/// Brute force over all pairs `i < j` that [`may_collide`], each through a
/// direct [`collide`] call: the contacts every awake scene must report.
pub fn brute_force_contacts<R: Real>(
    desc: &SceneDesc<'_, R>,
    link_poses: &[Iso3<R>],
    max_points: usize,
) -> Vec<Contact<R>> {
    let geoms = desc.geoms();
    let pose = |g: usize| link_poses[geoms[g].link as usize].mul(&geoms[g].local_pose);
    let mut out = Vec::new();
    for i in 0..geoms.len() {
        for j in i + 1..geoms.len() {
            if !may_collide(desc, i, j) {
                continue;
            }
            let params = ContactParams::new().with_margin(geoms[i].margin + geoms[j].margin);
            collide(
                &geoms[i].collider,
                &pose(i),
                &geoms[j].collider,
                &pose(j),
                &params,
                max_points,
                |p| {
                    out.push(Contact {
                        geom_a: i as u32,
                        geom_b: j as u32,
                        link_a: geoms[i].link,
                        link_b: geoms[j].link,
                        position: p.position,
                        normal: p.normal,
                        depth: p.depth,
                    })
                },
            );
        }
    }
    out
}

/// `contacts` sorted by geometry pair (stable: each pair's points keep
/// their order).
pub fn by_pair<R: Real>(contacts: &[Contact<R>]) -> Vec<Contact<R>> {
    let mut v = contacts.to_vec();
    v.sort_by_key(|c| (c.geom_a, c.geom_b));
    v
}

/// Asserts that no geometry pair appears in two separate runs of
/// `contacts` (each pair's points are contiguous, so each pair once).
pub fn assert_pairs_contiguous<R: Real>(contacts: &[Contact<R>]) {
    let mut seen = std::collections::HashSet::new();
    let mut last = None;
    for c in contacts {
        let key = (c.geom_a, c.geom_b);
        if last != Some(key) {
            assert!(seen.insert(key), "pair {key:?} appears twice");
            last = Some(key);
        }
    }
}

/// Owned vectors behind a [`SceneBuffers`], sized for `cap`.
pub struct Store<R: Real> {
    order: Vec<mink::broadphase::Slot<R>>,
    ranks: Vec<u32>,
    roles: Vec<u8>,
    snapshot: Vec<Geom<R>>,
    keys: Vec<mink::broadphase::FilterKey>,
    entries: Vec<mink::broadphase::Entry<R>>,
    starts: Vec<u32>,
    large: Vec<mink::broadphase::Entry<R>>,
    sleep_entries: Vec<mink::broadphase::Entry<R>>,
    sleep_starts: Vec<u32>,
    sleep_large: Vec<mink::broadphase::Entry<R>>,
    dirty: Vec<u32>,
    dirty_entries: Vec<mink::broadphase::Entry<R>>,
    dirty_starts: Vec<u32>,
    dirty_large: Vec<mink::broadphase::Entry<R>>,
    base_pairs: Vec<CandidatePair>,
    pairs: Vec<CandidatePair>,
    geoms: Vec<Geom<R>>,
    poses: Vec<Iso3<R>>,
    flags: Vec<u8>,
    contacts: Vec<Contact<R>>,
    contact_links: Vec<[u32; 2]>,
    islands: Vec<u32>,
}

impl<R: Real> Store<R> {
    pub fn new(cap: SceneCapacity) -> Self {
        let n = cap.geoms;
        let m = n * ENTRIES_PER_GEOM;
        let geom = Geom::new(Aabb::EMPTY, 0);
        let contact = Contact {
            geom_a: 0,
            geom_b: 0,
            link_a: 0,
            link_b: 0,
            position: Vec3::ZERO,
            normal: Vec3::ZERO,
            depth: R::ZERO,
        };
        Self {
            order: vec![Default::default(); n],
            ranks: vec![0; n],
            roles: vec![0; n],
            snapshot: vec![geom; n],
            keys: vec![Default::default(); n],
            entries: vec![Default::default(); m],
            starts: vec![0; n + 2],
            large: vec![Default::default(); n],
            sleep_entries: vec![Default::default(); m],
            sleep_starts: vec![0; n + 2],
            sleep_large: vec![Default::default(); n],
            dirty: vec![0; n],
            dirty_entries: vec![Default::default(); m],
            dirty_starts: vec![0; n + 2],
            dirty_large: vec![Default::default(); n],
            base_pairs: vec![CandidatePair::default(); 4 * cap.pairs],
            pairs: vec![CandidatePair::default(); cap.pairs],
            geoms: vec![geom; n],
            poses: vec![Iso3::IDENTITY; n],
            flags: vec![0; n],
            contacts: vec![contact; cap.contacts],
            contact_links: vec![[0, 0]; cap.contacts],
            islands: vec![0; cap.islands_words().unwrap()],
        }
    }

    pub fn buffers(&mut self) -> SceneBuffers<'_, R> {
        SceneBuffers {
            broadphase: Buffers {
                order: &mut self.order,
                ranks: &mut self.ranks,
                roles: &mut self.roles,
                snapshot: &mut self.snapshot,
                keys: &mut self.keys,
                entries: &mut self.entries,
                starts: &mut self.starts,
                large: &mut self.large,
                sleep_entries: &mut self.sleep_entries,
                sleep_starts: &mut self.sleep_starts,
                sleep_large: &mut self.sleep_large,
                dirty: &mut self.dirty,
                dirty_entries: &mut self.dirty_entries,
                dirty_starts: &mut self.dirty_starts,
                dirty_large: &mut self.dirty_large,
                base_pairs: &mut self.base_pairs,
            },
            pairs: &mut self.pairs,
            geoms: &mut self.geoms,
            poses: &mut self.poses,
            flags: &mut self.flags,
            contacts: &mut self.contacts,
            contact_links: &mut self.contact_links,
            islands: &mut self.islands,
        }
    }
}
