//! Every shape, one per file, each with its support function first.

pub mod capsule;
pub mod cuboid;
pub mod point;
pub mod rounded;
pub mod segment;
pub mod sphere;
