//! The `contact_manifold` fuzz target: two decoded [`mink::Shape`]s
//! (layout in [`super::shapes`]) with margins and poses, and a contact
//! margin, through [`mink::contact_manifold`] in both orders, in f32 and
//! f64; the manifold is checked against the shapes' support functions and
//! the certified signed distance ([`mink::distance`], itself checked as in
//! `umbrella_queries`).
//!
//! Input layout: shape A, shape B, a margin byte for each body
//! ([`decode_margin`]), the poses ([`decode_poses`]), a byte for the
//! contact margin (0, 1e-3, 0.05 or 0.3 of the size) and the method.
//!
//! The checks, with `tol` = [`rel_tol`] × the scene's size and `d` the
//! certified `Auto` distance:
//! - at most [`MAX_MANIFOLD_POINTS`] points, every value finite, each
//!   normal unit within 1e-4 and all the same within 1e-4; two half-spaces
//!   give none;
//! - the manifold is non-empty when `d < margin - tol` and empty when
//!   `d > margin + tol` (a proven `d`), in both orders;
//! - the normal points from A to B: the deepest point's depth is the
//!   overlap of the two shapes along the normal, from their supports,
//!   within `tol` (a flipped normal gives a far larger overlap, or a gap;
//!   when the pair's penetration query ends `IterationLimit` or
//!   `Degenerate`, up to 5% of the size below it, EPA's documented gap
//!   on a full polytope; else up to `FEATURE_SLOP_FRACTION` of the smaller
//!   size below it, the slop within which a patch point stands for the
//!   first contact);
//!   apart, it is minus the distance within `tol` (and the slop below);
//!   overlapping, at least the (proven) penetration depth minus `tol` and
//!   the same slop: a first contact deeper than the patch by less than
//!   the slop does not join it (`reduce_with_first` in
//!   `contact/reduce.rs`), e.g. when a rounded face's patch, clipped to
//!   its core polygon, misses the rounded rim where the pair is deepest;
//! - every point's depth is at least `-margin - tol` and at most the
//!   overlap along the normal plus `tol`;
//! - every point's two surface points, `position ± depth/2 · normal`, lie
//!   within [`surface_tol`] of A's surface and of B's: inside each shape
//!   along 52 directions, and at a signed distance (a point shape's
//!   [`mink::distance`] to the shape, when proven) of at most that in
//!   magnitude.

use super::bytes::ByteReader;
use super::shapes::{
    decode_margin, decode_poses, decode_shape, overlap_along, rel_tol, Placed, Placement,
};
use super::umbrella_queries::{certify, scene_size};
use mink::contact::{
    ContactParams, Manifold, DISTINCT_FRACTION, FEATURE_SLOP_FRACTION, MAX_MANIFOLD_POINTS,
};
use mink::query::Status;
use mink::support::{Iso3, Point, Real, Vec3};
use mink::{contact_manifold, distance, penetration, Body, Method, Shape};

/// What the harness did with an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManifoldOutcome {
    /// A constructor refused the decoded parameters.
    Refused,
    /// Checked; the manifold was empty.
    Empty,
    /// Checked; the manifold had points.
    Contacts,
}

/// How far a contact's surface point may sit from its shape's surface,
/// meters, for a pair of size `size` (meters) with tolerance `tol`:
/// `4 tol` plus `DISTINCT_FRACTION² · size`. The perturbation fallback of
/// curved shapes re-measures a point's depth against the other shape's
/// witness up to twice `DISTINCT_FRACTION · size` across the normal
/// (`contact/perturb.rs`); over a curved surface of radius about the size
/// the height there differs by up to that distance squared over the
/// radius.
pub fn surface_tol(size: f64, tol: f64) -> f64 {
    4.0 * tol + 4.0 * DISTINCT_FRACTION * DISTINCT_FRACTION * size
}

/// The signed distance of the world point `p` from the placed shape `s`
/// (positive outside), by [`mink::distance`] from a point shape.
fn point_distance<R: Real>(s: &Placed<'_, '_, R>, p: Vec3<f64>) -> (f64, Status) {
    let point: Shape<'_, R> = Shape::Point(Point);
    let probe = Body::new(&point, Iso3::from_translation(p.cast()));
    let d = distance(&probe, &s.body(), Method::Auto);
    (d.distance.to_f64(), d.status)
}

/// What a manifold is checked against, meters.
#[derive(Clone, Copy, Debug)]
struct Expect {
    /// The contact margin.
    margin: f64,
    /// The certified signed distance of the pair.
    d: f64,
    /// Whether that distance is proven (`Exact` or `Converged`).
    d_proven: bool,
    /// The tolerance.
    tol: f64,
    /// The scene's size.
    size: f64,
    /// Whether the pair's penetration query with the manifold's method
    /// finished (not `IterationLimit` or `Degenerate`).
    first_finished: bool,
    /// The smaller shape's size (meters), for the library's slop.
    min_size: f64,
}

/// Checks the manifold `m` of A against B (see the module docs).
fn check_manifold<R: Real>(
    m: &Manifold<R>,
    a: &Placed<'_, '_, R>,
    b: &Placed<'_, '_, R>,
    e: Expect,
    order: &str,
) -> Result<(), String> {
    let Expect {
        margin,
        d,
        d_proven,
        tol,
        size,
        ..
    } = e;
    let pts = m.as_slice();
    if pts.len() > MAX_MANIFOLD_POINTS {
        return Err(format!("{order}: {} points", pts.len()));
    }
    if a.plane().is_some() && b.plane().is_some() {
        return if pts.is_empty() {
            Ok(())
        } else {
            Err(format!("{order}: two half-spaces gave {pts:?}"))
        };
    }
    if d_proven && d < margin - tol && pts.is_empty() {
        return Err(format!(
            "{order}: no contact at distance {d}, margin {margin}"
        ));
    }
    if d_proven && d > margin + tol && !pts.is_empty() {
        return Err(format!(
            "{order}: contacts at distance {d}, margin {margin}: {pts:?}"
        ));
    }
    let Some(first) = pts.first() else {
        return Ok(());
    };
    for p in pts {
        if !(p.position.is_finite() && p.normal.is_finite() && p.depth.finite()) {
            return Err(format!("{order}: non-finite point {p:?}"));
        }
        let n = p.normal.cast::<f64>();
        if (n.norm() - 1.0).abs() > 1e-4 {
            return Err(format!("{order}: normal {n:?} is not unit"));
        }
        if (n - first.normal.cast::<f64>()).norm() > 1e-4 {
            return Err(format!("{order}: normals differ: {pts:?}"));
        }
    }
    let mut n = first.normal.cast::<f64>();
    let plane_normal = a.plane().map(|(m, _)| m).or(b.plane().map(|(m, _)| -m));
    if let Some(m) = plane_normal {
        if (n - m).norm() > 1e-3 {
            return Err(format!(
                "{order}: normal {n:?} is not the half-space's {m:?}"
            ));
        }
        n = m;
    }
    let along = overlap_along(a, b, n);
    let deepest = pts
        .iter()
        .map(|p| p.depth.to_f64())
        .fold(f64::MIN, f64::max);
    // A first contact its algorithm did not finish (EPA's polytope full on
    // a curved pair) is its best lower bound: below the overlap along its
    // normal by up to 5% of the size, as `gjk_distance` allows.
    // A patch point within the feature slop of the first contact's can
    // stand for it (the two merge): its depth up to that slop shallower.
    let slop = FEATURE_SLOP_FRACTION * e.min_size;
    let short = if e.first_finished {
        tol + slop
    } else {
        0.05 * size
    };
    if deepest > along + tol || deepest < along - short {
        return Err(format!(
            "{order}: deepest depth {deepest} is not the overlap {along} along the normal {n:?}"
        ));
    }
    if d_proven && d >= 0.0 && (deepest > -d + tol || deepest < -d - tol - slop) {
        return Err(format!("{order}: deepest depth {deepest} at distance {d}"));
    }
    // The deepest point stands for the first contact within the slop
    // (`Candidates::reduce_with_first`: the first contact joins the patch
    // only when deeper than all its points by more than the slop), and
    // the first contact is at least the penetration depth (an overlap
    // along its normal).
    if d_proven && d < 0.0 && deepest < -d - tol - slop {
        return Err(format!(
            "{order}: deepest depth {deepest} below the penetration depth {}",
            -d
        ));
    }
    let stol = surface_tol(size, tol);
    for p in pts.iter() {
        let depth = p.depth.to_f64();
        if depth < -margin - tol || depth > along + tol {
            return Err(format!(
                "{order}: depth {depth} outside [-{margin}, {along}]: {p:?}"
            ));
        }
        let pos = p.position.cast::<f64>();
        for (name, s, q) in [
            ("A", a, pos + n * (depth * 0.5)),
            ("B", b, pos - n * (depth * 0.5)),
        ] {
            if !s.contains(q, stol) {
                return Err(format!(
                    "{order}: surface point {q:?} of {name} lies outside it: {p:?}"
                ));
            }
            let (sd, status) = point_distance(s, q);
            let proven = matches!(status, Status::Exact | Status::Converged);
            if proven && sd.abs() > stol {
                return Err(format!(
                    "{order}: surface point {q:?} is {sd} m from {name}'s surface: {p:?}"
                ));
            }
        }
    }
    Ok(())
}

/// Decodes `data` in scalar `R` and checks the manifold both ways: what
/// it checked, or the first check that failed.
pub fn check_bytes<R: Real>(data: &[u8]) -> Result<ManifoldOutcome, String> {
    let mut r = ByteReader::new(data);
    let (Some(sa), Some(sb)) = (decode_shape::<R>(&mut r), decode_shape::<R>(&mut r)) else {
        return Ok(ManifoldOutcome::Refused);
    };
    let (Some(shape_a), Some(shape_b)) = (sa.shape(), sb.shape()) else {
        return Ok(ManifoldOutcome::Refused);
    };
    let (ea, eb) = (sa.extent(), sb.extent());
    let unit = ea.max(eb).max(0.02);
    let place = |shape, margin: f64| Placed {
        shape,
        pose: Iso3::IDENTITY,
        margin: R::lit(margin),
    };
    let (ma, mb) = (
        decode_margin(&mut r, ea.max(0.02)),
        decode_margin(&mut r, eb.max(0.02)),
    );
    let mut a = place(&shape_a, ma);
    let mut b = place(&shape_b, mb);
    let placement: Placement = decode_poses(&mut r, &mut a, &mut b, unit);
    let byte = r.u8();
    let margin = [0.0, 1e-3, 0.05, 0.3][usize::from(byte % 4)] * ea.min(eb).max(0.02);
    let method = super::umbrella_queries::METHODS[usize::from((byte >> 2) % 4)];
    let params = ContactParams {
        margin: R::lit(margin),
        method,
    };
    let margin = params.margin.to_f64();
    let size = scene_size(&a, &b, ea, eb) + margin;
    let tol = rel_tol::<R>() * size;
    // A failure names the pair, then gives everything needed to rerun the
    // query by hand: both placed shapes, the contact parameters.
    let context = |e: String| {
        format!(
            "{e} [{} vs {}, {placement:?}, {method:?}]\n  A = {a:?}\n  B = {b:?}\n  margin {margin}",
            shape_a.name(),
            shape_b.name()
        )
    };
    let reference = distance(&a.body(), &b.body(), Method::Auto);
    certify(&reference, &a, &b, tol, "distance Auto").map_err(context)?;
    let first = penetration(&a.body(), &b.body(), method);
    let expect = Expect {
        margin,
        d: reference.distance.to_f64(),
        d_proven: matches!(reference.status, Status::Exact | Status::Converged),
        tol,
        size,
        first_finished: !matches!(first.status, Status::IterationLimit | Status::Degenerate),
        min_size: ea.min(eb).max(0.02) + ma.min(mb),
    };
    let with_first = |e: String| {
        format!("{e}\n  first contact ({method:?}) {first:?}\n  distance (Auto) {reference:?}")
    };
    let ab = contact_manifold(&a.body(), &b.body(), &params);
    check_manifold(&ab, &a, &b, expect, "A-B")
        .map_err(|e| context(with_first(format!("{e}\n  manifold {:?}", ab.as_slice()))))?;
    let ba = contact_manifold(&b.body(), &a.body(), &params);
    check_manifold(&ba, &b, &a, expect, "B-A")
        .map_err(|e| context(with_first(format!("{e}\n  manifold {:?}", ba.as_slice()))))?;
    Ok(if ab.is_empty() {
        ManifoldOutcome::Empty
    } else {
        ManifoldOutcome::Contacts
    })
}
