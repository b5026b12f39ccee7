//! Every shape constructor refuses bad input with the named error, and keeps
//! what it accepts, in f32 and f64.

use mink_support::{
    Capsule, Cone, Cuboid, Cylinder, Ellipsoid, HalfSpace, Real, Rounded, Segment, ShapeError,
    Sphere, TerrainPrism, Triangle, Vec3,
};
use mink_testkit::for_each_real;

fn v<R: Real>(x: f64, y: f64, z: f64) -> Vec3<R> {
    Vec3::new(R::lit(x), R::lit(y), R::lit(z))
}

fn sizes_must_be_finite_and_positive<R: Real>() {
    let l = R::lit;
    let (nan, inf) = (R::nan(), R::INFINITY);
    use ShapeError::*;

    assert_eq!(Sphere::new(l(0.0)), Err(NonPositive("sphere radius")));
    assert_eq!(Sphere::new(l(-1.0)), Err(NonPositive("sphere radius")));
    assert_eq!(Sphere::new(nan), Err(NonFinite("sphere radius")));
    assert_eq!(Sphere::new(inf), Err(NonFinite("sphere radius")));
    assert_eq!(Sphere::new(l(0.5)).unwrap().radius(), l(0.5));

    assert_eq!(
        Cuboid::new(v::<R>(1.0, 0.0, 1.0)),
        Err(NonPositive("box half-extents"))
    );
    assert_eq!(
        Cuboid::new(Vec3::new(l(1.0), nan, l(1.0))),
        Err(NonFinite("box half-extents"))
    );

    assert_eq!(
        Capsule::new(l(0.0), l(1.0)),
        Err(NonPositive("capsule radius"))
    );
    assert_eq!(
        Capsule::new(l(1.0), l(-1.0)),
        Err(Negative("capsule half-length"))
    );
    assert_eq!(
        Capsule::new(l(1.0), nan),
        Err(NonFinite("capsule half-length"))
    );
    assert!(
        Capsule::new(l(1.0), l(0.0)).is_ok(),
        "a zero half-length is a sphere"
    );

    assert_eq!(
        Segment::new(Vec3::new(nan, l(0.0), l(0.0)), v(1.0, 0.0, 0.0)),
        Err(NonFinite("segment end a"))
    );
    assert_eq!(
        Segment::new(v(1.0, 0.0, 0.0), Vec3::new(l(0.0), inf, l(0.0))),
        Err(NonFinite("segment end b"))
    );

    let c = Cuboid::new(v::<R>(1.0, 1.0, 1.0)).unwrap();
    assert_eq!(Rounded::new(c, l(-0.1)), Err(Negative("rounding margin")));
    assert_eq!(Rounded::new(c, nan), Err(NonFinite("rounding margin")));

    assert_eq!(
        Ellipsoid::new(v::<R>(1.0, 2.0, 0.0)),
        Err(NonPositive("ellipsoid radii"))
    );
    assert_eq!(
        Ellipsoid::new(v::<R>(-1.0, 2.0, 3.0)),
        Err(NonPositive("ellipsoid radii"))
    );
    assert_eq!(
        Ellipsoid::new(Vec3::new(l(1.0), inf, l(1.0))),
        Err(NonFinite("ellipsoid radii"))
    );
    assert_eq!(
        Ellipsoid::new(v::<R>(1.0, 2.0, 3.0)).unwrap().radii(),
        v(1.0, 2.0, 3.0)
    );

    assert_eq!(
        Cylinder::new(l(0.0), l(1.0)),
        Err(NonPositive("cylinder radius"))
    );
    assert_eq!(
        Cylinder::new(l(1.0), l(0.0)),
        Err(NonPositive("cylinder half-length"))
    );
    assert_eq!(
        Cylinder::new(nan, l(1.0)),
        Err(NonFinite("cylinder radius"))
    );
    assert_eq!(
        Cylinder::new(l(1.0), -inf),
        Err(NonFinite("cylinder half-length"))
    );
    let cy = Cylinder::new(l(0.5), l(2.0)).unwrap();
    assert_eq!((cy.radius(), cy.half_length()), (l(0.5), l(2.0)));

    assert_eq!(Cone::new(l(-1.0), l(1.0)), Err(NonPositive("cone radius")));
    assert_eq!(
        Cone::new(l(1.0), l(0.0)),
        Err(NonPositive("cone half-length"))
    );
    assert_eq!(Cone::new(inf, l(1.0)), Err(NonFinite("cone radius")));
    let co = Cone::new(l(0.5), l(2.0)).unwrap();
    assert_eq!(co.apex(), v(0.0, 0.0, 2.0));
}
for_each_real!(
    sizes_must_be_finite_and_positive,
    sizes_must_be_finite_and_positive
);

fn triangles_need_area<R: Real>() {
    use ShapeError::*;
    let nan = R::nan();
    let (a, b, c) = (v::<R>(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0));
    let bad = Vec3::new(R::ZERO, nan, R::ZERO);
    assert_eq!(
        Triangle::new(bad, b, c),
        Err(NonFinite("triangle vertex a"))
    );
    assert_eq!(
        Triangle::new(a, bad, c),
        Err(NonFinite("triangle vertex b"))
    );
    assert_eq!(
        Triangle::new(a, b, bad),
        Err(NonFinite("triangle vertex c"))
    );
    let zero_area = Err(Degenerate("triangle of zero area"));
    // Collinear, coincident, and all three at one point.
    assert_eq!(Triangle::new(a, b, v(3.0, 0.0, 0.0)), zero_area);
    assert_eq!(Triangle::new(a, a, c), zero_area);
    assert_eq!(Triangle::new(c, c, c), zero_area);
    // Collinear up to rounding of a far-away triangle.
    let far = v::<R>(1e3, 2e3, -3e3);
    assert_eq!(
        Triangle::new(far, far + v(1.0, 1.0, 1.0), far + v(2.0, 2.0, 2.0)),
        zero_area
    );
    // A thin but genuine sliver (aspect 1000) is a triangle.
    let t = Triangle::new(a, v(1.0, 0.0, 0.0), v(0.5, 1e-3, 0.0)).unwrap();
    assert_eq!(t.vertices()[2], v(0.5, 1e-3, 0.0));
    let n = Triangle::new(a, b, c).unwrap().normal();
    assert_eq!(n, v(0.0, 0.0, 1.0), "right-hand rule a -> b -> c");
    assert_eq!(Triangle::new(a, b, c).unwrap().area(), R::HALF);
}
for_each_real!(triangles_need_area, triangles_need_area);

fn prisms_need_a_footprint_and_a_base_below<R: Real>() {
    use ShapeError::*;
    let l = R::lit;
    let top = [v::<R>(0.0, 0.0, 1.0), v(1.0, 0.0, 2.0), v(0.0, 1.0, 1.5)];
    let p = TerrainPrism::new(top, l(-1.0)).unwrap();
    assert_eq!((p.top(), p.base()), (top, l(-1.0)));
    assert_eq!(p.vertices()[4], v(1.0, 0.0, -1.0));
    // A base at the lowest top vertex is allowed; above it is not.
    assert!(TerrainPrism::new(top, l(1.0)).is_ok());
    assert_eq!(
        TerrainPrism::new(top, l(1.2)),
        Err(Degenerate("terrain prism base above its top triangle"))
    );
    // A flat triangle at the base height has no volume.
    let flat = [v::<R>(0.0, 0.0, 1.0), v(1.0, 0.0, 1.0), v(0.0, 1.0, 1.0)];
    assert_eq!(
        TerrainPrism::new(flat, l(1.0)),
        Err(Degenerate("terrain prism of zero height"))
    );
    // A vertical triangle has no footprint.
    let wall = [v::<R>(0.0, 0.0, 1.0), v(1.0, 1.0, 2.0), v(2.0, 2.0, 1.0)];
    assert_eq!(
        TerrainPrism::new(wall, l(0.0)),
        Err(Degenerate("terrain prism footprint of zero area"))
    );
    let mut bad = top;
    bad[1].z = R::INFINITY;
    assert_eq!(
        TerrainPrism::new(bad, l(0.0)),
        Err(NonFinite("terrain prism top vertex"))
    );
    assert_eq!(
        TerrainPrism::new(top, R::nan()),
        Err(NonFinite("terrain prism base"))
    );
    // A cell: two prisms sharing the diagonal, both counter-clockwise from
    // above, covering the cell's corners.
    let heights = [l(0.1), l(0.2), l(0.3), l(0.4)];
    let [p0, p1] = TerrainPrism::cell(l(1.0), l(2.0), l(0.5), l(0.25), heights, l(-1.0)).unwrap();
    for p in [p0, p1] {
        let [a, b, c] = p.top();
        let ccw = (b - a).x * (c - a).y - (b - a).y * (c - a).x;
        assert!(ccw > R::ZERO);
    }
    assert_eq!(p0.top()[0], v(1.0, 2.0, 0.1));
    assert_eq!(p0.top()[2], v(1.5, 2.25, 0.4));
    assert_eq!(p1.top()[2], v(1.0, 2.25, 0.3));
    assert_eq!(p0.top()[1], v(1.5, 2.0, 0.2));
    assert_eq!(
        TerrainPrism::cell(l(0.0), l(0.0), l(0.0), l(1.0), heights, l(-1.0)),
        Err(NonPositive("terrain cell size x"))
    );
    assert_eq!(
        TerrainPrism::cell(l(0.0), l(0.0), l(1.0), l(1.0), heights, l(0.2)),
        Err(Degenerate("terrain prism base above its top triangle"))
    );
}
for_each_real!(
    prisms_need_a_footprint_and_a_base_below,
    prisms_need_a_footprint_and_a_base_below
);

fn half_spaces_need_a_normal<R: Real>() {
    use ShapeError::*;
    let l = R::lit;
    assert_eq!(
        HalfSpace::new(Vec3::ZERO, l(1.0)),
        Err(Degenerate("half-space normal of zero length"))
    );
    assert_eq!(
        HalfSpace::new(Vec3::new(R::nan(), l(0.0), l(1.0)), l(1.0)),
        Err(NonFinite("half-space normal"))
    );
    assert_eq!(
        HalfSpace::new(v(0.0, 0.0, 1.0), R::INFINITY),
        Err(NonFinite("half-space offset"))
    );
    // A non-unit normal scales the offset with it: the same set of points.
    let h = HalfSpace::new(v(0.0, 0.0, 2.0), l(4.0)).unwrap();
    assert_eq!((h.normal(), h.offset()), (v(0.0, 0.0, 1.0), l(2.0)));
    // Tiny and huge normals normalize without underflow or overflow.
    let tiny = HalfSpace::new(v(3e-30, 0.0, 4e-30), l(0.0)).unwrap();
    assert!((tiny.normal() - v(0.6, 0.0, 0.8)).max_abs() < l(1e-6));
    let huge = HalfSpace::new(Vec3::new(R::MAX, R::MAX, R::ZERO), R::MAX).unwrap();
    assert!((huge.normal().norm() - R::ONE).abs() < l(1e-6));
    // offset / |normal| = MAX / (√2 MAX).
    assert!((huge.offset() - R::FRAC_1_SQRT_2()).abs() < l(1e-6));
    // A tiny normal with a unit offset puts the plane out of range.
    assert_eq!(
        HalfSpace::new(
            Vec3::new(R::min_positive_value() * l(1e-3), R::ZERO, R::ZERO),
            l(1.0)
        ),
        Err(NonFinite("half-space offset"))
    );
    let p = HalfSpace::from_point_normal(v(0.0, 0.0, 3.0), v(0.0, 0.0, -5.0)).unwrap();
    assert_eq!((p.normal(), p.offset()), (v(0.0, 0.0, -1.0), l(-3.0)));
    assert_eq!(
        HalfSpace::from_point_normal(Vec3::splat(R::INFINITY), v(0.0, 0.0, 1.0)),
        Err(NonFinite("half-space point"))
    );
}
for_each_real!(half_spaces_need_a_normal, half_spaces_need_a_normal);

#[test]
fn errors_name_the_parameter() {
    let e = Cylinder::<f32>::new(0.0, 1.0).unwrap_err();
    assert_eq!(e.to_string(), "cylinder radius must be positive");
    let e = Triangle::<f64>::new(Vec3::ZERO, Vec3::ZERO, Vec3::X).unwrap_err();
    assert_eq!(e.to_string(), "degenerate triangle of zero area");
}
