//! Scene generators and an independent brute-force reference shared by the
//! broad-phase tests.
#![allow(dead_code)]

use mink_broadphase::{CandidatePair, Filters, Geom, NO_LINK};
use mink_support::{Aabb, Real, Vec3};
use mink_testkit::Rng;

/// How a random scene's boxes are laid out.
#[derive(Clone, Copy, Debug)]
pub enum Style {
    /// Spread in a cube sized for a few overlaps per box.
    Spread,
    /// A few dense clusters.
    Clusters,
    /// Long thin boxes in random axis directions.
    LongThin,
    /// All boxes identical (every pair overlaps).
    Identical,
    /// Boxes on a line along x (the sweep axis).
    Line,
    /// Huge boxes mixed with tiny ones.
    HugeAndTiny,
}

/// Every style.
pub const STYLES: [Style; 6] = [
    Style::Spread,
    Style::Clusters,
    Style::LongThin,
    Style::Identical,
    Style::Line,
    Style::HugeAndTiny,
];

fn boxed<R: Real>(c: [f64; 3], h: [f64; 3]) -> Aabb<R> {
    let v = |a: [f64; 3]| Vec3::new(R::lit(a[0]), R::lit(a[1]), R::lit(a[2]));
    Aabb::new(
        v([c[0] - h[0], c[1] - h[1], c[2] - h[2]]),
        v([c[0] + h[0], c[1] + h[1], c[2] + h[2]]),
    )
}

/// A random box of the style, for a scene of `n` boxes.
pub fn random_box<R: Real>(rng: &mut Rng, style: Style, n: usize) -> Aabb<R> {
    let side = 2.0 * (n as f64 / 3.0).cbrt().max(1.0);
    let mut u = |lo: f64, hi: f64| rng.range_f64(lo, hi);
    match style {
        Style::Spread => boxed(
            [u(0.0, side), u(0.0, side), u(0.0, side)],
            [u(0.2, 0.8), u(0.2, 0.8), u(0.2, 0.8)],
        ),
        Style::Clusters => {
            let k = (u(0.0, 4.0) as usize) as f64;
            let c = [k * side, k * 0.5 * side, 0.0];
            boxed(
                [c[0] + u(0.0, 3.0), c[1] + u(0.0, 3.0), c[2] + u(0.0, 3.0)],
                [u(0.1, 0.6), u(0.1, 0.6), u(0.1, 0.6)],
            )
        }
        Style::LongThin => {
            let axis = u(0.0, 3.0) as usize;
            let mut h = [u(0.02, 0.1), u(0.02, 0.1), u(0.02, 0.1)];
            h[axis.min(2)] = u(2.0, side.max(3.0));
            boxed([u(0.0, side), u(0.0, side), u(0.0, side)], h)
        }
        Style::Identical => boxed([1.0, 2.0, 3.0], [0.5, 0.5, 0.5]),
        Style::Line => boxed([u(0.0, side * side), 0.0, 0.0], [u(0.2, 1.0), 0.5, 0.5]),
        Style::HugeAndTiny => {
            if u(0.0, 1.0) < 0.05 {
                boxed(
                    [u(0.0, side), u(0.0, side), u(0.0, side)],
                    [u(1.0, side), u(1.0, side), u(1.0, side)],
                )
            } else {
                boxed(
                    [u(0.0, side), u(0.0, side), u(0.0, side)],
                    [u(0.001, 0.05), u(0.001, 0.05), u(0.001, 0.05)],
                )
            }
        }
    }
}

/// A random scene with random links, parents, masks and flags (with the
/// given probabilities of being fixed and asleep).
pub fn random_scene<R: Real>(
    rng: &mut Rng,
    style: Style,
    n: usize,
    fixed: f64,
    asleep: f64,
) -> Vec<Geom<R>> {
    let links = (n / 2).max(1);
    (0..n)
        .map(|_| {
            let link = rng.below(links) as u32;
            let parent = if rng.chance(0.3) {
                NO_LINK
            } else {
                rng.below(links) as u32
            };
            Geom {
                aabb: random_box(rng, style, n),
                link,
                parent_link: parent,
                contype: if rng.chance(0.8) {
                    1
                } else {
                    rng.below(4) as u32
                },
                conaffinity: if rng.chance(0.8) {
                    1
                } else {
                    rng.below(4) as u32
                },
                fixed: rng.chance(fixed),
                asleep: rng.chance(asleep),
            }
        })
        .collect()
}

/// Moves `count` random boxes by up to `step` meters (small motion).
pub fn jiggle<R: Real>(rng: &mut Rng, geoms: &mut [Geom<R>], count: usize, step: f64) {
    for _ in 0..count {
        let i = rng.below(geoms.len());
        let d: Vec3<R> = rng.in_cube(step);
        let a = &mut geoms[i].aabb;
        *a = Aabb::new(a.min + d, a.max + d);
    }
}

/// Moves `count` random boxes anywhere (large change).
pub fn teleport<R: Real>(rng: &mut Rng, geoms: &mut [Geom<R>], count: usize, style: Style) {
    let n = geoms.len();
    for _ in 0..count {
        let i = rng.below(n);
        geoms[i].aabb = random_box(rng, style, n);
    }
}

/// MuJoCo's mask rule, restated.
pub fn masks_keep(ca: u32, aa: u32, cb: u32, ab: u32) -> bool {
    (ca & ab) != 0 || (cb & aa) != 0
}

/// Every pair tested, with the filters restated independently of the crate.
pub fn reference<R: Real>(geoms: &[Geom<R>], f: &Filters) -> Vec<CandidatePair> {
    let mut out = Vec::new();
    for i in 0..geoms.len() {
        for j in i + 1..geoms.len() {
            let (a, b) = (&geoms[i], &geoms[j]);
            let overlap = a.aabb.min.x <= b.aabb.max.x
                && b.aabb.min.x <= a.aabb.max.x
                && a.aabb.min.y <= b.aabb.max.y
                && b.aabb.min.y <= a.aabb.max.y
                && a.aabb.min.z <= b.aabb.max.z
                && b.aabb.min.z <= a.aabb.max.z;
            if !overlap {
                continue;
            }
            if f.same_link && a.link == b.link {
                continue;
            }
            let connected = (a.parent_link != NO_LINK && a.parent_link == b.link)
                || (b.parent_link != NO_LINK && b.parent_link == a.link);
            if f.parent_child && connected {
                continue;
            }
            if f.masks && !masks_keep(a.contype, a.conaffinity, b.contype, b.conaffinity) {
                continue;
            }
            if f.both_fixed && a.fixed && b.fixed {
                continue;
            }
            if f.both_asleep && a.asleep && b.asleep {
                continue;
            }
            out.push(CandidatePair {
                a: i as u32,
                b: j as u32,
            });
        }
    }
    out
}

/// The pairs sorted (and checked for `a < b`).
pub fn sorted(pairs: &[CandidatePair]) -> Vec<CandidatePair> {
    assert!(pairs.iter().all(|p| p.a < p.b), "pair not ordered a < b");
    let mut v = pairs.to_vec();
    v.sort_unstable();
    v
}
