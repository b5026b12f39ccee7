//! How a ray meets a cone: the chord through the infinite cone of its
//! side (one nappe of the quadric `x² + y² = k²(h - z)²`, apex at
//! `z = h`), cut by the slab of its base and apex planes.

use super::chord::{slab, Chord, Normal};
use mink_support::{Real, Vec3};

/// The chord of the line `o + t·d` through the cone of base radius `r`
/// and half-length `h` along z, apex at `+h` (shape frame); `None` when
/// it misses. At the apex the normal is `+z`.
pub(crate) fn cone_chord<R: Real>(o: Vec3<R>, d: Vec3<R>, r: R, h: R) -> Option<Chord<R>> {
    let k = r / (h + h);
    let k2 = k * k;
    // Height below the apex along the line: w(t) = w0 - d.z t >= 0.
    let w0 = h - o.z;
    let a = d.x * d.x + d.y * d.y - k2 * d.z * d.z;
    let b = o.x * d.x + o.y * d.y + k2 * w0 * d.z;
    let c = o.x * o.x + o.y * o.y - k2 * w0 * w0;
    let side_normal = |t: R| {
        let (x, y) = (o.x + d.x * t, o.y + d.y * t);
        let rho = (x * x + y * y).sqrt();
        if rho > R::ZERO {
            Vec3::new(x / rho, y / rho, k).normalize_or(Vec3::Z)
        } else {
            Vec3::Z
        }
    };
    let piece = |enter: R, exit: R| Chord {
        enter,
        enter_normal: Normal::Unit(side_normal(enter)),
        exit,
        exit_normal: Normal::Unit(side_normal(exit)),
    };
    // Both planes: the base below, the apex's plane above (the nappe on
    // the apex's side of it is the other one).
    let caps = slab(o.z, d.z, -h, h, 2)?;
    // Where the quadric's inside `a t² + 2 b t + c <= 0` meets the line:
    // an interval, the line outside two roots, or a half-line.
    if a == R::ZERO {
        if b == R::ZERO {
            return (c <= R::ZERO)
                .then(|| Chord::whole(Vec3::Z))
                .and_then(|w| w.and(caps));
        }
        let t = -c / (b + b);
        let half = if b > R::ZERO {
            piece(-R::INFINITY, t)
        } else {
            piece(t, R::INFINITY)
        };
        return half.and(caps);
    }
    let disc = b * b - a * c;
    if disc < R::ZERO {
        return if a > R::ZERO {
            None
        } else {
            Chord::whole(Vec3::Z).and(caps)
        };
    }
    let root = disc.sqrt();
    let q = if b >= R::ZERO { -(b + root) } else { root - b };
    let (t1, t2) = if q == R::ZERO {
        (-b / a, -b / a)
    } else {
        let (u, v) = (q / a, c / q);
        (u.min_of(v), u.max_of(v))
    };
    if a > R::ZERO {
        return piece(t1, t2).and(caps);
    }
    // Outside the roots: one side runs in the other nappe, which the
    // apex plane cuts away.
    // Near the apex round-off can leave a sliver of both; the longer is
    // the cone's.
    match (
        piece(-R::INFINITY, t1).and(caps),
        piece(t2, R::INFINITY).and(caps),
    ) {
        (Some(x), Some(y)) => Some(if x.exit - x.enter >= y.exit - y.enter {
            x
        } else {
            y
        }),
        (x, None) => x,
        (None, y) => y,
    }
}
