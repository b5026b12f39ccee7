//! `arbitrary::Arbitrary` for poses and shapes (feature `arbitrary`), for
//! fuzzing engines built on mink.
//!
//! Generated values are always *valid*: finite, positive sizes in
//! `[SIZE_MIN, SIZE_MAX]` meters, unit quaternions, translations within
//! `±TRANSLATION_MAX` meters, so a fuzzer spends its time inside the
//! algorithms rather than in constructor refusals. (`Vec3` and `Aabb` derive
//! `Arbitrary` field by field and may hold any float, NaN included.)

use crate::{
    Capsule, Cone, Cuboid, Cylinder, Ellipsoid, HalfSpace, Iso3, Point, Quat, Real, Rounded,
    Segment, Sphere, Support, TerrainPrism, Triangle, Vec3,
};
use arbitrary::{Arbitrary, Result, Unstructured};

/// Smallest size (radius, half-extent, ...) an arbitrary shape gets, meters.
pub const SIZE_MIN: f64 = 1e-3;
/// Largest size an arbitrary shape gets, meters.
pub const SIZE_MAX: f64 = 1e3;
/// Largest translation component of an arbitrary pose, meters.
pub const TRANSLATION_MAX: f64 = 1e3;

/// A value in `[lo, hi]` from a `u32`'s worth of entropy, spaced
/// logarithmically when `log` (sizes span six decades).
fn scaled<R: Real>(u: &mut Unstructured<'_>, lo: f64, hi: f64, log: bool) -> Result<R> {
    let t = f64::from(u32::arbitrary(u)?) / f64::from(u32::MAX);
    let v = if log {
        lo * (hi / lo).powf(t)
    } else {
        lo + (hi - lo) * t
    };
    Ok(R::lit(v))
}

/// A positive size in `[SIZE_MIN, SIZE_MAX]`, log-uniform.
pub fn arbitrary_size<R: Real>(u: &mut Unstructured<'_>) -> Result<R> {
    scaled(u, SIZE_MIN, SIZE_MAX, true)
}

/// A point with components in `±TRANSLATION_MAX`.
pub fn arbitrary_point<R: Real>(u: &mut Unstructured<'_>) -> Result<Vec3<R>> {
    Ok(Vec3::new(
        scaled(u, -TRANSLATION_MAX, TRANSLATION_MAX, false)?,
        scaled(u, -TRANSLATION_MAX, TRANSLATION_MAX, false)?,
        scaled(u, -TRANSLATION_MAX, TRANSLATION_MAX, false)?,
    ))
}

impl<'a, R: Real> Arbitrary<'a> for Quat<R> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let c = |u: &mut Unstructured<'a>| scaled::<R>(u, -1.0, 1.0, false);
        let q = Quat::from_wxyz(c(u)?, c(u)?, c(u)?, c(u)?);
        Ok(q.normalize().unwrap_or(Quat::IDENTITY))
    }
}

impl<'a, R: Real> Arbitrary<'a> for Iso3<R> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let t = arbitrary_point(u)?;
        let q = Quat::<R>::arbitrary(u)?;
        Ok(Iso3::from_parts(q.to_mat3(), t))
    }
}

impl<'a> Arbitrary<'a> for Point {
    fn arbitrary(_u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(Point)
    }
}

impl<'a, R: Real> Arbitrary<'a> for Sphere<R> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Sphere::new(arbitrary_size(u)?).map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

impl<'a, R: Real> Arbitrary<'a> for Cuboid<R> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let h = Vec3::new(arbitrary_size(u)?, arbitrary_size(u)?, arbitrary_size(u)?);
        Cuboid::new(h).map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

impl<'a, R: Real> Arbitrary<'a> for Capsule<R> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Capsule::new(arbitrary_size(u)?, arbitrary_size(u)?)
            .map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

impl<'a, R: Real> Arbitrary<'a> for Segment<R> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Segment::new(arbitrary_point(u)?, arbitrary_point(u)?)
            .map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

impl<'a, R: Real, S: Support<R> + Arbitrary<'a>> Arbitrary<'a> for Rounded<S, R> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let inner = S::arbitrary(u)?;
        Rounded::new(inner, arbitrary_size(u)?).map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

impl<'a, R: Real> Arbitrary<'a> for Ellipsoid<R> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let r = Vec3::new(arbitrary_size(u)?, arbitrary_size(u)?, arbitrary_size(u)?);
        Ellipsoid::new(r).map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

impl<'a, R: Real> Arbitrary<'a> for Cylinder<R> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Cylinder::new(arbitrary_size(u)?, arbitrary_size(u)?)
            .map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

impl<'a, R: Real> Arbitrary<'a> for Cone<R> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Cone::new(arbitrary_size(u)?, arbitrary_size(u)?)
            .map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

/// A triangle from three arbitrary points; a zero-area draw is refused by
/// the constructor and reported as `IncorrectFormat` (the fuzzer moves on).
impl<'a, R: Real> Arbitrary<'a> for Triangle<R> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Triangle::new(
            arbitrary_point(u)?,
            arbitrary_point(u)?,
            arbitrary_point(u)?,
        )
        .map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

/// A prism under an arbitrary top triangle, its base a positive depth below
/// the lowest top vertex; degenerate footprints give `IncorrectFormat`.
impl<'a, R: Real> Arbitrary<'a> for TerrainPrism<R> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let top: [Vec3<R>; 3] = [
            arbitrary_point(u)?,
            arbitrary_point(u)?,
            arbitrary_point(u)?,
        ];
        let lowest = top[0].z.min_of(top[1].z).min_of(top[2].z);
        let base = lowest - arbitrary_size::<R>(u)?;
        TerrainPrism::new(top, base).map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

impl<'a, R: Real> Arbitrary<'a> for HalfSpace<R> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let c = |u: &mut Unstructured<'a>| scaled::<R>(u, -1.0, 1.0, false);
        let n = Vec3::new(c(u)?, c(u)?, c(u)?);
        let offset = scaled(u, -TRANSLATION_MAX, TRANSLATION_MAX, false)?;
        HalfSpace::new(n, offset).map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

/// Most points an arbitrary convex hull is built from.
pub const HULL_POINTS_MAX: usize = 48;

/// How an arbitrary hull's points are laid out: the shapes a fuzzer should
/// meet, weighted towards the ones that break polytope code.
#[cfg(feature = "alloc")]
#[derive(Clone, Copy)]
enum HullCloud {
    /// Points spread in a ball.
    Round,
    /// A box's corners, each duplicated with a jitter of `1e-6` to `1e-3`
    /// of the size: near-duplicate vertices as CAD meshes have, which leave
    /// sliver faces and very short edges.
    JitteredBox,
    /// Points within a thin slab: two nearly parallel large faces.
    Slab,
    /// A prism over a regular polygon (a cylinder's tessellation): long thin
    /// side faces.
    Prism,
}

#[cfg(feature = "alloc")]
impl<'a, R: Real> Arbitrary<'a> for crate::ConvexHull<R> {
    /// A hull of 4 to [`HULL_POINTS_MAX`] points whose size is
    /// [`arbitrary_size`], laid out round, as a box with near-duplicate
    /// corners, as a thin slab or as a polygonal prism. Always a valid hull:
    /// a cloud the builder refuses (too flat in `R`) falls back on a box.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        use alloc::vec::Vec;
        let size: R = arbitrary_size(u)?;
        let unit = |u: &mut Unstructured<'a>| scaled::<R>(u, -1.0, 1.0, false);
        let cloud = match u8::arbitrary(u)? % 4 {
            0 => HullCloud::Round,
            1 => HullCloud::JitteredBox,
            2 => HullCloud::Slab,
            _ => HullCloud::Prism,
        };
        let count = 4 + usize::from(u8::arbitrary(u)?) % (HULL_POINTS_MAX - 3);
        let mut points: Vec<Vec3<R>> = Vec::with_capacity(HULL_POINTS_MAX);
        match cloud {
            HullCloud::Round => {
                for _ in 0..count {
                    points.push(Vec3::new(unit(u)?, unit(u)?, unit(u)?) * size);
                }
            }
            HullCloud::JitteredBox => {
                let half = Vec3::new(
                    scaled::<R>(u, 0.05, 1.0, false)?,
                    scaled::<R>(u, 0.05, 1.0, false)?,
                    scaled::<R>(u, 0.05, 1.0, false)?,
                ) * size;
                let jitter: R = scaled(u, 1e-6, 1e-3, true)?;
                for corner in 0..8 {
                    let sign = |bit: u32| {
                        if corner >> bit & 1 == 1 {
                            R::ONE
                        } else {
                            -R::ONE
                        }
                    };
                    let c = Vec3::new(half.x * sign(0), half.y * sign(1), half.z * sign(2));
                    points.push(c);
                    let wobble = Vec3::new(unit(u)?, unit(u)?, unit(u)?) * (jitter * size);
                    points.push(c + wobble);
                }
            }
            HullCloud::Slab => {
                let thickness: R = scaled(u, 1e-3, 0.1, true)?;
                for _ in 0..count {
                    let z = unit(u)? * thickness;
                    points.push(Vec3::new(unit(u)?, unit(u)?, z) * size);
                }
            }
            HullCloud::Prism => {
                let sides = 3 + count % 30;
                let height: R = scaled(u, 0.05, 2.0, true)?;
                for i in 0..sides {
                    let angle = R::lit(core::f64::consts::TAU * i as f64 / sides as f64);
                    let (sin, cos) = (angle.sin(), angle.cos());
                    for z in [-height, height] {
                        points.push(Vec3::new(cos, sin, z) * size);
                    }
                }
            }
        }
        if let Ok(hull) = crate::ConvexHull::from_points(&points) {
            return Ok(hull);
        }
        let corners: Vec<Vec3<R>> = (0..8)
            .map(|corner: u32| {
                let sign = |bit: u32| if corner >> bit & 1 == 1 { size } else { -size };
                Vec3::new(sign(0), sign(1), sign(2))
            })
            .collect();
        crate::ConvexHull::from_points(&corners).map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arbitrary_values_are_valid() {
        let bytes: [u8; 4096] = core::array::from_fn(|i| (i * 7919 % 251) as u8);
        let mut u = Unstructured::new(&bytes);
        for _ in 0..50 {
            let pose = Iso3::<f64>::arbitrary(&mut u).unwrap();
            assert!(pose.is_finite());
            let det = pose.rotation.determinant();
            assert!((det - 1.0).abs() < 1e-9);
            let s = Sphere::<f32>::arbitrary(&mut u).unwrap();
            assert!(s.radius() >= 1e-3 * 0.999 && s.radius() <= 1e3 * 1.001);
            let b = Rounded::<Cuboid<f64>, f64>::arbitrary(&mut u).unwrap();
            let c = Cylinder::<f32>::arbitrary(&mut u).unwrap();
            assert!(c.radius() > 0.0);
            let e = Ellipsoid::<f64>::arbitrary(&mut u).unwrap();
            assert!(e.radii().min_element() > 0.0);
            assert!(b.inner().half_extents().min_element() > 0.0);
        }
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn arbitrary_hulls_are_valid() {
        let bytes: [u8; 8192] = core::array::from_fn(|i| (i * 7919 % 251) as u8);
        let mut u = Unstructured::new(&bytes);
        for _ in 0..40 {
            let hull = crate::ConvexHull::<f32>::arbitrary(&mut u).unwrap();
            let view = hull.view();
            let n = view.vertices().len();
            assert!((4..=2 * HULL_POINTS_MAX).contains(&n), "{n} vertices");
            // Every vertex on or below every face plane (within tolerance).
            for plane in view.planes() {
                for v in view.vertices() {
                    assert!(plane.normal.dot(*v) - plane.offset <= view.tolerance() * 4.0);
                }
            }
        }
    }
}
