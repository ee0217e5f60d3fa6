//! The digits of `Double.toString` / `Float.toString` on JDK >= 19 (Giulietti's Schubfach).
//!
//! Among the decimals that round to the value, the shortest is chosen; when that has a single
//! digit, two-digit candidates compete too. Ties between the two closest candidates go to the
//! even digit. This is computed as in the Schubfach paper: the value's rounding interval is
//! scaled by `10^-k` with a 126-bit approximation `g(k)` ([`SCALED_POW10_INVERSE`]) and rounded
//! to odd, which keeps every comparison exact while needing only 64x64-bit products.
use super::decimal::Decimal;
use super::pow10_table::{K_MIN, SCALED_POW10_INVERSE};

mod single_product;

pub(crate) use single_product::Placed;

const F64_Q_MIN: i32 = -1074;
const F64_C_MIN: u64 = 1 << 52;
/// Subnormal significands below this are scaled by ten so that two digits are considered.
const F64_C_TINY: u64 = 3;

const F32_Q_MIN: i32 = -149;
const F32_C_MIN: u32 = 1 << 23;
const F32_C_TINY: u32 = 8;

const MASK_63: u64 = (1 << 63) - 1;
const MASK_32: u64 = (1 << 32) - 1;

/// `floor(log10(2^e))`.
fn floor_log10_pow2(e: i32) -> i32 {
    ((i64::from(e) * 661_971_961_083) >> 41) as i32
}

/// `floor(log10(3/4 * 2^e))`.
fn floor_log10_three_quarters_pow2(e: i32) -> i32 {
    ((i64::from(e) * 661_971_961_083 - 274_743_187_321) >> 41) as i32
}

/// `floor(log2(10^e))`.
fn floor_log2_pow10(e: i32) -> i32 {
    ((i64::from(e) * 913_124_641_741) >> 38) as i32
}

fn scaled_pow10_inverse(k: i32) -> u128 {
    SCALED_POW10_INVERSE[(k - K_MIN) as usize]
}

/// The decimal chosen for a normal value, with the value's rounding interval scaled like it:
/// `lower` and `upper` are `4 * (v -/+ half a gap) / 10^exponent`, rounded to odd, so comparing
/// them with `4 * significand` is exact (Schubfach's own comparisons are of this form).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Choice {
    pub(crate) decimal: Decimal,
    pub(crate) lower: i64,
    pub(crate) upper: i64,
}

impl Choice {
    /// Where the decimal lies in the interval, from the scaled ends (exact comparisons).
    fn placed(&self) -> Placed {
        let Decimal { significand, exponent } = self.decimal;
        let scaled = (significand as i64) << 2;
        let interior = self.lower < scaled && scaled < self.upper;
        // A unit of the last significant digit, scaled like the ends.
        let unit = 4 * (10i64).pow((self.decimal.without_trailing_zeros().exponent - exponent) as u32);
        let alone = scaled - unit <= self.lower && scaled + unit >= self.upper;
        Placed { decimal: self.decimal, interior, alone }
    }
}

/// The shortest decimal of a finite, non-zero double's magnitude. Its significand is not zero
/// and below 10^17 (the writers rely on it): every route scales the value below `2^53 * 10`.
#[inline(always)]
pub(crate) fn f64_shortest(bits: u64) -> Decimal {
    let fraction = bits & (F64_C_MIN - 1);
    let biased_exp = ((bits >> 52) & 0x7ff) as i32;
    if biased_exp != 0 {
        let minus_q = -F64_Q_MIN + 1 - biased_exp;
        let c = F64_C_MIN | fraction;
        // Integers below 2^53 print exactly. The fraction bits are the low zeros of `c`, counted
        // (one instruction) rather than shifted out and back.
        if 0 < minus_q && minus_q < 53 && c.trailing_zeros() >= minus_q as u32 {
            return Decimal { significand: c >> minus_q, exponent: 0 };
        }
        // Powers of two have a narrower lower gap: Schubfach's case.
        let single = if fraction != 0 { single_product::shortest(c, -minus_q) } else { None };
        single.unwrap_or_else(|| f64_schubfach(bits))
    } else {
        f64_subnormal(fraction)
    }
}

/// Schubfach for a normal double the single product leaves open: rare, so out of line.
#[cold]
#[inline(never)]
fn f64_schubfach(bits: u64) -> Decimal {
    f64_normal_choice(bits).decimal
}

/// The shortest decimal of a subnormal double: rare, so kept out of the writers' inlined code.
#[inline(never)]
fn f64_subnormal(fraction: u64) -> Decimal {
    if fraction < F64_C_TINY {
        f64_decimal(F64_Q_MIN, 10 * fraction, -1).decimal
    } else {
        f64_decimal(F64_Q_MIN, fraction, 0).decimal
    }
}

/// The JDK 19 decimal of a normal double that is not a power of two, placed in its interval.
#[inline(always)]
pub(crate) fn f64_placed(bits: u64) -> Placed {
    let biased_exp = ((bits >> 52) & 0x7ff) as i32;
    let c = F64_C_MIN | (bits & (F64_C_MIN - 1));
    single_product::shortest_placed(c, biased_exp + F64_Q_MIN - 1).unwrap_or_else(|| f64_schubfach_placed(bits))
}

#[cold]
#[inline(never)]
fn f64_schubfach_placed(bits: u64) -> Placed {
    f64_normal_choice(bits).placed()
}

/// Schubfach's choice for a normal double (biased exponent not zero).
#[inline(always)]
pub(crate) fn f64_normal_choice(bits: u64) -> Choice {
    let biased_exp = ((bits >> 52) & 0x7ff) as i32;
    f64_decimal(biased_exp + F64_Q_MIN - 1, F64_C_MIN | (bits & (F64_C_MIN - 1)), 0)
}

/// The decimal chosen for the value `c * 2^q`.
#[inline(always)]
fn f64_decimal(q: i32, c: u64, dk: i32) -> Choice {
    let out = (c & 1) as i64;
    let cb = (c << 2) as i64;
    let cbr = cb + 2;
    let (cbl, k) = if c != F64_C_MIN || q == F64_Q_MIN {
        (cb - 2, floor_log10_pow2(q))
    } else {
        // Just above a power of two the lower neighbour is half as far away.
        (cb - 1, floor_log10_three_quarters_pow2(q))
    };
    let h = (q + floor_log2_pow10(-k) + 2) as u32;
    let g = scaled_pow10_inverse(k);
    let (g1, g0) = ((g >> 63) as u64, g as u64 & MASK_63);
    let scale = |x: i64| round_to_odd_f64(g1, g0, x.wrapping_shl(h) as u64) as i64;
    let (vb, vbl, vbr) = (scale(cb), scale(cbl), scale(cbr));
    let choice = |significand: i64, exponent: i32| Choice {
        decimal: Decimal { significand: significand as u64, exponent },
        lower: vbl,
        upper: vbr,
    };
    let s = vb >> 2;
    if s >= 100 {
        // Try one digit fewer first.
        let sp10 = 10 * (s / 10);
        let tp10 = sp10 + 10;
        let upin = vbl + out <= sp10 << 2;
        let wpin = (tp10 << 2) + out <= vbr;
        if upin != wpin {
            return choice(if upin { sp10 } else { tp10 }, k);
        }
    }
    let t = s + 1;
    let uin = vbl + out <= s << 2;
    let win = (t << 2) + out <= vbr;
    if uin != win {
        return choice(if uin { s } else { t }, k + dk);
    }
    // Both candidates round to the value: take the closer, the even one on a tie.
    let cmp = vb - ((s + t) << 1);
    let pick_s = cmp < 0 || (cmp == 0 && s & 1 == 0);
    choice(if pick_s { s } else { t }, k + dk)
}

/// `cp * g / 2^127` rounded to odd, where `g = g1 * 2^63 + g0`; the lowest 64 bits of the
/// product are ignored, as the algorithm's error analysis allows.
fn round_to_odd_f64(g1: u64, g0: u64, cp: u64) -> u64 {
    let x1 = ((u128::from(g0) * u128::from(cp)) >> 64) as u64;
    let y = u128::from(g1) * u128::from(cp);
    let (y0, y1) = (y as u64, (y >> 64) as u64);
    let z = (y0 >> 1) + x1;
    let vbp = y1 + (z >> 63);
    vbp | (((z & MASK_63) + MASK_63) >> 63)
}

/// The shortest decimal of a finite, non-zero float's magnitude (significand as for
/// [`f64_shortest`], and below 10^9).
#[inline(always)]
pub(crate) fn f32_shortest(bits: u32) -> Decimal {
    let fraction = bits & (F32_C_MIN - 1);
    let biased_exp = ((bits >> 23) & 0xff) as i32;
    if biased_exp != 0 {
        let minus_q = -F32_Q_MIN + 1 - biased_exp;
        let c = F32_C_MIN | fraction;
        if 0 < minus_q && minus_q < 24 && c.trailing_zeros() >= minus_q as u32 {
            return Decimal { significand: u64::from(c >> minus_q), exponent: 0 };
        }
        // Powers of two have a narrower lower gap: Schubfach's case.
        let single = if fraction != 0 { single_product::shortest(u64::from(c), -minus_q) } else { None };
        single.unwrap_or_else(|| f32_schubfach(bits))
    } else {
        f32_subnormal(fraction)
    }
}

/// As [`f64_schubfach`] for floats.
#[cold]
#[inline(never)]
fn f32_schubfach(bits: u32) -> Decimal {
    f32_normal_choice(bits).decimal
}

/// As [`f64_subnormal`] for floats.
#[inline(never)]
fn f32_subnormal(fraction: u32) -> Decimal {
    if fraction < F32_C_TINY {
        f32_decimal(F32_Q_MIN, 10 * fraction, -1).decimal
    } else {
        f32_decimal(F32_Q_MIN, fraction, 0).decimal
    }
}

/// As [`f64_placed`] for floats.
#[inline(always)]
pub(crate) fn f32_placed(bits: u32) -> Placed {
    let biased_exp = ((bits >> 23) & 0xff) as i32;
    let c = F32_C_MIN | (bits & (F32_C_MIN - 1));
    single_product::shortest_placed(u64::from(c), biased_exp + F32_Q_MIN - 1)
        .unwrap_or_else(|| f32_schubfach_placed(bits))
}

#[cold]
#[inline(never)]
fn f32_schubfach_placed(bits: u32) -> Placed {
    f32_normal_choice(bits).placed()
}

/// Schubfach's choice for a normal float (biased exponent not zero).
#[inline(always)]
pub(crate) fn f32_normal_choice(bits: u32) -> Choice {
    let biased_exp = ((bits >> 23) & 0xff) as i32;
    f32_decimal(biased_exp + F32_Q_MIN - 1, F32_C_MIN | (bits & (F32_C_MIN - 1)), 0)
}

/// As [`f64_decimal`] for floats: 32-bit candidates, 64-bit `g`.
#[inline(always)]
fn f32_decimal(q: i32, c: u32, dk: i32) -> Choice {
    let out = (c & 1) as i32;
    let cb = i64::from(c) << 2;
    let cbr = cb + 2;
    let (cbl, k) = if c != F32_C_MIN || q == F32_Q_MIN {
        (cb - 2, floor_log10_pow2(q))
    } else {
        (cb - 1, floor_log10_three_quarters_pow2(q))
    };
    let h = (q + floor_log2_pow10(-k) + 33) as u32;
    let g = (scaled_pow10_inverse(k) >> 63) as u64 + 1;
    let scale = |x: i64| round_to_odd_f32(g, x.wrapping_shl(h) as u64);
    let (vb, vbl, vbr) = (scale(cb), scale(cbl), scale(cbr));
    let choice = |significand: i32, exponent: i32| Choice {
        decimal: Decimal { significand: significand as u32 as u64, exponent },
        lower: i64::from(vbl),
        upper: i64::from(vbr),
    };
    let s = vb >> 2;
    if s >= 100 {
        let sp10 = 10 * (s / 10);
        let tp10 = sp10 + 10;
        let upin = vbl.wrapping_add(out) <= sp10.wrapping_shl(2);
        let wpin = tp10.wrapping_shl(2).wrapping_add(out) <= vbr;
        if upin != wpin {
            return choice(if upin { sp10 } else { tp10 }, k);
        }
    }
    let t = s + 1;
    let uin = vbl.wrapping_add(out) <= s.wrapping_shl(2);
    let win = t.wrapping_shl(2).wrapping_add(out) <= vbr;
    if uin != win {
        return choice(if uin { s } else { t }, k + dk);
    }
    let cmp = vb.wrapping_sub((s + t).wrapping_shl(1));
    let pick_s = cmp < 0 || (cmp == 0 && s & 1 == 0);
    choice(if pick_s { s } else { t }, k + dk)
}

/// `cp * g / 2^95` rounded to odd, truncated to 32 bits.
fn round_to_odd_f32(g: u64, cp: u64) -> i32 {
    let x1 = ((u128::from(g) * u128::from(cp)) >> 64) as u64;
    let vbp = x1 >> 31;
    (vbp | (((x1 & MASK_32) + MASK_32) >> 32)) as i32
}

#[cfg(test)]
mod tests {
    use super::super::bignum::BigUint;
    use super::super::pow10_table::K_MAX;
    use super::*;
    use std::cmp::Ordering;

    /// Checks `g(k) - 1 <= 10^-k / 2^r < g(k)` with `r = floor(log2(10^-k)) - 125`.
    #[test]
    fn table_matches_definition() {
        for k in K_MIN..=K_MAX {
            let g = scaled_pow10_inverse(k);
            assert!(g > 1 << 125 && g <= 1 << 126, "k = {k}");
            let r = floor_log2_pow10(-k) - 125;
            let (mut lower, mut upper) = (BigUint::from_u128(g - 1), BigUint::from_u128(g));
            let mut target = BigUint::from_u64(1);
            if k <= 0 {
                target.mul_pow5((-k) as u32);
                target.shl((-k) as u32);
                if r >= 0 {
                    lower.shl(r as u32);
                    upper.shl(r as u32);
                } else {
                    target.shl((-r) as u32);
                }
            } else {
                target.shl((-r) as u32);
                for bound in [&mut lower, &mut upper] {
                    bound.mul_pow5(k as u32);
                    bound.shl(k as u32);
                }
            }
            assert_ne!(lower.compare(&target), Ordering::Greater, "k = {k}");
            assert_eq!(upper.compare(&target), Ordering::Greater, "k = {k}");
        }
    }

    /// The writers take a shortest decimal into the 17-digit frame without testing it.
    #[test]
    fn shortest_significands_fit_the_frame() {
        let edges = [1, 2, 3, 4, (1 << 52) - 1, 1 << 52, 0x7FEF_FFFF_FFFF_FFFF, 0x7FE0_0000_0000_0000];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let random = (0..200_000).map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        });
        for bits in edges.into_iter().chain(random) {
            let double = bits & !(1 << 63);
            if double != 0 && f64::from_bits(double).is_finite() {
                let significand = f64_shortest(double).significand;
                assert!(significand != 0 && significand < 100_000_000_000_000_000, "{double:#x}");
            }
            let float = (bits >> 33) as u32;
            if float != 0 && f32::from_bits(float).is_finite() {
                let significand = f32_shortest(float).significand;
                assert!(significand != 0 && significand < 1_000_000_000, "{float:#x}");
            }
        }
    }

    #[test]
    fn log_approximations_are_exact_in_range() {
        for e in -1100..=1100 {
            let exact_log10 = (f64::from(e) * std::f64::consts::LOG10_2).floor() as i32;
            assert_eq!(floor_log10_pow2(e), exact_log10, "e = {e}");
            let three_quarters = (f64::from(e) * std::f64::consts::LOG10_2 + 0.75f64.log10()).floor();
            assert_eq!(floor_log10_three_quarters_pow2(e), three_quarters as i32, "e = {e}");
        }
        for e in -330..=330 {
            let exact_log2 = (f64::from(e) * std::f64::consts::LOG2_10).floor() as i32;
            assert_eq!(floor_log2_pow10(e), exact_log2, "e = {e}");
        }
    }
}
