//! Open encoders and decoders by handle: one [`HandleTable`] of the layer the native edges share
//! (one numbering for both), so a zero, closed or made-up handle is an error, not a use after
//! free. Each handle's state sits behind its own lock; the table's lock is held only to look a
//! handle up.
use std::sync::Mutex;

use kjson_arrow::ffi::handles::{self, HandleError, HandleTable, Shared};
use kjson_arrow::Encoder;

use crate::decoder_state::DecoderState;
use crate::status::{catch_panic, set_thread_error, CallError, ErrorText, KjsonStatus};

/// An open encoder or decoder; 0 is never a handle.
pub type KjsonHandle = u64;

/// What a handle holds.
pub enum Engine {
    Encoder(Box<Encoder>),
    Decoder(Box<DecoderState>),
}

/// One handle's encoder or decoder and the text of its last failed call.
pub struct HandleState {
    pub engine: Engine,
    pub error: ErrorText,
    /// A call on it panicked: as on the JNI edge, its encoder or decoder may be half-way through
    /// a batch, so it is not used again (the error text stays readable until it is closed).
    failed: bool,
}

impl HandleState {
    pub fn encoder(&mut self) -> Result<&mut Encoder, CallError> {
        match &mut self.engine {
            Engine::Encoder(encoder) => Ok(encoder),
            Engine::Decoder(_) => {
                Err(CallError::argument("the handle is a decoder's (kjson_decoder_open_*), not an encoder's"))
            }
        }
    }

    pub fn decoder(&mut self) -> Result<&mut DecoderState, CallError> {
        match &mut self.engine {
            Engine::Decoder(decoder) => Ok(decoder),
            Engine::Encoder(_) => {
                Err(CallError::argument("the handle is an encoder's (kjson_open_*), not a decoder's"))
            }
        }
    }
}

static TABLE: Mutex<HandleTable<HandleState>> = Mutex::new(HandleTable::new("encoder or decoder"));

pub fn insert(engine: Engine) -> KjsonHandle {
    let state = HandleState { engine, error: ErrorText::empty(), failed: false };
    handles::lock(&TABLE).insert(state)
}

fn get(handle: KjsonHandle) -> Result<Shared<HandleState>, CallError> {
    handles::lock(&TABLE).get(handle).map_err(unknown)
}

pub fn remove(handle: KjsonHandle) -> Result<(), CallError> {
    handles::lock(&TABLE).remove(handle).map(drop).map_err(unknown)
}

/// Removes a decoder's handle; an encoder's stays open.
pub fn remove_decoder(handle: KjsonHandle) -> Result<(), CallError> {
    let entry = get(handle)?;
    if matches!(handles::lock(&entry).engine, Engine::Encoder(_)) {
        return Err(CallError::argument(format!("handle {handle} is an encoder's: close it with kjson_close")));
    }
    remove(handle)
}

fn unknown(error: HandleError) -> CallError {
    CallError::argument(error.to_string())
}

/// Runs `body` on the handle's state. Its error text goes to the handle (cleared on success),
/// or to the thread when the handle is unknown.
pub fn with_handle(handle: KjsonHandle, body: impl FnOnce(&mut HandleState) -> Result<(), CallError>) -> KjsonStatus {
    let entry = match catch_panic(|| get(handle)) {
        Ok(entry) => entry,
        Err(error) => {
            set_thread_error(&error.message);
            return error.status;
        }
    };
    // The guard is taken outside the panic guard, so a panic in `body` does not poison the lock
    // and the text of that failure can be kept with the handle.
    let mut state = handles::lock(&entry);
    if state.failed {
        let message = format!("handle {handle} failed internally before; close it and open a new one");
        state.error.set(&message);
        return KjsonStatus::InvalidArgument;
    }
    match catch_panic(|| body(&mut state)) {
        Ok(()) => {
            state.error = ErrorText::empty();
            KjsonStatus::Ok
        }
        Err(error) => {
            state.failed = error.status == KjsonStatus::Internal;
            state.error.set(&error.message);
            error.status
        }
    }
}

/// The handle's last error text, or `None` for an unknown handle. The pointer stays valid until
/// the next call on the handle or its close.
pub fn error_text(handle: KjsonHandle) -> Option<*const std::ffi::c_char> {
    get(handle).ok().map(|entry| handles::lock(&entry).error.as_ptr())
}
