//! When the legacy digit loop prints exactly the JDK 19 decimal, decided without running it.
//!
//! Let `v` be a normal value, not a power of two, that takes the digit loop (not an integer below
//! 2^63), `D` its JDK 19 decimal with `L` significant digits, and `M` half an ulp of `v`.
//!
//! 1. The loop stops at the first length `n` whose truncation of `v` lies in `(v - M, v]` or whose
//!    round-up lies in `[v, v + M)` (the exact-arithmetic loop also takes a round-up at exactly
//!    `v + M`), provided its fixed-width arithmetic does not overflow ([`fixed_width_is_exact`]).
//! 2. That interval lies inside JDK 19's rounding interval `[v - M, v + M]` (open when the
//!    significand is odd), except the point `v + M`; a decimal shorter than `L` exactly there is
//!    ruled out by [`no_short_decimal_at_upper_bound`]. JDK 19 found nothing shorter than `L` in
//!    its interval, so the loop reaches length `L`.
//! 3. If `D` lies strictly within `M` of `v`, the loop stops at `L`: the closest decimal of length
//!    `L` is `v`'s truncation or round-up there. Of those two the loop prints the one inside its
//!    interval, or the closer one (the even last digit on a tie) if both are: `D`, which JDK 19
//!    chose by the same rule from a superset (a candidate at exactly `v + M` is farther than `D`).
//! 4. The first digit is right when the loop's estimate of `floor(log10 v)` is exact or one too
//!    high (a leading zero is then dropped: a one-digit decimal at the next power of ten would have
//!    to lie within `M` of `v` to stop it, and none does for a normal value).
//! 5. `L = 1`: the round-up `1` may carry into a new leading digit (`0.0999..` -> `0.1`), so
//!    that case takes the loop. Otherwise, where the loop forces a second digit (scientific
//!    notation) it prints `D` followed by `0`, the other two-digit candidate being much farther
//!    than `M`, and Java's scientific layout prints `d0` as it prints `d`: `d.0E..`.
//!
//! Every condition is checked exactly; a value that fails one takes the digit loop.
use super::{estimate_dec_exp, small_pow5_bits, LoopSizes, LoopWidth, Scaling, MAX_SMALL_BIN_EXP, SIGNIFICAND_SHIFT};
use crate::float::decimal::POW10;
use crate::float::jdk19::Placed;
use crate::float::text::DecimalText;

/// The text of `placed.decimal` if the legacy loop prints it for the value
/// `fraction * 2^(bin_exp - 52)` (`fraction` with its leading one at bit 52, `significant_bits`
/// of precision), else `None`. The value is one the integer path left to the loop.
#[inline(always)]
pub(super) fn legacy_text(placed: &Placed, bin_exp: i32, fraction: u64, significant_bits: i32) -> Option<DecimalText> {
    if significant_bits <= 24 {
        return float_legacy_text(placed, bin_exp, fraction);
    }
    match double_common_text(placed, bin_exp) {
        (text, true) => Some(text),
        (text, false) => double_legacy_text_apart(text, [placed.interior, placed.alone], bin_exp, fraction),
    }
}

/// The text of `placed.decimal` if the legacy loop prints it for the float
/// `fraction * 2^(bin_exp - 52)` (`fraction` with its leading one at bit 52), else `None`. The
/// value is one the integer path left to the loop.
#[inline(always)]
pub(super) fn float_legacy_text(placed: &Placed, bin_exp: i32, fraction: u64) -> Option<DecimalText> {
    if !placed.interior {
        return None;
    }
    // A placed decimal is a shortest one, which fits the text's frame.
    debug_assert!(DecimalText::fits(placed.decimal), "{:?}", placed.decimal);
    let text = DecimalText::new(placed.decimal, true);
    if is_one_digit_one(&text) {
        return None;
    }
    // A float's `10 * S` sizes lie near 32 bits, where the two candidates of
    // [`estimate_candidates_are_exact`] often differ in the test: floats compute the estimate.
    legacy_text_by_estimate(text, bin_exp, fraction, 24, placed.alone)
}

/// The text of a double's `placed.decimal` (normal, not a power of two), and whether the legacy
/// `Double.toString` prints it by the common case: a decimal strictly inside the interval, of at
/// least three digits, the point after at least one, below 2^53, where the loop's estimate is
/// `point - 1` or `point` (see [`estimate_candidates_are_exact`], no other test reads it).
///
/// An integer below 2^53 passes too: the legacy integer path prints it exactly, and so does
/// JDK 19 (the rounding interval's half width is at most one half, and no decimal shorter than
/// the integer lies within it). So the caller tests for integers only when this fails.
#[inline(always)]
pub(super) fn double_common_text(placed: &Placed, bin_exp: i32) -> (DecimalText, bool) {
    debug_assert!(DecimalText::fits(placed.decimal), "{:?}", placed.decimal);
    let text = DecimalText::new(placed.decimal, false);
    let (len, point) = (text.len as i32, text.point);
    let common = placed.interior
        && bin_exp <= SIGNIFICAND_SHIFT
        && point >= 1
        && len >= 3
        && estimate_candidates_are_exact(point, bin_exp, 53);
    (text, common)
}

/// [`float_legacy_text`]'s test for a double that is not an integer the integer path takes, and
/// that [`double_common_text`] left open; out of line.
#[inline(never)]
pub(super) fn double_legacy_text_apart(
    text: DecimalText,
    [interior, alone]: [bool; 2],
    bin_exp: i32,
    fraction: u64,
) -> Option<DecimalText> {
    if !interior || is_one_digit_one(&text) {
        return None;
    }
    legacy_text_by_estimate(text, bin_exp, fraction, 53, alone)
}

/// One digit `1`: a carry into a new leading digit (0.0999.. -> 0.1) may print it, which the
/// agreement test does not cover.
#[inline(always)]
fn is_one_digit_one(text: &DecimalText) -> bool {
    text.len < 2 && text.first_digit() == b'1'
}

/// [`legacy_text`]'s test with the loop's decimal-exponent estimate computed.
#[inline(always)]
fn legacy_text_by_estimate(
    text: DecimalText,
    bin_exp: i32,
    fraction: u64,
    significant_bits: i32,
    alone: bool,
) -> Option<DecimalText> {
    let (len, point) = (text.len as i32, text.point);
    let dec_exp = estimate_dec_exp(fraction, bin_exp);
    // Non-integers with `dec_exp >= 0` (below 2^52, so no short decimal at `v + M`) take the
    // direct sizes in registers; the rest the full set-up, out of line. The integer path takes
    // every integer up to `MAX_SMALL_BIN_EXP`, so here that exponent marks a non-integer (the
    // loop's `tiny_bits > 0`), one comparison where `tiny_bits` would be kept across the product.
    let prints = if bin_exp <= MAX_SMALL_BIN_EXP && dec_exp >= 0 {
        direct_prints(dec_exp, bin_exp, significant_bits, [len, point], alone)
    } else {
        full_set_up_prints(bin_exp, fraction, significant_bits, [len, point], alone)
    };
    prints.then_some(text)
}

/// Whether [`direct_prints`] holds for a decimal of at least 3 digits with the point after
/// `point >= 1` of them, whichever of its two possible values the estimate takes.
///
/// On this route `point - 1` is `floor(log10 v)`: a decimal below the power of ten at or under `v`,
/// or above the one over it, would leave that power (one digit) in the rounding interval and
/// closer to `v`, and JDK 19 would have chosen it (the power over `v` itself is the one-digit `1`
/// turned away above). The estimate is `floor(log10 v)` or one more: its linear part is the
/// tangent of `log10` at 1.5, above the curve and less than 0.04 above it on `[1, 2)`
/// (`estimate_is_the_floor_of_log10_or_one_more` checks where that margin is thinnest). So the
/// estimate is `point - 1` or `point` (`>= 0`: the direct sizes apply), which is the test's first
/// half, and its second half holds when both candidates' `ten_s_bits` are `<= 28` in their
/// multiple of 32.
#[inline(always)]
fn estimate_candidates_are_exact(point: i32, bin_exp: i32, significant_bits: i32) -> bool {
    // `ten_s_bits` of [`LoopSizes::direct`] for the estimate `point - 1`; the table's mask holds
    // the residues for which both candidates pass.
    let (offset, residues) = CANDIDATE_RESIDUES[point as usize & 31];
    let low = significant_bits - bin_exp + offset;
    (residues >> (low & 31)) & 1 != 0
}

/// The two-candidate test of [`estimate_candidates_are_exact`] by its definition: each
/// candidate's `ten_s_bits` at most 28 in its multiple of 32.
const fn candidates_pass(point: i32, low: i32) -> bool {
    let high = low + 1 + small_pow5_bits(point + 1) - small_pow5_bits(point);
    low & 31 <= 28 && high & 31 <= 28
}

/// By `point`: `point + small_pow5_bits(point)` (the low candidate's `ten_s_bits` less
/// `significant_bits - bin_exp`), and the residues of that size modulo 32 for which
/// [`candidates_pass`] holds, as bits. One load and one shift where the test made two sizes.
const CANDIDATE_RESIDUES: [(i32, u32); 32] = {
    let mut table = [(0, 0); 32];
    let mut point = 0;
    while point < 32 {
        let mut residues = 0u32;
        let mut residue = 0;
        while residue < 32 {
            if candidates_pass(point, residue) {
                residues |= 1 << residue;
            }
            residue += 1;
        }
        table[point as usize] = (point + small_pow5_bits(point), residues);
        point += 1;
    }
    table
};

/// [`legacy_text`]'s test for values of the direct form. The common case needs no width: with
/// `len >= 3` the loop is exact when `ten_s_bits + 3` stays within the bits of the width it
/// picked (see [`fixed_width_is_exact`]), and every width ends where a multiple of 32 does, so
/// `ten_s_bits % 32 <= 28` is enough for all three.
#[inline(always)]
fn direct_prints(dec_exp: i32, bin_exp: i32, significant_bits: i32, [len, point]: [i32; 2], alone: bool) -> bool {
    // A non-integer is below 2^52, so the estimate is at most 15 and the power of five small.
    let ten_s_bits = dec_exp - bin_exp + significant_bits + 1 + small_pow5_bits(dec_exp + 1);
    if len >= 3 && ten_s_bits & 31 <= 28 {
        // The estimate is exact, or one too high and the loop drops a leading zero.
        return dec_exp == point - 1 || dec_exp == point;
    }
    direct_prints_by_width(dec_exp, bin_exp, significant_bits, [len, point], alone)
}

/// [`direct_prints`] with the width chosen, out of line.
#[inline(never)]
fn direct_prints_by_width(dec_exp: i32, bin_exp: i32, significant_bits: i32, lengths: [i32; 2], alone: bool) -> bool {
    loop_prints(LoopSizes::direct(dec_exp, bin_exp, significant_bits), lengths[0], lengths[1], alone)
}

/// [`legacy_text`]'s test for values outside the direct form.
#[inline(never)]
fn full_set_up_prints(bin_exp: i32, fraction: u64, significant_bits: i32, [len, point]: [i32; 2], alone: bool) -> bool {
    let sizes = Scaling::new(bin_exp, fraction, significant_bits).sizes();
    no_short_decimal_at_upper_bound(bin_exp, fraction, significant_bits, point - len)
        && loop_prints(sizes, len, point, alone)
}

/// Whether the loop with these sizes stops at `D` (`len` digits, the point after `point`).
#[inline(always)]
fn loop_prints(sizes: LoopSizes, len: i32, point: i32, alone: bool) -> bool {
    // The estimate is exact, or one too high and the loop drops a leading zero.
    let leading_zero = sizes.dec_exp == point;
    (sizes.dec_exp == point - 1 || leading_zero)
        // With D's neighbours outside the interval (`alone`) the loop never compares a tie.
        && fixed_width_is_exact(&sizes, len as u32, len as u32 + u32::from(leading_zero), alone)
}

/// Rules out a decimal with fewer than `L` digits at exactly `v + M` (`unit_exp` is the exponent
/// of `D`'s last digit, `point - L`).
///
/// Below 2^63 the loop only sees non-integers, where `v + M = (2c + 1) * 5^j / 10^j` with `j >= 2`
/// has at least 18 significant digits for a double (9 for a float): more than `L`. Above, `v + M`
/// is `(2c + 1) * 2^e` with `e >= 10`; its trailing zeros number at most the multiplicity of 5 in
/// `2c + 1`, and a shorter decimal needs more than `point - L` of them.
fn no_short_decimal_at_upper_bound(bin_exp: i32, fraction: u64, significant_bits: i32, unit_exp: i32) -> bool {
    if bin_exp <= MAX_SMALL_BIN_EXP {
        return true;
    }
    let mut odd = ((fraction >> (53 - significant_bits)) << 1) | 1;
    let mut fives = 0;
    while odd.is_multiple_of(5) {
        odd /= 5;
        fives += 1;
    }
    fives <= unit_exp
}

/// Whether the legacy `int` or `long` loop computes exactly through `steps` digits (a dropped
/// leading zero included): the margin `M` grows tenfold per digit, and `B + M` (with
/// `B < 10 * S`) must stay below the type's maximum; so must `2 * B` unless the decimal is `alone`
/// in the interval (the loop doubles `B` only to break a tie between two candidates).
///
/// With `len >= 3` digits no shorter decimal lies in the rounding interval, so it is at most as
/// wide as their spacing: `2 * M <= 10^(point - len + 1)` in the value's scale, which makes
/// `M * 10^steps <= 5 * (10 * S)`. Then `6 * (10 * S)` below the maximum is enough, and the size
/// estimate of `10 * S` decides that without multiplying.
#[inline(always)]
fn fixed_width_is_exact(sizes: &LoopSizes, len: u32, steps: u32, alone: bool) -> bool {
    let (max, max_bits) = match sizes.width {
        LoopWidth::I32 => (i32::MAX as u128, 31),
        LoopWidth::I64 => (i64::MAX as u128, 63),
        LoopWidth::Exact => return true,
    };
    // `10 * S < 2^ten_s_bits`, so `6 * (10 * S) < 2^(ten_s_bits + 3)`.
    (len >= 3 && sizes.ten_s_bits + 3 <= max_bits) || margin_stays_below(sizes.exponents, max, steps, alone)
}

/// The exact form of [`fixed_width_is_exact`]'s test, for one- and two-digit decimals; the
/// exponents of the margin and of S by value.
#[inline(never)]
fn margin_stays_below([m5, m2, s5, s2]: [i32; 4], max: u128, steps: u32, alone: bool) -> bool {
    let (Some(margin), Some(ten_s)) = (pow5_shl(m5, m2), pow5_shl(s5 + 1, s2 + 1)) else {
        return false;
    };
    let Some(last_margin) = POW10.get(steps as usize).and_then(|&power| margin.checked_mul(u128::from(power))) else {
        return false;
    };
    last_margin + ten_s <= max && (alone || 2 * ten_s <= max)
}

/// `5^exp5 * 2^exp2` for the small exponents of the fixed-width loops, `None` beyond them.
fn pow5_shl(exp5: i32, exp2: i32) -> Option<u128> {
    if !(0..=27).contains(&exp5) || !(0..64).contains(&exp2) {
        return None;
    }
    Some(u128::from(POW5[exp5 as usize]) << exp2)
}

/// `5^n` for `n` in `0..=27`.
const POW5: [u64; 28] = {
    let mut table = [1u64; 28];
    let mut n = 1;
    while n < 28 {
        table[n] = table[n - 1] * 5;
        n += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::super::{estimate_dec_exp, f32_legacy, f64_legacy, small_pow5_bits, Legacy, Scaling};
    use super::estimate_candidates_are_exact;
    use crate::float::bignum::BigUint;
    use crate::float::decimal::write_layout;
    use std::cmp::Ordering;

    /// The table's test against the two candidates' sizes, for every point a double's common case
    /// meets (below 2^53: at most 16) and beyond, and every exponent.
    #[test]
    fn candidate_table_is_the_two_size_test() {
        for point in 1..=30 {
            for bin_exp in -1100..=1100 {
                let base = 53 - bin_exp + point;
                let low = base + small_pow5_bits(point);
                let high = base + 1 + small_pow5_bits(point + 1);
                let expected = low & 31 <= 28 && high & 31 <= 28;
                assert_eq!(estimate_candidates_are_exact(point, bin_exp, 53), expected, "{point} {bin_exp}");
            }
        }
    }

    /// xorshift64*: deterministic values without a dependency.
    fn random_bits(count: usize) -> impl Iterator<Item = u64> {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        (0..count).map(move |_| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_F491_4F6C_DD1D)
        })
    }

    /// The digit loop's own text for a value that takes it.
    fn loop_text(bin_exp: i32, fraction: u64, significant_bits: i32) -> Vec<u8> {
        let scale = Scaling::new(bin_exp, fraction, significant_bits);
        let digits = scale.generate(fraction >> fraction.trailing_zeros());
        let mut out = Vec::new();
        write_layout(&mut out, false, digits.as_slice(), digits.point);
        out
    }

    fn fast_text(legacy: Legacy) -> Option<Vec<u8>> {
        let Legacy::Text(text) = legacy else {
            return None;
        };
        let mut out = Vec::new();
        text.write(&mut out, false);
        Some(out)
    }

    /// `value = c * 2^q` against `10^n`, exactly.
    fn compare_with_pow10(c: u64, q: i32, n: i32) -> Ordering {
        let twos = q - n;
        let value = BigUint::from_mul_pow5_pow2(c, (-n).max(0) as u32, twos.max(0) as u32);
        let power = BigUint::from_mul_pow5_pow2(1, n.max(0) as u32, (-twos).max(0) as u32);
        value.compare(&power)
    }

    /// The estimate of a normal double against `floor(log10 v)`, which is `near` or `near - 1`.
    fn check_estimate(double: f64, near: i32) {
        let bits = double.to_bits();
        let (biased, stored) = (((bits >> 52) & 0x7ff) as i32, bits & ((1 << 52) - 1));
        if biased == 0 || biased == 0x7ff {
            return;
        }
        let (c, q) = (stored | (1 << 52), biased - 1075);
        let floor_log10 = if compare_with_pow10(c, q, near) == Ordering::Less { near - 1 } else { near };
        assert_eq!(compare_with_pow10(c, q, floor_log10 + 1), Ordering::Less, "{double:e}");
        let estimate = estimate_dec_exp(c, biased - 1023);
        assert!(estimate == floor_log10 || estimate == floor_log10 + 1, "{double:e}: estimate {estimate}");
    }

    /// The estimate is `floor(log10 v)` or one more for every normal value. Within a binade the
    /// estimate never falls as `v` grows, and `floor(log10 v)` steps only at a power of ten, so the
    /// difference is smallest at the binade's first double and at the first one from a power of
    /// ten, and largest at the last one before such a step: those are all checked.
    #[test]
    fn estimate_is_the_floor_of_log10_or_one_more() {
        for biased in 1..0x7ff_u64 {
            let first = f64::from_bits(biased << 52);
            let last = f64::from_bits(((biased + 1) << 52) - 1);
            check_estimate(first, first.log10().floor() as i32 + 1);
            check_estimate(last, last.log10().floor() as i32 + 1);
        }
        for n in -307..=308 {
            // The double nearest 10^n and its neighbours: the first at or above it among them.
            let nearest = format!("1e{n}").parse::<f64>().unwrap();
            let mut double = f64::from_bits(nearest.to_bits() - 2);
            for _ in 0..5 {
                check_estimate(double, n);
                double = f64::from_bits(double.to_bits() + 1);
            }
        }
    }

    /// From here on integers take the digit loop too.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;

    /// Wherever the shortest route is taken for a value the digit loop would print, they agree.
    #[test]
    fn shortest_route_matches_the_digit_loop() {
        let mut taken = 0;
        for (index, bits) in random_bits(300_000).enumerate() {
            // Random bit patterns, and readings with few digits (23.47, 0.0031).
            let double = if index % 2 == 0 {
                f64::from_bits(bits >> 1)
            } else {
                let scale = 10f64.powi((bits % 9) as i32 - 4);
                ((bits >> 16) % 100_000) as f64 * scale
            };
            let float_bits = (bits as u32) >> 1;
            let biased = ((double.to_bits() >> 52) & 0x7ff) as i32;
            if double.is_finite() && (double.fract() != 0.0 || double >= TWO_63) && biased != 0 {
                let fraction = (double.to_bits() & ((1 << 52) - 1)) | (1 << 52);
                if let Some(text) = fast_text(f64_legacy(double.to_bits())) {
                    taken += 1;
                    assert_eq!(text, loop_text(biased - 1023, fraction, 53), "{double:e}");
                }
            }
            let float = f32::from_bits(float_bits);
            let biased = ((float_bits >> 23) & 0xff) as i32;
            if float.is_finite() && (float.fract() != 0.0 || f64::from(float) >= TWO_63) && biased != 0 {
                let fraction = (u64::from(float_bits & ((1 << 23) - 1)) | (1 << 23)) << 29;
                if let Some(text) = fast_text(f32_legacy(float_bits)) {
                    assert_eq!(text, loop_text(biased - 127, fraction, 24), "{float:e}");
                }
            }
        }
        assert!(taken > 100_000, "the shortest route was taken {taken} times");
    }
}
