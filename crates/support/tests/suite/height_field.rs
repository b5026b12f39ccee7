//! The height field: its constructor refuses bad grids, its prisms sit on
//! the samples, and its cell range matches a scan of every cell, in f32 and
//! f64.

use mink_support::{Aabb, HeightField, Real, ShapeError, Vec3};
use mink_testkit::{for_each_real, Rng};

fn lits<R: Real>(values: &[f64]) -> Vec<R> {
    values.iter().map(|&h| R::lit(h)).collect()
}

fn constructor_refuses_bad_grids<R: Real>() {
    let l = R::lit;
    let four = lits::<R>(&[0.0, 1.0, 2.0, 3.0]);
    let six = lits::<R>(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let new = |h: &[R], nx, ny, dx: f64, dy: f64, t: f64| {
        HeightField::new(h, nx, ny, l(dx), l(dy), l(t)).map(|_| ())
    };
    use ShapeError::*;
    assert_eq!(new(&four, 2, 2, 1.0, 1.0, 1.0), Ok(()));
    assert_eq!(
        new(&four, 4, 1, 1.0, 1.0, 1.0),
        Err(TooFewPoints {
            needed: 2,
            given: 1
        })
    );
    assert_eq!(
        new(&six, 2, 2, 1.0, 1.0, 1.0),
        Err(Inconsistent(
            "height field: heights.len() differs from nx * ny"
        ))
    );
    assert_eq!(
        new(&four, usize::MAX, 2, 1.0, 1.0, 1.0),
        Err(Inconsistent(
            "height field: heights.len() differs from nx * ny"
        ))
    );
    assert_eq!(
        new(&four, 2, 2, 0.0, 1.0, 1.0),
        Err(NonPositive("height field spacing dx"))
    );
    assert_eq!(
        new(&four, 2, 2, 1.0, -1.0, 1.0),
        Err(NonPositive("height field spacing dy"))
    );
    assert_eq!(
        new(&four, 2, 2, 1.0, 1.0, 0.0),
        Err(NonPositive("height field thickness"))
    );
    assert_eq!(
        new(&four, 2, 2, f64::NAN, 1.0, 1.0),
        Err(NonFinite("height field spacing dx"))
    );
    let mut bad = four.clone();
    bad[2] = R::nan();
    assert_eq!(
        new(&bad, 2, 2, 1.0, 1.0, 1.0),
        Err(NonFinite("height field height"))
    );
    bad[2] = R::INFINITY;
    assert_eq!(
        new(&bad, 2, 2, 1.0, 1.0, 1.0),
        Err(NonFinite("height field height"))
    );
    // A sliver of a cell: no trustworthy triangle area.
    assert_eq!(
        new(&four, 2, 2, 1.0, 1e-30, 1.0),
        Err(Degenerate("height field cells too thin"))
    );
    // A thickness that rounds away next to the heights.
    let high = lits::<R>(&[1e6, 1e6, 1e6, 1e6]);
    assert_eq!(
        new(&high, 2, 2, 1.0, 1.0, 1e-12),
        Err(Degenerate("height field thickness lost in rounding"))
    );
    // Cells so wide that their triangles' area test overflows, and an
    // extent that overflows.
    assert_eq!(
        new(&four, 2, 2, R::MAX.to_f64(), 1.0, 1.0),
        Err(Degenerate("height field cells too thin"))
    );
    let many = vec![R::ZERO; 6];
    assert_eq!(
        new(&many, 3, 2, R::MAX.to_f64(), 1.0, 1.0),
        Err(Degenerate("height field extent overflows"))
    );
}
for_each_real!(constructor_refuses_bad_grids, constructor_refuses_bad_grids);

/// A random field of `nx × ny` samples with spacings in `[0.2, 2]`.
fn random_heights<R: Real>(rng: &mut Rng, nx: usize, ny: usize) -> (Vec<R>, R, R) {
    let heights = (0..nx * ny).map(|_| rng.range::<R>(-1.0, 1.0)).collect();
    (heights, rng.range(0.2, 2.0), rng.range(0.2, 2.0))
}

fn prisms_sit_on_the_samples<R: Real>() {
    let mut rng = Rng::new(11);
    for _ in 0..50 {
        let (nx, ny) = (2 + rng.below(6), 2 + rng.below(6));
        let (heights, dx, dy) = random_heights::<R>(&mut rng, nx, ny);
        let thickness = rng.range::<R>(0.1, 3.0);
        let field = HeightField::new(&heights, nx, ny, dx, dy, thickness).unwrap();
        let at = |i: usize, j: usize| {
            Vec3::new(
                R::lit(i as f64) * dx,
                R::lit(j as f64) * dy,
                heights[j * nx + i],
            )
        };
        let lowest = heights.iter().fold(R::INFINITY, |m, &h| m.min(h));
        let highest = heights.iter().fold(-R::INFINITY, |m, &h| m.max(h));
        assert_eq!(field.base(), lowest - thickness);
        assert_eq!(field.min_height(), lowest);
        assert_eq!(field.max_height(), highest);
        let bounds = field.local_aabb();
        for j in 0..ny - 1 {
            for i in 0..nx - 1 {
                let [a, b] = field.cell_prisms(i, j).expect("every cell has prisms");
                assert_eq!(a.top(), [at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
                assert_eq!(b.top(), [at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
                assert_eq!(a.base(), field.base());
                for p in a.vertices().into_iter().chain(b.vertices()) {
                    assert!(bounds.contains_point(p), "{p:?} outside {bounds:?}");
                }
            }
        }
        assert_eq!(field.cell_prisms(nx - 1, 0), None);
        assert_eq!(field.cell_prisms(0, ny - 1), None);
        assert_eq!(field.height(nx, 0), None);
        assert_eq!(field.sample(nx - 1, ny - 1), Some(at(nx - 1, ny - 1)));
    }
}
for_each_real!(prisms_sit_on_the_samples, prisms_sit_on_the_samples);

fn cell_range_matches_a_scan<R: Real>() {
    let mut rng = Rng::new(12);
    let (mut hits, mut total) = (0, 0);
    for _ in 0..400 {
        let (nx, ny) = (2 + rng.below(8), 2 + rng.below(8));
        let (heights, dx, dy) = random_heights::<R>(&mut rng, nx, ny);
        let field = HeightField::new(&heights, nx, ny, dx, dy, R::ONE).unwrap();
        for _ in 0..20 {
            // Boxes around the grid; some snapped to sample lines so the
            // closed-interval ties are exercised.
            let mut corner = |extent: f64, spacing: R| {
                let v = rng.range::<R>(-2.0, extent + 2.0);
                if rng.chance(0.3) {
                    (v / spacing).round() * spacing
                } else {
                    v
                }
            };
            let (wx, wy) = (dx.to_f64() * (nx - 1) as f64, dy.to_f64() * (ny - 1) as f64);
            let (x0, x1) = (corner(wx, dx), corner(wx, dx));
            let (y0, y1) = (corner(wy, dy), corner(wy, dy));
            let (z0, z1) = (rng.range::<R>(-3.0, 2.0), rng.range::<R>(-3.0, 2.0));
            let aabb = Aabb::new(
                Vec3::new(x0.min(x1), y0.min(y1), z0.min(z1)),
                Vec3::new(x0.max(x1), y0.max(y1), z0.max(z1)),
            );
            let (is, js) = field.cell_range(&aabb);
            let z_meets = aabb.min.z <= field.max_height() && aabb.max.z >= field.base();
            for j in 0..ny - 1 {
                for i in 0..nx - 1 {
                    let x_meets = R::lit(i as f64) * dx <= aabb.max.x
                        && R::lit((i + 1) as f64) * dx >= aabb.min.x;
                    let y_meets = R::lit(j as f64) * dy <= aabb.max.y
                        && R::lit((j + 1) as f64) * dy >= aabb.min.y;
                    let expected = x_meets && y_meets && z_meets;
                    assert_eq!(
                        is.contains(&i) && js.contains(&j),
                        expected,
                        "cell ({i}, {j}) of {nx}x{ny}, dx {dx:?} dy {dy:?}, box {aabb:?}"
                    );
                    hits += usize::from(expected);
                    total += 1;
                }
            }
        }
    }
    let rate = hits as f64 / total as f64;
    assert!((0.2..0.8).contains(&rate), "hit rate {rate}");
}
for_each_real!(cell_range_matches_a_scan, cell_range_matches_a_scan);

fn cell_range_refuses_nan_and_empty<R: Real>() {
    let heights = lits::<R>(&[0.0, 0.0, 0.0, 0.0]);
    let field = HeightField::new(&heights, 2, 2, R::ONE, R::ONE, R::ONE).unwrap();
    let empty = (0..0, 0..0);
    let l = R::lit;
    let v = |x: f64| Vec3::splat(R::lit(x));
    let (lo, hi) = (
        Vec3::new(l(0.2), l(0.2), l(-0.5)),
        Vec3::new(l(0.8), l(0.8), l(0.5)),
    );
    assert_eq!(field.cell_range(&Aabb::new(lo, hi)), (0..1, 0..1));
    assert_eq!(field.cell_range(&Aabb::new(hi, lo)), empty);
    assert_eq!(field.cell_range(&Aabb::new(v(-0.5), v(f64::NAN))), empty);
    assert_eq!(field.cell_range(&Aabb::EMPTY), empty);
    let huge = Aabb::new(Vec3::splat(-R::MAX), Vec3::splat(R::MAX));
    assert_eq!(field.cell_range(&huge), (0..1, 0..1));
    // Above the highest sample: nothing, whatever the footprint.
    let above = Aabb::new(Vec3::new(R::ZERO, R::ZERO, v(0.1).z), v(1.0));
    assert_eq!(field.cell_range(&above), empty);
}
for_each_real!(
    cell_range_refuses_nan_and_empty,
    cell_range_refuses_nan_and_empty
);
