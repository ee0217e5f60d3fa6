//! A decoder handle's state: the decoder, and the failed records of its last call kept for C.
use std::ffi::{c_char, CString};

use kjson_arrow::runtime::KjsonError;
use kjson_arrow::Decoder;

/// The records that failed in the last `kjson_decode` on a handle: under collect, every one
/// (they gave no row); under fail, the one that failed the batch. Valid until the next call on
/// the handle or its close.
#[repr(C)]
pub struct KjsonDecodeErrors {
    pub count: usize,
    /// The failed records' indices in the batch.
    pub records: *const usize,
    /// Their messages (Flink's), NUL-terminated, one per record.
    pub messages: *const *const c_char,
}

impl KjsonDecodeErrors {
    pub(crate) fn empty() -> KjsonDecodeErrors {
        KjsonDecodeErrors { count: 0, records: std::ptr::null(), messages: std::ptr::null() }
    }
}

/// Pointers into the handle's own message strings.
struct MessagePointers(Vec<*const c_char>);

// SAFETY: the pointers address `CString`s owned by the same `DecoderState`, which moves between
// threads as a whole (behind the handle's lock); Rust never reads through them, C does.
unsafe impl Send for MessagePointers {}

/// A decoder handle's state: the decoder and the failed records of its last call.
pub struct DecoderState {
    pub(crate) decoder: Decoder,
    error_records: Vec<usize>,
    error_texts: Vec<CString>,
    error_pointers: MessagePointers,
}

impl DecoderState {
    pub(crate) fn new(decoder: Decoder) -> DecoderState {
        DecoderState {
            decoder,
            error_records: Vec::new(),
            error_texts: Vec::new(),
            error_pointers: MessagePointers(Vec::new()),
        }
    }

    /// Keeps the failed records for C and describes them.
    pub(crate) fn keep_errors<'e>(&mut self, errors: impl Iterator<Item = &'e KjsonError>) -> KjsonDecodeErrors {
        self.error_records.clear();
        self.error_texts.clear();
        for error in errors {
            let (record, message) = match error {
                KjsonError::Record { record, message } => (*record, message.as_str()),
                other => (usize::MAX, other.message()),
            };
            self.error_records.push(record);
            self.error_texts.push(CString::new(message.replace('\0', " ")).unwrap_or_default());
        }
        self.error_pointers = MessagePointers(self.error_texts.iter().map(|t| t.as_ptr()).collect());
        match self.error_records.len() {
            0 => KjsonDecodeErrors::empty(),
            count => KjsonDecodeErrors {
                count,
                records: self.error_records.as_ptr(),
                messages: self.error_pointers.0.as_ptr(),
            },
        }
    }
}
