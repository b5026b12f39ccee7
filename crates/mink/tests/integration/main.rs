//! mink's integration tests, in one test binary. Each module was a test
//! file of its own; together they compile the generic pipeline (contact
//! manifolds over the whole pair matrix, in f32 and f64) once instead of
//! once per file.

mod collider_height_field;
mod collider_mesh;
mod collider_points;
mod collider_rays;
mod contact_manifold;
mod contact_random;
mod custom_shape;
#[cfg(feature = "serde")]
mod owned_serde;
mod query_agreement;
mod query_half_space;
mod ray_cast;
mod scene_common;
mod scene_errors;
mod scene_hibernation;
#[cfg(feature = "rayon")]
mod scene_parallel;
mod scene_points;
mod scene_queries;
mod scene_rays;
mod scene_reference;
mod scene_sweep;
mod scene_warm_start;
mod shape_cast;
