//! Test helpers shared by mink's crates (never a dependency of a library).
//!
//! A seeded, dependency-free RNG ([`Rng`], SplitMix64) so every randomized
//! test is reproducible from its seed, and generators for what collision
//! tests need: unit directions (plus the awkward ones: axis-aligned, zero,
//! non-finite), uniform rotations, poses, and point clouds.
//!
//! Note for crate authors: a library's *unit* tests (`#[cfg(test)]` inside
//! `src/`) see a different copy of the library than this crate links, so use
//! it from integration tests (`tests/*.rs`).

use mink_support::{Iso3, Mat3, Quat, Real, Vec3};

/// SplitMix64: a tiny, fast, well-mixed 64-bit generator. Deterministic for a
/// given seed on every platform.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Self {
            state: seed ^ 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, with 53 random bits.
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range_f64(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit_f64()
    }

    /// Uniform in `[lo, hi)` as scalar `R`.
    pub fn range<R: Real>(&mut self, lo: f64, hi: f64) -> R {
        R::lit(self.range_f64(lo, hi))
    }

    /// Uniform integer in `[0, n)` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit_f64() < p
    }

    /// A standard normal deviate (Box–Muller).
    pub fn normal_f64(&mut self) -> f64 {
        let u1 = self.unit_f64().max(f64::MIN_POSITIVE);
        let u2 = self.unit_f64();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }

    /// A uniformly distributed unit vector.
    pub fn unit_vec<R: Real>(&mut self) -> Vec3<R> {
        loop {
            let v = Vec3::new(self.normal_f64(), self.normal_f64(), self.normal_f64());
            let n = v.norm();
            if n > 1e-9 {
                return (v / n).cast();
            }
        }
    }

    /// A vector with components uniform in `[-half, half]`.
    pub fn in_cube<R: Real>(&mut self, half: f64) -> Vec3<R> {
        Vec3::new(
            self.range(-half, half),
            self.range(-half, half),
            self.range(-half, half),
        )
    }

    /// A uniformly distributed rotation (Shoemake's method).
    pub fn quat<R: Real>(&mut self) -> Quat<R> {
        let (u1, u2, u3) = (self.unit_f64(), self.unit_f64(), self.unit_f64());
        let tau = 2.0 * std::f64::consts::PI;
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        let q = Quat::from_wxyz(
            b * (tau * u3).cos(),
            a * (tau * u2).sin(),
            a * (tau * u2).cos(),
            b * (tau * u3).sin(),
        );
        q.cast()
    }

    /// A uniformly distributed rotation matrix.
    pub fn rotation<R: Real>(&mut self) -> Mat3<R> {
        self.quat::<f64>().to_mat3().cast()
    }

    /// A random pose: uniform rotation, translation uniform in a cube of
    /// half-size `half`.
    pub fn pose<R: Real>(&mut self, half: f64) -> Iso3<R> {
        Iso3::from_parts(self.rotation(), self.in_cube(half))
    }

    /// A random direction for support tests: mostly uniform unit vectors of
    /// random length, and sometimes the awkward ones (axis-aligned, diagonal,
    /// tiny, huge).
    pub fn direction<R: Real>(&mut self) -> Vec3<R> {
        match self.below(10) {
            0 => {
                let axis = self.below(3);
                let s = if self.chance(0.5) { 1.0 } else { -1.0 };
                let mut a = [0.0; 3];
                a[axis] = s;
                Vec3::from_array(a).cast()
            }
            1 => {
                let s = |r: &mut Rng| if r.chance(0.5) { 1.0 } else { -1.0 };
                Vec3::new(s(self), s(self), s(self)).cast()
            }
            2 => self.unit_vec::<R>() * R::lit(1e-6),
            3 => self.unit_vec::<R>() * R::lit(1e6),
            _ => self.unit_vec::<R>() * self.range(0.1, 10.0),
        }
    }

    /// `n` points uniform in a ball of radius `radius`.
    pub fn points_in_ball<R: Real>(&mut self, n: usize, radius: f64) -> Vec<Vec3<R>> {
        (0..n)
            .map(|_| {
                let r = radius * self.unit_f64().cbrt();
                self.unit_vec::<R>() * R::lit(r)
            })
            .collect()
    }

    /// `n` points uniform on a sphere of radius `radius`.
    pub fn points_on_sphere<R: Real>(&mut self, n: usize, radius: f64) -> Vec<Vec3<R>> {
        (0..n)
            .map(|_| self.unit_vec::<R>() * R::lit(radius))
            .collect()
    }
}

/// Directions every support function must survive: zero, non-finite and
/// signed zeros. A support call on these must return a finite point of the
/// shape.
pub fn hostile_directions<R: Real>() -> Vec<Vec3<R>> {
    let nan = R::nan();
    let inf = R::INFINITY;
    vec![
        Vec3::ZERO,
        Vec3::new(-R::ZERO, -R::ZERO, -R::ZERO),
        Vec3::new(nan, R::ONE, R::ZERO),
        Vec3::splat(nan),
        Vec3::new(inf, R::ZERO, R::ZERO),
        Vec3::new(-inf, inf, R::ZERO),
        Vec3::splat(R::MAX),
        Vec3::splat(R::min_positive_value()),
    ]
}

/// Instantiates a test body for `f32` and `f64`: `for_each_real!(name, body)`
/// where `body` names a generic fn `fn body<R: Real>()` in the calling module,
/// generating the tests `name::f32` and `name::f64`.
#[macro_export]
macro_rules! for_each_real {
    ($name:ident, $body:ident, ignore = $why:literal) => {
        mod $name {
            #[test]
            #[ignore = $why]
            fn f32() {
                super::$body::<f32>();
            }
            #[test]
            #[ignore = $why]
            fn f64() {
                super::$body::<f64>();
            }
        }
    };
    ($name:ident, $body:ident) => {
        mod $name {
            #[test]
            fn f32() {
                super::$body::<f32>();
            }
            #[test]
            fn f64() {
                super::$body::<f64>();
            }
        }
    };
}

/// The minimum over `s ∈ [0, 1]` of a convex function `f`, by 200 steps of
/// golden-section search, then the ends: within about `1e-40` of the
/// minimizing `s`. For references that must share no code with the
/// algorithm under test (the distance between two segments is convex in
/// the parameter along one of them).
pub fn min_convex_on_unit_interval(f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let m1 = lo + (hi - lo) * 0.382;
        let m2 = lo + (hi - lo) * 0.618;
        if f(m1) < f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    f(0.5 * (lo + hi)).min(f(0.0)).min(f(1.0))
}

/// Writes `value` as JSON, reads it back, asserts the two are equal, and
/// returns the text: a serde round trip in one call (panics, naming the
/// text, when they differ).
pub fn json_round_trip<T>(value: &T) -> String
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + core::fmt::Debug,
{
    let text = serde_json::to_string(value).expect("serializable");
    let back: T = serde_json::from_str(&text).expect("readable");
    assert_eq!(&back, value, "{text}");
    text
}
