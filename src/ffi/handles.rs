//! The handle table of the native edges (JNI and the C ABI): an open encoder or decoder is a
//! number, a slot index plus that slot's generation, so a zero, closed, twice-closed or forged
//! handle is an error rather than a dangling pointer. Safe Rust only.
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// One open session. Its own lock makes a handle shared by mistake between threads safe; a task
/// uses it from one thread, so it is never contended.
pub type Shared<T> = Arc<Mutex<T>>;

/// Locks a table. A poisoned table lock only means a panic was caught while it was held; every
/// table operation leaves the table consistent, so it stays usable.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Locks a session for a call, or `None` when an earlier call on it panicked: its encoder or
/// decoder may be half-way through a batch, so it is not used again (close it and open another).
pub fn lock_session<T>(session: &Shared<T>) -> Option<MutexGuard<'_, T>> {
    session.lock().ok()
}

/// Why a handle does not name an open session of a table (the noun is the table's: "encoder").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandleError {
    Zero(&'static str),
    /// Closed already, or never issued by this table.
    NotOpen(&'static str, u64),
}

impl fmt::Display for HandleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandleError::Zero(noun) => write!(f, "{noun} handle is 0: the {noun} was never opened"),
            HandleError::NotOpen(noun, h) => {
                write!(f, "unknown handle {h:#x}: the {noun} is closed or was never opened")
            }
        }
    }
}

impl std::error::Error for HandleError {}

struct Slot<T> {
    /// Starts at 1 and changes on every close, so no handle is ever 0 or reused soon.
    generation: u32,
    session: Option<Shared<T>>,
}

/// The sessions of one kind, by handle. Keep it behind a `Mutex` and take it with [`lock`].
pub struct HandleTable<T> {
    noun: &'static str,
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
}

fn pack(index: u32, generation: u32) -> u64 {
    (u64::from(generation) << 32) | u64::from(index)
}

fn unpack(handle: u64) -> (u32, u32) {
    (handle as u32, (handle >> 32) as u32)
}

impl<T> HandleTable<T> {
    /// `noun` names the sessions in messages ("encoder", "decoder", "handle").
    pub const fn new(noun: &'static str) -> HandleTable<T> {
        HandleTable { noun, slots: Vec::new(), free: Vec::new() }
    }

    pub fn insert(&mut self, session: T) -> u64 {
        let session = Some(Arc::new(Mutex::new(session)));
        match self.free.pop() {
            Some(index) => {
                let slot = &mut self.slots[index as usize];
                slot.session = session;
                pack(index, slot.generation)
            }
            None => {
                let index = u32::try_from(self.slots.len()).expect("fewer than 2^32 sessions open at once");
                self.slots.push(Slot { generation: 1, session });
                pack(index, 1)
            }
        }
    }

    fn slot(&mut self, handle: u64) -> Result<&mut Slot<T>, HandleError> {
        if handle == 0 {
            return Err(HandleError::Zero(self.noun));
        }
        let (index, generation) = unpack(handle);
        match self.slots.get_mut(index as usize) {
            Some(slot) if slot.generation == generation && slot.session.is_some() => Ok(slot),
            _ => Err(HandleError::NotOpen(self.noun, handle)),
        }
    }

    pub fn get(&mut self, handle: u64) -> Result<Shared<T>, HandleError> {
        let noun = self.noun;
        self.slot(handle)?.session.clone().ok_or(HandleError::NotOpen(noun, handle))
    }

    /// Removes the session; it is dropped once a concurrent call holding it returns.
    pub fn remove(&mut self, handle: u64) -> Result<Shared<T>, HandleError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_never_zero_and_die_on_close() {
        let mut table = HandleTable::new("encoder");
        let h = table.insert("session");
        assert_ne!(h, 0);
        assert!(table.get(h).is_ok());
        assert!(table.remove(h).is_ok());
        assert_eq!(table.remove(h).err(), Some(HandleError::NotOpen("encoder", h)));
        assert_eq!(table.get(h).err(), Some(HandleError::NotOpen("encoder", h)));
        assert_eq!(table.get(0).err(), Some(HandleError::Zero("encoder")));
    }

    #[test]
    fn a_reused_slot_gets_a_new_handle() {
        let mut table = HandleTable::new("encoder");
        let first = table.insert(1);
        table.remove(first).expect("close");
        let second = table.insert(2);
        assert_ne!(first, second);
        assert_eq!(table.get(first).err(), Some(HandleError::NotOpen("encoder", first)));
        assert_eq!(*lock(&table.get(second).expect("open")), 2);
        assert_eq!(table.open_count(), 1);
    }

    #[test]
    fn forged_handles_are_rejected() {
        let mut table = HandleTable::new("decoder");
        let h = table.insert(());
        for forged in [h + 1, h ^ (1 << 40), u64::MAX, 1 << 63, 12345] {
            assert!(table.get(forged).is_err(), "{forged:#x}");
        }
    }

    fn poison<T: Send + 'static>(mutex: Arc<Mutex<T>>) {
        let _ = std::thread::spawn(move || {
            let _guard = mutex.lock().expect("first lock");
            panic!("poison the lock");
        })
        .join();
    }

    #[test]
    fn a_session_that_panicked_is_not_used_again_but_its_table_is() {
        let table = Arc::new(Mutex::new(HandleTable::new("encoder")));
        let handle = lock(&table).insert(5);
        let session = lock(&table).get(handle).expect("open");
        poison(Arc::clone(&session));
        assert!(lock_session(&session).is_none());
        poison(Arc::clone(&table));
        assert!(lock(&table).remove(handle).is_ok());
        assert_eq!(lock(&table).open_count(), 0);
    }

    #[test]
    fn messages_name_the_table() {
        assert_eq!(HandleError::Zero("decoder").to_string(), "decoder handle is 0: the decoder was never opened");
        assert_eq!(
            HandleError::NotOpen("encoder", 0x1_0000_0002).to_string(),
            "unknown handle 0x100000002: the encoder is closed or was never opened"
        );
    }
}
