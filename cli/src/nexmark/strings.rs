//! Random strings as upstream's `StringsGenerator` makes them: `nextString` and the `extra`
//! padding cut from one 1 MiB pool.
use super::rng::SplitMix64;

const MIN_STRING_LENGTH: u32 = 3;
/// Upstream's reusable extra string is 1024 * 1024 characters.
pub const EXTRA_POOL_LEN: usize = 1024 * 1024;

/// `3 + nextInt(max - 3)` characters, each `'a' + nextInt(26)` or, with probability 1/13,
/// `special`; then `trim()`med (which removes spaces, never `'_'`).
pub fn next_string(rng: &mut SplitMix64, max_len: u32, special: char) -> String {
    let len = MIN_STRING_LENGTH + rng.next_below(max_len.saturating_sub(MIN_STRING_LENGTH));
    let mut text = String::with_capacity(len as usize);
    for _ in 0..len {
        if rng.next_below(13) == 0 {
            text.push(special);
        } else {
            text.push(char::from(b'a' + rng.next_below(26) as u8));
        }
    }
    // Java's trim() strips every char <= ' ' at both ends; only the space can occur here.
    let trimmed = text.trim_matches(|c: char| c <= ' ');
    if trimmed.len() == text.len() {
        text
    } else {
        trimmed.to_string()
    }
}

/// A substring of the pool: `extra` values are views, never copies, until a batch is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExtraSlice {
    pub offset: u32,
    pub len: u32,
}

/// The 1 MiB pool every `extra` is cut from.
#[derive(Debug, Clone)]
pub struct ExtraPool {
    text: String,
}

impl ExtraPool {
    /// Builds the pool as upstream's `nextExactString` does while the pool is still null: six
    /// base-26 digits per signed `nextInt()`, each `'a' + rnd % 26` with Java's signed `%`, so the
    /// digits run -25..25 and the alphabet is `H`..`Z [ \ ] ^ _ `` ` `` a`..`z`.
    pub fn new(rng: &mut SplitMix64) -> Self {
        let mut bytes = Vec::with_capacity(EXTRA_POOL_LEN);
        let mut rnd: i32 = 0;
        let mut digits_left = 0;
        while bytes.len() < EXTRA_POOL_LEN {
            if digits_left == 0 {
                rnd = rng.next_i32();
                digits_left = 6;
            }
            // Rust's `%` and `/` on i32 truncate toward zero, exactly like Java's.
            bytes.push((i32::from(b'a') + rnd % 26) as u8);
            rnd /= 26;
            digits_left -= 1;
        }
        let text = bytes.into_iter().map(char::from).collect();
        ExtraPool { text }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The characters of `slice` (always ASCII, so any range is a char boundary).
    #[inline]
    pub fn get(&self, slice: ExtraSlice) -> &str {
        let start = slice.offset as usize;
        let end = (start + slice.len as usize).min(self.text.len());
        self.text.get(start.min(end)..end).unwrap_or("")
    }

    /// `nextExtra(currentSize, desiredAverageSize)`: a length in `[d - round(0.2d), d +
    /// round(0.2d))` with `d = average - current`, cut at a random offset of the pool.
    pub fn next_extra(&self, rng: &mut SplitMix64, current_size: i32, average_size: i32) -> ExtraSlice {
        if current_size > average_size {
            return ExtraSlice::default();
        }
        let desired = average_size - current_size;
        let delta = java_round(f64::from(desired) * 0.2) as i32;
        let min_size = desired - delta;
        let size = if delta == 0 { min_size } else { min_size + rng.next_below(2 * delta as u32) as i32 };
        self.exact_slice(rng, size.max(0) as u32)
    }

    fn exact_slice(&self, rng: &mut SplitMix64, len: u32) -> ExtraSlice {
        // Upstream cuts from the pool when len < pool / 2; the sizes Nexmark asks for are < 600.
        let len = len.min(EXTRA_POOL_LEN as u32 / 2);
        let offset = rng.next_below(EXTRA_POOL_LEN as u32 - len);
        ExtraSlice { offset, len }
    }
}

/// Java's `Math.round(double)`: floor(x + 0.5).
pub fn java_round(x: f64) -> i64 {
    (x + 0.5).floor() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_string_length_and_alphabet() {
        let mut rng = SplitMix64::new(11);
        for _ in 0..5_000 {
            let s = next_string(&mut rng, 20, ' ');
            assert!(s.len() <= 19, "{s:?}");
            assert!(!s.starts_with(' ') && !s.ends_with(' '), "{s:?}");
            assert!(s.bytes().all(|b| b == b' ' || b.is_ascii_lowercase()), "{s:?}");
        }
    }

    #[test]
    fn next_string_keeps_underscores_at_the_ends() {
        let mut rng = SplitMix64::new(12);
        let edge_underscores = (0..20_000)
            .map(|_| next_string(&mut rng, 5, '_'))
            .filter(|s| s.starts_with('_') || s.ends_with('_'))
            .count();
        assert!(edge_underscores > 1_000, "{edge_underscores}");
    }

    #[test]
    fn pool_alphabet_is_the_signed_modulo_one() {
        let pool = ExtraPool::new(&mut SplitMix64::new(13));
        assert_eq!(pool.as_str().len(), EXTRA_POOL_LEN);
        let mut seen = [false; 128];
        for b in pool.as_str().bytes() {
            seen[b as usize] = true;
        }
        let alphabet: String = (0u8..128).filter(|b| seen[*b as usize]).map(char::from).collect();
        assert_eq!(alphabet, "HIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz");
    }

    #[test]
    fn pool_has_backslashes_at_about_one_in_fifty() {
        let pool = ExtraPool::new(&mut SplitMix64::new(14));
        let backslashes = pool.as_str().bytes().filter(|&b| b == b'\\').count();
        let rate = backslashes as f64 / EXTRA_POOL_LEN as f64;
        // Reference: 1.29 backslashes per 67.5-char bid extra = 1.9%.
        assert!((0.017..0.021).contains(&rate), "{rate}");
    }

    #[test]
    fn bid_extra_lengths_run_54_to_81() {
        let mut rng = SplitMix64::new(15);
        let pool = ExtraPool::new(&mut rng);
        let (mut min, mut max) = (u32::MAX, 0);
        for _ in 0..20_000 {
            let slice = pool.next_extra(&mut rng, 32, 100);
            assert_eq!(pool.get(slice).len() as u32, slice.len);
            min = min.min(slice.len);
            max = max.max(slice.len);
        }
        assert_eq!((min, max), (54, 81));
    }

    #[test]
    fn extra_is_empty_when_the_row_is_already_too_big() {
        let mut rng = SplitMix64::new(16);
        let pool = ExtraPool::new(&mut rng);
        assert_eq!(pool.next_extra(&mut rng, 300, 200).len, 0);
    }

    #[test]
    fn java_round_rounds_halves_up() {
        assert_eq!(java_round(13.6), 14);
        assert_eq!(java_round(2.5), 3);
        assert_eq!(java_round(-2.5), -2);
    }
}
