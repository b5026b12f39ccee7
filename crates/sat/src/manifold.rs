//! Contact manifolds between two hulls from the SAT axis: face contacts by
//! clipping the incident face against the reference face, edge contacts as
//! one point at the closest points of the two edges.

use crate::clip::{
    clip_incident, closest_segment_params, incident_face, reduce, ClipError, ClipPolygon,
    ContactPoint, FeatureId, MAX_MANIFOLD_POINTS, NO_FEATURE,
};
use crate::hull_data::SatHull;
use crate::query::{lowest, sat_local, Culling, Goal, SatAxis, SatCounters, SatFeature, SatResult};
use heapless::Vec as HVec;
use mink_support::{HullIndex, Iso3, Real, Vec3};

/// How much better (meters, as a fraction of the smaller hull's
/// [`extent`](SatHull::extent)) an edge pair must separate than the best
/// face, or B's best face than A's, to be chosen: faces give full
/// manifolds and A as reference keeps ids stable, so near ties go to them.
pub const FEATURE_PREFERENCE_FRACTION: f64 = 1e-3;

/// The points of one manifold.
type Points<R> = HVec<ContactPoint<R>, MAX_MANIFOLD_POINTS>;

/// A contact built on an axis: the axis (A's frame) and its points.
type Built<R> = (SatAxis<R>, Result<Points<R>, ClipError>);

/// How a manifold query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ManifoldStatus {
    /// The manifold holds (it has no point when the hulls are farther apart
    /// than the margin).
    Ok,
    /// A pose or the margin is not finite: no points.
    NonFinite,
    /// A hull has no face or no vertex (inconsistent unchecked data): no
    /// points.
    Empty,
    /// The clipped polygon outgrew
    /// [`MAX_CLIP_VERTICES`](crate::MAX_CLIP_VERTICES): no points.
    Capacity,
}

/// A contact manifold between hulls A and B.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Manifold<R> {
    /// How the query ended.
    pub status: ManifoldStatus,
    /// Unit normal from A towards B, world frame.
    pub normal: Vec3<R>,
    /// The SAT feature the manifold was built from.
    pub feature: SatFeature,
    /// The hulls' SAT separation along `normal`, meters (negative when
    /// overlapping). When it exceeds the margin (no points), it is the gap
    /// along the first axis found to separate the hulls by more than the
    /// margin: a lower bound on the SAT separation.
    pub separation: R,
    /// Up to [`MAX_MANIFOLD_POINTS`] points whose separation is at most the
    /// margin.
    pub points: HVec<ContactPoint<R>, MAX_MANIFOLD_POINTS>,
    /// The SAT query's counters.
    pub counters: SatCounters,
}

impl<R: Real> Manifold<R> {
    pub(crate) fn empty(status: ManifoldStatus) -> Self {
        Self {
            status,
            normal: Vec3::X,
            feature: SatFeature::FaceA(0),
            separation: R::ZERO,
            points: HVec::new(),
            counters: SatCounters::default(),
        }
    }
}

/// The contact manifold of hull `a` at `pose_a` and hull `b` at `pose_b`
/// (world frame, meters), keeping the points whose separation is at most
/// `margin` (meters, the speculative margin; negative values count as 0).
///
/// The SAT axis (with culling) decides the contact type. As soon as an
/// axis separates the hulls by more than the margin the query stops: no
/// points. Otherwise a face (A's, or
/// B's when it separates clearly better) is the reference face; the
/// incident face is the other hull's face most anti-parallel to it; the
/// incident face is clipped against the reference face's side planes, and
/// the points within the margin above the reference plane are reduced to
/// at most 4 (the deepest, then the largest area). An edge pair that
/// separates clearly better than every face gives one point midway between
/// the closest points of the two edges. Each point carries a [`FeatureId`]
/// that stays the same while the same features touch. Overlapping hulls
/// whose chosen feature gives no point (its incident face misses the
/// deepest vertex, a near tie under the preference, or a sliver face
/// nearly coplanar with its neighbour) get their contact from the exact
/// SAT axis or a face next to it, or, as a last resort, one point at the
/// deepest vertex: overlapping hulls always get at least one point.
///
/// No allocation, no panic; a non-finite pose or margin gives
/// [`ManifoldStatus::NonFinite`] and no points.
pub fn manifold<R: Real>(
    a: &SatHull<'_, R>,
    pose_a: &Iso3<R>,
    b: &SatHull<'_, R>,
    pose_b: &Iso3<R>,
    margin: R,
) -> Manifold<R> {
    if !pose_a.is_finite() || !pose_b.is_finite() || !margin.finite() {
        return Manifold::empty(ManifoldStatus::NonFinite);
    }
    let margin = margin.max_of(R::ZERO);
    let pose_ab = pose_a.inv_mul(pose_b);
    let Some(q) = sat_local(a, b, &pose_ab, Culling::On, None, goal(a, b, margin)) else {
        return Manifold::empty(ManifoldStatus::Empty);
    };
    manifold_from(a, pose_a, b, pose_b, &pose_ab, q, margin)
}

/// How much better (meters) an edge pair must separate than the best face,
/// or B's best face than A's, to be chosen.
fn preference<R: Real>(a: &SatHull<'_, R>, b: &SatHull<'_, R>) -> R {
    R::lit(FEATURE_PREFERENCE_FRACTION) * a.extent().min_of(b.extent())
}

/// What the manifold needs of the SAT query: it stops at the first axis
/// that separates the hulls by more than `margin` (no contact can then be
/// within it), and examines only the faces and edges that could win under
/// the preference.
pub(crate) fn goal<R: Real>(a: &SatHull<'_, R>, b: &SatHull<'_, R>, margin: R) -> Goal<R> {
    Goal {
        stop_above: margin,
        prefer: preference(a, b),
    }
}

/// The manifold from the SAT answer `q` in A's frame (`pose_ab` = B in A's
/// frame, every pose finite, `margin >= 0`).
pub(crate) fn manifold_from<R: Real>(
    a: &SatHull<'_, R>,
    pose_a: &Iso3<R>,
    b: &SatHull<'_, R>,
    pose_b: &Iso3<R>,
    pose_ab: &Iso3<R>,
    q: SatResult<R>,
    margin: R,
) -> Manifold<R> {
    // An axis that separates the hulls by more than the margin: no point.
    if q.best.separation > margin {
        let mut out = Manifold::empty(ManifoldStatus::Ok);
        out.normal = pose_a.rotation.mul_vec(q.best.normal);
        out.feature = q.best.feature;
        out.separation = q.best.separation;
        out.counters = q.counters;
        return out;
    }
    let tol = preference(a, b);
    // Faces first, A before B, edges only when clearly better.
    let mut face = q.face_a;
    if let Some(fb) = q.face_b {
        if fb.separation > face.separation + tol {
            face = fb;
        }
    }
    let chosen = match q.edges {
        Some(e) if e.separation > face.separation + tol => e,
        _ => face,
    };
    let mut out = Manifold {
        status: ManifoldStatus::Ok,
        normal: pose_a.rotation.mul_vec(chosen.normal),
        feature: chosen.feature,
        separation: chosen.separation,
        points: HVec::new(),
        counters: q.counters,
    };
    let face_built = |feature: SatFeature| match feature {
        SatFeature::FaceB(f) => face_contact(
            b,
            pose_b,
            a,
            &pose_ab.inverse(),
            f,
            margin,
            true,
            Incident::MostAntiParallel,
        ),
        SatFeature::FaceA(f) => face_contact(
            a,
            pose_a,
            b,
            pose_ab,
            f,
            margin,
            false,
            Incident::MostAntiParallel,
        ),
        SatFeature::EdgePair(..) => Ok(HVec::new()),
    };
    let mut used = chosen;
    let built = match chosen.feature {
        SatFeature::EdgePair(i, j) => {
            let tangent_tol = R::sqrt_epsilon() * (a.extent() + b.extent());
            match edge_contact(a, pose_a, b, pose_ab, i, j, chosen.normal, tangent_tol) {
                Some(points) => Ok(points),
                None => {
                    // The edges' closest points are not their lines' (the
                    // hulls are apart and nearest elsewhere): the best face
                    // gives points on both surfaces instead.
                    used = face;
                    face_built(face.feature)
                }
            }
        }
        feature => face_built(feature),
    };
    // The hulls overlap along every axis, yet the preferred feature gave
    // no point: see `rescue`.
    let built = match built {
        Ok(points) if points.is_empty() && q.best.separation < R::ZERO => {
            let (axis, points) = rescue(a, pose_a, b, pose_b, pose_ab, used, q.best, margin);
            used = axis;
            points
        }
        other => other,
    };
    out.normal = pose_a.rotation.mul_vec(used.normal);
    out.feature = used.feature;
    out.separation = used.separation;
    match built {
        Ok(points) => out.points = points,
        Err(ClipError::Capacity) => out.status = ManifoldStatus::Capacity,
    }
    out
}

/// The points of overlapping hulls (`pose_ab` = B in A's frame) whose
/// preferred axis `used` gave none, and the axis they were built on (A's
/// frame), `hint` the manifold query's best axis. Its incident face may
/// have missed the deepest vertex, or (a near tie under the preference)
/// the deepest vertex lies beside the reference face. When the exact SAT
/// axis separates the hulls by more than the margin, there is no point;
/// else, in turn (face axes clip every face of the incident hull that
/// faces the reference face, not only the most anti-parallel one, which
/// can be one of several nearly coplanar faces and miss the contact):
/// - `used`;
/// - the exact SAT axis: its deepest vertex lies over its face (the
///   origin's projection on the nearest face of the Minkowski difference
///   lies in that face), its edges' closest points are interior;
/// - when that face of the Minkowski difference is a sliver nearly
///   coplanar with a neighbour (unmerged, nearly coplanar faces of a CAD
///   mesh), the projection can fall on the neighbour: the faces next to
///   the best feature (its edges' faces, or its face's neighbours), the
///   one that separates the least deeply among those giving points;
/// - the last resort, one point at the deepest vertex (of those within
///   round-off of it, the one over the reference face), for hulls that
///   overlap along the exact axis; hulls apart along it (within the
///   margin) get no point, as a deepest vertex would lie off A's surface.
///
/// Face contacts put their points on both surfaces by construction. Runs
/// only on this rare path (a full SAT query and a few clippings), out of
/// line so that the common path's frame and code stay small.
#[cold]
#[inline(never)]
fn rescue<R: Real>(
    a: &SatHull<'_, R>,
    pose_a: &Iso3<R>,
    b: &SatHull<'_, R>,
    pose_b: &Iso3<R>,
    pose_ab: &Iso3<R>,
    used: SatAxis<R>,
    hint: SatAxis<R>,
    margin: R,
) -> Built<R> {
    let best = sat_local(
        a,
        b,
        pose_ab,
        Culling::On,
        Some(hint.feature),
        Goal::exact(),
    )
    .map_or(hint, |r| r.best);
    // The exact query finds an axis separating the hulls by more than the
    // margin (a feature the preference culled, next to a face touching
    // within round-off): no contact.
    if best.separation > margin {
        return (best, Ok(HVec::new()));
    }
    let tangent_tol = R::sqrt_epsilon() * (a.extent() + b.extent());
    let pose_ba = pose_ab.inverse();
    let attempt = |axis: SatAxis<R>| -> Option<Result<Points<R>, ClipError>> {
        let r = match axis.feature {
            SatFeature::EdgePair(i, j) => Ok(edge_contact(
                a,
                pose_a,
                b,
                pose_ab,
                i,
                j,
                axis.normal,
                tangent_tol,
            )?),
            SatFeature::FaceA(f) => {
                face_contact(a, pose_a, b, pose_ab, f, margin, false, Incident::AllFacing)
            }
            SatFeature::FaceB(g) => {
                face_contact(b, pose_b, a, &pose_ba, g, margin, true, Incident::AllFacing)
            }
        };
        match r {
            Ok(points) if points.is_empty() => None,
            other => Some(other),
        }
    };
    for axis in [used, best] {
        if let Some(r) = attempt(axis) {
            return (axis, r);
        }
    }
    let (ea, eb) = (a.hull().edges(), b.hull().edges());
    let mut found: Option<Built<R>> = None;
    let mut consider = |feature: SatFeature| {
        let Some(axis) = face_axis(a, b, pose_ab, feature) else {
            return;
        };
        if found
            .as_ref()
            .is_some_and(|f| f.0.separation >= axis.separation)
        {
            return;
        }
        if let Some(r) = attempt(axis) {
            found = Some((axis, r));
        }
    };
    match best.feature {
        SatFeature::EdgePair(i, j) => {
            for f in ea.get(i as usize).map_or([0; 2], |e| e.faces) {
                consider(SatFeature::FaceA(f));
            }
            for g in eb.get(j as usize).map_or([0; 2], |e| e.faces) {
                consider(SatFeature::FaceB(g));
            }
        }
        SatFeature::FaceA(f) => {
            for e in ea.iter().filter(|e| e.faces.contains(&f)) {
                let other = if e.faces[0] == f {
                    e.faces[1]
                } else {
                    e.faces[0]
                };
                consider(SatFeature::FaceA(other));
            }
        }
        SatFeature::FaceB(g) => {
            for e in eb.iter().filter(|e| e.faces.contains(&g)) {
                let other = if e.faces[0] == g {
                    e.faces[1]
                } else {
                    e.faces[0]
                };
                consider(SatFeature::FaceB(other));
            }
        }
    }
    found.unwrap_or_else(|| {
        // Apart (within the margin) with no feature giving points on both
        // surfaces: the deepest vertex is no contact then (it lies off A),
        // so the speculative manifold stays empty.
        if best.separation >= R::ZERO {
            (best, Ok(HVec::new()))
        } else {
            (best, Ok(deepest_point(a, pose_a, b, pose_ab, best)))
        }
    })
}

/// The axis of face `feature` (A's or B's; `None` for an edge pair or an
/// index out of range) with the hulls' gap along it, A's frame.
fn face_axis<R: Real>(
    a: &SatHull<'_, R>,
    b: &SatHull<'_, R>,
    pose_ab: &Iso3<R>,
    feature: SatFeature,
) -> Option<SatAxis<R>> {
    let (rot, t) = (pose_ab.rotation, pose_ab.translation);
    let (va, vb) = (a.hull().vertices(), b.hull().vertices());
    let (normal, separation) = match feature {
        SatFeature::FaceA(f) => {
            let p = a.hull().planes().get(f as usize)?;
            let s = lowest(vb, rot.transpose_mul(p.normal)).1 + p.normal.dot(t) - p.offset;
            (p.normal, s)
        }
        SatFeature::FaceB(g) => {
            let p = b.hull().planes().get(g as usize)?;
            let m = rot.mul_vec(p.normal);
            (-m, lowest(va, m).1 - m.dot(t) - p.offset)
        }
        SatFeature::EdgePair(..) => return None,
    };
    Some(SatAxis {
        feature,
        separation,
        normal,
    })
}

/// Which faces of the incident hull a face contact clips.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Incident {
    /// The face most anti-parallel to the reference normal (the common
    /// path: one clipping).
    MostAntiParallel,
    /// Every face that faces the reference face (its normal against the
    /// reference normal): the incident hull's whole surface towards the
    /// reference face, so the contact holds wherever the hulls touch under
    /// it, whichever of several nearly coplanar faces (an unmerged CAD
    /// mesh, a thin hull's sliver faces) that is. For the rescue.
    AllFacing,
}

/// The points of a face contact with face `ref_face` of `refh` (posed at
/// `pose_ref`, world) as reference and `inc` posed by `pose_ri` in the
/// reference frame; `flipped` when the reference hull is B. `incident`
/// says which faces of `inc` are clipped against the reference face's side
/// planes; the points within `margin` above the reference plane are
/// reduced to at most [`MAX_MANIFOLD_POINTS`].
fn face_contact<R: Real>(
    refh: &SatHull<'_, R>,
    pose_ref: &Iso3<R>,
    inc: &SatHull<'_, R>,
    pose_ri: &Iso3<R>,
    ref_face: HullIndex,
    margin: R,
    flipped: bool,
    incident: Incident,
) -> Result<HVec<ContactPoint<R>, MAX_MANIFOLD_POINTS>, ClipError> {
    let Some(plane) = refh.hull().planes().get(ref_face as usize).copied() else {
        return Ok(HVec::new());
    };
    let n = plane.normal;
    let mut bufs = [HVec::new(), HVec::new()];
    // Room for one clipped polygon on top of a reduced manifold.
    let mut kept: HVec<
        (Vec3<R>, R, FeatureId),
        { crate::clip::MAX_CLIP_VERTICES + MAX_MANIFOLD_POINTS },
    > = HVec::new();
    let mut keep = |inc_face: usize, bufs: &mut [ClipPolygon<R>; 2]| -> Result<(), ClipError> {
        let poly = clip_incident(refh, ref_face as usize, inc, inc_face, pose_ri, bufs)?;
        if kept.len() + poly.len() > kept.capacity() {
            let reduced = reduce(&kept, n);
            kept.clear();
            for p in reduced {
                let _ = kept.push(p);
            }
        }
        for cv in poly {
            let s = plane.distance(cv.p);
            if s <= margin {
                let id = FeatureId {
                    reference: ref_face,
                    incident: inc_face as HullIndex,
                    reference_vertex: cv.reference_vertex,
                    incident_vertex: cv.incident_vertex,
                    flipped,
                };
                // Midway between the incident point and its foot on the
                // reference plane. Room made above: cannot fail.
                let _ = kept.push((cv.p - n * (s * R::HALF), s, id));
            }
        }
        Ok(())
    };
    match incident {
        Incident::MostAntiParallel => keep(incident_face(inc, pose_ri, n), &mut bufs)?,
        Incident::AllFacing => {
            let local = pose_ri.rotation.transpose_mul(n);
            for (g, p) in inc.hull().planes().iter().enumerate() {
                if p.normal.dot(local) < R::ZERO {
                    keep(g, &mut bufs)?;
                }
            }
        }
    }
    let mut points = HVec::new();
    for (p, s, id) in reduce(&kept, n) {
        let _ = points.push(ContactPoint {
            position: pose_ref.transform_point(p),
            separation: s,
            id,
        });
    }
    Ok(points)
}

/// One contact at the deepest vertex along the SAT axis `axis` (A's frame):
/// A's vertex highest along it for a face of B, B's vertex lowest along it
/// otherwise, with the axis's separation. Among the vertices within
/// round-off of the deepest (hulls touching along an edge or a face have
/// several), the one lying over the reference face is taken (the least
/// outside its edges): the point on the other hull is its foot on the
/// axis's supporting plane, which is that hull's surface only over its
/// face. No point for a hull without vertices.
fn deepest_point<R: Real>(
    a: &SatHull<'_, R>,
    pose_a: &Iso3<R>,
    b: &SatHull<'_, R>,
    pose_ab: &Iso3<R>,
    axis: SatAxis<R>,
) -> HVec<ContactPoint<R>, MAX_MANIFOLD_POINTS> {
    let mut points = HVec::new();
    let (n, s) = (axis.normal, axis.separation);
    let (reference, flipped, on_a) = match axis.feature {
        SatFeature::FaceA(f) => (f, false, false),
        SatFeature::FaceB(g) => (g, true, true),
        SatFeature::EdgePair(i, _) => (i, false, false),
    };
    // The candidates' depth below the deepest's, and how far outside the
    // reference face's edges each lies (0 for an edge pair: no face).
    let slack = R::sqrt_epsilon() * (a.extent() + b.extent());
    let (vs, depth_dir) = if on_a {
        (a.hull().vertices(), -n)
    } else {
        (b.hull().vertices(), pose_ab.rotation.transpose_mul(n))
    };
    let (deepest, lowest_depth) = lowest(vs, depth_dir);
    let outside = |v: Vec3<R>| match axis.feature {
        SatFeature::FaceA(f) => outside_face(a, f as usize, pose_ab.transform_point(v)),
        SatFeature::FaceB(g) => outside_face(b, g as usize, pose_ab.inverse_transform_point(v)),
        SatFeature::EdgePair(..) => R::ZERO,
    };
    let mut best: Option<(u32, R)> = None;
    for (k, &v) in vs.iter().enumerate() {
        if !(depth_dir.dot(v) <= lowest_depth + slack) {
            continue;
        }
        let off = outside(v);
        if best.is_none_or(|(_, o)| off < o) {
            best = Some((k as u32, off));
        }
    }
    let index = best.map_or(deepest, |(k, _)| k);
    let Some(&v) = vs.get(index as usize) else {
        return points;
    };
    let position = if on_a {
        // The point on A is v, the point on B is v + n s.
        v + n * (s * R::HALF)
    } else {
        pose_ab.transform_point(v) - n * (s * R::HALF)
    };
    let _ = points.push(ContactPoint {
        position: pose_a.transform_point(position),
        separation: s,
        id: FeatureId {
            reference,
            incident: NO_FEATURE,
            reference_vertex: NO_FEATURE,
            incident_vertex: index as HullIndex,
            flipped,
        },
    });
    points
}

/// How far `x` (the hull's frame) lies outside the edges of face `f` of
/// `h`, measured across them in the face's plane (the largest of its side
/// planes' distances; at most 0 when `x` lies over the face). 0 for a face
/// that does not exist.
fn outside_face<R: Real>(h: &SatHull<'_, R>, f: usize, x: Vec3<R>) -> R {
    let hull = h.hull();
    let (Some(plane), vs) = (hull.planes().get(f), hull.vertices()) else {
        return R::ZERO;
    };
    let lp = hull.face(f);
    let mut out = -R::MAX;
    for (k, &v0) in lp.iter().enumerate() {
        let v1 = lp[(k + 1) % lp.len()];
        let (Some(&p0), Some(&p1)) = (vs.get(v0 as usize), vs.get(v1 as usize)) else {
            continue;
        };
        // Outward across the edge of a counter-clockwise loop, as the
        // clipping's side planes.
        let side = (p1 - p0).cross(plane.normal);
        let len = side.norm();
        if len > R::ZERO {
            out = out.max_of(side.dot(x - p0) / len);
        }
    }
    out
}

/// The single point of an edge–edge contact: midway between the closest
/// points of A's edge `i` and B's edge `j` (A's frame, `n` the SAT axis in
/// A's frame), its separation their gap along `n`. `None` when the closest
/// points are off the normal by more than `tangent_tol` (meters): a segment
/// end was clamped, so the pair is not where the hulls are closest.
fn edge_contact<R: Real>(
    a: &SatHull<'_, R>,
    pose_a: &Iso3<R>,
    b: &SatHull<'_, R>,
    pose_ab: &Iso3<R>,
    i: HullIndex,
    j: HullIndex,
    n: Vec3<R>,
    tangent_tol: R,
) -> Option<HVec<ContactPoint<R>, MAX_MANIFOLD_POINTS>> {
    let mut points = HVec::new();
    let (ha, hb) = (a.hull(), b.hull());
    let (Some(ea), Some(eb)) = (ha.edges().get(i as usize), hb.edges().get(j as usize)) else {
        return Some(points);
    };
    let end =
        |h: &mink_support::HullView<'_, R>, v: HullIndex| h.vertices().get(v as usize).copied();
    let (Some(p0), Some(p1), Some(q0), Some(q1)) = (
        end(ha, ea.vertices[0]),
        end(ha, ea.vertices[1]),
        end(hb, eb.vertices[0]),
        end(hb, eb.vertices[1]),
    ) else {
        return Some(points);
    };
    let (q0, q1) = (pose_ab.transform_point(q0), pose_ab.transform_point(q1));
    let (s, t) = closest_segment_params(p0, p1, q0, q1);
    let pa = p0 + (p1 - p0) * s;
    let pb = q0 + (q1 - q0) * t;
    let gap = (pb - pa).dot(n);
    if (pb - pa - n * gap).norm() > tangent_tol {
        return None;
    }
    let _ = points.push(ContactPoint {
        position: pose_a.transform_point((pa + pb) * R::HALF),
        separation: gap,
        id: FeatureId {
            reference: i,
            incident: j,
            reference_vertex: NO_FEATURE,
            incident_vertex: NO_FEATURE,
            flipped: false,
        },
    });
    Some(points)
}
