//! Every shape, one per file, each with its support function first.

pub mod capsule;
pub mod cone;
pub mod cuboid;
pub mod cylinder;
pub mod ellipsoid;
pub mod halfspace;
pub mod height_field;
pub mod hull;
pub mod point;
pub mod prism;
pub mod rounded;
pub mod segment;
pub mod sphere;
pub mod triangle;
