//! Decoded [`mink::Shape`]s, poses and margins, and the oracles the
//! umbrella crate's targets (`umbrella_queries`, `contact_manifold`,
//! `scene_step`) share: each shape's reach along a direction, from its own
//! support function (or the plane, for a half-space), and the certificates
//! built from it.
//!
//! Shape layout (reading past the end gives zeros, so every input decodes):
//!
//! | bytes | meaning |
//! |---|---|
//! | 1 | kind, modulo [`SHAPE_KINDS`]: point, sphere, box, capsule, segment, rounded box, ellipsoid, cylinder, cone, triangle, terrain prism, hull, half-space (the order of `mink::shape_list!`, then the half-space) |
//! | 1 | flags: bits 0–1 the scale (1, 1, 1/100 or 30: huge and tiny shapes meet), bit 2 a flat shape (third size × 1/100), bit 3 a hull of a box's corners (faces flat within the decoded jitter) |
//! | 6 | three sizes, 2 bytes each, 0.02 to 2 m before the scale |
//! | 1 + 6 per point | triangle, prism (3 points) and hull (4 to 12 points): each coordinate within its size |
//! | 6 | half-space only: its normal (3 × 2 bytes) |
//!
//! Poses come in pairs ([`decode_poses`]), biased to the hard cases:
//! coincident, touching along a direction (the two supporting planes made
//! to meet, then moved apart or together by a decoded 0, 1e-7, 1e-4 or
//! 1e-2 of the size), nested, and near-parallel faces (B turned from A by
//! 1e-5 to 1e-2 rad and put face to face).

use super::bytes::ByteReader;
use mink::support::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Ellipsoid, HalfSpace, Iso3, Mat3, Point, Quat,
    Real, Rounded, Segment, Sphere, Support, TerrainPrism, Triangle, Vec3,
};
use mink::{Body, Shape};

/// Number of shape kinds [`decode_shape`] knows: the twelve convex shapes
/// of `mink::shape_list!` and the half-space.
pub const SHAPE_KINDS: u8 = 13;

/// The kind number of the half-space.
pub const HALF_SPACE_KIND: u8 = 12;

/// Most points of a decoded hull.
pub const MAX_HULL_POINTS: usize = 12;

/// Relative tolerance of the umbrella targets' checks, as a fraction of
/// the scene's size ([`ShapeSpec::extent`] of the shapes plus the poses'
/// offsets): `1e-6 + 16_000 ε`, so 1e-6 in f64 (the algorithms' own
/// tolerances are far below: GJK's is `1e-2 √ε`, EPA's 6e-8, MPR's
/// `1000 ε`) and about 1.9e-3 in f32, where products of a few
/// roundings of a 1 m-scale scene and MPR's `1000 ε` portal tolerance sit.
pub fn rel_tol<R: Real>() -> f64 {
    1e-6 + 16_000.0 * R::EPSILON.to_f64()
}

/// A length in `[lo, hi]` from two bytes.
pub fn length(r: &mut ByteReader<'_>, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * f64::from(r.u16()) / f64::from(u16::MAX)
}

/// A point of the cube `[-1, 1]³` from three decoded lengths (six bytes).
pub fn in_unit_cube(r: &mut ByteReader<'_>) -> Vec3<f64> {
    Vec3::new(
        length(r, -1.0, 1.0),
        length(r, -1.0, 1.0),
        length(r, -1.0, 1.0),
    )
}

/// A decoded shape's parameters, owning what a [`Shape`] borrows (a hull).
#[derive(Clone, Debug)]
pub struct ShapeSpec<R: Real> {
    /// The kind, below [`SHAPE_KINDS`].
    pub kind: u8,
    size: [f64; 3],
    points: Vec<Vec3<R>>,
    normal: Vec3<R>,
    hull: Option<ConvexHull<R>>,
}

/// A unit-ish vector from three decoded lengths in `[-1, 1]`, `fallback`
/// when they are all near zero.
fn direction(r: &mut ByteReader<'_>, fallback: Vec3<f64>) -> Vec3<f64> {
    let v = in_unit_cube(r);
    if v.norm() < 1e-3 {
        fallback
    } else {
        v.normalize_or(fallback)
    }
}

/// Decodes one shape; `None` when a constructor refuses the decoded
/// parameters (a degenerate hull or triangle).
pub fn decode_shape<R: Real>(r: &mut ByteReader<'_>) -> Option<ShapeSpec<R>> {
    let kind = r.u8() % SHAPE_KINDS;
    let flags = r.u8();
    let scale = [1.0, 1.0, 0.01, 30.0][usize::from(flags & 3)];
    let mut size = [
        length(r, 0.02, 2.0) * scale,
        length(r, 0.02, 2.0) * scale,
        length(r, 0.02, 2.0) * scale,
    ];
    if flags & 4 != 0 {
        size[2] *= 0.01;
    }
    let [x, y, z] = size;
    let v = |a: f64, b: f64, c: f64| Vec3::new(R::lit(a), R::lit(b), R::lit(c));
    let within = |r: &mut ByteReader<'_>| v(length(r, -x, x), length(r, -y, y), length(r, -z, z));
    let mut points = Vec::new();
    let mut normal = Vec3::Z;
    let mut hull = None;
    match kind {
        9 | 10 => points = (0..3).map(|_| within(r)).collect(),
        11 => {
            let n = 4 + usize::from(r.u8()) % (MAX_HULL_POINTS - 3);
            if flags & 8 != 0 {
                // A box's corners, each moved by a decoded jitter of up to
                // 1e-4 of its size: faces flat only within that.
                for i in 0..8 {
                    let c = |bit: usize, h: f64| if i & bit != 0 { h } else { -h };
                    let j = within(r).cast::<f64>() * 1e-4;
                    points.push(v(c(1, x) + j.x, c(2, y) + j.y, c(4, z) + j.z));
                }
            }
            points.extend((0..n).map(|_| within(r)));
            hull = Some(ConvexHull::from_points(&points).ok()?);
        }
        HALF_SPACE_KIND => normal = direction(r, Vec3::Z).cast(),
        _ => {}
    }
    let spec = ShapeSpec {
        kind,
        size,
        points,
        normal,
        hull,
    };
    spec.shape()?;
    Some(spec)
}

impl<R: Real> ShapeSpec<R> {
    /// The shape, or `None` when its constructor refuses the parameters.
    pub fn shape(&self) -> Option<Shape<'_, R>> {
        let [x, y, z] = self.size;
        let v = |a: f64, b: f64, c: f64| Vec3::new(R::lit(a), R::lit(b), R::lit(c));
        let p = &self.points;
        Some(match self.kind {
            0 => Shape::Point(Point),
            1 => Shape::Sphere(Sphere::new(R::lit(x)).ok()?),
            2 => Shape::Cuboid(Cuboid::new(v(x, y, z)).ok()?),
            3 => Shape::Capsule(Capsule::new(R::lit(x), R::lit(y)).ok()?),
            4 => Shape::Segment(Segment::new(v(-x, 0.0, 0.0), v(x, y, z)).ok()?),
            5 => Shape::RoundedCuboid(
                Rounded::new(Cuboid::new(v(x, y, z)).ok()?, R::lit(0.25 * z)).ok()?,
            ),
            6 => Shape::Ellipsoid(Ellipsoid::new(v(x, y, z)).ok()?),
            7 => Shape::Cylinder(Cylinder::new(R::lit(x), R::lit(y)).ok()?),
            8 => Shape::Cone(Cone::new(R::lit(x), R::lit(y)).ok()?),
            9 => Shape::Triangle(Triangle::new(p[0], p[1], p[2]).ok()?),
            10 => {
                let low = p.iter().map(|q| q.z).fold(R::INFINITY, |a, b| a.min_of(b));
                Shape::TerrainPrism(TerrainPrism::new([p[0], p[1], p[2]], low - R::lit(z)).ok()?)
            }
            11 => Shape::Hull(self.hull.as_ref()?.view()),
            _ => Shape::HalfSpace(HalfSpace::new(self.normal, R::lit(0.5 * x - 0.5)).ok()?),
        })
    }

    /// An upper bound on the distance of the shape's points from its
    /// origin (meters, inflation included); for a half-space, the distance
    /// of its plane from the origin.
    pub fn extent(&self) -> f64 {
        let [x, y, z] = self.size;
        if self.kind == HALF_SPACE_KIND {
            (0.5 * x - 0.5).abs()
        } else {
            2.0 * (x + y + z)
        }
    }

    /// `true` for the half-space.
    pub fn is_half_space(&self) -> bool {
        self.kind == HALF_SPACE_KIND
    }
}

/// The support value of a [`Support`] shape at `pose` along the world unit
/// direction `n`: `max over the shape (inflation included) of n · x`.
fn support_reach<R: Real, S: Support<R>>(s: &S, pose: &Iso3<R>, n: Vec3<f64>) -> f64 {
    let nr: Vec3<R> = n.cast();
    let mut hint = S::Hint::default();
    let local = s.support(pose.rotation.transpose_mul(nr), &mut hint);
    n.dot(pose.transform_point(local).cast()) + s.inflation().to_f64()
}

/// How close (as a cosine) a direction must be to a half-space's outward
/// normal for its reach to be the plane's offset rather than infinite.
/// The checks pass the normal itself (from [`Placed::plane`]), so only
/// rounding separates them: 1e-14, about 1.4e-7 rad. Along any other
/// direction the reach is infinite, however close: with 1e-9 (4.5e-5 rad)
/// a grid direction nearly along a plane's normal was taken for it and
/// gave an "overlap" 6.9e-5 m below a hull's exact depth on that plane
/// (f64; `fuzz/corpus/umbrella_queries/regress-plane-near-normal-grid`).
const PLANE_COS: f64 = 1.0 - 1e-14;

/// A half-space's outward normal and offset in the world, in f64.
pub fn world_plane<R: Real>(h: &HalfSpace<R>, pose: &Iso3<R>) -> (Vec3<f64>, f64) {
    let n = pose.transform_vector(h.normal()).cast::<f64>();
    let n = n.normalize_or(Vec3::Z);
    let offset = h.offset().to_f64() + n.dot(pose.translation.cast());
    (n, offset)
}

macro_rules! define_shape_reach {
    ($( $(#[$doc:meta])* $variant:ident($ty:ty) = $name:literal, )*) => {
        /// The reach of `shape` at `pose` along the world unit direction
        /// `n` (meters, no margin): `max over the shape of n · x`, from its
        /// support function; for a half-space its offset along its own
        /// normal and `+inf` along any other direction.
        pub fn shape_reach<R: Real>(shape: &Shape<'_, R>, pose: &Iso3<R>, n: Vec3<f64>) -> f64 {
            match shape {
                $( Shape::$variant(s) => support_reach(s, pose, n), )*
                Shape::Custom(c) => match *c {},
                Shape::HalfSpace(h) => {
                    let (normal, offset) = world_plane(h, pose);
                    if n.dot(normal) >= PLANE_COS {
                        offset
                    } else {
                        f64::INFINITY
                    }
                }
            }
        }
    };
}

mink::shape_list!(define_shape_reach);

/// The 26 directions of a 3×3×3 grid's non-centre points, normalized.
pub fn grid_directions() -> impl Iterator<Item = Vec3<f64>> {
    (0..27).filter(|&i| i != 13).map(|i| {
        Vec3::new(
            (i % 3) as f64 - 1.0,
            ((i / 3) % 3) as f64 - 1.0,
            (i / 9) as f64 - 1.0,
        )
        .normalize_or(Vec3::X)
    })
}

/// A shape placed in the world with a margin: what the oracles measure.
#[derive(Clone, Copy, Debug)]
pub struct Placed<'s, 'a, R: Real> {
    /// The shape.
    pub shape: &'s Shape<'a, R>,
    /// Shape frame to world.
    pub pose: Iso3<R>,
    /// The margin inflating it, meters.
    pub margin: R,
}

impl<'s, 'a, R: Real> Placed<'s, 'a, R> {
    /// The body of the query API: the shape at its pose with its margin.
    pub fn body(&self) -> Body<'s, 'a, R> {
        Body::new(self.shape, self.pose).with_margin(self.margin)
    }

    /// `max over the inflated shape of n · x` for a world unit `n`.
    pub fn reach(&self, n: Vec3<f64>) -> f64 {
        shape_reach(self.shape, &self.pose, n) + self.margin.to_f64()
    }

    /// The half-space's world outward normal and offset (margin
    /// included), or `None` for a bounded shape.
    pub fn plane(&self) -> Option<(Vec3<f64>, f64)> {
        match self.shape {
            Shape::HalfSpace(h) => {
                let (n, o) = world_plane(h, &self.pose);
                Some((n, o + self.margin.to_f64()))
            }
            _ => None,
        }
    }

    /// The directions the containment test looks along: the 26 grid
    /// directions in the world and in the shape's frame (a box's face
    /// normals among them).
    pub fn probe_directions(&self) -> impl Iterator<Item = Vec3<f64>> + '_ {
        let rot = self.pose.rotation.cast::<f64>();
        grid_directions().chain(grid_directions().map(move |d| rot.mul_vec(d)))
    }

    /// `true` when `p` lies within `tol` of the inflated shape along every
    /// probe direction (an outer bound of the shape; exact for a box and
    /// a half-space).
    pub fn contains(&self, p: Vec3<f64>, tol: f64) -> bool {
        if let Some((n, o)) = self.plane() {
            return n.dot(p) <= o + tol;
        }
        self.probe_directions()
            .all(|m| m.dot(p) <= self.reach(m) + tol)
    }
}

/// The overlap of A and B along the world unit direction `n` (A to B):
/// `reach_A(n) + reach_B(-n)`, positive when their shadows on the line
/// overlap; moving B by that much along `n` separates them. Minus the gap
/// along `n` when they are apart along it.
pub fn overlap_along<R: Real>(a: &Placed<'_, '_, R>, b: &Placed<'_, '_, R>, n: Vec3<f64>) -> f64 {
    a.reach(n) + b.reach(-n)
}

/// The directions the sampled upper bound on the depth looks along: the
/// grid directions in the world and in both shapes' frames, and the
/// half-spaces' normals (the only directions with a finite overlap).
pub fn sample_directions<R: Real>(a: &Placed<'_, '_, R>, b: &Placed<'_, '_, R>) -> Vec<Vec3<f64>> {
    let mut dirs: Vec<Vec3<f64>> = a.probe_directions().collect();
    dirs.extend(b.probe_directions().skip(26));
    if let Some((n, _)) = a.plane() {
        dirs.push(n);
    }
    if let Some((n, _)) = b.plane() {
        dirs.push(-n);
    }
    dirs
}

/// The smallest overlap of A and B over [`sample_directions`]: an upper
/// bound on the penetration depth (the depth is the smallest overlap over
/// all directions).
pub fn sampled_depth_bound<R: Real>(a: &Placed<'_, '_, R>, b: &Placed<'_, '_, R>) -> f64 {
    sample_directions(a, b)
        .into_iter()
        .map(|m| overlap_along(a, b, m))
        .fold(f64::INFINITY, f64::min)
}

/// A pose: a translation within `±reach` m and, unless a byte's low two
/// bits are zero, a rotation from a normalized decoded quaternion.
pub fn decode_pose<R: Real>(r: &mut ByteReader<'_>, reach: f64) -> Iso3<R> {
    let t = Vec3::new(
        R::lit(length(r, -reach, reach)),
        R::lit(length(r, -reach, reach)),
        R::lit(length(r, -reach, reach)),
    );
    Iso3::from_parts(decode_rotation(r), t)
}

/// A rotation: identity when a byte's low two bits are zero, else a
/// normalized decoded quaternion.
pub fn decode_rotation<R: Real>(r: &mut ByteReader<'_>) -> Mat3<R> {
    if r.u8() & 3 == 0 {
        return Mat3::IDENTITY;
    }
    let mut c = || R::lit(length(r, -1.0, 1.0));
    let q = Quat::from_wxyz(c(), c(), c(), c())
        .normalize()
        .unwrap_or(Quat::IDENTITY);
    Iso3::from_quat(Vec3::ZERO, q)
        .map(|p| p.rotation)
        .unwrap_or(Mat3::IDENTITY)
}

/// How [`decode_poses`] placed the pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Two independent poses.
    Independent,
    /// The same pose.
    Coincident,
    /// Supporting planes made to meet along a direction, then moved by a
    /// small decoded offset.
    Touching,
    /// B's origin near A's.
    Nested,
    /// B turned slightly from A and put face to face along one of A's axes.
    NearParallel,
}

/// Decodes the poses of A and B (one byte picks the [`Placement`]), with
/// their margins already known: `a` and `b` are placed with a dummy pose,
/// which this replaces. `unit` is the pair's size (meters).
pub fn decode_poses<R: Real>(
    r: &mut ByteReader<'_>,
    a: &mut Placed<'_, '_, R>,
    b: &mut Placed<'_, '_, R>,
    unit: f64,
) -> Placement {
    let mode = r.u8() % 8;
    a.pose = decode_pose(r, unit);
    match mode {
        0 | 1 => {
            b.pose = decode_pose(r, 2.0 * unit);
            Placement::Independent
        }
        2 => {
            b.pose = a.pose;
            Placement::Coincident
        }
        5 => {
            let rot = decode_rotation::<R>(r);
            let off = Vec3::new(
                length(r, -0.1, 0.1),
                length(r, -0.1, 0.1),
                length(r, -0.1, 0.1),
            ) * unit;
            b.pose = Iso3::from_parts(rot, a.pose.translation + off.cast());
            Placement::Nested
        }
        _ => {
            let near_parallel = mode == 7;
            let rot = if near_parallel {
                let axis = direction(r, Vec3::X);
                let angle = [1e-5, 1e-4, 1e-3, 1e-2][usize::from(r.u8() % 4)];
                Mat3::from_axis_angle(axis.cast(), R::lit(angle)).mul_mat(&a.pose.rotation)
            } else if r.u8() & 1 == 0 {
                a.pose.rotation
            } else {
                decode_rotation(r)
            };
            // The direction: one of A's local axes (face to face), or a
            // decoded one; along a half-space's normal when there is one.
            let pick = r.u8();
            let local = if near_parallel || pick & 1 == 0 {
                let axes = [Vec3::X, Vec3::Y, Vec3::Z];
                let s = if pick & 2 == 0 { 1.0 } else { -1.0 };
                axes[usize::from(pick >> 2) % 3] * s
            } else {
                direction(r, Vec3::X)
            };
            let mut u = a.pose.rotation.cast::<f64>().mul_vec(local);
            if let Some((n, _)) = a.plane() {
                u = n;
            } else if let Some((n, _)) = b.plane() {
                u = -n;
            }
            let gap = [0.0, 1e-7, -1e-7, 1e-4, -1e-4, 1e-2, -1e-2, 0.0][usize::from(r.u8() % 8)];
            let lateral = Vec3::new(
                length(r, -0.5, 0.5),
                length(r, -0.5, 0.5),
                length(r, -0.5, 0.5),
            ) * unit;
            let lateral = lateral - u * lateral.dot(u);
            // B at the origin with its rotation: its reach along -u there.
            b.pose = Iso3::from_parts(rot, Vec3::ZERO);
            let rb = b.reach(-u);
            let ra = a.reach(u);
            let along = if ra.is_finite() && rb.is_finite() {
                ra + rb + gap * unit
            } else {
                gap * unit
            };
            b.pose = Iso3::from_parts(rot, (u * along + lateral).cast());
            if near_parallel {
                Placement::NearParallel
            } else {
                Placement::Touching
            }
        }
    }
}

/// A margin for a body of size `unit`: 0 (half the time), 1e-3, 0.05 or
/// 0.3 of the size.
pub fn decode_margin(r: &mut ByteReader<'_>, unit: f64) -> f64 {
    let b = r.u8();
    match b % 8 {
        0..=3 => 0.0,
        4 => 1e-3 * unit,
        5 | 6 => 0.05 * unit,
        _ => 0.3 * unit,
    }
}
