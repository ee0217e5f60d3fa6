//! Two numbers below 10^8 as sixteen ASCII digits in two words, and how many of those digits
//! at the end are zeros: the 17-digit frame's last sixteen ([`super::text`]).
//!
//! On x86-64 the two numbers share one SSE2 register (part of every x86-64 CPU: no run-time
//! detection) and every split by 10^4, 100 and 10 is done for both at once in its lanes, the
//! zeros counted from one byte comparison's mask; elsewhere each word is made in the lanes of a
//! general register ([`eight_digits`]).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
use crate::spelling::eight_digits;

/// The ASCII digits of `high` and `low` (each below 10^8), eight each, the earlier digit in the
/// lower byte, and the number of trailing `0` digits of the sixteen (`high`'s last).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(crate) fn sixteen_digits(high: u32, low: u32) -> ([u64; 2], u32) {
    use std::arch::x86_64::{
        _mm_add_epi8, _mm_cmpeq_epi8, _mm_cvtsi128_si64, _mm_movemask_epi8, _mm_mul_epu32, _mm_mulhi_epu16,
        _mm_mullo_epi16, _mm_or_si128, _mm_set1_epi16, _mm_set1_epi32, _mm_set1_epi64x, _mm_set1_epi8, _mm_set_epi64x,
        _mm_setzero_si128, _mm_slli_epi16, _mm_slli_epi32, _mm_slli_epi64, _mm_srli_epi16, _mm_srli_epi64,
        _mm_sub_epi16, _mm_sub_epi64, _mm_unpackhi_epi64,
    };
    // SAFETY: the intrinsics read and write registers only, and need SSE2, which this function
    // is compiled for only when the target has it (always so on x86-64).
    unsafe {
        // One number per 64-bit lane, `high` in the lower.
        let numbers = _mm_set_epi64x(i64::from(low), i64::from(high));
        // Four-digit halves in 32-bit lanes: `x / 10^4` is `x * 109951163 >> 40` below 10^8.
        let upper_halves = _mm_srli_epi64(_mm_mul_epu32(numbers, _mm_set1_epi64x(109_951_163)), 40);
        let lower_halves = _mm_sub_epi64(numbers, _mm_mul_epu32(upper_halves, _mm_set1_epi64x(10_000)));
        let halves = _mm_or_si128(upper_halves, _mm_slli_epi64(lower_halves, 32));
        // Pairs in 16-bit lanes: `x / 100` is `x * 5243 >> 19` below 10^4 (the upper 16 bits of
        // each 32-bit lane are zero, and so are their products).
        let upper_pairs = _mm_srli_epi16(_mm_mulhi_epu16(halves, _mm_set1_epi32(5243)), 3);
        let lower_pairs = _mm_sub_epi16(halves, _mm_mullo_epi16(upper_pairs, _mm_set1_epi16(100)));
        let pairs = _mm_or_si128(upper_pairs, _mm_slli_epi32(lower_pairs, 16));
        // Digits in bytes: `x / 10` is `x * 6554 >> 16` below 100.
        let tens = _mm_mulhi_epu16(pairs, _mm_set1_epi16(6554));
        let ones = _mm_sub_epi16(pairs, _mm_mullo_epi16(tens, _mm_set1_epi16(10)));
        let digits = _mm_or_si128(tens, _mm_slli_epi16(ones, 8));
        // Bit k set where digit k is zero; the trailing zeros are the mask's leading ones (bit 15
        // down), counted as the leading zeros of its complement moved to the top (16 if all are).
        let zeros = _mm_movemask_epi8(_mm_cmpeq_epi8(digits, _mm_setzero_si128())) as u32;
        let trailing_zeros = ((!zeros << 16) | 1 << 15).leading_zeros();
        let ascii = _mm_add_epi8(digits, _mm_set1_epi8(b'0' as i8));
        let words = [_mm_cvtsi128_si64(ascii) as u64, _mm_cvtsi128_si64(_mm_unpackhi_epi64(ascii, ascii)) as u64];
        (words, trailing_zeros)
    }
}

/// As the SSE2 version above, one general register per word.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
pub(crate) fn sixteen_digits(high: u32, low: u32) -> ([u64; 2], u32) {
    sixteen_digits_in_words(high, low)
}

/// The portable [`sixteen_digits`] (compiled for the tests everywhere).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
fn sixteen_digits_in_words(high: u32, low: u32) -> ([u64; 2], u32) {
    const ASCII_ZEROS: u64 = 0x3030_3030_3030_3030;
    let words = [eight_digits(high), eight_digits(low)];
    // On the digit values: the earlier digit is in the lower byte.
    let tail = u128::from(words[0] - ASCII_ZEROS) | (u128::from(words[1] - ASCII_ZEROS) << 64);
    (words, tail.leading_zeros() / 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_and_trailing_zeros_are_the_decimal_text_in_both_versions() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut cases: Vec<(u32, u32)> = vec![(0, 0), (99_999_999, 99_999_999), (10_000_000, 0), (1, 0), (0, 1)];
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let (high, low) = ((state >> 32) as u32 % 100_000_000, state as u32 % 100_000_000);
            // Trailing zeros of every count.
            let cut = 10u32.pow((state % 9) as u32);
            cases.push((high, low - low % cut));
            cases.push((high - high % cut, 0));
        }
        for (high, low) in cases {
            let text = format!("{high:08}{low:08}");
            for ([first, second], trailing_zeros) in [sixteen_digits(high, low), sixteen_digits_in_words(high, low)] {
                let mut bytes = first.to_le_bytes().to_vec();
                bytes.extend(second.to_le_bytes());
                assert_eq!(bytes, text.as_bytes(), "{text}");
                let expected = text.len() - text.trim_end_matches('0').len();
                assert_eq!(trailing_zeros as usize, expected, "{text}");
            }
        }
    }
}
