//! Exact closest points on triangles and segments, with the feature hit.

use mink_support::{Real, Vec3};

/// The feature of a triangle `[a, b, c]` that holds a closest point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriFeature {
    /// The interior of the face.
    Face,
    /// Edge `k`: from corner `k` to corner `(k + 1) % 3`.
    Edge(u8),
    /// Corner `k`.
    Vertex(u8),
}

/// The point of triangle `t` nearest to `p` and the feature it lies on.
///
/// Region test on the barycentric signs (vertex regions first, then edge
/// regions, else the face): with `ab = b - a`, `ac = c - a`, `ap = p - a`,
/// `d1 = ab·ap`, `d2 = ac·ap` and likewise from `b` and `c`, `p` projects
/// onto corner `a` when `d1 <= 0` and `d2 <= 0`; onto edge `ab` when the
/// signed area `vc = d1 d4 - d3 d2 <= 0` with `d1 >= 0 >= d3`; and so on.
/// A degenerate triangle still gives a point of its hull and a feature;
/// never panics.
pub fn closest_on_triangle<R: Real>(p: Vec3<R>, t: &[Vec3<R>; 3]) -> (Vec3<R>, TriFeature) {
    let [a, b, c] = *t;
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= R::ZERO && d2 <= R::ZERO {
        return (a, TriFeature::Vertex(0));
    }
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= R::ZERO && d4 <= d3 {
        return (b, TriFeature::Vertex(1));
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= R::ZERO && d1 >= R::ZERO && d3 <= R::ZERO {
        let den = d1 - d3;
        let s = if den > R::ZERO { d1 / den } else { R::ZERO };
        return (a + ab * s, TriFeature::Edge(0));
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= R::ZERO && d5 <= d6 {
        return (c, TriFeature::Vertex(2));
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= R::ZERO && d2 >= R::ZERO && d6 <= R::ZERO {
        let den = d2 - d6;
        let s = if den > R::ZERO { d2 / den } else { R::ZERO };
        return (a + ac * s, TriFeature::Edge(2));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= R::ZERO && (d4 - d3) >= R::ZERO && (d5 - d6) >= R::ZERO {
        let den = (d4 - d3) + (d5 - d6);
        let s = if den > R::ZERO {
            (d4 - d3) / den
        } else {
            R::ZERO
        };
        return (b + (c - b) * s, TriFeature::Edge(1));
    }
    let sum = va + vb + vc;
    if !sum.finite() || sum <= R::ZERO {
        // Degenerate: fall back to the nearest corner.
        let (da, db, dc) = (ap.norm_squared(), bp.norm_squared(), cp.norm_squared());
        return if da <= db && da <= dc {
            (a, TriFeature::Vertex(0))
        } else if db <= dc {
            (b, TriFeature::Vertex(1))
        } else {
            (c, TriFeature::Vertex(2))
        };
    }
    let v = vb / sum;
    let w = vc / sum;
    (a + ab * v + ac * w, TriFeature::Face)
}

/// The parameter `t` in `[0, 1]` of the point of segment `a + t (b - a)`
/// nearest to `p` (0 for a zero-length segment).
#[inline]
pub fn closest_on_segment<R: Real>(p: Vec3<R>, a: Vec3<R>, b: Vec3<R>) -> R {
    let ab = b - a;
    let len2 = ab.norm_squared();
    if len2.is_nan() || len2 <= R::ZERO {
        return R::ZERO;
    }
    (ab.dot(p - a) / len2).max_of(R::ZERO).min_of(R::ONE)
}
