//! Contact points, the body a contact query reads, and the candidate pool
//! and its reduction to a manifold.

use crate::{MeshView, SdfView};
use mink_support::{Real, Vec3};

/// One contact point between A and B, world frame, meters.
///
/// Conventions as everywhere in mink: `normal` is a unit vector from A
/// towards B; `distance` is signed (negative when overlapping, minus the
/// penetration depth); `point_a` lies on A's surface and `point_b` on B's
/// (to the field's accuracy), with `point_b - point_a = distance · normal`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Contact<R> {
    /// Point on A's surface, world frame.
    pub point_a: Vec3<R>,
    /// Point on B's surface, world frame.
    pub point_b: Vec3<R>,
    /// Unit normal from A towards B, world frame.
    pub normal: Vec3<R>,
    /// Signed distance along `normal`, meters (negative when overlapping).
    pub distance: R,
}

impl<R: Real> Contact<R> {
    /// The penetration depth, meters: `-distance` (positive when
    /// overlapping).
    #[inline]
    pub fn depth(&self) -> R {
        -self.distance
    }

    /// The same contact seen from B: points swapped, normal negated.
    #[inline]
    pub fn swapped(&self) -> Self {
        Self {
            point_a: self.point_b,
            point_b: self.point_a,
            normal: -self.normal,
            distance: self.distance,
        }
    }
}

/// A mesh and its field, in the mesh's frame: what the contact queries read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SdfBody<'a, R> {
    /// The mesh (vertices and edges are sampled against the other field).
    pub mesh: MeshView<'a, R>,
    /// The mesh's signed distance field.
    pub field: SdfView<'a, R>,
}

impl<'a, R: Real> SdfBody<'a, R> {
    /// A body from a mesh and its field (same frame).
    pub const fn new(mesh: MeshView<'a, R>, field: SdfView<'a, R>) -> Self {
        Self { mesh, field }
    }
}

/// Contact candidates kept per query before reduction: the deepest this
/// many sample points. A full pool replaces its shallowest point.
pub const POOL_CAPACITY: usize = 64;

/// The most points a reduced manifold holds.
pub const MAX_MANIFOLD_POINTS: usize = 16;

const _: () = assert!(MAX_MANIFOLD_POINTS <= POOL_CAPACITY);

/// Points closer than this fraction of the field's cell size to a point
/// already chosen add nothing at the field's resolution and are not chosen.
pub const MERGE_CELL_FRACTION: f64 = 0.5;

/// The deepest candidates seen so far, fixed capacity, on the stack.
pub(crate) struct Pool<R> {
    items: [Contact<R>; POOL_CAPACITY],
    len: usize,
    /// Candidates offered, kept or not.
    pub offered: usize,
}

impl<R: Real> Pool<R> {
    pub(crate) fn new() -> Self {
        let zero = Contact {
            point_a: Vec3::ZERO,
            point_b: Vec3::ZERO,
            normal: Vec3::X,
            distance: R::ZERO,
        };
        Self {
            items: [zero; POOL_CAPACITY],
            len: 0,
            offered: 0,
        }
    }

    pub(crate) fn items(&self) -> &[Contact<R>] {
        &self.items[..self.len]
    }

    /// Offers a candidate; keeps it if the pool has room or it is deeper
    /// than the shallowest kept. Non-finite candidates are dropped.
    pub(crate) fn offer(&mut self, c: Contact<R>) {
        if !(c.distance.finite()
            && c.normal.is_finite()
            && c.point_a.is_finite()
            && c.point_b.is_finite())
        {
            return;
        }
        self.offered += 1;
        if self.len < POOL_CAPACITY {
            self.items[self.len] = c;
            self.len += 1;
            return;
        }
        let mut worst = 0;
        for i in 1..self.len {
            if self.items[i].distance > self.items[worst].distance {
                worst = i;
            }
        }
        if c.distance < self.items[worst].distance {
            self.items[worst] = c;
        }
    }

    /// Writes up to `out.len()` (and [`MAX_MANIFOLD_POINTS`]) points into
    /// `out`: the deepest first, then repeatedly the candidate farthest
    /// from every point chosen (ties to the deeper), skipping candidates
    /// within `merge` meters of a chosen one. Returns the count written.
    pub(crate) fn reduce(&self, merge: R, out: &mut [Contact<R>]) -> usize {
        let cap = out.len().min(MAX_MANIFOLD_POINTS);
        let items = self.items();
        if cap == 0 || items.is_empty() {
            return 0;
        }
        let mut chosen = [false; POOL_CAPACITY];
        let mut gap = [R::MAX; POOL_CAPACITY];
        let mut n = 0;
        let mut next = 0;
        for i in 1..items.len() {
            if items[i].distance < items[next].distance {
                next = i;
            }
        }
        let merge2 = merge * merge;
        loop {
            chosen[next] = true;
            out[n] = items[next];
            n += 1;
            if n == cap {
                break;
            }
            let p = items[next].point_a;
            let mut best: Option<usize> = None;
            for i in 0..items.len() {
                if chosen[i] {
                    continue;
                }
                gap[i] = gap[i].min_of((items[i].point_a - p).norm_squared());
                if gap[i] <= merge2 {
                    continue;
                }
                best = match best {
                    Some(b)
                        if gap[b] > gap[i]
                            || (gap[b] == gap[i] && items[b].distance <= items[i].distance) =>
                    {
                        Some(b)
                    }
                    _ => Some(i),
                };
            }
            match best {
                Some(b) => next = b,
                None => break,
            }
        }
        n
    }
}
