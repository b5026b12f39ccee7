//! The GJK simplex and its sub-distance step: the point of a simplex (1 to 4
//! support points of `A ⊖ B`) closest to the origin, the barycentric weights
//! that produce it, and the reduction of the simplex to the smallest face
//! that still holds it.
//!
//! Each case projects the origin on the affine hull of the simplex and reads
//! the signs of the barycentric coordinates (signed lengths, areas and
//! volumes, in the spirit of Montanari et al.'s signed-volume method). The
//! coordinates are computed from differences of nearby vertices and from the
//! origin's projection, so they keep their precision when the simplex is far
//! from the origin. A region test that fails (some coordinate is not
//! positive) recurses only into the faces on the origin's side, as in the
//! signed-volume method; a degenerate simplex (collinear triangle, flat
//! tetrahedron) falls back to all of its faces.
//!
//! Candidates are compared by their distance to the origin, and the face
//! without the newest vertex (the last one pushed: the old simplex, whose
//! closest point GJK already has) wins only when it is closer by more than
//! round-off. In exact arithmetic a new support point that improves on the
//! old closest point does so on a face that contains it, but when it lies
//! far along a flat face of `A ⊖ B` (a support tie: a box face flush with a
//! cylinder's cap) the improvement is below round-off of the squared
//! distance while the move of the closest point towards it is not; a tie
//! won by the old face would drop that move and stall GJK.

use mink_support::{Real, SupportPoint, Vec3};

/// A simplex of `A ⊖ B`: up to four support points, in A's frame, each with
/// its witness on A (the witness on B is `a - w`), and the barycentric
/// weights of the point of the simplex closest to the origin.
#[derive(Clone, Copy, Debug)]
pub struct Simplex<R> {
    w: [Vec3<R>; 4],
    a: [Vec3<R>; 4],
    lambda: [R; 4],
    len: usize,
}

impl<R: Real> Default for Simplex<R> {
    fn default() -> Self {
        Self::new()
    }
}

/// The result of one sub-distance step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Closest<R> {
    /// The point of the simplex closest to the origin (A's frame).
    pub v: Vec3<R>,
    /// `true` when the origin is inside a full-dimensional tetrahedron.
    pub inside: bool,
}

impl<R: Real> Simplex<R> {
    /// The empty simplex.
    pub const fn new() -> Self {
        Self {
            w: [Vec3::ZERO; 4],
            a: [Vec3::ZERO; 4],
            lambda: [R::ZERO; 4],
            len: 0,
        }
    }

    /// Number of vertices (0 to 4).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when there is no vertex.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Vertex `i` (`i < len()`, A's frame), with both witnesses; `None`
    /// past the end.
    pub fn vertex(&self, i: usize) -> Option<SupportPoint<R>> {
        if i < self.len {
            let (w, a) = (self.w[i], self.a[i]);
            Some(SupportPoint { w, a, b: a - w })
        } else {
            None
        }
    }

    /// Barycentric weight of vertex `i` in the closest point found by the
    /// last step (they sum to one); `0` past the end.
    pub fn weight(&self, i: usize) -> R {
        if i < self.len {
            self.lambda[i]
        } else {
            R::ZERO
        }
    }

    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a vertex; a full simplex keeps its first three vertices and
    /// replaces the fourth (never happens in GJK, which reduces first).
    #[inline(always)]
    pub(crate) fn push(&mut self, w: Vec3<R>, a: Vec3<R>) {
        let i = if self.len < 4 { self.len } else { 3 };
        self.w[i] = w;
        self.a[i] = a;
        self.len = i + 1;
    }

    /// Appends the shape point `p` of a ray cast from the ray's point `x`:
    /// the vertex `x - p`, with `p` kept in the witness slot so that
    /// [`Simplex::rebase`] can move the simplex with `x`.
    #[inline(always)]
    pub(crate) fn push_point(&mut self, x: Vec3<R>, p: Vec3<R>) {
        self.push(x - p, p);
    }

    /// Moves a ray cast's simplex ([`Simplex::push_point`]) to the ray's
    /// new point `x`: every vertex becomes `x - p` again, exactly.
    #[inline]
    pub(crate) fn rebase(&mut self, x: Vec3<R>) {
        for i in 0..self.len.min(4) {
            self.w[i] = x - self.a[i];
        }
    }

    /// The witness points `(p_a, p_b)` of the current closest point, on the
    /// cores, A's frame.
    #[inline]
    pub(crate) fn witnesses(&self) -> (Vec3<R>, Vec3<R>) {
        let mut pa = Vec3::ZERO;
        let mut v = Vec3::ZERO;
        for i in 0..self.len.min(4) {
            pa += self.a[i] * self.lambda[i];
            v += self.w[i] * self.lambda[i];
        }
        (pa, pa - v)
    }

    /// Rewrites the simplex with the given vertices (by index into the
    /// current ones) and weights.
    #[inline(always)]
    fn keep(&mut self, idx: &[usize], lambda: &[R]) {
        let (w, a) = (self.w, self.a);
        for (k, (&i, &l)) in idx.iter().zip(lambda).enumerate() {
            self.w[k] = w[i];
            self.a[k] = a[i];
            self.lambda[k] = l;
        }
        self.len = idx.len();
    }

    /// Replaces the simplex by its smallest face holding the point closest
    /// to the origin, sets the weights, and returns that point.
    #[inline]
    pub(crate) fn reduce(&mut self) -> Closest<R> {
        let sub = match self.len {
            0 => {
                return Closest {
                    v: Vec3::ZERO,
                    inside: false,
                }
            }
            1 => {
                self.lambda[0] = R::ONE;
                return Closest {
                    v: self.w[0],
                    inside: false,
                };
            }
            2 => segment(&self.w, 0, 1),
            3 => triangle::<R, COMPACT>(&self.w, 0, 1, 2),
            _ => tetrahedron::<R, COMPACT>(&self.w),
        };
        let n = sub.n;
        self.keep(&sub.idx[..n], &sub.lambda[..n]);
        Closest {
            v: sub.v,
            inside: sub.inside,
        }
    }
}

/// Whether the reduction is compiled compactly: one copy of the triangle
/// and edge tests, visited in a loop, instead of one copy per face and edge
/// with its indices folded in. Compact on bare-metal targets
/// (`target_os = "none"`), where it is about 18 KB less flash on a
/// Cortex-M4F; unrolled elsewhere, where it is up to 10% faster. Both give
/// bit-identical results (tested).
const COMPACT: bool = cfg!(target_os = "none");

/// `a > b`, written as a call so that its negation reads as what it is:
/// "not greater, or NaN".
#[inline(always)]
pub(crate) fn greater<R: Real>(a: R, b: R) -> bool {
    a > b
}

/// A face of a simplex (1 to 4 of its vertices) with the barycentric weights
/// of the closest point, which is `v`.
#[derive(Clone, Copy)]
struct Sub<R> {
    idx: [usize; 4],
    lambda: [R; 4],
    n: usize,
    v: Vec3<R>,
    inside: bool,
}

impl<R: Real> Sub<R> {
    #[inline(always)]
    fn vertex(w: &[Vec3<R>; 4], i: usize) -> Self {
        Self {
            idx: [i, 0, 0, 0],
            lambda: [R::ONE, R::ZERO, R::ZERO, R::ZERO],
            n: 1,
            v: w[i],
            inside: false,
        }
    }

    #[inline(always)]
    fn dist2(&self) -> R {
        self.v.norm_squared()
    }
}

/// Closest point of segment `w[i] w[j]` to the origin.
///
/// With `d = q - p`, the origin projects at `p + t d`, `t = -p·d / d·d`;
/// outside `(0, 1)` the closest point is an end.
#[inline(always)]
fn segment<R: Real>(w: &[Vec3<R>; 4], i: usize, j: usize) -> Sub<R> {
    let (p, q) = (w[i], w[j]);
    let d = q - p;
    let num = -p.dot(d);
    let dd = d.norm_squared();
    if num <= R::ZERO {
        return Sub::vertex(w, i);
    }
    if num >= dd {
        return Sub::vertex(w, j);
    }
    let t = num / dd;
    // `p + d t` carries the round-off of `p` (an ulp of the vertices, far
    // more than `v` itself when the segment passes close to the origin),
    // part of it along `d`; that part tilts `v`'s direction towards one
    // end, and a support tie then picks that end of a flat side of the
    // difference, proving nothing (a point 59 µm under a 0.5 m cylinder
    // cap, in f32). Removing it leaves `v` orthogonal to the segment to
    // round-off of `v` itself.
    let v = p + d * t;
    let v = v - d * (v.dot(d) / dd);
    Sub {
        idx: [i, j, 0, 0],
        lambda: [R::ONE - t, t, R::ZERO, R::ZERO],
        n: 2,
        v,
        inside: false,
    }
}

/// Closest point of triangle `w[i] w[j] w[k]` to the origin.
///
/// The origin projects on the triangle's plane at `o = n (n·p) / n·n`, with
/// `n = (q - p) × (r - p)`. Its barycentric coordinates are the signed areas
/// `n·((q - o) × (r - o))` etc. over `n·n`; when all are positive `o` is the
/// answer, otherwise the answer lies on an edge facing away from a
/// non-positive coordinate. A triangle whose angle at `p` is below
/// round-off (`|n|² <= ε² |q - p|² |r - p|²`) or whose height is below
/// 16 ulps of its largest vertex is treated as its three edges.
#[inline(always)]
fn triangle<R: Real, const C: bool>(w: &[Vec3<R>; 4], i: usize, j: usize, k: usize) -> Sub<R> {
    let (p, q, r) = (w[i], w[j], w[k]);
    let (pq, pr) = (q - p, r - p);
    let n = pq.cross(pr);
    let nn = n.norm_squared();
    // Degenerate: the angle at `p` is round-off, or the triangle is a
    // sliver whose height is within 16 ulps of its largest coordinate
    // (two vertices a few ulps apart, as when GJK's support point repeats
    // one of the simplex far from the origin). Either way the normal is
    // round-off, and the origin's projection on that plane can land far
    // off the triangle, nearer the origin than any point of it (a cone
    // pair 23 cm apart read as 1.3 cm); the edges are within that height
    // of the answer.
    let (pp, qq, rr) = (p.norm_squared(), q.norm_squared(), r.norm_squared());
    let edge2 = pq
        .norm_squared()
        .max_of(pr.norm_squared())
        .max_of((r - q).norm_squared());
    let sliver = R::lit(256.0) * R::EPSILON * R::EPSILON * pp.max_of(qq).max_of(rr) * edge2;
    let degenerate = nn <= R::EPSILON * R::EPSILON * pq.norm_squared() * pr.norm_squared()
        || nn <= sliver
        || !greater(nn, R::ZERO);
    let all = ([[j, k], [k, i], [i, j]], [true; 3]);
    let (edges, visit) = if degenerate {
        all
    } else {
        let o = n * (n.dot(p) / nn);
        let (po, qo, ro) = (p - o, q - o, r - o);
        let u = n.dot(qo.cross(ro));
        let v = n.dot(ro.cross(po));
        let t = n.dot(po.cross(qo));
        if u > R::ZERO && v > R::ZERO && t > R::ZERO {
            let inv = R::ONE / (u + v + t);
            return Sub {
                idx: [i, j, k, 0],
                lambda: [u * inv, v * inv, t * inv, R::ZERO],
                n: 3,
                v: o,
                inside: false,
            };
        }
        // Only edges facing a non-positive coordinate can hold the answer;
        // NaN coordinates face none: fall back to all three edges.
        if !C {
            // Unrolled: each edge test compiled with its own indices.
            let mut best: Option<Sub<R>> = None;
            if u <= R::ZERO {
                best = Some(segment(w, j, k));
            }
            if v <= R::ZERO {
                best = pick(best, segment(w, k, i));
            }
            if t <= R::ZERO {
                best = pick_old(best, segment(w, i, j), w);
            }
            if let Some(b) = best {
                return b;
            }
            let best = pick(Some(segment(w, j, k)), segment(w, k, i));
            return pick_old(best, segment(w, i, j), w).unwrap_or_else(|| Sub::vertex(w, i));
        }
        let facing = [u <= R::ZERO, v <= R::ZERO, t <= R::ZERO];
        if facing.contains(&true) {
            ([[j, k], [k, i], [i, j]], facing)
        } else {
            all
        }
    };
    closest_edge(w, edges, visit, i)
}

/// The closest to the origin of the edges `edges[e]` with `visit[e]`, in
/// that order (the first on ties; the last, the edge without the newest
/// vertex, only when closer by more than round-off: [`pick_old`]); vertex
/// `fallback` when none is visited.
///
/// One call site of [`segment`] in a loop rather than one per case keeps
/// the reduction small on a microcontroller; the loop is short enough for
/// the host's optimizer to unroll.
#[inline(always)]
fn closest_edge<R: Real>(
    w: &[Vec3<R>; 4],
    edges: [[usize; 2]; 3],
    visit: [bool; 3],
    fallback: usize,
) -> Sub<R> {
    let mut best: Option<Sub<R>> = None;
    for (e, (&[p, q], &on)) in edges.iter().zip(&visit).enumerate() {
        if on {
            let c = segment(w, p, q);
            best = if e == 2 {
                pick_old(best, c, w)
            } else {
                pick(best, c)
            };
        }
    }
    best.unwrap_or_else(|| Sub::vertex(w, fallback))
}

/// The closer of two candidates (the first on ties).
#[inline(always)]
fn pick<R: Real>(best: Option<Sub<R>>, c: Sub<R>) -> Option<Sub<R>> {
    match best {
        Some(b) if b.dist2() <= c.dist2() => Some(b),
        _ => Some(c),
    }
}

/// [`pick`] for `c`, the face without the newest vertex, against `best`,
/// faces with it: `c` wins only when closer by more than the round-off of
/// the squared distances, `ε` times the largest squared norm of the
/// vertices of either (see the module's comment). Reached only when GJK's
/// new support point did not improve in exact arithmetic or a flat
/// simplex visits every face, so its cost is off the common path.
#[inline(never)]
fn pick_old<R: Real>(best: Option<Sub<R>>, c: Sub<R>, w: &[Vec3<R>; 4]) -> Option<Sub<R>> {
    let Some(b) = best else { return Some(c) };
    let mut size2 = R::ZERO;
    for &i in b.idx[..b.n].iter().chain(&c.idx[..c.n]) {
        size2 = size2.max_of(w[i].norm_squared());
    }
    if b.dist2() <= c.dist2() + R::EPSILON * size2 {
        Some(b)
    } else {
        Some(c)
    }
}

/// Closest point of tetrahedron `w[0..4]` to the origin.
///
/// With `V = det(b - a, c - a, d - a)`, the barycentric coordinate of a
/// vertex is the volume of the tetrahedron with that vertex replaced by the
/// origin, over `V`, each written with edge vectors from a vertex of the
/// face it keeps (derivation: swap arguments of the alternating `det`).
/// All of one sign means the origin is inside; otherwise the answer lies on
/// a face opposite a vertex with a non-positive coordinate. A tetrahedron
/// whose volume is below round-off is treated as its four faces.
#[inline(always)]
fn tetrahedron<R: Real, const C: bool>(w: &[Vec3<R>; 4]) -> Sub<R> {
    let (a, b, c, d) = (w[0], w[1], w[2], w[3]);
    let (ab, ac, ad) = (b - a, c - a, d - a);
    let (bc, bd) = (c - b, d - b);
    let vol = ab.dot(ac.cross(ad));
    // Coordinates times V: vertex replaced by the origin.
    let la = b.dot(bc.cross(bd));
    let lb = -a.dot(ac.cross(ad));
    let lc = a.dot(ab.cross(ad));
    let ld = -a.dot(ab.cross(ac));
    let scale2 = ab
        .norm_squared()
        .max_of(ac.norm_squared())
        .max_of(ad.norm_squared());
    let flat = !greater(vol.abs(), R::EPSILON * scale2 * scale2.sqrt());
    let s = if vol < R::ZERO { -R::ONE } else { R::ONE };
    let (la, lb, lc, ld) = (la * s, lb * s, lc * s, ld * s);
    if !flat && la > R::ZERO && lb > R::ZERO && lc > R::ZERO && ld > R::ZERO {
        let inv = R::ONE / vol.abs();
        return Sub {
            idx: [0, 1, 2, 3],
            lambda: [la * inv, lb * inv, lc * inv, ld * inv],
            n: 4,
            v: Vec3::ZERO,
            inside: true,
        };
    }
    // The faces opposite vertex 0, 1, 2, 3; only those opposite a
    // non-positive coordinate can hold the answer (all of them when flat).
    // NaN coordinates visit none: fall back to all faces.
    if !C {
        // Unrolled: each face compiled with its own indices.
        let mut best: Option<Sub<R>> = None;
        if flat || la <= R::ZERO {
            best = Some(triangle::<R, C>(w, 1, 2, 3));
        }
        if flat || lb <= R::ZERO {
            best = pick(best, triangle::<R, C>(w, 0, 2, 3));
        }
        if flat || lc <= R::ZERO {
            best = pick(best, triangle::<R, C>(w, 0, 1, 3));
        }
        // The face without the newest vertex always: see below.
        best = pick_old(best, triangle::<R, C>(w, 0, 1, 2), w);
        if let Some(b) = best {
            return b;
        }
        // The rare NaN case, compact even here: it needs no speed.
        return tetrahedron_faces(w, [true; 4]);
    }
    // The face without the newest vertex (the last simplex, whose closest
    // point GJK already has) is always a candidate: with the origin within
    // round-off of it, the new vertex's coordinate can come out positive
    // while a face through the new vertex is a sliver reduced through its
    // edges, and the answer would be farther than the last one (two f32
    // hulls touching to 1e-8 m: 8.3e-4 m after 3.1e-6 m, and GJK ended
    // `Degenerate`). `pick_old` keeps it only when it is closer by more
    // than round-off.
    let visit = [
        flat || la <= R::ZERO,
        flat || lb <= R::ZERO,
        flat || lc <= R::ZERO,
        true,
    ];
    tetrahedron_faces(w, visit)
}

/// The closest to the origin of the faces of tetrahedron `w` opposite the
/// vertices `v` with `visit[v]`, in that order (the first on ties; the
/// last, without the newest vertex, only when closer by more than
/// round-off: [`pick_old`]); vertex 0 when none is visited. One call site
/// of [`triangle`] (compact).
#[inline(never)]
fn tetrahedron_faces<R: Real>(w: &[Vec3<R>; 4], visit: [bool; 4]) -> Sub<R> {
    let faces = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
    let mut best: Option<Sub<R>> = None;
    for (f, (&[i, j, k], &on)) in faces.iter().zip(&visit).enumerate() {
        if on {
            let c = triangle::<R, true>(w, i, j, k);
            best = if f == 3 {
                pick_old(best, c, w)
            } else {
                pick(best, c)
            };
        }
    }
    best.unwrap_or_else(|| Sub::vertex(w, 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mink_testkit::{for_each_real, Rng};

    /// The sub-simplex as comparable bits: indices, weights, point, flags.
    fn bits<R: Real>(s: &Sub<R>) -> ([usize; 4], [u64; 4], [u64; 3], usize, bool) {
        let mut idx = [usize::MAX; 4];
        let mut lambda = [0; 4];
        for k in 0..s.n {
            idx[k] = s.idx[k];
            lambda[k] = s.lambda[k].to_f64().to_bits();
        }
        let v = [s.v.x, s.v.y, s.v.z].map(|c| c.to_f64().to_bits());
        (idx, lambda, v, s.n, s.inside)
    }

    /// Random simplices, generic and degenerate (collinear, coplanar,
    /// repeated points, huge offsets, NaN).
    fn simplex<R: Real>(rng: &mut Rng) -> [Vec3<R>; 4] {
        let mut w: [Vec3<R>; 4] = core::array::from_fn(|_| rng.in_cube::<R>(1.0));
        match rng.below(6) {
            0 => w[2] = w[0] + (w[1] - w[0]) * rng.range::<R>(-1.0, 2.0),
            1 => {
                w[3] = w[0]
                    + (w[1] - w[0]) * rng.range::<R>(-1.0, 2.0)
                    + (w[2] - w[0]) * rng.range::<R>(-1.0, 2.0)
            }
            2 => w[rng.below(4)] = w[rng.below(4)],
            3 => {
                let t = rng.in_cube::<R>(1.0e3);
                w = w.map(|p| p + t);
            }
            4 if rng.chance(0.1) => w[rng.below(4)].y = R::nan(),
            _ => {}
        }
        w
    }

    /// The compact and the unrolled reductions give bit-identical results
    /// on every triangle and tetrahedron, including degenerate ones; the
    /// unrolled one is checked against brute force too: no vertex or edge
    /// point of the simplex is closer to the origin than its answer.
    fn compact_matches_unrolled<R: Real>() {
        let mut rng = Rng::new(0xc0_3a_c7);
        let (mut inside, cases) = (0, 20_000);
        for _ in 0..cases {
            let w = simplex::<R>(&mut rng);
            let t = (
                triangle::<R, true>(&w, 0, 1, 2),
                triangle::<R, false>(&w, 0, 1, 2),
            );
            assert_eq!(bits(&t.0), bits(&t.1), "triangle {w:?}");
            let h = (tetrahedron::<R, true>(&w), tetrahedron::<R, false>(&w));
            assert_eq!(bits(&h.0), bits(&h.1), "tetrahedron {w:?}");
            inside += usize::from(h.1.inside);
            if !w.iter().all(|p| p.is_finite()) || h.1.inside {
                continue;
            }
            // Brute force over points of the edges: none is closer than
            // the answer (within round-off).
            let d = h.1.v.norm();
            let tol = R::lit(1e-3)
                * (R::ONE + w.iter().map(|p| p.norm()).fold(R::ZERO, R::max_of)).powi(2);
            for i in 0..4 {
                for j in 0..4 {
                    for s in 0..=8 {
                        let p = w[i] + (w[j] - w[i]) * (R::lit(s as f64) / R::lit(8.0));
                        assert!(d <= p.norm() + tol, "{w:?}: {d:?} > {:?}", p.norm());
                    }
                }
            }
        }
        // Random tetrahedra around the origin hold it some of the time.
        assert!(
            inside > cases / 50 && inside < cases / 2,
            "{inside} of {cases}"
        );
    }

    for_each_real!(compact_reduction_matches_unrolled, compact_matches_unrolled);
}
