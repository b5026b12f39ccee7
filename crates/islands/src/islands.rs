//! The persistent islands-and-hibernation state, its step, and the queries
//! the rest of the pipeline asks of it.

use mink_support::Real;

use crate::build::build;
use crate::error::{CapacityKind, StepError};
use crate::params::Params;
use crate::sleep::fall_asleep;
use crate::state::{at, Counters, AWAKE, ISLAND, NONE, SLEEPS, STATIC, STATUS};
use crate::storage::{split, view, Capacity, View};
use crate::topology::Topology;
use crate::wake::{wake_pass, Edges};

/// The buffer an [`Islands`] state lives in: a borrowed `&mut [u32]` (no
/// allocation, fixed capacity) or, under `alloc`, a `Vec<u32>` that grows
/// when a step brings more contacts or constraints than it has room for.
pub trait Words: AsRef<[u32]> + AsMut<[u32]> {
    /// Makes the buffer at least `len` words long, keeping its contents;
    /// returns `false` when it cannot grow (a borrowed slice).
    fn grow_to(&mut self, len: usize) -> bool;
}

impl Words for &mut [u32] {
    /// A borrowed slice never grows.
    fn grow_to(&mut self, len: usize) -> bool {
        self.len() >= len
    }
}

#[cfg(feature = "alloc")]
impl Words for alloc::vec::Vec<u32> {
    /// Resizes with zeros.
    fn grow_to(&mut self, len: usize) -> bool {
        if self.len() < len {
            self.resize(len, 0);
        }
        true
    }
}

/// The inputs of one step.
#[derive(Clone, Copy, Debug)]
pub struct StepInput<'a, R> {
    /// The contact pairs the narrow phase produced this step, as
    /// `[link_a, link_b]`. Pairs with a fixed link, or between two sleeping
    /// links, are allowed (and join no awake island).
    pub contacts: &'a [[u32; 2]],
    /// The active equality constraints, as `[link_a, link_b]` pairs.
    pub constraints: &'a [[u32; 2]],
    /// Links that receive an external coupling force this step (from
    /// another solver, a user push): each wakes its island and restarts its
    /// still counter.
    pub wake: &'a [u32],
    /// The dof velocities before this step's solve (rad/s for rotational
    /// dofs, m/s for translational ones), indexed by the topology's dof
    /// ranges; at least [`Topology::dof_count`] long.
    pub dof_vel: &'a [R],
}

/// What a step did, in counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct StepSummary {
    /// Islands built this step (awake ones, including those that fell
    /// asleep at its end).
    pub islands: u32,
    /// Of those, the islands that fell asleep.
    pub slept_islands: u32,
    /// Links woken this step (or by a [`Islands::wake`] call before it).
    pub woken_links: u32,
    /// Links awake after the step.
    pub awake_links: u32,
    /// Islands asleep after the step.
    pub sleeping_islands: u32,
}

/// The state of a link after the last call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LinkState {
    /// Fixed to the world: in no island, never asleep or awake.
    Static,
    /// Awake: simulated, in one of the step's islands.
    Awake,
    /// Asleep: skipped by the solver and the broad phase until woken.
    Asleep,
}

/// One island of the last step: an exactly decoupled block of the
/// constraint solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Island<'a> {
    /// Its links, ascending.
    pub links: &'a [u32],
    /// Indices into the step's contact list, ascending.
    pub contacts: &'a [u32],
    /// Indices into the step's constraint list, ascending.
    pub constraints: &'a [u32],
    /// `true` when the island fell asleep at the end of the step (the solver
    /// skips it and its dof velocities are to be zeroed).
    pub asleep: bool,
}

/// Contact islands and hibernation over a fixed topology, in a buffer of
/// `u32` words (`&mut [u32]` without allocation, `Vec<u32>` under `alloc`:
/// see [`IslandsBuf`](crate::IslandsBuf)).
///
/// Persistent: which links sleep, in which sleeping island, and each link's
/// still counter. Per step ([`Islands::step`]): the islands of the awake
/// links, numbered by their smallest link, with their links, contacts and
/// constraints as contiguous ranges; the islands that fell asleep; the links
/// that woke. The outputs stay readable until the next call.
#[derive(Clone, Debug)]
pub struct Islands<S, R> {
    words: S,
    cap: Capacity,
    params: Params<R>,
    c: Counters,
}

impl<S: Words, R: Real> Islands<S, R> {
    /// A state for `topo` in `words`, every moving link awake with its still
    /// counter at 0, every fixed link static.
    ///
    /// `cap.links` must equal the topology's link count
    /// ([`CapacityKind::Links`] otherwise) and `words` must hold at least
    /// [`Capacity::words`] words ([`CapacityKind::Words`] otherwise; a `Vec`
    /// is grown to fit).
    pub fn new(
        mut words: S,
        topo: &Topology<'_, R>,
        cap: Capacity,
        params: Params<R>,
    ) -> Result<Self, StepError> {
        if cap.links != topo.link_count() {
            return Err(StepError::Capacity(CapacityKind::Links));
        }
        let needed = cap
            .words()
            .ok_or(StepError::Capacity(CapacityKind::Words))?;
        if !words.grow_to(needed) {
            return Err(StepError::Capacity(CapacityKind::Words));
        }
        let mut state = Self {
            words,
            cap,
            params,
            c: Counters {
                slot_free_head: NONE,
                ..Counters::default()
            },
        };
        let p = split(state.words.as_mut(), &state.cap);
        let mut awake = 0usize;
        for (i, link) in topo.links().iter().enumerate() {
            p.node[at(i as u32, STATUS)] = if link.fixed { STATIC } else { AWAKE };
            p.still[i] = 0;
            p.stamp[i] = 0;
            p.slot_mark[i] = 0;
            if !link.fixed {
                p.awake_a[awake] = i as u32;
                awake += 1;
            }
        }
        state.c.awake_len = awake as u32;
        Ok(state)
    }

    /// The hibernation settings.
    pub fn params(&self) -> &Params<R> {
        &self.params
    }

    /// Changes the hibernation settings from the next step on. Turning
    /// hibernation off leaves sleeping islands asleep until something wakes
    /// them.
    pub fn set_params(&mut self, params: Params<R>) {
        self.params = params;
    }

    /// The capacities the state has room for (contacts and constraints grow
    /// with a `Vec` buffer).
    pub fn capacity(&self) -> Capacity {
        self.cap
    }

    /// Makes room for `contacts` contacts and `constraints` constraints, or
    /// names the capacity that a borrowed buffer cannot extend.
    fn reserve(&mut self, contacts: usize, constraints: usize) -> Result<(), StepError> {
        if contacts <= self.cap.contacts && constraints <= self.cap.constraints {
            return Ok(());
        }
        let grown = Capacity {
            links: self.cap.links,
            contacts: contacts.max(self.cap.contacts),
            constraints: constraints.max(self.cap.constraints),
        };
        let kind = if contacts > self.cap.contacts {
            CapacityKind::Contacts
        } else {
            CapacityKind::Constraints
        };
        match grown.words() {
            Some(len) if self.words.grow_to(len) => {
                self.cap = grown;
                Ok(())
            }
            _ => Err(StepError::Capacity(kind)),
        }
    }

    /// Checks the inputs shared by [`Islands::wake`] and [`Islands::step`].
    fn check(
        &mut self,
        topo: &Topology<'_, R>,
        contacts: &[[u32; 2]],
        constraints: &[[u32; 2]],
    ) -> Result<(), StepError> {
        if topo.link_count() != self.cap.links {
            return Err(StepError::TopologyMismatch);
        }
        self.reserve(contacts.len(), constraints.len())
    }

    /// Resolves waking ahead of the step, for callers that re-run collision
    /// detection for the woken links before solving.
    ///
    /// Wakes every sleeping island reached by `contacts` or `constraints`
    /// from an awake link (directly, or through other sleeping islands
    /// touching it) and every island holding a link of `wake`. The woken
    /// links ([`Islands::woken_links`]) are awake at once: the broad phase
    /// now pairs them with their neighbours, and the contacts found
    /// that way go into this step's [`Islands::step`], which reports them as
    /// woken this step. Returns how many links are pending as woken.
    ///
    /// Refused calls (a link index out of range, a full borrowed buffer, a
    /// topology of another size) change nothing.
    pub fn wake(
        &mut self,
        topo: &Topology<'_, R>,
        contacts: &[[u32; 2]],
        constraints: &[[u32; 2]],
        wake: &[u32],
    ) -> Result<u32, StepError> {
        self.check(topo, contacts, constraints)?;
        let mut p = split(self.words.as_mut(), &self.cap);
        let edges = Edges {
            contacts,
            constraints,
            requests: wake,
        };
        wake_pass(&mut p, &mut self.c, self.cap.links as u32, &edges)?;
        Ok(self.c.pending_len)
    }

    /// One step: wake what the inputs wake, build the islands of the awake
    /// links, and put to sleep every island whose links have all been still
    /// for [`SLEEP_STEPS`](crate::SLEEP_STEPS) steps.
    ///
    /// Edges with a fixed link merge nothing (each body resting on the
    /// ground stays its own island); such a contact belongs to the island of
    /// its moving end. Edges with no awake end after waking (two sleeping
    /// or static links) belong to no island.
    ///
    /// The still counters compare `input.dof_vel` (each dof's speed times
    /// its `dof_length`) with [`Params::thresh_vel`]; a NaN or infinite
    /// velocity counts as moving. The islands that fall asleep are returned
    /// in the output, flagged; their dof velocities are the caller's to zero
    /// ([`Islands::zero_slept_dofs`]).
    ///
    /// Refused calls (a link index out of range, a full borrowed buffer, a
    /// topology of another size, a short velocity array) change nothing.
    pub fn step(
        &mut self,
        topo: &Topology<'_, R>,
        input: &StepInput<'_, R>,
    ) -> Result<StepSummary, StepError> {
        if input.dof_vel.len() < topo.dof_count() {
            return Err(StepError::VelocityTooShort);
        }
        self.check(topo, input.contacts, input.constraints)?;
        let mut p = split(self.words.as_mut(), &self.cap);
        let edges = Edges {
            contacts: input.contacts,
            constraints: input.constraints,
            requests: input.wake,
        };
        wake_pass(&mut p, &mut self.c, self.cap.links as u32, &edges)?;
        build(
            &mut p,
            &mut self.c,
            topo,
            &self.params,
            &edges,
            input.dof_vel,
        );
        fall_asleep(&mut p, &mut self.c, self.params.hibernation);
        Ok(StepSummary {
            islands: self.c.islands,
            slept_islands: self.c.slept,
            woken_links: self.c.pending_len,
            awake_links: self.c.awake_len,
            sleeping_islands: self.c.sleeping,
        })
    }

    /// The arrays, read-only.
    fn view(&self) -> View<'_> {
        view(self.words.as_ref(), &self.cap)
    }

    /// The status word of `link` (`None` out of range).
    #[inline]
    fn status(&self, link: u32) -> Option<u32> {
        if link as usize >= self.cap.links {
            return None;
        }
        self.words.as_ref().get(at(link, STATUS)).copied()
    }

    /// The state of `link` now; `None` for an index out of range.
    #[inline]
    pub fn link_state(&self, link: u32) -> Option<LinkState> {
        Some(match self.status(link)? {
            AWAKE => LinkState::Awake,
            STATIC => LinkState::Static,
            _ => LinkState::Asleep,
        })
    }

    /// `true` when `link` sleeps (`false` for awake, static, or out-of-range
    /// links).
    #[inline]
    pub fn is_asleep(&self, link: u32) -> bool {
        self.link_state(link) == Some(LinkState::Asleep)
    }

    /// The flag for a geometry on `link` in the broad phase's "asleep"
    /// field: `true` unless the link is awake. Static links count as asleep
    /// here, so a filter that drops pairs whose sides both sleep also drops
    /// sleeping-against-ground pairs, while every pair with an awake side is
    /// kept. Out-of-range links give `true`.
    #[inline]
    pub fn broadphase_asleep(&self, link: u32) -> bool {
        self.link_state(link) != Some(LinkState::Awake)
    }

    /// `true` when a pair of links needs collision detection this step: at
    /// least one side is awake.
    #[inline]
    pub fn pair_is_active(&self, link_a: u32, link_b: u32) -> bool {
        !(self.broadphase_asleep(link_a) && self.broadphase_asleep(link_b))
    }

    /// The awake links now, ascending.
    pub fn awake_links(&self) -> &[u32] {
        let v = self.view();
        let list = if self.c.awake_in_b {
            v.awake_b
        } else {
            v.awake_a
        };
        list.get(..self.c.awake_len as usize).unwrap_or(&[])
    }

    /// The links woken by the last step (ascending), or, after a
    /// [`Islands::wake`] call, the links it has woken so far (unordered).
    pub fn woken_links(&self) -> &[u32] {
        self.view()
            .pending
            .get(..self.c.pending_len as usize)
            .unwrap_or(&[])
    }

    /// The number of islands asleep now.
    pub fn sleeping_island_count(&self) -> u32 {
        self.c.sleeping
    }

    /// The number of islands the last step built.
    pub fn island_count(&self) -> u32 {
        self.c.islands
    }

    /// Island `i` of the last step (`0..island_count()`), or `None`.
    pub fn island(&self, i: u32) -> Option<Island<'_>> {
        if i >= self.c.islands {
            return None;
        }
        let v = self.view();
        let i = i as usize;
        let range = |start: &[u32]| -> Option<core::ops::Range<usize>> {
            Some(*start.get(i)? as usize..*start.get(i + 1)? as usize)
        };
        Some(Island {
            links: v.island_links.get(range(v.link_start)?)?,
            contacts: v.island_contacts.get(range(v.contact_start)?)?,
            constraints: v.island_constraints.get(range(v.constraint_start)?)?,
            asleep: v.island_flags.get(i)? & SLEEPS != 0,
        })
    }

    /// The islands of the last step that the solver must solve (those that
    /// did not fall asleep), in island order.
    pub fn awake_islands(&self) -> impl Iterator<Item = u32> + '_ {
        let flags = self.view().island_flags;
        let n = (self.c.islands as usize).min(flags.len());
        flags[..n]
            .iter()
            .enumerate()
            .filter(|(_, &f)| f & SLEEPS == 0)
            .map(|(i, _)| i as u32)
    }

    /// The islands that fell asleep at the end of the last step, ascending.
    pub fn slept_islands(&self) -> &[u32] {
        self.view()
            .slept
            .get(..self.c.slept as usize)
            .unwrap_or(&[])
    }

    /// The links that fell asleep at the end of the last step, island by
    /// island.
    pub fn slept_links(&self) -> impl Iterator<Item = u32> + '_ {
        self.slept_islands()
            .iter()
            .filter_map(move |&i| self.island(i))
            .flat_map(|isl| isl.links.iter().copied())
    }

    /// The island of `link` in the last step: `None` for static links,
    /// links that were asleep during the whole step, links woken by a later
    /// [`Islands::wake`], and indices out of range. (Validity is tracked by a
    /// 32-bit step stamp: a link asleep for exactly a multiple of 2^32 steps
    /// would read a stale island.)
    pub fn island_of(&self, link: u32) -> Option<u32> {
        let v = self.view();
        let l = link as usize;
        if self.c.stamp == 0 || *v.stamp.get(l)? != self.c.stamp {
            return None;
        }
        v.node.get(at(link, ISLAND)).copied()
    }

    /// The island of contact `contact` of the last step; `None` when it
    /// joined no awake island (both ends static or asleep) or is out of
    /// range.
    pub fn contact_island(&self, contact: u32) -> Option<u32> {
        if contact >= self.c.contacts {
            return None;
        }
        let id = *self.view().contact_island.get(contact as usize)?;
        (id != NONE).then_some(id)
    }

    /// The island of constraint `constraint` of the last step; `None` as
    /// for [`Islands::contact_island`].
    pub fn constraint_island(&self, constraint: u32) -> Option<u32> {
        if constraint >= self.c.constraints {
            return None;
        }
        let id = *self.view().constraint_island.get(constraint as usize)?;
        (id != NONE).then_some(id)
    }

    /// Zeroes, in `dof_vel`, the velocities of every dof of the links that
    /// fell asleep at the end of the last step (dofs past the end of
    /// `dof_vel` are skipped).
    pub fn zero_slept_dofs(&self, topo: &Topology<'_, R>, dof_vel: &mut [R]) {
        for l in self.slept_links() {
            if let Some(v) = dof_vel.get_mut(topo.dofs(l)) {
                v.fill(R::ZERO);
            }
        }
    }
}
