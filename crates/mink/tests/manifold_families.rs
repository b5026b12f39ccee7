//! Seeded sweeps over the contact-manifold families the fuzz target
//! `contact_manifold` found wrong, in f32 and f64, each against a reference
//! that shares no code with the manifold:
//! - a half-space against an inflated cylinder or cone: every point's
//!   surface point on the shape lies on its surface (analytic signed
//!   distance of a solid cylinder or cone of revolution, minus the
//!   margin), and the plane's on the plane;
//! - flat pairs (triangle–segment, triangle–triangle, with margins): no
//!   point deeper than the overlap of the two shapes along the normal
//!   (their vertices' extremes), every surface point inside its shape
//!   along 98 sampled directions (support-function certificate);
//! - a segment against a rounded box (every method): the deepest point
//!   within the feature slop below the overlap along the normal and not
//!   above it, the overlap from the shapes' vertices.

use mink::contact::{contact_manifold, ContactParams, Manifold, FEATURE_SLOP_FRACTION};
use mink::query::{Body, Method};
use mink::support::{Cone, Cuboid, Cylinder, HalfSpace, Iso3, Mat3, Real, Segment, Triangle, Vec3};
use mink::Shape;

/// xorshift64*: a seeded, dependency-free generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `[lo, hi)`.
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }

    fn unit(&mut self) -> Vec3<f64> {
        loop {
            let v = Vec3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v * (1.0 / n);
            }
        }
    }

    fn point(&mut self, half: f64) -> Vec3<f64> {
        Vec3::new(
            self.range(-half, half),
            self.range(-half, half),
            self.range(-half, half),
        )
    }

    fn pose<R: Real>(&mut self, half: f64) -> Iso3<R> {
        let rot = Mat3::from_axis_angle(self.unit(), self.range(0.0, 6.3));
        Iso3::from_parts(rot.cast(), self.point(half).cast())
    }
}

/// The relative tolerance of scalar `R` (of the scene's size).
fn rel<R: Real>() -> f64 {
    if R::EPSILON.to_f64() > 1e-10 {
        2e-4
    } else {
        1e-8
    }
}

/// Signed distance of `q` (shape frame) from the solid cylinder.
fn cylinder_sd(q: Vec3<f64>, r: f64, h: f64) -> f64 {
    let (dr, dz) = ((q.x * q.x + q.y * q.y).sqrt() - r, q.z.abs() - h);
    let out = (dr.max(0.0).powi(2) + dz.max(0.0).powi(2)).sqrt();
    out + dr.max(dz).min(0.0)
}

/// Signed distance of `q` (shape frame) from the solid cone (apex at
/// `+h`, base of radius `r` at `-h`): the 2D distance in the half plane
/// `(ρ, z)` from the triangle `(0, -h), (r, -h), (0, h)`, whose axis side
/// is no surface.
fn cone_sd(q: Vec3<f64>, r: f64, h: f64) -> f64 {
    let (p, z) = ((q.x * q.x + q.y * q.y).sqrt(), q.z);
    // Slant edge from (r, -h) to (0, h); outward normal (2h, r) / l.
    let l = (4.0 * h * h + r * r).sqrt();
    let slant = (2.0 * h * (p - r) + r * (z + h)) / l;
    let base = -h - z;
    if slant <= 0.0 && base <= 0.0 {
        return slant.max(base);
    }
    // Outside: distance to the nearest of the two edges.
    let seg = |a: (f64, f64), b: (f64, f64)| {
        let (ex, ez) = (b.0 - a.0, b.1 - a.1);
        let t = (((p - a.0) * ex + (z - a.1) * ez) / (ex * ex + ez * ez)).clamp(0.0, 1.0);
        ((p - a.0 - t * ex).powi(2) + (z - a.1 - t * ez).powi(2)).sqrt()
    };
    seg((r, -h), (0.0, h)).min(seg((0.0, -h), (r, -h)))
}

fn half_space_curved<R: Real>(seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed);
    let plane: Shape<'_, R> = HalfSpace::new(Vec3::Z, R::ZERO).unwrap().into();
    let (mut poses, mut points) = (0, 0);
    for i in 0..3000 {
        let (r, h) = (rng.range(0.05, 2.0), rng.range(0.05, 2.0));
        let margin = if i % 4 == 0 { 0.0 } else { rng.range(0.0, 1.0) };
        let cone = i % 2 == 1;
        let shape: Shape<'_, R> = if cone {
            Cone::new(R::lit(r), R::lit(h)).unwrap().into()
        } else {
            Cylinder::new(R::lit(r), R::lit(h)).unwrap().into()
        };
        let extent = (r * r + h * h).sqrt() + margin;
        let mut pose: Iso3<R> = rng.pose(0.0);
        // Mostly near flat on a cap or a side, sometimes anywhere.
        if i % 3 != 0 {
            let axis = rng.unit();
            let tilt = Mat3::from_axis_angle(axis, rng.range(-0.05, 0.05));
            let base = [
                Mat3::IDENTITY,
                Mat3::from_axis_angle(Vec3::X, core::f64::consts::FRAC_PI_2),
            ];
            pose.rotation = tilt.mul_mat(&base[(i / 2) % 2]).cast();
        }
        let offset = Vec3::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0), 0.0);
        pose.translation = (offset + Vec3::Z * rng.range(-0.5 * extent, extent)).cast();
        let a = Body::new(&plane, Iso3::IDENTITY);
        let b = Body::new(&shape, pose).with_margin(R::lit(margin));
        let params = ContactParams::new().with_margin(R::lit(rng.range(0.0, 0.1)));
        let m = contact_manifold(&a, &b, &params);
        let size = extent + 10.0;
        let tol = rel::<R>() * size;
        poses += 1;
        for p in m.as_slice() {
            points += 1;
            let n = p.normal.cast::<f64>();
            let depth = p.depth.to_f64();
            let pos = p.position.cast::<f64>();
            let on_plane = pos + n * (depth * 0.5);
            let on_shape = pos - n * (depth * 0.5);
            assert!(on_plane.z.abs() <= tol, "plane point {on_plane:?}: {p:?}");
            let iso = pose.cast::<f64>();
            let local = iso.inverse_transform_point(on_shape);
            let sd = if cone {
                cone_sd(local, r, h)
            } else {
                cylinder_sd(local, r, h)
            } - margin;
            assert!(
                sd.abs() <= tol,
                "{} pose {i}: surface point {sd} m off the surface: {p:?}",
                if cone { "cone" } else { "cylinder" }
            );
        }
    }
    (poses, points)
}

#[test]
fn half_space_curved_points_on_surface_f32() {
    let (poses, points) = half_space_curved::<f32>(0x51de_c0de);
    assert!(points > poses, "{poses} poses, {points} points");
}

#[test]
fn half_space_curved_points_on_surface_f64() {
    let (poses, points) = half_space_curved::<f64>(0x51de_c0de);
    assert!(points > poses, "{poses} poses, {points} points");
}

/// 98 directions: the grid of `{-1, 0, 1}³` and of `{-2..2}³` on its
/// surface, normalized (a box's face normals among them).
fn directions() -> Vec<Vec3<f64>> {
    let mut out = Vec::new();
    for x in -2i32..=2 {
        for y in -2i32..=2 {
            for z in -2i32..=2 {
                if x.abs().max(y.abs()).max(z.abs()) == 2 {
                    let v = Vec3::new(x as f64, y as f64, z as f64);
                    out.push(v * (1.0 / v.norm()));
                }
            }
        }
    }
    out
}

/// The reach of the world vertices `v` inflated by `margin` along `n`.
fn reach(v: &[Vec3<f64>], margin: f64, n: Vec3<f64>) -> f64 {
    v.iter().map(|p| p.dot(n)).fold(f64::MIN, f64::max) + margin
}

/// Checks a manifold of the world polytopes `va` and `vb` (vertex lists,
/// inflated by `ma`, `mb`): no depth past the overlap along the normal,
/// surface points inside their shapes along `dirs`; returns the deepest
/// depth and that overlap.
fn check_flat<R: Real>(
    m: &Manifold<R>,
    (va, ma): (&[Vec3<f64>], f64),
    (vb, mb): (&[Vec3<f64>], f64),
    dirs: &[Vec3<f64>],
    tol: f64,
    what: &str,
) -> Option<(f64, f64)> {
    let first = m.as_slice().first()?;
    let n = first.normal.cast::<f64>();
    let along = reach(va, ma, n) + reach(vb, mb, -n);
    let mut deepest = f64::MIN;
    for p in m.as_slice() {
        let depth = p.depth.to_f64();
        deepest = deepest.max(depth);
        assert!(
            depth <= along + tol,
            "{what}: depth {depth} past the overlap {along}: {m:?}"
        );
        let pos = p.position.cast::<f64>();
        for (v, margin, q) in [
            (va, ma, pos + n * (depth * 0.5)),
            (vb, mb, pos - n * (depth * 0.5)),
        ] {
            for &d in dirs.iter().chain([n, -n].iter()) {
                let out = q.dot(d) - reach(v, margin, d);
                assert!(
                    out <= tol,
                    "{what}: surface point {q:?} {out} m outside: {m:?}"
                );
            }
        }
    }
    Some((deepest, along))
}

fn flat_pairs<R: Real>(seed: u64) -> usize {
    let mut rng = Rng(seed);
    let dirs = directions();
    let mut contacts = 0;
    for i in 0..3000 {
        let tri_pts = [rng.point(1.0), rng.point(1.0), rng.point(1.0)];
        let Ok(tri) = Triangle::new(tri_pts[0].cast(), tri_pts[1].cast(), tri_pts[2].cast()) else {
            continue;
        };
        let other: Vec<Vec3<f64>> = if i % 2 == 0 {
            vec![rng.point(1.0), rng.point(1.0)]
        } else {
            vec![rng.point(1.0), rng.point(1.0), rng.point(1.0)]
        };
        let shape_b: Shape<'_, R> = if other.len() == 2 {
            match Segment::new(other[0].cast(), other[1].cast()) {
                Ok(s) => s.into(),
                Err(_) => continue,
            }
        } else {
            match Triangle::new(other[0].cast(), other[1].cast(), other[2].cast()) {
                Ok(t) => t.into(),
                Err(_) => continue,
            }
        };
        let shape_a: Shape<'_, R> = tri.into();
        let (ma, mb) = (rng.range(0.0, 0.3), rng.range(0.0, 0.3));
        let pa: Iso3<R> = rng.pose(0.3);
        let pb: Iso3<R> = rng.pose(0.3);
        let world = |v: &[Vec3<f64>], p: &Iso3<R>| -> Vec<Vec3<f64>> {
            let p = p.cast::<f64>();
            v.iter()
                .map(|q| p.transform_point(q.cast::<R>().cast()))
                .collect()
        };
        let (va, vb) = (world(&tri_pts, &pa), world(&other, &pb));
        let a = Body::new(&shape_a, pa).with_margin(R::lit(ma));
        let b = Body::new(&shape_b, pb).with_margin(R::lit(mb));
        let method = [Method::Auto, Method::Gjk, Method::Epa, Method::Mpr][i % 4];
        let params = ContactParams {
            margin: R::lit(0.01),
            method,
        };
        let tol = rel::<R>() * 10.0;
        let what = format!("pair {i} {method:?}");
        let m = contact_manifold(&a, &b, &params);
        if check_flat(&m, (&va, ma), (&vb, mb), &dirs, tol, &what).is_some() {
            contacts += 1;
        }
        let m = contact_manifold(&b, &a, &params);
        check_flat(&m, (&vb, mb), (&va, ma), &dirs, tol, &what);
    }
    contacts
}

#[test]
fn flat_pairs_no_deeper_than_overlap_f32() {
    assert!(flat_pairs::<f32>(0xf1a7_0001) > 1000);
}

#[test]
fn flat_pairs_no_deeper_than_overlap_f64() {
    assert!(flat_pairs::<f64>(0xf1a7_0001) > 1000);
}

fn segment_box<R: Real>(seed: u64) -> usize {
    let mut rng = Rng(seed);
    let dirs = directions();
    let mut contacts = 0;
    for i in 0..3000 {
        let half = Vec3::new(
            rng.range(0.01, 1.0),
            rng.range(0.01, 1.5),
            rng.range(0.001, 0.5),
        );
        let seg = [rng.point(1.0), rng.point(1.0)];
        let (Ok(cube), Ok(segment)) = (
            Cuboid::new(half.cast::<R>()),
            Segment::new(seg[0].cast(), seg[1].cast()),
        ) else {
            continue;
        };
        let shape_a: Shape<'_, R> = segment.into();
        let shape_b: Shape<'_, R> = cube.into();
        let (ma, mb) = (rng.range(0.0, 0.05), rng.range(0.0, 0.3));
        let pa: Iso3<R> = rng.pose(0.5);
        let pb = if i % 2 == 0 { pa } else { rng.pose(0.5) };
        let corners: Vec<Vec3<f64>> = (0..8)
            .map(|k| {
                let s = |bit: usize| if k & bit == 0 { -1.0 } else { 1.0 };
                Vec3::new(s(1) * half.x, s(2) * half.y, s(4) * half.z)
            })
            .collect();
        let world = |v: &[Vec3<f64>], p: &Iso3<R>| -> Vec<Vec3<f64>> {
            let p = p.cast::<f64>();
            v.iter()
                .map(|q| p.transform_point(q.cast::<R>().cast()))
                .collect()
        };
        let (va, vb) = (world(&seg, &pa), world(&corners, &pb));
        let a = Body::new(&shape_a, pa).with_margin(R::lit(ma));
        let b = Body::new(&shape_b, pb).with_margin(R::lit(mb));
        let method = [Method::Auto, Method::Gjk, Method::Epa, Method::Mpr][i % 4];
        let params = ContactParams {
            margin: R::lit(0.01),
            method,
        };
        let tol = rel::<R>() * 10.0;
        let what = format!("pair {i} {method:?}");
        let m = contact_manifold(&a, &b, &params);
        if let Some((deepest, along)) = check_flat(&m, (&va, ma), (&vb, mb), &dirs, tol, &what) {
            contacts += 1;
            // The library's slop: of the smaller shape's size, half its
            // AABB's diagonal plus its margin.
            let size = |v: &[Vec3<f64>], pose: &Iso3<R>, margin: f64| {
                let local: Vec<Vec3<f64>> = v
                    .iter()
                    .map(|q| pose.cast::<f64>().inverse_transform_point(*q))
                    .collect();
                let lo = local.iter().fold(Vec3::splat(f64::MAX), |m, q| m.min(*q));
                let hi = local.iter().fold(Vec3::splat(f64::MIN), |m, q| m.max(*q));
                (hi - lo).norm() * 0.5 + margin
            };
            let slop = FEATURE_SLOP_FRACTION * size(&va, &pa, ma).min(size(&vb, &pb, mb));
            assert!(
                deepest >= along - slop - tol,
                "{what}: deepest {deepest} below the overlap {along} by more than the slop {slop}: {m:?}"
            );
        }
    }
    contacts
}

#[test]
fn segment_rounded_box_deepest_f32() {
    assert!(segment_box::<f32>(0x5e6b_0c5e) > 1000);
}

#[test]
fn segment_rounded_box_deepest_f64() {
    assert!(segment_box::<f64>(0x5e6b_0c5e) > 1000);
}
