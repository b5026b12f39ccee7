//! What SAT needs of a hull beyond its topology: the Gauss-map arc of every
//! edge and an inscribed sphere, in flat arrays that can be borrowed from
//! `static` slices ([`SatArrays`], [`SatHull`]) or built once from a
//! [`HullView`] (no allocation with [`fill_gauss_arcs`] and
//! [`InscribedSphere::of`]; owned with [`SatData`] under `alloc`).

use mink_support::{HullIndex, HullView, Real, ShapeError, Vec3};

/// Corners of a tetrahedron: its centroid is their sum over this.
const TETRAHEDRON_CORNERS: f64 = 4.0;

/// The Gauss-map arc of one hull edge, hull frame.
///
/// On the Gauss map a face is a point (its unit normal) and an edge is the
/// great-circle arc between the normals of its two faces, `faces[0]` (left)
/// and `faces[1]` (right) of the [`HullEdge`](mink_support::HullEdge). Every
/// separating axis an edge can take part in lies on that arc. The arc is
/// stored by what the SAT query needs without touching the vertices: the
/// edge's unit direction (the arc's pole) and the cosine of its angle.
///
/// The pole is taken from the two normals, not from the edge's vertices:
/// the query's Gauss-map test finds the axis `direction × e_B` and trusts
/// it to lie on the arc, where the edge's vertices are the hull's extreme
/// points, so the edge's separation is the hulls' gap along it. The
/// vertices of a built hull lie only within its tolerance of their faces'
/// planes, so an edge tens of micrometres long, left by merging nearly
/// coplanar faces, can point degrees away from the line where its faces
/// meet; an axis built from that direction lies off the arc, and the gap
/// measured from the edges' vertices then overstates the true one.
///
/// The reverse holds for a knife edge (faces with nearly opposite normals,
/// the rim of a nearly flat hull): `|n_left × n_right|` is the sine of the
/// small dihedral angle, and the pole is off the edge's line by the
/// normals' rounding over that sine (`2e-11` rad in `f64` at `7.5e-7`).
/// The axis is then on the arc but not quite perpendicular to the edge,
/// which is why the query measures an edge pair's separation at both ends
/// of both edges, never at one vertex alone.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct GaussArc<R> {
    /// Unit direction of the line where the edge's faces meet, hull frame:
    /// `n_left × n_right` normalized (along `vertices[0] → vertices[1]` on
    /// a well-shaped edge). When the two normals are parallel, the edge's
    /// vertex difference made perpendicular to them.
    pub direction: Vec3<R>,
    /// `n_left · n_right`, the cosine of the arc's angle (in `[-1, 1]`).
    pub cos: R,
}

/// A sphere inside the hull: the hull's volume centroid and the distance
/// from it to the nearest face plane. It need not be the largest one; SAT
/// only needs a sphere that the hull surely contains.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct InscribedSphere<R> {
    /// The centre, hull frame, meters.
    pub center: Vec3<R>,
    /// The radius, meters (`>= 0`).
    pub radius: R,
}

impl<R: Real> InscribedSphere<R> {
    /// The inscribed sphere of `hull`: its volume centroid (computed from a
    /// fan of tetrahedra on the face loops, apex at the vertex centroid) and
    /// the smallest distance from it to a face plane, clamped at 0.
    ///
    /// Errors: [`ShapeError::Degenerate`] when the hull has no volume (the
    /// centroid is undefined) and [`ShapeError::NonFinite`] when the result
    /// is not finite. An `O(V + F)` scan, meant for build time.
    pub fn of(hull: &HullView<'_, R>) -> Result<Self, ShapeError> {
        let apex = hull.vertex_centroid();
        let vs = hull.vertices();
        let mut volume6 = R::ZERO;
        let mut moment = Vec3::ZERO;
        for f in 0..hull.face_count() {
            let lp = hull.face(f);
            let Some(&first) = lp.first() else { continue };
            let Some(&p0) = vs.get(first as usize) else {
                continue;
            };
            for w in lp.windows(2).skip(1) {
                let (Some(&p1), Some(&p2)) = (vs.get(w[0] as usize), vs.get(w[1] as usize)) else {
                    continue;
                };
                // Six times the signed volume of (apex, p0, p1, p2); positive
                // for a counter-clockwise loop seen from outside.
                let v6 = (p0 - apex).dot((p1 - apex).cross(p2 - apex));
                volume6 += v6;
                // The tetrahedron's centroid is the mean of its corners.
                moment += (apex + p0 + p1 + p2) * v6;
            }
        }
        if volume6 <= R::ZERO {
            return Err(ShapeError::Degenerate("hull without volume"));
        }
        let center = moment / (volume6 * R::lit(TETRAHEDRON_CORNERS));
        let mut radius = R::INFINITY;
        for p in hull.planes() {
            radius = radius.min_of(-p.distance(center));
        }
        let radius = radius.max_of(R::ZERO);
        if !center.is_finite() || !radius.finite() {
            return Err(ShapeError::NonFinite("inscribed sphere"));
        }
        Ok(Self { center, radius })
    }
}

/// Writes the Gauss-map arc of every edge of `hull` into `out` (one entry
/// per edge, same order as [`HullView::edges`]), without allocating.
///
/// Errors: [`ShapeError::Capacity`] when `out` is shorter than the edge
/// list, [`ShapeError::Degenerate`] for an edge of zero length and
/// [`ShapeError::Inconsistent`] for an edge whose vertex or face index is
/// out of range (only possible on unchecked arrays).
pub fn fill_gauss_arcs<R: Real>(
    hull: &HullView<'_, R>,
    out: &mut [GaussArc<R>],
) -> Result<(), ShapeError> {
    let edges = hull.edges();
    if out.len() < edges.len() {
        return Err(ShapeError::Capacity(
            "Gauss arc buffer shorter than the edges",
        ));
    }
    let (vs, planes) = (hull.vertices(), hull.planes());
    for (e, slot) in edges.iter().zip(out.iter_mut()) {
        let (Some(&a), Some(&b)) = (
            vs.get(e.vertices[0] as usize),
            vs.get(e.vertices[1] as usize),
        ) else {
            return Err(ShapeError::Inconsistent("edges: vertex index out of range"));
        };
        let (Some(l), Some(r)) = (
            planes.get(e.faces[0] as usize),
            planes.get(e.faces[1] as usize),
        ) else {
            return Err(ShapeError::Inconsistent("edges: face index out of range"));
        };
        if b == a {
            return Err(ShapeError::Degenerate("hull edge of zero length"));
        }
        let direction = arc_pole(l.normal, r.normal, b - a)
            .ok_or(ShapeError::Degenerate("hull edge along its faces' normal"))?;
        let cos = l.normal.dot(r.normal).max_of(-R::ONE).min_of(R::ONE);
        *slot = GaussArc { direction, cos };
    }
    Ok(())
}

/// `a b - c d` to within about one rounding of the result even when the
/// products nearly cancel (Kahan's difference of products): `w = c d`
/// rounded, `e = w - c d` exactly by a fused multiply-add, `f = a b - w`
/// rounded once by another, and `a b - c d = f + e`.
fn diff_of_products<R: Real>(a: R, b: R, c: R, d: R) -> R {
    let w = c * d;
    let e = (-c).mul_add(d, w);
    let f = a.mul_add(b, -w);
    f + e
}

/// The pole of the Gauss arc from `n1` (left face's unit normal) to `n2`
/// (right face's): `n1 × n2` normalized, computed in `f64` with each
/// component a compensated difference of products, so it is perpendicular
/// to the stored normals to within the rounding of the result even when
/// the faces are nearly coplanar (the cross product of two `f32` normals
/// is then exact before its last rounding). When the normals are parallel
/// the arc is a point, no edge pair can cross it, and the direction is
/// `along` (the edge's vertex difference) made perpendicular to `n1`.
/// `None` when that is zero as well.
fn arc_pole<R: Real>(n1: Vec3<R>, n2: Vec3<R>, along: Vec3<R>) -> Option<Vec3<R>> {
    let (p, q) = (n1.cast::<f64>(), n2.cast::<f64>());
    let pole = Vec3::new(
        diff_of_products(p.y, q.z, p.z, q.y),
        diff_of_products(p.z, q.x, p.x, q.z),
        diff_of_products(p.x, q.y, p.y, q.x),
    );
    let unit = pole.try_normalize().or_else(|| {
        let v = along.cast::<f64>();
        (v - p * p.dot(v)).try_normalize()
    })?;
    unit.cast::<R>().try_normalize()
}

/// The SAT data of one hull, borrowed: the input of [`SatHull::new`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatArrays<'a, R> {
    /// One arc per hull edge, same order as the hull's edges.
    pub arcs: &'a [GaussArc<R>],
    /// The inscribed sphere, hull frame.
    pub sphere: InscribedSphere<R>,
    /// The largest distance from the sphere's centre to a vertex, meters:
    /// the hull's size, which scales SAT's round-off slack.
    pub extent: R,
}

/// A hull together with its SAT data: what [`sat`](crate::sat) and the
/// manifold take. `Copy`, borrowed, no allocation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatHull<'a, R> {
    hull: HullView<'a, R>,
    arrays: SatArrays<'a, R>,
}

impl<'a, R: Real> SatHull<'a, R> {
    /// The SAT hull of `hull` with its data `arrays`, after checking that
    /// there is one arc per edge, every arc is finite with a unit direction
    /// (within `sqrt(ε)`) perpendicular to its edge's two face normals
    /// (within `sqrt(ε)`: the pole of the arc, see [`GaussArc`]) and a
    /// cosine in `[-1, 1]`, and the sphere is finite with a radius `>= 0`.
    /// It does not recompute the arcs: data baked for another hull passes
    /// if the sizes agree, and SAT's answers are then wrong (never a
    /// panic). Errors: [`ShapeError::Inconsistent`],
    /// [`ShapeError::NonFinite`], [`ShapeError::Negative`].
    pub fn new(hull: HullView<'a, R>, arrays: SatArrays<'a, R>) -> Result<Self, ShapeError> {
        if arrays.arcs.len() != hull.edges().len() {
            return Err(ShapeError::Inconsistent("arcs: one per edge"));
        }
        let unit_tol = R::sqrt_epsilon();
        let planes = hull.planes();
        let normal = |f: HullIndex| planes.get(f as usize).map_or(Vec3::ZERO, |p| p.normal);
        for (arc, e) in arrays.arcs.iter().zip(hull.edges()) {
            if !arc.direction.is_finite() || !arc.cos.finite() {
                return Err(ShapeError::NonFinite("Gauss arc"));
            }
            if (arc.direction.norm_squared() - R::ONE).abs() > unit_tol || arc.cos.abs() > R::ONE {
                return Err(ShapeError::Inconsistent(
                    "arcs: unit direction, cos in [-1, 1]",
                ));
            }
            let off = |f: HullIndex| arc.direction.dot(normal(f)).abs();
            if off(e.faces[0]).max_of(off(e.faces[1])) > unit_tol {
                return Err(ShapeError::Inconsistent(
                    "arcs: direction along the line where the edge's faces meet",
                ));
            }
        }
        let s = arrays.sphere;
        if !s.center.is_finite() || !s.radius.finite() {
            return Err(ShapeError::NonFinite("inscribed sphere"));
        }
        if !arrays.extent.finite() {
            return Err(ShapeError::NonFinite("hull extent"));
        }
        if s.radius < R::ZERO || arrays.extent < R::ZERO {
            return Err(ShapeError::Negative("inscribed sphere radius"));
        }
        Ok(Self { hull, arrays })
    }

    /// The SAT hull without checks, for `static` data baked by [`SatData`].
    /// Queries never panic on inconsistent data, but their answers are then
    /// meaningless.
    #[inline(always)]
    pub const fn new_unchecked(hull: HullView<'a, R>, arrays: SatArrays<'a, R>) -> Self {
        Self { hull, arrays }
    }

    /// The hull.
    #[inline(always)]
    pub fn hull(&self) -> &HullView<'a, R> {
        &self.hull
    }

    /// The Gauss-map arcs, one per edge.
    #[inline(always)]
    pub fn arcs(&self) -> &'a [GaussArc<R>] {
        self.arrays.arcs
    }

    /// The inscribed sphere, hull frame.
    #[inline(always)]
    pub fn sphere(&self) -> InscribedSphere<R> {
        self.arrays.sphere
    }

    /// The largest distance from the sphere's centre to a vertex, meters.
    #[inline(always)]
    pub fn extent(&self) -> R {
        self.arrays.extent
    }
}

/// The owned SAT data of one hull (feature `alloc`): build it once with
/// [`SatData::from_view`], keep it next to the hull, and pair the two with
/// [`SatData::with_hull`]. Its arrays can be written out as `static` data
/// for [`SatHull::new_unchecked`].
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq)]
pub struct SatData<R> {
    arcs: alloc::vec::Vec<GaussArc<R>>,
    sphere: InscribedSphere<R>,
    extent: R,
}

#[cfg(feature = "alloc")]
impl<R: Real> SatData<R> {
    /// The SAT data of `hull`: [`fill_gauss_arcs`] and
    /// [`InscribedSphere::of`], whose errors it returns.
    pub fn from_view(hull: &HullView<'_, R>) -> Result<Self, ShapeError> {
        let blank = GaussArc {
            direction: Vec3::ZERO,
            cos: R::ZERO,
        };
        let mut arcs = alloc::vec![blank; hull.edges().len()];
        fill_gauss_arcs(hull, &mut arcs)?;
        let sphere = InscribedSphere::of(hull)?;
        let extent = hull
            .vertices()
            .iter()
            .fold(R::ZERO, |m, &v| m.max_of((v - sphere.center).norm()));
        Ok(Self {
            arcs,
            sphere,
            extent,
        })
    }

    /// The arrays, borrowed.
    pub fn arrays(&self) -> SatArrays<'_, R> {
        SatArrays {
            arcs: &self.arcs,
            sphere: self.sphere,
            extent: self.extent,
        }
    }

    /// `hull` with this data, after the checks of [`SatHull::new`] (pass
    /// the hull the data was built from).
    pub fn with_hull<'a>(&'a self, hull: HullView<'a, R>) -> Result<SatHull<'a, R>, ShapeError> {
        SatHull::new(hull, self.arrays())
    }
}
