//! [`OwnedShape`]: a [`Shape`] that owns its hull, generated from the one
//! shape list.

use crate::shape::{NoCustomShape, Shape};
use mink_support::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Ellipsoid, HalfSpace, Point, Real, Rounded,
    Segment, ShapeError, Sphere, TerrainPrism, Triangle,
};

/// Rewrites the shape list with owned types (a hull owns its arrays; every
/// other shape is already owned), then defines [`OwnedShape`] from it.
macro_rules! define_owned_shape {
    (@owned [$($done:tt)*]) => {
        define_owned_shape_enum! { $($done)* }
    };
    (@owned [$($done:tt)*] $(#[$doc:meta])* Hull($ty:ty) = $name:literal, $($rest:tt)*) => {
        define_owned_shape! { @owned [$($done)*
            /// A convex hull owning its arrays.
            Hull(ConvexHull<R>) = $name,
        ] $($rest)* }
    };
    (@owned [$($done:tt)*] $(#[$doc:meta])* $variant:ident($ty:ty) = $name:literal, $($rest:tt)*) => {
        define_owned_shape! { @owned [$($done)* $(#[$doc])* $variant($ty) = $name,] $($rest)* }
    };
    ($($list:tt)*) => {
        define_owned_shape! { @owned [] $($list)* }
    };
}

macro_rules! define_owned_shape_enum {
    ($( $(#[$doc:meta])* $variant:ident($ty:ty) = $name:literal, )*) => {
        /// A [`Shape`] that owns its data: the same variants, with the hull
        /// a [`ConvexHull`] instead of a borrowed
        /// [`HullView`](mink_support::HullView). Query it through
        /// [`OwnedShape::as_shape`].
        ///
        /// With the `serde` feature it reads and writes as an externally
        /// tagged enum with snake-case variant names, each shape in its
        /// `mink_support::serde_impls` format: `{"sphere": {"radius": 0.5}}`,
        /// `{"hull": {"vertices": [..], ..}}`, `{"half_space": {"normal":
        /// [0, 0, 1], "offset": 0}}`. A [`Shape`] writes the same text, so a
        /// written `Shape` reads back as an `OwnedShape`. Reading checks every
        /// shape with its constructor (a negative radius or a hull that is
        /// not a closed polyhedron is an error, not a shape).
        #[derive(Clone, Debug, PartialEq)]
        #[cfg_attr(
            feature = "serde",
            derive(serde::Serialize, serde::Deserialize),
            serde(rename_all = "snake_case")
        )]
        pub enum OwnedShape<R: Real, U = NoCustomShape> {
            $( $(#[$doc])* $variant($ty), )*
            /// The user's own shape type.
            Custom(U),
            /// A half-space (`normal · x <= offset` in the shape's frame).
            HalfSpace(HalfSpace<R>),
        }

        impl<R: Real, U: Clone> OwnedShape<R, U> {
            /// The shape, borrowing the hull's arrays: what every query takes.
            pub fn as_shape(&self) -> Shape<'_, R, U> {
                match self {
                    $( OwnedShape::$variant(s) => Shape::$variant(owned_as_shape!($variant, s)), )*
                    OwnedShape::Custom(s) => Shape::Custom(s.clone()),
                    OwnedShape::HalfSpace(h) => Shape::HalfSpace(*h),
                }
            }

            /// An owned copy of `shape`. A hull's arrays are copied after
            /// the checks of [`HullView::new`](mink_support::HullView::new),
            /// whose error is returned for a view built unchecked over
            /// inconsistent arrays; every other shape is copied as it is.
            pub fn from_shape(shape: &Shape<'_, R, U>) -> Result<Self, ShapeError> {
                Ok(match shape {
                    $( Shape::$variant(s) => OwnedShape::$variant(shape_as_owned!($variant, s)), )*
                    Shape::Custom(s) => OwnedShape::Custom(s.clone()),
                    Shape::HalfSpace(h) => OwnedShape::HalfSpace(*h),
                })
            }
        }

        $(
            impl<R: Real, U> From<$ty> for OwnedShape<R, U> {
                fn from(s: $ty) -> Self {
                    OwnedShape::$variant(s)
                }
            }
        )*

        impl<R: Real, U> From<HalfSpace<R>> for OwnedShape<R, U> {
            fn from(s: HalfSpace<R>) -> Self {
                OwnedShape::HalfSpace(s)
            }
        }
    };
}

/// An owned variant's value as the borrowed [`Shape`]'s.
macro_rules! owned_as_shape {
    (Hull, $s:ident) => {
        $s.view()
    };
    ($variant:ident, $s:ident) => {
        *$s
    };
}

/// A borrowed [`Shape`] variant's value, owned.
macro_rules! shape_as_owned {
    (Hull, $s:ident) => {
        ConvexHull::from_arrays($s.arrays())?
    };
    ($variant:ident, $s:ident) => {
        *$s
    };
}

crate::shape_list!(define_owned_shape);
