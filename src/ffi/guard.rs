//! What the native edges (JNI and the C ABI) do with failures: one panic guard, so a panic never
//! unwinds into the JVM or a C caller, and one map from errors to the kind each edge reports
//! (a Java exception class, a C status).
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use kjson_runtime::KjsonError;

/// The kind of a failed call, as the edges tell them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// The DDL, an option or a column type was refused.
    Spec,
    /// The Arrow batch does not match the table's types.
    Schema,
    MapNullKey,
    /// Output past the slab limit.
    Limit,
    /// A value Flink cannot hold.
    Value,
    /// A Kafka record Flink's deserializer fails on.
    Record,
    /// A bug in kjson: an internal error or a caught panic.
    Internal,
}

impl FailureKind {
    pub fn of(error: &KjsonError) -> FailureKind {
        match error {
            KjsonError::Parse { .. } | KjsonError::Option { .. } | KjsonError::Type { .. } => FailureKind::Spec,
            KjsonError::Schema { .. } => FailureKind::Schema,
            KjsonError::MapNullKey { .. } => FailureKind::MapNullKey,
            KjsonError::Limit { .. } => FailureKind::Limit,
            KjsonError::Value { .. } => FailureKind::Value,
            KjsonError::Record { .. } => FailureKind::Record,
            _ => FailureKind::Internal,
        }
    }
}

/// A panic caught at an edge, as text that says it is a bug.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panic(pub String);

impl std::fmt::Display for Panic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "internal error in kjson's native library (a bug, please report it): {}", self.0)
    }
}

/// Runs `body`; a panic comes back as [`Panic`] instead of unwinding further.
pub fn catch_panic<R>(body: impl FnOnce() -> R) -> Result<R, Panic> {
    catch_unwind(AssertUnwindSafe(body)).map_err(|payload| Panic(panic_text(payload.as_ref())))
}

fn panic_text(payload: &(dyn Any + Send)) -> String {
    match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(s), _) => (*s).to_string(),
        (_, Some(s)) => s.clone(),
        _ => "a panic with a non-string payload".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panic_payloads_become_text() {
        assert_eq!(catch_panic(|| panic!("static text")).unwrap_err(), Panic("static text".into()));
        assert_eq!(catch_panic(|| panic!("formatted {}", 7)).unwrap_err(), Panic("formatted 7".into()));
        assert_eq!(catch_panic(|| std::panic::panic_any(7u8)).unwrap_err().0, "a panic with a non-string payload");
        assert_eq!(catch_panic(|| 3), Ok(3));
    }

    #[test]
    fn a_panic_says_it_is_a_bug() {
        let text = Panic("boom".into()).to_string();
        assert!(text.starts_with("internal error in kjson's native library (a bug"), "{text}");
        assert!(text.ends_with(": boom"), "{text}");
    }

    #[test]
    fn every_error_has_its_kind() {
        let cases = [
            (KjsonError::option("o"), FailureKind::Spec),
            (KjsonError::type_error("t"), FailureKind::Spec),
            (KjsonError::parse("p", None), FailureKind::Spec),
            (KjsonError::schema("s"), FailureKind::Schema),
            (KjsonError::MapNullKey { message: "m".into() }, FailureKind::MapNullKey),
            (KjsonError::Limit { message: "l".into() }, FailureKind::Limit),
            (KjsonError::value("v"), FailureKind::Value),
            (KjsonError::Record { record: 1, message: "r".into() }, FailureKind::Record),
            (KjsonError::internal("i"), FailureKind::Internal),
        ];
        for (error, kind) in cases {
            assert_eq!(FailureKind::of(&error), kind, "{error:?}");
        }
    }
}
