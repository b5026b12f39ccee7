//! Candidate contact points, and their reduction to a manifold of at most
//! [`MAX_MANIFOLD_POINTS`]: the deepest point first, then the points that
//! span the largest area seen along the normal.

use super::point::{ContactPoint, Manifold, MAX_MANIFOLD_POINTS};
use mink_support::{Real, Vec3, SUPPORT_SET_CAPACITY};

/// The most candidate points a pair routine collects before reduction:
/// the intersection of two projected support sets has at most one vertex
/// per edge of each ([`SUPPORT_SET_CAPACITY`] each), plus the first
/// contact.
pub const MAX_CANDIDATES: usize = 2 * SUPPORT_SET_CAPACITY + 1;

const _: () = assert!(MAX_CANDIDATES > MAX_MANIFOLD_POINTS);

/// A fixed-capacity list of candidate points (no allocation). The storage
/// is not initialized up front: a pair routine builds two of these per
/// call, and writing (then copying) all [`MAX_CANDIDATES`] slots cost more
/// than the handful of points a pair produces.
#[derive(Clone, Debug)]
pub(crate) struct Candidates<R> {
    points: heapless::Vec<ContactPoint<R>, MAX_CANDIDATES>,
}

impl<R: Real> Candidates<R> {
    /// An empty list.
    pub fn new() -> Self {
        Self {
            points: heapless::Vec::new(),
        }
    }

    /// Appends `p` unless it is not finite, or lies within `distinct`
    /// meters of a point already held (then the deeper of the two is
    /// kept). Returns `false` when the list is full and `p` was dropped.
    pub fn push(&mut self, p: ContactPoint<R>, distinct: R) -> bool {
        if !(p.position.is_finite() && p.normal.is_finite() && p.depth.finite()) {
            return true;
        }
        let d2 = distinct * distinct;
        for q in self.points.iter_mut() {
            if (q.position - p.position).norm_squared() <= d2 {
                if p.depth > q.depth {
                    *q = p;
                }
                return true;
            }
        }
        self.points.push(p).is_ok()
    }

    /// Caps every point's depth at `max` (meters), its position kept: for
    /// a pair proven apart by `-max` along the shared normal, no pair of
    /// surface points facing across it is closer, and a point found
    /// deeper (by the slop of the features it came from) stands at that
    /// depth.
    pub fn cap_depth(&mut self, max: R) {
        for p in self.points.iter_mut() {
            p.depth = p.depth.min_of(max);
        }
    }

    /// The largest depth held (`-∞` when empty).
    pub fn max_depth(&self) -> R {
        self.as_slice()
            .iter()
            .fold(-R::INFINITY, |m, p| m.max_of(p.depth))
    }

    /// The manifold of a pair ([`Candidates::reduce`] along `normal`) from
    /// its candidates: these (the patch's points), and `first` (the pair's
    /// deepest contact) ahead of them only when no point held is within
    /// `slop` meters as deep, since it then adds depth the patch lacks;
    /// otherwise it lies inside the patch and would only crowd it. When
    /// `first` joins, the points are merged as [`Candidates::push`] merges
    /// them, `first` first.
    pub fn reduce_with_first(
        &self,
        first: ContactPoint<R>,
        slop: R,
        distinct: R,
        normal: Vec3<R>,
    ) -> Manifold<R> {
        if self.max_depth() >= first.depth - slop {
            return self.reduce(normal);
        }
        let mut merged = Self::new();
        merged.push(first, distinct);
        for p in self.as_slice() {
            merged.push(*p, distinct);
        }
        merged.reduce(normal)
    }

    /// The points held.
    pub fn as_slice(&self) -> &[ContactPoint<R>] {
        &self.points
    }

    /// Number of points held.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// At most [`MAX_MANIFOLD_POINTS`] of the points, the deepest first (so
    /// that a caller keeping fewer keeps it): all of them when they fit,
    /// the others in their order; else the deepest, the point farthest
    /// from it, the point making the largest triangle with those two, and
    /// the point adding the most area outside that triangle (areas seen
    /// along `normal`, unit).
    pub fn reduce(&self, normal: Vec3<R>) -> Manifold<R> {
        let pts = self.as_slice();
        let mut out = Manifold::new();
        let i0 = best(pts, |q| q.depth);
        if pts.len() <= MAX_MANIFOLD_POINTS {
            if let Some(deepest) = pts.get(i0) {
                out.push(*deepest);
            }
            for (i, p) in pts.iter().enumerate() {
                if i != i0 {
                    out.push(*p);
                }
            }
            return out;
        }
        let p0 = pts[i0].position;
        let i1 = best(pts, |q| (q.position - p0).norm_squared());
        let p1 = pts[i1].position;
        let i2 = best(pts, |q| area2(p0, p1, q.position, normal).abs());
        let p2 = pts[i2].position;
        // Orient the triangle counter-clockwise about the normal; the
        // fourth point is the one farthest outside any of its edges.
        let (p1, p2) = if area2(p0, p1, p2, normal) < R::ZERO {
            (p2, p1)
        } else {
            (p1, p2)
        };
        let i3 = best(pts, |q| {
            [(p0, p1), (p1, p2), (p2, p0)]
                .iter()
                .fold(R::ZERO, |m, &(u, v)| {
                    m.max_of(-area2(u, v, q.position, normal))
                })
        });
        let mut taken = [usize::MAX; MAX_MANIFOLD_POINTS];
        for (k, i) in [i0, i1, i2, i3].into_iter().enumerate() {
            if !taken.contains(&i) {
                taken[k] = i;
                out.push(pts[i]);
            }
        }
        out
    }
}

/// Twice the signed area of the triangle `(a, b, c)` seen along `n`.
#[inline(always)]
fn area2<R: Real>(a: Vec3<R>, b: Vec3<R>, c: Vec3<R>, n: Vec3<R>) -> R {
    (b - a).cross(c - a).dot(n)
}

/// Index of the point of largest `score` (the first on ties, 0 when none
/// is comparable).
fn best<R: Real>(pts: &[ContactPoint<R>], score: impl Fn(&ContactPoint<R>) -> R) -> usize {
    let mut best = (0, -R::INFINITY);
    for (i, q) in pts.iter().enumerate() {
        let s = score(q);
        if s > best.1 {
            best = (i, s);
        }
    }
    best.0
}
