//! An AABB tree over a mesh's triangles for nearest-triangle queries
//! (feature `alloc`; used only while building a field).

use crate::geometry::{closest_on_triangle, TriFeature};
use alloc::vec::Vec;
use mink_support::{Aabb, Real, Vec3};

/// Triangles per leaf, at most.
const LEAF_SIZE: usize = 4;

/// The traversal stack's capacity: a median split halves the triangles at
/// every level, so the depth stays under 33 for any `u32` count and the
/// stack holds at most one pending sibling per level.
const STACK_CAPACITY: usize = 64;

struct Node<R> {
    aabb: Aabb<R>,
    /// Leaf: first entry in `order`; inner: index of the left child (the
    /// right one follows it).
    start: u32,
    /// Leaf: triangle count (`> 0`); inner: 0.
    count: u32,
}

/// The nearest triangle to a point.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Nearest<R> {
    /// Squared distance, meters².
    pub d2: R,
    /// The triangle.
    pub tri: u32,
    /// The nearest point, mesh frame.
    pub point: Vec3<R>,
    /// The feature of `tri` it lies on.
    pub feature: TriFeature,
}

pub(crate) struct Bvh<R> {
    nodes: Vec<Node<R>>,
    order: Vec<u32>,
    tris: Vec<[Vec3<R>; 3]>,
}

fn box_distance2<R: Real>(b: &Aabb<R>, p: Vec3<R>) -> R {
    let d = (b.min - p).max(p - b.max).max(Vec3::ZERO);
    d.norm_squared()
}

impl<R: Real> Bvh<R> {
    pub(crate) fn new(tris: Vec<[Vec3<R>; 3]>) -> Self {
        let centroids: Vec<Vec3<R>> = tris
            .iter()
            .map(|t| (t[0] + t[1] + t[2]) * (R::ONE / R::lit(3.0)))
            .collect();
        let mut bvh = Self {
            nodes: Vec::with_capacity(2 * tris.len() / LEAF_SIZE + 1),
            order: (0..tris.len() as u32).collect(),
            tris,
        };
        bvh.nodes.push(Node {
            aabb: Aabb::EMPTY,
            start: 0,
            count: 0,
        });
        bvh.split(0, 0, bvh.order.len(), &centroids);
        bvh
    }

    fn split(&mut self, node: usize, lo: usize, hi: usize, centroids: &[Vec3<R>]) {
        let mut aabb = Aabb::EMPTY;
        let mut cb = Aabb::EMPTY;
        for &t in &self.order[lo..hi] {
            for v in self.tris[t as usize] {
                aabb = aabb.including(v);
            }
            cb = cb.including(centroids[t as usize]);
        }
        self.nodes[node].aabb = aabb;
        if hi - lo <= LEAF_SIZE {
            self.nodes[node].start = lo as u32;
            self.nodes[node].count = (hi - lo) as u32;
            return;
        }
        let ext = cb.max - cb.min;
        let axis = if ext.x >= ext.y && ext.x >= ext.z {
            0
        } else if ext.y >= ext.z {
            1
        } else {
            2
        };
        let mid = (lo + hi) / 2;
        self.order[lo..hi].select_nth_unstable_by(mid - lo, |&a, &b| {
            let (ca, cb) = (
                centroids[a as usize].get(axis),
                centroids[b as usize].get(axis),
            );
            ca.partial_cmp(&cb).unwrap_or(core::cmp::Ordering::Equal)
        });
        let left = self.nodes.len();
        for _ in 0..2 {
            self.nodes.push(Node {
                aabb: Aabb::EMPTY,
                start: 0,
                count: 0,
            });
        }
        self.nodes[node].start = left as u32;
        self.nodes[node].count = 0;
        self.split(left, lo, mid, centroids);
        self.split(left + 1, mid, hi, centroids);
    }

    /// The exact nearest point of triangle `t` to `p`.
    pub(crate) fn nearest_on(&self, p: Vec3<R>, t: u32) -> Nearest<R> {
        let (point, feature) = closest_on_triangle(p, &self.tris[t as usize]);
        Nearest {
            d2: (p - point).norm_squared(),
            tri: t,
            point,
            feature,
        }
    }

    /// The triangle nearest to `p`, starting from the guess `best` (any
    /// triangle's exact answer, e.g. the previous sample's nearest).
    pub(crate) fn nearest(&self, p: Vec3<R>, mut best: Nearest<R>) -> Nearest<R> {
        let mut stack = [0u32; STACK_CAPACITY];
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let node = &self.nodes[stack[len] as usize];
            if box_distance2(&node.aabb, p) >= best.d2 {
                continue;
            }
            if node.count > 0 {
                let s = node.start as usize;
                for &t in &self.order[s..s + node.count as usize] {
                    let cand = self.nearest_on(p, t);
                    if cand.d2 < best.d2 {
                        best = cand;
                    }
                }
                continue;
            }
            let (l, r) = (node.start, node.start + 1);
            let dl = box_distance2(&self.nodes[l as usize].aabb, p);
            let dr = box_distance2(&self.nodes[r as usize].aabb, p);
            let (near, far) = if dl <= dr { (l, r) } else { (r, l) };
            for child in [far, near] {
                if len < STACK_CAPACITY {
                    stack[len] = child;
                    len += 1;
                }
            }
        }
        best
    }
}
