//! A small fixed-capacity unsigned big integer for the legacy (JDK <= 18) digit loop.
//!
//! The legacy algorithm needs exact values of the form `f * 5^a * 2^b` up to about 1100 bits
//! (a double's range scaled to integers), a few comparisons, `* 10`, and a quotient that is a
//! single decimal digit. Fixed capacity keeps it on the stack: no allocation in the hot path.
use std::cmp::Ordering;

/// 64-bit limbs; 20 limbs = 1280 bits, above the ~1210 bits the largest case needs.
const LIMBS: usize = 20;

/// The largest power of five that fits in a `u64`: `5^27`.
const POW5_27: u64 = 7_450_580_596_923_828_125;

/// Little-endian limbs; `len` limbs are significant, the rest are zero.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BigUint {
    limbs: [u64; LIMBS],
    len: usize,
}

impl BigUint {
    pub(crate) fn from_u64(value: u64) -> Self {
        let mut big = BigUint { limbs: [0; LIMBS], len: 1 };
        big.limbs[0] = value;
        big.trim();
        big
    }

    #[cfg(test)]
    pub(crate) fn from_u128(value: u128) -> Self {
        let mut big = BigUint { limbs: [0; LIMBS], len: 2 };
        big.limbs[0] = value as u64;
        big.limbs[1] = (value >> 64) as u64;
        big.trim();
        big
    }

    /// `factor * 5^pow5 * 2^pow2`.
    pub(crate) fn from_mul_pow5_pow2(factor: u64, pow5: u32, pow2: u32) -> Self {
        let mut big = BigUint::from_u64(factor);
        big.mul_pow5(pow5);
        big.shl(pow2);
        big
    }

    fn trim(&mut self) {
        while self.len > 0 && self.limbs[self.len - 1] == 0 {
            self.len -= 1;
        }
    }

    /// Multiplies in place by a 64-bit factor. A carry past the capacity is dropped; the callers'
    /// bounds keep every value far below it.
    pub(crate) fn mul_small(&mut self, factor: u64) {
        let mut carry: u64 = 0;
        for limb in &mut self.limbs[..self.len] {
            let product = u128::from(*limb) * u128::from(factor) + u128::from(carry);
            *limb = product as u64;
            carry = (product >> 64) as u64;
        }
        if carry != 0 && self.len < LIMBS {
            self.limbs[self.len] = carry;
            self.len += 1;
        }
        debug_assert!(carry == 0 || self.len < LIMBS || self.limbs[LIMBS - 1] == carry);
        self.trim();
    }

    pub(crate) fn mul_pow5(&mut self, mut pow5: u32) {
        while pow5 >= 27 {
            self.mul_small(POW5_27);
            pow5 -= 27;
        }
        if pow5 > 0 {
            self.mul_small(5u64.pow(pow5));
        }
    }

    /// Shifts left in place by `bits`.
    pub(crate) fn shl(&mut self, bits: u32) {
        if self.len == 0 || bits == 0 {
            return;
        }
        let limb_shift = (bits / 64) as usize;
        let bit_shift = bits % 64;
        let new_len = (self.len + limb_shift + 1).min(LIMBS);
        debug_assert!(self.len + limb_shift < LIMBS, "BigUint::shl past capacity");
        for target in (0..new_len).rev() {
            let high = self.limb_or_zero(target as isize - limb_shift as isize);
            let low = self.limb_or_zero(target as isize - limb_shift as isize - 1);
            self.limbs[target] = if bit_shift == 0 { high } else { (high << bit_shift) | (low >> (64 - bit_shift)) };
        }
        self.len = new_len;
        self.trim();
    }

    fn limb_or_zero(&self, index: isize) -> u64 {
        if index < 0 || index as usize >= self.len {
            0
        } else {
            self.limbs[index as usize]
        }
    }

    pub(crate) fn compare(&self, other: &BigUint) -> Ordering {
        if self.len != other.len {
            return self.len.cmp(&other.len);
        }
        for index in (0..self.len).rev() {
            match self.limbs[index].cmp(&other.limbs[index]) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }

    /// Compares `self + addend` with `bound` without changing either operand.
    pub(crate) fn sum_compare(&self, addend: &BigUint, bound: &BigUint) -> Ordering {
        // Usually the top 120 bits decide; the exact sum is needed only near equality.
        let shift = bound.bit_len().saturating_sub(120);
        if self.bit_len() <= shift + 126 && addend.bit_len() <= shift + 126 {
            let sum_top = self.bits_from(shift) + addend.bits_from(shift);
            let bound_top = bound.bits_from(shift);
            // floor(a) + floor(b) <= (a + b) / 2^shift < floor(a) + floor(b) + 2
            if sum_top + 2 <= bound_top {
                return Ordering::Less;
            }
            if sum_top > bound_top {
                return Ordering::Greater;
            }
        }
        let mut sum = *self;
        sum.add_assign(addend);
        sum.compare(bound)
    }

    fn add_assign(&mut self, other: &BigUint) {
        let len = self.len.max(other.len);
        let mut carry = false;
        for index in 0..len {
            let (partial, overflow_a) = self.limbs[index].overflowing_add(other.limbs[index]);
            let (total, overflow_b) = partial.overflowing_add(u64::from(carry));
            self.limbs[index] = total;
            carry = overflow_a || overflow_b;
        }
        self.len = len;
        if carry && len < LIMBS {
            self.limbs[len] = 1;
            self.len += 1;
        }
    }

    /// Subtracts `other`, which must not exceed `self`.
    fn sub_assign(&mut self, other: &BigUint) {
        let mut borrow = false;
        for index in 0..self.len {
            let (partial, under_a) = self.limbs[index].overflowing_sub(other.limbs[index]);
            let (total, under_b) = partial.overflowing_sub(u64::from(borrow));
            self.limbs[index] = total;
            borrow = under_a || under_b;
        }
        debug_assert!(!borrow, "BigUint::sub_assign underflow");
        self.trim();
    }

    fn bit_len(&self) -> u32 {
        match self.len {
            0 => 0,
            len => 64 * len as u32 - self.limbs[len - 1].leading_zeros(),
        }
    }

    /// `floor(self / 2^shift)`, truncated to 128 bits.
    fn bits_from(&self, shift: u32) -> u128 {
        let limb = (shift / 64) as isize;
        let bit = shift % 64;
        let low_pair = u128::from(self.limb_or_zero(limb)) | u128::from(self.limb_or_zero(limb + 1)) << 64;
        if bit == 0 {
            low_pair
        } else {
            (low_pair >> bit) | u128::from(self.limb_or_zero(limb + 2)) << (128 - bit)
        }
    }

    /// Subtracts `factor * other`, which must not exceed `self`.
    fn sub_mul_small(&mut self, other: &BigUint, factor: u64) {
        let mut carry: u64 = 0;
        let mut borrow = false;
        for index in 0..self.len {
            let product = u128::from(other.limbs[index]) * u128::from(factor) + u128::from(carry);
            carry = (product >> 64) as u64;
            let (partial, under_a) = self.limbs[index].overflowing_sub(product as u64);
            let (total, under_b) = partial.overflowing_sub(u64::from(borrow));
            self.limbs[index] = total;
            borrow = under_a || under_b;
        }
        debug_assert!(carry == 0 && !borrow, "BigUint::sub_mul_small underflow");
        self.trim();
    }

    /// Returns `floor(self / divisor)`, which the callers keep below 16, and leaves
    /// `10 * (self mod divisor)` in `self`.
    pub(crate) fn next_digit(&mut self, divisor: &DigitDivisor) -> u64 {
        // An under-estimate from the top bits, then at most a couple of corrections.
        let estimate = (self.bits_from(divisor.shift) / (u128::from(divisor.top) + 1)) as u64;
        if estimate > 0 {
            self.sub_mul_small(&divisor.value, estimate);
        }
        let mut quotient = estimate;
        for _ in 0..16 {
            if !self.sub_if_not_less(&divisor.value) {
                break;
            }
            quotient += 1;
        }
        self.mul_small(10);
        quotient
    }

    /// Subtracts `other` if it is not larger than `self`; says whether it did.
    fn sub_if_not_less(&mut self, other: &BigUint) -> bool {
        if self.compare(other) == Ordering::Less {
            return false;
        }
        self.sub_assign(other);
        true
    }
}

/// A divisor prepared for [`BigUint::next_digit`]: its top 64 bits and their position.
pub(crate) struct DigitDivisor {
    value: BigUint,
    shift: u32,
    top: u64,
}

impl DigitDivisor {
    pub(crate) fn new(value: BigUint) -> Self {
        let shift = value.bit_len().saturating_sub(64);
        let top = value.bits_from(shift) as u64;
        DigitDivisor { value, shift, top }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_u128(big: &BigUint) -> u128 {
        assert!(big.len <= 2);
        u128::from(big.limbs[0]) | (u128::from(big.limbs[1]) << 64)
    }

    #[test]
    fn small_values_match_u128_arithmetic() {
        let mut big = BigUint::from_mul_pow5_pow2(12345, 20, 7);
        assert_eq!(to_u128(&big), (12345 * 5u128.pow(20)) << 7);
        big.mul_small(10);
        assert_eq!(to_u128(&big), (12345 * 5u128.pow(20) * 10) << 7);
        let other = BigUint::from_u128(u128::MAX >> 3);
        assert_eq!(big.compare(&other), ((12345 * 5u128.pow(20) * 10) << 7).cmp(&(u128::MAX >> 3)));
        assert_eq!(BigUint::from_u64(0).len, 0);
    }

    #[test]
    fn shifts_cross_limbs_and_subtraction_borrows() {
        let mut big = BigUint::from_u64(0x8000_0000_0000_0001);
        big.shl(65);
        assert_eq!(big.len, 3);
        assert_eq!(big.limbs[..3], [0, 2, 1]);
        let mut one_less = big;
        assert!(one_less.sub_if_not_less(&BigUint::from_u64(1)));
        assert_eq!(one_less.limbs[..2], [u64::MAX, 1]);
        assert!(!BigUint::from_u64(5).sub_if_not_less(&big));
        assert_eq!(big.sum_compare(&BigUint::from_u64(0), &big), Ordering::Equal);
        assert_eq!(one_less.sum_compare(&BigUint::from_u64(1), &big), Ordering::Equal);
    }

    #[test]
    fn next_digit_is_exact_division() {
        let mut divisor_value = BigUint::from_u64(1);
        divisor_value.mul_pow5(90);
        divisor_value.shl(13);
        let divisor = DigitDivisor::new(divisor_value);
        for quotient in 0..16u64 {
            for remainder_factor in [0u64, 1, 12345, u64::MAX] {
                // dividend = quotient * divisor + remainder, with remainder < divisor
                let mut remainder = BigUint::from_u64(remainder_factor);
                remainder.shl(100);
                let mut dividend = divisor_value;
                dividend.mul_small(quotient);
                dividend.add_assign(&remainder);
                assert_eq!(dividend.next_digit(&divisor), quotient);
                remainder.mul_small(10);
                assert_eq!(dividend.compare(&remainder), Ordering::Equal);
            }
        }
    }

    #[test]
    fn bits_from_reads_across_limbs() {
        let mut big = BigUint::from_u64(0b1011);
        big.shl(190);
        assert_eq!(big.bits_from(190), 0b1011);
        assert_eq!(big.bits_from(130), 0b1011 << 60);
        assert_eq!(big.bit_len(), 194);
        assert_eq!(BigUint::from_u64(u64::MAX).bits_from(0), u128::from(u64::MAX));
    }

    #[test]
    fn sum_compare_is_exact_near_and_far_from_the_bound() {
        let mut bound = BigUint::from_u64(1);
        bound.mul_pow5(200);
        for gap in [1u64, 2, 3, 1 << 40] {
            let mut below = bound;
            below.sub_assign(&BigUint::from_u64(gap));
            let sum_with = |addend: u64| below.sum_compare(&BigUint::from_u64(addend), &bound);
            assert_eq!(sum_with(gap - 1), Ordering::Less, "gap {gap}");
            assert_eq!(sum_with(gap), Ordering::Equal, "gap {gap}");
            assert_eq!(sum_with(gap + 1), Ordering::Greater, "gap {gap}");
        }
        let small = BigUint::from_u64(3);
        assert_eq!(small.sum_compare(&small, &bound), Ordering::Less);
        assert_eq!(bound.sum_compare(&small, &small), Ordering::Greater);
    }
}
