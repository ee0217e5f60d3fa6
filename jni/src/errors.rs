//! The one place where failures become Java exceptions, and the wrapper every export runs its
//! body in (errors and panics are thrown, never unwound into the JVM).
use jni::objects::{JThrowable, JValue};
use jni::JNIEnv;
use kjson_arrow::ffi::guard::{self, FailureKind, Panic};
use kjson_arrow::ffi::handles::HandleError;
use kjson_runtime::KjsonError;

/// Everything that can go wrong in an export.
#[derive(Debug)]
pub enum BridgeError {
    /// The runtime refused the spec, the batch or a value.
    Kjson(KjsonError),
    /// The handle is zero, closed, or the encoder is unusable.
    Misuse(String),
    /// A null or malformed argument (addresses, arrays, version strings).
    Argument(String),
    /// A JNI call failed; if it left a Java exception pending, that one is reported.
    Jni(jni::errors::Error),
    /// A bug: a panic caught at the boundary.
    Panic(Panic),
}

impl From<KjsonError> for BridgeError {
    fn from(e: KjsonError) -> Self {
        BridgeError::Kjson(e)
    }
}

impl From<jni::errors::Error> for BridgeError {
    fn from(e: jni::errors::Error) -> Self {
        BridgeError::Jni(e)
    }
}

impl From<HandleError> for BridgeError {
    fn from(e: HandleError) -> Self {
        BridgeError::Misuse(e.to_string())
    }
}

const PACKAGE: &str = "org/kjson/flink/";

/// The Java exception class and message for an error (class names in JNI form).
pub fn java_exception(error: &BridgeError) -> (String, String) {
    let (class, message) = match error {
        BridgeError::Kjson(e) => {
            let class = match FailureKind::of(e) {
                FailureKind::Spec => "KjsonSpecException",
                FailureKind::Schema => "KjsonSchemaException",
                FailureKind::MapNullKey => "KjsonMapNullKeyException",
                FailureKind::Limit => "KjsonLimitException",
                FailureKind::Value => "KjsonValueException",
                FailureKind::Record => "KjsonRecordException",
                FailureKind::Internal => "KjsonException",
            };
            return (format!("{PACKAGE}{class}"), e.to_string());
        }
        BridgeError::Misuse(m) => ("java/lang/IllegalStateException", m.clone()),
        BridgeError::Argument(m) => ("java/lang/IllegalArgumentException", m.clone()),
        BridgeError::Jni(e) => ("org/kjson/flink/KjsonException", format!("JNI call failed: {e}")),
        BridgeError::Panic(panic) => ("org/kjson/flink/KjsonException", panic.to_string()),
    };
    (class.to_string(), message)
}

/// The index of the failing record, for `KjsonRecordException(int record, String message)`.
pub fn record_index(error: &BridgeError) -> Option<i32> {
    match error {
        BridgeError::Kjson(KjsonError::Record { record, .. }) => i32::try_from(*record).ok(),
        _ => None,
    }
}

/// Throws `KjsonRecordException(record, message)`; false when it could not be built.
fn throw_record(env: &mut JNIEnv<'_>, class: &str, record: i32, message: &str) -> bool {
    let built = (|| -> jni::errors::Result<JThrowable<'_>> {
        let text = env.new_string(message)?;
        let object = env.new_object(class, "(ILjava/lang/String;)V", &[JValue::Int(record), JValue::Object(&text)])?;
        Ok(JThrowable::from(object))
    })();
    match built {
        Ok(throwable) => env.throw(throwable).is_ok(),
        Err(_) => false,
    }
}

fn throw(env: &mut JNIEnv<'_>, error: BridgeError) {
    // A failed JNI call usually left its own exception (OutOfMemoryError, ...); keep that one.
    if env.exception_check().unwrap_or(true) {
        return;
    }
    let (class, message) = java_exception(&error);
    if let Some(record) = record_index(&error) {
        if throw_record(env, &class, record, &message) {
            return;
        }
        if env.exception_check().unwrap_or(true) {
            return;
        }
    }
    if env.throw_new(&class, &message).is_err() && !env.exception_check().unwrap_or(true) {
        // The exception class itself could not be loaded: fall back to a JDK class.
        let _ = env.throw_new("java/lang/RuntimeException", format!("{class}: {message}"));
    }
}

/// Runs an export's body; an error or a panic is thrown as a Java exception and `fallback`
/// (ignored by Java when an exception is pending) is returned instead.
pub fn guarded<'local, T>(
    env: &mut JNIEnv<'local>,
    fallback: T,
    body: impl FnOnce(&mut JNIEnv<'local>) -> Result<T, BridgeError>,
) -> T {
    let error = match guard::catch_panic(|| body(env)) {
        Ok(Ok(value)) => return value,
        Ok(Err(error)) => error,
        Err(panic) => BridgeError::Panic(panic),
    };
    throw(env, error);
    fallback
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_kind_has_its_class() {
        let cases = [
            (BridgeError::Kjson(KjsonError::option("bad option")), "org/kjson/flink/KjsonSpecException"),
            (BridgeError::Kjson(KjsonError::type_error("bad type")), "org/kjson/flink/KjsonSpecException"),
            (BridgeError::Kjson(KjsonError::parse("bad text", None)), "org/kjson/flink/KjsonSpecException"),
            (BridgeError::Kjson(KjsonError::schema("column `a`")), "org/kjson/flink/KjsonSchemaException"),
            (
                BridgeError::Kjson(KjsonError::MapNullKey { message: "m".into() }),
                "org/kjson/flink/KjsonMapNullKeyException",
            ),
            (BridgeError::Kjson(KjsonError::Limit { message: "l".into() }), "org/kjson/flink/KjsonLimitException"),
            (
                BridgeError::Kjson(KjsonError::Record { record: 4, message: "bad".into() }),
                "org/kjson/flink/KjsonRecordException",
            ),
            (BridgeError::Misuse("closed".into()), "java/lang/IllegalStateException"),
            (BridgeError::Argument("null".into()), "java/lang/IllegalArgumentException"),
            (BridgeError::Kjson(KjsonError::internal("bug")), "org/kjson/flink/KjsonException"),
            (BridgeError::Panic(Panic("boom".into())), "org/kjson/flink/KjsonException"),
        ];
        for (error, class) in cases {
            assert_eq!(java_exception(&error).0, class, "{error:?}");
        }
    }

    #[test]
    fn messages_keep_the_runtime_text() {
        let (_, message) = java_exception(&BridgeError::Kjson(KjsonError::schema("column `price`: expected BIGINT")));
        assert_eq!(message, "schema mismatch: column `price`: expected BIGINT");
        let (_, message) = java_exception(&BridgeError::Misuse(HandleError::Zero("encoder").to_string()));
        assert!(message.contains("handle is 0"));
    }

    #[test]
    fn a_record_error_names_its_record() {
        let error =
            BridgeError::Kjson(KjsonError::Record { record: 7, message: "Failed to deserialize JSON 'x'.".into() });
        assert_eq!(record_index(&error), Some(7));
        assert_eq!(java_exception(&error).1, "record 7: Failed to deserialize JSON 'x'.");
        assert_eq!(record_index(&BridgeError::Misuse("m".into())), None);
    }
}
