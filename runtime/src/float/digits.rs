//! A digit string with its decimal point: what the legacy digit loop produces. A leaf module, so
//! the algorithms ([`super::jdk17`]) and the front ([`super`]) share it without importing each other.

/// Capacity of [`DecimalDigits`]; the legacy algorithm's digit buffer has the same size.
pub(crate) const MAX_DIGITS: usize = 20;

/// A decimal `0.d1 d2 ... dn * 10^point`, digits as ASCII.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DecimalDigits {
    pub(crate) bytes: [u8; MAX_DIGITS],
    pub(crate) len: usize,
    pub(crate) point: i32,
}

impl DecimalDigits {
    pub(crate) fn empty() -> Self {
        DecimalDigits { bytes: [b'0'; MAX_DIGITS], len: 0, point: 0 }
    }

    pub(crate) fn is_full(&self) -> bool {
        self.len == MAX_DIGITS
    }

    /// Appends one digit (0..=9; other values only if the caller's invariants broke).
    pub(crate) fn push_digit(&mut self, digit: i64) {
        if self.len < MAX_DIGITS {
            self.bytes[self.len] = b'0'.wrapping_add(digit as u8);
            self.len += 1;
        }
    }

    pub(crate) fn last_digit_is_odd(&self) -> bool {
        self.len > 0 && self.bytes[self.len - 1] & 1 == 1
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}
