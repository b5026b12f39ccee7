//! A user-defined shape joins the shape enum through its `U` parameter and
//! gets every pair, without editing any mink crate.

use mink::support::{
    Aabb, Capsule, Cuboid, HalfSpace, Iso3, Pair, Real, Rounded, Sphere, Support, Vec3,
};
use mink::{dispatch_pair, PairVisitor, Shape};
use mink_testkit::{for_each_real, Rng};

/// The user's own rounded box, written here from scratch: a box core of
/// half-extents `half` swept by `radius`.
#[derive(Clone, Copy, Debug)]
struct MyRoundedBox<R> {
    half: Vec3<R>,
    radius: R,
}

impl<R: Real> Support<R> for MyRoundedBox<R> {
    type Hint = ();
    const POLYTOPE: bool = true;

    fn support(&self, dir: Vec3<R>, _hint: &mut ()) -> Vec3<R> {
        let s = |d: R, h: R| if d >= R::ZERO { h } else { -h };
        Vec3::new(
            s(dir.x, self.half.x),
            s(dir.y, self.half.y),
            s(dir.z, self.half.z),
        )
    }

    fn inflation(&self) -> R {
        self.radius
    }
}

/// The largest separation over a fixed fan of directions: a lower bound on
/// the distance, computed from support points only.
struct SeparationLowerBound<R: Real> {
    pose_a: Iso3<R>,
    pose_b: Iso3<R>,
    directions: Vec<Vec3<R>>,
}

impl<R: Real> PairVisitor<R> for SeparationLowerBound<R> {
    type Output = R;
    fn convex<A: Support<R>, B: Support<R>>(self, a: &A, b: &B) -> R {
        let mut pair = Pair::new(a, &self.pose_a, b, &self.pose_b);
        let mut best = -R::INFINITY;
        for d in &self.directions {
            let s = pair.support(*d);
            best = best.max_of(-s.w.dot(*d) - pair.inflation());
        }
        best
    }

    fn half_space<S: Support<R>>(self, plane: &HalfSpace<R>, other: &S, plane_is_a: bool) -> R {
        let (plane_pose, other_pose) = if plane_is_a {
            (self.pose_a, self.pose_b)
        } else {
            (self.pose_b, self.pose_a)
        };
        let world = plane.transformed(&plane_pose).unwrap();
        world.deepest_point(other, &other_pose).unwrap().distance
    }

    fn half_spaces(self, _: &HalfSpace<R>, _: &HalfSpace<R>) -> R {
        -R::INFINITY
    }
}

fn custom_shape_matches_builtin<R: Real>() {
    let mut rng = Rng::new(7);
    let directions: Vec<Vec3<R>> = (0..64).map(|_| rng.unit_vec()).collect();
    let half = Vec3::new(R::lit(0.4), R::lit(0.2), R::lit(0.3));
    let radius = R::lit(0.05);
    let mine: Shape<'_, R, MyRoundedBox<R>> = Shape::Custom(MyRoundedBox { half, radius });
    let builtin: Shape<'_, R, MyRoundedBox<R>> = Rounded::new(Cuboid::new(half).unwrap(), radius)
        .unwrap()
        .into();
    let others: [Shape<'_, R, MyRoundedBox<R>>; 4] = [
        Sphere::new(R::lit(0.3)).unwrap().into(),
        Capsule::new(R::lit(0.1), R::lit(0.5)).unwrap().into(),
        Cuboid::new(Vec3::splat(R::lit(0.25))).unwrap().into(),
        Shape::Custom(MyRoundedBox {
            half: Vec3::splat(R::lit(0.1)),
            radius: R::lit(0.02),
        }),
    ];
    let tol = R::EPSILON * R::lit(64.0);
    let mut checked = 0;
    for _ in 0..200 {
        let pose_a = rng.pose::<R>(1.0);
        let pose_b = rng.pose::<R>(1.0);
        for other in &others {
            for (x, y) in [(&mine, other), (other, &mine)] {
                let builtin_pair = if core::ptr::eq(x, &mine) {
                    (&builtin, y)
                } else {
                    (x, &builtin)
                };
                let q = |a: &Shape<'_, R, MyRoundedBox<R>>, b: &Shape<'_, R, MyRoundedBox<R>>| {
                    dispatch_pair(
                        a,
                        b,
                        SeparationLowerBound {
                            pose_a,
                            pose_b,
                            directions: directions.clone(),
                        },
                    )
                };
                let via_custom = q(x, y);
                let via_builtin = q(builtin_pair.0, builtin_pair.1);
                assert!(
                    (via_custom - via_builtin).abs() <= tol * (R::ONE + via_builtin.abs()),
                    "custom {via_custom} vs built-in {via_builtin}"
                );
                checked += 1;
            }
        }
        // The enum's AABB goes through the user's support (default impl).
        let aabb_custom: Aabb<R> = mine.world_aabb(&pose_a);
        let aabb_builtin = builtin.world_aabb(&pose_a);
        assert!((aabb_custom.min - aabb_builtin.min).max_abs() <= tol * R::lit(4.0));
        assert!((aabb_custom.max - aabb_builtin.max).max_abs() <= tol * R::lit(4.0));
        assert_eq!(mine.inflation(), builtin.inflation());
    }
    assert_eq!(checked, 200 * 4 * 2);
    assert_eq!(mine.name(), "custom");
}

for_each_real!(custom_shape_through_the_enum, custom_shape_matches_builtin);
