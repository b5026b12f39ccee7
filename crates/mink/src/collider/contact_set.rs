//! A fixed-capacity set of contact candidates: near-duplicates merge
//! (the deeper one stays), and a cap on the number of points is met by
//! keeping the deepest point and then the ones that spread the patch most.

use crate::contact::ContactPoint;
use mink_support::{Real, Vec3};

/// How many candidate contacts one non-convex pair collects before
/// reducing them to the caller's cap. When one more distinct candidate
/// comes, the most redundant of the held points and the newcomer goes: of
/// the two closest to each other, the shallower (of two equally deep
/// within the merge distance, the one nearer the centroid of the held
/// points), so depth wins over position and the patch keeps its outline.
pub const CONTACT_CANDIDATES: usize = 32;

/// Candidate contacts of one pair, world frame (see [`ContactPoint`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ContactSet<R> {
    points: [ContactPoint<R>; CONTACT_CANDIDATES],
    len: usize,
    /// Points closer than this (meters) are one contact.
    merge_distance: R,
}

impl<R: Real> ContactSet<R> {
    /// An empty set merging points closer than `merge_distance` meters.
    pub fn new(merge_distance: R) -> Self {
        let zero = ContactPoint {
            position: Vec3::ZERO,
            normal: Vec3::Z,
            depth: R::ZERO,
        };
        Self {
            points: [zero; CONTACT_CANDIDATES],
            len: 0,
            merge_distance,
        }
    }

    /// The candidates held.
    pub fn as_slice(&self) -> &[ContactPoint<R>] {
        &self.points[..self.len]
    }

    /// Adds `point`: merged into a held point within the merge distance
    /// (the deeper of the two stays), else appended, else (when full) the
    /// most redundant point goes (see [`CONTACT_CANDIDATES`]).
    pub fn insert(&mut self, point: ContactPoint<R>) {
        let close = self.merge_distance * self.merge_distance;
        for held in &mut self.points[..self.len] {
            if (held.position - point.position).norm_squared() <= close {
                if point.depth > held.depth {
                    *held = point;
                }
                return;
            }
        }
        if self.len < CONTACT_CANDIDATES {
            self.points[self.len] = point;
            self.len += 1;
            return;
        }
        self.replace_redundant(point);
    }

    /// The set is full: of the held points and `point`, drops the shallower
    /// of the closest pair (the one nearer the centroid when equally deep).
    fn replace_redundant(&mut self, point: ContactPoint<R>) {
        let at = |k: usize| {
            if k == CONTACT_CANDIDATES {
                point
            } else {
                self.points[k]
            }
        };
        let mut centroid = Vec3::ZERO;
        for p in self.as_slice() {
            centroid += p.position;
        }
        centroid = centroid / R::lit(CONTACT_CANDIDATES as f64);
        let mut pair = (0, CONTACT_CANDIDATES);
        let mut gap = R::INFINITY;
        for a in 0..=CONTACT_CANDIDATES {
            for b in a + 1..=CONTACT_CANDIDATES {
                let d = (at(a).position - at(b).position).norm_squared();
                if d < gap {
                    gap = d;
                    pair = (a, b);
                }
            }
        }
        let (pa, pb) = (at(pair.0), at(pair.1));
        let outer = |p: &ContactPoint<R>| (p.position - centroid).norm_squared();
        let drop_a = if (pa.depth - pb.depth).abs() <= self.merge_distance {
            outer(&pa) < outer(&pb)
        } else {
            pa.depth < pb.depth
        };
        let dropped = if drop_a { pair.0 } else { pair.1 };
        if dropped < CONTACT_CANDIDATES {
            self.points[dropped] = point;
        }
    }

    /// Passes at most `max_points` of the candidates to `emit`, and returns
    /// how many it passed. All of them
    /// when they fit; otherwise, the deepest first (among points within
    /// the merge distance of the deepest depth, the one farthest from the
    /// candidates' centroid, so a flat patch starts at a corner), then the
    /// point farthest from it, then the one making the largest triangle with
    /// those two, then the largest on the other side of their line, then
    /// each time the point farthest from every point chosen so far.
    pub fn emit<F: FnMut(ContactPoint<R>)>(&self, max_points: usize, emit: &mut F) -> usize {
        let all = self.as_slice();
        if all.len() <= max_points {
            for p in all {
                emit(*p);
            }
            return all.len();
        }
        let mut chosen = [false; CONTACT_CANDIDATES];
        let mut order = [0usize; CONTACT_CANDIDATES];
        for n in 0..max_points {
            let pick = match n {
                0 => self.deepest(),
                1 => self.farthest_from(all[order[0]].position, &chosen),
                2 => self.widest(order[0], order[1], None, &chosen),
                3 => self.widest(order[0], order[1], Some(order[2]), &chosen),
                _ => None,
            }
            .or_else(|| self.most_isolated(&order[..n], &chosen));
            let Some(k) = pick else {
                return n;
            };
            chosen[k] = true;
            order[n] = k;
            emit(all[k]);
        }
        max_points
    }

    /// The deepest candidate; among those within the merge distance of the
    /// deepest depth, the one farthest from the centroid.
    fn deepest(&self) -> Option<usize> {
        let all = self.as_slice();
        let top = all.iter().map(|p| p.depth).reduce(R::max_of)?;
        let mut centroid = Vec3::ZERO;
        for p in all {
            centroid += p.position;
        }
        centroid = centroid / R::lit(all.len() as f64);
        best_by(all.len(), |k| {
            let p = &all[k];
            (p.depth >= top - self.merge_distance).then(|| (p.position - centroid).norm_squared())
        })
    }

    /// The unchosen candidate farthest from `from`.
    fn farthest_from(&self, from: Vec3<R>, chosen: &[bool]) -> Option<usize> {
        let all = self.as_slice();
        best_by(all.len(), |k| {
            (!chosen[k]).then(|| (all[k].position - from).norm_squared())
        })
    }

    /// The unchosen candidate making the largest triangle with candidates
    /// `a` and `b`: any side when `other` is `None`, else only on the
    /// opposite side of the line `ab` from candidate `other`. `None` when
    /// no candidate makes a triangle of positive area there.
    fn widest(&self, a: usize, b: usize, other: Option<usize>, chosen: &[bool]) -> Option<usize> {
        let all = self.as_slice();
        let (pa, pb) = (all[a].position, all[b].position);
        let edge = pb - pa;
        let side = other.map(|o| edge.cross(all[o].position - pa));
        let pick = best_by(all.len(), |k| {
            if chosen[k] {
                return None;
            }
            let area = edge.cross(all[k].position - pa);
            match side {
                None => Some(area.norm_squared()),
                Some(s) => Some(-area.dot(s)),
            }
        })?;
        let area = edge.cross(all[pick].position - pa);
        let positive = match side {
            None => area.norm_squared() > R::ZERO,
            Some(s) => -area.dot(s) > R::ZERO,
        };
        positive.then_some(pick)
    }

    /// The unchosen candidate farthest from every chosen one (`picked`).
    fn most_isolated(&self, picked: &[usize], chosen: &[bool]) -> Option<usize> {
        let all = self.as_slice();
        best_by(all.len(), |k| {
            if chosen[k] {
                return None;
            }
            let gap = picked
                .iter()
                .map(|&c| (all[c].position - all[k].position).norm_squared())
                .reduce(R::min_of);
            Some(gap.unwrap_or(R::ZERO))
        })
    }
}

/// The index in `0..n` with the largest score (`None` scores skipped; the
/// first of equal ones; NaN scores never win).
fn best_by<R: Real>(n: usize, score: impl Fn(usize) -> Option<R>) -> Option<usize> {
    let mut best: Option<(usize, R)> = None;
    for k in 0..n {
        if let Some(s) = score(k) {
            let better = match best {
                None => !s.is_nan(),
                Some((_, b)) => s > b,
            };
            if better {
                best = Some((k, s));
            }
        }
    }
    best.map(|(k, _)| k)
}
