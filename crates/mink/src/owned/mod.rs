//! Owned counterparts of the borrowed shape and scene types (feature
//! `alloc`): a [`Shape`](crate::Shape) whose hull owns its arrays, and a
//! scene description that owns its geometries, links and constraints. They
//! are what a file holds: with the `serde` feature both serialize, and a
//! serialized [`Shape`](crate::Shape) reads back as an [`OwnedShape`].

mod scene;
mod shape;

pub use scene::{OwnedGeomDesc, OwnedSceneDesc, OwnedSceneError};
pub use shape::OwnedShape;
