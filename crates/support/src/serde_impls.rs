//! `serde` for the math types and shapes (feature `serde`).
//!
//! The formats, as they read in JSON:
//!
//! - [`Vec3`]: `[x, y, z]`; [`Quat`]: `[x, y, z, w]` (glam's order);
//!   [`Mat3`](crate::Mat3): `{"x_axis": [..], "y_axis": [..], "z_axis": [..]}` (columns);
//!   [`Iso3`](crate::Iso3): `{"rotation": Mat3, "translation": Vec3}`; [`Aabb`](crate::Aabb):
//!   `{"min": Vec3, "max": Vec3}`. These have public fields and no
//!   invariant, so any numbers are read back as they are (a rotation that
//!   is not orthonormal is the caller's to check, as for a literal).
//! - Each shape: its constructor's arguments by name, e.g. a sphere
//!   `{"radius": 0.5}`, a box `{"half_extents": [0.5, 0.4, 0.3]}`, a
//!   capsule `{"radius": 0.1, "half_length": 0.5}`, a rounded shape
//!   `{"inner": {..}, "margin": 0.01}`. **Reading goes through the
//!   constructor**, so a negative radius, a NaN or a degenerate triangle is
//!   a deserialization error carrying the constructor's [`ShapeError`]
//!   text, never a shape that breaks the queries. Unknown fields are
//!   refused. A half-space's normal is normalized as
//!   [`HalfSpace::new`] does, unless it is unit already (then it is kept
//!   bit for bit, so a written half-space reads back the same).
//! - A convex hull ([`ConvexHull`](crate::shapes::hull::ConvexHull) with `alloc`, and [`HullView`], which
//!   only writes): every array of [`HullArrays`](crate::HullArrays) by name (`vertices`,
//!   `planes`, `face_starts`, `face_vertices`, `edges`, `neighbor_starts`,
//!   `neighbors`, `tolerance`; the SIMD lanes are rebuilt, not stored).
//!   Reading checks them with [`HullView::new`], so a written hull reads
//!   back identical. A hand-written hull may give `vertices` alone: its
//!   hull is then built from those points (`ConvexHull::from_points`).
//!
//! Height fields borrow their heights and are not serialized.

use crate::{
    Capsule, Cone, Cuboid, Cylinder, Ellipsoid, HalfSpace, HullView, Point, Quat, Real, Rounded,
    Segment, ShapeError, Sphere, Support, TerrainPrism, Triangle, Vec3,
};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

impl<R: Serialize> Serialize for Vec3<R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut t = serializer.serialize_tuple(3)?;
        t.serialize_element(&self.x)?;
        t.serialize_element(&self.y)?;
        t.serialize_element(&self.z)?;
        t.end()
    }
}

impl<'de, R: Deserialize<'de>> Deserialize<'de> for Vec3<R> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let [x, y, z] = <[R; 3]>::deserialize(deserializer)?;
        Ok(Vec3 { x, y, z })
    }
}

impl<R: Serialize> Serialize for Quat<R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut t = serializer.serialize_tuple(4)?;
        t.serialize_element(&self.x)?;
        t.serialize_element(&self.y)?;
        t.serialize_element(&self.z)?;
        t.serialize_element(&self.w)?;
        t.end()
    }
}

impl<'de, R: Deserialize<'de>> Deserialize<'de> for Quat<R> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let [x, y, z, w] = <[R; 4]>::deserialize(deserializer)?;
        Ok(Quat { x, y, z, w })
    }
}

/// A constructor's refusal as a deserialization error.
fn refused<E: serde::de::Error>(e: ShapeError) -> E {
    E::custom(e)
}

/// `Serialize` and `Deserialize` for a shape written as its constructor's
/// arguments: `Shape = "name" { field: Type = getter, .. } => constructor`,
/// where the constructor expression names the fields.
macro_rules! shape_as_arguments {
    ($shape:ident = $name:literal { $($field:ident: $fty:ty = $get:path),* $(,)? }
        => $ctor:expr) => {
        const _: () = {
            #[derive(Serialize, Deserialize)]
            #[serde(rename = $name, deny_unknown_fields)]
            struct Repr<R> {
                $($field: $fty,)*
            }

            impl<R: Real + Serialize> Serialize for $shape<R> {
                fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    Repr { $($field: $get(self),)* }.serialize(serializer)
                }
            }

            impl<'de, R: Real + Deserialize<'de>> Deserialize<'de> for $shape<R> {
                fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    let Repr { $($field,)* } = Repr::<R>::deserialize(deserializer)?;
                    $ctor.map_err(refused)
                }
            }
        };
    };
}

shape_as_arguments!(Sphere = "Sphere" { radius: R = Sphere::radius } => Sphere::new(radius));
shape_as_arguments!(Cuboid = "Cuboid" { half_extents: Vec3<R> = Cuboid::half_extents }
    => Cuboid::new(half_extents));
shape_as_arguments!(Capsule = "Capsule" {
    radius: R = Capsule::radius,
    half_length: R = Capsule::half_length,
} => Capsule::new(radius, half_length));
shape_as_arguments!(Cylinder = "Cylinder" {
    radius: R = Cylinder::radius,
    half_length: R = Cylinder::half_length,
} => Cylinder::new(radius, half_length));
shape_as_arguments!(Cone = "Cone" {
    radius: R = Cone::radius,
    half_length: R = Cone::half_length,
} => Cone::new(radius, half_length));
shape_as_arguments!(Ellipsoid = "Ellipsoid" { radii: Vec3<R> = Ellipsoid::radii }
    => Ellipsoid::new(radii));
shape_as_arguments!(Segment = "Segment" { a: Vec3<R> = Segment::a, b: Vec3<R> = Segment::b }
    => Segment::new(a, b));
shape_as_arguments!(Triangle = "Triangle" { vertices: [Vec3<R>; 3] = Triangle::vertices }
    => Triangle::new(vertices[0], vertices[1], vertices[2]));
shape_as_arguments!(TerrainPrism = "TerrainPrism" {
    top: [Vec3<R>; 3] = TerrainPrism::top,
    base: R = TerrainPrism::base,
} => TerrainPrism::new(top, base));
shape_as_arguments!(HalfSpace = "HalfSpace" {
    normal: Vec3<R> = HalfSpace::normal,
    offset: R = HalfSpace::offset,
} => HalfSpace::from_stored(normal, offset));

impl Serialize for Point {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit_struct("Point")
    }
}

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename = "Point")]
        struct PointRepr;
        PointRepr::deserialize(deserializer).map(|PointRepr| Point)
    }
}

/// A rounded shape as written: its inner shape and margin.
#[derive(Serialize, Deserialize)]
#[serde(rename = "Rounded", deny_unknown_fields)]
struct RoundedRepr<S, R> {
    inner: S,
    margin: R,
}

impl<S: Support<R> + Serialize, R: Real + Serialize> Serialize for Rounded<S, R> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        RoundedRepr {
            inner: self.inner(),
            margin: self.margin(),
        }
        .serialize(serializer)
    }
}

impl<'de, S: Support<R> + Deserialize<'de>, R: Real + Deserialize<'de>> Deserialize<'de>
    for Rounded<S, R>
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let RoundedRepr { inner, margin } = RoundedRepr::<S, R>::deserialize(deserializer)?;
        Rounded::new(inner, margin).map_err(refused)
    }
}

/// A hull's arrays as written (borrowed, for writing).
#[derive(Serialize)]
#[serde(rename = "ConvexHull")]
struct HullArraysOut<'a, R> {
    vertices: &'a [Vec3<R>],
    planes: &'a [crate::FacePlane<R>],
    face_starts: &'a [crate::HullIndex],
    face_vertices: &'a [crate::HullIndex],
    edges: &'a [crate::HullEdge],
    neighbor_starts: &'a [crate::HullIndex],
    neighbors: &'a [crate::HullIndex],
    tolerance: R,
}

impl<R: Real + Serialize> Serialize for HullView<'_, R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let a = self.arrays();
        HullArraysOut {
            vertices: a.vertices,
            planes: a.planes,
            face_starts: a.face_starts,
            face_vertices: a.face_vertices,
            edges: a.edges,
            neighbor_starts: a.neighbor_starts,
            neighbors: a.neighbors,
            tolerance: a.tolerance,
        }
        .serialize(serializer)
    }
}

#[cfg(feature = "alloc")]
mod owned_hull {
    use super::refused;
    use crate::{ConvexHull, FacePlane, HullArrays, HullEdge, HullIndex, Real, Vec3};
    use alloc::vec::Vec;
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl<R: Real + Serialize> Serialize for ConvexHull<R> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.view().serialize(serializer)
        }
    }

    /// A hull as read: the vertices, and either every other array or none.
    #[derive(Deserialize)]
    #[serde(rename = "ConvexHull", deny_unknown_fields)]
    struct HullArraysIn<R> {
        vertices: Vec<Vec3<R>>,
        planes: Option<Vec<FacePlane<R>>>,
        face_starts: Option<Vec<HullIndex>>,
        face_vertices: Option<Vec<HullIndex>>,
        edges: Option<Vec<HullEdge>>,
        neighbor_starts: Option<Vec<HullIndex>>,
        neighbors: Option<Vec<HullIndex>>,
        tolerance: Option<R>,
    }

    impl<'de, R: Real + Deserialize<'de>> Deserialize<'de> for ConvexHull<R> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let h = HullArraysIn::<R>::deserialize(deserializer)?;
            match (
                h.planes,
                h.face_starts,
                h.face_vertices,
                h.edges,
                h.neighbor_starts,
                h.neighbors,
                h.tolerance,
            ) {
                (None, None, None, None, None, None, None) => {
                    ConvexHull::from_points(&h.vertices).map_err(refused)
                }
                (
                    Some(planes),
                    Some(face_starts),
                    Some(face_vertices),
                    Some(edges),
                    Some(neighbor_starts),
                    Some(neighbors),
                    Some(tolerance),
                ) => ConvexHull::from_arrays(HullArrays {
                    vertices: &h.vertices,
                    planes: &planes,
                    face_starts: &face_starts,
                    face_vertices: &face_vertices,
                    edges: &edges,
                    neighbor_starts: &neighbor_starts,
                    neighbors: &neighbors,
                    tolerance,
                    lanes: &[],
                })
                .map_err(refused),
                _ => Err(D::Error::custom(
                    "a convex hull gives `vertices` alone, or every array of its topology",
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{
        Aabb, Capsule, Cone, Cuboid, Cylinder, Ellipsoid, HalfSpace, Iso3, Mat3, Point, Quat, Real,
        Rounded, Segment, Sphere, TerrainPrism, Triangle, Vec3,
    };
    use mink_testkit::{json_round_trip, Rng};
    use serde::de::DeserializeOwned;
    use serde::Serialize;
    use std::string::ToString;

    fn v<R: Real>(x: f64, y: f64, z: f64) -> Vec3<R> {
        Vec3::new(R::lit(x), R::lit(y), R::lit(z))
    }

    fn every_shape_round_trips<R: Real + Serialize + DeserializeOwned>() {
        let mut rng = Rng::new(7);
        for _ in 0..200 {
            let mut s = || R::lit(rng.range_f64(1e-3, 10.0));
            let (a, b, c, d) = (s(), s(), s(), s());
            json_round_trip(&Sphere::new(a).unwrap());
            json_round_trip(&Cuboid::new(Vec3::new(a, b, c)).unwrap());
            json_round_trip(&Capsule::new(a, b).unwrap());
            json_round_trip(&Cylinder::new(a, b).unwrap());
            json_round_trip(&Cone::new(a, b).unwrap());
            json_round_trip(&Ellipsoid::new(Vec3::new(a, b, c)).unwrap());
            json_round_trip(&Segment::new(Vec3::new(a, b, c), Vec3::new(d, a, b)).unwrap());
            json_round_trip(
                &Triangle::new(
                    Vec3::new(a, R::ZERO, R::ZERO),
                    Vec3::new(R::ZERO, b, R::ZERO),
                    Vec3::new(R::ZERO, R::ZERO, c),
                )
                .unwrap(),
            );
            json_round_trip(
                &TerrainPrism::new(
                    [
                        Vec3::new(a, R::ZERO, d),
                        Vec3::new(R::ZERO, b, d),
                        Vec3::new(R::ZERO, R::ZERO, d),
                    ],
                    -c,
                )
                .unwrap(),
            );
            json_round_trip(&HalfSpace::new(Vec3::new(a, -b, c), d).unwrap());
            json_round_trip(&Rounded::new(Cuboid::new(Vec3::new(a, b, c)).unwrap(), d).unwrap());
            let q = Quat::from_wxyz(a, b, c, d).normalize().unwrap();
            json_round_trip(&q);
            json_round_trip(&Iso3::from_quat(Vec3::new(d, c, b), q).unwrap());
            json_round_trip(&Aabb::new(Vec3::new(-a, -b, -c), Vec3::new(a, b, c)));
        }
        json_round_trip(&Point);
    }

    #[test]
    fn every_shape_round_trips_f32() {
        every_shape_round_trips::<f32>();
    }

    #[test]
    fn every_shape_round_trips_f64() {
        every_shape_round_trips::<f64>();
    }

    /// The formats the module docs promise, written by hand.
    #[test]
    fn formats_read_as_documented() {
        let sphere: Sphere<f64> = serde_json::from_str(r#"{"radius": 0.5}"#).unwrap();
        assert_eq!(sphere.radius(), 0.5);
        let capsule: Capsule<f32> =
            serde_json::from_str(r#"{"radius": 0.1, "half_length": 0.5}"#).unwrap();
        assert_eq!((capsule.radius(), capsule.half_length()), (0.1, 0.5));
        let cuboid: Cuboid<f64> =
            serde_json::from_str(r#"{"half_extents": [0.5, 0.4, 0.3]}"#).unwrap();
        assert_eq!(cuboid.half_extents(), v(0.5, 0.4, 0.3));
        let rounded: Rounded<Cuboid<f64>, f64> =
            serde_json::from_str(r#"{"inner": {"half_extents": [1, 2, 3]}, "margin": 0.01}"#)
                .unwrap();
        assert_eq!(rounded.inner().half_extents(), v(1.0, 2.0, 3.0));
        assert_eq!(rounded.margin(), 0.01);
        let q: Quat<f64> = serde_json::from_str("[0, 0, 1, 0]").unwrap();
        assert_eq!((q.x, q.y, q.z, q.w), (0.0, 0.0, 1.0, 0.0));
        let pose: Iso3<f64> = serde_json::from_str(
            r#"{"rotation": {"x_axis": [0, 1, 0], "y_axis": [-1, 0, 0], "z_axis": [0, 0, 1]},
                "translation": [1, 2, 3]}"#,
        )
        .unwrap();
        // 90° about z: x goes to y.
        assert_eq!(pose.transform_point(v(1.0, 0.0, 0.0)), v(1.0, 3.0, 3.0));
        assert_eq!(
            serde_json::to_string(&Vec3::new(1.5_f64, -2.0, 0.25)).unwrap(),
            "[1.5,-2.0,0.25]"
        );
        assert_eq!(
            serde_json::to_string(&Cylinder::new(0.5_f32, 1.0).unwrap()).unwrap(),
            r#"{"radius":0.5,"half_length":1.0}"#
        );
        let _: Mat3<f32> = serde_json::from_str(
            r#"{"x_axis": [1, 0, 0], "y_axis": [0, 1, 0], "z_axis": [0, 0, 1]}"#,
        )
        .unwrap();
    }

    /// What a constructor refuses, reading refuses, with its reason.
    #[test]
    fn invalid_shapes_are_refused_with_the_constructors_reason() {
        let err = |r: Result<Sphere<f64>, serde_json::Error>| r.unwrap_err().to_string();
        assert!(err(serde_json::from_str(r#"{"radius": -1}"#)).contains("sphere radius"));
        assert!(err(serde_json::from_str(r#"{"radius": 0}"#)).contains("sphere radius"));
        assert!(err(serde_json::from_str(r#"{"radius": 1, "extra": 2}"#)).contains("extra"));
        let tri: Result<Triangle<f64>, _> =
            serde_json::from_str(r#"{"vertices": [[0,0,0], [1,1,1], [2,2,2]]}"#);
        assert!(tri.is_err());
        let plane: Result<HalfSpace<f32>, _> =
            serde_json::from_str(r#"{"normal": [0, 0, 0], "offset": 1}"#);
        assert!(plane.unwrap_err().to_string().contains("zero length"));
        let rounded: Result<Rounded<Sphere<f64>, f64>, _> =
            serde_json::from_str(r#"{"inner": {"radius": 1}, "margin": -0.5}"#);
        assert!(rounded.unwrap_err().to_string().contains("margin"));
        let short: Result<Vec3<f64>, _> = serde_json::from_str("[1, 2]");
        assert!(short.is_err());
    }

    #[cfg(feature = "alloc")]
    mod hulls {
        use crate::{ConvexHull, Real, Vec3};
        use mink_testkit::json_round_trip;
        use mink_testkit::Rng;
        use serde::de::DeserializeOwned;
        use serde::Serialize;
        use std::string::ToString;
        use std::vec::Vec;

        fn random_hull<R: Real>(rng: &mut Rng, n: usize) -> ConvexHull<R> {
            let points: Vec<Vec3<R>> = (0..n)
                .map(|_| {
                    let mut c = || R::lit(rng.range_f64(-1.0, 1.0));
                    Vec3::new(c(), c(), c())
                })
                .collect();
            ConvexHull::from_points(&points).unwrap()
        }

        fn hulls_round_trip<R: Real + Serialize + DeserializeOwned>() {
            let mut rng = Rng::new(11);
            for n in [4, 8, 32, 200] {
                let hull = random_hull::<R>(&mut rng, n);
                let text = json_round_trip(&hull);
                // The view writes what the owned hull writes.
                assert_eq!(serde_json::to_string(&hull.view()).unwrap(), text);
                // The vertices alone give the same solid: the same vertex set.
                let vertices = serde_json::to_string(hull.view().vertices()).unwrap();
                let rebuilt: ConvexHull<R> =
                    serde_json::from_str(&std::format!(r#"{{"vertices": {vertices}}}"#)).unwrap();
                let mut a: Vec<_> = hull
                    .view()
                    .vertices()
                    .iter()
                    .map(|p| [p.x, p.y, p.z])
                    .collect();
                let mut b: Vec<_> = rebuilt
                    .view()
                    .vertices()
                    .iter()
                    .map(|p| [p.x, p.y, p.z])
                    .collect();
                let key = |p: &[R; 3], q: &[R; 3]| p.partial_cmp(q).unwrap();
                a.sort_by(key);
                b.sort_by(key);
                assert_eq!(a, b);
            }
        }

        #[test]
        fn hulls_round_trip_f32() {
            hulls_round_trip::<f32>();
        }

        #[test]
        fn hulls_round_trip_f64() {
            hulls_round_trip::<f64>();
        }

        /// Arrays that do not form a closed polyhedron are refused, as
        /// `HullView::new` refuses them; so is a partial topology.
        #[test]
        fn inconsistent_hulls_are_refused() {
            let hull = random_hull::<f64>(&mut Rng::new(3), 16);
            let mut value = serde_json::to_value(&hull).unwrap();
            value["face_vertices"][0] = serde_json::json!(9999);
            let err = serde_json::from_value::<ConvexHull<f64>>(value).unwrap_err();
            assert!(!err.to_string().is_empty());
            let mut partial = serde_json::to_value(&hull).unwrap();
            partial.as_object_mut().unwrap().remove("edges");
            let err = serde_json::from_value::<ConvexHull<f64>>(partial).unwrap_err();
            assert!(err.to_string().contains("every array"), "{err}");
            let flat = r#"{"vertices": [[0,0,0], [1,0,0], [0,1,0], [1,1,0]]}"#;
            let err = serde_json::from_str::<ConvexHull<f64>>(flat).unwrap_err();
            assert!(err.to_string().contains("coplanar"), "{err}");
        }
    }
}
