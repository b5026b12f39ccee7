//! The fuzz harness: an independent reference model of islands and
//! hibernation, run side by side with [`Islands`] on a scene and a step
//! sequence decoded from arbitrary bytes.
//!
//! The reference builds every step's islands by breadth-first search over
//! adjacency lists, wakes sleeping islands by a breadth-first search over a
//! graph whose sleeping islands are single nodes, and keeps its own still
//! counters. After every step [`check_bytes`] compares, exactly: the
//! islands (count, order, links, contacts, constraints, which fell asleep),
//! the woken links, every link's state and island, and the awake list. It
//! also checks two invariants from first principles:
//!
//! - no contact or constraint joins an awake link to a sleeping one after a
//!   step (whatever touches an awake body is awake);
//! - a link that falls asleep was awake, and under the speed threshold on
//!   every dof, in each of the last [`SLEEP_STEPS`] steps (measured from the
//!   raw velocities the harness fed in).
//!
//! A cargo-fuzz target is one line:
//! `fuzz_target!(|data: &[u8]| mink_islands::check::check_bytes::<f64>(data).unwrap());`

use alloc::collections::VecDeque;
use alloc::vec;
use alloc::vec::Vec;

use mink_support::Real;

use crate::islands::{Islands, LinkState, StepInput};
use crate::params::{Params, SLEEP_STEPS};
use crate::topology::{Link, Topology, NO_PARENT};
use crate::IslandsBuf;

/// A disagreement between [`Islands`] and the reference, or a broken
/// invariant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The step (0-based) at which it was found.
    pub step: u32,
    /// What disagreed.
    pub what: &'static str,
    /// The link, island, contact or entry concerned (0 when none applies).
    pub at: u32,
}

impl core::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "step {}: {} (at {})", self.step, self.what, self.at)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Mismatch {}

/// What a case exercised, so that tests can check the decoded cases stay
/// meaningful (islands do fall asleep and wake).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaseStats {
    /// Steps run.
    pub steps: u32,
    /// Islands built, summed over the steps.
    pub islands: u32,
    /// Islands that fell asleep.
    pub slept_islands: u32,
    /// Links woken.
    pub woken_links: u32,
}

/// Most links a decoded scene has.
pub const MAX_CASE_LINKS: u32 = 40;
/// Most steps a decoded case runs.
pub const MAX_CASE_STEPS: u32 = 60;

/// Reads the bytes as a stream of small choices; past the end every choice
/// is 0, so every input decodes.
struct Choices<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Choices<'_> {
    fn byte(&mut self) -> u32 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b as u32
    }

    /// A choice in `0..n` (0 when `n == 0`).
    fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        ((self.byte() << 8) | self.byte()) % n
    }
}

/// Decodes a scene and a step sequence from `data`, runs [`Islands`] and
/// the reference on it, and returns the first disagreement (or, when they
/// agree throughout, what the case exercised).
pub fn check_bytes<R: Real>(data: &[u8]) -> Result<CaseStats, Mismatch> {
    let mut ch = Choices { data, pos: 0 };
    // Header first (sizes and settings), so that a stream that turns to
    // zeros after it still decodes into a long case.
    let n = 1 + ch.below(MAX_CASE_LINKS);
    let mut params = if ch.below(2) == 0 {
        Params::new()
    } else {
        Params::mujoco()
    };
    params.hibernation = ch.below(8) != 7;
    let steps = 1 + ch.below(MAX_CASE_STEPS);
    let mut links: Vec<Link> = Vec::new();
    let mut dofs = 0u32;
    for i in 0..n {
        let link = match ch.below(8) {
            6 => Link::world(),
            7 => {
                let j = ch.below(i);
                let parent = if i > 0 && links[j as usize].fixed {
                    j
                } else {
                    NO_PARENT
                };
                Link {
                    parent,
                    fixed: true,
                    dof_start: dofs,
                    dof_count: 0,
                }
            }
            3..=5 if i > 0 => Link::child(ch.below(i), dofs, ch.below(4)),
            _ => Link::free(dofs, ch.below(7)),
        };
        dofs += link.dof_count;
        links.push(link);
    }
    let lengths = [0.0, 0.01, 0.1, 1.0, 2.0];
    let dof_length: Vec<R> = (0..dofs)
        .map(|_| R::lit(lengths[ch.below(5) as usize]))
        .collect();
    let topo = Topology::new(&links, &dof_length).map_err(|_| Mismatch {
        step: 0,
        what: "decoded topology refused",
        at: 0,
    })?;
    let fail = |step, what, at| Mismatch { step, what, at };
    let mut sut: IslandsBuf<R> =
        Islands::owned(&topo, params).map_err(|_| fail(0, "state refused", 0))?;
    let mut reference = Reference::new(&links, params.hibernation);
    let mut vel: Vec<R> = vec![R::ZERO; dofs as usize];
    let thresh = params.thresh_vel;
    let mut stats = CaseStats::default();

    for step in 0..steps {
        // Velocities: the awake links move on (kick, NaN, near the
        // threshold, or decay); sleeping links keep their zeroed dofs.
        for (l, link) in links.iter().enumerate() {
            if reference.asleep[l].is_some() || link.fixed {
                continue;
            }
            let range = topo.dofs(l as u32);
            match ch.below(32) {
                31 => vel[range].fill(R::ONE),
                30 => {
                    if let Some(v) = vel[range].first_mut() {
                        *v = R::nan();
                    }
                }
                29 => {
                    for d in range {
                        let w = dof_length[d];
                        vel[d] = if w > R::ZERO {
                            thresh * R::HALF / w
                        } else {
                            R::ONE
                        };
                    }
                }
                _ => vel[range].iter_mut().for_each(|v| *v *= R::lit(0.25)),
            }
        }
        // Edges: random pairs over all links; half the steps drop the pairs
        // a broad phase would skip (no awake side).
        let skip_inactive = ch.below(2) == 0;
        let mut contacts: Vec<[u32; 2]> = Vec::new();
        for _ in 0..ch.below(2 * n + 1) {
            let pair = [ch.below(n), ch.below(n)];
            if !skip_inactive || reference.active(pair) {
                contacts.push(pair);
            }
        }
        let constraints: Vec<[u32; 2]> = (0..ch.below(3))
            .map(|_| [ch.below(n), ch.below(n)])
            .collect();
        let wake: Vec<u32> = if ch.below(4) == 3 {
            vec![ch.below(n)]
        } else {
            Vec::new()
        };
        if ch.below(4) == 3 {
            // The two-phase flow: wake first, then the step.
            sut.wake(&topo, &contacts, &constraints, &wake)
                .map_err(|_| fail(step, "wake refused", 0))?;
            reference.wake(&contacts, &constraints, &wake);
            // Detection again: pairs among the links now awake join in.
            let awake: Vec<u32> = (0..n).filter(|&l| reference.awake(l)).collect();
            for _ in 0..ch.below(4) {
                let len = awake.len() as u32;
                if len > 0 {
                    let a = awake[ch.below(len) as usize];
                    let b = awake[ch.below(len) as usize];
                    contacts.push([a, b]);
                }
            }
        }
        let input = StepInput {
            contacts: &contacts,
            constraints: &constraints,
            wake: &wake,
            dof_vel: &vel,
        };
        let summary = sut
            .step(&topo, &input)
            .map_err(|_| fail(step, "step refused", 0))?;
        let expected = reference.step(&topo, &contacts, &constraints, &wake, &vel, thresh);
        compare(&sut, &reference, &expected, summary.islands, step)?;
        check_invariants(&sut, &reference, &contacts, &constraints, step)?;
        sut.zero_slept_dofs(&topo, &mut vel);
        stats.steps += 1;
        stats.islands += summary.islands;
        stats.slept_islands += summary.slept_islands;
        stats.woken_links += summary.woken_links;
    }
    Ok(stats)
}

/// One island of the reference.
struct RefIsland {
    links: Vec<u32>,
    contacts: Vec<u32>,
    constraints: Vec<u32>,
    asleep: bool,
}

/// The reference model: per-link sleeping group, still streak, and the raw
/// history of the last [`SLEEP_STEPS`] measurements.
struct Reference {
    parent: Vec<u32>,
    fixed: Vec<bool>,
    hibernation: bool,
    asleep: Vec<Option<u32>>,
    next_group: u32,
    streak: Vec<u32>,
    woken: Vec<bool>,
    woken_list: Vec<u32>,
    /// `true` when `woken_list` is the last step's (the next wake clears it).
    list_is_output: bool,
    /// Per link: (awake at the build, every dof under the threshold) for
    /// the most recent steps, newest last.
    history: Vec<VecDeque<(bool, bool)>>,
    island_of: Vec<Option<u32>>,
}

impl Reference {
    fn new(links: &[Link], hibernation: bool) -> Self {
        let n = links.len();
        Self {
            parent: links.iter().map(|l| l.parent).collect(),
            fixed: links.iter().map(|l| l.fixed).collect(),
            hibernation,
            asleep: vec![None; n],
            next_group: 0,
            streak: vec![0; n],
            woken: vec![false; n],
            woken_list: Vec::new(),
            list_is_output: false,
            history: vec![VecDeque::new(); n],
            island_of: vec![None; n],
        }
    }

    fn awake(&self, l: u32) -> bool {
        !self.fixed[l as usize] && self.asleep[l as usize].is_none()
    }

    /// A broad phase keeps the pair: one side is awake.
    fn active(&self, [a, b]: [u32; 2]) -> bool {
        self.awake(a) || self.awake(b)
    }

    /// Wakes every sleeping group connected (sleeping groups as single
    /// nodes) to an awake link or a requested group.
    fn wake(&mut self, contacts: &[[u32; 2]], constraints: &[[u32; 2]], requests: &[u32]) {
        if self.list_is_output {
            self.woken_list.clear();
            self.list_is_output = false;
        }
        let n = self.fixed.len();
        let node = |s: &Self, l: u32| -> Option<usize> {
            if s.fixed[l as usize] {
                None
            } else {
                Some(match s.asleep[l as usize] {
                    Some(g) => n + g as usize,
                    None => l as usize,
                })
            }
        };
        let total = n + self.next_group as usize;
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); total];
        for &[a, b] in contacts.iter().chain(constraints) {
            if let (Some(x), Some(y)) = (node(self, a), node(self, b)) {
                adj[x].push(y);
                adj[y].push(x);
            }
        }
        let mut seen = vec![false; total];
        let mut queue: VecDeque<usize> = VecDeque::new();
        for l in 0..n as u32 {
            if self.awake(l) {
                seen[l as usize] = true;
                queue.push_back(l as usize);
            }
        }
        for &w in requests {
            if let Some(x) = node(self, w) {
                if !seen[x] {
                    seen[x] = true;
                    queue.push_back(x);
                }
            }
        }
        while let Some(x) = queue.pop_front() {
            for &y in &adj[x] {
                if !seen[y] {
                    seen[y] = true;
                    queue.push_back(y);
                }
            }
        }
        for l in 0..n {
            if let Some(g) = self.asleep[l] {
                if seen[n + g as usize] {
                    self.asleep[l] = None;
                    self.woken[l] = true;
                    self.woken_list.push(l as u32);
                }
            }
        }
        for &w in requests {
            if self.awake(w) {
                self.woken[w as usize] = true;
            }
        }
    }

    /// One step; returns the islands.
    fn step<R: Real>(
        &mut self,
        topo: &Topology<'_, R>,
        contacts: &[[u32; 2]],
        constraints: &[[u32; 2]],
        requests: &[u32],
        vel: &[R],
        thresh: R,
    ) -> Vec<RefIsland> {
        self.wake(contacts, constraints, requests);
        let n = self.fixed.len();
        for l in 0..n {
            let awake = self.awake(l as u32);
            let mut still = false;
            if awake {
                still = topo
                    .dofs(l as u32)
                    .all(|d| (vel[d] * topo.dof_length()[d]).abs() < thresh);
                self.streak[l] = if self.woken[l] || !still {
                    0
                } else {
                    (self.streak[l] + 1).min(SLEEP_STEPS)
                };
            }
            let h = &mut self.history[l];
            h.push_back((awake, still && !self.woken[l]));
            if h.len() > SLEEP_STEPS as usize {
                h.pop_front();
            }
        }
        // Breadth-first islands over the awake links.
        let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
        for l in 0..n as u32 {
            let p = self.parent[l as usize];
            if p != NO_PARENT && self.awake(l) && self.awake(p) {
                adj[l as usize].push(p);
                adj[p as usize].push(l);
            }
        }
        for &[a, b] in contacts.iter().chain(constraints) {
            if self.awake(a) && self.awake(b) {
                adj[a as usize].push(b);
                adj[b as usize].push(a);
            }
        }
        let mut islands: Vec<RefIsland> = Vec::new();
        self.island_of = vec![None; n];
        for start in 0..n as u32 {
            if !self.awake(start) || self.island_of[start as usize].is_some() {
                continue;
            }
            let id = islands.len() as u32;
            let mut members = vec![start];
            self.island_of[start as usize] = Some(id);
            let mut head = 0;
            while head < members.len() {
                let x = members[head];
                head += 1;
                for &y in &adj[x as usize] {
                    if self.island_of[y as usize].is_none() {
                        self.island_of[y as usize] = Some(id);
                        members.push(y);
                    }
                }
            }
            members.sort_unstable();
            islands.push(RefIsland {
                links: members,
                contacts: Vec::new(),
                constraints: Vec::new(),
                asleep: false,
            });
        }
        let owner = |s: &Self, [a, b]: [u32; 2]| -> Option<u32> {
            if s.awake(a) {
                s.island_of[a as usize]
            } else if s.awake(b) {
                s.island_of[b as usize]
            } else {
                None
            }
        };
        for (i, &e) in contacts.iter().enumerate() {
            if let Some(id) = owner(self, e) {
                islands[id as usize].contacts.push(i as u32);
            }
        }
        for (i, &e) in constraints.iter().enumerate() {
            if let Some(id) = owner(self, e) {
                islands[id as usize].constraints.push(i as u32);
            }
        }
        // Hibernation.
        if self.hibernation {
            for isl in islands.iter_mut() {
                if isl
                    .links
                    .iter()
                    .all(|&l| self.streak[l as usize] >= SLEEP_STEPS)
                {
                    isl.asleep = true;
                    for &l in &isl.links {
                        self.asleep[l as usize] = Some(self.next_group);
                    }
                    self.next_group += 1;
                }
            }
        }
        self.woken.iter_mut().for_each(|w| *w = false);
        self.list_is_output = true;
        islands
    }
}

/// Compares the last step of `sut` with the reference's.
fn compare<R: Real>(
    sut: &IslandsBuf<R>,
    reference: &Reference,
    expected: &[RefIsland],
    islands: u32,
    step: u32,
) -> Result<(), Mismatch> {
    let fail = |what, at| Err(Mismatch { step, what, at });
    if islands as usize != expected.len() || sut.island_count() != islands {
        return fail("island count", islands);
    }
    for (i, want) in expected.iter().enumerate() {
        let Some(got) = sut.island(i as u32) else {
            return fail("missing island", i as u32);
        };
        if got.links != want.links.as_slice() {
            return fail("island links", i as u32);
        }
        if got.contacts != want.contacts.as_slice() {
            return fail("island contacts", i as u32);
        }
        if got.constraints != want.constraints.as_slice() {
            return fail("island constraints", i as u32);
        }
        if got.asleep != want.asleep {
            return fail("island asleep flag", i as u32);
        }
    }
    let mut woken = reference.woken_list.clone();
    woken.sort_unstable();
    if sut.woken_links() != woken.as_slice() {
        return fail("woken links", 0);
    }
    for l in 0..reference.fixed.len() as u32 {
        let want = if reference.fixed[l as usize] {
            LinkState::Static
        } else if reference.asleep[l as usize].is_some() {
            LinkState::Asleep
        } else {
            LinkState::Awake
        };
        if sut.link_state(l) != Some(want) {
            return fail("link state", l);
        }
        if sut.island_of(l) != reference.island_of[l as usize] {
            return fail("island of link", l);
        }
    }
    let awake: Vec<u32> = (0..reference.fixed.len() as u32)
        .filter(|&l| reference.awake(l))
        .collect();
    if sut.awake_links() != awake.as_slice() {
        return fail("awake list", 0);
    }
    Ok(())
}

/// The two invariants, from the inputs and the raw history.
fn check_invariants<R: Real>(
    sut: &IslandsBuf<R>,
    reference: &Reference,
    contacts: &[[u32; 2]],
    constraints: &[[u32; 2]],
    step: u32,
) -> Result<(), Mismatch> {
    for (i, &[a, b]) in contacts.iter().chain(constraints).enumerate() {
        let (sa, sb) = (sut.link_state(a), sut.link_state(b));
        let mixed = |x, y| x == Some(LinkState::Awake) && y == Some(LinkState::Asleep);
        if mixed(sa, sb) || mixed(sb, sa) {
            return Err(Mismatch {
                step,
                what: "an edge joins an awake link to a sleeping one",
                at: i as u32,
            });
        }
    }
    for l in sut.slept_links() {
        let h = &reference.history[l as usize];
        if h.len() < SLEEP_STEPS as usize || h.iter().any(|&(awake, still)| !(awake && still)) {
            return Err(Mismatch {
                step,
                what: "a link fell asleep without 10 still steps",
                at: l,
            });
        }
    }
    Ok(())
}
