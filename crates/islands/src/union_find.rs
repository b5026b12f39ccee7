//! Union-find over `u32` node ids stored in the interleaved `node` array
//! (fields `UF` and `SIZE`): union by size,
//! and path halving (the one-pass form of path compression: every node on a
//! find path is re-pointed to its grandparent).

use crate::state::{at, SIZE, UF};

/// The height bound of a union-by-size forest: a tree of height `h` holds at
/// least `2^h` nodes, so with fewer than `2^32` nodes no find path is longer
/// than 32 links. The find loop stops there; reaching it would mean a broken
/// invariant, which `debug_invariant!` reports.
pub(crate) const MAX_TREE_HEIGHT: usize = 33;

/// The root of `x`'s tree, halving the path on the way.
#[inline]
pub(crate) fn find(node: &mut [u32], x: u32) -> u32 {
    let mut x = x;
    for _ in 0..MAX_TREE_HEIGHT {
        let p = node[at(x, UF)];
        if p == x {
            return x;
        }
        let gp = node[at(p, UF)];
        node[at(x, UF)] = gp;
        x = gp;
    }
    crate::debug::debug_invariant!(false, "union-find deeper than its size bound");
    x
}

/// Joins the trees of `a` and `b` (the smaller under the larger); returns
/// the new root.
#[inline(always)]
pub(crate) fn union(node: &mut [u32], a: u32, b: u32) -> u32 {
    let mut ra = find(node, a);
    let mut rb = find(node, b);
    if ra == rb {
        return ra;
    }
    if node[at(ra, SIZE)] < node[at(rb, SIZE)] {
        core::mem::swap(&mut ra, &mut rb);
    }
    node[at(rb, UF)] = ra;
    node[at(ra, SIZE)] += node[at(rb, SIZE)];
    ra
}
