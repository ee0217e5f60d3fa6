//! One message of one side read into rows, with the error handling of Flink's JSON formats
//! around it: the json decoders (`rows`) or a changelog envelope (`cdc`).
use super::cdc;
use super::rows::{read_rows, tree_rows};
use super::side::{Emit, Failure, SideReader};
use crate::spec::Format;

/// Reads one message of one side and hands `emit` each row it gives (`None`: a null row): none
/// for a null or empty message, one per object, one per element of a top-level array (Flink
/// 2.x). Under `ignore-parse-errors` a failure ends the message quietly, keeping what was
/// emitted.
pub(crate) fn read_message(
    reader: &SideReader,
    message: Option<&[u8]>,
    emit: &mut Emit,
) -> std::result::Result<(), String> {
    let Some(message) = message.filter(|m| !m.is_empty()) else {
        return Ok(());
    };
    let read = match (reader.format, reader.settings.streaming) {
        (Format::Json, true) => read_rows(reader, message, emit),
        (Format::Json, false) => tree_rows(reader, &reader.row_type, message, emit),
        _ => cdc::read_changelog(reader, message, emit),
    };
    match read {
        Ok(()) => Ok(()),
        Err(Failure::Format(_)) if reader.settings.ignore_parse_errors => Ok(()),
        Err(Failure::Format(cause)) => {
            Err(format!("Failed to deserialize JSON '{}'. {cause}", String::from_utf8_lossy(message)))
        }
        Err(Failure::Fatal(cause)) => Err(cause),
    }
}
