//! Face clipping and contact reduction, in the reference hull's frame.
//!
//! The incident face (the face of the other hull most anti-parallel to the
//! reference normal) is clipped against the side planes of the reference
//! face (Sutherland–Hodgman), points above the reference plane by more than
//! the speculative margin are dropped, and the rest are reduced to at most
//! [`MAX_MANIFOLD_POINTS`]: the deepest, then the points that maximize the
//! area they span.

use crate::hull_data::SatHull;
use heapless::Vec as HVec;
use mink_support::{HullIndex, Iso3, Real, Vec3};

/// The most points a manifold holds.
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// The most vertices the clipped incident polygon may reach: the incident
/// face's vertex count plus one per side plane of the reference face. A
/// pair of faces beyond it gives
/// [`ManifoldStatus::Capacity`](crate::ManifoldStatus::Capacity).
pub const MAX_CLIP_VERTICES: usize = 64;

const _: () = assert!(MAX_CLIP_VERTICES >= 2 * MAX_MANIFOLD_POINTS);

/// The marker for "no vertex" in a [`FeatureId`].
pub const NO_FEATURE: HullIndex = HullIndex::MAX;

/// Where a contact point comes from, stable across frames while the same
/// features touch: compare ids to match points of consecutive manifolds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FeatureId {
    /// The reference feature: for a face contact the face's index (of A or
    /// B, see `flipped`), for an edge contact A's edge.
    pub reference: HullIndex,
    /// The incident feature: the incident face's index, or B's edge.
    pub incident: HullIndex,
    /// The reference side edge that clipped the point, by its first vertex
    /// (in the reference face's loop), or [`NO_FEATURE`].
    pub reference_vertex: HullIndex,
    /// The incident vertex the point is, or the first vertex of the
    /// incident edge it was clipped from ([`NO_FEATURE`] for edge contacts).
    pub incident_vertex: HullIndex,
    /// `true` when the reference face belongs to B.
    pub flipped: bool,
}

/// One contact point.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ContactPoint<R> {
    /// Midway between the two surfaces, world frame, meters: the point on A
    /// is `position - normal * separation / 2`, the point on B
    /// `position + normal * separation / 2`.
    pub position: Vec3<R>,
    /// Signed gap along the manifold normal, meters: negative when
    /// overlapping (minus the depth).
    pub separation: R,
    /// The features the point comes from.
    pub id: FeatureId,
}

/// A vertex of the polygon being clipped, reference frame.
#[derive(Clone, Copy)]
pub(crate) struct ClipVertex<R> {
    pub p: Vec3<R>,
    pub reference_vertex: HullIndex,
    pub incident_vertex: HullIndex,
}

/// Why face clipping gave up.
pub(crate) enum ClipError {
    /// The polygon outgrew [`MAX_CLIP_VERTICES`].
    Capacity,
}

/// The incident face of `inc` for the reference normal `n` (reference
/// frame): the face whose normal, mapped by `pose_ri` (incident hull in
/// the reference frame), is most anti-parallel to `n`.
pub(crate) fn incident_face<R: Real>(inc: &SatHull<'_, R>, pose_ri: &Iso3<R>, n: Vec3<R>) -> usize {
    let local = pose_ri.rotation.transpose_mul(n);
    let mut best = (0, R::INFINITY);
    for (f, p) in inc.hull().planes().iter().enumerate() {
        let c = p.normal.dot(local);
        if c < best.1 {
            best = (f, c);
        }
    }
    best.0
}

/// A clipping buffer: one polygon, reference frame.
pub(crate) type ClipPolygon<R> = HVec<ClipVertex<R>, MAX_CLIP_VERTICES>;

/// Clips incident face `inc_face` of `inc` (posed by `pose_ri` in the
/// reference frame) against the side planes of face `ref_face` of `refh`,
/// and returns the clipped polygon (reference frame), which lives in one
/// of the two buffers `bufs`: each side plane clips one buffer into the
/// other, so no polygon is ever copied.
pub(crate) fn clip_incident<'b, R: Real>(
    refh: &SatHull<'_, R>,
    ref_face: usize,
    inc: &SatHull<'_, R>,
    inc_face: usize,
    pose_ri: &Iso3<R>,
    bufs: &'b mut [ClipPolygon<R>; 2],
) -> Result<&'b [ClipVertex<R>], ClipError> {
    let [first, second] = bufs;
    let (mut poly, mut next) = (first, second);
    poly.clear();
    let ivs = inc.hull().vertices();
    for &v in inc.hull().face(inc_face) {
        let Some(&p) = ivs.get(v as usize) else {
            continue;
        };
        let cv = ClipVertex {
            p: pose_ri.transform_point(p),
            reference_vertex: NO_FEATURE,
            incident_vertex: v,
        };
        poly.push(cv).map_err(|_| ClipError::Capacity)?;
    }
    let rh = refh.hull();
    let (rvs, lp) = (rh.vertices(), rh.face(ref_face));
    let Some(plane) = rh.planes().get(ref_face) else {
        return Ok(poly.as_slice());
    };
    for (k, &v0) in lp.iter().enumerate() {
        let v1 = lp[(k + 1) % lp.len()];
        let (Some(&p0), Some(&p1)) = (rvs.get(v0 as usize), rvs.get(v1 as usize)) else {
            continue;
        };
        // Outward side normal of a counter-clockwise loop: edge × normal.
        let side = (p1 - p0).cross(plane.normal);
        let offset = side.dot(p0);
        next.clear();
        // Each vertex a (if inside), then where the edge a → b crosses the
        // plane, for the edges in loop order.
        let Some(&first) = poly.first() else {
            break;
        };
        let mut a = first;
        let mut da = side.dot(a.p) - offset;
        for &b in poly.iter().skip(1).chain(poly.first()) {
            let db = side.dot(b.p) - offset;
            if da <= R::ZERO {
                next.push(a).map_err(|_| ClipError::Capacity)?;
            }
            if (da <= R::ZERO) != (db <= R::ZERO) {
                let t = da / (da - db);
                let cv = ClipVertex {
                    p: a.p + (b.p - a.p) * t,
                    reference_vertex: v0,
                    incident_vertex: if da <= R::ZERO {
                        b.incident_vertex
                    } else {
                        a.incident_vertex
                    },
                };
                next.push(cv).map_err(|_| ClipError::Capacity)?;
            }
            a = b;
            da = db;
        }
        core::mem::swap(&mut poly, &mut next);
        if poly.is_empty() {
            break;
        }
    }
    Ok(poly.as_slice())
}

/// Twice the signed area of the triangle `(a, b, c)` seen along `n`.
#[inline(always)]
fn area2<R: Real>(a: Vec3<R>, b: Vec3<R>, c: Vec3<R>, n: Vec3<R>) -> R {
    (b - a).cross(c - a).dot(n)
}

/// Index of the item of `points` with the largest `score` (0 when none).
fn pick<R: Real, T>(points: &[T], score: impl Fn(&T) -> R) -> usize {
    let mut best = (0, -R::INFINITY);
    for (i, q) in points.iter().enumerate() {
        let s = score(q);
        if s > best.1 {
            best = (i, s);
        }
    }
    best.0
}

/// Reduces `points` (with their separations) to at most
/// [`MAX_MANIFOLD_POINTS`]: the deepest point, the point farthest from it,
/// the point spanning the largest triangle with those two, and the point
/// adding the most area outside that triangle (`n` the plane's normal).
pub(crate) fn reduce<R: Real, T: Copy>(
    points: &[(Vec3<R>, R, T)],
    n: Vec3<R>,
) -> HVec<(Vec3<R>, R, T), MAX_MANIFOLD_POINTS> {
    let mut out = HVec::new();
    if points.len() <= MAX_MANIFOLD_POINTS {
        for &p in points {
            let _ = out.push(p);
        }
        return out;
    }
    let i0 = pick(points, |q| -q.1);
    let p0 = points[i0].0;
    let i1 = pick(points, |q| (q.0 - p0).norm_squared());
    let p1 = points[i1].0;
    let i2 = pick(points, |q| area2(p0, p1, q.0, n).abs());
    let p2 = points[i2].0;
    // Orient the triangle counter-clockwise about n, then take the point
    // farthest outside one of its edges (largest area added).
    let (p1, p2) = if area2(p0, p1, p2, n) < R::ZERO {
        (p2, p1)
    } else {
        (p1, p2)
    };
    let i3 = pick(points, |q| {
        [(p0, p1), (p1, p2), (p2, p0)]
            .iter()
            .map(|&(u, v)| -area2(u, v, q.0, n))
            .fold(R::ZERO, |m, a| m.max_of(a))
    });
    for i in [i0, i1, i2, i3] {
        if out.iter().all(|q: &(Vec3<R>, R, T)| q.0 != points[i].0) {
            let _ = out.push(points[i]);
        }
    }
    out
}

/// The closest points of the segments `p0 → p1` and `q0 → q1`: the
/// parameters `(s, t)` in `[0, 1]` of the closest pair (a pair of the
/// nearest when the segments are parallel).
pub(crate) fn closest_segment_params<R: Real>(
    p0: Vec3<R>,
    p1: Vec3<R>,
    q0: Vec3<R>,
    q1: Vec3<R>,
) -> (R, R) {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let clamp = |x: R| x.max_of(R::ZERO).min_of(R::ONE);
    if a <= R::ZERO && e <= R::ZERO {
        return (R::ZERO, R::ZERO);
    }
    if a <= R::ZERO {
        return (R::ZERO, clamp(f / e));
    }
    let c = d1.dot(r);
    if e <= R::ZERO {
        return (clamp(-c / a), R::ZERO);
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    let mut s = if denom > R::EPSILON * a * e {
        clamp((b * f - c * e) / denom)
    } else {
        R::ZERO
    };
    let mut t = (b * s + f) / e;
    if t < R::ZERO {
        t = R::ZERO;
        s = clamp(-c / a);
    } else if t > R::ONE {
        t = R::ONE;
        s = clamp((b - c) / a);
    }
    (s, t)
}
