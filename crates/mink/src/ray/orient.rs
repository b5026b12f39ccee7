//! Which side of an edge a ray passes, in the plane across the ray,
//! decided exactly (and, for a ray through the edge, by a symbolic nudge):
//! the signs a mesh ray cast reads its crossings from, so that every
//! triangle around an edge or a vertex agrees with its neighbours whatever
//! the round-off.

use mink_support::Real;

/// A point of the plane across a ray: its coordinates along two axes
/// perpendicular to the ray.
pub(crate) type Across<R> = (R, R);

/// Which side of the line through the origin and `p`, towards `q`, the
/// origin is seen from: the sign of the signed area of the origin, `p`
/// and `q` (`+1` counter-clockwise, `-1` clockwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EdgeSide {
    /// The area's sign, exactly for the given coordinates (`0` when the
    /// origin is on the line through `p` and `q`).
    pub exact: i8,
    /// The same with the origin moved by `(ε, ε²)` for an infinitesimal
    /// `ε`, so never `0` unless `p == q`, and always the opposite of the
    /// edge's other direction: the side of a line nudged off every edge
    /// and vertex it passes through.
    pub nudged: i8,
}

/// The side of the edge from `p` to `q` the origin is on (see
/// [`EdgeSide`]).
///
/// f32 coordinates are multiplied in f64, where the products are exact;
/// f64 ones pass a floating-point filter first and are decided by an
/// error-free product otherwise. Non-finite coordinates give an
/// unspecified side, never a panic.
pub(crate) fn edge_side<R: Real>(p: Across<R>, q: Across<R>) -> EdgeSide {
    let exact = exact_sign(p.0, q.1, p.1, q.0);
    // The origin at (ε, ε²): the area gains -ε·(q.y - p.y) + ε²·(q.x - p.x).
    let nudged = if exact != 0 {
        exact
    } else if p.1 != q.1 {
        if p.1 > q.1 {
            1
        } else {
            -1
        }
    } else if p.0 != q.0 {
        if q.0 > p.0 {
            1
        } else {
            -1
        }
    } else {
        0
    };
    EdgeSide { exact, nudged }
}

/// The sign of `a·b - c·d`, exact for finite operands away from underflow.
fn exact_sign<R: Real>(a: R, b: R, c: R, d: R) -> i8 {
    if R::MANTISSA_BITS <= 26 {
        // Two 24-bit products are exact in f64; their difference is
        // rounded once, which keeps its sign.
        return sign(a.to_f64() * b.to_f64() - c.to_f64() * d.to_f64());
    }
    let (ab, cd) = (a * b, c * d);
    let rough = ab - cd;
    // Each product and the difference are within half an ulp: past this
    // bound the rounded sign is the true one.
    let bound = R::lit(4.0) * R::EPSILON * (ab.abs() + cd.abs());
    if rough.abs() > bound {
        return sign(rough.to_f64());
    }
    // Kahan's difference of products: `cd`'s rounding error recovered by a
    // fused multiply-add, the rest within two ulps of the exact result
    // (so its sign is the exact one, zero included).
    let err = (-c).mul_add(d, cd);
    let rest = a.mul_add(b, -cd);
    sign((rest + err).to_f64())
}

fn sign(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn antisymmetric_and_exact_near_zero() {
        // Collinear with the origin: decided by the perturbation, and the
        // two orders disagree.
        for (p, q) in [
            ((1.0, 2.0), (2.0, 4.0)),
            ((0.0, 0.0), (3.0, 0.0)),
            ((-1.0, 0.0), (1.0, 0.0)),
        ] {
            let s = edge_side::<f64>(p, q);
            assert_eq!(s.exact, 0);
            assert_ne!(s.nudged, 0);
            assert_eq!(s.nudged, -edge_side::<f64>(q, p).nudged);
        }
        assert_eq!(edge_side::<f64>((1.0, 1.0), (1.0, 1.0)).nudged, 0);
        // An area of 2^-104 next to products of 1: the rounded difference
        // is zero, the exact one is not.
        let e = f64::EPSILON;
        let (a, b) = (1.0 + e, 1.0 - e);
        // a·b = 1 - e², c·d = 1: negative.
        assert_eq!(edge_side::<f64>((a, 0.0), (0.0, b)).exact, 1);
        assert_eq!(exact_sign::<f64>(a, b, 1.0, 1.0), -1);
        let (a, b) = (1.0 + f32::EPSILON, 1.0 - f32::EPSILON);
        assert_eq!(exact_sign::<f32>(a, b, 1.0, 1.0), -1);
    }
}
