//! The firmware's one shape type: every shape the queries use, behind one
//! enum that implements [`Support`], so that GJK (distance and
//! intersection) and MPR (penetration and intersection) are each compiled
//! once, for `(FwShape, FwShape)`, instead of once per pair of shape types.
//!
//! The price is a `match` on the variant per support call, a few
//! instructions against the tens each support call costs; the gain is the
//! flash of every other copy of the algorithms (MPR alone is about 10 KB a
//! copy on the Cortex-M4F). This file is compiled into the firmware (`f32`)
//! and into `build.rs` (`f64`), like `scene.rs`.

use mink_support::{Capsule, Cuboid, HullView, Real, Sphere, Support, Vec3};

/// A shape of the firmware's queries. `'a` is the lifetime of the hull's
/// arrays (`'static` on the device: they are baked into flash).
#[derive(Clone, Copy, Debug)]
pub enum FwShape<'a, R: Real> {
    /// A sphere: a point core swept by its radius.
    Sphere(Sphere<R>),
    /// A capsule: a segment core along local z swept by its radius.
    Capsule(Capsule<R>),
    /// A box.
    Cuboid(Cuboid<R>),
    /// A convex hull over borrowed arrays; its support is the exhaustive
    /// scan (see [`hull_support`]).
    Hull(HullView<'a, R>),
}

impl<R: Real> Support<R> for FwShape<'_, R> {
    /// No warm start: the hull's scan needs none (see [`hull_support`]).
    type Hint = ();

    // Both facts must hold for every variant: a capsule and a box are not
    // strictly convex, a sphere and a capsule are not polytopes.
    const STRICTLY_CONVEX: bool = false;
    const POLYTOPE: bool = false;

    /// Out of line: one copy serves every call site of the algorithms
    /// (inlined, each site would carry the four shapes' supports).
    #[inline(never)]
    fn support(&self, dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        match self {
            FwShape::Sphere(s) => s.support(dir, &mut ()),
            FwShape::Capsule(c) => c.support(dir, &mut ()),
            FwShape::Cuboid(b) => b.support(dir, &mut ()),
            FwShape::Hull(h) => hull_support(h, dir),
        }
    }

    #[inline]
    fn inflation(&self) -> R {
        match self {
            FwShape::Sphere(s) => s.inflation(),
            FwShape::Capsule(c) => c.inflation(),
            FwShape::Cuboid(b) => b.inflation(),
            FwShape::Hull(h) => h.inflation(),
        }
    }

    fn interior_point(&self) -> Vec3<R> {
        match self {
            FwShape::Sphere(s) => s.interior_point(),
            FwShape::Capsule(c) => c.interior_point(),
            FwShape::Cuboid(b) => b.interior_point(),
            FwShape::Hull(h) => h.interior_point(),
        }
    }
}

/// The hull's support point along `dir` by the exhaustive scan
/// ([`HullView::support_scan`]), not the hill climb
/// ([`Support::support`] of [`HullView`] picks by vertex count). At 32
/// vertices the scan costs about as much as a climb, and it needs neither
/// a warm start nor the climb's plateau buffer (up to 128 vertex indices
/// on the stack, on the deepest call path of MPR), and leaves the climbing
/// code out of flash. The same support value: both return a vertex of
/// largest projection.
#[inline(always)]
fn hull_support<R: Real>(hull: &HullView<'_, R>, dir: Vec3<R>) -> Vec3<R> {
    hull.vertex(hull.support_scan(dir)).unwrap_or(Vec3::ZERO)
}
