//! The encoded records as C sees them: pointers into the handle's slabs.
use kjson_arrow::runtime::{KeyValueSlabs, Slab};

/// One side's records: record `i` is `bytes[offsets[i] .. offsets[i] + lengths[i]]`, and a
/// negative length is a null key (keys) or a tombstone (values).
#[repr(C)]
pub struct KjsonSlab {
    pub bytes: *const u8,
    pub bytes_len: usize,
    pub offsets: *const i32,
    pub lengths: *const i32,
    /// Records, one per row of the batch.
    pub count: usize,
}

/// The keys and values of one batch. Valid until the next call on the same handle, or its close.
#[repr(C)]
pub struct KjsonRecords {
    pub keys: KjsonSlab,
    pub values: KjsonSlab,
}

impl KjsonSlab {
    fn of(slab: &Slab) -> KjsonSlab {
        KjsonSlab {
            bytes: slab.bytes().as_ptr(),
            bytes_len: slab.bytes().len(),
            offsets: slab.offsets().as_ptr(),
            lengths: slab.lengths().as_ptr(),
            count: slab.len(),
        }
    }

    fn empty() -> KjsonSlab {
        KjsonSlab {
            bytes: std::ptr::null(),
            bytes_len: 0,
            offsets: std::ptr::null(),
            lengths: std::ptr::null(),
            count: 0,
        }
    }
}

impl KjsonRecords {
    pub fn of(slabs: &KeyValueSlabs) -> KjsonRecords {
        KjsonRecords { keys: KjsonSlab::of(slabs.keys()), values: KjsonSlab::of(slabs.values()) }
    }

    /// What a failed encode leaves in the caller's output struct.
    pub fn empty() -> KjsonRecords {
        KjsonRecords { keys: KjsonSlab::empty(), values: KjsonSlab::empty() }
    }
}
