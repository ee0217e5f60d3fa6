//! The handle tables behind the `long` handles Java holds: one for encoders, one for decoders,
//! each a [`HandleTable`] of the layer the native edges share (a zero, closed or forged handle is
//! an error, not a dangling pointer). Java's `long` is the table's handle, bit for bit.
use std::sync::{Mutex, MutexGuard};

use arrow_schema::DataType as ArrowType;
use jni::sys::jlong;
use kjson_arrow::ffi::handles::{self, HandleError, HandleTable};
use kjson_arrow::{Decoder, Encoder};

pub use kjson_arrow::ffi::handles::Shared;

/// What one encoder handle holds: the encoder and the Arrow type of its last batch (reused when
/// the caller passes no schema).
pub struct Session {
    pub encoder: Encoder,
    pub batch_type: Option<ArrowType>,
}

/// What one decoder handle holds.
pub struct DecodeSession {
    pub decoder: Decoder,
}

/// A table seen through Java's signed handles.
pub struct Registry<T: 'static>(MutexGuard<'static, HandleTable<T>>);

impl<T: 'static> Registry<T> {
    pub fn insert(&mut self, session: T) -> jlong {
        self.0.insert(session) as jlong
    }

    pub fn get(&mut self, handle: jlong) -> Result<Shared<T>, HandleError> {
        self.0.get(handle as u64)
    }

    /// Removes the session; it is dropped once a concurrent call holding it returns.
    pub fn remove(&mut self, handle: jlong) -> Result<Shared<T>, HandleError> {
        self.0.remove(handle as u64)
    }

    pub fn open_count(&self) -> usize {
        self.0.open_count()
    }
}

static ENCODERS: Mutex<HandleTable<Session>> = Mutex::new(HandleTable::new("encoder"));
static DECODERS: Mutex<HandleTable<DecodeSession>> = Mutex::new(HandleTable::new("decoder"));

/// The process-wide encoder table.
pub fn registry() -> Registry<Session> {
    Registry(handles::lock(&ENCODERS))
}

/// The process-wide decoder table. Its handles are separate: an encoder's handle passed to a
/// decoder export is refused, and the reverse.
pub fn decoders() -> Registry<DecodeSession> {
    Registry(handles::lock(&DECODERS))
}
