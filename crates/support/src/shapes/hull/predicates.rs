//! The one exact geometric predicate the hull builder needs: on which side
//! of a triangle's plane a point lies.
//!
//! A floating-point filter answers almost every call; only when the rounded
//! determinant is too small to trust is it recomputed exactly, as a sum of
//! exact products held in a floating-point expansion (Shewchuk's technique).
//! Exact signs keep the builder's topology consistent however coplanar the
//! input is: the faces visible from a new point always form a disk.

/// Relative error bound of the filtered determinant (Shewchuk's
/// `o3derrboundA` for `f64`: `(7 + 56 ε) ε` with `ε = 2⁻⁵³`).
const ORIENT_FILTER_BOUND: f64 = (7.0 + 56.0 * HALF_ULP) * HALF_ULP;
/// Half the gap between 1 and the next `f64`: `2⁻⁵³`.
const HALF_ULP: f64 = f64::EPSILON * 0.5;
/// Dekker's splitter for `f64`: `2²⁷ + 1`.
const SPLITTER: f64 = 134_217_729.0;
/// Capacity of the exact sum: 24 triple products of 4 components each, plus
/// one for the growing expansion.
const EXPANSION_CAPACITY: usize = 97;

/// The sign of `p`'s height above the plane of the triangle `a b c`, whose
/// normal `(b - a) × (c - a)` points up: `1` above, `-1` below, `0` exactly on
/// it (exact for finite input whose products neither overflow nor underflow).
pub(crate) fn orient(a: [f64; 3], b: [f64; 3], c: [f64; 3], p: [f64; 3]) -> i32 {
    // Rows a - p, b - p, c - p; the determinant is negative when p is above.
    let (ax, ay, az) = (a[0] - p[0], a[1] - p[1], a[2] - p[2]);
    let (bx, by, bz) = (b[0] - p[0], b[1] - p[1], b[2] - p[2]);
    let (cx, cy, cz) = (c[0] - p[0], c[1] - p[1], c[2] - p[2]);
    let (bxcy, cxby) = (bx * cy, cx * by);
    let (cxay, axcy) = (cx * ay, ax * cy);
    let (axby, bxay) = (ax * by, bx * ay);
    let det = az * (bxcy - cxby) + bz * (cxay - axcy) + cz * (axby - bxay);
    let permanent = (bxcy.abs() + cxby.abs()) * az.abs()
        + (cxay.abs() + axcy.abs()) * bz.abs()
        + (axby.abs() + bxay.abs()) * cz.abs();
    let bound = ORIENT_FILTER_BOUND * permanent;
    if det > bound {
        return -1;
    }
    if -det > bound {
        return 1;
    }
    -exact_det4_sign([a, b, c, p])
}

/// `(x, e)` with `x = fl(a + b)` and `x + e = a + b` exactly.
#[inline(always)]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let x = a + b;
    let bv = x - a;
    let av = x - bv;
    (x, (a - av) + (b - bv))
}

/// Dekker's split of `a` into two halves of 26 bits.
#[inline(always)]
fn split(a: f64) -> (f64, f64) {
    let c = SPLITTER * a;
    let big = c - a;
    let hi = c - big;
    (hi, a - hi)
}

/// `(x, e)` with `x = fl(a b)` and `x + e = a b` exactly.
#[inline(always)]
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let x = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let err = x - ah * bh - al * bh - ah * bl;
    (x, al * bl - err)
}

/// An exact sum of doubles, as a non-overlapping expansion in increasing
/// magnitude with zeros removed.
struct Expansion {
    parts: [f64; EXPANSION_CAPACITY],
    len: usize,
}

impl Expansion {
    fn new() -> Self {
        Self {
            parts: [0.0; EXPANSION_CAPACITY],
            len: 0,
        }
    }

    /// Adds `b` exactly (Shewchuk's grow-expansion with zero elimination).
    /// Returns `false`, leaving the sum inexact, if the expansion would need
    /// more than [`EXPANSION_CAPACITY`] components (the orientation
    /// predicate never does: its 96 terms fit).
    fn add(&mut self, b: f64) -> bool {
        let mut q = b;
        let mut out = 0usize;
        for i in 0..self.len {
            let (sum, err) = two_sum(q, self.parts[i]);
            q = sum;
            if err != 0.0 {
                self.parts[out] = err;
                out += 1;
            }
        }
        let fits = out < EXPANSION_CAPACITY;
        if q != 0.0 && fits {
            self.parts[out] = q;
            out += 1;
        }
        self.len = out;
        fits || q == 0.0
    }

    /// Adds the product `a b` exactly; `false` as for [`Expansion::add`].
    fn add_product(&mut self, a: f64, b: f64) -> bool {
        let (x, e) = two_product(a, b);
        self.add(e) & self.add(x)
    }

    /// The sum rounded to a double (to within a unit in the last place:
    /// the components do not overlap, smallest first).
    fn approx(&self) -> f64 {
        self.parts[..self.len].iter().sum()
    }

    /// The sign of the sum: that of its largest component.
    fn sign(&self) -> i32 {
        match self.len.checked_sub(1).map(|i| self.parts[i]) {
            Some(x) if x > 0.0 => 1,
            Some(x) if x < 0.0 => -1,
            _ => 0,
        }
    }
}

/// The exact sign of the 4×4 determinant with rows `[p_i, 1]`: the sum over
/// the 24 ordered triples `(i, j, k)` of distinct rows of
/// `sign · x_i y_j z_k`, the sign being the parity of the permutation
/// `(i, j, k, l)`, `l` the remaining row.
fn exact_det4_sign(p: [[f64; 3]; 4]) -> i32 {
    let mut sum = Expansion::new();
    for i in 0..4 {
        for j in 0..4 {
            for k in 0..4 {
                if i == j || j == k || i == k {
                    continue;
                }
                let l = 6 - i - j - k;
                let odd = parity([i, j, k, l]);
                let (h, e) = two_product(p[i][0], p[j][1]);
                let (h1, h2) = two_product(h, p[k][2]);
                let (e1, e2) = two_product(e, p[k][2]);
                for t in [h1, h2, e1, e2] {
                    // 96 terms never exceed the capacity.
                    let _ = sum.add(if odd { -t } else { t });
                }
            }
        }
    }
    sum.sign()
}

/// Twice the vector area of the closed polygon `points[lp[0]], points[lp[1]],
/// ...` (Newell's normal `Σ pᵢ × pᵢ₊₁`), summed exactly and rounded once, so
/// its direction is accurate to a few ulps even for a sliver far from the
/// origin, where rounded sums lose every digit. `None` if a sum ever needs
/// more than [`EXPANSION_CAPACITY`] components (never seen).
pub(crate) fn loop_normal(points: &[[f64; 3]], lp: &[u32]) -> Option<[f64; 3]> {
    let mut sums = [Expansion::new(), Expansion::new(), Expansion::new()];
    let mut exact = true;
    for (k, &i) in lp.iter().enumerate() {
        let a = *points.get(i as usize)?;
        let b = *points.get(*lp.get((k + 1) % lp.len())? as usize)?;
        for (axis, sum) in sums.iter_mut().enumerate() {
            let (u, w) = ((axis + 1) % 3, (axis + 2) % 3);
            exact &= sum.add_product(a[u], b[w]);
            exact &= sum.add_product(-a[w], b[u]);
        }
    }
    exact.then(|| [sums[0].approx(), sums[1].approx(), sums[2].approx()])
}

/// `true` when the permutation of `0..4` is odd.
fn parity(perm: [usize; 4]) -> bool {
    let mut inversions = 0;
    for a in 0..4 {
        for b in a + 1..4 {
            if perm[a] > perm[b] {
                inversions += 1;
            }
        }
    }
    inversions % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_of_simple_cases() {
        let (a, b, c) = ([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        assert_eq!(orient(a, b, c, [0.2, 0.3, 1.0]), 1);
        assert_eq!(orient(a, b, c, [0.2, 0.3, -1.0]), -1);
        assert_eq!(orient(a, b, c, [7.0, -3.0, 0.0]), 0);
        // The exact path agrees with the filter where the filter is sure.
        assert_eq!(-exact_det4_sign([a, b, c, [0.2, 0.3, 1.0]]), 1);
        assert_eq!(-exact_det4_sign([a, b, c, [0.2, 0.3, -1e-300]]), -1);
    }

    #[test]
    fn sliver_normals_are_accurate_far_from_the_origin() {
        // A triangle 1e-9 high and 2 long, 1e4 from the origin: its normal
        // is (0, 0, 1) exactly; rounded sums would be far off.
        let o = [1.0e4, -3.0e4, 2.0e4];
        let pts = [
            [o[0], o[1], o[2]],
            [o[0] + 2.0, o[1], o[2]],
            [o[0] + 1.0, o[1] + 1.0e-9, o[2]],
        ];
        let n = loop_normal(&pts, &[0, 1, 2]).unwrap();
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        assert!(n[0].abs() / len < 1e-12 && n[1].abs() / len < 1e-12 && n[2] > 0.0);
    }

    #[test]
    fn coplanar_points_off_the_grid_are_exactly_zero() {
        // Points sharing the double nearest 0.1 as z are exactly coplanar.
        let z = 0.1;
        // Counter-clockwise seen from +z.
        let (a, b, c) = ([0.3, 0.7, z], [-5.0, 1e-3, z], [1e3, 0.1, z]);
        for p in [[0.1, 0.2, z], [123.456, -7.0, z], [1e-9, 3.0, z]] {
            assert_eq!(orient(a, b, c, p), 0);
        }
        // One ulp off the plane is seen.
        let up = f64::from_bits(z.to_bits() + 1);
        let down = f64::from_bits(z.to_bits() - 1);
        assert_eq!(orient(a, b, c, [0.1, 0.2, up]), 1);
        assert_eq!(orient(a, b, c, [0.1, 0.2, down]), -1);
    }

    #[test]
    fn tilted_plane_with_large_coordinates() {
        // Integer points of the plane x + 2y + 3z = C, with coordinates near
        // 1e15: the rounded determinant is noise, only the exact path can
        // say 0, and a step of 1 (an ulp or so) off the plane is seen.
        let c0 = 3.0e15;
        let on = |y: f64, z: f64| [c0 - 2.0 * y - 3.0 * z, y, z];
        let (a, b, c) = (on(1.0e14, 2.0e14), on(-3.0e14, 1.0e14), on(2.5e14, -4.0e14));
        let n = {
            let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            // The sign of the normal's x component tells which side +x is.
            u[1] * v[2] - u[2] * v[1]
        };
        let s = if n > 0.0 { 1 } else { -1 };
        for (y, z) in [(7.0e13, -1.0e14), (-2.0e14, 3.3e14), (1.0, 2.0)] {
            let p = on(y, z);
            assert_eq!(orient(a, b, c, p), 0);
            assert_eq!(orient(a, b, c, [p[0] + 1.0, p[1], p[2]]), s);
            assert_eq!(orient(a, b, c, [p[0] - 1.0, p[1], p[2]]), -s);
        }
    }
}
