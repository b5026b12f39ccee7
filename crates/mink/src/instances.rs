//! The umbrella's entry points instantiated for `f32` and `f64` in this
//! crate, in builds with debug assertions (the dev and test profiles).
//!
//! Each entry point on [`Shape`](crate::Shape) instantiates the whole pair
//! matrix (every pair's GJK, EPA and MPR). Unoptimized and `opt-level = 1`
//! builds let a crate reuse the generic instances its dependencies already
//! compiled, but only those: without this module every test binary,
//! example and tool that calls `mink::distance::<f32>` compiled its own
//! copy of the matrix. Listing the instances here compiles them once, in
//! this crate, and every dependent links them. Release builds (where
//! instances are not shared across crates and each user's own crate
//! instantiates only what it calls) do not compile this module, nor do
//! mink's own unit tests (nothing links against them) or bare-metal builds
//! (`target_os = "none"`: no test binary there would share the instances,
//! and the no-std check would pay for compiling them on each target), nor
//! fuzz builds (`cfg(fuzzing)`: optimized with debug assertions, where
//! instances are not shared, so the harnesses would compile them again).

use crate::contact::{contact_manifold, contact_manifold_cached, contact_manifold_with};
use crate::query::{distance, intersect, penetration};
use crate::scene::Scene;
use crate::shape::NoCustomShape;
use mink_support::Real;

/// Takes each entry point's address for scalar `R` (which makes the
/// compiler emit its instance) and hands it to `black_box`, so that no
/// optimization drops it.
fn entry_points<R: Real>() {
    use core::hint::black_box;
    black_box(distance::<R, NoCustomShape> as *const ());
    black_box(penetration::<R, NoCustomShape> as *const ());
    black_box(intersect::<R, NoCustomShape> as *const ());
    black_box(contact_manifold::<R, NoCustomShape> as *const ());
    black_box(contact_manifold_with::<R, NoCustomShape> as *const ());
    black_box(contact_manifold_cached::<R, NoCustomShape> as *const ());
    black_box(Scene::<R, NoCustomShape>::step as *const ());
    #[cfg(feature = "alloc")]
    {
        black_box(crate::scene::SceneBuf::<R, NoCustomShape>::new as *const ());
        black_box(crate::scene::SceneBuf::<R, NoCustomShape>::step as *const ());
    }
}

/// Every entry point, for `f32` and `f64` (never called: its body is what
/// makes the instances).
#[doc(hidden)]
pub fn all() {
    entry_points::<f32>();
    entry_points::<f64>();
}
