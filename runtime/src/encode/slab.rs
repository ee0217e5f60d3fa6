//! Key and value slabs: one contiguous byte buffer per side plus per-row offsets and lengths.
//! A negative length is a null key or a tombstone.
use crate::error::{KjsonError, Result};

/// Marks a null record (null key, Kafka tombstone) in [`Slab::lengths`].
pub const NULL_LENGTH: i32 = -1;

/// Read-only outside the encoders: a slab is handed out complete or not at all.
#[derive(Debug, Default, Clone)]
pub struct Slab {
    pub(crate) bytes: Vec<u8>,
    pub(crate) offsets: Vec<i32>,
    pub(crate) lengths: Vec<i32>,
}

impl Slab {
    /// The records' bytes, back to back.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Where each row's record starts in [`Slab::bytes`].
    pub fn offsets(&self) -> &[i32] {
        &self.offsets
    }

    /// Each row's record length; negative (-1) for a null key or a tombstone.
    pub fn lengths(&self) -> &[i32] {
        &self.lengths
    }

    /// Empties the slab, keeping its allocations for the next batch.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.offsets.clear();
        self.lengths.clear();
    }

    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// The bytes of record `row`, `None` for a null key or tombstone.
    pub fn record(&self, row: usize) -> Option<&[u8]> {
        let len = self.lengths[row];
        if len < 0 {
            return None;
        }
        let start = self.offsets[row] as usize;
        Some(&self.bytes[start..start + len as usize])
    }

    /// Appends one row's record (`None`: a null key or a tombstone), for slabs built outside an
    /// encoder (tests, other producers of the same shape).
    pub fn push_record(&mut self, record: Option<&[u8]>) -> Result<()> {
        match record {
            None => {
                self.push_null();
                Ok(())
            }
            Some(bytes) => {
                let start = self.bytes.len();
                self.bytes.extend_from_slice(bytes);
                self.finish_record(start)
            }
        }
    }

    /// Records a null entry for the next row.
    #[inline]
    pub fn push_null(&mut self) {
        self.offsets.push(self.bytes.len() as i32);
        self.lengths.push(NULL_LENGTH);
    }

    /// Records null entries for the next `count` rows at once: the key slab of a sink without a
    /// key, filled before the row loop rather than a row at a time in it.
    pub(crate) fn push_nulls(&mut self, count: usize) {
        let at = self.bytes.len() as i32;
        self.offsets.resize(self.offsets.len() + count, at);
        self.lengths.resize(self.lengths.len() + count, NULL_LENGTH);
    }

    /// Records that the bytes from `start` to the current end form the next row.
    /// Fails, rather than wrapping, when the slab outgrows i32 offsets.
    #[inline]
    pub fn finish_record(&mut self, start: usize) -> Result<()> {
        let end = self.bytes.len();
        if end > i32::MAX as usize {
            return Err(slab_overflow(end));
        }
        self.offsets.push(start as i32);
        self.lengths.push((end - start) as i32);
        Ok(())
    }
}

#[cold]
fn slab_overflow(size: usize) -> KjsonError {
    KjsonError::Limit {
        message: format!(
            "encoded batch needs {size} bytes, more than one slab's i32 offsets can address (2147483647); split the batch"
        ),
    }
}

/// The output of one `encode` call.
#[derive(Debug, Default, Clone)]
pub struct KeyValueSlabs {
    pub(crate) keys: Slab,
    pub(crate) values: Slab,
}

impl KeyValueSlabs {
    pub fn new(keys: Slab, values: Slab) -> KeyValueSlabs {
        KeyValueSlabs { keys, values }
    }

    /// The key records; empty when the sink has no key format.
    pub fn keys(&self) -> &Slab {
        &self.keys
    }

    pub fn values(&self) -> &Slab {
        &self.values
    }

    pub fn clear(&mut self) {
        self.keys.clear();
        self.values.clear();
    }

    pub fn num_rows(&self) -> usize {
        self.values.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slab whose bytes pass i32::MAX is a `Limit` error, never wrapped offsets. The buffer is
    /// zero-filled by the allocator (`calloc`), so its pages are never touched.
    #[test]
    fn slab_past_i32_offsets_is_a_limit_error() {
        let mut slab = Slab { bytes: vec![0u8; i32::MAX as usize + 1], ..Slab::default() };
        let error = slab.finish_record(5).unwrap_err();
        assert!(matches!(error, KjsonError::Limit { .. }), "{error:?}");
        assert!(error.message().contains("2147483648 bytes") && error.message().contains("split the batch"), "{error}");
        assert!(slab.offsets().is_empty() && slab.lengths().is_empty());
        slab.bytes.truncate(i32::MAX as usize);
        slab.finish_record(i32::MAX as usize - 3).unwrap();
        assert_eq!((slab.offsets()[0], slab.lengths()[0]), (i32::MAX - 3, 3));
    }

    #[test]
    fn records_pushed_from_outside_keep_offsets_and_nulls() {
        let mut slab = Slab::default();
        slab.push_record(Some(b"ab")).unwrap();
        slab.push_record(None).unwrap();
        slab.push_record(Some(b"c")).unwrap();
        assert_eq!(
            (slab.bytes(), slab.offsets(), slab.lengths()),
            (&b"abc"[..], &[0, 2, 2][..], &[2, NULL_LENGTH, 1][..])
        );
        assert_eq!((slab.record(0), slab.record(1), slab.record(2)), (Some(&b"ab"[..]), None, Some(&b"c"[..])));
    }

    #[test]
    fn nulls_pushed_at_once_are_nulls_pushed_one_by_one() {
        let mut one_by_one = Slab::default();
        one_by_one.push_record(Some(b"ab")).unwrap();
        let mut at_once = one_by_one.clone();
        (0..3).for_each(|_| one_by_one.push_null());
        at_once.push_nulls(3);
        assert_eq!((at_once.offsets(), at_once.lengths()), (one_by_one.offsets(), one_by_one.lengths()));
        assert_eq!(at_once.lengths(), [2, NULL_LENGTH, NULL_LENGTH, NULL_LENGTH]);
    }
}
