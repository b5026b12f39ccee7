//! Turning fuzz bytes into values, and values back into bytes (for the seed
//! corpus).
//!
//! A scalar is one tag byte then a payload. Tags below [`SPECIAL_TAG`] give a
//! *moderate* value, `m / 256 * 2^e` from a 16-bit `m` and an exponent `e`
//! in `[-12, 11]` (magnitudes up to about 5e5 and down to about 1e-6), so
//! that most inputs are shapes of sensible size. Tags from [`SPECIAL_TAG`]
//! on give the awkward values (zeros, infinities, NaN, the largest and
//! smallest floats, raw bit patterns) that every query must survive.

use mink_support::{Real, Vec3};

/// Tags at or above this select a special value (see [`SPECIALS`]).
pub const SPECIAL_TAG: u8 = 240;

/// Number of exponents a moderate tag can select.
const EXPONENTS: u8 = 24;

/// The special values, by `tag - SPECIAL_TAG`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// `0`.
    Zero,
    /// `-0`.
    NegZero,
    /// `1`.
    One,
    /// `-1`.
    MinusOne,
    /// Machine epsilon.
    Epsilon,
    /// The smallest positive normal value.
    MinPositive,
    /// A subnormal value.
    Subnormal,
    /// The largest finite value.
    Max,
    /// Minus the largest finite value.
    Min,
    /// `+inf`.
    Infinity,
    /// `-inf`.
    NegInfinity,
    /// NaN.
    NaN,
    /// `1e15`: finite, beyond the moderate range.
    Huge,
    /// `1e-15`.
    Tiny,
    /// A raw bit pattern of the scalar (next 8 bytes; the low 4 for f32).
    Bits,
    /// Same as [`Special::One`] (keeps the table 16 long).
    AlsoOne,
}

/// The special values in tag order.
pub const SPECIALS: [Special; 16] = [
    Special::Zero,
    Special::NegZero,
    Special::One,
    Special::MinusOne,
    Special::Epsilon,
    Special::MinPositive,
    Special::Subnormal,
    Special::Max,
    Special::Min,
    Special::Infinity,
    Special::NegInfinity,
    Special::NaN,
    Special::Huge,
    Special::Tiny,
    Special::Bits,
    Special::AlsoOne,
];

/// Largest magnitude the decoder treats as moderate (2^40 m): products of
/// three such values stay finite in f32.
pub const MODERATE_LIMIT: f64 = 1_099_511_627_776.0;

/// Reads typed values from fuzz bytes; past the end, every byte reads as 0
/// (so every input decodes to something).
#[derive(Clone, Debug)]
pub struct ByteReader<'a> {
    data: &'a [u8],
    pos: usize,
    moderate: bool,
}

impl<'a> ByteReader<'a> {
    /// A reader at the start of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Self {
            data,
            pos: 0,
            moderate: true,
        }
    }

    /// `true` while every scalar read so far was finite with magnitude at
    /// most [`MODERATE_LIMIT`] (and not subnormal).
    pub fn all_moderate(&self) -> bool {
        self.moderate
    }

    /// Counts the input as not moderate from here on (a value the harness
    /// derived was refused, say).
    pub fn mark_hostile(&mut self) {
        self.moderate = false;
    }

    /// The next byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// The next 2 bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// The next 8 bytes, little-endian.
    pub fn u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        for x in &mut b {
            *x = self.u8();
        }
        u64::from_le_bytes(b)
    }

    /// A scalar (see the module docs for the encoding).
    pub fn real<R: Real>(&mut self) -> R {
        let tag = self.u8();
        let x = if tag < SPECIAL_TAG {
            let m = self.u16() as i16;
            let e = i32::from(tag % EXPONENTS) - 12;
            R::lit(f64::from(m) / 256.0 * 2f64.powi(e))
        } else {
            special::<R>(SPECIALS[usize::from(tag - SPECIAL_TAG)], self)
        };
        let magnitude = x.abs().to_f64();
        if !(x.finite() && magnitude <= MODERATE_LIMIT)
            || (magnitude != 0.0 && magnitude < R::min_positive_value().to_f64())
        {
            self.moderate = false;
        }
        x
    }

    /// A vector of three scalars.
    pub fn vec3<R: Real>(&mut self) -> Vec3<R> {
        Vec3::new(self.real(), self.real(), self.real())
    }
}

/// The value of a special tag; reads a payload for [`Special::Bits`].
fn special<R: Real>(s: Special, r: &mut ByteReader<'_>) -> R {
    match s {
        Special::Zero => R::ZERO,
        Special::NegZero => -R::ZERO,
        Special::One | Special::AlsoOne => R::ONE,
        Special::MinusOne => -R::ONE,
        Special::Epsilon => R::EPSILON,
        Special::MinPositive => R::min_positive_value(),
        Special::Subnormal => R::min_positive_value() / R::lit(1024.0),
        Special::Max => R::MAX,
        Special::Min => -R::MAX,
        Special::Infinity => R::INFINITY,
        Special::NegInfinity => -R::INFINITY,
        Special::NaN => R::nan(),
        Special::Huge => R::lit(1e15),
        Special::Tiny => R::lit(1e-15),
        Special::Bits => {
            let bits = r.u64();
            if R::MANTISSA_BITS == 24 {
                R::lit(f64::from(f32::from_bits(bits as u32)))
            } else {
                R::lit(f64::from_bits(bits))
            }
        }
    }
}

/// Writes values in the encoding [`ByteReader`] reads (for seed inputs).
#[derive(Clone, Debug, Default)]
pub struct ByteWriter {
    bytes: Vec<u8>,
}

impl ByteWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// The bytes written so far.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Appends a byte.
    pub fn u8(&mut self, b: u8) -> &mut Self {
        self.bytes.push(b);
        self
    }

    /// Appends a moderate scalar close to `x` (the nearest `m / 256 * 2^e`
    /// with the smallest exponent that fits `m` in 16 bits; `x` is clamped
    /// to the moderate encoding's range).
    pub fn real(&mut self, x: f64) -> &mut Self {
        for tag in 0..EXPONENTS {
            let scale = 2f64.powi(i32::from(tag) - 12) / 256.0;
            let m = (x / scale).round();
            if m.abs() <= f64::from(i16::MAX) {
                self.bytes.push(tag);
                self.bytes.extend_from_slice(&(m as i16).to_le_bytes());
                return self;
            }
        }
        let clamped = if x > 0.0 { i16::MAX } else { i16::MIN };
        self.bytes.push(EXPONENTS - 1);
        self.bytes.extend_from_slice(&clamped.to_le_bytes());
        self
    }

    /// Appends a special value.
    pub fn special(&mut self, s: Special) -> &mut Self {
        let index = SPECIALS.iter().position(|&t| t == s).unwrap_or(0);
        self.bytes.push(SPECIAL_TAG + index as u8);
        self
    }

    /// Appends three moderate scalars.
    pub fn vec3(&mut self, v: [f64; 3]) -> &mut Self {
        self.real(v[0]).real(v[1]).real(v[2])
    }
}
