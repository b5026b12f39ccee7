//! Refreshing the geometries' world AABBs from their shapes and poses.

use crate::Geom;
use mink_support::{Iso3, Real, Support};

/// Sets each `geoms[i].aabb` to `shapes[i].world_aabb(&poses[i])` (world
/// frame, meters). Stops at the shortest of the three slices and returns how
/// many were updated. A non-finite pose gives a non-finite AABB, which the
/// next broad-phase frame refuses.
pub fn update_world_aabbs<R: Real, S: Support<R>>(
    shapes: &[S],
    poses: &[Iso3<R>],
    geoms: &mut [Geom<R>],
) -> usize {
    let mut count = 0;
    for ((shape, pose), geom) in shapes.iter().zip(poses).zip(geoms.iter_mut()) {
        geom.aabb = shape.world_aabb(pose);
        count += 1;
    }
    count
}

/// [`update_world_aabbs`] in parallel (the `rayon` feature); the same result.
#[cfg(feature = "rayon")]
pub fn par_update_world_aabbs<R: Real, S: Support<R> + Sync>(
    shapes: &[S],
    poses: &[Iso3<R>],
    geoms: &mut [Geom<R>],
) -> usize {
    use rayon::prelude::*;
    let n = shapes.len().min(poses.len()).min(geoms.len());
    geoms[..n]
        .par_iter_mut()
        .zip(shapes[..n].par_iter().zip(poses[..n].par_iter()))
        .for_each(|(geom, (shape, pose))| geom.aabb = shape.world_aabb(pose));
    n
}
