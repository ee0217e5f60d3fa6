//! Sixteen bytes of a string body at a time: where its quotes and backslashes are, and which
//! bytes are not ASCII, as bit masks (bit `k` for byte `k`). SSE2 is part of every x86-64 CPU,
//! so it needs neither run-time detection nor a `target-cpu` flag; other targets use the same
//! masks computed byte by byte.
//!
//! The unsafe code is one unaligned 16-byte load from a `&[u8; 16]`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};

/// (quotes and backslashes, bytes from 0x80) of `block`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(super) fn masks(block: &[u8; 16]) -> (u32, u32) {
    // SAFETY: `block` is 16 readable bytes, exactly what the unaligned load reads (`loadu` has no
    // alignment requirement); the other intrinsics only need SSE2, which this function is
    // compiled for only when the target has it (always so on x86-64).
    unsafe {
        let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
        let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
        let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
        (_mm_movemask_epi8(_mm_or_si128(quote, backslash)) as u32, _mm_movemask_epi8(v) as u32)
    }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline]
pub(super) fn masks(block: &[u8; 16]) -> (u32, u32) {
    block.iter().enumerate().fold((0, 0), |(stops, high), (k, &b)| {
        (stops | u32::from(b == b'"' || b == b'\\') << k, high | u32::from(b >= 0x80) << k)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_flag_exactly_quotes_backslashes_and_high_bytes() {
        let mut seed = 9u64;
        for _ in 0..5000 {
            let mut block = [0u8; 16];
            for byte in &mut block {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *byte = [b'a', b'"', b'\\', 0x7F, 0x80, 0xFF, 0x00, b'#'][(seed >> 61) as usize];
            }
            let stops = (0..16).filter(|&k| block[k] == b'"' || block[k] == b'\\').fold(0, |m, k| m | 1 << k);
            let high = (0..16).filter(|&k| block[k] >= 0x80).fold(0, |m, k| m | 1 << k);
            assert_eq!(masks(&block), (stops, high), "{block:?}");
        }
    }
}
