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
}
