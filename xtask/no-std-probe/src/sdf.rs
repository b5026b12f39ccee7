//! mink-sdf's core API, called without std or alloc: a field view over
//! samples in a static array, queried for distance and gradient.

use core::hint::black_box;
use mink_sdf::{SdfGrid, SdfView};
use mink_support::Vec3;

/// A 2×2×2 field of a plane z = 0.5 (distance z - 0.5).
static SAMPLES: [f32; 8] = [-0.5, -0.5, -0.5, -0.5, 0.5, 0.5, 0.5, 0.5];

/// Queries a static field.
pub fn exercise() {
    let grid = SdfGrid {
        origin: Vec3::ZERO,
        cell: 1.0,
        dims: [2, 2, 2],
    };
    let view = SdfView::new_unchecked(grid, &SAMPLES);
    let p = black_box(Vec3::new(0.5f32, 0.5, 0.25));
    black_box(view.distance(p));
    black_box(view.distance_and_gradient(p));
}
