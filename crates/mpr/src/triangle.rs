//! Where the origin falls on a triangle: its foot point on the triangle's
//! plane, and the triangle's closest point to it. Both robust to triangles
//! that collapse to a segment or a point (the core points of a portal on a
//! sphere are one point three times).

use mink_support::{Real, Vec3};

/// The foot of the origin on the plane of `(a, b, c)` and its barycentric
/// coordinates (which may be negative: the foot can lie outside), or `None`
/// when the triangle is too thin to have a plane (its sine of angle below
/// `√ε`).
#[inline]
pub(crate) fn foot_point<R: Real>(a: Vec3<R>, b: Vec3<R>, c: Vec3<R>) -> Option<(Vec3<R>, [R; 3])> {
    let ab = b - a;
    let ac = c - a;
    let n = ab.cross(ac);
    let nn = n.norm_squared();
    // |ab × ac|² = |ab|² |ac|² sin²θ: a plane needs sin²θ above ε.
    if nn <= R::EPSILON * ab.norm_squared() * ac.norm_squared() || !nn.finite() {
        return None;
    }
    let q = n * (n.dot(a) / nn);
    let la = (b - q).cross(c - q).dot(n) / nn;
    let lb = (c - q).cross(a - q).dot(n) / nn;
    Some((q, [la, lb, R::ONE - la - lb]))
}

/// The point of segment `[a, b]` closest to the origin and its parameter `t`
/// (`a + t (b - a)`, `t` in `[0, 1]`; `t = 0` when the ends coincide).
#[inline]
fn closest_on_segment<R: Real>(a: Vec3<R>, b: Vec3<R>) -> (Vec3<R>, R) {
    let ab = b - a;
    let len2 = ab.norm_squared();
    let t = if len2 > R::ZERO {
        (-a.dot(ab) / len2).max_of(R::ZERO).min_of(R::ONE)
    } else {
        R::ZERO
    };
    (a + ab * t, t)
}

/// The point of triangle `(a, b, c)` closest to the origin, with barycentric
/// coordinates (each in `[0, 1]`, summing to 1). Degenerate triangles are
/// handled as their longest edges or as a point.
pub(crate) fn closest_to_origin<R: Real>(a: Vec3<R>, b: Vec3<R>, c: Vec3<R>) -> (Vec3<R>, [R; 3]) {
    if let Some((q, l)) = foot_point(a, b, c) {
        if l[0] >= R::ZERO && l[1] >= R::ZERO && l[2] >= R::ZERO {
            return (q, l);
        }
    }
    // Outside the face (or no face): the best of the three edges.
    closest_on_edges(a, b, c)
}

/// The point of the edges of triangle `(a, b, c)` closest to the origin,
/// with barycentric coordinates: [`closest_to_origin`] when the origin's
/// foot point is known to lie outside the triangle (or it has no plane).
pub(crate) fn closest_on_edges<R: Real>(a: Vec3<R>, b: Vec3<R>, c: Vec3<R>) -> (Vec3<R>, [R; 3]) {
    let (p_ab, t_ab) = closest_on_segment(a, b);
    let (p_bc, t_bc) = closest_on_segment(b, c);
    let (p_ca, t_ca) = closest_on_segment(c, a);
    let d_ab = p_ab.norm_squared();
    let d_bc = p_bc.norm_squared();
    let d_ca = p_ca.norm_squared();
    if d_ab <= d_bc && d_ab <= d_ca {
        (p_ab, [R::ONE - t_ab, t_ab, R::ZERO])
    } else if d_bc <= d_ca {
        (p_bc, [R::ZERO, R::ONE - t_bc, t_bc])
    } else {
        (p_ca, [t_ca, R::ZERO, R::ONE - t_ca])
    }
}
