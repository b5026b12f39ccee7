//! Hibernation: islands whose links are all ready fall asleep.
//!
//! A link is ready once its still counter (consecutive steps with every
//! weighted dof speed under the threshold, updated by the build) reaches
//! [`SLEEP_STEPS`](crate::SLEEP_STEPS). An island whose links are all ready
//! moves into a sleeping slot: its links are chained in ascending order, get
//! the slot as their status, and leave the awake list. Their dof
//! velocities are for the caller to zero
//! ([`Islands::zero_slept_dofs`](crate::Islands::zero_slept_dofs)).

use crate::state::{at, Counters, AWAKE, NONE, SLEEPS, STATUS, UNREADY};
use crate::storage::Parts;

/// Puts every ready island of the last build to sleep (when `enabled`),
/// recording them in `slept`, then drops their links from the awake list.
pub(crate) fn fall_asleep(p: &mut Parts<'_>, c: &mut Counters, enabled: bool) {
    c.slept = 0;
    if !enabled {
        return;
    }
    for id in 0..c.islands {
        let flags = &mut p.island_flags[id as usize];
        if *flags & UNREADY != 0 {
            continue;
        }
        *flags |= SLEEPS;
        p.slept[c.slept as usize] = id;
        c.slept += 1;
        let slot = alloc_slot(p, c);
        let range = p.link_start[id as usize] as usize..p.link_start[id as usize + 1] as usize;
        let links = &p.island_links[range];
        p.slot_head[slot as usize] = links.first().copied().unwrap_or(NONE);
        p.slot_len[slot as usize] = links.len() as u32;
        for (k, &l) in links.iter().enumerate() {
            p.node[at(l, STATUS)] = slot;
            p.sleep_next[l as usize] = links.get(k + 1).copied().unwrap_or(NONE);
        }
        c.sleeping += 1;
    }
    if c.slept > 0 {
        let list = if c.awake_in_b {
            &mut *p.awake_b
        } else {
            &mut *p.awake_a
        };
        let mut kept = 0usize;
        for i in 0..c.awake_len as usize {
            let l = list[i];
            if p.node[at(l, STATUS)] == AWAKE {
                list[kept] = l;
                kept += 1;
            }
        }
        c.awake_len = kept as u32;
    }
}

/// A free sleeping-island slot: a recycled one, else a fresh one. There are
/// never more sleeping islands than links, so a fresh slot is in range.
fn alloc_slot(p: &mut Parts<'_>, c: &mut Counters) -> u32 {
    if c.slot_free_head != NONE {
        let s = c.slot_free_head;
        c.slot_free_head = p.slot_free[s as usize];
        s
    } else {
        let s = c.slot_fresh;
        c.slot_fresh += 1;
        s
    }
}
