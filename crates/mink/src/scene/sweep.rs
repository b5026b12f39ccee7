//! Continuous collision checking of a scene's motion: every geometry moves
//! from its pose in one set of link poses to its pose in the next (a
//! robot's control step), and every pair the filters keep whose swept
//! boxes meet is shape-cast ([`shape_cast`]) over the motion, so a contact
//! between the two pose sets is found even when neither pose set shows it
//! (a fast link stepping through a thin obstacle).
//!
//! Each geometry's world pose is interpolated on its own: its origin
//! moves linearly and its rotation turns at constant angular speed along
//! the shorter arc ([`Motion`](crate::cast::Motion)). Its swept box bounds
//! every pose on the way: the boxes of the two ends about the origin, the
//! origin's path, and the sagitta of the arc its farthest point turns
//! through. Convex geometries are cast against each other; a convex
//! geometry against a height field is cast against each prism under its
//! swept box, against a mesh against each triangle its swept box meets
//! (and a convex geometry wholly inside a mesh at the start is an
//! `Initial` contact); a moving height field or mesh, and pairs of two of
//! them or of a half-space and either, have no cast and are counted as
//! unsupported.

use super::description::{GeomDesc, SceneDesc};
use super::report::SceneError;
use crate::cast::{shape_cast, CastStatus, Motion, ShapeCast};
use crate::collider::Collider;
use crate::query::Body;
use crate::ray::{mesh_ray_cast, Ray, RayStatus};
use crate::shape::{Shape, ShapeVisitor};
use alloc::vec::Vec;
use mink_broadphase::{BroadPhase, CandidatePair, Filters, Geom};
use mink_gjk::bounding_radius;
use mink_sdf::MeshView;
use mink_support::{Aabb, HalfSpace, Iso3, Real, Support, Triangle, Vec3};

/// A pair's first contact along the motion, world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SweepHit<R> {
    /// The first geometry (the lower index).
    pub geom_a: u32,
    /// The second geometry.
    pub geom_b: u32,
    /// The first geometry's link.
    pub link_a: u32,
    /// The second geometry's link.
    pub link_b: u32,
    /// The fraction of the motion, in `[0, 1]`, at which the pair first
    /// comes within the clearance (see [`ShapeCast`]).
    pub toi: R,
    /// Their signed distance then, meters (negative: overlapping, for an
    /// `Initial` contact).
    pub distance: R,
    /// The closest point of A then, meters.
    pub point_a: Vec3<R>,
    /// The closest point of B then, meters.
    pub point_b: Vec3<R>,
    /// The unit normal from A towards B then.
    pub normal: Vec3<R>,
    /// [`CastStatus::Hit`], [`CastStatus::Initial`] (already within the
    /// clearance at the start) or [`CastStatus::IterationLimit`] (proven
    /// clear up to `toi` only: treat as a hit there).
    pub status: CastStatus,
}

/// What a sweep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SweepReport {
    /// Pairs whose swept boxes met and that the filters kept.
    pub candidate_pairs: usize,
    /// Pairs that come within the clearance during the motion.
    pub hits: usize,
    /// Candidate pairs with no cast (see the module docs): not checked.
    pub unsupported_pairs: usize,
}

/// The sweep's storage, kept between calls (its broad phase carries the
/// sweep order over, as the step's does).
#[derive(Debug)]
pub(crate) struct SweepState<R> {
    broad: BroadPhase<R>,
    geoms: Vec<Geom<R>>,
    pairs: Vec<CandidatePair>,
    start: Vec<Iso3<R>>,
    end: Vec<Iso3<R>>,
}

impl<R: Real> Default for SweepState<R> {
    fn default() -> Self {
        Self {
            broad: BroadPhase::new(),
            geoms: Vec::new(),
            pairs: Vec::new(),
            start: Vec::new(),
            end: Vec::new(),
        }
    }
}

/// The bounding radius about its origin and a point inside, of a convex
/// shape; `None` for a half-space.
struct Extent;

impl<R: Real> ShapeVisitor<R> for Extent {
    type Output = Option<(R, Vec3<R>)>;
    fn convex<S: Support<R>>(self, shape: &S) -> Self::Output {
        Some((bounding_radius(shape), shape.interior_point()))
    }
    fn half_space(self, _: &HalfSpace<R>) -> Self::Output {
        None
    }
}

/// The radius about the frame's origin that holds the whole collider;
/// infinite for a half-space.
fn collider_radius<R: Real, U: Support<R>>(c: &Collider<'_, R, U>) -> R {
    let far = |b: Aabb<R>| {
        let m = |lo: R, hi: R| lo.abs().max_of(hi.abs());
        Vec3::new(
            m(b.min.x, b.max.x),
            m(b.min.y, b.max.y),
            m(b.min.z, b.max.z),
        )
        .norm()
    };
    match c {
        Collider::Convex(s) | Collider::ConvexWithField(s, _) => {
            s.visit(Extent).map_or(R::INFINITY, |(r, _)| r)
        }
        Collider::HeightField(f) => far(f.local_aabb()),
        Collider::Mesh(m) => far(m.mesh.aabb()),
    }
}

/// The box holding the collider at every pose of the motion `start` →
/// `end`, grown by `grow` meters.
fn swept_box<R: Real, U: Support<R>>(
    c: &Collider<'_, R, U>,
    start: &Iso3<R>,
    end: &Iso3<R>,
    grow: R,
) -> Aabb<R> {
    let (b0, b1) = (c.world_aabb(start), c.world_aabb(end));
    let (c0, c1) = (start.translation, end.translation);
    let (_, angle) = Motion::new(*start, *end).rotation();
    // The farthest point's arc leaves the chord by at most its sagitta.
    let sagitta = if angle > R::ZERO {
        (collider_radius(c) * (R::ONE - (angle * R::HALF).cos())).min_of(R::MAX)
    } else {
        R::ZERO
    };
    let pad = Vec3::splat(sagitta + grow);
    let lo = (b0.min - c0).min(b1.min - c1) + c0.min(c1) - pad;
    let hi = (b0.max - c0).max(b1.max - c1) + c0.max(c1) + pad;
    // A half-space's box is unbounded already; keep it finite for the
    // broad phase.
    let limit = Vec3::splat(R::MAX);
    Aabb::new(lo.max(-limit), hi.min(limit))
}

impl<R: Real> SweepState<R> {
    /// Sweeps the scene from `start` to `end` link poses (see
    /// `SceneBuf::sweep`): the hits, sorted by time, in `hits`.
    pub(crate) fn run<U: Support<R>>(
        &mut self,
        desc: &SceneDesc<'_, R, U>,
        filters: Filters,
        start: &[Iso3<R>],
        end: &[Iso3<R>],
        clearance: R,
        hits: &mut Vec<SweepHit<R>>,
    ) -> Result<SweepReport, SceneError> {
        hits.clear();
        let n_links = desc.link_count();
        for (input, given) in [("start", start.len()), ("end", end.len())] {
            if given < n_links {
                return Err(SceneError::InputTooShort {
                    input,
                    needed: n_links,
                    given,
                });
            }
        }
        if !(clearance >= R::ZERO) || !clearance.finite() {
            return Err(SceneError::InvalidClearance);
        }
        let links = desc.links();
        self.geoms.clear();
        self.start.clear();
        self.end.clear();
        for g in desc.geoms() {
            let (p0, p1) = (
                start[g.link as usize].mul(&g.local_pose),
                end[g.link as usize].mul(&g.local_pose),
            );
            let link = links[g.link as usize];
            self.geoms.push(Geom {
                aabb: swept_box(&g.collider, &p0, &p1, g.margin + clearance),
                link: g.link,
                parent_link: link.parent,
                contype: g.contype,
                conaffinity: g.conaffinity,
                fixed: link.fixed,
                asleep: false,
            });
            self.start.push(p0);
            self.end.push(p1);
        }
        let filters = Filters {
            both_asleep: false,
            ..filters
        };
        self.broad.update(&self.geoms, &filters, &mut self.pairs)?;
        let mut report = SweepReport {
            candidate_pairs: self.pairs.len(),
            ..SweepReport::default()
        };
        let geoms = desc.geoms();
        for pair in &self.pairs {
            let (i, j) = (pair.a as usize, pair.b as usize);
            let (a, b) = (&geoms[i], &geoms[j]);
            let motion = |k: usize| (self.start[k], self.end[k], self.geoms[k].aabb);
            let Some(cast) = cast_pair(a, motion(i), b, motion(j), clearance) else {
                report.unsupported_pairs += 1;
                continue;
            };
            if matches!(
                cast.status,
                CastStatus::Hit | CastStatus::Initial | CastStatus::IterationLimit
            ) {
                hits.push(SweepHit {
                    geom_a: pair.a,
                    geom_b: pair.b,
                    link_a: a.link,
                    link_b: b.link,
                    toi: cast.toi,
                    distance: cast.distance,
                    point_a: cast.p_a,
                    point_b: cast.p_b,
                    normal: cast.normal,
                    status: cast.status,
                });
            }
        }
        hits.sort_by(|x, y| {
            x.toi
                .partial_cmp(&y.toi)
                .unwrap_or(core::cmp::Ordering::Equal)
        });
        report.hits = hits.len();
        Ok(report)
    }
}

/// One geometry's motion: start pose, end pose, swept box.
type Path<R> = (Iso3<R>, Iso3<R>, Aabb<R>);

/// The cast of a candidate pair (`None`: no cast for it).
fn cast_pair<R: Real, U: Support<R>>(
    a: &GeomDesc<'_, R, U>,
    pa: Path<R>,
    b: &GeomDesc<'_, R, U>,
    pb: Path<R>,
    clearance: R,
) -> Option<ShapeCast<R>> {
    use Collider::{Convex, ConvexWithField};
    fn convex<'c, 's, R: Real, U>(c: &'c Collider<'s, R, U>) -> Option<&'c Shape<'s, R, U>> {
        match c {
            Convex(s) | ConvexWithField(s, _) => Some(s),
            _ => None,
        }
    }
    match (convex(&a.collider), convex(&b.collider)) {
        (Some(sa), Some(sb)) => Some(shape_cast(
            &Body::new(sa, pa.0),
            &pa.1,
            &Body::new(sb, pb.0),
            &pb.1,
            clearance,
        )),
        (Some(s), None) => against_static(s, pa, &b.collider, pb, clearance),
        (None, Some(s)) => against_static(s, pb, &a.collider, pa, clearance).map(|c| c.mirrored()),
        (None, None) => None,
    }
}

/// A convex shape moving along `path` against a height field or mesh that
/// stays put (`other` at `at.0 == at.1`); `None` when it moves or the
/// convex side is a half-space.
fn against_static<R: Real, U: Support<R>>(
    shape: &Shape<'_, R, U>,
    path: Path<R>,
    other: &Collider<'_, R, U>,
    at: Path<R>,
    clearance: R,
) -> Option<ShapeCast<R>> {
    if at.0 != at.1 {
        return None;
    }
    let (_, inside) = shape.visit(Extent)?;
    let moving = Body::new(shape, path.0);
    let mut first: Option<ShapeCast<R>> = None;
    let pose = at.0;
    // Casts the moving shape against one static convex piece of `other`,
    // keeping the earliest contact.
    let mut keep = |piece: Shape<'_, R, U>| {
        let cast = shape_cast(&moving, &path.1, &Body::new(&piece, pose), &pose, clearance);
        let counts = matches!(
            cast.status,
            CastStatus::Hit | CastStatus::Initial | CastStatus::IterationLimit
        );
        if counts && first.is_none_or(|f| cast.toi < f.toi) {
            first = Some(cast);
        }
    };
    // The convex body's swept box in the other's frame (it does not move).
    let local = path.2.transformed(&pose.inverse());
    match other {
        Collider::HeightField(field) => {
            let (columns, rows) = field.cell_range(&local);
            for j in rows {
                for i in columns.clone() {
                    for prism in field.cell_prisms(i, j).into_iter().flatten() {
                        keep(Shape::TerrainPrism(prism));
                    }
                }
            }
        }
        Collider::Mesh(sdf) => {
            // Wholly inside at the start: the earliest contact there is.
            if contains(&sdf.mesh, &pose, path.0.transform_point(inside)) {
                return Some(initial_inside(shape, &path.0));
            }
            for t in 0..sdf.mesh.triangles().len() {
                let Some([p, q, r]) = sdf.mesh.triangle(t) else {
                    continue;
                };
                let b = Aabb::new(p.min(q).min(r), p.max(q).max(r));
                if !b.intersects(&local) {
                    continue;
                }
                let Ok(tri) = Triangle::new(p, q, r) else {
                    continue;
                };
                keep(Shape::Triangle(tri));
            }
        }
        _ => return None,
    }
    Some(first.unwrap_or_else(|| ShapeCast {
        toi: R::ONE,
        status: CastStatus::Miss,
        ..ShapeCast::unsupported()
    }))
}

/// `true` when the world point `p` lies inside the closed mesh at `pose`.
fn contains<R: Real>(mesh: &MeshView<'_, R>, pose: &Iso3<R>, p: Vec3<R>) -> bool {
    let up = Ray::new(p, pose.rotation * Vec3::Z);
    mesh_ray_cast(mesh, pose, &up, R::INFINITY, true).status == RayStatus::Inside
}

/// The answer for a convex body that starts wholly inside a mesh: an
/// `Initial` contact at its interior point (no surface point is nearer
/// than the mesh's own surface, which this does not search).
fn initial_inside<R: Real, U: Support<R>>(shape: &Shape<'_, R, U>, pose: &Iso3<R>) -> ShapeCast<R> {
    let point = shape
        .visit(Extent)
        .map_or(pose.translation, |(_, p)| pose.transform_point(p));
    ShapeCast {
        toi: R::ZERO,
        distance: R::ZERO,
        p_a: point,
        p_b: point,
        normal: Vec3::Z,
        iterations: 0,
        status: CastStatus::Initial,
    }
}
