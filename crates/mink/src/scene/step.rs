//! One collision step: world poses and AABBs, broad phase, narrow phase,
//! wake passes, islands and hibernation. Shared by every storage backing.

use super::contact::{
    contacts_between, contacts_of, contacts_of_entity, Contact, ContactsBetween, ContactsOf,
    EntityContacts, EntityFilter,
};
use super::description::SceneDesc;
use super::memory::{Last, Memory, Warm};
use super::report::{SceneConfig, SceneError, SceneInput, StepReport};
use super::storage::{Broad, PerGeom, Sink};
use crate::collider::{collide, collide_cached};
use crate::contact::ContactParams;
use mink_broadphase::{CandidatePair, Geom};
use mink_gjk::GjkCache;
use mink_islands::{Islands, StepInput, Words};
use mink_support::{Aabb, Iso3, Real, Support, Vec3};

/// The most re-detection passes a step runs for woken links. Each pass
/// wakes at least one more island (a contact from a woken body into
/// another sleeping island); past the cap, the islands still wake in this
/// step, and their own contacts are found in the next one.
pub const MAX_WAKE_PASSES: u32 = 8;

/// Wake-pass flag of a geometry: it was asleep during the previous pass.
pub(crate) const WAS_ASLEEP: u8 = 1;

/// What the narrow phase of one pair needs: the geometries, their world
/// poses, and the contact settings.
pub(crate) struct NarrowJob<'j, 'd, R: Real, U> {
    pub(crate) desc: &'j SceneDesc<'d, R, U>,
    pub(crate) poses: &'j [Iso3<R>],
    pub(crate) method: crate::query::Method,
    pub(crate) max_points: usize,
}

/// Counts of one narrow-phase pass.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NarrowCount {
    /// Pairs tested.
    pub(crate) pairs: usize,
    /// Pairs with at least one contact.
    pub(crate) in_contact: usize,
    /// Contacts produced (written or not).
    pub(crate) found: usize,
}

impl NarrowCount {
    pub(crate) fn add(&mut self, o: NarrowCount) {
        self.pairs += o.pairs;
        self.in_contact += o.in_contact;
        self.found += o.found;
    }
}

impl<R: Real, U: Support<R>> NarrowJob<'_, '_, R, U> {
    /// `true` when pass `select` (previous-pass flags) asks for `pair`: both
    /// geometries were asleep before, so the pair was never tested.
    #[inline]
    pub(crate) fn selected(select: Option<&[u8]>, pair: &CandidatePair) -> bool {
        match select {
            None => true,
            Some(flags) => {
                let f = |g: u32| flags.get(g as usize).copied().unwrap_or(0);
                f(pair.a) & f(pair.b) & WAS_ASLEEP != 0
            }
        }
    }

    /// The contacts of `pair`, passed to `emit`; returns how many. GJK
    /// starts from `cache` and leaves its state there, when there is one.
    #[inline]
    pub(crate) fn pair(
        &self,
        pair: &CandidatePair,
        cache: Option<&mut GjkCache<R>>,
        mut emit: impl FnMut(Contact<R>),
    ) -> usize {
        let geoms = self.desc.geoms();
        let (Some(ga), Some(gb)) = (geoms.get(pair.a as usize), geoms.get(pair.b as usize)) else {
            return 0;
        };
        let (Some(pa), Some(pb)) = (
            self.poses.get(pair.a as usize),
            self.poses.get(pair.b as usize),
        ) else {
            return 0;
        };
        let params = ContactParams {
            margin: ga.margin + gb.margin,
            method: self.method,
        };
        let contact = |p: crate::ContactPoint<R>| Contact {
            geom_a: pair.a,
            geom_b: pair.b,
            link_a: ga.link,
            link_b: gb.link,
            position: p.position,
            normal: p.normal,
            depth: p.depth,
        };
        let (ca, cb, m) = (&ga.collider, &gb.collider, self.max_points);
        match cache {
            Some(cache) => collide_cached(ca, pa, cb, pb, &params, m, cache, |p| emit(contact(p))),
            None => collide(ca, pa, cb, pb, &params, m, |p| emit(contact(p))),
        }
    }

    /// The contacts of pair number `i` of this pass, `pair`, appended to
    /// `out`, its GJK cache taken from `warm`'s last step and written to
    /// its slot there; returns how many.
    #[inline]
    pub(crate) fn pair_warm(
        &self,
        i: usize,
        pair: &CandidatePair,
        last: Option<&Last<R>>,
        slot: Option<&mut GjkCache<R>>,
        emit: impl FnMut(Contact<R>),
    ) -> usize {
        match (last, slot) {
            (Some(last), Some(slot)) => {
                *slot = last.start(i, pair);
                self.pair(pair, Some(slot), emit)
            }
            _ => self.pair(pair, None, emit),
        }
    }

    /// The serial narrow phase over `pairs` (those `select` asks for),
    /// appending to `sink` in pair order.
    pub(crate) fn serial<K: Sink<R>>(
        &self,
        pairs: &[CandidatePair],
        select: Option<&[u8]>,
        sink: &mut K,
        warm: Option<Warm<'_, R>>,
    ) -> NarrowCount {
        let mut count = NarrowCount::default();
        let (last, mut slots) = match warm {
            Some(w) => (Some(w.last), Some(w.next)),
            None => (None, None),
        };
        for (i, pair) in pairs.iter().enumerate() {
            if !Self::selected(select, pair) {
                continue;
            }
            count.pairs += 1;
            let slot = slots.as_deref_mut().and_then(|s| s.get_mut(i));
            let n = self.pair_warm(i, pair, last, slot, |c| {
                count.found += 1;
                sink.push(c);
            });
            if n > 0 {
                count.in_contact += 1;
            }
        }
        count
    }
}

/// How a step runs its narrow phase (serial, or across threads).
pub(crate) trait NarrowPhase<R: Real, U: Support<R>> {
    /// Runs the narrow phase of `job` over `pairs`, appending to `sink` in
    /// pair order.
    fn run<K: Sink<R>>(
        &self,
        job: &NarrowJob<'_, '_, R, U>,
        pairs: &[CandidatePair],
        select: Option<&[u8]>,
        sink: &mut K,
        warm: Option<Warm<'_, R>>,
    ) -> NarrowCount;
}

/// The serial narrow phase.
pub(crate) struct Serial;

impl<R: Real, U: Support<R>> NarrowPhase<R, U> for Serial {
    fn run<K: Sink<R>>(
        &self,
        job: &NarrowJob<'_, '_, R, U>,
        pairs: &[CandidatePair],
        select: Option<&[u8]>,
        sink: &mut K,
        warm: Option<Warm<'_, R>>,
    ) -> NarrowCount {
        job.serial(pairs, select, sink, warm)
    }
}

/// A world AABB, clamped to the finite range (a half-space's box grown by
/// a margin must stay finite; NaN stays NaN and is refused downstream).
fn clamp_aabb<R: Real>(b: Aabb<R>) -> Aabb<R> {
    let lo = |x: R| if x < -R::MAX { -R::MAX } else { x };
    let hi = |x: R| if x > R::MAX { R::MAX } else { x };
    Aabb::new(
        Vec3::new(lo(b.min.x), lo(b.min.y), lo(b.min.z)),
        Vec3::new(hi(b.max.x), hi(b.max.y), hi(b.max.z)),
    )
}

/// The pipeline over one storage backing: `G` the per-geometry arrays, `B`
/// the broad phase, `K` the contact buffer, `W` the islands' words, `M`
/// the pairs' warm-start memory.
#[derive(Debug)]
pub(crate) struct Core<'d, R: Real, U, G, B, K, W, M> {
    pub(crate) desc: SceneDesc<'d, R, U>,
    pub(crate) config: SceneConfig<R>,
    pub(crate) geoms: G,
    pub(crate) broad: B,
    pub(crate) sink: K,
    pub(crate) islands: Islands<W, R>,
    pub(crate) memory: M,
    pub(crate) report: StepReport,
}

impl<'d, R, U, G, B, K, W, M> Core<'d, R, U, G, B, K, W, M>
where
    R: Real,
    U: Support<R>,
    G: PerGeom<R>,
    B: Broad<R>,
    K: Sink<R>,
    W: Words,
    M: Memory<R>,
{
    /// One step (see the scene types' `step`).
    pub(crate) fn step_with<N: NarrowPhase<R, U>>(
        &mut self,
        input: &SceneInput<'_, R>,
        narrow: &N,
    ) -> Result<StepReport, SceneError> {
        let desc = self.desc;
        let topo = *desc.topology();
        let (n_links, n_dofs) = (desc.link_count(), desc.dof_count());
        if input.link_poses.len() < n_links {
            return Err(SceneError::InputTooShort {
                input: "link_poses",
                needed: n_links,
                given: input.link_poses.len(),
            });
        }
        if input.dof_vel.len() < n_dofs {
            return Err(SceneError::InputTooShort {
                input: "dof_vel",
                needed: n_dofs,
                given: input.dof_vel.len(),
            });
        }
        self.sink.clear();
        self.report = StepReport::default();
        let filters = self.config.filters;
        let links = desc.links();

        // External requests wake their islands before detection, so their
        // geometries are swept with the awake ones.
        let mut woken_seen = 0usize;
        if !input.wake.is_empty() {
            self.islands
                .wake(&topo, &[], desc.constraints(), input.wake)?;
            woken_seen = self.islands.woken_links().len();
        }

        // World poses (link pose after local pose) and inflated AABBs.
        let (poses, geoms, flags) = self.geoms.parts();
        for (i, g) in desc.geoms().iter().enumerate() {
            let (Some(pose_slot), Some(geom)) = (poses.get_mut(i), geoms.get_mut(i)) else {
                break;
            };
            let link = links[g.link as usize];
            let pose = input.link_poses[g.link as usize].mul(&g.local_pose);
            *pose_slot = pose;
            *geom = Geom {
                aabb: clamp_aabb(g.collider.world_aabb(&pose).inflated(g.margin)),
                link: g.link,
                parent_link: link.parent,
                contype: g.contype,
                conaffinity: g.conaffinity,
                fixed: link.fixed,
                asleep: self.islands.broadphase_asleep(g.link),
            };
        }

        let frame = self.broad.frame(geoms, &filters)?;
        self.report.awake_geoms = frame.awake;
        self.report.asleep_geoms = frame.asleep;
        let job = NarrowJob {
            desc: &desc,
            poses: &*poses,
            method: self.config.method,
            max_points: self.config.max_points_per_pair,
        };
        let pairs = self.broad.pairs();
        let warm = self.memory.begin(pairs, self.config.warm_start);
        let kept = warm.is_some();
        let mut total = narrow.run(&job, pairs, None, &mut self.sink, warm);
        if kept {
            self.memory.end(pairs);
        }
        let written = |sink: &K| sink.contacts().len();
        if total.found > written(&self.sink) {
            return Err(SceneError::ContactCapacity {
                found: total.found,
                kept: written(&self.sink),
            });
        }

        // Wake passes: contacts from awake bodies wake sleeping islands now,
        // and the woken geometries' pairs (skipped while they slept) are
        // detected and appended. With the sleep filter off, every pair was
        // already tested.
        let mut passes = 0;
        while filters.both_asleep
            && passes < MAX_WAKE_PASSES
            && self.islands.sleeping_island_count() > 0
        {
            self.islands
                .wake(&topo, self.sink.links(), desc.constraints(), &[])?;
            let now = self.islands.woken_links().len();
            if now == woken_seen {
                break;
            }
            woken_seen = now;
            passes += 1;
            for (g, flag) in geoms.iter_mut().zip(flags.iter_mut()) {
                *flag = if g.asleep { WAS_ASLEEP } else { 0 };
                g.asleep = self.islands.broadphase_asleep(g.link);
            }
            self.broad.frame(geoms, &filters)?;
            let count = narrow.run(
                &job,
                self.broad.pairs(),
                Some(&*flags),
                &mut self.sink,
                None,
            );
            total.add(count);
            if total.found > written(&self.sink) {
                return Err(SceneError::ContactCapacity {
                    found: total.found,
                    kept: written(&self.sink),
                });
            }
        }

        let summary = self.islands.step(
            &topo,
            &StepInput {
                contacts: self.sink.links(),
                constraints: desc.constraints(),
                wake: &[],
                dof_vel: input.dof_vel,
            },
        )?;
        self.report = StepReport {
            broadphase_pairs: total.pairs,
            pairs_in_contact: total.in_contact,
            contacts: written(&self.sink),
            awake_geoms: frame.awake,
            asleep_geoms: frame.asleep,
            woken_links: summary.woken_links,
            wake_passes: passes,
            islands: summary.islands,
            awake_links: summary.awake_links,
            sleeping_islands: summary.sleeping_islands,
        };
        Ok(self.report)
    }

    /// The contacts of the last step.
    pub(crate) fn contacts(&self) -> &[Contact<R>] {
        self.sink.contacts()
    }

    pub(crate) fn contacts_of(&self, link: u32) -> ContactsOf<'_, R> {
        contacts_of(self.sink.contacts(), link)
    }

    pub(crate) fn contacts_between(&self, a: u32, b: u32) -> ContactsBetween<'_, R> {
        contacts_between(self.sink.contacts(), a, b)
    }

    pub(crate) fn contacts_of_entity(
        &self,
        entity: u32,
        filter: EntityFilter,
    ) -> EntityContacts<'_, R> {
        contacts_of_entity(self.sink.contacts(), self.desc.links(), entity, filter)
    }
}
