//! How a ray meets a height field: the terrain is the union of its cells'
//! prisms, so the ray walks the cells under its path, one cell's width of
//! its horizontal run at a time, and casts against each cell's two prisms
//! in closed form ([`cell_chord`]: the walls between cells are not surface).

use super::chord::{aabb_chord, inside};
use super::terrain_prism::{cell_chord, CellChord};
use mink_gjk::{Ray, RayCast, RayStatus};
use mink_support::{Aabb, HeightField, Iso3, Real, Vec3};

/// Round-off allowed where a ray crosses from one prism into the next,
/// in units of `R::EPSILON` times the scale of the query (the origin's
/// distance and the terrain's size), over the direction's length.
const SEAM_EPS: f64 = 64.0;

/// Casts `ray` (world frame) against the height field `field` at `pose`
/// (field frame to world), as [`ray_cast`](super::ray_cast) does against a
/// convex body: the first `t` in `[0, max_toi]` where `ray.at(t)` enters
/// the terrain solid (the prisms under the grid's triangles, down to
/// [`HeightField::base`]), that point and the terrain's unit outward
/// normal there, world frame ([`RayStatus::Hit`]). `t` is in units of the
/// ray direction's length.
///
/// A ray starting inside the terrain gives [`RayStatus::Inside`] when
/// `solid`, else the point where it leaves the solid (through the top
/// surface, a side of the grid or the base). A ray passing off the grid
/// misses. The cost is a few prisms per cell under the ray's path between
/// where it enters and leaves the terrain's box. A non-finite pose, an
/// invalid ray or a negative or NaN `max_toi` gives
/// [`RayStatus::NonFinite`]; never panics.
///
/// ```
/// use mink::ray::{height_field_ray_cast, Ray, RayStatus};
/// use mink::support::{HeightField, Iso3, Vec3};
///
/// // A 2 × 2 m flat terrain at height 0.5 m, a ray straight down onto it.
/// let heights = [0.5_f64; 9];
/// let field = HeightField::new(&heights, 3, 3, 1.0, 1.0, 1.0).unwrap();
/// let ray = Ray::new(Vec3::new(0.7, 1.2, 3.0), -Vec3::Z);
/// let hit = height_field_ray_cast(&field, &Iso3::IDENTITY, &ray, 10.0, true);
/// assert_eq!(hit.status, RayStatus::Hit);
/// assert!((hit.toi - 2.5).abs() < 1e-12);
/// assert!((hit.normal - Vec3::Z).norm() < 1e-12);
/// ```
pub fn height_field_ray_cast<R: Real>(
    field: &HeightField<'_, R>,
    pose: &Iso3<R>,
    ray: &Ray<R>,
    max_toi: R,
    solid: bool,
) -> RayCast<R> {
    if !pose.is_finite() || !ray.is_valid() || !(max_toi >= R::ZERO) {
        return RayCast::non_finite();
    }
    let local = ray.to_local(pose);
    let (o, d) = (local.origin, local.dir);
    let bounds = field.local_aabb();
    let Some(span) = aabb_chord(&bounds, o, d) else {
        return RayCast::miss();
    };
    if !(span.exit >= R::ZERO) {
        return RayCast::miss();
    }
    let walk = Walk::new(field, &bounds, o, d, span.enter.max_of(R::ZERO), span.exit);
    let found = match walk.first_entry(max_toi) {
        First::Inside if solid => {
            return inside(ray);
        }
        First::Inside => walk.exit(),
        First::Enters(t, n) => Some((t, n)),
        First::Nothing => None,
    };
    match found {
        Some((toi, normal)) if toi <= max_toi => RayCast {
            toi,
            point: ray.at(toi),
            normal: pose.rotation * normal,
            iterations: 0,
            status: RayStatus::Hit,
        },
        _ => RayCast::miss(),
    }
}

/// What the walk finds first along the ray.
enum First<R> {
    /// The origin lies in a prism.
    Inside,
    /// The ray enters the terrain at `t`, through the face of this
    /// outward normal (field frame).
    Enters(R, Vec3<R>),
    /// Neither, up to where the walk stopped.
    Nothing,
}

/// The ray's path over the grid, cut into pieces one cell wide (along its
/// horizontal run) between `start` and `end` (the terrain box's chord).
struct Walk<'f, 'h, R> {
    field: &'f HeightField<'h, R>,
    o: Vec3<R>,
    d: Vec3<R>,
    start: R,
    end: R,
    /// The ray parameter across one cell's smaller side; infinite for a
    /// vertical ray (one piece).
    step: R,
    /// Round-off in `t` where prisms meet, and its length in meters.
    seam: R,
    pad: R,
    /// The grid's footprint: min x, min y, max x, max y (field frame).
    footprint: [R; 4],
}

impl<'f, 'h, R: Real> Walk<'f, 'h, R> {
    fn new(
        field: &'f HeightField<'h, R>,
        bounds: &Aabb<R>,
        o: Vec3<R>,
        d: Vec3<R>,
        start: R,
        end: R,
    ) -> Self {
        let run = (d.x * d.x + d.y * d.y).sqrt();
        let cell = field.dx().min_of(field.dy());
        let step = if run > R::ZERO {
            cell / run
        } else {
            R::INFINITY
        };
        let scale = o.norm() + bounds.min.norm() + bounds.max.norm();
        let pad = R::EPSILON * R::lit(SEAM_EPS) * scale;
        Self {
            field,
            o,
            d,
            start,
            end,
            step,
            seam: pad / d.norm(),
            pad,
            footprint: [bounds.min.x, bounds.min.y, bounds.max.x, bounds.max.y],
        }
    }

    /// The pieces `[ta, tb]` from `from` on, in order, up to `until`.
    fn pieces(&self, from: R, until: R) -> impl Iterator<Item = (R, R)> + '_ {
        let until = until.min_of(self.end);
        let mut ta = from;
        core::iter::from_fn(move || {
            if !(ta <= until) {
                return None;
            }
            let next = ta + self.step;
            // A step lost to rounding (or a vertical ray): the rest at once.
            let tb = if next > ta { next.min_of(until) } else { until };
            let piece = (ta, tb);
            ta = if tb >= until { R::INFINITY } else { tb };
            Some(piece)
        })
    }

    /// Calls `visit` with the chord of every prism of the cells under the
    /// piece `[ta, tb]` of the ray that the ray's line meets.
    fn chords(&self, (ta, tb): (R, R), mut visit: impl FnMut(CellChord<R>)) {
        let (pa, pb) = (self.o + self.d * ta, self.o + self.d * tb);
        // A line within `√ε` in angle of a wall is inside or outside it as
        // a whole, by the origin's side ([`cell_chord`]), while it drifts
        // by up to that angle times its distance from the origin: the cells
        // on the origin's side of such a wall are visited too (once in
        // f32, a ray 0.02° off a wall between columns drifted past it, and
        // the cells it was counted in were never visited).
        let drift = R::sqrt_epsilon() * self.d.norm() * ta.abs().max_of(tb.abs());
        let pad = Vec3::splat(self.pad + drift);
        let probe = Aabb::new(pa.min(pb) - pad, pa.max(pb) + pad);
        let (columns, rows) = self.field.cell_range(&probe);
        for j in rows {
            for i in columns.clone() {
                let Some(prisms) = self.field.cell_prisms(i, j) else {
                    continue;
                };
                for prism in &prisms {
                    if let Some(c) = cell_chord(prism, Some(self.footprint), self.o, self.d) {
                        visit(c);
                    }
                }
            }
        }
    }

    /// The first entry into a prism at `t` in `[start, max_toi]`, or
    /// `Inside` when a prism holds the origin.
    fn first_entry(&self, max_toi: R) -> First<R> {
        let mut best: Option<(R, Vec3<R>, bool)> = None;
        for piece in self.pieces(self.start, max_toi) {
            let mut inside = false;
            self.chords(piece, |c| {
                let chord = c.chord;
                if !(chord.exit >= R::ZERO) {
                    return;
                }
                if chord.enter <= R::ZERO {
                    inside = true;
                } else if best.is_none_or(|(t, _, _)| chord.enter < t) {
                    let n = chord.enter_normal.at(self.o, self.d, chord.enter);
                    best = Some((chord.enter, n, c.enters_inner));
                }
            });
            if inside {
                return First::Inside;
            }
            // Prisms of later pieces lie past this one's end.
            if let Some((t, n, inner)) = best {
                if t <= piece.1 {
                    return self.entry(t, n, inner);
                }
            }
        }
        best.map_or(First::Nothing, |(t, n, inner)| self.entry(t, n, inner))
    }

    /// The first entry, at `t` through the face `n` of a prism: an entry
    /// through a wall between cells with no surface face there is the
    /// ray's coming from the neighbour, which held the point just before;
    /// at the ray's start (within the seam) that is an origin on the wall,
    /// inside the terrain (the neighbour's chord ended a few ulps before
    /// the origin: an origin on a cell's diagonal wall, 0.8 mm inside a
    /// 1 cm terrain, was answered a hit at `t` 2e-18).
    fn entry(&self, t: R, n: Vec3<R>, inner: bool) -> First<R> {
        match self.surface_normal(t, n, inner, -R::ONE) {
            None if t <= self.seam => First::Inside,
            found => First::Enters(t, found.unwrap_or(n)),
        }
    }

    /// From an origin inside the terrain: where the ray leaves it, and the
    /// outward normal there, following it from prism to prism across
    /// shared sides (within the seam's round-off).
    fn exit(&self) -> Option<(R, Vec3<R>)> {
        let mut out = (R::ZERO, Vec3::ZERO);
        let mut inner = false;
        // How far past `out.0` the next prism may start and still be the
        // one the ray passes into: the seam, or the round-off of the last
        // exit where the ray left its prism at a grazing angle.
        let mut reach = self.seam;
        for piece in self.pieces(R::ZERO, R::INFINITY) {
            if out.0 > piece.1 {
                continue;
            }
            loop {
                let before = out.0;
                self.chords(piece, |c| {
                    let chord = c.chord;
                    if chord.enter <= out.0 + reach && chord.exit > out.0 {
                        out = (chord.exit, chord.exit_normal.at(self.o, self.d, chord.exit));
                        inner = c.exits_inner;
                        reach = self.seam.max_of(c.exit_slack);
                    }
                });
                if !(out.0 > before) {
                    break;
                }
            }
            if out.0 <= piece.1 {
                break;
            }
        }
        let (t, n) = out;
        (t > R::ZERO || n != Vec3::ZERO)
            .then(|| (t, self.surface_normal(t, n, inner, R::ONE).unwrap_or(n)))
    }

    /// The terrain's outward normal where the ray meets its surface at
    /// `t`, found through the face `n` of a prism: `n` itself, unless that
    /// face is a wall between two cells (`inner`: the ray crossed it by
    /// round-off at an edge it shares with the surface, such as the foot
    /// of an inner wall on the grid's outer wall, or a column of several
    /// cells' corners). Then the surface face through the point within the
    /// round-off, met in the direction `sign` (negative: entering): an
    /// outer wall, the base, or the top triangle above the point; `None`
    /// when there is none.
    fn surface_normal(&self, t: R, n: Vec3<R>, inner: bool, sign: R) -> Option<Vec3<R>> {
        if !inner {
            return Some(n);
        }
        let p = self.o + self.d * t;
        let near = R::lit(4.0) * self.pad;
        let [x0, y0, x1, y1] = self.footprint;
        let base = self.field.base();
        let flat = [
            (p.x - x0, -Vec3::X),
            (x1 - p.x, Vec3::X),
            (p.y - y0, -Vec3::Y),
            (y1 - p.y, Vec3::Y),
            (p.z - base, -Vec3::Z),
        ];
        let faces_the_ray = |m: Vec3<R>| m.dot(self.d) * sign > R::ZERO;
        if let Some(&(_, m)) = flat
            .iter()
            .find(|&&(gap, m)| gap.abs() <= near && faces_the_ray(m))
        {
            return Some(m);
        }
        // The top triangle over the point, if the point is on it.
        let probe = Aabb::new(p - Vec3::splat(near), p + Vec3::splat(near));
        let (columns, rows) = self.field.cell_range(&probe);
        for j in rows {
            for i in columns.clone() {
                for prism in self.field.cell_prisms(i, j).into_iter().flatten() {
                    let [a, b, c] = prism.top();
                    let up = (b - a).cross(c - a).normalize_or(Vec3::Z);
                    let up = if up.z < R::ZERO { -up } else { up };
                    if over([a, b, c], p, near) && up.dot(p - a).abs() <= near && faces_the_ray(up)
                    {
                        return Some(up);
                    }
                }
            }
        }
        None
    }
}

/// `true` when the point `p` lies over the triangle `t` (seen from above,
/// either winding), within `near` meters of it.
fn over<R: Real>(t: [Vec3<R>; 3], p: Vec3<R>, near: R) -> bool {
    let side = |a: Vec3<R>, b: Vec3<R>| {
        let (ex, ey) = (b.x - a.x, b.y - a.y);
        (
            ex * (p.y - a.y) - ey * (p.x - a.x),
            (ex * ex + ey * ey).sqrt(),
        )
    };
    let sides = [side(t[0], t[1]), side(t[1], t[2]), side(t[2], t[0])];
    let area = (t[1].x - t[0].x) * (t[2].y - t[0].y) - (t[1].y - t[0].y) * (t[2].x - t[0].x);
    let sign = if area < R::ZERO { -R::ONE } else { R::ONE };
    sides.iter().all(|&(s, len)| s * sign >= -near * len)
}
