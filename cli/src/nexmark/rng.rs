//! A small deterministic PRNG (SplitMix64) with the draws the Nexmark generators make.
//! Upstream uses `java.util.SplittableRandom`; only the distributions matter here, not its bits.

/// SplitMix64: one 64-bit state, a Weyl increment and a 64-bit finalizer.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A full-range signed int, like Java's `nextInt()`.
    #[inline]
    pub fn next_i32(&mut self) -> i32 {
        (self.next_u64() >> 32) as i32
    }

    /// Uniform in `[0, bound)`, like Java's `nextInt(bound)`; `bound` 0 gives 0.
    /// Multiply-shift: the bias is at most bound / 2^32, far below what any test could see.
    #[inline]
    pub fn next_below(&mut self, bound: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(bound)) >> 32) as u32
    }

    /// Uniform in `[0, bound)` for a long bound, like upstream's `LongGenerator.nextLong`.
    #[inline]
    pub fn next_long_below(&mut self, bound: i64) -> i64 {
        if bound <= 0 {
            return 0;
        }
        if bound < i64::from(i32::MAX) {
            return i64::from(self.next_below(bound as u32));
        }
        ((self.next_u64() as i64) % bound).wrapping_abs()
    }

    /// Uniform in `[0, 1)` with 53 random bits, like Java's `nextDouble()`.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_below_stays_in_range_and_covers_it() {
        let mut rng = SplitMix64::new(7);
        let mut seen = [0u32; 13];
        for _ in 0..13_000 {
            seen[rng.next_below(13) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800 && n < 1200), "{seen:?}");
        assert_eq!(rng.next_below(0), 0);
    }

    #[test]
    fn next_i32_takes_both_signs() {
        let mut rng = SplitMix64::new(1);
        let negatives = (0..10_000).filter(|_| rng.next_i32() < 0).count();
        assert!((4_500..5_500).contains(&negatives), "{negatives}");
    }

    #[test]
    fn next_f64_is_in_unit_interval() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..10_000 {
            let x = rng.next_f64();
            assert!((0.0..1.0).contains(&x));
        }
    }

    #[test]
    fn next_long_below_handles_large_bounds() {
        let mut rng = SplitMix64::new(5);
        for _ in 0..1_000 {
            let x = rng.next_long_below(i64::MAX / 3);
            assert!((0..i64::MAX / 3).contains(&x));
        }
        assert_eq!(rng.next_long_below(1), 0);
    }
}
