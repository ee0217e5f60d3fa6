//! One message of one side read into rows, with the error handling of Flink's JSON formats
//! around it: the json decoders (`rows`, or `direct` straight into the columns) or a changelog
//! envelope (`cdc`).
use super::cdc;
use super::direct::{self, RowTarget};
use super::lexer::LexerBuffers;
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
    outcome(reader, message, read)
}

/// Whether a side is read by [`read_message_into`]: the json format's streaming decoder, on a
/// row without a MAP or MULTISET.
pub(crate) fn reads_into_columns(reader: &SideReader) -> bool {
    reader.format == Format::Json && reader.settings.streaming && !reader.has_map_like
}

/// [`read_message`] for a side that [`reads_into_columns`]: the rows go straight into `target`.
pub(crate) fn read_message_into(
    reader: &SideReader,
    message: Option<&[u8]>,
    target: &mut dyn RowTarget,
    buffers: &mut LexerBuffers,
) -> std::result::Result<(), String> {
    let Some(message) = message.filter(|m| !m.is_empty()) else {
        return Ok(());
    };
    outcome(reader, message, direct::read_rows(reader, message, target, buffers))
}

fn outcome(reader: &SideReader, message: &[u8], read: Result<(), Failure>) -> std::result::Result<(), String> {
    match read {
        Ok(()) => Ok(()),
        Err(Failure::Format(_)) if reader.settings.ignore_parse_errors => Ok(()),
        Err(Failure::Format(cause)) => Err(format_failure(reader.format, message, &cause)),
        Err(Failure::Fatal(cause)) => Err(cause),
    }
}

/// The message of the format's exception, with its causes' in the same text: json's own, or the
/// one each changelog format wraps every failure of a message in (its deserializer's catch-all).
fn format_failure(format: Format, message: &[u8], cause: &str) -> String {
    let text = String::from_utf8_lossy(message);
    let changelog = match format {
        Format::Json => return format!("Failed to deserialize JSON '{text}'. {cause}"),
        Format::DebeziumJson => "Debezium",
        Format::CanalJson => "Canal",
        Format::MaxwellJson => "Maxwell",
        Format::OggJson => "Ogg",
    };
    format!("Corrupt {changelog} JSON message '{text}'. {cause}")
}

#[cfg(test)]
mod tests {
    use crate::decode::{Decoder, OnError, RecordSide};
    use crate::options::Compatibility;
    use crate::spec::SinkSpec;

    /// The first error of one value under `format`, as the source reports it.
    fn failure(format: &str, value: &str) -> String {
        let ddl = format!(
            "CREATE TABLE t (id BIGINT) WITH ('connector' = 'kafka', 'topic' = 't', \
             'properties.bootstrap.servers' = 'x', 'format' = '{format}')"
        );
        let spec = SinkSpec::from_source_ddl(&ddl).expect("ddl");
        let mut decoder = Decoder::open(spec, Compatibility::default()).expect("open");
        decoder.set_on_error(OnError::Collect);
        let side = RecordSide { data: value.as_bytes(), offsets: &[0], lengths: &[value.len() as i32] };
        let decoded = decoder.decode(None, side).expect("collects");
        decoded.errors.first().map(ToString::to_string).expect("the record fails")
    }

    /// Each changelog format's deserializer wraps any failure of a message in its own message
    /// (ScanParityTest compares them with the stock source's).
    #[test]
    fn a_changelog_message_fails_with_its_formats_corrupt_message() {
        for (format, name, value) in [
            ("debezium-json", "Debezium", r#"{"before":null,"after":{"id":""},"op":"c"}"#),
            ("canal-json", "Canal", r#"{"data":[{"id":"x"}],"type":"INSERT"}"#),
            ("maxwell-json", "Maxwell", r#"{"data":{"id":[1]},"type":"insert"}"#),
            ("ogg-json", "Ogg", r#"{"before":null,"after":{"id":""},"op_type":"I"}"#),
            ("debezium-json", "Debezium", r#"{"before":null,"after":{"id":1},"op":"x"}"#),
            ("ogg-json", "Ogg", r#"{"before":null,"after":"#),
        ] {
            let message = failure(format, value);
            let expected = format!("Corrupt {name} JSON message '{value}'. ");
            assert!(message.contains(&expected), "{format}: {message}");
        }
        let json = failure("json", r#"{"id":"x"}"#);
        assert!(json.contains(r#"Failed to deserialize JSON '{"id":"x"}'. "#), "{json}");
    }
}
