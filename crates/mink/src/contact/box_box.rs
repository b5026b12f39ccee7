//! Box against box, in closed form: the separating-axis test over the 15
//! axes (3 face normals of each box, 9 edge-pair cross products) with a
//! preference for faces, then either the incident face clipped against the
//! reference face's rectangle (up to 8 points, reduced to 4) or one point
//! between the two closest edges.

use super::features::{DISTINCT_FRACTION, EPA_DEPTH_FRACTION};
use super::reduce::Candidates;
use super::{ContactPoint, Manifold, Patch, Settings};
use crate::cast::{convex_cast, CastSpec, ShapeCast};
use crate::pair::{queries_of, PairRoutine, Side};
use crate::query::closest_segment_points;
use crate::query::generic::Generic;
use crate::PairVisitor;
use mink_gjk::{ray_cast, GjkCache, Ray, RayStatus};
use mink_support::{Cuboid, Iso3, Real, Rounded, Vec3};

/// The routine of two boxes: the generic routine's distance, penetration
/// and intersection (GJK, MPR, GJK+EPA), and the manifold in closed form
/// ([`box_box_manifold`]) unless only one point is asked for
/// ([`Patch::Single`]) or the closed form declines (cores apart across an
/// edge or corner), where the generic manifold answers.
pub(crate) struct BoxBox;

impl<R: Real> PairRoutine<R, Cuboid<R>, Cuboid<R>> for BoxBox {
    const CLOSED_FORM: bool = true;

    queries_of!(Generic, Cuboid<R>, Cuboid<R>);

    fn manifold(
        &self,
        a: &Cuboid<R>,
        sa: &Side<R>,
        b: &Cuboid<R>,
        sb: &Side<R>,
        params: &Settings<R>,
        cache: Option<&mut GjkCache<R>>,
    ) -> Manifold<R> {
        let posed = |shape, side: &Side<R>| PosedBox {
            shape,
            pose: side.pose,
            margin: side.margin,
        };
        let closed = match params.patch {
            Patch::Single => None,
            Patch::Auto | Patch::Perturb => {
                box_box_manifold(posed(a, sa), posed(b, sb), params.margin)
            }
        };
        match closed {
            Some(m) => m,
            None => Generic.manifold(a, sa, b, sb, params, cache),
        }
    }

    #[inline]
    fn cast(&self, a: &Cuboid<R>, b: &Cuboid<R>, spec: &CastSpec<R>) -> ShapeCast<R> {
        convex_cast(self, a, b, spec)
    }

    #[inline]
    fn visit<V: PairVisitor<R>>(&self, a: &Cuboid<R>, b: &Cuboid<R>, visitor: V) -> V::Output {
        visitor.convex(a, b)
    }
}

/// How much better (meters, as a fraction of the smaller box's half
/// diagonal) B's best face must separate than A's, or an edge pair than
/// the best face, to be chosen: faces give full manifolds and A as the
/// reference keeps the points stable from frame to frame. 1e-3.
pub const BOX_FEATURE_PREFERENCE: f64 = 1e-3;

/// The cosine above which an edge pair's axis is near the best face's
/// normal, where the edge pair must beat the face by
/// [`NEAR_FACE_EDGE_PREFERENCE`] rather than [`BOX_FEATURE_PREFERENCE`].
/// 0.995, about 5.7°.
pub const EDGE_AXIS_FACE_COS: f64 = 0.995;

/// How much better (meters, as a fraction of the smaller box's half
/// diagonal) an edge pair whose axis is near the best face's normal
/// ([`EDGE_AXIS_FACE_COS`]) must separate than that face to be chosen,
/// on a pair whose face overlaps by at most
/// [`EPA_DEPTH_FRACTION`](super::EPA_DEPTH_FRACTION) of that size (a
/// resting contact; deeper pairs keep [`BOX_FEATURE_PREFERENCE`]):
/// 2e-2. Boxes resting face on face with a small tilt have edge axes
/// within the tilt of both face normals that separate a little better
/// than the faces (by about 1.5e-3 of the size at a 1° tilt and 1 cm
/// deep), yet they touch along the face's patch, which the face's clip
/// gives (up to four points) and an edge pair would reduce to one. The
/// cost: the patch's deepest depth may exceed the penetration depth by
/// up to this fraction of the size, on such pairs.
pub const NEAR_FACE_EDGE_PREFERENCE: f64 = 2e-2;

/// Below this length of `a_i × b_j` (unit axes), the two edge directions
/// are parallel and their axis is a face axis already tested: skipped.
/// In units of `sqrt(ε)` of the scalar.
const EDGE_PARALLEL_SQRT_EPS: f64 = 16.0;

/// One box of the pair: shape, pose (shape frame to world), extra
/// inflation (the body's margin).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PosedBox<'s, R> {
    pub shape: &'s Cuboid<R>,
    pub pose: Iso3<R>,
    pub margin: R,
}

#[inline(always)]
fn sign<R: Real>(x: R) -> R {
    if x < R::ZERO {
        -R::ONE
    } else {
        R::ONE
    }
}

#[inline(always)]
fn axis<R: Real>(i: usize) -> Vec3<R> {
    match i {
        0 => Vec3::X,
        1 => Vec3::Y,
        _ => Vec3::Z,
    }
}

/// The manifold of two boxes within `margin` (meters, `>= 0`; poses
/// finite), normal from A to B, world frame.
///
/// `None` when the cores are apart and their closest points are not on
/// the feature pair the 15 axes found: a box's edge or corner nearest the
/// other's (the gap is then along no face normal nor edge cross product,
/// and rounded boxes touch along it); the general convex path answers
/// those from GJK's closest points.
fn box_box_manifold<R: Real>(
    a: PosedBox<'_, R>,
    b: PosedBox<'_, R>,
    margin: R,
) -> Option<Manifold<R>> {
    let (ha, hb) = (a.shape.half_extents(), b.shape.half_extents());
    // B's axes and centre in A's frame.
    let rot = a.pose.rotation.transpose_mul_mat(&b.pose.rotation);
    let c = [rot.col(0), rot.col(1), rot.col(2)];
    let t = a
        .pose
        .inverse_transform_vector(b.pose.translation - a.pose.translation);
    let inflation = a.margin + b.margin;

    // Faces of A: axis e_i.
    let mut face_a = (0, -R::INFINITY);
    for i in 0..3 {
        let rb = (0..3).fold(R::ZERO, |s, j| s + hb.get(j) * c[j].get(i).abs());
        let sep = t.get(i).abs() - ha.get(i) - rb;
        if sep > face_a.1 {
            face_a = (i, sep);
        }
    }
    // Faces of B: axis c_j.
    let mut face_b = (0, -R::INFINITY);
    for j in 0..3 {
        let ra = (0..3).fold(R::ZERO, |s, i| s + ha.get(i) * c[j].get(i).abs());
        let sep = t.dot(c[j]).abs() - hb.get(j) - ra;
        if sep > face_b.1 {
            face_b = (j, sep);
        }
    }
    // Edge pairs: axis e_i × c_j (A's frame).
    let min_len = R::sqrt_epsilon() * R::lit(EDGE_PARALLEL_SQRT_EPS);
    let mut edge = (0, 0, Vec3::X, -R::INFINITY);
    for i in 0..3 {
        for j in 0..3 {
            let l = axis::<R>(i).cross(c[j]);
            let len = l.norm();
            if !(len > min_len) {
                continue;
            }
            let l = l / len;
            let ra = ha.dot(l.abs());
            let rb = (0..3).fold(R::ZERO, |s, k| s + hb.get(k) * l.dot(c[k]).abs());
            let sep = t.dot(l).abs() - ra - rb;
            if sep > edge.3 {
                edge = (i, j, l, sep);
            }
        }
    }
    let most = face_a.1.max_of(face_b.1).max_of(edge.3);
    if !(most - inflation <= margin) {
        // The 15 axes' largest gap is a lower bound on the cores' gap.
        return Some(Manifold::new());
    }
    let size = ha.norm().min_of(hb.norm());
    let prefer = R::lit(BOX_FEATURE_PREFERENCE) * size;
    let distinct = R::lit(DISTINCT_FRACTION) * size;
    let b_face = face_b.1 > face_a.1 + prefer;
    let best_face = face_a.1.max_of(face_b.1);
    let mut cands = Candidates::new();
    // An edge pair wins when it separates better than the best face by
    // the preference; by the larger one when its axis is nearly that
    // face's normal on a shallow pair: two faces resting on each other
    // with a small tilt
    // have edge axes within the tilt of both normals that separate a
    // little better, but the contact is the face's patch, not one point
    // between two edges.
    let along_face = if b_face {
        edge.2.dot(c[face_b.0]).abs()
    } else {
        edge.2.get(face_a.0).abs()
    };
    let resting = -best_face <= R::lit(EPA_DEPTH_FRACTION) * size;
    let edge_prefer = if resting && along_face >= R::lit(EDGE_AXIS_FACE_COS) {
        R::lit(NEAR_FACE_EDGE_PREFERENCE) * size
    } else {
        prefer
    };
    if edge.3 > best_face + edge_prefer {
        let (i, j, l, _) = edge;
        if let Some(p) = edge_contact(&a, &b, &c, t, i, j, l, margin, size) {
            cands.push(p, distinct);
            return Some(cands.reduce(p.normal));
        }
    }
    let (normal, lowest) = if b_face {
        let (n, lowest) = face_contact(&b, &a, face_b.0, margin, distinct, true, &mut cands);
        (-n, lowest)
    } else {
        face_contact(&a, &b, face_a.0, margin, distinct, false, &mut cands)
    };
    // Apart, the cores' gap is at least the axes' largest, and at most the
    // height of any clipped point over the reference face: the face holds
    // the closest points only when one comes down to that largest gap.
    let scale = t.norm() + ha.norm() + hb.norm();
    let exact_slack = R::EPSILON * R::lit(EXACT_GAP_ULPS) * scale;
    if most > R::ZERO && !(lowest <= most + exact_slack) {
        return None;
    }
    Some(cands.reduce(normal))
}

/// Within how many `ε` of the boxes' scale the incident face's lowest
/// clipped point must reach the face's gap, for a pair whose cores are
/// apart, to be the closest points.
const EXACT_GAP_ULPS: f64 = 64.0;

/// The single point between A's edge along `e_i` and B's along `c_j`
/// (`l` the unit axis, A's frame). `None` when the closest points of the
/// two edges are not along the axis (the boxes are nearest elsewhere).
fn edge_contact<R: Real>(
    a: &PosedBox<'_, R>,
    b: &PosedBox<'_, R>,
    c: &[Vec3<R>; 3],
    t: Vec3<R>,
    i: usize,
    j: usize,
    l: Vec3<R>,
    margin: R,
    size: R,
) -> Option<ContactPoint<R>> {
    let (ha, hb) = (a.shape.half_extents(), b.shape.half_extents());
    let n = if t.dot(l) < R::ZERO { -l } else { l };
    // A's edge: the one of direction e_i farthest along n.
    let mut ca = Vec3::ZERO;
    for k in (0..3).filter(|&k| k != i) {
        ca += axis::<R>(k) * (sign(n.get(k)) * ha.get(k));
    }
    let da = axis::<R>(i) * ha.get(i);
    // B's edge: the one of direction c_j farthest along -n.
    let mut cb = t;
    for k in (0..3).filter(|&k| k != j) {
        cb -= c[k] * (sign(n.dot(c[k])) * hb.get(k));
    }
    let db = c[j] * hb.get(j);
    let (pa, pb) = closest_segment_points(ca - da, ca + da, cb - db, cb + db);
    let sep = (pb - pa).dot(n);
    let off_axis = (pb - pa - n * sep).norm();
    if off_axis > R::sqrt_epsilon() * size {
        return None;
    }
    let depth = a.margin + b.margin - sep;
    if !(depth >= -margin) {
        return None;
    }
    let mid = (pa + n * a.margin + pb - n * b.margin) * R::HALF;
    Some(ContactPoint {
        position: a.pose.transform_point(mid),
        normal: a.pose.transform_vector(n),
        depth,
    })
}

/// The points of face `i` of the reference box `r` (the side facing the
/// incident box `inc`) against the incident box's most anti-parallel face,
/// clipped to the reference face's rectangle, into `out`. Returns the
/// world normal from `r` to `inc` and the least height of the clipped
/// points above the reference face's core (`∞` when none is left); the
/// points' normals are flipped when `flipped` (the reference box is the
/// pair's B).
fn face_contact<R: Real>(
    r: &PosedBox<'_, R>,
    inc: &PosedBox<'_, R>,
    i: usize,
    margin: R,
    distinct: R,
    flipped: bool,
    out: &mut Candidates<R>,
) -> (Vec3<R>, R) {
    let (hr, hi) = (r.shape.half_extents(), inc.shape.half_extents());
    let rot = r.pose.rotation.transpose_mul_mat(&inc.pose.rotation);
    let t = r
        .pose
        .inverse_transform_vector(inc.pose.translation - r.pose.translation);
    let s = sign(t.get(i));
    let n_ref = axis::<R>(i) * s;
    let world_n = r.pose.transform_vector(n_ref);
    let normal = if flipped { -world_n } else { world_n };
    // Incident face: the incident box's face most anti-parallel to n_ref.
    let d = rot.transpose_mul(n_ref);
    let a = d.abs();
    let j = if a.x >= a.y && a.x >= a.z {
        0
    } else if a.y >= a.z {
        1
    } else {
        2
    };
    let (k1, k2) = ((j + 1) % 3, (j + 2) % 3);
    let centre = axis::<R>(j) * (-sign(d.get(j)) * hi.get(j));
    let (e1, e2) = (axis::<R>(k1) * hi.get(k1), axis::<R>(k2) * hi.get(k2));
    let mut poly = [Vec3::ZERO; 8];
    let mut len = 0;
    for corner in [e1 + e2, e2 - e1, -e1 - e2, e1 - e2] {
        poly[len] = rot.mul_vec(centre + corner) + t;
        len += 1;
    }
    // Clip against the four side planes of the reference face.
    let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
    for (k, bound) in [(i1, hr.get(i1)), (i2, hr.get(i2))] {
        for side in [R::ONE, -R::ONE] {
            let mut next = [Vec3::ZERO; 8];
            let mut m = 0;
            for q in 0..len {
                let (p, p2) = (poly[q], poly[(q + 1) % len]);
                let (dp, dq) = (side * p.get(k) - bound, side * p2.get(k) - bound);
                if dp <= R::ZERO && m < 8 {
                    next[m] = p;
                    m += 1;
                }
                if (dp <= R::ZERO) != (dq <= R::ZERO) && m < 8 {
                    next[m] = p + (p2 - p) * (dp / (dp - dq));
                    m += 1;
                }
            }
            poly = next;
            len = m;
            if len == 0 {
                return (normal, R::INFINITY);
            }
        }
    }
    let top = hr.get(i);
    let mut lowest = R::INFINITY;
    for p in &poly[..len] {
        // Height of the incident point above the reference face (core).
        let sep = s * p.get(i) - top;
        lowest = lowest.min_of(sep);
        let reach = incident_reach(inc, rot.transpose_mul(*p - t), -d);
        let depth = r.margin + reach - sep;
        if depth >= -margin {
            let on_ref = *p - n_ref * sep + n_ref * r.margin;
            let on_inc = *p - n_ref * reach;
            out.push(
                ContactPoint {
                    position: r.pose.transform_point((on_ref + on_inc) * R::HALF),
                    normal,
                    depth,
                },
                distinct,
            );
        }
    }
    (normal, lowest)
}

/// How far (meters) the incident box's surface lies past its core point
/// `p` along the unit `w` (both in the incident box's frame): the body's
/// margin when `w` is a normal of the core at `p` (a face seen straight
/// on, a corner seen within its octant), more where the face is tilted
/// from `w` (the line leaves the rounded box through the face's offset,
/// or an edge's cylinder, past the margin: `margin / cos θ` inside a face
/// tilted by `θ`). Found by GJK's ray cast out of the rounded box; the
/// margin when that cannot settle it.
fn incident_reach<R: Real>(inc: &PosedBox<'_, R>, p: Vec3<R>, w: Vec3<R>) -> R {
    let m = inc.margin;
    if !(m > R::ZERO) {
        return m;
    }
    // `w` in the core's normal cone at `p`: along every axis, either `p`
    // is on that face and `w` points out of it, or `w` has no component.
    let h = inc.shape.half_extents();
    let on_face =
        |k: usize| (p.get(k).abs() - h.get(k)).abs() <= R::EPSILON * R::lit(64.0) * h.norm();
    let in_cone = (0..3).all(|k| {
        let wk = w.get(k);
        wk == R::ZERO || (on_face(k) && wk * p.get(k) > R::ZERO)
    });
    if in_cone {
        return m;
    }
    let Ok(rounded) = Rounded::new(inc.shape, m) else {
        return m;
    };
    let exit = ray_cast(
        &rounded,
        &Iso3::IDENTITY,
        &Ray::new(p, w),
        R::INFINITY,
        false,
    );
    if exit.status == RayStatus::Hit {
        exit.toi.max_of(m)
    } else {
        m
    }
}
