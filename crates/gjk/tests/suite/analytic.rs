//! GJK and EPA against closed-form answers: sphere–sphere, sphere–box,
//! capsule–capsule (exact segment–segment distance), box–box along axes,
//! point–shape. Seeded random cases, f32 and f64.

use crate::common::{pose, segment_segment};
use mink_gjk::{distance, intersect, penetration, EpaStatus, GjkStatus};
use mink_support::{Capsule, Cuboid, Iso3, Pair, Point, Real, Sphere, Vec3};
use mink_testkit::{for_each_real, Rng};

/// Absolute tolerance for shapes of size about 1 (meters).
fn tol<R: Real>() -> f64 {
    if R::MANTISSA_BITS > 30 {
        1e-9
    } else {
        2e-4
    }
}

fn close(a: f64, b: f64, t: f64, what: &str) {
    assert!((a - b).abs() <= t, "{what}: {a} vs {b} (tol {t})");
}

fn sphere_sphere<R: Real>() {
    let mut rng = Rng::new(1);
    let mut hits = 0;
    for _ in 0..2000 {
        let (ra, rb) = (rng.range_f64(0.1, 2.0), rng.range_f64(0.1, 2.0));
        let a = Sphere::new(R::lit(ra)).unwrap();
        let b = Sphere::new(R::lit(rb)).unwrap();
        let pa: Iso3<R> = pose(&mut rng, 3.0);
        let mut pb: Iso3<R> = pose(&mut rng, 0.0);
        let off = rng.unit_vec::<f64>() * rng.range_f64(0.05, 1.5) * (ra + rb);
        pb.translation = pa.translation + off.cast();
        let c = pb.translation.cast::<f64>() - pa.translation.cast::<f64>();
        let expected = c.norm() - ra - rb;
        let n = c / c.norm();
        let mut pair = Pair::new(&a, &pa, &b, &pb);
        let d = distance(&mut pair, &pa);
        // Point cores: exact, including overlap (negative distance).
        assert_eq!(d.status, GjkStatus::Converged);
        close(
            d.distance.to_f64(),
            expected,
            tol::<R>() * 4.0,
            "sphere-sphere distance",
        );
        assert!((d.normal.cast::<f64>() - n).norm() < tol::<R>() * 10.0);
        let ca = pa.translation.cast::<f64>();
        assert!((d.p_a.cast::<f64>() - (ca + n * ra)).norm() < tol::<R>() * 10.0);
        assert_eq!(intersect(&mut pair), expected <= 0.0);
        let p = penetration(&mut pair, &pa);
        close(
            p.depth.to_f64(),
            -expected,
            tol::<R>() * 4.0,
            "sphere-sphere depth",
        );
        hits += (expected <= 0.0) as usize;
    }
    assert!((600..1400).contains(&hits), "{hits} overlaps of 2000");
}
for_each_real!(sphere_sphere_exact, sphere_sphere);

/// Signed distance from a sphere (centre `c`, radius `r`) to a box with
/// half-extents `h` at the origin of its frame: clamp the centre into the
/// box; inside, minus the distance to the nearest face.
fn sphere_box_reference(c: Vec3<f64>, r: f64, h: Vec3<f64>) -> f64 {
    let q = c.abs() - h;
    let outside = q.max(Vec3::ZERO).norm();
    let inside = q.max_element().min(0.0);
    outside + inside - r
}

fn sphere_box<R: Real>() {
    let mut rng = Rng::new(2);
    let mut hits = 0;
    for i in 0..2000 {
        let h = Vec3::new(
            rng.range_f64(0.2, 1.5),
            rng.range_f64(0.2, 1.5),
            rng.range_f64(0.2, 1.5),
        );
        let r = rng.range_f64(0.1, 1.0);
        let bx = Cuboid::new(h.cast::<R>()).unwrap();
        let ball = Sphere::new(R::lit(r)).unwrap();
        let pbx: Iso3<R> = pose(&mut rng, 2.0);
        let local = Vec3::new(
            rng.range_f64(-2.5, 2.5),
            rng.range_f64(-2.5, 2.5),
            rng.range_f64(-2.5, 2.5),
        );
        let pball = Iso3::from_translation(pbx.transform_point(local.cast::<R>()));
        let local = pbx
            .cast::<f64>()
            .inverse_transform_point(pball.translation.cast::<f64>());
        let expected = sphere_box_reference(local, r, h);
        // Box as A, sphere as B, and the mirror.
        let mut pair = Pair::new(&bx, &pbx, &ball, &pball);
        let d = distance(&mut pair, &pbx);
        if expected > 0.0 {
            assert_eq!(d.status, GjkStatus::Converged, "case {i}");
            close(
                d.distance.to_f64(),
                expected,
                tol::<R>() * 8.0,
                "sphere-box distance",
            );
        }
        let p = penetration(&mut pair, &pbx);
        close(
            -p.depth.to_f64(),
            expected,
            tol::<R>() * 8.0,
            "sphere-box signed",
        );
        let mut mirror = Pair::new(&ball, &pball, &bx, &pbx);
        let m = penetration(&mut mirror, &pball);
        close(
            -m.depth.to_f64(),
            expected,
            tol::<R>() * 8.0,
            "box-sphere signed",
        );
        assert!((m.normal + p.normal).cast::<f64>().norm() < 1e-2 || expected.abs() < 1e-3);
        assert_eq!(
            intersect(&mut pair),
            expected <= 0.0,
            "case {i}: {expected}"
        );
        hits += (expected <= 0.0) as usize;
    }
    assert!((300..1700).contains(&hits), "{hits} overlaps of 2000");
}
for_each_real!(sphere_box_exact, sphere_box);

fn capsule_capsule<R: Real>() {
    let mut rng = Rng::new(3);
    let mut hits = 0;
    for _ in 0..2000 {
        let (ra, ha) = (rng.range_f64(0.1, 0.8), rng.range_f64(0.0, 1.5));
        let (rb, hb) = (rng.range_f64(0.1, 0.8), rng.range_f64(0.0, 1.5));
        let a = Capsule::new(R::lit(ra), R::lit(ha)).unwrap();
        let b = Capsule::new(R::lit(rb), R::lit(hb)).unwrap();
        let pa: Iso3<R> = pose(&mut rng, 2.0);
        let mut pb: Iso3<R> = pose(&mut rng, 0.0);
        let off = rng.unit_vec::<f64>() * rng.range_f64(0.0, 1.2) * (ra + rb + ha + hb);
        pb.translation = pa.translation + off.cast();
        let ends = |p: &Iso3<R>, h: f64| {
            let p = p.cast::<f64>();
            (
                p.transform_point(Vec3::new(0.0, 0.0, -h)),
                p.transform_point(Vec3::new(0.0, 0.0, h)),
            )
        };
        let (a0, a1) = ends(&pa, ha);
        let (b0, b1) = ends(&pb, hb);
        let expected = segment_segment(a0, a1, b0, b1) - ra - rb;
        let mut pair = Pair::new(&a, &pa, &b, &pb);
        let p = penetration(&mut pair, &pa);
        // Exact while the core segments are apart; when they cross, the
        // depth is the sum of the radii (a flat core difference).
        close(
            -p.depth.to_f64(),
            expected,
            tol::<R>() * 8.0,
            "capsule-capsule signed",
        );
        let d = distance(&mut pair, &pa);
        if expected > 0.0 {
            close(
                d.distance.to_f64(),
                expected,
                tol::<R>() * 8.0,
                "capsule-capsule distance",
            );
        }
        assert_eq!(intersect(&mut pair), expected <= 0.0);
        hits += (expected <= 0.0) as usize;
    }
    assert!((400..1600).contains(&hits), "{hits} overlaps of 2000");
}
for_each_real!(capsule_capsule_exact, capsule_capsule);

fn box_box_axes<R: Real>() {
    let mut rng = Rng::new(4);
    for _ in 0..1000 {
        let ha = Vec3::new(
            rng.range_f64(0.1, 2.0),
            rng.range_f64(0.1, 2.0),
            rng.range_f64(0.1, 2.0),
        );
        let hb = Vec3::new(
            rng.range_f64(0.1, 2.0),
            rng.range_f64(0.1, 2.0),
            rng.range_f64(0.1, 2.0),
        );
        let a = Cuboid::new(ha.cast::<R>()).unwrap();
        let b = Cuboid::new(hb.cast::<R>()).unwrap();
        let axis = rng.below(3);
        let sign = if rng.chance(0.5) { 1.0 } else { -1.0 };
        let gap = rng.range_f64(-0.9, 1.0) * ha.get(axis).min(hb.get(axis));
        let mut t = [0.0; 3];
        t[axis] = sign * (ha.get(axis) + hb.get(axis) + gap);
        // Offsets across the axis small enough that the faces face each other.
        for k in 0..3 {
            if k != axis {
                t[k] = rng.range_f64(-0.5, 0.5) * ha.get(k).min(hb.get(k));
            }
        }
        let pa = Iso3::IDENTITY;
        let pb = Iso3::from_translation(Vec3::from_array(t).cast::<R>());
        let mut pair = Pair::new(&a, &pa, &b, &pb);
        let mut n = [0.0; 3];
        n[axis] = sign;
        let n = Vec3::from_array(n);
        if gap > 0.0 {
            let d = distance(&mut pair, &pa);
            close(d.distance.to_f64(), gap, tol::<R>() * 8.0, "box-box gap");
            assert!((d.normal.cast::<f64>() - n).norm() < 1e-3);
        } else {
            // Aligned boxes: the depth is the smallest overlap along the
            // three axes (SAT; edge-edge axes coincide with them).
            let overlaps: Vec<f64> = (0..3).map(|k| ha.get(k) + hb.get(k) - t[k].abs()).collect();
            let k = (0..3)
                .min_by(|&i, &j| overlaps[i].total_cmp(&overlaps[j]))
                .unwrap();
            let p = penetration(&mut pair, &pa);
            assert_eq!(p.status, EpaStatus::Converged);
            let ftol = if R::MANTISSA_BITS < 30 { 1e-3 } else { 0.0 };
            close(
                p.depth.to_f64(),
                overlaps[k],
                tol::<R>() * 8.0 + ftol,
                "box-box depth",
            );
            let mut second = overlaps.clone();
            second.sort_by(f64::total_cmp);
            if second[1] - second[0] > 1e-2 {
                let mut nk = [0.0; 3];
                nk[k] = t[k].signum();
                let nk = Vec3::from_array(nk);
                assert!(
                    (p.normal.cast::<f64>() - nk).norm() < 1e-3,
                    "{:?} vs {nk:?}",
                    p.normal
                );
            }
        }
    }
}
for_each_real!(box_box_along_axes, box_box_axes);

fn point_shapes<R: Real>() {
    let mut rng = Rng::new(5);
    for _ in 0..1000 {
        let h = Vec3::new(
            rng.range_f64(0.2, 1.5),
            rng.range_f64(0.2, 1.5),
            rng.range_f64(0.2, 1.5),
        );
        let bx = Cuboid::new(h.cast::<R>()).unwrap();
        let local = rng.in_cube::<f64>(2.5);
        let pp = Iso3::from_translation(local.cast::<R>());
        let pbx = Iso3::IDENTITY;
        let expected = sphere_box_reference(local, 0.0, h);
        let mut pair = Pair::new(&Point, &pp, &bx, &pbx);
        let p = penetration(&mut pair, &pp);
        close(
            -p.depth.to_f64(),
            expected,
            tol::<R>() * 8.0,
            "point-box signed",
        );
        // Point against sphere.
        let r = rng.range_f64(0.2, 2.0);
        let s = Sphere::new(R::lit(r)).unwrap();
        let mut pair = Pair::new(&Point, &pp, &s, &pbx);
        let d = distance(&mut pair, &pp);
        close(
            d.distance.to_f64(),
            local.norm() - r,
            tol::<R>() * 8.0,
            "point-sphere",
        );
    }
}
for_each_real!(point_shape, point_shapes);

/// A point on a capsule's axis (or a capsule's axis through another's):
/// the cores' difference is a segment through the origin, so EPA answers
/// across it. The depth is the inflation, the normal is perpendicular to
/// the axis, and the witnesses meet the point: `p_a - p_b = depth ·
/// normal`, each on its shape.
fn point_on_a_capsule_axis<R: Real>() {
    let mut rng = Rng::new(12);
    for _ in 0..500 {
        let (radius, half) = (rng.range_f64(0.05, 1.0), rng.range_f64(0.02, 1.5));
        let capsule = Capsule::new(R::lit(radius), R::lit(half)).unwrap();
        let pc: Iso3<R> = pose(&mut rng, 2.0);
        let along = rng.range_f64(-0.99, 0.99) * half;
        let local = Vec3::new(0.0, 0.0, along);
        let axis = pc.rotation.mul_vec(Vec3::<R>::Z).cast::<f64>();
        let at = pc.transform_point(local.cast::<R>());
        let pp = Iso3::from_translation(at);
        for flip in [false, true] {
            let p = if flip {
                penetration(&mut Pair::new(&Point, &pp, &capsule, &pc), &pp)
            } else {
                penetration(&mut Pair::new(&capsule, &pc, &Point, &pp), &pc)
            };
            assert_eq!(p.status, EpaStatus::Converged, "{p:?}");
            close(p.depth.to_f64(), radius, tol::<R>() * 4.0, "depth");
            let n = p.normal.cast::<f64>();
            assert!(
                n.dot(axis).abs() < tol::<R>() * 10.0,
                "normal {n:?} along the axis {axis:?}"
            );
            let gap = p.p_a.cast::<f64>() - p.p_b.cast::<f64>() - n * radius;
            assert!(gap.norm() < tol::<R>() * 10.0, "{p:?}");
            let point = at.cast::<f64>();
            let on_point = if flip { p.p_a } else { p.p_b };
            assert!(
                (on_point.cast::<f64>() - point).norm() < tol::<R>() * 10.0,
                "{p:?}"
            );
        }
    }
}
for_each_real!(point_on_a_capsule_axis, point_on_a_capsule_axis);

/// A point at or near the centre of a cylinder or a box, the two at one
/// pose, in both orders: support points along symmetric directions are
/// antipodal, so GJK can end on a simplex with the origin on one of its
/// edges, where EPA's faces would all pass through the origin (depth 0
/// until its polytope filled up; f32, a point at a 2 m cylinder's centre).
/// The depth is the distance to the nearest face or to the side:
/// `min(r - ρ, h - |z|)` for the cylinder, `min(h_i - |x_i|)` for the box.
/// Radii equal to the half-length (a tie between cap and side) included.
/// A cylinder's side is a ring of equally deep directions (or nearly so),
/// where EPA's polytope fills up before it converges in most cases; its
/// answer then comes from the descent on directions: an upper bound on
/// the depth, within 1e-5 of the size in f64 and 4e-4 in f32 (worst seen
/// 3.1e-6 and 9.9e-5). Either way the witness on the point is the point,
/// the other on the shape's surface, and they are `depth` apart along the
/// normal.
fn point_at_a_centre<R: Real>() {
    let mut rng = Rng::new(33);
    let capped_tol = if R::MANTISSA_BITS > 30 { 1e-5 } else { 4e-4 };
    for i in 0..600 {
        let r = rng.range_f64(0.05, 2.0);
        let h = if i % 3 == 0 {
            r
        } else {
            rng.range_f64(0.05, 2.0)
        };
        let offset = if i % 2 == 0 {
            Vec3::ZERO
        } else {
            rng.in_cube::<f64>(1e-3 * r.min(h))
        };
        let shape_pose: Iso3<R> = if i % 4 < 2 {
            Iso3::from_translation(rng.in_cube::<f64>(2.0).cast())
        } else {
            pose(&mut rng, 2.0)
        };
        let at = shape_pose.transform_point(offset.cast::<R>());
        let pp = Iso3::from_translation(at);
        let rho = (offset.x * offset.x + offset.y * offset.y).sqrt();
        let cylinder = mink_support::Cylinder::new(R::lit(r), R::lit(h)).unwrap();
        let expect_cyl = (r - rho).min(h - offset.z.abs());
        let half = Vec3::new(r, h, 0.5 * (r + h));
        let bx = Cuboid::new(half.cast::<R>()).unwrap();
        let expect_box = (half.x - offset.x.abs())
            .min(half.y - offset.y.abs())
            .min(half.z - offset.z.abs());
        // Signed distance of a point (shape frame) near the surface: the
        // larger of the side's and the caps' (exact inside, a lower bound
        // outside).
        let cylinder_sdf = |q: Vec3<f64>| (q.x.hypot(q.y) - r).max(q.z.abs() - h);
        let box_sdf = |q: Vec3<f64>| (q.abs() - half).max_element();
        let size = r.max(h) + at.cast::<f64>().norm();
        let cases = [
            (
                "point-cylinder",
                penetration(&mut Pair::new(&Point, &pp, &cylinder, &shape_pose), &pp),
                expect_cyl,
                true,
            ),
            (
                "cylinder-point",
                penetration(
                    &mut Pair::new(&cylinder, &shape_pose, &Point, &pp),
                    &shape_pose,
                ),
                expect_cyl,
                false,
            ),
            (
                "point-box",
                penetration(&mut Pair::new(&Point, &pp, &bx, &shape_pose), &pp),
                expect_box,
                true,
            ),
        ];
        for (what, p, expect, point_is_a) in cases {
            let depth = p.depth.to_f64();
            let t = tol::<R>() * 8.0 * size + mink_gjk::epa_tolerance::<R>().to_f64() * size;
            match p.status {
                EpaStatus::Converged => close(depth, expect, t, what),
                EpaStatus::CapacityReached if what != "point-box" => assert!(
                    depth >= expect - t && depth <= expect + capped_tol * size,
                    "{what} {i}: capped at depth {depth}, expected {expect}: {p:?}"
                ),
                _ => panic!("{what} {i}: {p:?}, expected depth {expect}"),
            }
            let (on_point, on_shape) = if point_is_a {
                (p.p_a, p.p_b)
            } else {
                (p.p_b, p.p_a)
            };
            let wt = t + capped_tol * size;
            let off_point = (on_point.cast::<f64>() - at.cast::<f64>()).norm();
            assert!(
                off_point <= wt,
                "{what} {i}: witness {off_point} off the point: {p:?}"
            );
            let q = shape_pose.inverse_transform_point(on_shape).cast::<f64>();
            let sdf = if what == "point-box" {
                box_sdf(q)
            } else {
                cylinder_sdf(q)
            };
            assert!(
                sdf.abs() <= wt,
                "{what} {i}: witness {sdf} off the surface: {p:?}"
            );
            let gap = p.p_a - p.p_b - p.normal * p.depth;
            assert!(
                gap.cast::<f64>().norm() <= wt,
                "{what} {i}: witnesses not depth apart along the normal: {p:?}"
            );
        }
    }
}
for_each_real!(point_at_a_centre, point_at_a_centre);
