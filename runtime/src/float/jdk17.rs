//! The digits of the legacy `Double.toString` / `Float.toString` (JDK 8 .. 18).
//!
//! That algorithm is not "shortest digits": it is a Steele & White style digit loop with a
//! symmetric stopping test, a decimal-exponent estimate from a linear log formula, a separate
//! rounding rule for integer values, and 32/64-bit variants whose overflow behaviour and strict
//! vs. non-strict comparisons differ from the exact variant. Every one of those quirks shows up
//! in its output (`2e23` -> `1.9999999999999998E23`), so each is reproduced here:
//!
//! * integers below 2^63 are printed from their exact value, rounded half-up to drop the digits
//!   below the precision of the type (`9.69785E10f` -> `9.6978502E10`);
//! * otherwise digits come from `B / S` with the stopping margin `M` (half an ulp, halved again
//!   at a power of two) using wrapping `i32` or `i64` arithmetic when the bit-size estimates
//!   allow it, exact arithmetic (`u128` or [`BigUint`]) otherwise;
//! * the last digit is rounded up (ties to an even digit) when the loop stopped "high".
//!
//! Running that loop costs far more than the shortest-digit algorithm, and for most values it
//! prints the shortest digits anyway: [`agreement`] proves cheaply, per value, when it does.
use super::bignum::{BigUint, DigitDivisor};
use super::decimal::Decimal;
use super::digits::DecimalDigits;
use super::jdk19::{self, Placed};
use super::text::DecimalText;
use std::cmp::Ordering;

mod agreement;

/// The legacy digits of a value: a decimal (trailing zeros dropped when printed) or its text when
/// they are known without the digit loop, else the loop's digit string (which Java prints as is,
/// trailing zero included).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Legacy {
    Decimal(Decimal),
    Text(DecimalText),
    Digits(DecimalDigits),
}

/// Position of the implicit leading bit of a double's significand.
const SIGNIFICAND_SHIFT: i32 = 52;
/// Binary exponents for which the integer path is tried.
const MAX_SMALL_BIN_EXP: i32 = 62;
// Read only by the assertion below and the tests, which Rust 1.88 does not count as a use.
#[allow(dead_code)]
const MIN_SMALL_BIN_EXP: i32 = -21;
// `is_small_integer` leaves the low end out: integers have `bin_exp >= 0`.
const _: () = assert!(MIN_SMALL_BIN_EXP <= 0);

/// `ceil(log2(5^i))`, as the legacy code sizes its 32/64-bit variants.
const POW5_BITS: [i32; 27] =
    [0, 3, 5, 7, 10, 12, 14, 17, 19, 21, 24, 26, 28, 31, 33, 35, 38, 40, 42, 45, 47, 49, 52, 54, 56, 59, 61];

/// Legacy digits of a finite, non-zero double's magnitude.
#[inline(always)]
pub(crate) fn f64_legacy(bits: u64) -> Legacy {
    let biased_exp = ((bits >> 52) & 0x7ff) as i32;
    let stored = bits & ((1 << 52) - 1);
    if biased_exp == 0 || stored == 0 {
        return f64_legacy_without_shortest(bits);
    }
    // Normal and not a power of two: one precision, and the shortest-digit route applies.
    let shortest = || Some(jdk19::f64_placed(bits));
    legacy_digits(biased_exp - 1023, stored | (1 << SIGNIFICAND_SHIFT), [53, 53], shortest)
}

/// [`f64_legacy`] for subnormals and powers of two, which never take the shortest-digit route:
/// out of line, so the inlined route keeps no precision or condition of theirs.
#[inline(never)]
fn f64_legacy_without_shortest(bits: u64) -> Legacy {
    let biased_exp = ((bits >> 52) & 0x7ff) as i32;
    let mut fraction = bits & ((1 << 52) - 1);
    let (bin_exp, significant_bits) = if biased_exp == 0 {
        // Subnormal: normalise so the leading one sits where the implicit bit would.
        let leading_zeros = fraction.leading_zeros() as i32;
        let shift = leading_zeros - (63 - SIGNIFICAND_SHIFT);
        fraction <<= shift;
        (1 - shift, 64 - leading_zeros)
    } else {
        fraction |= 1 << SIGNIFICAND_SHIFT;
        (biased_exp, SIGNIFICAND_SHIFT + 1)
    };
    legacy_digits(bin_exp - 1023, fraction, [significant_bits, 53], || None)
}

/// Legacy digits of a finite, non-zero float's magnitude (formatted as a float, not widened).
#[inline(always)]
pub(crate) fn f32_legacy(bits: u32) -> Legacy {
    let biased_exp = ((bits >> 23) & 0xff) as i32;
    let stored = bits & ((1 << 23) - 1);
    if biased_exp == 0 || stored == 0 {
        return f32_legacy_without_shortest(bits);
    }
    let shortest = || Some(jdk19::f32_placed(bits));
    legacy_digits(biased_exp - 127, u64::from(stored | (1 << 23)) << 29, [24, 24], shortest)
}

/// As [`f64_legacy_without_shortest`] for floats.
#[inline(never)]
fn f32_legacy_without_shortest(bits: u32) -> Legacy {
    let biased_exp = ((bits >> 23) & 0xff) as i32;
    let mut fraction = bits & ((1 << 23) - 1);
    let (bin_exp, significant_bits) = if biased_exp == 0 {
        let leading_zeros = fraction.leading_zeros() as i32;
        let shift = leading_zeros - 8;
        fraction <<= shift;
        (1 - shift, 32 - leading_zeros)
    } else {
        fraction |= 1 << 23;
        (biased_exp, 24)
    };
    legacy_digits(bin_exp - 127, u64::from(fraction) << 29, [significant_bits, 24], || None)
}

/// The legacy text of a finite, non-zero double's magnitude when it is known without the digit
/// loop (a small integer's, or the JDK 19 decimal the agreement test admits), else `None`: then
/// [`f64_legacy`] gives the digits. The writers inline this and keep the rest out of line, so
/// the common route carries a text in registers, not a [`Legacy`] with its digit buffer.
#[inline(always)]
pub(crate) fn f64_legacy_text(bits: u64) -> Option<DecimalText> {
    let biased_exp = ((bits >> 52) & 0x7ff) as i32;
    let stored = bits & ((1 << 52) - 1);
    if biased_exp == 0 || stored == 0 {
        return None;
    }
    let shortest = || jdk19::f64_placed(bits);
    known_text(biased_exp - 1023, stored | (1 << SIGNIFICAND_SHIFT), 53, shortest)
}

/// As [`f64_legacy_text`] for floats ([`f32_legacy`] for the rest).
#[inline(always)]
pub(crate) fn f32_legacy_text(bits: u32) -> Option<DecimalText> {
    let biased_exp = ((bits >> 23) & 0xff) as i32;
    let stored = bits & ((1 << 23) - 1);
    if biased_exp == 0 || stored == 0 {
        return None;
    }
    let shortest = || jdk19::f32_placed(bits);
    known_text(biased_exp - 127, u64::from(stored | (1 << 23)) << 29, 24, shortest)
}

/// [`f64_legacy`] out of line, for the values [`f64_legacy_text`] leaves open (the writers take
/// its result without passing their sink to a call, which would keep the sink out of registers).
#[cold]
#[inline(never)]
pub(crate) fn f64_legacy_apart(bits: u64) -> Legacy {
    f64_legacy(bits)
}

/// As [`f64_legacy_apart`] for floats.
#[cold]
#[inline(never)]
pub(crate) fn f32_legacy_apart(bits: u32) -> Legacy {
    f32_legacy(bits)
}

/// [`legacy_digits`] for a normal value that is not a power of two, up to the digit loop.
/// A double's common case comes first, integers below 2^53 included (see
/// [`agreement::double_common_text`]): the integer test is then made only for the rest.
#[inline(always)]
fn known_text(bin_exp: i32, fraction: u64, normal_bits: i32, shortest: impl FnOnce() -> Placed) -> Option<DecimalText> {
    if normal_bits <= 24 {
        if is_small_integer(bin_exp, fraction.trailing_zeros() as i32) {
            return small_integer_text(bin_exp, fraction, normal_bits);
        }
        return agreement::float_legacy_text(&shortest(), bin_exp, fraction);
    }
    let placed = shortest();
    match agreement::double_common_text(&placed, bin_exp) {
        (text, true) => Some(text),
        (_, false) if is_small_integer(bin_exp, fraction.trailing_zeros() as i32) => {
            small_integer_text(bin_exp, fraction, normal_bits)
        }
        (text, false) => agreement::double_legacy_text_apart(text, [placed.interior, placed.alone], bin_exp, fraction),
    }
}

/// The text of a value [`is_small_integer`] admits, with `normal_bits` of precision, if its
/// decimal fits the text's frame (a double's above 2^60 may have 18 digits).
#[inline(always)]
fn small_integer_text(bin_exp: i32, fraction: u64, normal_bits: i32) -> Option<DecimalText> {
    let decimal = small_integer_decimal(bin_exp, fraction, normal_bits);
    DecimalText::fits(decimal).then(|| DecimalText::new(decimal, normal_bits <= 24))
}

/// `fraction` has its leading one at bit 52; the value is `fraction * 2^(bin_exp - 52)`.
/// `shortest` gives the JDK 19 decimal for normal values that are not a power of two; those have
/// `normal_bits` of precision (a constant: the agreement test then folds it).
#[inline(always)]
fn legacy_digits(
    bin_exp: i32,
    fraction: u64,
    [significant_bits, normal_bits]: [i32; 2],
    shortest: impl FnOnce() -> Option<Placed>,
) -> Legacy {
    if is_small_integer(bin_exp, fraction.trailing_zeros() as i32) {
        return Legacy::Decimal(small_integer_decimal(bin_exp, fraction, significant_bits));
    }
    // The decimal first: the loop's sizes are then computed after the product, not kept across it.
    if let Some(text) = shortest().and_then(|placed| agreement::legacy_text(&placed, bin_exp, fraction, normal_bits)) {
        return Legacy::Text(text);
    }
    Legacy::Digits(digit_loop(bin_exp, fraction, significant_bits))
}

/// The decimal of a value [`is_small_integer`] admits, with `significant_bits` of precision.
#[inline(always)]
fn small_integer_decimal(bin_exp: i32, fraction: u64, significant_bits: i32) -> Decimal {
    let dropped_digits = if bin_exp > significant_bits { floor_log10_pow2(bin_exp - significant_bits - 1) } else { 0 };
    let integer = if bin_exp >= SIGNIFICAND_SHIFT {
        fraction << (bin_exp - SIGNIFICAND_SHIFT)
    } else {
        fraction >> (SIGNIFICAND_SHIFT - bin_exp)
    };
    integer_decimal(integer, dropped_digits)
}

/// Whether the value with this exponent and these low zero bits of a fraction with its leading
/// one at bit 52 takes the integer path: the loop set-up's `tiny_bits == 0` (no fraction bits
/// below the point), and `bin_exp` in the small range. The former is
/// `bin_exp + tail_zeros >= 52`, and then `bin_exp >= 0`, inside the range at its low end; so the
/// range's high end is the other test, and one sign test takes both.
#[inline(always)]
fn is_small_integer(bin_exp: i32, tail_zeros: i32) -> bool {
    (bin_exp + tail_zeros - SIGNIFICAND_SHIFT) | (MAX_SMALL_BIN_EXP - bin_exp) >= 0
}

/// What the agreement test reads of the digit loop's set-up: the decimal-exponent estimate, the
/// arithmetic chosen, the size estimate of `10 * S`, and the exponents `[m5, m2, s5, s2]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LoopSizes {
    dec_exp: i32,
    width: LoopWidth,
    ten_s_bits: i32,
    exponents: [i32; 4],
}

impl LoopSizes {
    /// The sizes of a non-integer (`tiny_bits > 0`) with `dec_exp >= 0`, normal and not a power
    /// of two: there `B = fraction * 2^b2` with `b2 = significant_bits + 1 - fraction_bits` (the
    /// margin's negative `m2` moved onto B and S), `M = 1` and
    /// `S = 5^dec_exp * 2^(dec_exp - bin_exp + significant_bits)`; B has `significant_bits + 1`
    /// estimated bits.
    #[inline(always)]
    fn direct(dec_exp: i32, bin_exp: i32, significant_bits: i32) -> LoopSizes {
        let s2 = dec_exp - bin_exp + significant_bits;
        let ten_s_bits = s2 + 1 + estimated_pow5_bits(dec_exp + 1);
        let width = if significant_bits + 1 < 32 && ten_s_bits < 32 {
            LoopWidth::I32
        } else if ten_s_bits < 64 {
            LoopWidth::I64
        } else {
            LoopWidth::Exact
        };
        LoopSizes { dec_exp, width, ten_s_bits, exponents: [0, 0, dec_exp, s2] }
    }
}

/// The digit loop, its set-up computed again here: then the inlined route above needs only the
/// few quantities its agreement test reads, in registers, and no set-up kept for this call.
#[cold]
#[inline(never)]
fn digit_loop(bin_exp: i32, fraction: u64, significant_bits: i32) -> DecimalDigits {
    Scaling::new(bin_exp, fraction, significant_bits).generate(fraction >> fraction.trailing_zeros())
}

/// `floor(log10(2^e))`, exact for the small exponents used here.
fn floor_log10_pow2(e: i32) -> i32 {
    ((i64::from(e) * 661_971_961_083) >> 41) as i32
}

/// An integer value: drop `dropped_digits` low digits rounding half up (the writer drops zeros).
fn integer_decimal(mut value: u64, dropped_digits: i32) -> Decimal {
    if dropped_digits != 0 {
        let divisor = 10u64.pow(dropped_digits as u32);
        let residue = value % divisor;
        value /= divisor;
        if residue >= divisor / 2 {
            value += 1;
        }
    }
    Decimal { significand: value, exponent: dropped_digits }
}

/// The exact rational set-up of the digit loop: value = B / S * 10^dec_exp, margin M.
/// Each quantity is kept as `5^pow5 * 2^pow2` (times the fraction for B).
struct Scaling {
    dec_exp: i32,
    fraction_bits: i32,
    b5: i32,
    b2: i32,
    s5: i32,
    s2: i32,
    m5: i32,
    m2: i32,
}

/// The arithmetic the legacy code picks for the digit loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LoopWidth {
    /// Wrapping `int` arithmetic.
    I32,
    /// Wrapping `long` arithmetic.
    I64,
    /// Exact (big integer) arithmetic.
    Exact,
}

impl Scaling {
    #[inline(always)]
    fn new(bin_exp: i32, fraction: u64, significant_bits: i32) -> Scaling {
        let tail_zeros = fraction.trailing_zeros() as i32;
        let fraction_bits = SIGNIFICAND_SHIFT + 1 - tail_zeros;
        let tiny_bits = (fraction_bits - bin_exp - 1).max(0);
        let dec_exp = estimate_dec_exp(fraction, bin_exp);
        let b5 = (-dec_exp).max(0);
        let mut b2 = b5 + tiny_bits + bin_exp - (fraction_bits - 1);
        let s5 = dec_exp.max(0);
        let mut s2 = s5 + tiny_bits;
        let mut m2 = b5 + tiny_bits + bin_exp - significant_bits;
        let common = b2.min(s2);
        b2 -= common;
        s2 -= common;
        m2 -= common;
        if fraction_bits == 1 {
            // Just above a power of two the next lower double is only half as far away.
            m2 -= 1;
        }
        if m2 < 0 {
            b2 -= m2;
            s2 -= m2;
            m2 = 0;
        }
        Scaling { dec_exp, fraction_bits, b5, b2, s5, s2, m5: b5, m2 }
    }

    /// The sizes the agreement test reads.
    fn sizes(&self) -> LoopSizes {
        let exponents = [self.m5, self.m2, self.s5, self.s2];
        LoopSizes { dec_exp: self.dec_exp, width: self.loop_width(), ten_s_bits: self.ten_s_bits(), exponents }
    }

    /// The legacy choice, from its size estimates of B and 10*S.
    #[inline(always)]
    fn loop_width(&self) -> LoopWidth {
        let b_bits = self.fraction_bits + self.b2 + estimated_pow5_bits(self.b5);
        let ten_s_bits = self.ten_s_bits();
        if b_bits < 32 && ten_s_bits < 32 {
            LoopWidth::I32
        } else if b_bits < 64 && ten_s_bits < 64 {
            LoopWidth::I64
        } else {
            LoopWidth::Exact
        }
    }

    /// The legacy size estimate of `10 * S`; `10 * S` is below `2^ten_s_bits` (`5^n` is never a
    /// power of two for `n >= 1`, and `3n` bits exceed it).
    fn ten_s_bits(&self) -> i32 {
        self.s2 + 1 + estimated_pow5_bits(self.s5 + 1)
    }

    /// The legacy digit loop (`fraction` without its trailing zeros).
    fn generate(&self, fraction: u64) -> DecimalDigits {
        match self.loop_width() {
            LoopWidth::I32 => return self.generate_i32(fraction),
            LoopWidth::I64 => return self.generate_i64(fraction),
            LoopWidth::Exact => {}
        }
        if self.fits_u128() {
            let five = |exp: i32| 5u128.pow(exp as u32);
            let b = (u128::from(fraction) * five(self.b5)) << self.b2;
            let s = five(self.s5) << self.s2;
            let m10 = five(self.m5 + 1) << (self.m2 + 1);
            let ten_s = five(self.s5 + 1) << (self.s2 + 1);
            return exact_digits(self.dec_exp, b, s, m10, ten_s);
        }
        // M has the same power of five as B, and one of b5, s5 is zero: each power is built once.
        let shifted = |mut value: BigUint, exp2: i32| {
            value.shl(exp2 as u32);
            value
        };
        let b_pow5 = BigUint::from_mul_pow5_pow2(1, self.b5 as u32, 0);
        let mut b = b_pow5;
        b.mul_small(fraction);
        let mut m10 = b_pow5;
        m10.mul_small(5);
        let s_pow5 = BigUint::from_mul_pow5_pow2(1, self.s5 as u32, 0);
        let mut ten_s = s_pow5;
        ten_s.mul_small(5);
        let (b, m10) = (shifted(b, self.b2), shifted(m10, self.m2 + 1));
        let (s, ten_s) = (shifted(s_pow5, self.s2), shifted(ten_s, self.s2 + 1));
        exact_digits(self.dec_exp, b, s, m10, ten_s)
    }

    /// Whether B, 10*M and 10*S are small enough for `u128`, with room for `100 * S`.
    fn fits_u128(&self) -> bool {
        let bits = |exp5: i32, exp2: i32| exp2 + upper_pow5_bits(exp5);
        self.fraction_bits + bits(self.b5, self.b2) <= 124
            && bits(self.m5 + 1, self.m2 + 1) <= 124
            && bits(self.s5 + 1, self.s2 + 1) <= 121
    }
}

/// The legacy size estimate of `5^n` in bits.
fn estimated_pow5_bits(n: i32) -> i32 {
    if n < POW5_BITS.len() as i32 {
        POW5_BITS[n as usize]
    } else {
        n * 3
    }
}

/// [`estimated_pow5_bits`] for `1 <= n < 27` (the legacy table's range), without its table and
/// branches: `5^n` is never a power of two, so its bit count is `floor(n * log2 5) + 1`, and
/// 2378 / 1024 is close enough to log2 5 to floor exactly there.
#[inline(always)]
const fn small_pow5_bits(n: i32) -> i32 {
    ((n * 2378) >> 10) + 1
}

/// An upper bound of the bit length of `5^n` (2378/1024 > log2 5).
fn upper_pow5_bits(n: i32) -> i32 {
    ((n * 2378) >> 10) + 1
}

// The literals of the legacy estimate; `LOG10_2` is a different double.
#[allow(clippy::approx_constant)]
const ESTIMATE_LOG10_2: f64 = 0.301029995663981;
const ESTIMATE_SLOPE: f64 = 0.289529654;
const ESTIMATE_OFFSET: f64 = 0.176091259;

/// The estimate's coefficients in fixed point with 32 fraction bits, rounded.
const FIXED_ONE: f64 = (1u64 << 32) as f64;
const FIXED_LOG10_2: i64 = (ESTIMATE_LOG10_2 * FIXED_ONE + 0.5) as i64;
const FIXED_SLOPE: i64 = (ESTIMATE_SLOPE * FIXED_ONE + 0.5) as i64;
const FIXED_OFFSET: i64 = (ESTIMATE_OFFSET * FIXED_ONE + 0.5) as i64;
/// Bound of the fixed-point estimate's error, in units of 2^-32: under 2 from the truncated
/// significand and the shift, 1 from the rounded slope and offset, 550 from `1100 * log10(2)`
/// rounded; the double evaluation itself is off by less than 2^-40.
const FIXED_MARGIN: i64 = 1024;

/// The legacy estimate of `floor(log10(value))`: a linear fit of log10 of the significand plus
/// `bin_exp * log10(2)`, floored after double arithmetic. It can be one too high; the digit loop
/// then drops a leading zero.
///
/// Evaluated in fixed point: a chain of integer multiplies and adds is several times shorter
/// than the double one with its conversions. Its floor is the double's unless the fixed-point
/// value lies within its error bound of an integer, which happens for about one value in two
/// million; those take the double evaluation.
#[inline(always)]
fn estimate_dec_exp(fraction: u64, bin_exp: i32) -> i32 {
    let fixed = fixed_estimate(fraction, bin_exp);
    if (FIXED_MARGIN..=(1 << 32) - FIXED_MARGIN).contains(&(fixed & ((1 << 32) - 1))) {
        (fixed >> 32) as i32
    } else {
        double_estimate_dec_exp(fraction, bin_exp)
    }
}

/// The estimate before flooring, in units of 2^-32 (`fraction` as for [`estimate_dec_exp`]).
#[inline(always)]
fn fixed_estimate(fraction: u64, bin_exp: i32) -> i64 {
    let fraction_32 = ((fraction & ((1 << 52) - 1)) >> 20) as i64;
    (((fraction_32 - (1 << 31)) * FIXED_SLOPE) >> 32) + FIXED_OFFSET + i64::from(bin_exp) * FIXED_LOG10_2
}

/// The legacy estimate evaluated as the legacy code does, in double arithmetic.
#[cold]
#[inline(never)]
fn double_estimate_dec_exp(fraction: u64, bin_exp: i32) -> i32 {
    let significand = f64::from_bits((1023u64 << 52) | (fraction & ((1 << 52) - 1)));
    let estimate = (significand - 1.5) * ESTIMATE_SLOPE + ESTIMATE_OFFSET + f64::from(bin_exp) * ESTIMATE_LOG10_2;
    // `floor` without a libm call: |estimate| < 400, so the truncation is exact.
    let truncated = estimate as i32;
    truncated - i32::from(f64::from(truncated) > estimate)
}

/// Generates the wrapping 32-bit and 64-bit digit loops. The comparisons are strict here and a
/// margin that overflowed to a non-positive value stops the loop, as in the legacy code.
macro_rules! fixed_width_generator {
    ($name:ident, $int:ty) => {
        impl Scaling {
            fn $name(&self, fraction: u64) -> DecimalDigits {
                let pow5 = |exp: i32| (5 as $int).wrapping_pow(exp as u32);
                let mut b = (fraction as $int).wrapping_mul(pow5(self.b5)).wrapping_shl(self.b2 as u32);
                let s = pow5(self.s5).wrapping_shl(self.s2 as u32);
                let mut m = pow5(self.m5).wrapping_shl(self.m2 as u32);
                let ten_s = s.wrapping_mul(10);
                if s <= 0 {
                    // Unreachable with the size checks above; keeps division panic-free.
                    return DecimalDigits::empty();
                }
                let mut digits = DecimalDigits::empty();
                let mut dec_exp = self.dec_exp;
                let mut q = b / s;
                b = (b % s).wrapping_mul(10);
                m = m.wrapping_mul(10);
                let mut low = b < m;
                let mut high = b.wrapping_add(m) > ten_s;
                if q == 0 && !high {
                    dec_exp -= 1;
                } else {
                    digits.push_digit(q as i64);
                }
                if !(-3..8).contains(&dec_exp) {
                    // Scientific notation always shows a second digit.
                    low = false;
                    high = false;
                }
                while !low && !high && !digits.is_full() {
                    q = b / s;
                    b = (b % s).wrapping_mul(10);
                    m = m.wrapping_mul(10);
                    if m > 0 {
                        low = b < m;
                        high = b.wrapping_add(m) > ten_s;
                    } else {
                        low = true;
                        high = true;
                    }
                    digits.push_digit(q as i64);
                }
                let low_digit_difference = b.wrapping_shl(1).wrapping_sub(ten_s);
                let tie_order = (low_digit_difference as i64).cmp(&0);
                finish(digits, dec_exp, low, high, tie_order)
            }
        }
    };
}

fixed_width_generator!(generate_i32, i32);
fixed_width_generator!(generate_i64, i64);

/// The exact-arithmetic operations the digit loop needs.
trait ExactInteger: Copy {
    /// A divisor prepared for repeated [`ExactInteger::next_digit`] calls.
    type Divisor;
    fn prepare_divisor(&self) -> Self::Divisor;
    /// Returns `floor(self / divisor)` (a digit) and leaves `10 * (self mod divisor)` in `self`.
    fn next_digit(&mut self, divisor: &Self::Divisor) -> i64;
    fn times_ten(&mut self);
    fn compare(&self, other: &Self) -> Ordering;
    fn sum_compare(&self, addend: &Self, bound: &Self) -> Ordering;
    fn doubled_compare(&self, other: &Self) -> Ordering;
}

impl ExactInteger for u128 {
    /// `[8, 4, 2, 1]` times the divisor: the quotient is found bit by bit.
    type Divisor = [u128; 4];
    fn prepare_divisor(&self) -> [u128; 4] {
        [*self << 3, *self << 2, *self << 1, *self]
    }
    fn next_digit(&mut self, multiples: &[u128; 4]) -> i64 {
        let mut quotient = 0;
        for (weight, multiple) in [8, 4, 2, 1].into_iter().zip(multiples) {
            if *self >= *multiple {
                *self -= *multiple;
                quotient += weight;
            }
        }
        *self *= 10;
        quotient
    }
    fn times_ten(&mut self) {
        *self *= 10;
    }
    fn compare(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }
    fn sum_compare(&self, addend: &Self, bound: &Self) -> Ordering {
        (*self + *addend).cmp(bound)
    }
    fn doubled_compare(&self, other: &Self) -> Ordering {
        (*self << 1).cmp(other)
    }
}

impl ExactInteger for BigUint {
    type Divisor = DigitDivisor;
    fn prepare_divisor(&self) -> DigitDivisor {
        DigitDivisor::new(*self)
    }
    fn next_digit(&mut self, divisor: &DigitDivisor) -> i64 {
        BigUint::next_digit(self, divisor) as i64
    }
    fn times_ten(&mut self) {
        self.mul_small(10);
    }
    fn compare(&self, other: &Self) -> Ordering {
        BigUint::compare(self, other)
    }
    fn sum_compare(&self, addend: &Self, bound: &Self) -> Ordering {
        BigUint::sum_compare(self, addend, bound)
    }
    fn doubled_compare(&self, other: &Self) -> Ordering {
        let mut doubled = *self;
        doubled.shl(1);
        BigUint::compare(&doubled, other)
    }
}

/// The exact digit loop. Unlike the fixed-width loops, "high" is a non-strict comparison here.
fn exact_digits<T: ExactInteger>(mut dec_exp: i32, mut b: T, s: T, mut m10: T, ten_s: T) -> DecimalDigits {
    let divisor = s.prepare_divisor();
    let mut digits = DecimalDigits::empty();
    let q = b.next_digit(&divisor);
    let mut low = b.compare(&m10) == Ordering::Less;
    let mut high = b.sum_compare(&m10, &ten_s) != Ordering::Less;
    if q == 0 && !high {
        dec_exp -= 1;
    } else {
        digits.push_digit(q);
    }
    if !(-3..8).contains(&dec_exp) {
        low = false;
        high = false;
    }
    while !low && !high && !digits.is_full() {
        let q = b.next_digit(&divisor);
        m10.times_ten();
        low = b.compare(&m10) == Ordering::Less;
        high = b.sum_compare(&m10, &ten_s) != Ordering::Less;
        digits.push_digit(q);
    }
    let tie_order = if high && low { b.doubled_compare(&ten_s) } else { Ordering::Equal };
    finish(digits, dec_exp, low, high, tie_order)
}

/// Sets the decimal point and rounds the last digit by how the loop stopped.
fn finish(mut digits: DecimalDigits, dec_exp: i32, low: bool, high: bool, tie_order: Ordering) -> DecimalDigits {
    digits.point = dec_exp + 1;
    if high {
        let round_up =
            !low || tie_order == Ordering::Greater || (tie_order == Ordering::Equal && digits.last_digit_is_odd());
        if round_up {
            round_up_last_digit(&mut digits);
        }
    }
    digits
}

/// Adds one to the last digit. Trailing nines become zeros and stay in the digit string; a carry
/// out of the first digit turns it into `1` and moves the point.
fn round_up_last_digit(digits: &mut DecimalDigits) {
    let Some(mut index) = digits.len.checked_sub(1) else {
        return;
    };
    while digits.bytes[index] == b'9' && index > 0 {
        digits.bytes[index] = b'0';
        index -= 1;
    }
    if digits.bytes[index] == b'9' {
        digits.bytes[0] = b'1';
        digits.point += 1;
    } else {
        digits.bytes[index] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The legacy integer path's text of an integer double, by [`legacy_digits`].
    fn integer_path_text(bits: u64) -> Vec<u8> {
        let Legacy::Decimal(decimal) = f64_legacy(bits) else {
            panic!("{} took no integer path", f64::from_bits(bits));
        };
        let mut out = Vec::new();
        crate::float::text::write_decimal_text(&mut out, false, decimal, false);
        out
    }

    /// Integers below 2^53 may take a double's common case before the integer test: its text is
    /// then the integer path's (and larger ones must not). Every integer up to 2^20, and scattered
    /// ones in each binade above up to 2^63.
    #[test]
    fn integer_doubles_print_as_the_integer_path_on_the_common_route() {
        let scattered = (20..63)
            .flat_map(|binade| (0..20_000).map(move |index| (1u64 << binade) + (index * 0x9E37_79B9) % (1 << binade)));
        for integer in (1..=1u64 << 20).chain(scattered) {
            let bits = (integer as f64).to_bits();
            if let Some(text) = f64_legacy_text(bits) {
                let mut out = Vec::new();
                text.write(&mut out, false);
                assert_eq!(out, integer_path_text(bits), "{integer}");
            }
        }
    }

    #[test]
    fn pow5_bit_table_is_ceil_log2() {
        for (n, &bits) in POW5_BITS.iter().enumerate() {
            let exact = 128 - 5u128.pow(n as u32).leading_zeros() as i32;
            let ceil = if n == 0 { 0 } else { exact };
            assert_eq!(bits, ceil, "5^{n}");
        }
    }

    #[test]
    fn floor_log10_pow2_matches_repeated_division() {
        for e in 0..64 {
            let mut value = 1u64 << e;
            let mut count = 0;
            while value >= 10 {
                value /= 10;
                count += 1;
            }
            assert_eq!(floor_log10_pow2(e), count, "2^{e}");
        }
    }

    /// The fixed-point estimate against the double one, over every exponent of a double or float,
    /// on scattered significands and across each point where the estimate steps.
    #[test]
    fn fixed_point_estimate_is_the_double_estimate() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut fallbacks = 0;
        for bin_exp in -1080..=1030 {
            let mut fractions: Vec<u64> = (0..200u64).map(|i| i << 45).collect();
            for _ in 0..200 {
                state ^= state >> 12;
                state ^= state << 25;
                state ^= state >> 27;
                fractions.push(state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 12);
            }
            // Where the double estimate steps, found by bisection on the significand.
            let (mut low, mut high) = (0u64, (1 << 52) - 1);
            if double_estimate_dec_exp(low, bin_exp) != double_estimate_dec_exp(high, bin_exp) {
                while high - low > 1 {
                    let middle = (low + high) / 2;
                    if double_estimate_dec_exp(middle, bin_exp) == double_estimate_dec_exp(low, bin_exp) {
                        low = middle;
                    } else {
                        high = middle;
                    }
                }
                // Across the fallback band (about 2^32 significand steps each side) and out of it.
                fractions.extend((low.saturating_sub(1 << 34)..(low + (1 << 34)).min(1 << 52)).step_by(1 << 22));
                fractions.extend(low.saturating_sub(64)..(high + 64).min(1 << 52));
            }
            for fraction in fractions {
                let fixed = estimate_dec_exp(fraction | (1 << 52), bin_exp);
                assert_eq!(fixed, double_estimate_dec_exp(fraction, bin_exp), "{fraction:x} * 2^{bin_exp}");
                let below_one = fixed_estimate(fraction, bin_exp) & ((1 << 32) - 1);
                fallbacks += usize::from(!(FIXED_MARGIN..=(1 << 32) - FIXED_MARGIN).contains(&below_one));
            }
        }
        assert!(fallbacks > 0, "the double evaluation was never taken");
    }

    /// The direct sizes against the full set-up's, for the normal values (not powers of two) they
    /// serve: random bit patterns and short readings, doubles and floats.
    #[test]
    fn direct_sizes_are_the_set_up_sizes() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut direct = 0;
        for index in 0..400_000u64 {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            let bits = state.wrapping_mul(0x2545_F491_4F6C_DD1D);
            let double = if index % 2 == 0 {
                f64::from_bits(bits >> 1)
            } else {
                ((bits >> 16) % 100_000) as f64 * 10f64.powi((bits % 12) as i32 - 6)
            };
            let (double_bits, float_bits) = (double.to_bits(), (double as f32).to_bits());
            let cases = [
                ((double_bits >> 52) as i32 - 1023, double_bits & ((1 << 52) - 1), 53),
                ((float_bits >> 23) as i32 - 127, u64::from(float_bits & ((1 << 23) - 1)) << 29, 24),
            ];
            for (bin_exp, stored, significant_bits) in cases {
                if stored == 0 || !(-126..=1023).contains(&bin_exp) || (significant_bits == 24 && bin_exp > 127) {
                    continue;
                }
                let fraction = stored | (1 << 52);
                let fraction_bits = SIGNIFICAND_SHIFT + 1 - fraction.trailing_zeros() as i32;
                let tiny_bits = (fraction_bits - bin_exp - 1).max(0);
                if tiny_bits == 0 && (MIN_SMALL_BIN_EXP..=MAX_SMALL_BIN_EXP).contains(&bin_exp) {
                    continue;
                }
                let full = Scaling::new(bin_exp, fraction, significant_bits).sizes();
                if tiny_bits > 0 && full.dec_exp >= 0 {
                    let sizes = LoopSizes::direct(full.dec_exp, bin_exp, significant_bits);
                    assert_eq!(sizes, full, "{fraction:x} * 2^{bin_exp}, {significant_bits} bits");
                    direct += 1;
                }
            }
        }
        assert!(direct > 100_000, "the direct form was checked {direct} times");
    }

    #[test]
    fn small_integer_test_is_its_definition() {
        for bin_exp in -1100..=1100 {
            for tail_zeros in 0..=SIGNIFICAND_SHIFT {
                let tiny_bits = (SIGNIFICAND_SHIFT + 1 - tail_zeros - bin_exp - 1).max(0);
                let expected = tiny_bits == 0 && (MIN_SMALL_BIN_EXP..=MAX_SMALL_BIN_EXP).contains(&bin_exp);
                assert_eq!(is_small_integer(bin_exp, tail_zeros), expected, "2^{bin_exp}, {tail_zeros} zeros");
            }
        }
    }

    #[test]
    fn small_pow5_bits_is_the_legacy_estimate() {
        for n in 1..POW5_BITS.len() as i32 {
            assert_eq!(small_pow5_bits(n), estimated_pow5_bits(n), "5^{n}");
        }
    }

    #[test]
    fn upper_pow5_bits_is_an_upper_bound() {
        for n in 0..=55 {
            let exact = 128 - 5u128.pow(n as u32).leading_zeros() as i32;
            assert!(upper_pow5_bits(n) >= exact, "5^{n}");
        }
    }
}
