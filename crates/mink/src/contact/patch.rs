//! The contact patch of two support sets, seen along the contact normal.
//!
//! Each shape's support set (its points extreme along the normal, within a
//! tolerance) is projected on the plane perpendicular to the normal and
//! classified as a point, a segment or a polygon (its 2D convex hull, with
//! the plane fitted through it). The patch is the intersection of the two
//! projections: polygon ∩ polygon by Sutherland–Hodgman clipping, a segment
//! clipped by a polygon, a point inside a polygon, or the overlap of two
//! parallel segments. Every patch vertex carries the height (along the
//! normal) of A's core and of B's core above it, from which the caller
//! gets the depth and the midpoint.

use mink_support::{Iso3, Real, Vec3, SUPPORT_SET_CAPACITY};

/// Capacity of a clipped polygon: a convex polygon of `m` vertices clipped
/// by one of `k` edges has at most `m + k` vertices.
pub(crate) const CLIP_CAPACITY: usize = 2 * SUPPORT_SET_CAPACITY;

/// The smallest cosine between a support polygon's fitted plane and the
/// contact normal for the polygon to count as a face; a steeper set is
/// not a face touching along the normal, and only the first contact is
/// kept. 0.5 is 60°.
pub const MIN_FACE_COS: f64 = 0.5;

/// An orthonormal frame `(u, v, n)` with `u × v = n`: 2D coordinates
/// across the normal and a height along it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame<R> {
    u: Vec3<R>,
    v: Vec3<R>,
    n: Vec3<R>,
}

impl<R: Real> Frame<R> {
    /// The frame of the unit normal `n`.
    pub fn new(n: Vec3<R>) -> Self {
        let u = n.any_orthonormal();
        Self {
            u,
            v: n.cross(u),
            n,
        }
    }

    /// The frame's normal (its height axis), world frame.
    #[inline(always)]
    pub fn normal(&self) -> Vec3<R> {
        self.n
    }

    /// `p` (world) in the frame.
    #[inline(always)]
    pub fn local(&self, p: Vec3<R>) -> P2<R> {
        P2 {
            u: self.u.dot(p),
            v: self.v.dot(p),
            h: self.n.dot(p),
        }
    }

    /// The world point at `(u, v)` and height `h`.
    #[inline(always)]
    pub fn world(&self, u: R, v: R, h: R) -> Vec3<R> {
        self.u * u + self.v * v + self.n * h
    }
}

/// A point in a [`Frame`]: 2D coordinates and a height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct P2<R> {
    pub u: R,
    pub v: R,
    pub h: R,
}

impl<R: Real> P2<R> {
    const ZERO: Self = Self {
        u: R::ZERO,
        v: R::ZERO,
        h: R::ZERO,
    };

    #[inline(always)]
    fn lerp(self, o: Self, t: R) -> Self {
        Self {
            u: self.u + (o.u - self.u) * t,
            v: self.v + (o.v - self.v) * t,
            h: self.h + (o.h - self.h) * t,
        }
    }
}

/// `(b - a) × (c - a)` in 2D: positive when `a, b, c` turn counter-clockwise.
#[inline(always)]
fn cross2<R: Real>(a: P2<R>, b: P2<R>, c: P2<R>) -> R {
    (b.u - a.u) * (c.v - a.v) - (b.v - a.v) * (c.u - a.u)
}

#[inline(always)]
fn dist2<R: Real>(a: P2<R>, b: P2<R>) -> R {
    let (du, dv) = (b.u - a.u, b.v - a.v);
    (du * du + dv * dv).sqrt()
}

/// A convex polygon (counter-clockwise) or point list of fixed capacity.
#[derive(Clone, Debug)]
pub(crate) struct Poly<R> {
    /// Not initialized up front: most polygons hold a handful of points.
    pts: heapless::Vec<P2<R>, CLIP_CAPACITY>,
}

impl<R: Real> Poly<R> {
    fn new() -> Self {
        Self {
            pts: heapless::Vec::new(),
        }
    }

    fn push(&mut self, p: P2<R>) {
        // Capacity is never reached (see CLIP_CAPACITY); ignore past it.
        let _ = self.pts.push(p);
    }

    /// Number of points.
    fn len(&self) -> usize {
        self.pts.len()
    }

    /// Keeps the first `len` points.
    fn truncate(&mut self, len: usize) {
        self.pts.truncate(len);
    }

    /// The points.
    pub fn as_slice(&self) -> &[P2<R>] {
        &self.pts
    }
}

/// A plane through a support polygon: the height along the normal at any
/// `(u, v)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeightPlane<R> {
    origin: P2<R>,
    /// `-a / c` and `-b / c` of the plane's normal `(a, b, c)`.
    du: R,
    dv: R,
}

impl<R: Real> HeightPlane<R> {
    #[inline(always)]
    pub fn height(&self, u: R, v: R) -> R {
        self.origin.h + self.du * (u - self.origin.u) + self.dv * (v - self.origin.v)
    }

    /// The plane's rise along the normal per meter along `u` and along
    /// `v`.
    #[inline(always)]
    pub fn slopes(&self) -> (R, R) {
        (self.du, self.dv)
    }
}

/// A support set that is no single point, segment or plane seen along the
/// normal (see [`Feature::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NotFlat;

/// A support set seen along the normal.
#[derive(Clone, Debug)]
pub(crate) enum Feature<R> {
    /// One point (or points within the length tolerance of each other).
    Point(P2<R>),
    /// Two ends (collinear points reduce to their extremes).
    Segment(P2<R>, P2<R>),
    /// A convex polygon, counter-clockwise, and its fitted plane.
    Polygon(Poly<R>, HeightPlane<R>),
}

impl<R: Real> Feature<R> {
    /// The feature of `points` (a shape's core, local frame, placed by
    /// `pose`), in `frame`. `len_tol` (meters) merges points closer than
    /// it and drops vertices within it of a hull edge. `Ok(None)` when
    /// there is no point, or a polygon is too steep to be a face
    /// ([`MIN_FACE_COS`]); [`NotFlat`] when a point lies more than
    /// `flat_tol` (meters) off the feature along the normal (the set spans
    /// several faces, or an edge along the normal), so that no point,
    /// segment or plane gives its heights.
    pub fn of(
        points: &[Vec3<R>],
        pose: &Iso3<R>,
        frame: &Frame<R>,
        len_tol: R,
        flat_tol: R,
    ) -> Result<Option<Self>, NotFlat> {
        let mut pts = [P2::ZERO; SUPPORT_SET_CAPACITY];
        let count = points.len().min(SUPPORT_SET_CAPACITY);
        for (slot, p) in pts.iter_mut().zip(points) {
            *slot = frame.local(pose.transform_point(*p));
        }
        let pts = &mut pts[..count];
        let feature = Self::fitted(pts, len_tol);
        if let Some(f) = &feature {
            let off = |q: &P2<R>| !((q.h - f.height(q.u, q.v)).abs() <= flat_tol);
            if pts.iter().any(off) {
                return Err(NotFlat);
            }
        }
        Ok(feature)
    }

    /// A plane through the feature, world frame, as its unit normal (the
    /// one closest to `frame`'s normal) and a point of it: the fitted
    /// plane of a polygon; the plane through a segment whose normal is
    /// `frame`'s normal without its component along the segment. `None`
    /// for a point, or a segment along the normal.
    pub fn plane(&self, frame: &Frame<R>) -> Option<(Vec3<R>, Vec3<R>)> {
        match self {
            Feature::Point(_) => None,
            Feature::Segment(a, b) => {
                let (pa, pb) = (frame.world(a.u, a.v, a.h), frame.world(b.u, b.v, b.h));
                let along = (pb - pa).try_normalize()?;
                let m = (frame.n - along * along.dot(frame.n)).try_normalize()?;
                Some((m, pa))
            }
            Feature::Polygon(poly, plane) => {
                let p = *poly.as_slice().first()?;
                let (du, dv) = plane.slopes();
                let m = frame.world(-du, -dv, R::ONE).try_normalize()?;
                Some((m, frame.world(p.u, p.v, plane.height(p.u, p.v))))
            }
        }
    }

    /// The height of the feature's point, segment or plane at `(u, v)`
    /// (a segment's at the closest point of its line).
    fn height(&self, u: R, v: R) -> R {
        match self {
            Feature::Point(p) => p.h,
            Feature::Segment(a, b) => {
                let (du, dv) = (b.u - a.u, b.v - a.v);
                let len2 = du * du + dv * dv;
                let t = if len2 > R::ZERO {
                    ((u - a.u) * du + (v - a.v) * dv) / len2
                } else {
                    R::ZERO
                };
                a.h + (b.h - a.h) * t
            }
            Feature::Polygon(_, plane) => plane.height(u, v),
        }
    }

    /// [`Feature::of`] of the points in the frame, `pts` (sorted here),
    /// without the flatness check.
    fn fitted(pts: &mut [P2<R>], len_tol: R) -> Option<Self> {
        let first = *pts.first()?;
        // Insertion sort by (u, v): at most SUPPORT_SET_CAPACITY points.
        for i in 1..pts.len() {
            let mut j = i;
            while j > 0 && (pts[j].u, pts[j].v) < (pts[j - 1].u, pts[j - 1].v) {
                pts.swap(j, j - 1);
                j -= 1;
            }
        }
        let (lo, hi) = (pts[0], pts[pts.len() - 1]);
        if dist2(lo, hi) <= len_tol {
            // Sorting by u alone could miss a spread along v: check it.
            let spread = pts.iter().all(|p| dist2(*p, first) <= len_tol);
            if spread {
                return Some(Feature::Point(first));
            }
        }
        let hull = convex_hull(pts, len_tol);
        let hs = hull.as_slice();
        match hs.len() {
            0 => Some(Feature::Point(first)),
            1 => Some(Feature::Point(hs[0])),
            2 => Some(Feature::Segment(hs[0], hs[1])),
            _ => {
                // Newell's normal of the loop (u, v, h) and its centroid.
                let (mut a, mut b, mut c) = (R::ZERO, R::ZERO, R::ZERO);
                let mut o: P2<R> = P2::ZERO;
                for (i, p) in hs.iter().enumerate() {
                    let q = hs[(i + 1) % hs.len()];
                    a += (p.v - q.v) * (p.h + q.h);
                    b += (p.h - q.h) * (p.u + q.u);
                    c += (p.u - q.u) * (p.v + q.v);
                    o.u += p.u;
                    o.v += p.v;
                    o.h += p.h;
                }
                let k = R::ONE / R::lit(hs.len() as f64);
                let o = P2 {
                    u: o.u * k,
                    v: o.v * k,
                    h: o.h * k,
                };
                let norm = (a * a + b * b + c * c).sqrt();
                if !(c > R::lit(MIN_FACE_COS) * norm) {
                    return None;
                }
                let plane = HeightPlane {
                    origin: o,
                    du: -a / c,
                    dv: -b / c,
                };
                Some(Feature::Polygon(hull, plane))
            }
        }
    }
}

/// The 2D convex hull (counter-clockwise, Andrew's monotone chain) of
/// `pts` sorted by `(u, v)`; vertices within `len_tol` of the chord of
/// their neighbours are dropped. A collinear set gives its two ends.
fn convex_hull<R: Real>(pts: &[P2<R>], len_tol: R) -> Poly<R> {
    let mut hull = Poly::new();
    // Lower chain, then upper chain; `keep` says whether c turns left of
    // the chord a -> b by more than the tolerance.
    let keep = |a: P2<R>, b: P2<R>, c: P2<R>| cross2(a, b, c) > len_tol * dist2(a, c);
    for pass in 0..2 {
        let start = hull.len();
        for k in 0..pts.len() {
            let p = if pass == 0 {
                pts[k]
            } else {
                pts[pts.len() - 1 - k]
            };
            while hull.len() >= start + 2 && {
                let h = hull.as_slice();
                !keep(h[h.len() - 2], h[h.len() - 1], p)
            } {
                hull.truncate(hull.len() - 1);
            }
            hull.push(p);
        }
        // The last point of each chain starts the other.
        hull.truncate(hull.len().saturating_sub(1));
    }
    // Merge vertices closer than the tolerance (the chains' ends).
    let mut out = Poly::new();
    for &p in hull.as_slice() {
        let near_last = out
            .as_slice()
            .last()
            .is_some_and(|&q| dist2(q, p) <= len_tol);
        if !near_last {
            out.push(p);
        }
    }
    while out.len() > 1 && dist2(out.as_slice()[0], out.as_slice()[out.len() - 1]) <= len_tol {
        out.truncate(out.len() - 1);
    }
    out
}

/// One vertex of a patch: 2D position and the heights of A's core and
/// B's core there.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PatchPoint<R> {
    pub u: R,
    pub v: R,
    pub h_a: R,
    pub h_b: R,
}

/// The patch of `fa` (A's feature) and `fb` (B's), vertex by vertex into
/// `emit`. `len_tol` (meters) is the lateral tolerance of parallel
/// segments; `parallel_sin` the sine below which two segments count as
/// parallel. Pairs without an area or a parallel overlap give nothing.
pub(crate) fn patch<R: Real>(
    fa: &Feature<R>,
    fb: &Feature<R>,
    len_tol: R,
    parallel_sin: R,
    mut emit: impl FnMut(PatchPoint<R>),
) {
    match (fa, fb) {
        (Feature::Polygon(pa, ha), Feature::Polygon(pb, hb)) => {
            let clipped = clip_polygon(pb.as_slice(), pa.as_slice());
            for p in clipped.as_slice() {
                emit(PatchPoint {
                    u: p.u,
                    v: p.v,
                    h_a: ha.height(p.u, p.v),
                    h_b: hb.height(p.u, p.v),
                });
            }
        }
        (Feature::Polygon(pa, ha), Feature::Segment(s0, s1)) => {
            clip_segment(*s0, *s1, pa.as_slice(), |p| {
                emit(PatchPoint {
                    u: p.u,
                    v: p.v,
                    h_a: ha.height(p.u, p.v),
                    h_b: p.h,
                })
            });
        }
        (Feature::Segment(s0, s1), Feature::Polygon(pb, hb)) => {
            clip_segment(*s0, *s1, pb.as_slice(), |p| {
                emit(PatchPoint {
                    u: p.u,
                    v: p.v,
                    h_a: p.h,
                    h_b: hb.height(p.u, p.v),
                })
            });
        }
        (Feature::Polygon(pa, ha), Feature::Point(p)) if inside(*p, pa.as_slice()) => {
            emit(PatchPoint {
                u: p.u,
                v: p.v,
                h_a: ha.height(p.u, p.v),
                h_b: p.h,
            });
        }
        (Feature::Point(p), Feature::Polygon(pb, hb)) if inside(*p, pb.as_slice()) => {
            emit(PatchPoint {
                u: p.u,
                v: p.v,
                h_a: p.h,
                h_b: hb.height(p.u, p.v),
            });
        }
        (Feature::Segment(a0, a1), Feature::Segment(b0, b1)) => {
            parallel_overlap(*a0, *a1, *b0, *b1, len_tol, parallel_sin, emit);
        }
        _ => {}
    }
}

/// `p` inside (or on) the counter-clockwise polygon `poly`.
fn inside<R: Real>(p: P2<R>, poly: &[P2<R>]) -> bool {
    (0..poly.len()).all(|i| cross2(poly[i], poly[(i + 1) % poly.len()], p) >= R::ZERO)
}

/// Sutherland–Hodgman: `subject` clipped by the counter-clockwise convex
/// polygon `clip` (heights interpolated along the subject's edges).
fn clip_polygon<R: Real>(subject: &[P2<R>], clip: &[P2<R>]) -> Poly<R> {
    // Two buffers, read and written in turn (no copy between passes).
    let mut bufs = [Poly::new(), Poly::new()];
    for &p in subject {
        bufs[0].push(p);
    }
    let mut cur = 0;
    for i in 0..clip.len() {
        let (e0, e1) = (clip[i], clip[(i + 1) % clip.len()]);
        let [a, b] = &mut bufs;
        let (src, dst) = if cur == 0 { (&*a, b) } else { (&*b, a) };
        dst.truncate(0);
        let s = src.as_slice();
        for j in 0..s.len() {
            let (p, q) = (s[j], s[(j + 1) % s.len()]);
            let (dp, dq) = (cross2(e0, e1, p), cross2(e0, e1, q));
            if dp >= R::ZERO {
                dst.push(p);
            }
            if (dp >= R::ZERO) != (dq >= R::ZERO) {
                dst.push(p.lerp(q, dp / (dp - dq)));
            }
        }
        cur = 1 - cur;
        if bufs[cur].len() == 0 {
            break;
        }
    }
    let [a, b] = bufs;
    if cur == 0 {
        a
    } else {
        b
    }
}

/// The part of segment `s0 s1` inside the counter-clockwise polygon
/// `poly` (Cyrus–Beck), its ends (one when it is a point) into `emit`.
fn clip_segment<R: Real>(s0: P2<R>, s1: P2<R>, poly: &[P2<R>], mut emit: impl FnMut(P2<R>)) {
    let (mut t0, mut t1) = (R::ZERO, R::ONE);
    for i in 0..poly.len() {
        let (e0, e1) = (poly[i], poly[(i + 1) % poly.len()]);
        // Inside when f(t) = f0 + t (f1 - f0) >= 0.
        let (f0, f1) = (cross2(e0, e1, s0), cross2(e0, e1, s1));
        if f0 < R::ZERO && f1 < R::ZERO {
            return;
        }
        if f0 < R::ZERO {
            t0 = t0.max_of(f0 / (f0 - f1));
        } else if f1 < R::ZERO {
            t1 = t1.min_of(f0 / (f0 - f1));
        }
    }
    if !(t0 <= t1) {
        return;
    }
    emit(s0.lerp(s1, t0));
    if t1 > t0 {
        emit(s0.lerp(s1, t1));
    }
}

/// Two segments parallel within `parallel_sin` and within `len_tol` of
/// each other's line: the ends of their overlap, with both heights.
fn parallel_overlap<R: Real>(
    a0: P2<R>,
    a1: P2<R>,
    b0: P2<R>,
    b1: P2<R>,
    len_tol: R,
    parallel_sin: R,
    mut emit: impl FnMut(PatchPoint<R>),
) {
    let (du, dv) = (a1.u - a0.u, a1.v - a0.v);
    let (eu, ev) = (b1.u - b0.u, b1.v - b0.v);
    let (la, lb) = ((du * du + dv * dv).sqrt(), (eu * eu + ev * ev).sqrt());
    if !(la > R::ZERO && lb > R::ZERO) {
        return;
    }
    if (du * ev - dv * eu).abs() > parallel_sin * la * lb {
        return;
    }
    // Lateral offset of B's ends from A's line.
    let off = |p: P2<R>| ((p.u - a0.u) * dv - (p.v - a0.v) * du).abs() / la;
    if off(b0) > len_tol || off(b1) > len_tol {
        return;
    }
    // Parameters of B's ends along A, and the overlap with [0, 1].
    let along = |p: P2<R>| ((p.u - a0.u) * du + (p.v - a0.v) * dv) / (la * la);
    let (tb0, tb1) = (along(b0), along(b1));
    let lo = tb0.min_of(tb1).max_of(R::ZERO);
    let hi = tb0.max_of(tb1).min_of(R::ONE);
    if !(lo <= hi) {
        return;
    }
    let span = tb1 - tb0;
    for (k, t) in [lo, hi].into_iter().enumerate() {
        if k == 1 && !(hi > lo) {
            break;
        }
        let pa = a0.lerp(a1, t);
        let s = if span != R::ZERO {
            ((t - tb0) / span).max_of(R::ZERO).min_of(R::ONE)
        } else {
            R::ZERO
        };
        let pb = b0.lerp(b1, s);
        emit(PatchPoint {
            u: pa.u,
            v: pa.v,
            h_a: pa.h,
            h_b: pb.h,
        });
    }
}
