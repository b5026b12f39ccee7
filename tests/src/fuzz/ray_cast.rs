//! The `ray_cast` fuzz target: a decoded [`mink::Shape`] (layout in
//! [`super::shapes`]) with a margin and a pose, and a decoded ray, through
//! [`mink::ray_cast`] and [`mink::project_point`], in f32 and f64.
//!
//! Input layout: the shape, a margin byte ([`decode_margin`]), the pose
//! ([`decode_pose`]), a mode byte (how the ray is aimed: from outside at
//! the shape, from inside, grazing its bounding sphere, or anywhere, and
//! whether it is solid and how far `max_toi` reaches), then the ray's
//! parameters.
//!
//! The checks, with `tol` = [`rel_tol`] × the scene's size, each against
//! point projections of the pair table (a different algorithm from either
//! ray cast):
//! - a valid input never gives `NonFinite` or `IterationLimit`;
//! - a hit is at `origin + toi·dir`, `toi` within `[0, max_toi]`, on the
//!   surface (its projection's distance within `tol`), with a unit normal
//!   that bounds the shape (a point moved off along it by 1% of the size
//!   is that far from the shape) and faces the ray when it enters;
//! - an entering hit leaves the ray outside before it; an exit (not
//!   solid, from inside) leaves it inside before it and outside after;
//! - `Inside` only for a solid ray whose origin is inside (within `tol`);
//! - a miss leaves every point of the ray up to `max_toi` (and past the
//!   shape) outside;
//! - the closed forms (sphere, box, capsule, cylinder, cone, ellipsoid,
//!   triangle, terrain prism) agree with GJK's ray cast on the same shape, but for rays
//!   grazing the surface;
//! - moving shape and ray by one rigid motion moves the hit with them
//!   (but for a ray that is not solid from a point on the surface into
//!   the shape, which may hit at once or, from inside by round-off, at
//!   the exit).

use super::bytes::ByteReader;
use super::shapes::{decode_margin, decode_pose, decode_shape, rel_tol, Placed};
use mink::query::{project_point, Status};
use mink::ray::{Ray, RayCast, RayStatus};
use mink::support::{Iso3, Point, Real, Rounded, Support, Vec3};
use mink::{intersect, ray_cast, Body, Method, Shape};

/// What the harness did with an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RayOutcome {
    /// A constructor refused the decoded parameters.
    Refused,
    /// Checked; the ray missed.
    Miss,
    /// Checked; the ray hit (entering or leaving).
    Hit,
    /// Checked; the ray started inside and was solid.
    Inside,
}

/// The signed distance of the world point `p` from the placed shape
/// (negative inside), `None` when the projection is not proven.
fn signed<R: Real>(s: &Placed<'_, '_, R>, p: Vec3<f64>) -> Option<f64> {
    let q = project_point(&s.body(), p.cast());
    matches!(q.status, Status::Exact | Status::Converged).then(|| q.distance.to_f64())
}

/// Where a ray's origin `p` stands: its signed distance when that is
/// settled ([`signed`]), else only its side, from the umbrella's
/// intersection test of a point there (minus infinity inside, plus
/// infinity outside): a point deep in a curved shape, whose depth MPR
/// leaves unverified, is still known to be inside.
fn origin_side<R: Real>(s: &Placed<'_, '_, R>, p: Vec3<f64>) -> Option<f64> {
    signed(s, p).or_else(|| {
        let point = Shape::Point(Point);
        let at = Body::new(&point, Iso3::from_translation(p.cast()));
        let o = intersect(&at, &s.body(), Method::Auto);
        o.status.is_answer().then_some(if o.intersecting {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        })
    })
}

/// GJK's ray cast on the concrete shape when the table has a closed form
/// for it (so the two can be compared), else `None`.
fn gjk_reference<R: Real>(
    s: &Placed<'_, '_, R>,
    ray: &Ray<R>,
    max_toi: R,
    solid: bool,
) -> Option<RayCast<R>> {
    fn on<R: Real, S: Support<R>>(
        shape: &S,
        s: &Placed<'_, '_, R>,
        ray: &Ray<R>,
        max_toi: R,
        solid: bool,
    ) -> Option<RayCast<R>> {
        let rounded = Rounded::new(shape, s.margin).ok()?;
        Some(mink::gjk::ray_cast(&rounded, &s.pose, ray, max_toi, solid))
    }
    match s.shape {
        Shape::Sphere(x) => on(x, s, ray, max_toi, solid),
        Shape::Cuboid(x) => on(x, s, ray, max_toi, solid),
        Shape::Capsule(x) => on(x, s, ray, max_toi, solid),
        Shape::Cylinder(x) => on(x, s, ray, max_toi, solid),
        Shape::Cone(x) => on(x, s, ray, max_toi, solid),
        Shape::Ellipsoid(x) => on(x, s, ray, max_toi, solid),
        Shape::Triangle(x) => on(x, s, ray, max_toi, solid),
        Shape::TerrainPrism(x) => on(x, s, ray, max_toi, solid),
        _ => None,
    }
}

/// A unit direction from six bytes.
fn direction(r: &mut ByteReader<'_>) -> Vec3<f64> {
    let mut c = || f64::from(r.u16()) / f64::from(u16::MAX) * 2.0 - 1.0;
    Vec3::new(c(), c(), c()).normalize_or(Vec3::X)
}

/// Decodes `data` in scalar `R` and checks the ray cast: what it checked,
/// or the first check that failed.
pub fn check_bytes<R: Real>(data: &[u8]) -> Result<RayOutcome, String> {
    let mut r = ByteReader::new(data);
    let Some(spec) = decode_shape::<R>(&mut r) else {
        return Ok(RayOutcome::Refused);
    };
    let Some(shape) = spec.shape() else {
        return Ok(RayOutcome::Refused);
    };
    let extent = spec.extent().max(0.02);
    let margin = decode_margin(&mut r, extent);
    let pose: Iso3<R> = decode_pose(&mut r, 2.0 * extent);
    let placed = Placed {
        shape: &shape,
        pose,
        margin: R::lit(margin),
    };
    let reach = extent + margin;
    let center = pose.translation.cast::<f64>();
    let mode = r.u8();
    let length = [1.0, 1e-3, 30.0, 0.37][usize::from((mode >> 3) & 3)];
    let (origin, dir) = match mode & 7 {
        // From outside, at a point within the shape's bounding sphere.
        0..=2 => {
            let o = center + direction(&mut r) * reach * (1.05 + 3.0 * f64::from(r.u8()) / 255.0);
            let aim = center + direction(&mut r) * reach * f64::from(r.u8()) / 255.0;
            (o, (aim - o).normalize_or(Vec3::X))
        }
        // From inside (near the centre), anywhere.
        3 | 4 => {
            let o = center + direction(&mut r) * reach * 0.2 * f64::from(r.u8()) / 255.0;
            (o, direction(&mut r))
        }
        // Grazing the bounding sphere's inner shell.
        5 => {
            let o = center + direction(&mut r) * reach * 3.0;
            let side = direction(&mut r);
            let to = (center - o).normalize_or(Vec3::X);
            let across = (side - to * side.dot(to)).normalize_or(to.any_orthonormal());
            let aim = center + across * reach * (0.5 + 0.5 * f64::from(r.u8()) / 255.0);
            (o, (aim - o).normalize_or(Vec3::X))
        }
        // Anywhere, any way.
        _ => (
            center + direction(&mut r) * reach * 4.0 * f64::from(r.u8()) / 255.0,
            direction(&mut r),
        ),
    };
    let dir = dir * length;
    let solid = mode & 0x20 == 0;
    let max_toi = if mode & 0x40 == 0 {
        f64::INFINITY
    } else {
        reach * 4.0 * f64::from(r.u8()) / 255.0 / length
    };
    let ray = Ray::new(origin.cast::<R>(), dir.cast::<R>());
    let max_toi_r = R::lit(max_toi);
    let size = reach + center.norm() + origin.norm();
    let tol = rel_tol::<R>() * size * 4.0;
    let context = |e: String| {
        format!(
            "{e} [{}]\n  shape {placed:?}\n  ray {ray:?} max_toi {max_toi} solid {solid}",
            shape.name()
        )
    };
    let got = ray_cast(&placed.body(), &ray, max_toi_r, solid);
    let outcome = check_cast(&placed, &ray, max_toi, solid, &got, tol, reach).map_err(context)?;

    // Closed form against GJK's cast.
    if let Some(reference) = gjk_reference(&placed, &ray, max_toi_r, solid) {
        compare(&got, &reference, &placed, &ray, solid, tol)
            .map_err(|e| context(format!("vs GJK: {e}")))?;
    }
    // One rigid motion of shape and ray together.
    let motion: Iso3<R> = decode_pose(&mut r, 2.0 * extent);
    let moved = Placed {
        pose: motion.mul(&pose),
        ..placed
    };
    let moved_ray = Ray::new(
        motion.transform_point(ray.origin),
        motion.rotation * ray.dir,
    );
    let again = ray_cast(&moved.body(), &moved_ray, max_toi_r, solid);
    let moved_size = size + motion.translation.cast::<f64>().norm();
    let moved_tol = rel_tol::<R>() * moved_size * 4.0;
    compare(&got, &again, &placed, &ray, solid, moved_tol.max(tol))
        .map_err(|e| context(format!("after a rigid motion {motion:?}: {e}")))?;
    Ok(outcome)
}

/// Two casts of the same ray (`ray` is `a`'s; `b`'s may be moved
/// rigidly) agree: the same `toi`, and the same verdict unless the ray
/// only grazes the shape (no point of it past the hit of the one that hits
/// is inside by more than `tol`: a tangent ray, an edge or a flat shape
/// seen edge-on) or starts within `tol` of the surface (`Inside` or a hit
/// at once; for a ray that is not `solid`, a hit at once or the exit).
fn compare<R: Real>(
    a: &RayCast<R>,
    b: &RayCast<R>,
    s: &Placed<'_, '_, R>,
    ray: &Ray<R>,
    solid: bool,
    tol: f64,
) -> Result<(), String> {
    let o = ray.origin.cast::<f64>();
    let d = ray.dir.cast::<f64>();
    let len = d.norm();
    if a.status != b.status {
        use RayStatus::{Hit, Inside, Miss};
        let legit = match (a.status, b.status) {
            (Hit, Miss) | (Miss, Hit) => {
                let t = if a.status == Hit { a.toi } else { b.toi }.to_f64();
                (0..=16).all(|j| {
                    let q = o + d * (t + j as f64 * tol / len);
                    signed(s, q).is_none_or(|x| x >= -2.0 * tol)
                })
            }
            (Inside, Hit) | (Hit, Inside) | (Inside, Miss) | (Miss, Inside) => {
                signed(s, o).is_none_or(|x| x.abs() <= tol)
            }
            _ => false,
        };
        if !legit {
            return Err(format!("verdicts differ: {a:?} vs {b:?}"));
        }
        return Ok(());
    }
    if a.status == RayStatus::Hit {
        let dt = (a.toi - b.toi).to_f64().abs() * len;
        if dt > tol * 10.0 && (solid || !on_surface_both_ways(a, b, s, ray, tol)) {
            return Err(format!("toi differ by {dt} m: {a:?} vs {b:?}"));
        }
    }
    Ok(())
}

/// Whether two hits of a ray that is not solid differ only because its
/// origin is on the surface (within `tol`): the contract then allows the
/// entry at 0 (the origin outside by round-off) or the exit (inside by
/// round-off). Either one hit is at 0 and the other on the surface (the
/// ray runs into the shape), or the ray runs along the surface from one
/// hit to the other (every point between them on it, so each is an exit
/// to round-off). A non-solid ray from a sliver terrain prism's side face,
/// in f64, gave 0 before a rigid motion and the exit 6.6 mm on after it;
/// one run along that face left it 41 mm on or 7 mm on.
fn on_surface_both_ways<R: Real>(
    a: &RayCast<R>,
    b: &RayCast<R>,
    s: &Placed<'_, '_, R>,
    ray: &Ray<R>,
    tol: f64,
) -> bool {
    let o = ray.origin.cast::<f64>();
    let d = ray.dir.cast::<f64>();
    let (near, far) = if a.toi <= b.toi { (a, b) } else { (b, a) };
    let on_surface = |p: Vec3<f64>| signed(s, p).is_some_and(|x| x.abs() <= 2.0 * tol);
    let (t0, t1) = (near.toi.to_f64(), far.toi.to_f64());
    let along = (0..=16).all(|j| on_surface(o + d * (t0 + (t1 - t0) * j as f64 / 16.0)));
    on_surface(o) && on_surface(o + d * t1) && (t0 * d.norm() <= 10.0 * tol || along)
}

/// The checks of one cast (see the module docs).
fn check_cast<R: Real>(
    s: &Placed<'_, '_, R>,
    ray: &Ray<R>,
    max_toi: f64,
    solid: bool,
    got: &RayCast<R>,
    tol: f64,
    reach: f64,
) -> Result<RayOutcome, String> {
    let o = ray.origin.cast::<f64>();
    let d = ray.dir.cast::<f64>();
    let len = d.norm();
    let at = |t: f64| o + d * t;
    let outside = |p: Vec3<f64>| signed(s, p).is_none_or(|x| x >= -tol);
    let inside = |p: Vec3<f64>| signed(s, p).is_none_or(|x| x <= tol);
    match got.status {
        RayStatus::NonFinite | RayStatus::IterationLimit => Err(format!("status {got:?}")),
        RayStatus::Inside => {
            if !solid {
                return Err(format!("Inside for a ray that is not solid: {got:?}"));
            }
            if !inside(o) || got.toi != R::ZERO || got.normal != Vec3::ZERO {
                return Err(format!("Inside but the origin is outside: {got:?}"));
            }
            Ok(RayOutcome::Inside)
        }
        RayStatus::Hit => {
            let t = got.toi.to_f64();
            if !(t >= 0.0 && t <= max_toi) {
                return Err(format!("toi {t} outside [0, {max_toi}]"));
            }
            let p = got.point.cast::<f64>();
            if (p - at(t)).norm() > tol {
                return Err(format!("point is not origin + toi dir: {got:?}"));
            }
            if let Some(x) = signed(s, p) {
                if x.abs() > tol {
                    return Err(format!("hit point {x} m from the surface: {got:?}"));
                }
            }
            let n = got.normal.cast::<f64>();
            if (n.norm() - 1.0).abs() > 1e-3 {
                return Err(format!("normal not unit: {got:?}"));
            }
            let off = 0.01 * reach;
            if let Some(x) = signed(s, p + n * off) {
                if x < off * 0.99 - tol {
                    return Err(format!(
                        "1% off the surface along the normal is {x} m from it (not {off}): {got:?}"
                    ));
                }
            }
            // Solid, or from outside: the ray enters. From within `tol` of
            // the surface either is right; the normal says which it took.
            let start = origin_side(s, o);
            let entering = solid
                || start.is_some_and(|x| x > tol)
                || start.is_some_and(|x| x.abs() <= tol) && n.dot(d) <= 0.0;
            if entering {
                if n.dot(d) > 1e-3 * len {
                    return Err(format!("entering normal along the ray: {got:?}"));
                }
                for k in 0..8 {
                    let q = at(t * k as f64 / 8.0);
                    if !outside(q) {
                        return Err(format!("the ray is inside at {q:?} before the hit {got:?}"));
                    }
                }
            } else {
                if n.dot(d) < -1e-3 * len {
                    return Err(format!("exit normal against the ray: {got:?}"));
                }
                for k in 1..8 {
                    let q = at(t * k as f64 / 8.0);
                    if !inside(q) {
                        return Err(format!(
                            "the ray is outside at {q:?} before its exit {got:?}"
                        ));
                    }
                }
            }
            Ok(RayOutcome::Hit)
        }
        RayStatus::Miss => {
            // Up to max_toi, and past the shape's bounding sphere.
            let far = ((o - s.pose.translation.cast::<f64>()).norm() + reach) * 2.0 / len;
            let end = max_toi.min(far);
            let start = origin_side(s, o);
            if start.is_some_and(|x| x.abs() <= tol) {
                return Ok(RayOutcome::Miss); // on the surface: either answer
            }
            if start.is_some_and(|x| x < -tol) {
                // From inside: only a ray that is not solid misses, when its
                // exit is past max_toi (or never, in a half-space).
                if solid {
                    return Err(format!("a solid ray from inside missed: {got:?}"));
                }
                if s.plane().is_none() && max_toi >= far {
                    return Err(format!("a ray from inside never left the shape: {got:?}"));
                }
                for k in 0..32 {
                    let q = at(end * k as f64 / 32.0);
                    if !inside(q) {
                        return Err(format!("leaves the shape at {q:?} before max_toi: {got:?}"));
                    }
                }
                return Ok(RayOutcome::Miss);
            }
            for k in 0..=32 {
                let q = at(end * k as f64 / 32.0);
                if !outside(q) {
                    return Err(format!("missed, but {q:?} on the ray is inside"));
                }
            }
            Ok(RayOutcome::Miss)
        }
    }
}
