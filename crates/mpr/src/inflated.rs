//! The support of the *inflated* Minkowski difference, as MPR sees it.
//!
//! mink's shapes are cores swept by a sphere. The full difference of A and B
//! is the core difference swept by a ball of radius `r = r_A + r_B`, whose
//! support along a unit `u` is the core support plus `r u`. MPR runs on that
//! full difference, which always has volume when `r > 0` (two spheres are a
//! point core, two capsules a flat parallelogram), so the cores may overlap
//! or not: the inflated shapes are what overlap.

use mink_support::{MinkowskiDiff, Real, Support, SupportPoint, Vec3};

/// One support point of the inflated difference.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vertex<R> {
    /// The inflated point `core.w + r u`, minus the current target point of
    /// the ray (A's frame).
    pub w: Vec3<R>,
    /// The core support point with its witnesses (A's frame, unshifted).
    pub core: SupportPoint<R>,
    /// The unit direction of the query (zero when `r == 0`).
    pub u: Vec3<R>,
}

/// The inflated difference with the target point of the ray subtracted
/// (MPR's tests are written about "the origin"; shifting lets one pass cast a
/// ray towards any point).
pub(crate) struct Inflated<'p, 's, R: Real, A: Support<R>, B: Support<R>, const I: bool> {
    pub pair: &'p mut MinkowskiDiff<'s, R, A, B, I>,
    /// A's inflation radius (meters).
    pub r_a: R,
    /// B's inflation radius (meters).
    pub r_b: R,
    /// The point subtracted from every support (A's frame).
    pub target: Vec3<R>,
    /// Whether [`Inflated::support`] adds the radii (MPR on the full
    /// shapes) or not (MPR on the cores, when they overlap).
    pub inflate: bool,
    /// Number of support queries made (for reporting).
    pub queries: u32,
}

impl<'p, 's, R: Real, A: Support<R>, B: Support<R>, const I: bool> Inflated<'p, 's, R, A, B, I> {
    /// Wraps a pair; the target starts at the origin.
    #[inline]
    pub fn new(pair: &'p mut MinkowskiDiff<'s, R, A, B, I>) -> Self {
        let r_a = pair.a.inflation();
        let r_b = pair.b.inflation();
        Self {
            pair,
            r_a,
            r_b,
            target: Vec3::ZERO,
            inflate: true,
            queries: 0,
        }
    }

    /// The radius [`Inflated::support`] adds: `r_A + r_B` (meters), or zero
    /// when not inflating.
    #[inline(always)]
    pub fn radius(&self) -> R {
        if self.inflate {
            self.r_a + self.r_b
        } else {
            R::ZERO
        }
    }

    /// The support point of the inflated difference along `dir` (any length).
    ///
    /// Inlined at every call site on a host: left to the compiler, it stayed
    /// out of line, and the call with its 60-byte answer through memory was
    /// about a tenth of a box–box or cylinder–cylinder query. On bare metal
    /// (`target_os = "none"`) plain `#[inline]`: a size-optimized build
    /// (`opt-level = "s"`, firmware) keeps one copy per pair, which makes the
    /// portal loop the same code for every pair apart from this call.
    #[cfg_attr(target_os = "none", inline)]
    #[cfg_attr(not(target_os = "none"), inline(always))]
    pub fn support(&mut self, dir: Vec3<R>) -> Vertex<R> {
        self.queries += 1;
        let core = self.pair.support(dir);
        let r = self.radius();
        if r > R::ZERO {
            let u = dir.normalize_or(Vec3::X);
            Vertex {
                w: core.w + u * r - self.target,
                core,
                u,
            }
        } else {
            Vertex {
                w: core.w - self.target,
                core,
                u: Vec3::ZERO,
            }
        }
    }

    /// The witnesses on the full shapes A and B of a vertex (A's frame).
    #[inline(always)]
    pub fn witnesses(&self, v: &Vertex<R>) -> (Vec3<R>, Vec3<R>) {
        (v.core.a + v.u * self.r_a, v.core.b - v.u * self.r_b)
    }

    /// The witnesses on A and B (A's frame) of the point with barycentric
    /// coordinates `l` on the triangle of vertices `v`: each shape's
    /// witnesses of the three vertices, weighted by `l`.
    ///
    /// Out of line: a pass's answer and a certified face's answer share
    /// it, and it runs once per answer, not per iteration.
    #[inline(never)]
    pub fn mixed_witnesses(&self, v: [&Vertex<R>; 3], l: [R; 3]) -> (Vec3<R>, Vec3<R>) {
        let (a1, b1) = self.witnesses(v[0]);
        let (a2, b2) = self.witnesses(v[1]);
        let (a3, b3) = self.witnesses(v[2]);
        (
            a1 * l[0] + a2 * l[1] + a3 * l[2],
            b1 * l[0] + b2 * l[1] + b3 * l[2],
        )
    }
}
