//! Where the generator's choices come from: a seeded RNG (property tests, soak; replayable from
//! the seed) or libFuzzer's bytes (the fuzz targets, feature `arbitrary`). The generator asks
//! only for numbers below a bound and for raw 64-bit words, so both sources give every layout.

/// A source of choices. An exhausted byte source answers 0: a draw always ends, at the smallest
/// choice.
pub trait Choices {
    /// A number in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: u64) -> u64;
    /// Any 64-bit word (raw bits of floats, hashes of values, "anything" branches).
    fn word(&mut self) -> u64;
}

impl dyn Choices + '_ {
    /// True `per_mille` times in a thousand; false from an exhausted source (the top of the
    /// range answers true, so that 0, the smallest choice, means "no").
    pub fn chance(&mut self, per_mille: u32) -> bool {
        self.below(1000) >= 1000 - u64::from(per_mille.min(1000))
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// A count in `0..=max`.
    pub fn up_to(&mut self, max: usize) -> usize {
        self.below(max as u64 + 1) as usize
    }
}

/// xorshift64*: no dependency, the same sequence on every platform.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next_word(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

impl Choices for Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.next_word() % n.max(1)
    }

    fn word(&mut self) -> u64 {
        self.next_word()
    }
}

/// libFuzzer's input as the source: each choice reads as few bytes as its range needs, so the
/// fuzzer's mutations map onto choices. It borrows the target's `Unstructured`, so that a target
/// can draw its own choices from the same input between calls.
#[cfg(feature = "arbitrary")]
pub struct FuzzBytes<'u, 'a>(pub &'u mut arbitrary::Unstructured<'a>);

#[cfg(feature = "arbitrary")]
impl Choices for FuzzBytes<'_, '_> {
    fn below(&mut self, n: u64) -> u64 {
        match n {
            0 | 1 => 0,
            // An exhausted input gives the range's start; the range is never empty.
            _ => self.0.int_in_range(0..=n - 1).unwrap_or(0),
        }
    }

    fn word(&mut self) -> u64 {
        self.0.arbitrary().unwrap_or(0)
    }
}
