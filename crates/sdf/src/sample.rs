//! Sampling one shape's points against another's field: the vertex–face
//! and edge–edge passes shared by every contact query.

use crate::contact::{Contact, Pool};
use crate::{MeshView, SdfView};
use mink_support::{Aabb, Iso3, Real, Vec3};

/// Points sampled along an edge before refinement (at `(k + 1/2) / n`).
pub const EDGE_SAMPLES: usize = 4;

/// Golden-section steps refining the best edge sample (each shrinks the
/// bracket by 0.618; 8 steps leave 5 % of the sample spacing).
pub const EDGE_REFINE_STEPS: usize = 8;

/// A bound on the field's Lipschitz constant: the trilinear interpolant of
/// samples of a 1-Lipschitz function has every partial derivative within 1,
/// so its gradient is at most `√3` long; an edge whose end distances `d0`,
/// `d1` and length `L` satisfy `d0 + d1 - FIELD_LIPSCHITZ · L > 2 margin`
/// cannot come within the margin and is skipped.
pub const FIELD_LIPSCHITZ: f64 = 2.0;

/// Which side the sampled points belong to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// The sampled points are A's; the field is B's.
    A,
    /// The sampled points are B's; the field is A's.
    B,
}

/// The frame pair of one pass: sampled shape at `src`, field at `dst`.
pub(crate) struct Pass<'f, 'a, R> {
    pub field: &'f SdfView<'a, R>,
    pub dst_pose: Iso3<R>,
    /// `dst_pose⁻¹ · src_pose`: sampled shape's frame to the field's.
    pub rel: Iso3<R>,
    pub side: Side,
    pub margin: R,
    /// The field's box, inflated by the margin, field frame.
    pub reach: Aabb<R>,
}

impl<'f, 'a, R: Real> Pass<'f, 'a, R> {
    pub(crate) fn new(
        field: &'f SdfView<'a, R>,
        dst_pose: &Iso3<R>,
        src_pose: &Iso3<R>,
        side: Side,
        margin: R,
    ) -> Self {
        Self {
            field,
            dst_pose: *dst_pose,
            rel: dst_pose.inv_mul(src_pose),
            side,
            margin,
            reach: field.aabb().inflated(margin),
        }
    }

    /// A contact at `q` (field frame) with the field's answer `(d, g)`.
    ///
    /// Where the gradient vanishes (deep inside, on the field's medial
    /// axis: the centre of a box-like mesh), the contact points away from
    /// the centre of the field's box (`+z` at the centre itself): a point
    /// that deep is in contact, whichever way it is pushed out.
    fn contact(&self, q: Vec3<R>, d: R, g: Vec3<R>) -> Contact<R> {
        let away = || (q - self.field.aabb().center()).normalize_or(Vec3::Z);
        let n = self
            .dst_pose
            .rotation
            .mul_vec(g.try_normalize().unwrap_or_else(away));
        let p = self.dst_pose.transform_point(q);
        let surface = p - n * d;
        match self.side {
            Side::A => Contact {
                point_a: p,
                point_b: surface,
                normal: -n,
                distance: d,
            },
            Side::B => Contact {
                point_a: surface,
                point_b: p,
                normal: n,
                distance: d,
            },
        }
    }

    /// Tests one point of the sampled shape (its frame).
    pub(crate) fn point(&self, v: Vec3<R>, pool: &mut Pool<R>) {
        let q = self.rel.transform_point(v);
        if !self.reach.contains_point(q) {
            return;
        }
        let (d, g) = self.field.distance_and_gradient(q);
        if d <= self.margin {
            pool.offer(self.contact(q, d, g));
        }
    }

    /// Tests every vertex of `mesh`.
    pub(crate) fn vertices(&self, mesh: &MeshView<'_, R>, pool: &mut Pool<R>) {
        for &v in mesh.vertices() {
            self.point(v, pool);
        }
    }

    /// Finds, along each edge of `mesh`, an interior minimum of the field
    /// and offers it when within the margin and below both ends (the ends
    /// are the vertex pass's).
    pub(crate) fn edges(&self, mesh: &MeshView<'_, R>, pool: &mut Pool<R>) {
        let lip = R::lit(FIELD_LIPSCHITZ);
        for e in 0..mesh.edges().len() {
            let Some([v0, v1]) = mesh.edge(e) else {
                continue;
            };
            let (q0, q1) = (self.rel.transform_point(v0), self.rel.transform_point(v1));
            let seg = Aabb::new(q0.min(q1), q0.max(q1));
            if !seg.intersects(&self.reach) {
                continue;
            }
            let d0 = self.field.distance(q0);
            let d1 = self.field.distance(q1);
            let len = (q1 - q0).norm();
            if d0 + d1 - lip * len > self.margin * R::TWO {
                continue;
            }
            let at = |t: R| self.field.distance(q0 + (q1 - q0) * t);
            let n = R::lit(EDGE_SAMPLES as f64);
            let mut best_t = R::ZERO;
            let mut best_d = R::MAX;
            for k in 0..EDGE_SAMPLES {
                let t = (R::lit(k as f64) + R::HALF) / n;
                let d = at(t);
                if d < best_d {
                    best_d = d;
                    best_t = t;
                }
            }
            // Golden-section search on the bracket around the best sample.
            let inv_phi = R::lit(0.618_033_988_749_894_9);
            let mut lo = (best_t - R::ONE / n).max_of(R::ZERO);
            let mut hi = (best_t + R::ONE / n).min_of(R::ONE);
            let mut x1 = hi - (hi - lo) * inv_phi;
            let mut x2 = lo + (hi - lo) * inv_phi;
            let (mut f1, mut f2) = (at(x1), at(x2));
            for _ in 0..EDGE_REFINE_STEPS {
                if f1 <= f2 {
                    hi = x2;
                    x2 = x1;
                    f2 = f1;
                    x1 = hi - (hi - lo) * inv_phi;
                    f1 = at(x1);
                } else {
                    lo = x1;
                    x1 = x2;
                    f1 = f2;
                    x2 = lo + (hi - lo) * inv_phi;
                    f2 = at(x2);
                }
            }
            for (t, d) in [(x1, f1), (x2, f2)] {
                if d < best_d {
                    best_d = d;
                    best_t = t;
                }
            }
            if best_d > self.margin || best_d >= d0.min_of(d1) {
                continue;
            }
            let q = q0 + (q1 - q0) * best_t;
            let (d, g) = self.field.distance_and_gradient(q);
            pool.offer(self.contact(q, d, g));
        }
    }
}
