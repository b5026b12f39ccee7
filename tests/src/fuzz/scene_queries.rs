//! The `scene_queries` fuzz target: a small decoded scene (a fixed world
//! link and one or two free links; 2 to 6 geometries: convex shapes of
//! every kind of [`super::shapes`], half-spaces among them, height fields
//! on the world link and closed meshes, convex or dented, on any link,
//! from [`super::colliders`]), placed by one step, then asked the scene's
//! queries — [`SceneBuf::ray_cast`], [`SceneBuf::ray_cast_any`],
//! [`SceneBuf::ray_cast_all`] (run to the end and stopped early),
//! [`SceneBuf::project_point`] — with decoded rays, points and query
//! filters, and swept ([`SceneBuf::sweep`]) to decoded end poses, in f32
//! and f64.
//!
//! Input layout: a byte for the link count (2 or 3) and one for the
//! geometry count; per geometry a kind byte (convex shape, height field or
//! mesh), its collider's bytes, a link byte (height fields stay on the
//! world link), a mask byte (low nibble zero: 1/1), a margin byte and a
//! local pose; a filter byte; each free link's pose; then up to 4 rays
//! (a mode byte: aimed at a geometry, straight down, anywhere, or
//! invalid; a flag byte: solid, reach, query filter; the ray's
//! parameters), up to 3 points (a mode byte: at a geometry, anywhere; a
//! reach byte; the filter; the offset), and the sweep (each free link's
//! motion, a clearance byte).
//!
//! The oracles, with `tol` = [`rel_tol`] × the scene's size (4 × for the
//! sweep, above the casts' own tolerance):
//! - the ray queries are a brute force over every geometry the filter
//!   sees, by the query rule written out again here: each geometry's own
//!   [`Collider::ray_cast`] at its world pose (computed here from the link
//!   pose and the local pose) with the full `max_toi`, so the scene's box
//!   tests and shrinking reach are what is checked. The nearest hit is the
//!   brute force's nearest (the same geometry unless another one's hit is
//!   within `tol`; `t` within `tol` over the direction's length); `any`
//!   is the first hit geometry in index order; `all` visits exactly the
//!   geometries the brute force hits, in index order, each with its own
//!   hit, and stops when asked; an invalid ray or a negative `max_toi`
//!   gives nothing;
//! - the point query is the brute force's smallest signed distance
//!   ([`Collider::project_point`]) within `max_distance` (ties within
//!   `tol` may go to either geometry);
//! - the sweep: every hit is of a pair the filters keep, once, with
//!   `geom_a < geom_b` and their links, sorted by time, counted in the
//!   report; the motion before each hit's time, and the whole motion of
//!   every other pair with a cast, is clear: at 17 sampled times (and 4
//!   around the nearest) no pair is nearer than the clearance by more than
//!   `tol`, by the umbrella's distance query on each convex pair, on each
//!   height-field prism and mesh triangle near the convex geometry, and a
//!   mesh containment test written here (the mesh is star-shaped from a
//!   known point); a `Hit` is within `tol` of the clearance at its time
//!   (when the distance there is proven), an `Initial` starts within it.

use super::bytes::ByteReader;
use super::colliders::{decode_height_field, decode_mesh, FieldSpec, MeshSpec};
use super::scene_step::{decode_filters, decode_link_poses, decode_mounting, keeps, FilterKey};
use super::shape_cast::sample_motion;
use super::shapes::{decode_rotation, decode_shape, in_unit_cube, length, rel_tol, ShapeSpec};
use mink::broadphase::Filters;
use mink::cast::{CastStatus, Motion};
use mink::islands::{Link, Params};
use mink::query::Status;
use mink::ray::{Ray, RayStatus};
use mink::scene::{
    GeomDesc, QueryFilter, SceneBuf, SceneConfig, SceneDesc, SceneInput, SceneRayHit, SweepHit,
};
use mink::support::{Aabb, Iso3, Real, Triangle, Vec3};
use mink::{distance, Body, Collider, Method, Shape};

/// Most geometries of a decoded scene.
pub const MAX_QUERY_GEOMS: usize = 6;

/// Most rays asked of a decoded scene.
const MAX_RAYS: usize = 4;

/// Most points asked of a decoded scene.
const MAX_POINTS: usize = 3;

/// Evenly spaced times at which the sweep's clear motion is sampled (plus
/// one at each end).
const SWEEP_SAMPLES: usize = 16;

/// What the harness did with an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryOutcome {
    /// A constructor refused the decoded parameters.
    Refused,
    /// Checked; no ray hit and the sweep found no contact.
    Quiet,
    /// Checked; some ray hit or the sweep found a contact.
    Hits,
}

/// One decoded geometry's shape, owning what its collider borrows.
enum Kind<R: Real> {
    Convex(ShapeSpec<R>),
    Field(FieldSpec<R>),
    Mesh(MeshSpec<R>),
}

impl<R: Real> Kind<R> {
    /// The collider, or `None` when a constructor refuses it.
    fn collider(&self) -> Option<Collider<'_, R>> {
        Some(match self {
            Kind::Convex(s) => Collider::Convex(s.shape()?),
            Kind::Field(f) => Collider::HeightField(f.field()?),
            Kind::Mesh(m) => Collider::Mesh(m.body()),
        })
    }

    /// An upper bound on its points' distance from its frame's origin
    /// (a half-space: its plane's).
    fn extent(&self) -> f64 {
        match self {
            Kind::Convex(s) => s.extent(),
            Kind::Field(f) => f.extent(),
            Kind::Mesh(m) => m.extent(),
        }
    }
}

/// One decoded geometry.
struct Spec<R: Real> {
    kind: Kind<R>,
    link: u32,
    contype: u32,
    conaffinity: u32,
    margin: f64,
    local: Iso3<R>,
}

impl<R: Real> Spec<R> {
    fn key(&self) -> FilterKey {
        (self.link, self.contype, self.conaffinity)
    }

    /// `true` when a query with `filter` sees the geometry (the rule of
    /// [`QueryFilter`], written out again).
    fn seen_by(&self, filter: &QueryFilter) -> bool {
        self.link != filter.exclude_link
            && (filter.contype & self.conaffinity != 0 || self.contype & filter.conaffinity != 0)
    }
}

/// Decodes a query filter: every geometry, a pair of masks, or those
/// leaving out one link.
fn decode_filter(r: &mut ByteReader<'_>, n_links: usize) -> QueryFilter {
    let b = r.u8();
    let filter = match b & 3 {
        0 | 1 => QueryFilter::ALL,
        _ => QueryFilter::masks(u32::from((b >> 2) & 3), u32::from((b >> 4) & 3)),
    };
    if b & 64 != 0 {
        filter.excluding(u32::from(b >> 7) % n_links as u32)
    } else {
        filter
    }
}

/// A unit-ish direction from three decoded lengths, `+x` when they vanish.
fn decode_direction(r: &mut ByteReader<'_>) -> Vec3<f64> {
    in_unit_cube(r).normalize_or(Vec3::X)
}

/// The checks of the scene's ray queries for one decoded ray.
struct RayCheck<'c, 's, R: Real> {
    colliders: &'c [Collider<'s, R>],
    specs: &'c [Spec<R>],
    world: &'c [Iso3<R>],
    tol: f64,
}

impl<R: Real> RayCheck<'_, '_, R> {
    /// Every geometry's own hit of `ray` that `filter` sees, in index
    /// order.
    fn brute(
        &self,
        ray: &Ray<R>,
        max_toi: R,
        solid: bool,
        filter: &QueryFilter,
    ) -> Vec<SceneRayHit<R>> {
        let mut hits = Vec::new();
        if !ray.is_valid() || !(max_toi >= R::ZERO) {
            return hits;
        }
        for (i, spec) in self.specs.iter().enumerate() {
            if !spec.seen_by(filter) {
                continue;
            }
            let cast = self.colliders[i].ray_cast(&self.world[i], ray, max_toi, solid);
            if matches!(cast.status, RayStatus::Hit | RayStatus::Inside) {
                hits.push(SceneRayHit {
                    geom: i as u32,
                    link: spec.link,
                    toi: cast.toi,
                    point: cast.point,
                    normal: cast.normal,
                });
            }
        }
        hits
    }

    /// Checks `ray_cast`, `ray_cast_any` and `ray_cast_all` of `scene`.
    ///
    /// A geometry's hit may be missing from the scene's answers only when
    /// it grazes the box the step gave the geometry (the hit point within
    /// `tol` of the box's boundary: a ray through a point shape or along a
    /// flat face, which the slab test may reject by round-off); every
    /// other brute-force hit must be there.
    fn check(
        &self,
        scene: &SceneBuf<'_, R>,
        ray: &Ray<R>,
        max_toi: R,
        solid: bool,
        filter: &QueryFilter,
    ) -> Result<bool, String> {
        let brute = self.brute(ray, max_toi, solid, filter);
        let dir = ray.dir.cast::<f64>().norm().max(f64::MIN_POSITIVE);
        let tol = self.tol + rel_tol::<R>() * ray.origin.cast::<f64>().norm();
        let t_tol = tol / dir;
        let boxes = scene.broadphase_geoms();
        let grazes = |h: &SceneRayHit<R>| {
            boxes
                .get(h.geom as usize)
                .is_some_and(|g| box_boundary_distance(&g.aabb, h.point.cast()) <= tol)
        };
        let what = || format!("ray {ray:?} max_toi {max_toi:?} solid {solid} filter {filter:?}");
        // The brute force's hit of geometry `g`.
        let own = |g: u32| brute.iter().find(|h| h.geom == g);
        let close = |a: &SceneRayHit<R>, b: &SceneRayHit<R>| {
            a.link == b.link && (a.toi.to_f64() - b.toi.to_f64()).abs() <= t_tol
        };
        // A scene hit is the geometry's own hit.
        let genuine = |g: &SceneRayHit<R>, call: &str| -> Result<(), String> {
            match own(g.geom) {
                Some(mine) if close(g, mine) => Ok(()),
                mine => Err(format!(
                    "{}: {call} answers {g:?}, the geometry's own cast {mine:?}",
                    what()
                )),
            }
        };
        // Nearest: no brute hit that must be seen comes before it.
        let got = scene.ray_cast(ray, max_toi, solid, filter);
        let t_got = got.map_or(f64::INFINITY, |g| g.toi.to_f64());
        if let Some(g) = &got {
            genuine(g, "ray_cast")?;
        }
        if let Some(b) = brute
            .iter()
            .find(|b| !grazes(b) && b.toi.to_f64() < t_got - t_tol)
        {
            return Err(format!(
                "{}: ray_cast answers {got:?}, but the ray hits {b:?} before",
                what()
            ));
        }
        // Any: a hit, and no hit that must be seen at a lower index.
        let any = scene.ray_cast_any(ray, max_toi, solid, filter);
        let first = any.map_or(u32::MAX, |a| a.geom);
        if let Some(a) = &any {
            genuine(a, "ray_cast_any")?;
        }
        if let Some(b) = brute.iter().find(|b| !grazes(b) && b.geom < first) {
            return Err(format!(
                "{}: ray_cast_any answers {any:?}, but the ray hits {b:?}",
                what()
            ));
        }
        // All, to the end: every hit genuine, in index order, none that
        // must be seen left out.
        let mut all: Vec<SceneRayHit<R>> = Vec::new();
        let n = scene.ray_cast_all(ray, max_toi, solid, filter, |h| {
            all.push(h);
            true
        });
        if n != all.len() || all.windows(2).any(|w| w[0].geom >= w[1].geom) {
            return Err(format!("{}: ray_cast_all returned {n} for {all:?}", what()));
        }
        for h in &all {
            genuine(h, "ray_cast_all")?;
        }
        if let Some(b) = brute
            .iter()
            .find(|b| !grazes(b) && !all.iter().any(|h| h.geom == b.geom))
        {
            return Err(format!(
                "{}: ray_cast_all visits {all:?}, not {b:?}",
                what()
            ));
        }
        // All, asked to stop at once.
        let mut visits = 0;
        let n = scene.ray_cast_all(ray, max_toi, solid, filter, |_| {
            visits += 1;
            false
        });
        if n != visits || n != all.len().min(1) {
            return Err(format!(
                "{}: ray_cast_all asked to stop at once visited {visits}, returned {n}, of {}",
                what(),
                all.len()
            ));
        }
        Ok(!brute.is_empty())
    }

    /// Checks `project_point` of `scene` against the brute force.
    fn check_point(
        &self,
        scene: &SceneBuf<'_, R>,
        point: Vec3<R>,
        max_distance: R,
        filter: &QueryFilter,
    ) -> Result<(), String> {
        let mut best: Option<(u32, f64)> = None;
        let mut seen = Vec::new();
        for (i, spec) in self.specs.iter().enumerate() {
            if !spec.seen_by(filter) {
                continue;
            }
            let q = self.colliders[i].project_point(&self.world[i], point);
            // The scene ranks the projections that finished.
            if !q.status.is_finished() {
                continue;
            }
            let d = q.distance.to_f64();
            seen.push((i as u32, d));
            if best.is_none_or(|(_, b)| d < b) {
                best = Some((i as u32, d));
            }
        }
        let best = best.filter(|&(_, d)| d <= max_distance.to_f64());
        let got = scene.project_point(point, max_distance, filter);
        let what = || format!("point {point:?} max_distance {max_distance:?} filter {filter:?}");
        match (got, best) {
            (None, None) => Ok(()),
            (Some(g), Some((_, d))) => {
                let own = seen.iter().find(|(i, _)| *i == g.geom).map(|&(_, d)| d);
                let gd = g.distance.to_f64();
                let ok = own.is_some_and(|o| (o - gd).abs() <= self.tol)
                    && (gd - d).abs() <= self.tol
                    && g.link == self.specs[g.geom as usize].link;
                if ok {
                    Ok(())
                } else {
                    Err(format!(
                        "{}: scene {g:?}, its geometry alone {own:?}, brute nearest {best:?}",
                        what()
                    ))
                }
            }
            (Some(g), None) if g.distance.to_f64() <= max_distance.to_f64() + self.tol => {
                // The brute force's nearest is past the reach by round-off.
                Ok(())
            }
            (None, Some((_, d))) if d >= max_distance.to_f64() - self.tol => Ok(()),
            (got, best) => Err(format!("{}: scene {got:?}, brute nearest {best:?}", what())),
        }
    }
}

/// The sweep's oracle: each geometry's motion and what the umbrella's
/// distance query says of a pair along it.
struct SweepCheck<'c, 's, R: Real> {
    colliders: &'c [Collider<'s, R>],
    specs: &'c [Spec<R>],
    start: &'c [Iso3<R>],
    end: &'c [Iso3<R>],
    clearance: f64,
    tol: f64,
}

/// `(lower, upper)` bounds on a pair's signed distance, meters.
type Bounds = (Option<f64>, Option<f64>);

impl<R: Real> SweepCheck<'_, '_, R> {
    /// Geometry `k`'s world pose at time `t` of the motion.
    fn pose(&self, k: usize, t: f64) -> Iso3<R> {
        Motion::new(self.start[k], self.end[k]).at(R::lit(t))
    }

    /// `true` when the sweep has a cast for the pair (its module docs): two
    /// convex geometries (not two half-spaces), or a bounded convex one and
    /// a height field or mesh that stays put.
    fn has_cast(&self, i: usize, j: usize) -> bool {
        let convex = |k: usize| match self.colliders[k] {
            Collider::Convex(s) | Collider::ConvexWithField(s, _) => Some(s),
            _ => None,
        };
        let still = |k: usize| self.start[k] == self.end[k];
        match (convex(i), convex(j)) {
            (Some(a), Some(b)) => !(is_plane(&a) && is_plane(&b)),
            (Some(a), None) => !is_plane(&a) && still(j),
            (None, Some(b)) => !is_plane(&b) && still(i),
            (None, None) => false,
        }
    }

    /// Bounds on the signed distance of the pair `(i, j)` at time `t`.
    fn bounds(&self, i: usize, j: usize, t: f64) -> Bounds {
        let (pi, pj) = (self.pose(i, t), self.pose(j, t));
        match (&self.colliders[i], &self.colliders[j]) {
            (Collider::Convex(a), Collider::Convex(b)) => convex_bounds(a, &pi, b, &pj),
            (Collider::Convex(a), other) => self.piecewise(a, &pi, other, &self.specs[j], &pj),
            (other, Collider::Convex(b)) => self.piecewise(b, &pj, other, &self.specs[i], &pi),
            _ => (None, None),
        }
    }

    /// Bounds on the signed distance of the convex `shape` at `pose` from a
    /// height field or mesh at `at`: the nearest of its prisms or
    /// triangles whose box comes within the clearance (the others are
    /// farther), and for a mesh, containment of the shape's interior point.
    fn piecewise(
        &self,
        shape: &Shape<'_, R>,
        pose: &Iso3<R>,
        other: &Collider<'_, R>,
        spec: &Spec<R>,
        at: &Iso3<R>,
    ) -> Bounds {
        let reach = self.clearance + 2.0 * self.tol;
        let near = shape
            .world_aabb(pose)
            .transformed(&at.inverse())
            .inflated(R::lit(reach));
        let mut upper = f64::INFINITY;
        let mut lower = reach;
        let mut lower_known = true;
        let mut piece = |s: Shape<'_, R>| {
            let (lo, up) = convex_bounds(shape, pose, &s, at);
            if let Some(u) = up {
                upper = upper.min(u);
            }
            match lo {
                Some(l) => lower = lower.min(l),
                None => lower_known = false,
            }
        };
        match (other, &spec.kind) {
            (Collider::HeightField(field), _) => {
                let (columns, rows) = field.cell_counts();
                for j in 0..rows {
                    for i in 0..columns {
                        for prism in field.cell_prisms(i, j).into_iter().flatten() {
                            let [a, b, c] = prism.top();
                            let low = Vec3::new(a.x, a.y, prism.base());
                            let b3 = Aabb::new(a.min(b).min(c).min(low), a.max(b).max(c));
                            if b3.intersects(&near) {
                                piece(Shape::TerrainPrism(prism));
                            }
                        }
                    }
                }
                // Overlap of a piece is overlap of the union, but a lower
                // bound holds only while apart (the union may be deeper).
                if upper <= 0.0 {
                    lower_known = false;
                }
            }
            (Collider::Mesh(body), Kind::Mesh(mesh)) => {
                let view = body.mesh;
                for t in 0..view.triangles().len() {
                    let Some([a, b, c]) = view.triangle(t) else {
                        continue;
                    };
                    if !Aabb::new(a.min(b).min(c), a.max(b).max(c)).intersects(&near) {
                        continue;
                    }
                    if let Ok(tri) = Triangle::new(a, b, c) {
                        piece(Shape::Triangle(tri));
                    }
                }
                let inside = shape_point(shape).map(|p| {
                    let local = at.inverse_transform_point(pose.transform_point(p));
                    mesh.contains(local.cast(), self.tol)
                });
                match inside {
                    Some(Some(true)) => {
                        upper = upper.min(0.0);
                        lower_known = false;
                    }
                    Some(Some(false)) if upper > 0.0 => {}
                    _ => lower_known = false,
                }
            }
            _ => return (None, None),
        }
        (
            lower_known.then_some(lower),
            upper.is_finite().then_some(upper),
        )
    }

    /// Checks that no sampled time in `[0, until]` has the pair nearer
    /// than the clearance by more than `tol`.
    fn clear_until(&self, i: usize, j: usize, until: f64) -> Result<(), String> {
        let check = |t: f64| -> Result<Option<f64>, String> {
            let (lower, upper) = self.bounds(i, j, t);
            if let Some(u) = upper {
                if u < self.clearance - self.tol {
                    return Err(format!(
                        "pair ({i}, {j}) at t = {t} (clear until {until}) is {u} m apart, \
                         under the clearance {} by more than {}",
                        self.clearance, self.tol
                    ));
                }
            }
            Ok(lower.or(upper))
        };
        sample_motion(until, SWEEP_SAMPLES, 2, check)
    }

    /// Checks one reported hit.
    fn check_hit(&self, h: &SweepHit<R>) -> Result<(), String> {
        let (i, j) = (h.geom_a as usize, h.geom_b as usize);
        let toi = h.toi.to_f64();
        if !(0.0..=1.0).contains(&toi) {
            return Err(format!("a sweep hit at {toi}: {h:?}"));
        }
        match h.status {
            CastStatus::Initial => {
                if toi != 0.0 {
                    return Err(format!("Initial at {toi}: {h:?}"));
                }
                if let (Some(l), _) = self.bounds(i, j, 0.0) {
                    if l > self.clearance + self.tol {
                        return Err(format!("Initial, but {l} m apart at the start: {h:?}"));
                    }
                }
                Ok(())
            }
            CastStatus::Hit | CastStatus::IterationLimit => {
                self.clear_until(i, j, toi)?;
                if h.status == CastStatus::Hit {
                    if let (Some(l), _) = self.bounds(i, j, toi) {
                        if l > self.clearance + self.tol {
                            return Err(format!(
                                "a hit {l} m apart at its time (clearance {}): {h:?}",
                                self.clearance
                            ));
                        }
                    }
                }
                Ok(())
            }
            _ => Err(format!("a sweep hit with status {:?}: {h:?}", h.status)),
        }
    }
}

/// The distance of the point `p` from the boundary of the box `b`, inside
/// or outside, meters.
fn box_boundary_distance<R: Real>(b: &Aabb<R>, p: Vec3<f64>) -> f64 {
    let (lo, hi) = (b.min.cast::<f64>(), b.max.cast::<f64>());
    let axes = [(p.x, lo.x, hi.x), (p.y, lo.y, hi.y), (p.z, lo.z, hi.z)];
    let outside: f64 = axes
        .iter()
        .map(|&(x, l, h)| (l - x).max(x - h).max(0.0).powi(2))
        .sum::<f64>()
        .sqrt();
    if outside > 0.0 {
        return outside;
    }
    axes.iter()
        .map(|&(x, l, h)| (x - l).min(h - x))
        .fold(f64::INFINITY, f64::min)
}

/// `true` for a half-space.
fn is_plane<R: Real>(s: &Shape<'_, R>) -> bool {
    matches!(s, Shape::HalfSpace(_))
}

/// A point inside a bounded convex shape (shape frame): the mean of its
/// extreme points along the six axes; `None` for a half-space.
fn shape_point<R: Real>(s: &Shape<'_, R>) -> Option<Vec3<R>> {
    if is_plane(s) {
        return None;
    }
    let mut sum = Vec3::ZERO;
    for n in [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::X, -Vec3::Y, -Vec3::Z] {
        sum += extreme(s, n);
    }
    Some(sum * R::lit(1.0 / 6.0))
}

/// The support point of a bounded shape along `n` (shape frame), through
/// the umbrella's distance query from a far point (the shape's own support
/// functions are not public on `Shape`): the nearest point of the shape
/// to a point far along `n` is on its surface, and the mean of six such
/// points lies inside the convex shape.
fn extreme<R: Real>(s: &Shape<'_, R>, n: Vec3<R>) -> Vec3<R> {
    let b = s.world_aabb(&Iso3::IDENTITY);
    let far = (b.max - b.min).norm() + R::ONE;
    let centre = (b.min + b.max) * R::HALF;
    let probe = Shape::Point(mink::support::Point);
    let at = Body::new(&probe, Iso3::from_translation(centre + n * far));
    let d = distance(&Body::new(s, Iso3::IDENTITY), &at, Method::Auto);
    if d.status.is_answer() {
        d.p_a
    } else {
        centre
    }
}

/// Bounds on the signed distance of two convex shapes at their poses, from
/// the umbrella's distance query: a settled answer bounds both ways, an
/// overlap whose depth is unverified proves only `upper = 0`.
fn convex_bounds<R: Real>(
    a: &Shape<'_, R>,
    pa: &Iso3<R>,
    b: &Shape<'_, R>,
    pb: &Iso3<R>,
) -> Bounds {
    let q = distance(&Body::new(a, *pa), &Body::new(b, *pb), Method::Auto);
    let d = q.distance.to_f64();
    match q.status {
        Status::Exact | Status::Converged if d.is_finite() => (Some(d), Some(d)),
        Status::Unverified | Status::IterationLimit if d <= 0.0 => (None, Some(0.0)),
        _ => (None, None),
    }
}

/// Decodes `data` in scalar `R`, asks the scene's queries and checks them
/// against the brute force: what it checked, or the first mismatch.
pub fn check_bytes<R: Real>(data: &[u8]) -> Result<QueryOutcome, String> {
    let mut r = ByteReader::new(data);
    let n_links = 2 + usize::from(r.u8()) % 2;
    let links: Vec<Link> = (0..n_links)
        .map(|i| {
            if i == 0 {
                Link::world()
            } else {
                Link::free(6 * (i as u32 - 1), 6)
            }
        })
        .collect();
    let dofs = 6 * (n_links - 1);
    let n_geoms = 2 + usize::from(r.u8()) % (MAX_QUERY_GEOMS - 1);
    let mut specs = Vec::with_capacity(n_geoms);
    for _ in 0..n_geoms {
        let pick = r.u8() % 8;
        let kind = match pick {
            6 => match decode_height_field::<R>(&mut r) {
                Some(f) => Kind::Field(f),
                None => return Ok(QueryOutcome::Refused),
            },
            7 => match decode_mesh::<R>(&mut r) {
                Some(m) => Kind::Mesh(m),
                None => return Ok(QueryOutcome::Refused),
            },
            _ => match decode_shape::<R>(&mut r) {
                Some(s) => Kind::Convex(s),
                None => return Ok(QueryOutcome::Refused),
            },
        };
        let link_byte = u32::from(r.u8());
        let link = if matches!(kind, Kind::Field(_)) {
            0
        } else {
            link_byte % n_links as u32
        };
        let (contype, conaffinity, margin, local) = decode_mounting(&mut r, kind.extent());
        specs.push(Spec {
            kind,
            link,
            contype,
            conaffinity,
            margin,
            local,
        });
    }
    let colliders: Vec<Collider<'_, R>> = match specs.iter().map(|s| s.kind.collider()).collect() {
        Some(c) => c,
        None => return Ok(QueryOutcome::Refused),
    };
    let geoms: Vec<GeomDesc<'_, R>> = specs
        .iter()
        .zip(&colliders)
        .map(|(s, c)| {
            GeomDesc::new(*c, s.link)
                .with_pose(s.local)
                .with_masks(s.contype, s.conaffinity)
                .with_margin(R::lit(s.margin))
        })
        .collect();
    let filters = decode_filters(&mut r);
    let mut config = SceneConfig::new();
    config.filters = filters;
    config.hibernation = Params::no_hibernation();
    let dof_length = vec![R::ONE; dofs];
    let desc = SceneDesc::new(&geoms, &links, &dof_length, &[])
        .map_err(|e| format!("the decoded scene is refused: {e}"))?;
    let mut scene = SceneBuf::new(desc, config).map_err(|e| format!("SceneBuf::new: {e}"))?;
    let poses: Vec<Iso3<R>> = decode_link_poses(&mut r, &links);
    let velocities = vec![R::ZERO; dofs];
    scene
        .step(&SceneInput::new(&poses, &velocities))
        .map_err(|e| format!("step: {e}"))?;
    let world: Vec<Iso3<R>> = specs
        .iter()
        .map(|s| poses[s.link as usize].mul(&s.local))
        .collect();
    let size = specs
        .iter()
        .zip(&world)
        .filter(|(s, _)| !matches!(&s.kind, Kind::Convex(c) if c.is_half_space()))
        .map(|(s, w)| s.kind.extent() + s.margin + w.translation.cast::<f64>().norm())
        .fold(1e-3, f64::max);
    let tol = rel_tol::<R>() * size;
    let rays = RayCheck {
        colliders: &colliders,
        specs: &specs,
        world: &world,
        tol,
    };
    let mut any_hit = false;
    for _ in 0..1 + usize::from(r.u8()) % MAX_RAYS {
        let mode = r.u8();
        let flags = r.u8();
        let filter = decode_filter(&mut r, n_links);
        let target = usize::from(r.u8()) % specs.len();
        let aim = world[target].transform_point(Vec3::new(
            R::lit(length(&mut r, -0.5, 0.5) * specs[target].kind.extent()),
            R::lit(length(&mut r, -0.5, 0.5) * specs[target].kind.extent()),
            R::lit(length(&mut r, -0.5, 0.5) * specs[target].kind.extent()),
        ));
        let origin = Vec3::new(
            R::lit(length(&mut r, -2.0, 2.0) * size),
            R::lit(length(&mut r, -2.0, 2.0) * size),
            R::lit(length(&mut r, -2.0, 2.0) * size),
        );
        let ray = match mode % 5 {
            // At a geometry, from anywhere.
            0 | 1 => Ray::new(origin, aim - origin),
            // Straight down onto the point aimed at.
            2 => Ray::new(aim + Vec3::Z * R::lit(size), -Vec3::Z),
            // From the point aimed at (often inside), anywhere.
            3 => Ray::new(aim, decode_direction(&mut r).cast()),
            // An invalid ray.
            _ => Ray::new(origin, Vec3::ZERO),
        };
        let solid = flags & 1 != 0;
        let max_toi = match (flags >> 1) % 4 {
            0 => R::INFINITY,
            1 => R::lit(0.5),
            2 => R::lit(-1.0),
            _ => R::lit(4.0),
        };
        any_hit |= rays.check(&scene, &ray, max_toi, solid, &filter)?;
    }
    for _ in 0..1 + usize::from(r.u8()) % MAX_POINTS {
        let mode = r.u8();
        let filter = decode_filter(&mut r, n_links);
        let target = usize::from(r.u8()) % specs.len();
        let offset = in_unit_cube(&mut r);
        let point = if mode & 1 == 0 {
            world[target].transform_point((offset * specs[target].kind.extent()).cast())
        } else {
            (offset * (2.0 * size)).cast()
        };
        let max_distance = match (mode >> 1) % 4 {
            0 => R::INFINITY,
            1 => R::lit(0.1 * size),
            2 => R::ZERO,
            _ => R::lit(-0.01 * size),
        };
        rays.check_point(&scene, point, max_distance, &filter)?;
    }
    // The sweep: each free link moves by up to one scene size and turns.
    let end: Vec<Iso3<R>> = links
        .iter()
        .zip(&poses)
        .map(|(l, p)| {
            if l.fixed {
                return *p;
            }
            let d = in_unit_cube(&mut r) * size;
            let rot = decode_rotation::<R>(&mut r);
            Iso3::from_parts(rot.mul_mat(&p.rotation), p.translation + d.cast())
        })
        .collect();
    let clearance = [0.0, 1e-3, 0.05, 0.3][usize::from(r.u8() % 4)] * size;
    let mut hits = Vec::new();
    let report = scene
        .sweep(&poses, &end, R::lit(clearance), &mut hits)
        .map_err(|e| format!("sweep: {e}"))?;
    let end_world: Vec<Iso3<R>> = specs
        .iter()
        .map(|s| end[s.link as usize].mul(&s.local))
        .collect();
    // The sweep's scene reaches as far as its end poses and the clearance.
    let moved = end_world
        .iter()
        .map(|p| p.translation.cast::<f64>().norm())
        .fold(0.0, f64::max);
    let sweep = SweepCheck {
        colliders: &colliders,
        specs: &specs,
        start: &world,
        end: &end_world,
        clearance,
        tol: 4.0 * rel_tol::<R>() * (size + moved + clearance),
    };
    if report.hits != hits.len() || report.hits + report.unsupported_pairs > report.candidate_pairs
    {
        return Err(format!("sweep report {report:?} for {} hits", hits.len()));
    }
    let sweep_filters = Filters {
        both_asleep: false,
        ..filters
    };
    let mut reported = vec![false; n_geoms * n_geoms];
    for (k, h) in hits.iter().enumerate() {
        let (i, j) = (h.geom_a as usize, h.geom_b as usize);
        let malformed = i >= j
            || j >= n_geoms
            || h.link_a != specs[i].link
            || h.link_b != specs[j].link
            || reported[i * n_geoms + j]
            || (k > 0 && hits[k - 1].toi > h.toi)
            || !keeps(&sweep_filters, &links, specs[i].key(), specs[j].key());
        if malformed {
            return Err(format!(
                "malformed or unsorted sweep hit {k}: {h:?} of {hits:?}"
            ));
        }
        reported[i * n_geoms + j] = true;
        sweep.check_hit(h)?;
    }
    for i in 0..n_geoms {
        for j in i + 1..n_geoms {
            if reported[i * n_geoms + j]
                || !keeps(&sweep_filters, &links, specs[i].key(), specs[j].key())
                || !sweep.has_cast(i, j)
            {
                continue;
            }
            sweep.clear_until(i, j, 1.0)?;
        }
    }
    Ok(if any_hit || !hits.is_empty() {
        QueryOutcome::Hits
    } else {
        QueryOutcome::Quiet
    })
}
