//! The handle table behind the `long` handles Java holds. A handle is a slot index plus the
//! slot's generation, so a zero, closed, twice-closed or forged handle is an error rather than a
//! dangling pointer. Safe Rust only.
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use arrow_schema::DataType as ArrowType;
use kjson_arrow::Encoder;

/// What one handle holds: the encoder and the Arrow type of its last batch (reused when the
/// caller passes no schema).
pub struct Session {
    pub encoder: Encoder,
    pub batch_type: Option<ArrowType>,
}

/// One open session. The mutex makes a handle shared by mistake between threads safe; a task
/// uses it from one thread, so it is never contended.
pub type SharedEncoder = Arc<Mutex<Session>>;

/// Why a handle does not name an open encoder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandleError {
    Zero,
    /// Closed already, or never issued by this library.
    NotOpen(i64),
}

impl std::fmt::Display for HandleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandleError::Zero => write!(f, "encoder handle is 0: the encoder was never opened"),
            HandleError::NotOpen(h) => write!(f, "encoder handle {h:#x} is closed or was never opened"),
        }
    }
}

struct Slot {
    /// Starts at 1 and changes on every close, so no handle is ever 0 or reused.
    generation: u32,
    encoder: Option<SharedEncoder>,
}

#[derive(Default)]
pub struct Registry {
    slots: Vec<Slot>,
    free: Vec<u32>,
}

fn pack(index: u32, generation: u32) -> i64 {
    ((u64::from(generation) << 32) | u64::from(index)) as i64
}

fn unpack(handle: i64) -> (u32, u32) {
    let bits = handle as u64;
    (bits as u32, (bits >> 32) as u32)
}

impl Registry {
    pub fn insert(&mut self, encoder: Encoder) -> i64 {
        let encoder = Some(Arc::new(Mutex::new(Session { encoder, batch_type: None })));
        match self.free.pop() {
            Some(index) => {
                let slot = &mut self.slots[index as usize];
                slot.encoder = encoder;
                pack(index, slot.generation)
            }
            None => {
                let index = self.slots.len() as u32;
                self.slots.push(Slot { generation: 1, encoder });
                pack(index, 1)
            }
        }
    }

    fn slot(&mut self, handle: i64) -> Result<&mut Slot, HandleError> {
        if handle == 0 {
            return Err(HandleError::Zero);
        }
        let (index, generation) = unpack(handle);
        match self.slots.get_mut(index as usize) {
            Some(slot) if slot.generation == generation && slot.encoder.is_some() => Ok(slot),
            _ => Err(HandleError::NotOpen(handle)),
        }
    }

    pub fn get(&mut self, handle: i64) -> Result<SharedEncoder, HandleError> {
        self.slot(handle)?.encoder.clone().ok_or(HandleError::NotOpen(handle))
    }

    /// Removes the encoder; it is dropped once a concurrent `encode` holding it returns.
    pub fn remove(&mut self, handle: i64) -> Result<SharedEncoder, HandleError> {
        let (index, _) = unpack(handle);
        let slot = self.slot(handle)?;
        let encoder = slot.encoder.take().ok_or(HandleError::NotOpen(handle))?;
        slot.generation = match slot.generation.wrapping_add(1) {
            0 => 1,
            g => g,
        };
        self.free.push(index);
        Ok(encoder)
    }

    pub fn open_count(&self) -> usize {
        self.slots.iter().filter(|s| s.encoder.is_some()).count()
    }
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry { slots: Vec::new(), free: Vec::new() });

/// The process-wide table. A panic never happens while it is held, but a poisoned lock is
/// still usable: every operation leaves the table consistent.
pub fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kjson_runtime::{Column, Compatibility, DataType, JsonOptions, LogicalType, SideSpec, SinkSpec};

    fn encoder() -> Encoder {
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
        Encoder::open(spec, Compatibility::default()).expect("open")
    }

    #[test]
    fn handles_are_never_zero_and_die_on_close() {
        let mut reg = Registry::default();
        let h = reg.insert(encoder());
        assert_ne!(h, 0);
        assert!(reg.get(h).is_ok());
        assert!(reg.remove(h).is_ok());
        assert_eq!(reg.remove(h).err(), Some(HandleError::NotOpen(h)));
        assert_eq!(reg.get(h).err(), Some(HandleError::NotOpen(h)));
        assert_eq!(reg.get(0).err(), Some(HandleError::Zero));
    }

    #[test]
    fn a_reused_slot_gets_a_new_handle() {
        let mut reg = Registry::default();
        let first = reg.insert(encoder());
        reg.remove(first).expect("close");
        let second = reg.insert(encoder());
        assert_ne!(first, second);
        assert_eq!(reg.get(first).err(), Some(HandleError::NotOpen(first)));
        assert!(reg.get(second).is_ok());
        assert_eq!(reg.open_count(), 1);
    }

    #[test]
    fn forged_handles_are_rejected() {
        let mut reg = Registry::default();
        let h = reg.insert(encoder());
        for forged in [h + 1, h ^ (1 << 40), -1, i64::MIN, 12345] {
            assert!(reg.get(forged).is_err(), "{forged:#x}");
        }
    }
}
