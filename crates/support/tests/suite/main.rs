//! support's integration tests, in one test binary: each module was a
//! test file of its own. Together they compile the shape pairs they share
//! once instead of once per file, and link one binary instead of one each.

mod aabb_shapes;
mod capsule_distance;
mod height_field;
mod hull_build;
mod hull_common;
mod hull_support;
mod hull_view;
mod pair_minkowski;
mod support_common;
mod support_constructors;
mod support_halfspace;
mod support_points;
mod support_sets;
