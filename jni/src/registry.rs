//! The handle tables behind the `long` handles Java holds: one for encoders, one for decoders. A
//! handle is a slot index plus the slot's generation, so a zero, closed, twice-closed or forged
//! handle is an error rather than a dangling pointer. Safe Rust only.
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use arrow_schema::DataType as ArrowType;
use kjson_arrow::{Decoder, Encoder};

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

/// One open session. The mutex makes a handle shared by mistake between threads safe; a task
/// uses it from one thread, so it is never contended.
pub type Shared<T> = Arc<Mutex<T>>;

/// Why a handle does not name an open encoder (or decoder: the noun is the table's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandleError {
    Zero(&'static str),
    /// Closed already, or never issued by this library.
    NotOpen(&'static str, i64),
}

impl std::fmt::Display for HandleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandleError::Zero(noun) => write!(f, "{noun} handle is 0: the {noun} was never opened"),
            HandleError::NotOpen(noun, h) => write!(f, "{noun} handle {h:#x} is closed or was never opened"),
        }
    }
}

struct Slot<T> {
    /// Starts at 1 and changes on every close, so no handle is ever 0 or reused.
    generation: u32,
    session: Option<Shared<T>>,
}

pub struct Registry<T> {
    /// "encoder" or "decoder", for messages.
    noun: &'static str,
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
}

fn pack(index: u32, generation: u32) -> i64 {
    ((u64::from(generation) << 32) | u64::from(index)) as i64
}

fn unpack(handle: i64) -> (u32, u32) {
    let bits = handle as u64;
    (bits as u32, (bits >> 32) as u32)
}

impl<T> Registry<T> {
    pub const fn new(noun: &'static str) -> Registry<T> {
        Registry { noun, slots: Vec::new(), free: Vec::new() }
    }

    pub fn insert(&mut self, session: T) -> i64 {
        let session = Some(Arc::new(Mutex::new(session)));
        match self.free.pop() {
            Some(index) => {
                let slot = &mut self.slots[index as usize];
                slot.session = session;
                pack(index, slot.generation)
            }
            None => {
                let index = self.slots.len() as u32;
                self.slots.push(Slot { generation: 1, session });
                pack(index, 1)
            }
        }
    }

    fn slot(&mut self, handle: i64) -> Result<&mut Slot<T>, HandleError> {
        if handle == 0 {
            return Err(HandleError::Zero(self.noun));
        }
        let (index, generation) = unpack(handle);
        match self.slots.get_mut(index as usize) {
            Some(slot) if slot.generation == generation && slot.session.is_some() => Ok(slot),
            _ => Err(HandleError::NotOpen(self.noun, handle)),
        }
    }

    pub fn get(&mut self, handle: i64) -> Result<Shared<T>, HandleError> {
        let noun = self.noun;
        self.slot(handle)?.session.clone().ok_or(HandleError::NotOpen(noun, handle))
    }

    /// Removes the session; it is dropped once a concurrent call holding it returns.
    pub fn remove(&mut self, handle: i64) -> Result<Shared<T>, HandleError> {
        let (index, _) = unpack(handle);
        let noun = self.noun;
        let slot = self.slot(handle)?;
        let session = slot.session.take().ok_or(HandleError::NotOpen(noun, handle))?;
        slot.generation = match slot.generation.wrapping_add(1) {
            0 => 1,
            g => g,
        };
        self.free.push(index);
        Ok(session)
    }

    pub fn open_count(&self) -> usize {
        self.slots.iter().filter(|s| s.session.is_some()).count()
    }
}

static REGISTRY: Mutex<Registry<Session>> = Mutex::new(Registry::new("encoder"));
static DECODERS: Mutex<Registry<DecodeSession>> = Mutex::new(Registry::new("decoder"));

/// The process-wide encoder table. A panic never happens while it is held, but a poisoned lock
/// is still usable: every operation leaves the table consistent.
pub fn registry() -> MutexGuard<'static, Registry<Session>> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The process-wide decoder table (as [`registry`]). Its handles are separate: an encoder's
/// handle passed to a decoder export is refused, and the reverse.
pub fn decoders() -> MutexGuard<'static, Registry<DecodeSession>> {
    DECODERS.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kjson_runtime::{Column, Compatibility, DataType, JsonOptions, LogicalType, SideSpec, SinkSpec};

    fn encoder() -> Session {
        let spec = SinkSpec {
            table_name: "t".into(),
            connector: kjson_runtime::Connector::Kafka,
            columns: vec![Column { name: "a".into(), data_type: DataType::new(LogicalType::Int) }],
            ignored_columns: vec![],
            primary_key: vec![],
            key: None,
            value: SideSpec {
                projection: vec![0],
                field_names: vec!["a".into()],
                format: kjson_runtime::Format::Json,
                options: JsonOptions::default(),
            },
        };
        Session { encoder: Encoder::open(spec, Compatibility::default()).expect("open"), batch_type: None }
    }

    #[test]
    fn handles_are_never_zero_and_die_on_close() {
        let mut reg = Registry::new("encoder");
        let h = reg.insert(encoder());
        assert_ne!(h, 0);
        assert!(reg.get(h).is_ok());
        assert!(reg.remove(h).is_ok());
        assert_eq!(reg.remove(h).err(), Some(HandleError::NotOpen("encoder", h)));
        assert_eq!(reg.get(h).err(), Some(HandleError::NotOpen("encoder", h)));
        assert_eq!(reg.get(0).err(), Some(HandleError::Zero("encoder")));
    }

    #[test]
    fn a_reused_slot_gets_a_new_handle() {
        let mut reg = Registry::new("encoder");
        let first = reg.insert(encoder());
        reg.remove(first).expect("close");
        let second = reg.insert(encoder());
        assert_ne!(first, second);
        assert_eq!(reg.get(first).err(), Some(HandleError::NotOpen("encoder", first)));
        assert!(reg.get(second).is_ok());
        assert_eq!(reg.open_count(), 1);
    }

    #[test]
    fn forged_handles_are_rejected() {
        let mut reg = Registry::new("encoder");
        let h = reg.insert(encoder());
        for forged in [h + 1, h ^ (1 << 40), -1, i64::MIN, 12345] {
            assert!(reg.get(forged).is_err(), "{forged:#x}");
        }
    }
}
