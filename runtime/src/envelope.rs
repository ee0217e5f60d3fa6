//! Changelog envelopes of the CDC JSON formats: the row object is wrapped in constant bytes
//! chosen by the row kind (see §7 of the format reference).
use crate::encoder::RowKind;

/// Bytes written before and after the row object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrap {
    pub before: &'static [u8],
    pub after: &'static [u8],
}

/// How a value row is framed: plain `json`, or a CDC envelope with an insert form (INSERT,
/// UPDATE_AFTER) and a delete form (UPDATE_BEFORE, DELETE).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Envelope {
    Plain,
    Changelog { insert: Wrap, delete: Wrap },
}

const fn wrap(before: &'static [u8], after: &'static [u8]) -> Wrap {
    Wrap { before, after }
}

impl Envelope {
    /// The envelope of a format; `ignore_null_fields` drops the envelope's own null member too.
    pub fn for_format(format: &str, ignore_null_fields: bool) -> Envelope {
        let (insert, delete) = match (format, ignore_null_fields) {
            ("debezium-json", false) => {
                (wrap(b"{\"before\":null,\"after\":", b",\"op\":\"c\"}"), wrap(b"{\"before\":", b",\"after\":null,\"op\":\"d\"}"))
            }
            ("debezium-json", true) => (wrap(b"{\"after\":", b",\"op\":\"c\"}"), wrap(b"{\"before\":", b",\"op\":\"d\"}")),
            ("canal-json", _) => (wrap(b"{\"data\":[", b"],\"type\":\"INSERT\"}"), wrap(b"{\"data\":[", b"],\"type\":\"DELETE\"}")),
            ("maxwell-json", _) => (wrap(b"{\"data\":", b",\"type\":\"insert\"}"), wrap(b"{\"data\":", b",\"type\":\"delete\"}")),
            ("ogg-json", false) => (
                wrap(b"{\"before\":null,\"after\":", b",\"op_type\":\"I\"}"),
                wrap(b"{\"before\":", b",\"after\":null,\"op_type\":\"D\"}"),
            ),
            ("ogg-json", true) => (wrap(b"{\"after\":", b",\"op_type\":\"I\"}"), wrap(b"{\"before\":", b",\"op_type\":\"D\"}")),
            _ => return Envelope::Plain,
        };
        Envelope::Changelog { insert, delete }
    }

    /// The wrap for a row of `kind`, `None` for plain json.
    #[inline]
    pub fn wrap_for(&self, kind: RowKind) -> Option<&Wrap> {
        match self {
            Envelope::Plain => None,
            Envelope::Changelog { insert, delete } => Some(if kind.is_retraction() { delete } else { insert }),
        }
    }
}
