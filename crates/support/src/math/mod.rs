//! Small `Copy` math types, `repr(C)`, generic over [`Real`](crate::Real).
//!
//! They carry only the operations the collision algorithms need. With the
//! `glam` feature, the crate's `glam_interop` module converts them to and
//! from glam's types.

mod closest_segments;
mod iso3;
mod mat3;
mod quat;
mod vec3;

pub use closest_segments::{closest_segment_points, core_normal};
pub use iso3::Iso3;
pub use mat3::Mat3;
pub use quat::{Quat, QuatError};
pub use vec3::Vec3;
