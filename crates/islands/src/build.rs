//! Building the step's islands over the awake links: merge the woken links
//! into the awake list, update the still counters, union the edges, label
//! the components, and lay links, contacts and constraints out island by
//! island.
//!
//! Only awake links and the step's edges are touched; sleeping islands keep
//! their links, so the cost follows the awake part of the scene.
//!
//! Order: islands are numbered by their smallest link; links are listed in
//! ascending order within an island, contacts and constraints in input
//! order. The output is therefore a function of the graph alone, whatever
//! the history of sleeping and waking.

use mink_support::Real;

use crate::params::{Params, SLEEP_STEPS};
use crate::state::{at, Counters, AWAKE, ISLAND, NONE, SIZE, STATUS, UF, UNREADY, WOKEN};
use crate::storage::Parts;
use crate::topology::{Topology, NO_PARENT};
use crate::union_find::{find, union};
use crate::wake::Edges;

/// Builds the islands of the current awake set (after the wake pass).
pub(crate) fn build<R: Real>(
    p: &mut Parts<'_>,
    c: &mut Counters,
    topo: &Topology<'_, R>,
    params: &Params<R>,
    edges: &Edges<'_>,
    dof_vel: &[R],
) {
    c.stamp = c.stamp.wrapping_add(1).max(1);
    merge_awake(p, c, topo, params.thresh_vel, dof_vel);
    let awake_len = c.awake_len as usize;
    let awake: &[u32] = if c.awake_in_b {
        &p.awake_b[..awake_len]
    } else {
        &p.awake_a[..awake_len]
    };

    // Kinematic edges: a link and its moving parent are one island.
    for &l in awake {
        let parent = topo.links()[l as usize].parent;
        if parent != NO_PARENT && p.node[at(parent, STATUS)] == AWAKE {
            union(p.node, l, parent);
        }
    }
    // Contacts and constraints between two awake links. An edge with a
    // static end merges nothing: the world is not a body.
    for list in [edges.contacts, edges.constraints] {
        for &[a, b] in list {
            if p.node[at(a, STATUS)] == AWAKE && p.node[at(b, STATUS)] == AWAKE {
                union(p.node, a, b);
            }
        }
    }

    // Label the components by their smallest link and count their links.
    let mut islands = 0u32;
    for &l in awake {
        let r = find(p.node, l);
        let mut id = p.node[at(r, ISLAND)];
        if id == NONE {
            id = islands;
            p.node[at(r, ISLAND)] = id;
            p.island_flags[id as usize] = 0;
            p.link_start[id as usize] = 0;
            islands += 1;
        }
        p.node[at(l, ISLAND)] = id;
        p.link_start[id as usize] += 1;
        if p.still[l as usize] < SLEEP_STEPS {
            p.island_flags[id as usize] |= UNREADY;
        }
    }
    let n_isl = islands as usize;
    prefix_ends(&mut p.link_start[..=n_isl]);
    for &l in awake.iter().rev() {
        let id = p.node[at(l, ISLAND)] as usize;
        p.link_start[id] -= 1;
        p.island_links[p.link_start[id] as usize] = l;
    }

    // Contacts and constraints follow their awake end.
    c.contacts = edges.contacts.len() as u32;
    c.constraints = edges.constraints.len() as u32;
    group_edges(
        p.node,
        edges.contacts,
        p.contact_island,
        p.island_contacts,
        &mut p.contact_start[..=n_isl],
    );
    group_edges(
        p.node,
        edges.constraints,
        p.constraint_island,
        p.island_constraints,
        &mut p.constraint_start[..=n_isl],
    );
    c.islands = islands;
}

/// Merges the sorted pending (woken) links into the awake list, and on the
/// way updates every link's still counter and resets its union-find node.
fn merge_awake<R: Real>(
    p: &mut Parts<'_>,
    c: &mut Counters,
    topo: &Topology<'_, R>,
    thresh: R,
    dof_vel: &[R],
) {
    let pending_len = c.pending_len as usize;
    p.pending[..pending_len].sort_unstable();
    let awake_len = c.awake_len as usize;
    let (src, dst) = if c.awake_in_b {
        (&*p.awake_b, &mut *p.awake_a)
    } else {
        (&*p.awake_a, &mut *p.awake_b)
    };
    let src = &src[..awake_len];
    let pending = &p.pending[..pending_len];
    let (mut i, mut j) = (0usize, 0usize);
    for slot in dst[..awake_len + pending_len].iter_mut() {
        let l = match (src.get(i), pending.get(j)) {
            (Some(&a), Some(&b)) if a < b => {
                i += 1;
                a
            }
            (Some(&a), None) => {
                i += 1;
                a
            }
            (_, Some(&b)) => {
                j += 1;
                b
            }
            (None, None) => break,
        };
        *slot = l;
        let li = l as usize;
        let s = p.still[li];
        p.still[li] = if s == WOKEN {
            0
        } else if topo.is_still(li, dof_vel, thresh) {
            (s + 1).min(SLEEP_STEPS)
        } else {
            0
        };
        p.node[at(l, UF)] = l;
        p.node[at(l, SIZE)] = 1;
        p.node[at(l, ISLAND)] = NONE;
        p.stamp[li] = c.stamp;
    }
    c.awake_len = (awake_len + pending_len) as u32;
    c.awake_in_b = !c.awake_in_b;
    c.pending_is_output = true;
}

/// Turns per-entry counts in `v[..len-1]` into exclusive end positions
/// (inclusive prefix sums) and sets the last entry to the total.
fn prefix_ends(v: &mut [u32]) {
    let Some((last, counts)) = v.split_last_mut() else {
        return;
    };
    let mut sum = 0u32;
    for x in counts.iter_mut() {
        sum += *x;
        *x = sum;
    }
    *last = sum;
}

/// Assigns each edge to the island of its awake end (`NONE` when neither
/// end is awake) and lists the edges island by island, in input order.
fn group_edges(
    node: &[u32],
    list: &[[u32; 2]],
    edge_island: &mut [u32],
    grouped: &mut [u32],
    start: &mut [u32],
) {
    for x in start.iter_mut() {
        *x = 0;
    }
    for (&[a, b], isl) in list.iter().zip(edge_island.iter_mut()) {
        let id = if node[at(a, STATUS)] == AWAKE {
            node[at(a, ISLAND)]
        } else if node[at(b, STATUS)] == AWAKE {
            node[at(b, ISLAND)]
        } else {
            NONE
        };
        *isl = id;
        if id != NONE {
            start[id as usize] += 1;
        }
    }
    prefix_ends(start);
    for (e, &id) in edge_island[..list.len()].iter().enumerate().rev() {
        if id != NONE {
            start[id as usize] -= 1;
            grouped[start[id as usize] as usize] = e as u32;
        }
    }
}
