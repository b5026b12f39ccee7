//! From parsed specs (f64) to mink shapes and poses in the chosen scalar.

use crate::spec::{GeometrySpec, PoseSpec, ShapeSpec};
use mink::support::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Ellipsoid, HalfSpace, Iso3, Point, Quat, Real,
    Segment, Sphere, Triangle, Vec3,
};
use mink::Shape;

/// A shape built from a spec: either a plain value, or an owned convex
/// hull that the [`Shape`] borrows.
#[derive(Clone, Debug)]
pub enum Built<R: Real> {
    /// A shape that owns all its data.
    Plain(Shape<'static, R>),
    /// A convex hull (`"convex"`), owned here.
    Hull(ConvexHull<R>),
}

impl<R: Real> Built<R> {
    /// The shape, borrowing the hull's arrays when there is one.
    pub fn shape(&self) -> Shape<'_, R> {
        match self {
            Built::Plain(s) => *s,
            Built::Hull(h) => Shape::Hull(h.view()),
        }
    }
}

fn v<R: Real>(a: [f64; 3]) -> Vec3<R> {
    Vec3::new(R::lit(a[0]), R::lit(a[1]), R::lit(a[2]))
}

/// Builds the shape of `g` in scalar `R`; `what` names it in the error
/// ("shape a"). Sizes that are not finite in `R` (too large for `f32`),
/// negative or degenerate are refused with the constructor's reason, and
/// so is a negative margin.
pub fn build_shape<R: Real>(g: &GeometrySpec, what: &str) -> Result<Built<R>, String> {
    let fail = |e: mink::support::ShapeError| format!("{what}: {e}");
    let shape: Shape<'static, R> = match &g.shape {
        ShapeSpec::Point => Point.into(),
        ShapeSpec::Sphere { radius } => Sphere::new(R::lit(*radius)).map_err(fail)?.into(),
        ShapeSpec::Ellipsoid { radii } => Ellipsoid::new(v(*radii)).map_err(fail)?.into(),
        ShapeSpec::Box { half_extents } => Cuboid::new(v(*half_extents)).map_err(fail)?.into(),
        ShapeSpec::Capsule {
            radius,
            half_length,
        } => Capsule::new(R::lit(*radius), R::lit(*half_length))
            .map_err(fail)?
            .into(),
        ShapeSpec::Cylinder {
            radius,
            half_length,
        } => Cylinder::new(R::lit(*radius), R::lit(*half_length))
            .map_err(fail)?
            .into(),
        ShapeSpec::Cone {
            radius,
            half_length,
        } => Cone::new(R::lit(*radius), R::lit(*half_length))
            .map_err(fail)?
            .into(),
        ShapeSpec::Segment { a, b } => Segment::new(v(*a), v(*b)).map_err(fail)?.into(),
        ShapeSpec::Triangle { a, b, c } => Triangle::new(v(*a), v(*b), v(*c)).map_err(fail)?.into(),
        ShapeSpec::Plane { normal, offset } => HalfSpace::new(v(*normal), R::lit(*offset))
            .map_err(fail)?
            .into(),
        ShapeSpec::Convex { points } => {
            let pts: Vec<Vec3<R>> = points.iter().map(|p| v(*p)).collect();
            return ConvexHull::from_points(&pts).map(Built::Hull).map_err(fail);
        }
    };
    Ok(Built::Plain(shape))
}

/// The margin of `g` in `R`: finite and `>= 0`, or an error naming `what`.
pub fn build_margin<R: Real>(g: &GeometrySpec, what: &str) -> Result<R, String> {
    let m = R::lit(g.margin);
    if m.finite() && m >= R::ZERO {
        Ok(m)
    } else {
        Err(format!("{what} \"margin\" must be finite and >= 0"))
    }
}

/// The pose of `p` in `R`: a finite translation and a unit quaternion
/// (within mink's tolerance), or an error naming `what`.
pub fn build_pose<R: Real>(p: &PoseSpec, what: &str) -> Result<Iso3<R>, String> {
    let t = v(p.translation);
    if !t.is_finite() {
        return Err(format!(
            "{what} \"translation\" is not finite in this scalar"
        ));
    }
    let [w, x, y, z] = p.rotation;
    let q = Quat::from_wxyz(R::lit(w), R::lit(x), R::lit(y), R::lit(z));
    Iso3::from_quat(t, q).map_err(|e| format!("{what} \"rotation\": {e}"))
}
