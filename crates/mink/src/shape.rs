//! The shape enum, for scenes of mixed shapes, and the one list of shapes it
//! is generated from.
//!
//! [`shape_list!`] is the only place the built-in shapes are named. It
//! expands into the [`Shape`] enum, its per-shape methods (names included),
//! and the pair matrix of the pair table (`crate::pair`): adding a shape is
//! one line there. A user's own shape joins through the `U` parameter
//! ([`Shape::Custom`]) without editing this crate.

use mink_support::{
    Aabb, Capsule, Cone, Cuboid, Cylinder, Ellipsoid, HalfSpace, HullView, Iso3, Point, Real,
    Rounded, Segment, Sphere, Support, TerrainPrism, Triangle, Vec3,
};

/// Calls `$callback!` with the list of every convex shape of [`Shape`], as
/// `Variant(Type) = "name"` items (the name is the shape's in the query
/// format). Types may name `R` (the scalar), `'a` (the lifetime of
/// borrowed hull data) and `U` (the user's shape).
#[macro_export]
#[doc(hidden)]
macro_rules! shape_list {
    ($callback:ident) => {
        $callback! {
            /// A point (a probe).
            Point(Point) = "point",
            /// A sphere: a point core swept by its radius.
            Sphere(Sphere<R>) = "sphere",
            /// A box.
            Cuboid(Cuboid<R>) = "box",
            /// A capsule: a segment core along local z swept by its radius.
            Capsule(Capsule<R>) = "capsule",
            /// A line segment.
            Segment(Segment<R>) = "segment",
            /// A box with rounded edges: a box core swept by a margin.
            RoundedCuboid(Rounded<Cuboid<R>, R>) = "rounded box",
            /// An ellipsoid.
            Ellipsoid(Ellipsoid<R>) = "ellipsoid",
            /// A cylinder along local z.
            Cylinder(Cylinder<R>) = "cylinder",
            /// A cone along local z, apex at `+half_length`.
            Cone(Cone<R>) = "cone",
            /// A triangle (flat, no volume).
            Triangle(Triangle<R>) = "triangle",
            /// A terrain cell: a triangle extruded down to a base height.
            TerrainPrism(TerrainPrism<R>) = "terrain prism",
            /// A convex hull, borrowing its arrays (lifetime `'a`).
            Hull(HullView<'a, R>) = "convex",
        }
    };
}

/// A query on one shape of known type, run by [`Shape::visit`] (pairs of
/// shapes go through the pair table instead, `crate::pair`).
pub(crate) trait ShapeVisitor<R: Real> {
    /// What the query returns.
    type Output;
    /// Runs the query on a convex shape.
    fn convex<S: Support<R>>(self, shape: &S) -> Self::Output;
    /// Runs the query on a half-space.
    fn half_space(self, plane: &HalfSpace<R>) -> Self::Output;
}

/// The shape type used when the user has none of their own: it has no
/// values, so `Shape::Custom` cannot be built and costs nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum NoCustomShape {}

impl<R: Real> Support<R> for NoCustomShape {
    type Hint = ();

    fn support(&self, _dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        match *self {}
    }
}

macro_rules! define_shape_enum {
    ($( $(#[$doc:meta])* $variant:ident($ty:ty) = $name:literal, )*) => {
        /// Any shape mink knows, for scenes of mixed shapes.
        ///
        /// Every variant but [`Shape::HalfSpace`] is convex and bounded and
        /// implements [`Support`]. `'a` is the lifetime of borrowed hull
        /// data ([`Shape::Hull`]), `U` the user's own shape type
        /// ([`NoCustomShape`] when there is none).
        ///
        /// With the `serde` feature a shape writes as an externally tagged
        /// enum with snake-case variant names (`{"sphere": {"radius":
        /// 0.5}}`); it reads back as an
        /// [`OwnedShape`](crate::owned::OwnedShape) (with `alloc`), since a
        /// hull borrows its arrays.
        #[derive(Clone, Copy, Debug)]
        #[cfg_attr(
            feature = "serde",
            derive(serde::Serialize),
            serde(rename_all = "snake_case")
        )]
        pub enum Shape<'a, R: Real, U = NoCustomShape> {
            $( $(#[$doc])* $variant($ty), )*
            /// The user's own shape type.
            Custom(U),
            /// A half-space (`normal · x <= offset` in the shape's frame):
            /// unbounded, so not [`Support`]; every pair with it is
            /// answered analytically from the other shape's support.
            HalfSpace(HalfSpace<R>),
        }

        impl<'a, R: Real, U: Support<R>> Shape<'a, R, U> {
            /// The tight world AABB of the whole shape (core and inflation)
            /// at `pose` (shape frame to world), meters. A half-space is
            /// unbounded: its box spans `-R::MAX..R::MAX` on every axis.
            pub fn world_aabb(&self, pose: &Iso3<R>) -> Aabb<R> {
                match self {
                    $( Shape::$variant(s) => s.world_aabb(pose), )*
                    Shape::Custom(s) => s.world_aabb(pose),
                    Shape::HalfSpace(_) => {
                        Aabb::new(Vec3::splat(-R::MAX), Vec3::splat(R::MAX))
                    }
                }
            }

            /// The inflation radius of the shape (meters): the radius of a
            /// sphere or capsule, a rounded shape's margin, 0 otherwise.
            pub fn inflation(&self) -> R {
                match self {
                    $( Shape::$variant(s) => s.inflation(), )*
                    Shape::Custom(s) => s.inflation(),
                    Shape::HalfSpace(_) => R::ZERO,
                }
            }

            /// Runs `visitor` on the shape's concrete type (one `match`):
            /// [`ShapeVisitor::convex`] for a convex shape,
            /// [`ShapeVisitor::half_space`] for a half-space.
            pub(crate) fn visit<V: ShapeVisitor<R>>(&self, visitor: V) -> V::Output {
                match self {
                    $( Shape::$variant(s) => visitor.convex(s), )*
                    Shape::Custom(s) => visitor.convex(s),
                    Shape::HalfSpace(h) => visitor.half_space(h),
                }
            }

            /// The shape's name as in the query format (`"sphere"`, ...).
            pub fn name(&self) -> &'static str {
                match self {
                    $( Shape::$variant(_) => $name, )*
                    Shape::Custom(_) => "custom",
                    Shape::HalfSpace(_) => "plane",
                }
            }
        }

        /// Resolves the pair `(a, b)` to its two concrete types, once, and
        /// calls `visitor` with them: every pair of the shape list is a
        /// separate monomorphized call, with no `dyn` and no function
        /// pointer. The cost is one two-level `match` per query, the same
        /// one every query of mink resolves its pairs with. Pairs with
        /// a half-space go to [`PairVisitor::half_space`](crate::PairVisitor::half_space)
        /// (and [`PairVisitor::half_spaces`](crate::PairVisitor::half_spaces)
        /// for two of them).
        pub fn dispatch_pair<'a, R, U, V>(
            a: &Shape<'a, R, U>,
            b: &Shape<'a, R, U>,
            visitor: V,
        ) -> V::Output
        where
            R: Real,
            U: Support<R>,
            V: crate::PairVisitor<R>,
        {
            crate::pair::table::run_pair(a, b, crate::pair::table::VisitQuery(visitor))
        }

        $(
            impl<'a, R: Real, U> From<$ty> for Shape<'a, R, U> {
                fn from(s: $ty) -> Self {
                    Shape::$variant(s)
                }
            }
        )*

        impl<'a, R: Real, U> From<HalfSpace<R>> for Shape<'a, R, U> {
            fn from(s: HalfSpace<R>) -> Self {
                Shape::HalfSpace(s)
            }
        }
    };
}

shape_list!(define_shape_enum);
