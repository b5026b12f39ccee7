//! The wake pass: which sleeping islands this step's contacts, constraints
//! and external requests wake.
//!
//! A sleeping island is one node here (its slot); its links are not looked
//! at unless it wakes. An island wakes when an edge joins it to an awake
//! link, when a request names one of its links, or when an edge joins it to
//! a sleeping island that wakes (a short union-find over the slots of the
//! rare sleeping–sleeping edges carries the wake along). Sleeping islands
//! that only touch each other stay asleep, and edges with a static link wake
//! nothing.

use crate::error::{InputList, StepError};
use crate::state::{at, Counters, AWAKE, NONE, SIZE, STATIC, STATUS, UF, WOKEN};
use crate::storage::Parts;
use crate::union_find::{find, union};

/// The step's edge lists and requests.
pub(crate) struct Edges<'e> {
    pub contacts: &'e [[u32; 2]],
    pub constraints: &'e [[u32; 2]],
    pub requests: &'e [u32],
}

impl Edges<'_> {
    /// Edge `e` of contacts followed by constraints.
    #[inline]
    fn edge(&self, e: u32) -> [u32; 2] {
        let e = e as usize;
        match self.contacts.get(e) {
            Some(&pair) => pair,
            None => self
                .constraints
                .get(e - self.contacts.len())
                .copied()
                .unwrap_or([0, 0]),
        }
    }
}

/// Marks slot `s` for waking (once).
#[inline]
fn mark(p: &mut Parts<'_>, marked: &mut usize, s: u32) {
    if p.slot_mark[s as usize] == 0 {
        p.slot_mark[s as usize] = 1;
        p.marked[*marked] = s;
        *marked += 1;
    }
}

/// `true` when `status` names a sleeping island's slot.
#[inline]
fn sleeping(status: u32) -> bool {
    status < STATIC
}

/// Validates the edges and requests, wakes every island they reach, and
/// appends the woken links to the pending list. On a bad index nothing
/// changes and the error names the list and entry.
pub(crate) fn wake_pass(
    p: &mut Parts<'_>,
    c: &mut Counters,
    n: u32,
    edges: &Edges<'_>,
) -> Result<(), StepError> {
    if c.pending_is_output {
        c.pending_len = 0;
        c.pending_is_output = false;
    }
    let mut marked = 0usize;
    let mut n_sleeping_edges = 0usize;
    let lists = [
        (edges.contacts, InputList::Contacts, 0u32),
        (
            edges.constraints,
            InputList::Constraints,
            edges.contacts.len() as u32,
        ),
    ];
    let mut bad = None;
    for (i, &w) in edges.requests.iter().enumerate() {
        if w >= n {
            bad = Some(StepError::LinkOutOfRange {
                list: InputList::WakeRequests,
                index: i as u32,
            });
            break;
        }
        let s = p.node[at(w, STATUS)];
        if sleeping(s) {
            mark(p, &mut marked, s);
        }
    }
    for (list, name, base) in lists {
        if bad.is_some() {
            break;
        }
        if c.sleeping == 0 {
            // Nothing sleeps: only the indices need checking.
            if let Some(i) = list.iter().position(|&[a, b]| a >= n || b >= n) {
                bad = Some(StepError::LinkOutOfRange {
                    list: name,
                    index: i as u32,
                });
            }
            continue;
        }
        for (i, &[a, b]) in list.iter().enumerate() {
            if a >= n || b >= n {
                bad = Some(StepError::LinkOutOfRange {
                    list: name,
                    index: i as u32,
                });
                break;
            }
            let (sa, sb) = (p.node[at(a, STATUS)], p.node[at(b, STATUS)]);
            if sa == AWAKE {
                if sleeping(sb) {
                    mark(p, &mut marked, sb);
                }
            } else if sb == AWAKE {
                if sleeping(sa) {
                    mark(p, &mut marked, sa);
                }
            } else if sleeping(sa) && sleeping(sb) && sa != sb {
                p.sleeping_edges[n_sleeping_edges] = base + i as u32;
                n_sleeping_edges += 1;
            }
        }
    }
    if let Some(err) = bad {
        for &s in p.marked[..marked].iter() {
            p.slot_mark[s as usize] = 0;
        }
        return Err(err);
    }
    if marked > 0 && n_sleeping_edges > 0 {
        propagate(p, edges, n_sleeping_edges, &mut marked);
    }
    for i in 0..marked {
        let s = p.marked[i];
        wake_slot(p, c, s);
    }
    for &w in edges.requests {
        if p.node[at(w, STATUS)] == AWAKE {
            p.still[w as usize] = WOKEN;
        }
    }
    Ok(())
}

/// Carries the wake marks along the sleeping–sleeping edges: every slot in
/// a union-find component holding a marked slot gets marked. The union-find
/// arrays are indexed by slot here (they are per-step scratch).
fn propagate(p: &mut Parts<'_>, edges: &Edges<'_>, n_edges: usize, marked: &mut usize) {
    for i in 0..n_edges {
        for link in edges.edge(p.sleeping_edges[i]) {
            let s = p.node[at(link, STATUS)];
            p.node[at(s, UF)] = s;
            p.node[at(s, SIZE)] = 1;
            p.wake_flag[s as usize] = 0;
        }
    }
    for i in 0..n_edges {
        let [a, b] = edges.edge(p.sleeping_edges[i]);
        let (sa, sb) = (p.node[at(a, STATUS)], p.node[at(b, STATUS)]);
        union(p.node, sa, sb);
    }
    for i in 0..n_edges {
        for link in edges.edge(p.sleeping_edges[i]) {
            let s = p.node[at(link, STATUS)];
            if p.slot_mark[s as usize] != 0 {
                let r = find(p.node, s);
                p.wake_flag[r as usize] = 1;
            }
        }
    }
    for i in 0..n_edges {
        for link in edges.edge(p.sleeping_edges[i]) {
            let s = p.node[at(link, STATUS)];
            let r = find(p.node, s);
            if p.wake_flag[r as usize] != 0 {
                mark(p, marked, s);
            }
        }
    }
}

/// Wakes the island in slot `s`: its links become awake with their still
/// counters reset, join the pending list, and the slot is freed.
fn wake_slot(p: &mut Parts<'_>, c: &mut Counters, s: u32) {
    let si = s as usize;
    let mut link = p.slot_head[si];
    for _ in 0..p.slot_len[si] {
        let l = link as usize;
        p.node[at(link, STATUS)] = AWAKE;
        p.still[l] = WOKEN;
        p.pending[c.pending_len as usize] = link;
        c.pending_len += 1;
        link = p.sleep_next[l];
    }
    crate::debug::debug_invariant!(link == NONE, "sleeping island shorter than its chain");
    p.slot_mark[si] = 0;
    p.slot_free[si] = c.slot_free_head;
    c.slot_free_head = s;
    c.sleeping -= 1;
}
