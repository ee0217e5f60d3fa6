//! Which column types Flink's JSON encoder can write, with the messages its converter factory
//! (`RowDataToJsonConverters`) throws when it cannot.
use crate::types::{DataType, LogicalType};

/// Checks that the JSON encoder can write `data_type` at any depth. The error is Flink's
/// message for the first offending type, in the order Flink builds its converters.
pub(crate) fn check_writable(data_type: &DataType) -> Result<(), String> {
    match &data_type.logical {
        // Flink builds a converter for NULL but fails creating the row or array getter.
        LogicalType::Unsupported { text } if text == "NULL" => {
            Err("Not support to write type: NULL (Flink fails to create a field getter for it with an \
             IllegalArgumentException without message)"
                .to_string())
        }
        LogicalType::Unsupported { .. } => Err(format!("Not support to parse type: {}", summary_string(data_type))),
        LogicalType::Array(element) => check_writable(element),
        LogicalType::Map { key, value } => {
            require_string_key(key, data_type)?;
            check_writable(value)
        }
        LogicalType::Multiset(element) => require_string_key(element, data_type),
        LogicalType::Row(fields) => fields.iter().try_for_each(|field| check_writable(&field.data_type)),
        _ => Ok(()),
    }
}

fn require_string_key(key: &DataType, container: &DataType) -> Result<(), String> {
    if key.is_string() {
        return Ok(());
    }
    Err(format!(
        "JSON format doesn't support non-string as key type of map. The type is: {}",
        summary_string(container)
    ))
}

/// Flink's `LogicalType#asSummaryString()`: the serializable spelling except that
/// `TIMESTAMP_LTZ(p)` is shortened and row field descriptions are left out.
pub(crate) fn summary_string(data_type: &DataType) -> String {
    let mut text = summary_logical(&data_type.logical);
    if !data_type.nullable {
        text.push_str(" NOT NULL");
    }
    text
}

fn summary_logical(logical: &LogicalType) -> String {
    match logical {
        LogicalType::TimestampLtz { precision } => format!("TIMESTAMP_LTZ({precision})"),
        LogicalType::Array(element) => format!("ARRAY<{}>", summary_string(element)),
        LogicalType::Multiset(element) => format!("MULTISET<{}>", summary_string(element)),
        LogicalType::Map { key, value } => format!("MAP<{}, {}>", summary_string(key), summary_string(value)),
        LogicalType::Row(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|field| format!("`{}` {}", field.name.replace('`', "``"), summary_string(&field.data_type)))
                .collect();
            format!("ROW<{}>", fields.join(", "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::parse_type;

    fn check(text: &str) -> Result<(), String> {
        check_writable(&parse_type(text).unwrap())
    }

    #[test]
    fn writable_types_pass() {
        let texts = [
            "ROW<a INT, b ARRAY<MAP<STRING, ROW<c DECIMAL(10, 2)>>>, d MULTISET<CHAR(3)>>",
            "INTERVAL DAY TO SECOND(3)",
            "TIMESTAMP_LTZ(9) NOT NULL",
            "BYTES",
        ];
        for text in texts {
            assert_eq!(check(text), Ok(()), "{text}");
        }
    }

    #[test]
    fn unsupported_types_use_flinks_message() {
        assert_eq!(check("VARIANT"), Err("Not support to parse type: VARIANT".to_string()));
        assert_eq!(
            check("ARRAY<RAW('java.lang.String', 'AAA')>"),
            Err("Not support to parse type: RAW('java.lang.String', '...')".to_string())
        );
        assert_eq!(
            check("ROW<t TIMESTAMP(3) WITH TIME ZONE NOT NULL>"),
            Err("Not support to parse type: TIMESTAMP(3) WITH TIME ZONE NOT NULL".to_string())
        );
        assert!(check("ROW<n NULL>").unwrap_err().starts_with("Not support to write type: NULL"));
    }

    #[test]
    fn non_string_map_keys_use_flinks_message() {
        let message = "JSON format doesn't support non-string as key type of map. The type is: ";
        assert_eq!(check("MAP<INT, STRING>"), Err(format!("{message}MAP<INT, STRING>")));
        assert_eq!(check("MULTISET<INT> NOT NULL"), Err(format!("{message}MULTISET<INT> NOT NULL")));
        assert_eq!(
            check("ARRAY<MAP<TIMESTAMP_LTZ(3), ROW<x INT 'd'>>>"),
            Err(format!("{message}MAP<TIMESTAMP_LTZ(3), ROW<`x` INT>>"))
        );
        assert_eq!(check("MAP<STRING, MAP<BIGINT, INT>>"), Err(format!("{message}MAP<BIGINT, INT>")));
    }
}
