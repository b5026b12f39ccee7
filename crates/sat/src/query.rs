//! The separating-axis test between two posed hulls, with inscribed-sphere
//! culling of faces and edges and the Gauss-map test on edge pairs.
//!
//! All computations are done in A's frame: B's vertices and normals are
//! mapped through `pose_ab` (B in A's frame) on the fly, nothing is stored.
//!
//! The culling bound. A contains the ball `(c_A, r_A)` and B the ball
//! `(c_B, r_B)`, so along any unit axis `n` pointing from A to B the gap of
//! the projected intervals is at most `n·d - r_A - r_B`, `d = c_B - c_A`:
//! B's lowest point is at most `n·c_B - r_B` and A's highest at least
//! `n·c_A + r_A`. A face whose normal cannot beat the best separation found
//! so far under this bound is skipped without projecting a vertex. For an
//! edge, every axis it can build lies on its Gauss-map arc, and the largest
//! `n·d` on the arc is `|w|` (`w` the projection of `d` on the arcs' plane)
//! when `w` lies inside the arc, or else the larger end value: see
//! [`edge_is_candidate`].

use crate::hull_data::SatHull;
use heapless::Vec as HVec;
use mink_support::{HullIndex, Iso3, Real, Vec3};

/// Round-off slack of the culling bound, in units of `R::EPSILON` times the
/// size of the problem (the distance between the sphere centres plus both
/// hulls' extents). The hulls' own flatness tolerances are added to it, so
/// a face or edge is culled only when it provably cannot win.
pub const CULL_ROUNDING_EPS: f64 = 256.0;

/// Two edges whose unit directions have a cross product shorter than this
/// many `sqrt(R::EPSILON)` are parallel and build no axis: parallel edges
/// add no face to the Minkowski difference (the face tests cover them).
pub const EDGE_PARALLEL_SQRT_EPS: f64 = 4.0;

/// Below this `1 - cos²` of an edge's arc (its two faces nearly coplanar)
/// the interior bound is not trusted and the edge is kept, in units of
/// `R::EPSILON`.
pub const ARC_PARALLEL_EPS: f64 = 64.0;

/// How many of B's surviving edges (mapped into A's frame) are held at
/// once on the stack before the edge pairs are formed; more survivors are
/// processed in further batches, never dropped. 64 entries are 3 KiB in
/// `f32` and 6 KiB in `f64`.
pub const EDGE_BATCH_CAPACITY: usize = 64;

const _: () = assert!(EDGE_BATCH_CAPACITY > 0);

/// Whether the inscribed-sphere culling is on (the normal case) or off (every
/// face tested and every edge pair formed: the reference the benchmarks
/// measure the gain against). The Gauss-map test runs either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Culling {
    /// Cull faces and edges with the inscribed-sphere bound.
    On,
    /// Test every face and every edge pair.
    Off,
}

/// The feature that defines a separating axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SatFeature {
    /// A face of A: the axis is its outward normal.
    FaceA(HullIndex),
    /// A face of B: the axis is minus its outward normal.
    FaceB(HullIndex),
    /// An edge of A and an edge of B (indices into their edge lists) whose
    /// Gauss-map arcs cross: the axis is the cross product of their
    /// directions, pointing out of A.
    EdgePair(HullIndex, HullIndex),
}

/// One separating-axis candidate.
#[derive(Clone, Copy, Debug, PartialEq)]
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
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SatCounters {
    /// Faces (of A and B) whose separation was computed by projecting the
    /// other hull's vertices.
    pub faces_tested: u32,
    /// Faces skipped by the inscribed-sphere bound.
    pub faces_culled: u32,
    /// Edges of A culled by the Gauss-arc bound.
    pub edges_culled_a: u32,
    /// Edges of B culled by the Gauss-arc bound.
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
    /// beats `face_a`; `None` when every face of B was culled.
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
/// With [`Culling::On`], A's faces are seeded with the face most aligned
/// with `d = c_B - c_A` (inscribed-sphere centres) and B's with the face
/// most aligned with `-d`; then faces whose sphere bound cannot beat the
/// best so far are skipped, and edges whose Gauss-arc bound cannot beat
/// the best face are dropped before any pair is formed. The answer is the
/// same as without culling (up to round-off); only the counters change.
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
    match sat_local(a, b, &pose_ab, culling) {
        Some(mut r) => {
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
        None => SatResult::failed(SatStatus::Empty),
    }
}

/// The smallest `dir · v` over `vertices` (`R::MAX` when empty).
#[inline(always)]
fn min_projection<R: Real>(vertices: &[Vec3<R>], dir: Vec3<R>) -> R {
    let mut m = R::MAX;
    for &v in vertices {
        let p = dir.dot(v);
        if p < m {
            m = p;
        }
    }
    m
}

/// `true` when an edge whose arc runs between the unit normals `n1` and
/// `n2` (`c = n1·n2`) can build an axis `n` with `n·d >= bound`, given
/// `a1 = n1·d` and `a2 = n2·d`.
///
/// Derivation: write the projection of `d` on the plane of `n1, n2` as
/// `w = b1 n1 + b2 n2`. Dotting with `n1` and `n2` gives `a1 = b1 + b2 c`
/// and `a2 = b1 c + b2`, so with `s = 1 - c²`: `b1 = (a1 - a2 c) / s`,
/// `b2 = (a2 - a1 c) / s`, and `|w|² = b1 a1 + b2 a2 = t / s` with
/// `t = a1² + a2² - 2 a1 a2 c`. When `b1, b2 >= 0` (`w` inside the arc) the
/// largest `n·d` on the arc is `|w|`, so the edge survives when
/// `bound <= 0` or `t >= bound² s`. Otherwise the largest value is at an
/// end, `max(a1, a2)`. Nearly coplanar faces (`s` tiny) keep the edge.
#[inline(always)]
pub fn edge_is_candidate<R: Real>(a1: R, a2: R, c: R, bound: R) -> bool {
    if a1.max_of(a2) >= bound {
        return true;
    }
    let s = R::ONE - c * c;
    let inside = a1 >= c * a2 && a2 >= c * a1;
    if !inside {
        return false;
    }
    if bound <= R::ZERO || s < R::EPSILON * R::lit(ARC_PARALLEL_EPS) {
        return true;
    }
    let t = a1 * a1 + a2 * a2 - R::TWO * a1 * a2 * c;
    t >= bound * bound * s
}

/// One of B's surviving edges, mapped into A's frame.
#[derive(Clone, Copy)]
struct EdgeB<R> {
    index: HullIndex,
    /// First vertex, A's frame.
    origin: Vec3<R>,
    /// Unit direction, A's frame.
    direction: Vec3<R>,
    /// Minus the left face's normal, A's frame (B's Gauss map is negated in
    /// the Minkowski difference).
    neg_n1: Vec3<R>,
    /// Minus the right face's normal, A's frame.
    neg_n2: Vec3<R>,
}

/// The running state of the edge stage.
struct EdgeSearch<R> {
    best: Option<(HullIndex, HullIndex, R, Vec3<R>)>,
    a_counted: bool,
}

/// The SAT in A's frame (`pose_ab` = B in A's frame, finite): normals in
/// the result are in A's frame. `None` for a hull without faces or vertices.
pub(crate) fn sat_local<R: Real>(
    a: &SatHull<'_, R>,
    b: &SatHull<'_, R>,
    pose_ab: &Iso3<R>,
    culling: Culling,
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
    let cb = pose_ab.transform_point(sb.center);
    let d = cb - sa.center;
    let d_b = rot.transpose_mul(d); // d in B's frame
    let scale = d.norm() + sa.center.norm() + a.extent() + b.extent();
    let slack = ha.tolerance() + hb.tolerance() + R::EPSILON * R::lit(CULL_ROUNDING_EPS) * scale;
    let radii = sa.radius + sb.radius - slack;

    // Faces of A: separation along n is min over B of n·x minus the offset.
    let face_a_sep = |f: usize| -> R {
        let p = pa[f];
        min_projection(vb, rot.transpose_mul(p.normal)) + p.normal.dot(t) - p.offset
    };
    let seed_a = argmax(pa.iter().map(|p| p.normal.dot(d)));
    let mut best_a = (seed_a, face_a_sep(seed_a));
    counters.faces_tested += 1;
    for (f, p) in pa.iter().enumerate() {
        if f == seed_a {
            continue;
        }
        if cull && p.normal.dot(d) - radii < best_a.1 {
            counters.faces_culled += 1;
            continue;
        }
        counters.faces_tested += 1;
        let s = face_a_sep(f);
        if s > best_a.1 {
            best_a = (f, s);
        }
    }

    // Faces of B (normal m, B's frame; the axis from A to B is -R m): the
    // separation is min over A of (R m)·p minus (R m)·t minus the offset,
    // and the sphere bound is -m·d_B - r.
    let face_b_sep = |f: usize| -> R {
        let p = pb[f];
        let m = rot.mul_vec(p.normal);
        min_projection(va, m) - m.dot(t) - p.offset
    };
    let mut best_b: Option<(usize, R)> = None;
    let beat = |best_b: &Option<(usize, R)>| match best_b {
        Some((_, s)) => best_a.1.max_of(*s),
        None => best_a.1,
    };
    let seed_b = argmax(pb.iter().map(|p| -p.normal.dot(d_b)));
    let order = core::iter::once(seed_b).chain((0..pb.len()).filter(|&f| f != seed_b));
    for f in order {
        if cull && -pb[f].normal.dot(d_b) - radii < beat(&best_b) {
            counters.faces_culled += 1;
            continue;
        }
        counters.faces_tested += 1;
        let s = face_b_sep(f);
        if best_b.is_none_or(|(_, bs)| s > bs) {
            best_b = Some((f, s));
        }
    }
    let max_face = beat(&best_b);

    // Edges: cull each by its arc bound against the best face, then form the
    // pairs of survivors in batches of B edges mapped into A's frame.
    let edge_bound = max_face + radii;
    let mut search = EdgeSearch {
        best: None,
        a_counted: false,
    };
    let mut batch: HVec<EdgeB<R>, EDGE_BATCH_CAPACITY> = HVec::new();
    let (ea, eb) = (ha.edges(), hb.edges());
    let (arcs_a, arcs_b) = (a.arcs(), b.arcs());
    let neg_d_b = -d_b;
    for (j, (e, arc)) in eb.iter().zip(arcs_b.iter()).enumerate() {
        let (Some(m1), Some(m2), Some(&o)) = (
            pb.get(e.faces[0] as usize),
            pb.get(e.faces[1] as usize),
            vb.get(e.vertices[0] as usize),
        ) else {
            continue;
        };
        let keep = !cull
            || edge_is_candidate(
                m1.normal.dot(neg_d_b),
                m2.normal.dot(neg_d_b),
                arc.cos,
                edge_bound,
            );
        if !keep {
            counters.edges_culled_b += 1;
            continue;
        }
        let item = EdgeB {
            index: j as HullIndex,
            origin: pose_ab.transform_point(o),
            direction: rot.mul_vec(arc.direction),
            neg_n1: -rot.mul_vec(m1.normal),
            neg_n2: -rot.mul_vec(m2.normal),
        };
        if let Err(item) = batch.push(item) {
            pair_batch(a, &batch, d, edge_bound, cull, &mut search, &mut counters);
            batch.clear();
            // The batch was just emptied and has room (capacity > 0).
            let _ = batch.push(item);
        }
    }
    if !batch.is_empty() || !search.a_counted {
        pair_batch(a, &batch, d, edge_bound, cull, &mut search, &mut counters);
    }
    let pairs_total = ea.len().min(arcs_a.len()) as u64 * eb.len().min(arcs_b.len()) as u64;
    counters.edge_pairs_culled = pairs_total.saturating_sub(counters.edge_pairs_tested);

    let face_a = SatAxis {
        feature: SatFeature::FaceA(best_a.0 as HullIndex),
        separation: best_a.1,
        normal: pa[best_a.0].normal,
    };
    let face_b = best_b.map(|(f, s)| SatAxis {
        feature: SatFeature::FaceB(f as HullIndex),
        separation: s,
        normal: -rot.mul_vec(pb[f].normal),
    });
    let edges = search.best.map(|(i, j, s, n)| SatAxis {
        feature: SatFeature::EdgePair(i, j),
        separation: s,
        normal: n,
    });
    let mut best = face_a;
    for cand in [face_b, edges].into_iter().flatten() {
        if cand.separation > best.separation {
            best = cand;
        }
    }
    Some(SatResult {
        status: SatStatus::Ok,
        best,
        face_a,
        face_b,
        edges,
        counters,
    })
}

/// Index of the largest value (0 for an empty or all-NaN sequence).
fn argmax<R: Real>(values: impl Iterator<Item = R>) -> usize {
    let mut best = (0, -R::INFINITY);
    for (i, v) in values.enumerate() {
        if v > best.1 {
            best = (i, v);
        }
    }
    best.0
}

/// Forms every pair of a surviving edge of A with an edge of `batch`, runs
/// the Gauss-map test and keeps the best separation in `search`.
fn pair_batch<R: Real>(
    a: &SatHull<'_, R>,
    batch: &[EdgeB<R>],
    d: Vec3<R>,
    edge_bound: R,
    cull: bool,
    search: &mut EdgeSearch<R>,
    counters: &mut SatCounters,
) {
    let ha = a.hull();
    let (va, pa) = (ha.vertices(), ha.planes());
    let parallel = R::sqrt_epsilon() * R::lit(EDGE_PARALLEL_SQRT_EPS);
    let count_a = !search.a_counted;
    search.a_counted = true;
    for (i, (e, arc)) in ha.edges().iter().zip(a.arcs().iter()).enumerate() {
        let (Some(n1), Some(n2), Some(&o)) = (
            pa.get(e.faces[0] as usize),
            pa.get(e.faces[1] as usize),
            va.get(e.vertices[0] as usize),
        ) else {
            continue;
        };
        let (n1, n2) = (n1.normal, n2.normal);
        if cull && !edge_is_candidate(n1.dot(d), n2.dot(d), arc.cos, edge_bound) {
            if count_a {
                counters.edges_culled_a += 1;
            }
            continue;
        }
        let ea = arc.direction;
        counters.edge_pairs_tested += batch.len() as u64;
        for eb in batch {
            // Gauss-map test: the arcs (n1, n2) of A and (-m1, -m2) of B
            // cross. With b×a ∝ -e_A and d×c ∝ -e_B (positive factors), the
            // classic sign conditions become products of these dots,
            // checked cheapest-reject first.
            let c_ea = eb.neg_n1.dot(ea);
            let d_ea = eb.neg_n2.dot(ea);
            if c_ea * d_ea >= R::ZERO {
                continue;
            }
            let a_eb = n1.dot(eb.direction);
            let b_eb = n2.dot(eb.direction);
            if !(a_eb * b_eb < R::ZERO && c_ea * b_eb > R::ZERO) {
                continue;
            }
            let l = ea.cross(eb.direction);
            let len = l.norm();
            if len < parallel {
                continue;
            }
            counters.minkowski_faces += 1;
            let mut n = l / len;
            // The crossing lies on A's arc, which is shorter than a half
            // circle: the axis out of A has a positive dot with n1 + n2.
            if n.dot(n1 + n2) < R::ZERO {
                n = -n;
            }
            let s = n.dot(eb.origin - o);
            if search.best.is_none_or(|(_, _, bs, _)| s > bs) {
                search.best = Some((i as HullIndex, eb.index, s, n));
            }
        }
    }
}
