//! The Minkowski difference of two concrete shapes: what GJK, EPA and MPR
//! iterate on.

use crate::{Iso3, Real, Support, Vec3};

/// A support point of the Minkowski difference `A ⊖ B`, with its witnesses.
///
/// All three are in A's frame: `w = a - b`, `a` on A's core, `b` on B's core.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SupportPoint<R> {
    /// The point of `A ⊖ B`: `a - b`.
    pub w: Vec3<R>,
    /// The witness on A's core.
    pub a: Vec3<R>,
    /// The witness on B's core.
    pub b: Vec3<R>,
}

/// The Minkowski difference of the *cores* of A and B, in A's frame.
///
/// `IDENTITY` says, at compile time, whether B's pose relative to A is the
/// identity: when it is, B's support needs no rotation or translation and the
/// compiler removes them. [`Pair`] and [`IdentityPair`] name the two cases.
///
/// The pair owns both shapes' warm-start hints, so a query that calls
/// [`MinkowskiDiff::support`] repeatedly gets hill-climbing warm starts for
/// free; keep the pair (or its hints) across frames to carry them further.
#[derive(Clone, Copy, Debug)]
pub struct MinkowskiDiff<'s, R: Real, A: Support<R>, B: Support<R>, const IDENTITY: bool> {
    /// Shape A, whose frame the difference lives in.
    pub a: &'s A,
    /// Shape B.
    pub b: &'s B,
    /// Pose of B in A's frame (ignored when `IDENTITY`).
    pub pose_ab: Iso3<R>,
    /// A's warm-start hint.
    pub hint_a: A::Hint,
    /// B's warm-start hint.
    pub hint_b: B::Hint,
}

/// A pair with a general relative pose.
pub type Pair<'s, R, A, B> = MinkowskiDiff<'s, R, A, B, false>;
/// A pair whose shapes share a frame (relative pose is the identity).
pub type IdentityPair<'s, R, A, B> = MinkowskiDiff<'s, R, A, B, true>;

impl<'s, R: Real, A: Support<R>, B: Support<R>> MinkowskiDiff<'s, R, A, B, false> {
    /// The pair of A at `pose_a` and B at `pose_b` (both shape-to-world).
    /// Work happens in A's frame; map results to the world with `pose_a`.
    #[inline]
    pub fn new(a: &'s A, pose_a: &Iso3<R>, b: &'s B, pose_b: &Iso3<R>) -> Self {
        Self::with_relative_pose(a, b, pose_a.inv_mul(pose_b))
    }

    /// The pair with B's pose given directly in A's frame.
    #[inline]
    pub fn with_relative_pose(a: &'s A, b: &'s B, pose_ab: Iso3<R>) -> Self {
        Self {
            a,
            b,
            pose_ab,
            hint_a: A::Hint::default(),
            hint_b: B::Hint::default(),
        }
    }
}

impl<'s, R: Real, A: Support<R>, B: Support<R>> MinkowskiDiff<'s, R, A, B, true> {
    /// The pair of two shapes expressed in the same frame.
    #[inline]
    pub fn identity(a: &'s A, b: &'s B) -> Self {
        Self {
            a,
            b,
            pose_ab: Iso3::IDENTITY,
            hint_a: A::Hint::default(),
            hint_b: B::Hint::default(),
        }
    }
}

impl<'s, R: Real, A: Support<R>, B: Support<R>, const IDENTITY: bool>
    MinkowskiDiff<'s, R, A, B, IDENTITY>
{
    /// The support point of `A ⊖ B` along `dir` (A's frame, any length):
    /// `s_A(dir) - s_B(-dir)`, with both witnesses.
    #[inline(always)]
    pub fn support(&mut self, dir: Vec3<R>) -> SupportPoint<R> {
        let a = self.a.support(dir, &mut self.hint_a);
        let b = self.support_b(-dir);
        SupportPoint { w: a - b, a, b }
    }

    /// B's core support along `dir` (A's frame), returned in A's frame.
    #[inline(always)]
    pub fn support_b(&mut self, dir: Vec3<R>) -> Vec3<R> {
        if IDENTITY {
            self.b.support(dir, &mut self.hint_b)
        } else {
            let local = self.pose_ab.inverse_transform_vector(dir);
            let p = self.b.support(local, &mut self.hint_b);
            self.pose_ab.transform_point(p)
        }
    }

    /// A's core support along `dir` (A's frame).
    #[inline(always)]
    pub fn support_a(&mut self, dir: Vec3<R>) -> Vec3<R> {
        self.a.support(dir, &mut self.hint_a)
    }

    /// The sum of both shapes' inflation radii (meters).
    #[inline(always)]
    pub fn inflation(&self) -> R {
        self.a.inflation() + self.b.inflation()
    }

    /// A point inside `A ⊖ B` (A's frame): the difference of the shapes'
    /// interior points. MPR starts here.
    #[inline]
    pub fn interior_point(&self) -> SupportPoint<R> {
        let a = self.a.interior_point();
        let b_local = self.b.interior_point();
        let b = if IDENTITY {
            b_local
        } else {
            self.pose_ab.transform_point(b_local)
        };
        SupportPoint { w: a - b, a, b }
    }

    /// `true` when both shapes are polytopes (Nesterov's normalization
    /// heuristic applies). Known at compile time.
    pub const POLYTOPE: bool = A::POLYTOPE && B::POLYTOPE;

    /// `true` when the difference of the full shapes is strictly convex.
    pub const STRICTLY_CONVEX: bool = A::STRICTLY_CONVEX && B::STRICTLY_CONVEX;
}
