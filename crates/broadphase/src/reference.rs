//! The brute-force reference: every pair tested, for tests and fuzzing.

use crate::{CandidatePair, Filters, Geom, NO_LINK};
use alloc::vec::Vec;
use mink_support::Real;

/// Every pair `(i, j)`, `i < j`, whose closed world AABBs overlap and that
/// the enabled filters keep, in lexicographic order, by testing all
/// `n (n - 1) / 2` pairs (written without sharing code with the sweep; the
/// filter rules are restated here). Invalid AABBs are not checked: a NaN
/// bound makes its pairs fail the overlap test.
pub fn brute_force_pairs<R: Real>(geoms: &[Geom<R>], filters: &Filters) -> Vec<CandidatePair> {
    let mut out = Vec::new();
    for (i, a) in geoms.iter().enumerate() {
        for (j, b) in geoms.iter().enumerate().skip(i + 1) {
            let apart = (0..3).any(|k| {
                a.aabb.max.get(k) < b.aabb.min.get(k) || b.aabb.max.get(k) < a.aabb.min.get(k)
            });
            let nan = (0..3).any(|k| {
                a.aabb.min.get(k).is_nan()
                    || a.aabb.max.get(k).is_nan()
                    || b.aabb.min.get(k).is_nan()
                    || b.aabb.max.get(k).is_nan()
            });
            if apart || nan {
                continue;
            }
            let dropped = (filters.same_link && a.link == b.link)
                || (filters.parent_child
                    && ((a.parent_link == b.link && a.parent_link != NO_LINK)
                        || (b.parent_link == a.link && b.parent_link != NO_LINK)))
                || (filters.masks
                    && !((a.contype & b.conaffinity) != 0 || (b.contype & a.conaffinity) != 0))
                || (filters.both_fixed && a.fixed && b.fixed)
                || (filters.both_asleep && a.asleep && b.asleep);
            if !dropped {
                out.push(CandidatePair {
                    a: i as u32,
                    b: j as u32,
                });
            }
        }
    }
    out
}
