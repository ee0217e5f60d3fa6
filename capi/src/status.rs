//! Status codes, error text, and the guard that keeps panics on this side of the ABI.
use kjson_arrow::ffi::guard::{self, FailureKind};
use kjson_arrow::runtime::KjsonError;
use std::cell::RefCell;
use std::ffi::{c_char, CString};

/// What a `kjson_*` call returns; the text is `kjson_error`'s.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KjsonStatus {
    Ok = 0,
    /// A null or misaligned pointer, an unknown or closed handle, text that is not UTF-8, an
    /// Arrow struct that was released already or does not describe a batch.
    InvalidArgument = 1,
    /// The sink or the batch was refused: the DDL, an option, a type, a column's Arrow type,
    /// a null map key under `map-null-key.mode = FAIL`, or output past the slab limit.
    Refused = 2,
    /// A bug in kjson (an internal error or a caught panic); after a panic the handle refuses
    /// further calls: close it and open another.
    Internal = 3,
    /// `kjson_decode`: a Kafka record that Flink's deserializer fails on failed the batch (the
    /// decoder's default); the text starts `record N: ` and the call's errors name record N.
    RecordFailed = 4,
}

/// A failed call: its status and its text.
#[derive(Debug)]
pub struct CallError {
    pub status: KjsonStatus,
    pub message: String,
}

impl CallError {
    pub fn argument(message: impl Into<String>) -> CallError {
        CallError { status: KjsonStatus::InvalidArgument, message: message.into() }
    }
}

impl From<KjsonError> for CallError {
    fn from(error: KjsonError) -> CallError {
        let status = match FailureKind::of(&error) {
            FailureKind::Record => KjsonStatus::RecordFailed,
            FailureKind::Internal => KjsonStatus::Internal,
            _ => KjsonStatus::Refused,
        };
        CallError { status, message: error.to_string() }
    }
}

/// Error text as C holds it; a NUL inside the message (from user input) becomes a space.
pub struct ErrorText(CString);

impl ErrorText {
    pub fn empty() -> ErrorText {
        ErrorText(CString::default())
    }

    pub fn set(&mut self, message: &str) {
        self.0 = CString::new(message.replace('\0', " ")).unwrap_or_default();
    }

    pub fn as_ptr(&self) -> *const c_char {
        self.0.as_ptr()
    }
}

thread_local! {
    /// The text of this thread's last failed call that had no handle to keep it (a failed open,
    /// an unknown handle).
    static THREAD_ERROR: RefCell<ErrorText> = RefCell::new(ErrorText::empty());
}

pub fn set_thread_error(message: &str) {
    THREAD_ERROR.with(|e| e.borrow_mut().set(message));
}

/// Valid until this thread's next failed call without a handle.
pub fn thread_error() -> *const c_char {
    THREAD_ERROR.with(|e| e.borrow().as_ptr())
}

/// Runs `body`, turning a panic into [`KjsonStatus::Internal`] with the panic's text.
pub fn catch_panic<T>(body: impl FnOnce() -> Result<T, CallError>) -> Result<T, CallError> {
    guard::catch_panic(body)
        .unwrap_or_else(|panic| Err(CallError { status: KjsonStatus::Internal, message: panic.to_string() }))
}

/// The status of a call without a handle to keep its error text.
pub fn thread_status(result: Result<(), CallError>) -> KjsonStatus {
    match result {
        Ok(()) => KjsonStatus::Ok,
        Err(error) => {
            set_thread_error(&error.message);
            error.status
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error_with_its_text() {
        let error = catch_panic::<()>(|| panic!("boom {}", 7)).unwrap_err();
        assert_eq!(error.status, KjsonStatus::Internal);
        assert!(error.message.contains("boom 7"), "{}", error.message);
    }

    #[test]
    fn a_nul_inside_error_text_does_not_cut_it() {
        let mut text = ErrorText::empty();
        text.set("column `a\0b`");
        // SAFETY: the pointer is ErrorText's own NUL-terminated string, alive here.
        let read = unsafe { std::ffi::CStr::from_ptr(text.as_ptr()) };
        assert_eq!(read.to_str().unwrap(), "column `a b`");
    }
}
