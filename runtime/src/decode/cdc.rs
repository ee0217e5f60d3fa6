//! The changelog formats read: debezium-json, canal-json, maxwell-json and ogg-json. Each reads
//! its envelope with Flink's tree decoder (missing fields are null), then turns it into 0, 1, 2
//! or many rows with RowKinds as Flink's deserializer does; any failure of that step is the
//! format's ("Corrupt ... message"), so `ignore-parse-errors` drops the message. The readable
//! metadata's fields ride in the envelope and are appended to each row (`metadata`).
use super::metadata::{self, MetaKey};
use super::node::{self, Node};
use super::node_convert;
use super::rows::tree_rows;
use super::side::{Emit, Failure, SideReader, DELETE, INSERT, UPDATE_AFTER, UPDATE_BEFORE};
use super::value::Value;
use crate::spec::Format;
use crate::types::{DataType, LogicalType, RowField};

/// The envelope row the format's inner JSON decoder reads, around the physical row, with the
/// fields the metadata columns read appended (debezium: in `payload` or at the root).
pub(crate) fn envelope_fields(
    format: Format,
    schema_include: bool,
    physical: &[RowField],
    meta: &[MetaKey],
) -> Vec<RowField> {
    let mut fields = base_fields(format, schema_include, physical, meta);
    let wrapped = format == Format::DebeziumJson && schema_include;
    fields.extend(metadata::envelope_fields(meta, |m| !wrapped || !m.in_payload, &fields));
    fields
}

fn base_fields(format: Format, schema_include: bool, physical: &[RowField], meta: &[MetaKey]) -> Vec<RowField> {
    let row = || DataType::nullable(LogicalType::Row(physical.to_vec()));
    let rows = || DataType::nullable(LogicalType::Array(Box::new(row())));
    let string = || DataType::nullable(LogicalType::VarChar { length: u32::MAX >> 1 });
    let field = |name: &str, data_type| RowField { name: name.to_string(), data_type, description: None };
    match format {
        Format::DebeziumJson => {
            let mut payload = vec![field("before", row()), field("after", row()), field("op", string())];
            if schema_include {
                payload.extend(metadata::envelope_fields(meta, |m| m.in_payload, &payload));
            }
            match schema_include {
                true => vec![field("payload", DataType::nullable(LogicalType::Row(payload)))],
                false => payload,
            }
        }
        Format::CanalJson => vec![
            field("data", rows()),
            field("old", rows()),
            field("type", string()),
            field("database", string()),
            field("table", string()),
        ],
        Format::MaxwellJson => vec![field("data", row()), field("old", row()), field("type", string())],
        Format::OggJson => vec![field("before", row()), field("after", row()), field("op_type", string())],
        Format::Json => physical.to_vec(),
    }
}

/// Reads one changelog message: its envelope, then the rows it stands for. Debezium and ogg read
/// the envelope as the json format's single-row call does (on 2.x a one-element array is its
/// row); canal and maxwell convert the message's tree directly and look into it again for `old`.
pub(crate) fn read_changelog(reader: &SideReader, message: &[u8], emit: &mut Emit) -> Result<(), Failure> {
    let ignore = reader.settings.ignore_parse_errors;
    let (rows, meta) = match reader.format {
        Format::DebeziumJson => {
            let (envelope, meta) = with_metadata(reader, single_envelope(reader, message)?);
            (debezium(envelope, ignore, reader.schema_include)?, meta)
        }
        Format::OggJson => {
            let (envelope, meta) = with_metadata(reader, single_envelope(reader, message)?);
            (ogg(envelope, ignore)?, meta)
        }
        Format::CanalJson | Format::MaxwellJson => {
            let root = node::read_tree(message, &reader.settings)?.ok_or_else(|| npe("the message"))?;
            if !included(reader, &root)? {
                return Ok(());
            }
            let envelope =
                row(node_convert::convert(Some(&root), &reader.envelope_type, &reader.settings)?, "the envelope")?;
            let (envelope, meta) = with_metadata(reader, envelope);
            let old = Old { node: root.get("old"), names: &reader.fields };
            match reader.format {
                Format::CanalJson => (canal(envelope, ignore, &old)?, meta),
                _ => (maxwell(envelope, ignore, &old)?, meta),
            }
        }
        Format::Json => unreachable!("json is not a changelog"),
    };
    // Flink reads the metadata as it emits each row: a message without rows cannot fail there.
    let meta = if rows.is_empty() { Vec::new() } else { meta? };
    for (kind, mut row) in rows {
        row.extend(meta.iter().cloned());
        emit(Some((kind, row)))?;
    }
    Ok(())
}

/// The metadata columns' values of a message (read from its envelope, per key), and the
/// envelope without the fields only they read.
fn with_metadata(reader: &SideReader, mut envelope: Vec<Value>) -> (Vec<Value>, Result<Vec<Value>, Failure>) {
    if reader.metadata.is_empty() {
        return (envelope, Ok(Vec::new()));
    }
    let LogicalType::Row(root) = &reader.envelope_type.logical else { unreachable!("an envelope is a ROW") };
    let payload = match (reader.schema_include, root.first().map(|f| &f.data_type.logical), envelope.first()) {
        (true, Some(LogicalType::Row(types)), Some(Value::Row(values))) => Some((&types[..], &values[..])),
        _ => None,
    };
    let field = |name: &str| {
        let at = |types: &[RowField], values: &'_ [Value]| {
            types.iter().position(|f| f.name == name).and_then(|i| values.get(i).cloned())
        };
        at(root, &envelope).or_else(|| payload.and_then(|(types, values)| at(types, values))).unwrap_or(Value::Null)
    };
    let meta = reader.metadata.iter().map(|m| m.read(&field(m.field))).collect();
    // The envelope's own fields, as `base_fields` lays them out (the physical row's count does
    // not matter: it is one ROW field either way).
    envelope.truncate(base_fields(reader.format, reader.schema_include, &[], &[]).len());
    (envelope, meta)
}

/// canal-json's include filters, checked on the message's tree before it is converted: a message
/// of another database or table gives no row; one without the field fails.
fn included(reader: &SideReader, root: &Node) -> Result<bool, Failure> {
    for (name, pattern) in [("database", &reader.database_include), ("table", &reader.table_include)] {
        if let Some(pattern) = pattern {
            let node = root.get(name).ok_or_else(|| npe(name))?;
            if !pattern.is_match(&String::from_utf16_lossy(&node.as_text(&reader.settings))) {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// The envelope through the single-row call: exactly one row, or the message fails.
fn single_envelope(reader: &SideReader, message: &[u8]) -> Result<Vec<Value>, Failure> {
    let mut envelopes = Vec::new();
    tree_rows(reader, &reader.envelope_type, message, &mut |row| {
        envelopes.push(row.map(|(_, values)| values));
        Ok(())
    })
    .map_err(|failure| Failure::Format(failure.into_message()))?;
    if envelopes.len() > 1 {
        return Err(Failure::Format(
            "Please invoke DeserializationSchema#deserialize(byte[], Collector<RowData>) instead.".into(),
        ));
    }
    envelopes.pop().flatten().ok_or_else(|| npe("the envelope"))
}

/// The message's `old` node: a before-image field left null is taken from the after image only
/// when no value of that name appears anywhere under `old` (Jackson's `findValue`).
struct Old<'a> {
    node: Option<&'a Node>,
    names: &'a [RowField],
}

impl Old<'_> {
    fn fill(&self, mut before: Vec<Value>, after: &[Value]) -> Result<Vec<Value>, Failure> {
        let node = self.node.ok_or_else(|| npe("old"))?;
        for ((field, value), name) in before.iter_mut().zip(after).zip(self.names) {
            if *field == Value::Null && node.find_value(&name.name).is_none() {
                *field = value.clone();
            }
        }
        Ok(before)
    }
}

type Rows = Vec<(i8, Vec<Value>)>;

fn npe(what: &str) -> Failure {
    Failure::Format(format!("java.lang.NullPointerException: {what} is null"))
}

fn row(value: Value, what: &str) -> Result<Vec<Value>, Failure> {
    match value {
        Value::Row(values) => Ok(values),
        _ => Err(npe(what)),
    }
}

fn text(value: &Value, what: &str) -> Result<String, Failure> {
    match value {
        Value::Text(bytes) => Ok(String::from_utf8_lossy(bytes).into_owned()),
        _ => Err(npe(what)),
    }
}

/// An unknown operation: an error, or nothing under `ignore-parse-errors`.
fn unknown(field: &str, op: &str, ignore: bool) -> Result<Rows, Failure> {
    match ignore {
        true => Ok(Vec::new()),
        false => Err(Failure::Format(format!("Unknown \"{field}\" value \"{op}\"."))),
    }
}

fn debezium(envelope: Vec<Value>, ignore: bool, schema_include: bool) -> Result<Rows, Failure> {
    let mut payload = match schema_include {
        true => row(envelope.into_iter().next().unwrap_or(Value::Null), "payload")?,
        false => envelope,
    };
    payload.truncate(3);
    let [before, after, op]: [Value; 3] = payload.try_into().map_err(|_| npe("the payload"))?;
    let op = text(&op, "op")?;
    Ok(match op.as_str() {
        "c" | "r" => vec![(INSERT, row(after, "after")?)],
        "u" => {
            let before = row(before, "before").map_err(|_| replica_identity("UPDATE"))?;
            vec![(UPDATE_BEFORE, before), (UPDATE_AFTER, row(after, "after")?)]
        }
        "d" => vec![(DELETE, row(before, "before").map_err(|_| replica_identity("DELETE"))?)],
        other => return unknown("op", other, ignore),
    })
}

fn replica_identity(op: &str) -> Failure {
    Failure::Format(format!(
        "The \"before\" field of {op} message is null, if you are using Debezium Postgres Connector, please check \
         the Postgres table has been set REPLICA IDENTITY to FULL level."
    ))
}

fn canal(envelope: Vec<Value>, ignore: bool, old_node: &Old) -> Result<Rows, Failure> {
    let [data, old, kind, _database, _table]: [Value; 5] = envelope.try_into().map_err(|_| npe("the envelope"))?;
    let op = text(&kind, "type")?;
    let list = |value: Value, what: &str| match value {
        Value::List(items) => Ok(items),
        _ => Err(npe(what)),
    };
    Ok(match op.as_str() {
        "INSERT" => list(data, "data")?
            .into_iter()
            .map(|r| Ok((INSERT, row(r, "a data row")?)))
            .collect::<Result<_, Failure>>()?,
        "DELETE" => list(data, "data")?
            .into_iter()
            .map(|r| Ok((DELETE, row(r, "a data row")?)))
            .collect::<Result<_, Failure>>()?,
        "UPDATE" => {
            let (data, old) = (list(data, "data")?, list(old, "old")?);
            let mut rows = Vec::with_capacity(data.len() * 2);
            for (index, after) in data.into_iter().enumerate() {
                let after = row(after, "a data row")?;
                let before = old.get(index).cloned().ok_or_else(|| {
                    Failure::Format(format!("java.lang.ArrayIndexOutOfBoundsException: Index {index} out of bounds"))
                })?;
                let before = old_node.fill(row(before, "an old row")?, &after)?;
                rows.push((UPDATE_BEFORE, before));
                rows.push((UPDATE_AFTER, after));
            }
            rows
        }
        // A DDL change: no rows.
        "CREATE" => Vec::new(),
        other => return unknown("type", other, ignore),
    })
}

fn maxwell(envelope: Vec<Value>, ignore: bool, old_node: &Old) -> Result<Rows, Failure> {
    let [data, old, kind]: [Value; 3] = envelope.try_into().map_err(|_| npe("the envelope"))?;
    let op = text(&kind, "type")?;
    Ok(match op.as_str() {
        "insert" => vec![(INSERT, row(data, "data")?)],
        "update" => {
            let after = row(data, "data")?;
            let before = old_node.fill(row(old, "old")?, &after)?;
            vec![(UPDATE_BEFORE, before), (UPDATE_AFTER, after)]
        }
        "delete" => vec![(DELETE, row(data, "data")?)],
        other => return unknown("type", other, ignore),
    })
}

fn ogg(envelope: Vec<Value>, ignore: bool) -> Result<Rows, Failure> {
    let [before, after, kind]: [Value; 3] = envelope.try_into().map_err(|_| npe("the envelope"))?;
    let op = text(&kind, "op_type")?;
    Ok(match op.as_str() {
        "I" => vec![(INSERT, row(after, "after")?)],
        "U" => {
            let before = row(before, "before").map_err(|_| replica_identity("UPDATE"))?;
            vec![(UPDATE_BEFORE, before), (UPDATE_AFTER, row(after, "after")?)]
        }
        "D" => vec![(DELETE, row(before, "before").map_err(|_| replica_identity("DELETE"))?)],
        other => return unknown("op_type", other, ignore),
    })
}
