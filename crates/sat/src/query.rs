//! The separating-axis test between two posed hulls, with culling of faces
//! and edges by bounds from inscribed spheres and from vertices, and the
//! Gauss-map test on edge pairs.
//!
//! All computations are done in A's frame, except that B's faces and edges
//! are bounded in B's frame: B's vertices and normals are mapped through
//! `pose_ab` (B in A's frame) only for the faces and edges that are tested.
//!
//! The culling bounds. Along a unit axis `n` from A to B the separation is
//! `s(n) = min_B n·x - max_A n·x`. Any point `p` of B bounds the first term
//! (`min_B n·x <= n·p`), and so does B's inscribed ball `(c_B, r_B)`
//! (`min_B n·x <= n·c_B - r_B`); any point `q` of A bounds the second
//! (`max_A n·x >= n·q`), as does A's ball. For a face of A, `max_A n·x` is
//! its plane offset, so its separation is at most the smaller of the
//! plane distances of `p` and of `c_B` (less `r_B`), where `p` is the
//! vertex of B nearest A's best face so far: near touching, only the faces
//! under that vertex pass. For an edge of A, every axis it can build lies
//! on its Gauss-map arc and passes through its own vertex `o`
//! (`max_A n·x >= n·o`), so `s(n) <= n·(p - o)` and
//! `s(n) <= n·(c_B - o) - r_B`; the largest value of `n·v` on an arc is
//! found without trigonometry (see [`edge_is_candidate`]). B's faces and
//! edges are bounded the same way, with A's vertex nearest B's best face
//! and A's ball. A face or edge is skipped when its bound, plus a round-off
//! slack, cannot beat the best face found so far.

use crate::bounds::FaceBounds;
use crate::edges::EdgeSearch;
use crate::hull_data::SatHull;
use mink_support::{HullIndex, Iso3, Real, Vec3};

/// Round-off slack of the culling bounds, in units of `R::EPSILON` times the
/// size of the problem (the distance between the sphere centres, the
/// centres' distances from their hulls' origins and both hulls' extents).
/// The hulls' own flatness tolerances are added to it, so a face or edge
/// is culled only when it provably cannot win.
pub const CULL_ROUNDING_EPS: f64 = 256.0;

/// Two edges whose unit directions have a cross product shorter than this
/// many `sqrt(R::EPSILON)` are parallel and build no axis: parallel edges
/// add no face to the Minkowski difference (the face tests cover them).
pub const EDGE_PARALLEL_SQRT_EPS: f64 = 4.0;

/// Below this `1 - cos²` of an edge's arc (its two faces nearly coplanar)
/// the interior bound is not trusted and the edge is kept, in units of
/// `R::EPSILON`.
pub const ARC_PARALLEL_EPS: f64 = 64.0;

/// How many surviving edges of each hull (A's in its frame, B's mapped
/// into A's frame) are held at once on the stack before the edge pairs are
/// formed; more survivors are processed in further batches, never dropped.
/// 64 entries per hull are about 3 KiB in `f32` and 6 KiB in `f64`.
pub const EDGE_BATCH_CAPACITY: usize = 64;

const _: () = assert!(EDGE_BATCH_CAPACITY > 0);

/// Hulls with at most this many faces keep their faces' culling bounds on
/// the stack for the edge stage (two values per face: 1 KiB per hull in
/// `f32`, 2 KiB in `f64`); a hull with more has them recomputed whenever
/// an edge needs them, which costs time, never correctness. A power of two.
pub const FACE_BOUND_CAPACITY: usize = 128;

/// Whether the culling (by inscribed spheres and by vertices, see the
/// module documentation) is on (the normal case) or off (every face tested
/// and every edge pair formed: the reference the benchmarks measure the
/// gain against). The Gauss-map test runs either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Culling {
    /// Cull faces and edges by their bounds.
    On,
    /// Test every face and every edge pair.
    Off,
}

/// The feature that defines a separating axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SatFeature {
    /// A face of A: the axis is its outward normal.
    FaceA(HullIndex),
    /// A face of B: the axis is minus its outward normal.
    FaceB(HullIndex),
    /// An edge of A and an edge of B (indices into their edge lists) whose
    /// Gauss-map arcs cross: the axis is the cross product of their
    /// directions ([`GaussArc::direction`](crate::GaussArc::direction)),
    /// pointing out of A, and the separation the gap along it between the
    /// two edges, both ends of each projected.
    EdgePair(HullIndex, HullIndex),
}

/// One separating-axis candidate.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SatAxis<R> {
    /// The feature that defines the axis.
    pub feature: SatFeature,
    /// The gap between the two hulls' projections on the axis, meters:
    /// positive when they are apart along it, negative when they overlap.
    pub separation: R,
    /// The unit axis from A towards B, world frame.
    pub normal: Vec3<R>,
}

/// How a SAT query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SatStatus {
    /// The result holds.
    Ok,
    /// A pose is not finite: the result is a zero separation along `+x`.
    NonFinite,
    /// A hull has no face or no vertex (inconsistent unchecked data): the
    /// result is a zero separation along `+x`.
    Empty,
}

/// What the culling saved, for benchmarks and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SatCounters {
    /// Faces (of A and B) whose separation was computed by projecting the
    /// other hull's vertices.
    pub faces_tested: u32,
    /// Faces skipped by their bound.
    pub faces_culled: u32,
    /// Edges of A culled by the Gauss-arc bound.
    pub edges_culled_a: u32,
    /// Edges of B culled by the Gauss-arc bound (0 when no edge of A
    /// survived: B's edges are then not looked at).
    pub edges_culled_b: u32,
    /// Edge pairs formed and put to the Gauss-map test.
    pub edge_pairs_tested: u64,
    /// Edge pairs never formed because one of their edges was culled.
    pub edge_pairs_culled: u64,
    /// Edge pairs that passed the Gauss-map test (faces of the Minkowski
    /// difference) and whose separation was computed.
    pub minkowski_faces: u64,
}

impl SatCounters {
    /// Share of face tests culled, in `[0, 1]` (0 when there were none).
    pub fn face_cull_ratio(&self) -> f64 {
        let total = self.faces_tested as f64 + self.faces_culled as f64;
        if total > 0.0 {
            self.faces_culled as f64 / total
        } else {
            0.0
        }
    }

    /// Share of edge pairs culled before being formed, in `[0, 1]`.
    pub fn edge_pair_cull_ratio(&self) -> f64 {
        let total = self.edge_pairs_tested as f64 + self.edge_pairs_culled as f64;
        if total > 0.0 {
            self.edge_pairs_culled as f64 / total
        } else {
            0.0
        }
    }
}

/// The result of [`sat`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SatResult<R> {
    /// How the query ended.
    pub status: SatStatus,
    /// The axis of largest separation: the hulls' signed separation along
    /// the best axis (positive: apart, and a lower bound on their distance;
    /// negative: overlapping by at most its magnitude along that axis). On
    /// ties faces win over edges and A's faces over B's.
    pub best: SatAxis<R>,
    /// The best face of A (always tested).
    pub face_a: SatAxis<R>,
    /// The best face of B among those tested: B's best face whenever that
    /// beats `face_a`. Always `Some` (B's seed face is always tested); an
    /// `Option` for compatibility.
    pub face_b: Option<SatAxis<R>>,
    /// The best edge pair among those that survived culling: the best of
    /// all edge pairs whenever that beats both faces; `None` when no pair
    /// passed the Gauss-map test.
    pub edges: Option<SatAxis<R>>,
    /// What the culling saved.
    pub counters: SatCounters,
}

impl<R: Real> SatResult<R> {
    pub(crate) fn failed(status: SatStatus) -> Self {
        let axis = SatAxis {
            feature: SatFeature::FaceA(0),
            separation: R::ZERO,
            normal: Vec3::X,
        };
        Self {
            status,
            best: axis,
            face_a: axis,
            face_b: None,
            edges: None,
            counters: SatCounters::default(),
        }
    }
}

/// The separating-axis test between hull `a` at `pose_a` and hull `b` at
/// `pose_b` (world frame, meters): the largest separation over A's face
/// normals, B's face normals and the edge pairs that form faces of the
/// Minkowski difference, which is the hulls' exact SAT separation.
///
/// With [`Culling::On`], A's faces are seeded with the face whose plane
/// B's inscribed-sphere centre is farthest above, and B's likewise; then
/// faces whose bound (from the other hull's sphere and from its vertex
/// nearest the best face so far) cannot beat the best so far are skipped,
/// and edges whose Gauss-arc bounds cannot beat the best face are dropped
/// before any pair is formed (see the module documentation). The answer is
/// the same as without culling (up to round-off); only the counters change.
///
/// No allocation, no panic: a non-finite pose gives [`SatStatus::NonFinite`]
/// and a hull without faces or vertices [`SatStatus::Empty`]. Normals in the
/// result point from A to B, world frame.
pub fn sat<R: Real>(
    a: &SatHull<'_, R>,
    pose_a: &Iso3<R>,
    b: &SatHull<'_, R>,
    pose_b: &Iso3<R>,
    culling: Culling,
) -> SatResult<R> {
    if !pose_a.is_finite() || !pose_b.is_finite() {
        return SatResult::failed(SatStatus::NonFinite);
    }
    let pose_ab = pose_a.inv_mul(pose_b);
    match sat_local(a, b, &pose_ab, culling, None, Goal::exact()) {
        Some(r) => to_world(r, pose_a),
        None => SatResult::failed(SatStatus::Empty),
    }
}

/// `r` (normals in A's frame) with its normals rotated into the world.
pub(crate) fn to_world<R: Real>(mut r: SatResult<R>, pose_a: &Iso3<R>) -> SatResult<R> {
    let rot = |axis: &mut SatAxis<R>| axis.normal = pose_a.rotation.mul_vec(axis.normal);
    rot(&mut r.best);
    rot(&mut r.face_a);
    if let Some(f) = r.face_b.as_mut() {
        rot(f);
    }
    if let Some(e) = r.edges.as_mut() {
        rot(e);
    }
    r
}

/// The lowest projection `dir · v` over `vertices` and the index of a
/// vertex that has it (`(0, R::MAX)` when empty). Four running minima, one
/// per lane of four consecutive vertices, written as selects: the compare
/// chains overlap and the loop has no data-dependent branch.
#[inline(always)]
pub(crate) fn lowest<R: Real>(vertices: &[Vec3<R>], dir: Vec3<R>) -> (u32, R) {
    let mut value = [R::MAX; 4];
    let mut index = [0u32; 4];
    let mut chunks = vertices.chunks_exact(4);
    let mut base = 0u32;
    for chunk in &mut chunks {
        for lane in 0..4 {
            let p = dir.dot(chunk[lane]);
            let lower = p < value[lane];
            index[lane] = if lower {
                base + lane as u32
            } else {
                index[lane]
            };
            value[lane] = if lower { p } else { value[lane] };
        }
        base += 4;
    }
    for (lane, v) in chunks.remainder().iter().enumerate() {
        let p = dir.dot(*v);
        if p < value[lane] {
            index[lane] = base + lane as u32;
            value[lane] = p;
        }
    }
    let mut best = (index[0], value[0]);
    for lane in 1..4 {
        if value[lane] < best.1 {
            best = (index[lane], value[lane]);
        }
    }
    best
}

/// `true` when an edge whose arc runs between the unit normals `n1` and
/// `n2` (`c = n1·n2`) can build an axis `n` with `n·d >= bound`, given
/// `a1 = n1·d` and `a2 = n2·d` (any vector `d`).
///
/// Derivation: write the projection of `d` on the plane of `n1, n2` as
/// `w = b1 n1 + b2 n2`. Dotting with `n1` and `n2` gives `a1 = b1 + b2 c`
/// and `a2 = b1 c + b2`, so with `s = 1 - c²`: `b1 = (a1 - a2 c) / s`,
/// `b2 = (a2 - a1 c) / s`, and `|w|² = b1 a1 + b2 a2 = t / s` with
/// `t = a1² + a2² - 2 a1 a2 c`. When `b1, b2 >= 0` (`w` inside the arc) the
/// largest `n·d` on the arc is `|w|`, so the edge survives when
/// `bound <= 0` or `t >= bound² s`. Otherwise the largest value is at an
/// end, `max(a1, a2)`. Nearly coplanar faces (`s` tiny) keep the edge.
///
/// Every condition is evaluated and combined without branching, so the
/// query's loops over all edges run without mispredictions.
#[inline(always)]
pub fn edge_is_candidate<R: Real>(a1: R, a2: R, c: R, bound: R) -> bool {
    let end = a1.max_of(a2) >= bound;
    let inside = (a1 >= c * a2) & (a2 >= c * a1);
    let s = R::ONE - c * c;
    let t = a1 * a1 + a2 * a2 - R::TWO * a1 * a2 * c;
    let interior =
        (bound <= R::ZERO) | (s < R::EPSILON * R::lit(ARC_PARALLEL_EPS)) | (t >= bound * bound * s);
    end | (inside & interior)
}

/// What a previous answer for the same pair tells the query: its best
/// feature, tested first (a face as its hull's seed, an edge pair as the
/// bar every other edge must reach).
pub(crate) type Warm = Option<SatFeature>;

/// What the caller needs of the query.
#[derive(Clone, Copy)]
pub(crate) struct Goal<R> {
    /// Stop as soon as an axis separates the hulls by more than this
    /// (meters): the result is then that axis, a lower bound on the SAT
    /// separation, and its other fields are partial.
    pub stop_above: R,
    /// How much better than A's best face B's must be to matter, and than
    /// the best face an edge pair (meters): the manifold's preference. B's
    /// faces and the edges that cannot beat that are culled (0: the exact
    /// query).
    pub prefer: R,
}

impl<R: Real> Goal<R> {
    /// The exact query: every feature that can be the best is examined.
    pub(crate) fn exact() -> Self {
        Self {
            stop_above: R::INFINITY,
            prefer: R::ZERO,
        }
    }
}

/// The SAT in A's frame (`pose_ab` = B in A's frame, finite): normals in
/// the result are in A's frame. `None` for a hull without faces or vertices.
pub(crate) fn sat_local<R: Real>(
    a: &SatHull<'_, R>,
    b: &SatHull<'_, R>,
    pose_ab: &Iso3<R>,
    culling: Culling,
    warm: Warm,
    goal: Goal<R>,
) -> Option<SatResult<R>> {
    let (ha, hb) = (a.hull(), b.hull());
    let (va, vb) = (ha.vertices(), hb.vertices());
    let (pa, pb) = (ha.planes(), hb.planes());
    if va.is_empty() || vb.is_empty() || pa.is_empty() || pb.is_empty() {
        return None;
    }
    let rot = pose_ab.rotation;
    let t = pose_ab.translation;
    let cull = culling == Culling::On;
    let mut counters = SatCounters::default();

    let (sa, sb) = (a.sphere(), b.sphere());
    // B's sphere centre in A's frame, A's in B's frame.
    let cb = pose_ab.transform_point(sb.center);
    let ca = pose_ab.inverse_transform_point(sa.center);
    let scale =
        (cb - sa.center).norm() + sa.center.norm() + sb.center.norm() + a.extent() + b.extent();
    let slack = ha.tolerance() + hb.tolerance() + R::EPSILON * R::lit(CULL_ROUNDING_EPS) * scale;

    // Face f of A: min over B of n·x minus the offset.
    let face_a = |f: usize| -> R {
        let p = pa[f];
        lowest(vb, rot.transpose_mul(p.normal)).1 + p.normal.dot(t) - p.offset
    };
    // Face g of B (normal m, B's frame; the axis from A to B is -R m): min
    // over A of (R m)·x minus (R m)·t minus the offset.
    let face_b = |g: usize| -> R {
        let p = pb[g];
        let m = rot.mul_vec(p.normal);
        lowest(va, m).1 - m.dot(t) - p.offset
    };
    let vertex = |vs: &[Vec3<R>], k: u32| vs.get(k as usize).copied().unwrap_or(Vec3::ZERO);

    // The point bounds go through B's vertex lowest along d = c_B - c_A
    // (A's frame) and A's highest (B's frame): the vertices nearest the
    // other hull when the contact lies between the centres. One pass over
    // each hull's faces computes both bounds; its largest picks the seed.
    let d = cb - sa.center;
    let (k, _) = lowest(vb, rot.transpose_mul(d));
    let near_b = pose_ab.transform_point(vertex(vb, k));
    let (k, _) = lowest(va, -d);
    let near_a = pose_ab.inverse_transform_point(vertex(va, k));
    let mut bounds_a = FaceBounds::new(pa, ha.tolerance(), cb, sb.radius, near_b);
    let mut bounds_b = FaceBounds::new(pb, hb.tolerance(), ca, sa.radius, near_a);
    if cull {
        bounds_a.compute();
        bounds_b.compute();
    }
    let seed_a = match warm {
        Some(SatFeature::FaceA(f)) if (f as usize) < pa.len() => f as usize,
        _ => bounds_a.seed(),
    };
    let seed_b = match warm {
        Some(SatFeature::FaceB(g)) if (g as usize) < pb.len() => g as usize,
        _ => bounds_b.seed(),
    };
    let mut best_a = (seed_a, face_a(seed_a));
    let mut best_b = (seed_b, face_b(seed_b));
    let mut tested = 2u32;
    let face_axes = |best_a: (usize, R), best_b: (usize, R)| {
        let face_a = SatAxis {
            feature: SatFeature::FaceA(best_a.0 as HullIndex),
            separation: best_a.1,
            normal: pa[best_a.0].normal,
        };
        let face_b = SatAxis {
            feature: SatFeature::FaceB(best_b.0 as HullIndex),
            separation: best_b.1,
            normal: -rot.mul_vec(pb[best_b.0].normal),
        };
        (face_a, face_b)
    };
    let stopped = |best_a: (usize, R), best_b: (usize, R), tested: u32| {
        let (face_a, face_b) = face_axes(best_a, best_b);
        let counters = SatCounters {
            faces_tested: tested,
            ..SatCounters::default()
        };
        Some(finish(face_a, Some(face_b), None, counters))
    };
    if best_a.1.max_of(best_b.1) > goal.stop_above {
        return stopped(best_a, best_b, tested);
    }

    // A's faces, culled against A's best only (so that `face_a` is A's
    // best face); four faces' bounds at a time when they are stored.
    if visit_faces(
        (pa.len(), cull.then_some(&bounds_a), seed_a),
        &mut best_a,
        |best| best.1 - slack,
        face_a,
        goal.stop_above,
        &mut tested,
    ) {
        return stopped(best_a, best_b, tested);
    }

    // B's faces, culled against the best face of either hull (past the
    // preference, A's), but never one that could separate the hulls by
    // more than `stop_above`: that face proves there is nothing to find.
    let reach_b = (best_a.1 + goal.prefer).min_of(goal.stop_above);
    if visit_faces(
        (pb.len(), cull.then_some(&bounds_b), seed_b),
        &mut best_b,
        |best| reach_b.max_of(best.1) - slack,
        face_b,
        goal.stop_above,
        &mut tested,
    ) {
        return stopped(best_a, best_b, tested);
    }
    counters.faces_tested = tested;
    counters.faces_culled = (pa.len() + pb.len()) as u32 - tested;

    // Edges: a cached edge pair first, then every pair of surviving edges,
    // culled against the face they must beat (past the preference).
    let face = if best_b.1 > best_a.1 + goal.prefer {
        best_b.1
    } else {
        best_a.1
    };
    let mut edges = EdgeSearch::new(a, b, pose_ab);
    if let Some(SatFeature::EdgePair(i, j)) = warm {
        edges.evaluate_pair(i, j);
    }
    // An edge pair separating by more than `stop_above` always counts,
    // preferred or not: no contact lies within the margin then.
    let bar = (face + goal.prefer).min_of(goal.stop_above);
    let floor = edges.best_separation().map_or(bar, |e| e.max_of(bar)) - slack;
    let culling = cull.then_some((&bounds_a, &bounds_b, floor));
    edges.run(culling, &mut counters);

    let (face_a, face_b) = face_axes(best_a, best_b);
    // The winning pair's separation, from its edges' cross product, loses
    // relative precision as the edges near parallel (f32 above all): it is
    // measured once more as the hulls' support gap along the normalized
    // axis, the SAT quantity itself, never above the edges' own gap.
    let edges = edges.best().map(|(i, j, s, n)| SatAxis {
        feature: SatFeature::EdgePair(i, j),
        separation: (lowest(vb, rot.transpose_mul(n)).1 + n.dot(t) + lowest(va, -n).1).min_of(s),
        normal: n,
    });
    Some(finish(face_a, Some(face_b), edges, counters))
}

/// Tests the faces of one hull, `(count, bounds, seed)`, other than `seed`
/// whose bound (`bounds`; none: every face) reaches `bar(best)`, four
/// bounds at a time when they are stored, keeping the face of largest
/// `separation` in `best` and counting each test in `tested`. Returns
/// `true` as soon as a tested face separates by more than `stop_above`
/// (the caller's early stop).
#[inline(always)]
fn visit_faces<R: Real>(
    (count, bounds, seed): (usize, Option<&FaceBounds<'_, R>>, usize),
    best: &mut (usize, R),
    bar: impl Fn((usize, R)) -> R,
    separation: impl Fn(usize) -> R,
    stop_above: R,
    tested: &mut u32,
) -> bool {
    let mut test = |f: usize, best: &mut (usize, R)| {
        *tested += 1;
        let s = separation(f);
        if s > best.1 {
            *best = (f, s);
        }
        s > stop_above
    };
    match bounds {
        Some(b) if b.stored() => {
            for k in 0..count.div_ceil(4) {
                let mut mask = b.reaching(k, bar(*best));
                while mask != 0 {
                    let f = 4 * k + mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    if f < count && f != seed && test(f, best) {
                        return true;
                    }
                }
            }
        }
        _ => {
            for f in 0..count {
                let culled = bounds.is_some_and(|b| b.face_bound(f) < bar(*best));
                if f != seed && !culled && test(f, best) {
                    return true;
                }
            }
        }
    }
    false
}

/// The result from the best face of A, of B and edge pair: the best of
/// them, ties going to faces over edges and to A over B.
fn finish<R: Real>(
    face_a: SatAxis<R>,
    face_b: Option<SatAxis<R>>,
    edges: Option<SatAxis<R>>,
    counters: SatCounters,
) -> SatResult<R> {
    let mut best = face_a;
    for cand in [face_b, edges].into_iter().flatten() {
        if cand.separation > best.separation {
            best = cand;
        }
    }
    SatResult {
        status: SatStatus::Ok,
        best,
        face_a,
        face_b,
        edges,
        counters,
    }
}
