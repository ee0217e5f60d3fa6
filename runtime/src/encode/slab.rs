//! Key and value slabs: one contiguous byte buffer per side plus per-row offsets and lengths.
//! A negative length is a null key or a tombstone.
use crate::error::{KjsonError, Result};

/// Marks a null record (null key, Kafka tombstone) in [`Slab::lengths`].
pub const NULL_LENGTH: i32 = -1;

#[derive(Debug, Default, Clone)]
pub struct Slab {
    pub bytes: Vec<u8>,
    pub offsets: Vec<i32>,
    pub lengths: Vec<i32>,
}

impl Slab {
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

    /// Records a null entry for the next row.
    #[inline]
    pub fn push_null(&mut self) {
        self.offsets.push(self.bytes.len() as i32);
        self.lengths.push(NULL_LENGTH);
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
    pub keys: Slab,
    pub values: Slab,
}

impl KeyValueSlabs {
    pub fn clear(&mut self) {
        self.keys.clear();
        self.values.clear();
    }

    pub fn num_rows(&self) -> usize {
        self.values.len()
    }
}
