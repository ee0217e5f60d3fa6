//! Where values go in a `BinaryRowData` slab: a row's fixed part, the slot of one field in every
//! row ([`Target`]), and one slot of a row or array with its variable part ([`Slot`]).

/// Bytes of the null bits (with the header byte), in whole 8-byte words.
pub(super) fn null_bytes(arity: usize) -> usize {
    (arity + 8).div_ceil(64) * 8
}

/// A row's fixed part: the null bits, then one 8-byte slot per field.
pub(super) fn fixed_size(arity: usize) -> usize {
    null_bytes(arity) + 8 * arity
}

/// The slab being written, seen from one column: where each row starts, each row's variable
/// part so far, and this field's null bit and slot.
pub(super) struct Target<'a> {
    data: &'a mut [u8],
    offsets: &'a [usize],
    cursors: &'a mut [usize],
    null_byte: usize,
    null_mask: u8,
    slot: usize,
}

impl<'a> Target<'a> {
    pub(super) fn new(
        data: &'a mut [u8],
        offsets: &'a [usize],
        cursors: &'a mut [usize],
        field: usize,
        arity: usize,
    ) -> Target<'a> {
        let bit = field + 8; // after the header byte
        Target {
            data,
            offsets,
            cursors,
            null_byte: bit / 8,
            null_mask: 1 << (bit % 8),
            slot: null_bytes(arity) + 8 * field,
        }
    }

    pub(super) fn rows(&self) -> usize {
        self.cursors.len()
    }

    #[inline(always)]
    pub(super) fn null(&mut self, row: usize) {
        self.data[self.offsets[row] + self.null_byte] |= self.null_mask;
    }

    /// The field's slot in row `row`.
    #[inline(always)]
    pub(super) fn slot_of(&mut self, row: usize) -> Slot<'_> {
        let base = self.offsets[row];
        Slot { data: self.data, base, at: base + self.slot, cursor: &mut self.cursors[row] }
    }
}

/// One 8-byte slot of a row (or an element of an array) in a zeroed slab, with the variable
/// part of the row (or array) it belongs to.
pub(super) struct Slot<'a> {
    pub(super) data: &'a mut [u8],
    /// Where the row or array starts: variable offsets count from here.
    pub(super) base: usize,
    /// Where the slot starts.
    pub(super) at: usize,
    /// The end of the variable part so far, from `base`.
    pub(super) cursor: &'a mut usize,
}

impl Slot<'_> {
    /// A fixed-size value at the start of the (zeroed) slot.
    #[inline(always)]
    pub(super) fn fixed(&mut self, value: &[u8]) {
        self.data[self.at..self.at + value.len()].copy_from_slice(value);
    }

    /// Up to 7 bytes in the slot, the slot's last byte `0x80 | length`.
    #[inline(always)]
    pub(super) fn inline(&mut self, value: &[u8]) {
        self.fixed(value);
        self.data[self.at + 7] = 0x80 | value.len() as u8;
    }

    /// `value` at the variable cursor, which moves on by `reserved`; the slot holds the value's
    /// offset and `size`.
    #[inline(always)]
    pub(super) fn variable(&mut self, value: &[u8], reserved: usize, size: u32) {
        let at = self.base + *self.cursor;
        self.data[at..at + value.len()].copy_from_slice(value);
        self.offset_and_size(size);
        *self.cursor += reserved;
    }

    /// The slot of a value already written at the variable cursor.
    #[inline(always)]
    pub(super) fn offset_and_size(&mut self, size: u32) {
        self.fixed(&(((*self.cursor as u64) << 32) | u64::from(size)).to_le_bytes());
    }
}
