//! Where the bytes that need escaping are (`"`, `\`, `< 0x20`, and `>= 0xF0`, the lead of a
//! code point Jackson writes as a surrogate pair), found with the widest vector unit the CPU has.
//!
//! [`Unit::detected`] picks the unit at run time (AVX2, else SSE2 on x86-64; NEON on aarch64,
//! where it is baseline; eight-byte words elsewhere), so no build needs a `target-cpu` flag. A
//! string column is scanned once per batch with it ([`attention_positions`]); the per-value
//! escaper (`escape.rs`) uses the SSE2 block and the word test directly, as its values are short.
//!
//! The unsafe code is the vector loads and the call into the function compiled for AVX2, made
//! only after the run-time check.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use std::arch::x86_64::{
    __m128i, _mm_add_epi8, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
    _mm_set1_epi8,
};

/// A way to find attention bytes; every unit gives the same answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// 32 bytes per step (x86-64 with AVX2).
    Avx2,
    /// 16 bytes per step (every x86-64).
    Sse2,
    /// 16 bytes per step (aarch64).
    Neon,
    /// Eight bytes per step in a `u64`, on any target.
    Words,
}

impl Unit {
    /// The widest unit this CPU runs.
    pub fn detected() -> Unit {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            return Unit::Avx2;
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        return Unit::Sse2;
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        return Unit::Neon;
        #[allow(unreachable_code)]
        Unit::Words
    }

    /// Every unit this CPU runs, widest first; [`Unit::Words`] is always last.
    pub fn available() -> Vec<Unit> {
        let mut units = Vec::with_capacity(3);
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            units.push(Unit::Avx2);
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        units.push(Unit::Sse2);
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        units.push(Unit::Neon);
        units.push(Unit::Words);
        units
    }
}

/// Index of the first attention byte of `bytes` at or after `from`, found with `unit` (a unit
/// this CPU lacks scans in words; inputs shorter than its width too).
#[inline]
pub fn find_attention(unit: Unit, bytes: &[u8], from: usize) -> Option<usize> {
    match unit {
        #[cfg(target_arch = "x86_64")]
        Unit::Avx2 if bytes.len() >= 32 && std::is_x86_feature_detected!("avx2") => {
            // SAFETY: the CPU has AVX2 (checked in the guard above), the one requirement of
            // `find_avx2` beyond its (safe) arguments.
            unsafe { avx2::find(bytes, from) }
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        Unit::Avx2 | Unit::Sse2 if bytes.len() >= 16 => find_attention_simd(bytes, from),
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        Unit::Neon if bytes.len() >= 16 => neon::find(bytes, from),
        _ => find_attention_words(bytes, from),
    }
}

/// Positions (in `data`) of every attention byte of `data[start..end]`, ascending, or `None`
/// when there are more than `limit` of them (the caller then escapes value by value). One pass
/// over the bytes: each block's flags are walked bit by bit, with no call per position.
pub fn attention_positions(unit: Unit, data: &[u8], start: usize, end: usize, limit: usize) -> Option<Vec<usize>> {
    let bytes = &data[..end];
    let mut found = Positions { list: Vec::new(), limit };
    let complete = match unit {
        #[cfg(target_arch = "x86_64")]
        Unit::Avx2 if bytes.len() >= 32 && std::is_x86_feature_detected!("avx2") => {
            // SAFETY: the CPU has AVX2 (checked in the guard above), the one requirement of
            // `collect` beyond its (safe) arguments.
            unsafe { avx2::collect(bytes, start, &mut found) }
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        Unit::Avx2 | Unit::Sse2 if bytes.len() >= 16 => {
            collect_blocks::<16>(bytes, start, &mut found, |block| u64::from(block_mask(block)))
        }
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        Unit::Neon if bytes.len() >= 16 => neon::collect(bytes, start, &mut found),
        _ => collect_words(bytes, start, &mut found),
    };
    complete.then_some(found.list)
}

/// Attention positions found so far, up to a limit.
struct Positions {
    list: Vec<usize>,
    limit: usize,
}

impl Positions {
    /// Adds `base + k` for every bit `k` of `flags`; false once the limit is passed.
    #[inline(always)]
    fn add(&mut self, base: usize, mut flags: u64) -> bool {
        while flags != 0 {
            if self.list.len() == self.limit {
                return false;
            }
            self.list.push(base + flags.trailing_zeros() as usize);
            flags &= flags - 1;
        }
        true
    }
}

/// [`attention_positions`] in `W`-byte blocks (`bytes` holds at least `W`), `mask` flagging a
/// block's attention bytes one bit per byte; the last block overlaps the one before it.
#[inline(always)]
fn collect_blocks<const W: usize>(
    bytes: &[u8],
    from: usize,
    found: &mut Positions,
    mask: impl Fn(&[u8; W]) -> u64,
) -> bool {
    let len = bytes.len();
    let mut at = from;
    while let Some(block) = bytes.get(at..).and_then(<[u8]>::first_chunk::<W>) {
        let flags = mask(block);
        if flags != 0 && !found.add(at, flags) {
            return false;
        }
        at += W;
    }
    if at >= len {
        return true;
    }
    let last = len - W;
    let flags = bytes[last..].first_chunk::<W>().map_or(0, &mask) >> (at - last);
    flags == 0 || found.add(at, flags)
}

/// [`attention_positions`] eight bytes at a time, then byte by byte.
fn collect_words(bytes: &[u8], from: usize, found: &mut Positions) -> bool {
    let mut at = from;
    while let Some(word) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let mut flags = attention_bytes(u64::from_le_bytes(*word));
        while flags != 0 {
            if !found.add(at + (flags.trailing_zeros() / 8) as usize, 1) {
                return false;
            }
            flags &= flags - 1;
        }
        at += 8;
    }
    let tail = bytes.get(at..).unwrap_or_default();
    tail.iter().enumerate().all(|(k, &b)| !is_attention(b) || found.add(at + k, 1))
}

/// True for a byte that needs escaping.
#[inline(always)]
pub(crate) const fn is_attention(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20 || byte >= 0xF0
}

const LOW_BITS: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
const QUOTES: u64 = 0x2222_2222_2222_2222;
const BACKSLASHES: u64 = 0x5C5C_5C5C_5C5C_5C5C;

/// Bit 7 of each byte of the result is set exactly where that byte of `word` is zero.
#[inline(always)]
fn zero_bytes(word: u64) -> u64 {
    // Adding 0x7F to the low seven bits carries into bit 7 iff they are non-zero; no carry can
    // cross a byte, so every flag is exact (not just the first one).
    !(((word & LOW_BITS) + LOW_BITS) | word) & HIGH_BITS
}

/// Bit 7 of each byte is set exactly where that byte needs escaping.
#[inline(always)]
pub(crate) fn attention_bytes(word: u64) -> u64 {
    // A byte is < 0x20 iff its bits 7, 6, 5 are all clear; it is >= 0xF0 iff bits 7..4 are all
    // set. Shifting left moves bits 6..4 of a byte onto its own bit 7, so both tests are exact.
    let control = !(word | (word << 1) | (word << 2)) & HIGH_BITS;
    let four_byte_lead = word & (word << 1) & (word << 2) & (word << 3) & HIGH_BITS;
    control | four_byte_lead | zero_bytes(word ^ QUOTES) | zero_bytes(word ^ BACKSLASHES)
}

/// [`find_attention`] eight bytes at a time, then byte by byte.
#[inline]
pub(crate) fn find_attention_words(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(word) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let flags = attention_bytes(u64::from_le_bytes(*word));
        if flags != 0 {
            // Little-endian load: the lowest flagged bit is the first flagged byte.
            return Some(i + (flags.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    bytes.get(i..)?.iter().position(|&b| is_attention(b)).map(|p| i + p)
}

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

/// The first attention byte at or after `from`, for `bytes` of at least 16 bytes, 16 bytes per
/// step; the last block overlaps the one before it instead of falling back to a byte loop.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
pub(crate) fn find_attention_simd(bytes: &[u8], from: usize) -> Option<usize> {
    find_in_blocks::<16>(bytes, from, |block| u64::from(block_mask(block)))
}

/// The loop every vector unit shares: `mask` flags the attention bytes of a `W`-byte block, one
/// bit per byte; `bytes` holds at least `W` bytes.
#[inline(always)]
fn find_in_blocks<const W: usize>(bytes: &[u8], from: usize, mask: impl Fn(&[u8; W]) -> u64) -> Option<usize> {
    let len = bytes.len();
    debug_assert!(len >= W);
    let mut at = from;
    while let Some(block) = bytes.get(at..).and_then(<[u8]>::first_chunk::<W>) {
        let flags = mask(block);
        if flags != 0 {
            return Some(at + flags.trailing_zeros() as usize);
        }
        at += W;
    }
    if at >= len {
        return None;
    }
    // Re-read the last `W` bytes, ignoring those before `at` (already scanned).
    let last = len - W;
    let flags = bytes[last..].first_chunk::<W>().map_or(0, &mask) >> (at - last);
    (flags != 0).then(|| at + flags.trailing_zeros() as usize)
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi8, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8,
        _mm256_or_si256, _mm256_set1_epi8,
    };

    /// Bit `k` set where byte `k` of `block` needs escaping (the SSE2 test, 32 bytes wide).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn block_mask(block: &[u8; 32]) -> u64 {
        // SAFETY: `block` is 32 readable bytes, exactly what the unaligned load reads.
        let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast::<__m256i>()) };
        let shifted = _mm256_add_epi8(v, _mm256_set1_epi8(0x10));
        let low = _mm256_cmpeq_epi8(_mm256_min_epu8(shifted, _mm256_set1_epi8(0x2F)), shifted);
        let quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'"' as i8));
        let backslash = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\\' as i8));
        u64::from(_mm256_movemask_epi8(_mm256_or_si256(low, _mm256_or_si256(quote, backslash))) as u32)
    }

    /// [`super::find_attention`] 32 bytes per step, for `bytes` of at least 32 bytes.
    #[target_feature(enable = "avx2")]
    pub(super) fn find(bytes: &[u8], from: usize) -> Option<usize> {
        super::find_in_blocks::<32>(bytes, from, |block| block_mask(block))
    }

    /// [`super::attention_positions`] 32 bytes per step, for `bytes` of at least 32 bytes.
    #[target_feature(enable = "avx2")]
    pub(super) fn collect(bytes: &[u8], from: usize, found: &mut super::Positions) -> bool {
        super::collect_blocks::<32>(bytes, from, found, |block| block_mask(block))
    }
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod neon {
    use std::arch::aarch64::{
        vaddq_u8, vceqq_u8, vcltq_u8, vdupq_n_u8, vget_lane_u64, vld1q_u8, vorrq_u8, vreinterpret_u64_u8,
        vreinterpretq_u16_u8, vshrn_n_u16,
    };

    /// Four bits per byte of `block`, all set where that byte needs escaping (NEON has no
    /// movemask; narrowing each 16-bit lane by four bits keeps a nibble of each byte's flag).
    #[inline(always)]
    fn block_nibbles(block: &[u8; 16]) -> u64 {
        // SAFETY: `block` is 16 readable bytes, exactly what the load reads (no alignment
        // needed); NEON is part of this target (the module's cfg).
        unsafe {
            let v = vld1q_u8(block.as_ptr());
            let low = vcltq_u8(vaddq_u8(v, vdupq_n_u8(0x10)), vdupq_n_u8(0x30));
            let quote = vceqq_u8(v, vdupq_n_u8(b'"'));
            let backslash = vceqq_u8(v, vdupq_n_u8(b'\\'));
            let flags = vorrq_u8(low, vorrq_u8(quote, backslash));
            vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(vreinterpretq_u16_u8(flags))))
        }
    }

    /// [`super::find_attention`] 16 bytes per step, for `bytes` of at least 16 bytes.
    #[inline]
    pub(super) fn find(bytes: &[u8], from: usize) -> Option<usize> {
        // One bit per byte for the shared loop: the lowest bit of each nibble, gathered.
        super::find_in_blocks::<16>(bytes, from, |block| gather_nibbles(block_nibbles(block)))
    }

    /// [`super::attention_positions`] 16 bytes per step, for `bytes` of at least 16 bytes.
    #[inline]
    pub(super) fn collect(bytes: &[u8], from: usize, found: &mut super::Positions) -> bool {
        super::collect_blocks::<16>(bytes, from, found, |block| gather_nibbles(block_nibbles(block)))
    }

    /// Bit `k` of the result is bit `4k` of `nibbles` (each nibble is all ones or all zeros).
    #[inline(always)]
    fn gather_nibbles(nibbles: u64) -> u64 {
        let mut bits = nibbles & 0x1111_1111_1111_1111;
        bits = (bits | bits >> 3) & 0x0303_0303_0303_0303;
        bits = (bits | bits >> 6) & 0x000F_000F_000F_000F;
        bits = (bits | bits >> 12) & 0x0000_00FF_0000_00FF;
        (bits | bits >> 24) & 0xFFFF
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(bytes: &[u8], from: usize) -> Option<usize> {
        bytes.iter().skip(from).position(|&b| is_attention(b)).map(|p| from + p)
    }

    /// The bytes the scan looks for and their neighbours at each threshold.
    const CLASS_BYTES: [u8; 14] = [0x00, 0x1F, 0x20, 0x21, b'"', 0x23, 0x5B, b'\\', 0x5D, 0x7F, 0x80, 0xEF, 0xF0, 0xFF];

    #[test]
    fn every_byte_value_at_every_offset_and_length() {
        // Debug builds (the AddressSanitizer stage) stop after two 32-byte blocks and a tail.
        let longest = if cfg!(debug_assertions) { 70 } else { 100 };
        for len in 0..longest {
            for pos in 0..len {
                // Every byte value at every third offset (up to 99 these reach every lane of a
                // 32-byte block), the threshold bytes everywhere: a third of the work, which
                // matters under qemu (the ARM64 stage runs these tests).
                let bytes_here: Vec<u8> = if pos % 3 == 0 { (0u8..=255).collect() } else { CLASS_BYTES.to_vec() };
                for byte in bytes_here {
                    let mut bytes = vec![b'a'; len];
                    bytes[pos] = byte;
                    for unit in Unit::available() {
                        for from in [0, pos, pos + 1] {
                            let found = find_attention(unit, &bytes, from);
                            assert_eq!(found, reference(&bytes, from), "{unit:?} byte {byte:#04x} at {pos} of {len}");
                            let all = attention_positions(unit, &bytes, from, len, usize::MAX);
                            let expected = (from..len).filter(|&i| is_attention(bytes[i])).collect();
                            assert_eq!(all, Some(expected), "{unit:?} byte {byte:#04x} at {pos} of {len}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn word_flags_are_exact() {
        for b in 0u8..=255 {
            for lane in 0..8 {
                // Surround with bytes that are themselves near the thresholds.
                let mut word = [0x21u8, 0xEF, 0x20, 0x5D, 0x23, 0x5B, 0x7F, 0xE0];
                word[lane] = b;
                let flags = attention_bytes(u64::from_le_bytes(word));
                assert_eq!(flags == 0, !is_attention(b), "byte {b:#04x} in lane {lane}");
                if is_attention(b) {
                    assert_eq!(flags, 0x80 << (8 * lane), "byte {b:#04x} in lane {lane}");
                }
            }
        }
    }

    #[test]
    fn positions_of_dense_and_sparse_buffers() {
        let data: Vec<u8> = (0..700u32).map(|i| if i % 37 == 5 || i % 101 == 0 { b'"' } else { b'x' }).collect();
        let expected: Vec<usize> = (3..650).filter(|&i| data[i] == b'"').collect();
        for unit in Unit::available() {
            assert_eq!(attention_positions(unit, &data, 3, 650, usize::MAX), Some(expected.clone()), "{unit:?}");
            assert_eq!(attention_positions(unit, &data, 3, 650, expected.len() - 1), None, "{unit:?}");
            assert_eq!(attention_positions(unit, &data, 7, 7, 0), Some(vec![]), "{unit:?}");
        }
    }

    #[test]
    fn the_widest_unit_is_detected() {
        let units = Unit::available();
        assert_eq!(units.last(), Some(&Unit::Words));
        assert_eq!(Unit::detected(), units[0]);
        #[cfg(target_arch = "x86_64")]
        assert!(units.contains(&Unit::Sse2));
        #[cfg(target_arch = "aarch64")]
        assert!(units.contains(&Unit::Neon));
    }
}
