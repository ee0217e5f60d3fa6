//! The JDK >= 19 decimal of a normal value from one product by a cached power of ten.
//!
//! Schubfach ([`super`]) scales the value and both ends of its rounding interval by `10^-k`, three
//! products kept exact by rounding to odd. Here the value is scaled once, by `10^-(k+1)`, into a
//! fixed-point number `V'` with 64 fraction bits; the half gap `D'` between neighbouring values,
//! scaled alike, is the same cached power shifted (the gap is a power of two). With
//! `k = floor(log10(2^q))` the interval `[V' - D', V' + D']` is shorter than one, so:
//!
//! * it holds at most one integer: the shorter decimal Schubfach looks for first. It is
//!   `floor(V')` if the fraction of `V'` is below `D'`, `floor(V') + 1` if one minus the fraction is;
//! * else the decimal has the next digit too, and it is `V = 10 V'` rounded to the nearest integer
//!   (always inside the interval, whose half width `10 D'` is at least a half), ties to even.
//!
//! Below 1 and above `10^-19` or so (`k < 0`, `q >= k - 62`), `V' * 2^64` and `D' * 2^64` are
//! integers and the product is over by less than one unit, so its floor is exact: every test is
//! exact, ends of the interval and ties included. Elsewhere the product is off by less than one
//! unit of the last fraction bit (`2^-64`), `D'` alike, so each test is decided unless its two
//! sides are within two units; then the caller runs Schubfach, which is exact. That happens for
//! about one value in 2^60 at random, and for values whose interval ends or midpoint fall exactly
//! on a short decimal (integers above 2^53 for doubles, 2^24 for floats; very small values).
//!
//! The one-multiply idea and the scaling by `10^-(k+1)` come from the published zmij and xjb
//! work; the bounds here are derived for this table and this code.
use super::{floor_log10_pow2, floor_log2_pow10, scaled_pow10_inverse};
use crate::float::decimal::Decimal;
use crate::float::pow10_table::K_MAX;

const HALF: u64 = 1 << 63;
/// Over the errors of `10 * fraction` and `10 * D'` (under ten units each), in units of 2^-64.
const NEIGHBOUR_MARGIN: u128 = 32;

/// A decided decimal and where it lies in the value's rounding interval.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placed {
    pub(crate) decimal: Decimal,
    /// Strictly inside the interval (not at an end).
    pub(crate) interior: bool,
    /// Its neighbours at its last digit (one unit of that digit away) are not inside the interval.
    pub(crate) alone: bool,
}

/// The JDK 19 decimal of `c * 2^q`, or `None` when one product cannot decide it.
///
/// `c` must be below 2^53 and at least 2^23 (a normal float's or double's significand, the
/// implicit bit included), and not a power of two (there the lower gap is half as wide).
#[inline(always)]
pub(crate) fn shortest(c: u64, q: i32) -> Option<Decimal> {
    shortest_placed(c, q).map(|placed| placed.decimal)
}

/// As [`shortest`], with where the decimal lies in the rounding interval (the JDK 17 route's
/// proof needs it; the JDK 19 writer drops the flags, and with them their computation).
///
/// A decimal of the first kind (one digit fewer) is alone: the interval is shorter than one
/// unit of it. One of the second kind is within half a unit of the value and the half width is
/// over half a unit (`10 D' > 0.5` unless `q = 0`, an integer the callers print before), so it is
/// strictly inside; whether its neighbours are out is `1 - |V - D| >= 10 D'`, decided with a
/// margin over the products' errors (a neighbour too close to call counts as inside).
#[inline(always)]
pub(crate) fn shortest_placed(c: u64, q: i32) -> Option<Placed> {
    let k = floor_log10_pow2(q);
    if k >= K_MAX {
        // `10^-(k+1)` is past the table's end (values above 10^292).
        return None;
    }
    // `E = q + floor(log2(10^-(k+1)))` is in -4..=-1 because `2^q / 10^(k+1)` is in [0.1, 1).
    let h = (q + floor_log2_pow10(-(k + 1)) + 4) as u32;
    let g = scaled_pow10_inverse(k + 1);
    // `c * 2^h * g / 2^65` is V' * 2^64 (over by less than 2^-9); the floor loses under one.
    // The low 64 bits of `cp * g_low` never reach the result.
    let cp = u128::from(c << h);
    let scaled = (cp * (g >> 64) + ((cp * (g & u128::from(u64::MAX))) >> 64)) >> 1;
    let (integer, fraction) = ((scaled >> 64) as u64, scaled as u64);
    // D' * 2^64 = g * 2^(E - 62), below 2^63 and at least 2^59 (D' >= 0.05): the subtractions
    // and additions below cannot wrap.
    let half_gap = ((g >> 63) as u64) >> (3 - h);
    let one_minus_half_gap = half_gap.wrapping_neg();
    let exact = is_exact_range(q);
    // An end counts as inside when the significand is even (Java's rounding to even).
    let open = c & 1;
    let (below_slack, above_slack) = if exact { (open, open) } else { (2, 1) };
    if fraction <= half_gap - below_slack {
        // floor(V') lies inside (at its lower end only if the two are equal).
        let decimal = Decimal { significand: integer, exponent: k + 1 };
        return Some(Placed { decimal, interior: fraction != half_gap, alone: true });
    }
    if fraction >= one_minus_half_gap + above_slack {
        // floor(V') + 1 lies inside.
        let decimal = Decimal { significand: integer + 1, exponent: k + 1 };
        return Some(Placed { decimal, interior: fraction != one_minus_half_gap, alone: true });
    }
    // The next digit and what remains below it: `10 * fraction`, off by under ten units.
    let ten_fraction = u128::from(fraction) * 10;
    let (digit, below) = ((ten_fraction >> 64) as u64, ten_fraction as u64);
    let significand = 10 * integer + digit;
    if !exact {
        let integer_inside_maybe = fraction < half_gap + 2 || fraction > one_minus_half_gap - 2;
        let rounding_unsure = below > HALF - 10 && below <= HALF;
        if integer_inside_maybe || rounding_unsure {
            return None;
        }
    }
    let round_up = below > HALF || (below == HALF && significand & 1 == 1);
    let distance = if round_up { below.wrapping_neg() } else { below };
    let alone = u128::from(distance) + 10 * u128::from(half_gap) + NEIGHBOUR_MARGIN <= 1 << 64;
    let decimal = Decimal { significand: significand + u64::from(round_up), exponent: k };
    Some(Placed { decimal, interior: true, alone })
}

/// The smallest `q` of the exact range (see [`is_exact_range`]).
const EXACT_Q_MIN: i32 = -90;

/// Whether `k < 0 && q >= k - 62` for `k = floor(log10(2^q))`: the product's floor is exact. As
/// `q - k` never falls when `q` grows, that is one range of `q`, tested with one comparison.
#[inline(always)]
fn is_exact_range(q: i32) -> bool {
    (q.wrapping_sub(EXACT_Q_MIN) as u32) < EXACT_Q_MIN.unsigned_abs()
}

#[cfg(test)]
mod tests {
    use super::super::{f32_decimal, f64_decimal, Choice};
    use super::*;

    /// xorshift64*: deterministic values without a dependency.
    fn random_bits(count: usize, seed: u64) -> impl Iterator<Item = u64> {
        let mut state = seed;
        (0..count).map(move |_| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_F491_4F6C_DD1D)
        })
    }

    /// How one value went: not for this core, decided (and equal to Schubfach's), or left over
    /// (`in_exact_range` when the module promises that cannot happen).
    #[derive(Default, Debug)]
    struct Tally {
        decided: usize,
        undecided: usize,
        undecided_exact_range: usize,
        /// Decided values Schubfach's ends show alone but the product's margin did not (integers).
        alone_missed: usize,
    }

    impl Tally {
        fn add(&mut self, q: i32, integer: bool, fast: Option<Placed>, exact: Choice, text: impl Fn() -> String) {
            let Some(fast) = fast else {
                let k = floor_log10_pow2(q);
                self.undecided += 1;
                self.undecided_exact_range += usize::from(k < 0 && q >= k - 62);
                return;
            };
            self.decided += 1;
            let exact = exact.placed();
            let (fast_decimal, exact_decimal) = (fast.decimal.without_trailing_zeros(), exact.decimal);
            assert_eq!(fast_decimal, exact_decimal.without_trailing_zeros(), "{}", text());
            assert_eq!(fast.interior, exact.interior, "interior: {}", text());
            // The product may call a neighbour inside when it is too close to tell, never the reverse.
            assert!(!fast.alone || exact.alone, "alone: {}", text());
            if exact.alone && !fast.alone {
                // Integers (above 2^24 or 2^53) whose neighbours are exactly at the ends, which
                // the margin does not call: the JDK 17 route prints those without this test.
                assert!(integer, "alone missed: {}", text());
                self.alone_missed += 1;
            }
        }

        fn f64(&mut self, bits: u64) {
            let biased_exp = ((bits >> 52) & 0x7ff) as i32;
            let fraction = bits & ((1 << 52) - 1);
            if biased_exp == 0 || biased_exp == 0x7ff || fraction == 0 {
                return;
            }
            let (c, q) = (fraction | (1 << 52), biased_exp - 1075);
            let exact = f64_decimal(q, c, 0);
            let integer = f64::from_bits(bits).fract() == 0.0;
            self.add(q, integer, shortest_placed(c, q), exact, || format!("{:e}", f64::from_bits(bits)));
        }

        fn f32(&mut self, bits: u32) {
            let biased_exp = ((bits >> 23) & 0xff) as i32;
            let fraction = bits & ((1 << 23) - 1);
            if biased_exp == 0 || biased_exp == 0xff || fraction == 0 {
                return;
            }
            let (c, q) = (fraction | (1 << 23), biased_exp - 150);
            let exact = f32_decimal(q, c, 0);
            let integer = f32::from_bits(bits).fract() == 0.0;
            self.add(q, integer, shortest_placed(u64::from(c), q), exact, || format!("{:e}", f32::from_bits(bits)));
        }
    }

    #[test]
    fn exact_range_is_its_definition() {
        for q in -1200..=1100 {
            let k = floor_log10_pow2(q);
            assert_eq!(is_exact_range(q), k < 0 && q >= k - 62, "q = {q}");
        }
    }

    #[test]
    fn random_doubles_and_floats_match_schubfach() {
        let mut tally = Tally::default();
        for bits in random_bits(1_000_000, 0x9E37_79B9_7F4A_7C15) {
            tally.f64(bits >> 1);
            tally.f32((bits >> 33) as u32);
        }
        // Left over: values above 10^292, and ends or ties on a decimal outside the exact range.
        assert_eq!(tally.undecided_exact_range, 0, "{tally:?}");
        assert!(tally.undecided * 200 < tally.decided, "{tally:?}");
    }

    /// Readings with few digits (23.47, 0.0031, 1e-5 steps) at every scale: the sensor kind.
    #[test]
    fn short_decimals_match_schubfach() {
        let mut tally = Tally::default();
        for (index, bits) in random_bits(1_000_000, 0x2545_F491_4F6C_DD1D).enumerate() {
            let digits = (bits >> 20) % 10u64.pow(1 + (index % 9) as u32);
            let scale = 10f64.powi((bits % 40) as i32 - 20);
            let double = digits as f64 * scale;
            tally.f64(double.to_bits());
            tally.f32((double as f32).to_bits());
        }
        assert_eq!(tally.undecided_exact_range, 0, "{tally:?}");
    }

    /// Every float against Schubfach: `cargo test --release -- --ignored every_float`.
    #[test]
    #[ignore]
    fn every_float_matches_schubfach() {
        let mut tally = Tally::default();
        (0..=u32::MAX >> 1).for_each(|bits| tally.f32(bits));
        assert_eq!(tally.undecided_exact_range, 0, "{tally:?}");
        println!("{tally:?}");
    }
}
