//! GJK ray casts against two references that share no code with the
//! conservative advancement: the sphere's quadratic and the box's slabs in
//! closed form, and, for every solid shape kind, sphere tracing along the
//! ray with GJK point distances (each step is the point's distance to the
//! shape, which the ray cannot cross before the next point). Seeded random
//! shapes, poses and rays aimed at and around the shape; f32 and f64.

use crate::common::{random_shape_of, AnyShape, Poly, ShapeVisitor};
use mink_gjk::{distance, ray_cast, Ray, RayCast, RayStatus};
use mink_support::{
    Cone, ConvexHull, Cuboid, Iso3, Pair, Point, Real, Rounded, Sphere, Support, Vec3,
};
use mink_testkit::{for_each_real, Rng};

/// Relative tolerance of a hit (times the shape's size plus the ray
/// origin's distance from it).
fn rel<R: Real>() -> f64 {
    if R::MANTISSA_BITS > 30 {
        1e-8
    } else {
        2e-4
    }
}

/// Casts `ray` against any shape.
struct Cast<R: Real> {
    pose: Iso3<R>,
    ray: Ray<R>,
    max_toi: R,
    solid: bool,
}

impl<R: Real> ShapeVisitor<R> for Cast<R> {
    type Out = RayCast<R>;
    fn visit<A: Support<R>>(self, a: &A) -> RayCast<R> {
        ray_cast(a, &self.pose, &self.ray, self.max_toi, self.solid)
    }
}

/// The signed distance of the world point `q` from the shape, by GJK from
/// a point (negative only inside an inflation; 0 inside a core).
struct PointDistance<R: Real> {
    pose: Iso3<R>,
    q: Vec3<R>,
}

impl<R: Real> ShapeVisitor<R> for PointDistance<R> {
    type Out = f64;
    fn visit<A: Support<R>>(self, a: &A) -> f64 {
        let at = Iso3::from_translation(self.q);
        let mut pair = Pair::new(&Point, &at, a, &self.pose);
        distance(&mut pair, &at).distance.to_f64()
    }
}

fn point_distance<R: Real>(s: &AnyShape<R>, pose: &Iso3<R>, q: Vec3<f64>) -> f64 {
    s.visit(PointDistance {
        pose: *pose,
        q: q.cast(),
    })
}

/// The reference hit by sphere tracing: `Some(t)` where the ray first
/// comes within `eps` of the shape, `Some(0)` when it starts there;
/// `None` for a miss within `max_toi`, or when the march does not settle
/// (a grazing ray: such cases are skipped).
fn traced<R: Real>(
    s: &AnyShape<R>,
    pose: &Iso3<R>,
    o: Vec3<f64>,
    d: Vec3<f64>,
    max_toi: f64,
    eps: f64,
) -> Option<Option<f64>> {
    let len = d.norm();
    let start = point_distance(s, pose, o);
    if start <= 0.0 {
        return Some(Some(0.0));
    }
    if start <= eps {
        return None; // on the surface within the tolerance: either answer
    }
    let mut t = 0.0;
    for _ in 0..20_000 {
        if t > max_toi {
            return Some(None);
        }
        let dist = point_distance(s, pose, o + d * t);
        if dist <= eps {
            return Some(Some(t));
        }
        t += dist / len;
    }
    None
}

/// A random ray around a shape of size `size` at `pose`: from a point up
/// to `far` sizes away, towards a point within 1.3 sizes of the centre.
fn random_ray(rng: &mut Rng, pose: &Iso3<f64>, size: f64, far: f64) -> (Vec3<f64>, Vec3<f64>) {
    let o = pose.translation + rng.unit_vec::<f64>() * size * rng.range_f64(0.0, far);
    let aim = pose.translation + rng.unit_vec::<f64>() * size * rng.range_f64(0.0, 1.3);
    let d = (aim - o).normalize_or(Vec3::X) * rng.range_f64(0.2, 5.0);
    (o, d)
}

/// Every solid shape kind against the traced reference: same verdict,
/// same `toi`, a point on the surface, a normal that bounds the shape.
fn traced_reference<R: Real>() {
    let mut rng = Rng::new(71);
    let (mut hits, mut misses, mut inside) = (0, 0, 0);
    for case in 0..1_500 {
        let kind = 1 + case % 8; // every kind but the point
        if kind == 4 {
            continue; // a segment has no volume: see `segments_hit_within_tolerance`
        }
        let s: AnyShape<R> = random_shape_of(&mut rng, kind, 1.0);
        let size = s.size();
        let p64 = rng.pose::<f64>(3.0);
        let p: Iso3<R> = p64.cast();
        let (o, d) = random_ray(&mut rng, &p64, size, 4.0);
        let max_toi = if rng.chance(0.2) {
            rng.range_f64(0.0, 3.0)
        } else {
            f64::INFINITY
        };
        let eps = rel::<R>() * (size + o.norm());
        let Some(reference) = traced(&s, &p, o, d, max_toi, eps) else {
            continue;
        };
        let ray = Ray::new(o.cast(), d.cast());
        let got = s.visit(Cast {
            pose: p,
            ray,
            max_toi: R::lit(max_toi),
            solid: true,
        });
        let what = format!("case {case} {} o {o:?} d {d:?}: {got:?}", s.name());
        let tol = rel::<R>() * (size + o.norm()) * 100.0 / d.norm();
        match reference {
            None => {
                // The reference may stop just short of a grazing hit.
                if got.is_hit() {
                    let q = got.point.cast::<f64>();
                    assert!(
                        point_distance(&s, &p, q) <= tol * d.norm(),
                        "{what}: a hit the reference misses, off the surface"
                    );
                } else {
                    assert_eq!(got.status, RayStatus::Miss, "{what}");
                }
                misses += 1;
            }
            Some(0.0) => {
                assert_eq!(got.status, RayStatus::Inside, "{what}");
                assert_eq!(got.toi, R::ZERO, "{what}");
                assert_eq!(got.normal, Vec3::ZERO, "{what}");
                inside += 1;
            }
            Some(t) => {
                // A grazing ray may be called a miss by the cast within the
                // tolerance; otherwise the same hit.
                if got.status == RayStatus::Miss {
                    let q = o + d * t;
                    assert!(
                        point_distance(&s, &p, q) >= -tol * d.norm(),
                        "{what}: missed a hit at t {t}"
                    );
                    continue;
                }
                assert_eq!(got.status, RayStatus::Hit, "{what}: reference t {t}");
                // The reference stops within `eps` before the surface.
                let gt = got.toi.to_f64();
                assert!(
                    gt >= t - tol && gt <= t + tol + eps / d.norm() * 1e3,
                    "{what}: toi {gt} vs reference {t}"
                );
                let q = got.point.cast::<f64>();
                assert!(
                    point_distance(&s, &p, q).abs() <= tol * d.norm(),
                    "{what}: hit point off the surface"
                );
                // The normal bounds the shape: no point of it beyond the
                // tangent plane at the hit.
                let n = got.normal.cast::<f64>();
                assert!((n.norm() - 1.0).abs() < 1e-3, "{what}: normal not unit");
                let beyond = s.h(&p, n) - n.dot(q);
                assert!(
                    beyond <= 1e-2 * size.max(1.0) * (rel::<R>() / 1e-8).sqrt().max(1.0),
                    "{what}: the shape reaches {beyond} past the tangent plane"
                );
                // The ray enters through it.
                assert!(n.dot(d) <= 1e-6 * d.norm(), "{what}: normal along the ray");
                hits += 1;
            }
        }
    }
    assert!(
        hits > 300 && misses > 100 && inside > 20,
        "{hits} {misses} {inside}"
    );
}
for_each_real!(traced_reference, traced_reference);

/// Spheres and boxes against their closed forms (quadratic, slabs).
fn closed_forms<R: Real>() {
    let mut rng = Rng::new(72);
    for case in 0..2_000 {
        let p64 = rng.pose::<f64>(2.0);
        let p: Iso3<R> = p64.cast();
        let (o, d) = random_ray(&mut rng, &p64, 1.5, 3.0);
        let local_o = p64.inverse_transform_point(o);
        let local_d = p64.inverse_transform_vector(d);
        let (got, expected, what) = if case % 2 == 0 {
            let r = rng.range_f64(0.2, 1.5);
            let s = Sphere::new(R::lit(r)).unwrap();
            let got = ray_cast(&s, &p, &Ray::new(o.cast(), d.cast()), R::INFINITY, true);
            (got, sphere_hit(local_o, local_d, r), "sphere")
        } else {
            let h = Vec3::new(
                rng.range_f64(0.2, 1.5),
                rng.range_f64(0.2, 1.5),
                rng.range_f64(0.2, 1.5),
            );
            let s = Cuboid::new(h.cast::<R>()).unwrap();
            let got = ray_cast(&s, &p, &Ray::new(o.cast(), d.cast()), R::INFINITY, true);
            (got, box_hit(local_o, local_d, h), "box")
        };
        let tol = rel::<R>() * 100.0 * (2.0 + o.norm()) / d.norm();
        let what = format!("case {case} {what} o {o:?} d {d:?}: {got:?} vs {expected:?}");
        match expected {
            Expected::Inside => assert_eq!(got.status, RayStatus::Inside, "{what}"),
            Expected::Miss(closest) => {
                if closest > tol * d.norm() {
                    assert_eq!(got.status, RayStatus::Miss, "{what}");
                }
            }
            Expected::Hit(t, n) => {
                if got.status == RayStatus::Miss {
                    continue; // grazing, checked by the traced reference
                }
                assert_eq!(got.status, RayStatus::Hit, "{what}");
                assert!((got.toi.to_f64() - t).abs() <= tol, "{what}");
                let n = p64.rotation * n;
                // An edge or corner hit has a cone of normals; a face hit
                // (or the sphere) has one.
                if let Some(n) = n.try_normalize() {
                    assert!(
                        (got.normal.cast::<f64>() - n).norm() < 1e-3,
                        "{what}: normal"
                    );
                }
            }
        }
    }
}
for_each_real!(closed_forms, closed_forms);

#[derive(Debug)]
enum Expected {
    Inside,
    /// A miss and how close the ray's line comes (for grazing rays).
    Miss(f64),
    /// Hit at `t` with this local normal (zero at an edge or corner).
    Hit(f64, Vec3<f64>),
}

fn sphere_hit(o: Vec3<f64>, d: Vec3<f64>, r: f64) -> Expected {
    let (a, b, c) = (d.dot(d), o.dot(d), o.dot(o) - r * r);
    if c <= 0.0 {
        return Expected::Inside;
    }
    let disc = b * b - a * c;
    if disc < 0.0 || b >= 0.0 {
        let t = (-b / a).max(0.0);
        return Expected::Miss((o + d * t).norm() - r);
    }
    let t = (-b - disc.sqrt()) / a;
    Expected::Hit(t, (o + d * t) / r)
}

fn box_hit(o: Vec3<f64>, d: Vec3<f64>, h: Vec3<f64>) -> Expected {
    if (0..3).all(|i| o.get(i).abs() <= h.get(i)) {
        return Expected::Inside;
    }
    let (mut enter, mut exit, mut axis) = (0.0f64, f64::INFINITY, 0);
    for i in 0..3 {
        let (oi, di, hi) = (o.get(i), d.get(i), h.get(i));
        if di == 0.0 {
            if oi.abs() > hi {
                return Expected::Miss(oi.abs() - hi);
            }
            continue;
        }
        let (t0, t1) = ((-hi - oi) / di, (hi - oi) / di);
        let (lo, hi) = (t0.min(t1), t0.max(t1));
        if lo > enter {
            enter = lo;
            axis = i;
        }
        exit = exit.min(hi);
    }
    if enter > exit {
        // How far the segment of closest approach stays from the box: the
        // clearance of the best point on the ray.
        let mut best = f64::INFINITY;
        for k in 0..=200 {
            let t = enter.min(exit) + (enter - exit).abs() * k as f64 / 200.0;
            let q = o + d * t;
            let out = (q.abs() - h).max(Vec3::ZERO).norm();
            best = best.min(out);
        }
        return Expected::Miss(best);
    }
    let q = o + d * enter;
    // Several slabs entered at once (within round-off): an edge or corner.
    let on_faces = (0..3)
        .filter(|&i| (q.get(i).abs() - h.get(i)).abs() < 1e-9)
        .count();
    let mut n = [0.0; 3];
    if on_faces == 1 {
        n[axis] = -d.get(axis).signum();
    }
    Expected::Hit(enter, Vec3::from_array(n))
}

/// A ray from inside: solid gives `Inside`; not solid gives the exit
/// point, the same as the reverse ray from outside.
fn from_inside<R: Real>() {
    let mut rng = Rng::new(73);
    for case in 0..600 {
        let kind = [1, 2, 3, 5, 6, 7, 8][case % 7];
        let s: AnyShape<R> = random_shape_of(&mut rng, kind, 1.0);
        let size = s.size();
        let p64 = rng.pose::<f64>(3.0);
        let p: Iso3<R> = p64.cast();
        // A point inside: the centre moved a little.
        let o = p64.translation + rng.unit_vec::<f64>() * rng.range_f64(0.0, 0.05);
        if point_distance(&s, &p, o) > 0.0 {
            continue;
        }
        let d = rng.unit_vec::<f64>() * rng.range_f64(0.5, 2.0);
        let ray = Ray::new(o.cast(), d.cast());
        let cast = |solid, max_toi| {
            s.visit(Cast {
                pose: p,
                ray,
                max_toi,
                solid,
            })
        };
        let what = format!("case {case} {}", s.name());
        let solid = cast(true, R::INFINITY);
        assert_eq!(solid.status, RayStatus::Inside, "{what}");
        assert_eq!(solid.point, ray.origin, "{what}");
        let out = cast(false, R::INFINITY);
        assert_eq!(out.status, RayStatus::Hit, "{what}: {out:?}");
        // The reverse ray from well past the shape hits the same point.
        let far = 4.0 * size / d.norm();
        let back = Ray::new((o + d * far).cast(), (-d).cast());
        let rev = s.visit(Cast {
            pose: p,
            ray: back,
            max_toi: R::INFINITY,
            solid: true,
        });
        assert_eq!(rev.status, RayStatus::Hit, "{what}");
        let tol = rel::<R>() * 100.0 * (size + o.norm()) / d.norm();
        assert!(
            (out.toi.to_f64() - (far - rev.toi.to_f64())).abs() <= tol,
            "{what}: exit {out:?} reverse {rev:?}"
        );
        // Both normals bound the shape at the exit (at a rim or an apex
        // any normal of its cone does).
        let q = out.point.cast::<f64>();
        for n in [out.normal.cast::<f64>(), rev.normal.cast::<f64>()] {
            let beyond = s.h(&p, n) - n.dot(q);
            assert!(
                beyond <= 1e3 * rel::<R>() * size,
                "{what}: exit normal {out:?} reverse {rev:?}: the shape reaches {beyond} past"
            );
        }
        assert!(
            out.normal.cast::<f64>().dot(d) >= 0.0,
            "{what}: not outward"
        );
        // The exit past `max_toi` is a miss.
        let short = cast(false, out.toi * R::lit(0.5));
        assert_eq!(short.status, RayStatus::Miss, "{what}");
    }
}
for_each_real!(from_inside, from_inside);

/// A segment (no volume) is hit by rays through it, within the
/// tolerance, and missed by rays that pass it.
fn segments_hit_within_tolerance<R: Real>() {
    let mut rng = Rng::new(74);
    for case in 0..500 {
        let s: AnyShape<R> = random_shape_of(&mut rng, 4, 1.0);
        let AnyShape::Segment(seg) = &s else {
            unreachable!()
        };
        let (a, b) = (seg.a().cast::<f64>(), seg.b().cast::<f64>());
        let on = a + (b - a) * rng.range_f64(0.05, 0.95);
        let o = on + rng.unit_vec::<f64>() * rng.range_f64(0.5, 3.0);
        let through = o == on || case % 2 == 0;
        let aim = if through {
            on
        } else {
            // Past the segment by 0.1 m, across it.
            let side = (b - a).cross(on - o).normalize_or(Vec3::X);
            on + side * 0.1
        };
        let ray = Ray::new(o.cast(), (aim - o).cast());
        let got = ray_cast(seg, &Iso3::IDENTITY, &ray, R::INFINITY, true);
        let what = format!("case {case}: {got:?}");
        if through {
            assert_eq!(got.status, RayStatus::Hit, "{what}");
            assert!((got.toi.to_f64() - 1.0).abs() < 1e3 * rel::<R>(), "{what}");
        } else {
            assert_eq!(got.status, RayStatus::Miss, "{what}");
        }
    }
}
for_each_real!(segments_hit_within_tolerance, segments_hit_within_tolerance);

/// A ray from far away (10 km) keeps its relative precision, and a hit
/// past `max_toi` is a miss.
fn far_origin_and_max_toi<R: Real>() {
    let s = Sphere::new(R::lit(0.5)).unwrap();
    let p = Iso3::from_translation(Vec3::new(R::lit(3.0), R::ZERO, R::ZERO));
    let ray = Ray::new(
        Vec3::new(R::lit(1e4), R::lit(0.1), R::ZERO),
        Vec3::new(-R::ONE, R::ZERO, R::ZERO),
    );
    let hit = ray_cast(&s, &p, &ray, R::INFINITY, true);
    assert_eq!(hit.status, RayStatus::Hit);
    let expected = 1e4 - 3.0 - (0.25f64 - 0.01).sqrt();
    assert!(
        (hit.toi.to_f64() - expected).abs() <= 1e4 * rel::<R>() * 10.0,
        "{hit:?} vs {expected}"
    );
    let short = ray_cast(&s, &p, &ray, R::lit(expected - 1.0), true);
    assert_eq!(short.status, RayStatus::Miss);
    let exact = ray_cast(&s, &p, &ray, R::lit(expected + 1e-2), true);
    assert_eq!(exact.status, RayStatus::Hit);
}
for_each_real!(far_origin_and_max_toi, far_origin_and_max_toi);

/// Bad input is `NonFinite`, never a panic or a NaN hit.
fn bad_input<R: Real>() {
    let s = Sphere::new(R::ONE).unwrap();
    let o = Vec3::new(R::lit(3.0), R::ZERO, R::ZERO);
    let d = -Vec3::X;
    let nan = R::nan();
    for (ray, pose, max_toi) in [
        (
            Ray::new(Vec3::new(nan, R::ZERO, R::ZERO), d),
            Iso3::IDENTITY,
            R::INFINITY,
        ),
        (Ray::new(o, Vec3::ZERO), Iso3::IDENTITY, R::INFINITY),
        (
            Ray::new(o, Vec3::new(R::INFINITY, R::ZERO, R::ZERO)),
            Iso3::IDENTITY,
            R::INFINITY,
        ),
        (
            Ray::new(o, d),
            Iso3::from_translation(Vec3::splat(nan)),
            R::INFINITY,
        ),
        (Ray::new(o, d), Iso3::IDENTITY, -R::ONE),
        (Ray::new(o, d), Iso3::IDENTITY, nan),
    ] {
        let got = ray_cast(&s, &pose, &ray, max_toi, true);
        assert_eq!(got.status, RayStatus::NonFinite, "{ray:?} {max_toi:?}");
        assert!(!got.is_hit());
    }
}
for_each_real!(bad_input, bad_input);

/// Found by the `ray_cast` fuzz target: a ray towards a 2 cm cone with a
/// 75 µm margin, in f32. Once the ray's point reached the rounded surface,
/// GJK at that point alternated between a segment exactly at the margin
/// and a triangle beyond it (its new support point improving nothing), and
/// the cast ran out of iterations. It must hit, at a point whose distance
/// from the cone's core (GJK from a point, in f64) is the margin.
#[test]
fn rounded_cone_rim_in_f32_converges() {
    let cone = Cone::new(0.0187936_f32, 0.0185948).unwrap();
    let rounded = Rounded::new(cone, 7.512266e-5).unwrap();
    let centre = Vec3::new(0.06955051_f32, -0.15024532, -0.15024532);
    let pose = Iso3::from_translation(centre);
    let ray = Ray::new(
        Vec3::new(0.04323164, -0.20288387, -0.20288387),
        Vec3::new(0.3333288, 0.6666678, 0.6666678),
    );
    let hit = ray_cast(&rounded, &pose, &ray, f32::INFINITY, true);
    assert_eq!(hit.status, RayStatus::Hit, "{hit:?}");
    let core = Cone::new(0.0187936_f64, 0.0185948).unwrap();
    let point: Vec3<f64> = hit.point.cast();
    let at = Iso3::from_translation(point);
    let pose64 = Iso3::from_translation(centre.cast::<f64>());
    let from_core = distance(&mut Pair::new(&Point, &at, &core, &pose64), &at).distance;
    assert!(
        (from_core - 7.512266e-5).abs() < 1e-6,
        "hit {hit:?} is {from_core} m from the core"
    );
}

/// Rays that are not solid, started on a hull's surface (at a vertex, on
/// an edge, inside a face) and run along it (along an edge of that face,
/// either way): the ray leaves the hull where it starts or where its run
/// along the surface ends, either is right, and the answer is a hit on the
/// surface whose normal bounds the hull there, or a miss (the ray only
/// grazes the hull). Thin hulls too, and hulls
/// far from the origin. Brute force: the hull's triangles, in f64.
fn rays_along_the_surface<R: Real>() {
    let mut rng = Rng::new(75);
    let mut exits_at_origin = 0;
    let n = 1200;
    for case in 0..n {
        let flat = [1.0, 1e-2, 1e-3][case % 3];
        let (count, radius) = (4 + rng.below(9), rng.range_f64(0.5, 2.0));
        let pts: Vec<Vec3<R>> = rng
            .points_in_ball::<f64>(count, radius)
            .into_iter()
            .map(|p| Vec3::new(p.x, p.y, p.z * flat).cast())
            .collect();
        let Ok(hull) = ConvexHull::from_points(&pts) else {
            continue;
        };
        let p64 = rng.pose::<f64>(if case % 2 == 0 { 2.0 } else { 25.0 });
        let pose: Iso3<R> = p64.cast();
        let poly = Poly::from_points(
            hull.view()
                .vertices()
                .iter()
                .map(|v| pose.cast::<f64>().transform_point(v.cast()))
                .collect(),
        );
        if poly.tris.is_empty() {
            continue;
        }
        let tri = poly.tris[rng.below(poly.tris.len())];
        let [a, b, c] = tri.map(|i| poly.v[i]);
        let origin = match case % 4 {
            0 => a,
            1 => a + (b - a) * rng.range_f64(0.1, 0.9),
            _ => {
                let (u, w) = (rng.range_f64(0.05, 0.9), rng.range_f64(0.05, 0.9));
                let (u, w) = if u + w > 0.95 {
                    (1.0 - u, 1.0 - w)
                } else {
                    (u, w)
                };
                a + (b - a) * u + (c - a) * w
            }
        };
        let along = [b - a, c - b, a - c][rng.below(3)];
        let dir = if rng.chance(0.5) { along } else { -along };
        let ray = Ray::new(origin.cast::<R>(), dir.cast::<R>());
        let got = ray_cast(&hull, &pose, &ray, R::INFINITY, false);
        let size = poly
            .v
            .iter()
            .map(|v| (*v - p64.translation).norm())
            .fold(0.0, f64::max);
        let tol = 100.0 * rel::<R>() * (size + origin.norm());
        let what = format!("case {case} (flat {flat}): {got:?} ray {ray:?}");
        // From within the tolerance of the surface, a ray that only
        // grazes it may also be called a miss.
        if got.status == RayStatus::Miss {
            continue;
        }
        assert_eq!(got.status, RayStatus::Hit, "{what}");
        let q = got.point.cast::<f64>();
        // On the surface: on the boundary of the triangles' planes.
        let height = poly
            .tris
            .iter()
            .zip(&poly.normals)
            .map(|(t, n)| n.dot(q - poly.v[t[0]]))
            .fold(f64::MIN, f64::max);
        assert!(height.abs() <= tol, "{what}: {height} m off the surface");
        let nrm = got.normal.cast::<f64>();
        assert!((nrm.norm() - 1.0).abs() <= 1e-3, "{what}: normal not unit");
        let beyond = poly.h(nrm) - nrm.dot(q);
        assert!(
            beyond <= tol,
            "{what}: the hull reaches {beyond} m past the normal's plane"
        );
        exits_at_origin += (got.toi == R::ZERO) as usize;
    }
    // Both answers occur (a test that never reaches the fallback checks
    // nothing about it).
    assert!(exits_at_origin > 0, "no ray left at its origin");
}
for_each_real!(rays_along_the_surface, rays_along_the_surface);
