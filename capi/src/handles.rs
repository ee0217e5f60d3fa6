//! Open encoders and decoders by handle (one table, one numbering). Handles are numbers that are never reused, so a closed or made-up
//! handle is an error, not a use after free. Each handle's state sits behind its own lock; the
//! table's lock is held only to look a handle up.
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

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

type Table = Mutex<HashMap<KjsonHandle, Arc<Mutex<HandleState>>>>;

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(Default::default)
}

/// A poisoned lock only means a panic was caught while it was held; the encoder starts every
/// batch afresh, so its state is still usable.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub fn insert(engine: Engine) -> KjsonHandle {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let handle = NEXT.fetch_add(1, Ordering::Relaxed);
    let state = HandleState { engine, error: ErrorText::empty() };
    lock(table()).insert(handle, Arc::new(Mutex::new(state)));
    handle
}

fn get(handle: KjsonHandle) -> Option<Arc<Mutex<HandleState>>> {
    lock(table()).get(&handle).cloned()
}

pub fn remove(handle: KjsonHandle) -> bool {
    lock(table()).remove(&handle).is_some()
}

/// Removes a decoder's handle; an encoder's stays open.
pub fn remove_decoder(handle: KjsonHandle) -> Result<(), CallError> {
    let entry = get(handle).ok_or_else(|| unknown(handle))?;
    if matches!(lock(&entry).engine, Engine::Encoder(_)) {
        return Err(CallError::argument(format!("handle {handle} is an encoder's: close it with kjson_close")));
    }
    match remove(handle) {
        true => Ok(()),
        false => Err(unknown(handle)),
    }
}

fn unknown(handle: KjsonHandle) -> CallError {
    CallError::argument(format!("unknown handle {handle} (never opened, or closed already)"))
}

/// Runs `body` on the handle's state. Its error text goes to the handle (cleared on success),
/// or to the thread when the handle is unknown.
pub fn with_handle(handle: KjsonHandle, body: impl FnOnce(&mut HandleState) -> Result<(), CallError>) -> KjsonStatus {
    let Some(entry) = catch_panic(|| Ok(get(handle))).ok().flatten() else {
        set_thread_error(&unknown(handle).message);
        return KjsonStatus::InvalidArgument;
    };
    let mut state = lock(&entry);
    match catch_panic(|| body(&mut state)) {
        Ok(()) => {
            state.error = ErrorText::empty();
            KjsonStatus::Ok
        }
        Err(error) => {
            state.error.set(&error.message);
            error.status
        }
    }
}

/// The handle's last error text, or `None` for an unknown handle. The pointer stays valid until
/// the next call on the handle or its close.
pub fn error_text(handle: KjsonHandle) -> Option<*const std::ffi::c_char> {
    get(handle).map(|entry| lock(&entry).error.as_ptr())
}
