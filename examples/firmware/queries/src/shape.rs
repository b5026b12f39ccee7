//! The firmware's one shape type: every shape the queries use, behind one
//! enum that implements [`Support`], so that GJK (distance and
//! intersection) and MPR (penetration and intersection) are each compiled
//! once, for `(FwShape, FwShape)`, instead of once per pair of shape types.
//!
//! The price is a `match` on the variant per support call, a few
//! instructions against the tens each support call costs; the gain is the
//! flash of every other copy of the algorithms (MPR alone is about 10 KB a
//! copy on the Cortex-M4F). Used by the firmware (`f32`) and by its
//! `build.rs` (`f64`).

use mink_support::{Capsule, Cuboid, HullArrays, HullView, Real, Sphere, Support, Vec3};

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
    /// scan (see [`hull_support`]), so its view needs only the vertices
    /// (see [`vertex_hull`]).
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

/// The hull's support point along `dir`: the first vertex of largest
/// projection, by scanning every vertex, as [`HullView::support_scan`]
/// does, not the hill climb ([`Support::support`] of [`HullView`] picks by
/// vertex count). At 32 vertices the scan costs about as much as a climb,
/// and it needs neither a warm start nor the climb's plateau buffer (up to
/// 128 vertex indices on the stack, on the deepest call path of MPR), nor
/// the hull's neighbour lists (see [`vertex_hull`]).
///
/// A plain loop rather than [`HullView::support_scan`]: the library keeps
/// four interleaved running maxima, which overlap on a superscalar host
/// but on the in-order Cortex-M4 only add instructions, and which a
/// size-optimized build does not unroll (it keeps them in memory). The
/// same vertex for every direction whose projections neither overflow nor
/// underflow (the library's scan rescales directions beyond `2^±60`), and
/// vertex 0 for a zero or NaN direction, as the library's. Measured on the
/// firmware: the hull queries take 9% to 18% fewer instructions, and the
/// flash is 300 bytes smaller.
#[inline(always)]
fn hull_support<R: Real>(hull: &HullView<'_, R>, dir: Vec3<R>) -> Vec3<R> {
    let vertices = hull.vertices();
    let mut best = vertices.first().copied().unwrap_or(Vec3::ZERO);
    let mut best_value = dir.dot(best);
    for &v in vertices.iter().skip(1) {
        let value = dir.dot(v);
        if value > best_value {
            best = v;
            best_value = value;
        }
    }
    best
}

/// The view of the convex hull of `vertices` (every one extreme, hull
/// frame, meters) that the firmware's queries use: the vertices alone,
/// with no faces, edges or neighbour lists. What the queries read of a
/// hull is its support ([`hull_support`], the scan over the vertices), its
/// interior point (the vertex centroid), its inflation (zero) and, for the
/// field, its vertices: none of them reads the topology, so the device
/// does not carry it (its planes, face loops, edges and neighbour lists
/// would take 2.6 KB of flash for the 32-vertex hull). The view is built
/// unchecked: [`HullView::new`] would refuse a hull without faces, and
/// code that walks faces or climbs neighbours (the hull's own
/// [`Support::support`] above [`HULL_SCAN_MAX_VERTICES`]) must not be
/// given it. The host's `f64` run (`build.rs`) uses the same view.
///
/// [`HULL_SCAN_MAX_VERTICES`]: mink_support::shapes::hull::HULL_SCAN_MAX_VERTICES
pub fn vertex_hull<R: Real>(vertices: &[Vec3<R>]) -> HullView<'_, R> {
    HullView::new_unchecked(HullArrays {
        vertices,
        planes: &[],
        face_starts: &[],
        face_vertices: &[],
        edges: &[],
        neighbor_starts: &[],
        neighbors: &[],
        tolerance: R::ZERO,
        lanes: &[],
    })
}
