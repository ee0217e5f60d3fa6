//! How reading a message fails, apart from the readers that fail, so that every stage of the
//! read side can name it.

/// How reading a message fails: `Format` inside the format's error handling (swallowed under
/// `ignore-parse-errors`), `Fatal` past it.
pub(crate) enum Failure {
    Format(String),
    Fatal(String),
}

impl Failure {
    pub(crate) fn into_message(self) -> String {
        match self {
            Failure::Format(message) | Failure::Fatal(message) => message,
        }
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Format(message)
    }
}
