//! The SIMD half of the escape scan: finds the first byte that needs escaping (`"`, `\`,
//! `< 0x20`, `>= 0xF0`) sixteen bytes per step with SSE2. SSE2 is part of every x86-64 CPU, so
//! this needs neither run-time detection nor a `target-cpu` flag; other targets (and inputs
//! shorter than sixteen bytes) use the SWAR loop in `escape.rs`.
//!
//! The unsafe code is one unaligned 16-byte load from a `&[u8; 16]`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use std::arch::x86_64::{
    __m128i, _mm_add_epi8, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
    _mm_set1_epi8,
};

/// Bit `k` set where byte `k` of `block` needs escaping.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(crate) fn block_mask(block: &[u8; 16]) -> u32 {
    // SAFETY: `block` is 16 readable bytes, exactly what the unaligned load reads (`loadu` has no
    // alignment requirement); the other intrinsics only need SSE2, which this module is compiled
    // for only when the target has it (always so on x86-64).
    unsafe {
        let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
        // Bytes below 0x20 and from 0xF0 up are exactly those that land below 0x30 after adding
        // 0x10 (wrapping): 0xF0..=0xFF -> 0x00..=0x0F, 0x00..=0x1F -> 0x10..=0x2F.
        let shifted = _mm_add_epi8(v, _mm_set1_epi8(0x10));
        let low = _mm_cmpeq_epi8(_mm_min_epu8(shifted, _mm_set1_epi8(0x2F)), shifted);
        let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
        let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
        _mm_movemask_epi8(_mm_or_si128(low, _mm_or_si128(quote, backslash))) as u32
    }
}

/// The mask of the 16 bytes at `bytes[at..]`, `at + 16 <= bytes.len()`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn attention_mask(bytes: &[u8], at: usize) -> u32 {
    bytes[at..].first_chunk::<16>().map_or(0, block_mask)
}

/// The first attention byte at or after `from`, for `bytes` of at least 16 bytes; the last
/// block overlaps the one before it instead of falling back to a byte loop.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
pub(crate) fn find_attention_simd(bytes: &[u8], from: usize) -> Option<usize> {
    let len = bytes.len();
    debug_assert!(len >= 16);
    let mut at = from;
    while at + 16 <= len {
        let mask = attention_mask(bytes, at);
        if mask != 0 {
            return Some(at + mask.trailing_zeros() as usize);
        }
        at += 16;
    }
    if at >= len {
        return None;
    }
    // Re-read the last 16 bytes, ignoring those before `at` (already scanned).
    let last = len - 16;
    let mask = attention_mask(bytes, last) >> (at - last);
    (mask != 0).then(|| at + mask.trailing_zeros() as usize)
}
