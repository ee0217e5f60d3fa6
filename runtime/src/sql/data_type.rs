//! Parser for Flink type syntax: the DDL spelling and `LogicalType#asSerializableString()`.
//!
//! The grammar follows Flink's `LogicalTypeParser` (keywords, defaults, postfix `ARRAY` /
//! `MULTISET`, `NOT NULL` at any level) and reports bound violations with the messages of
//! Flink's type constructors. Types Flink knows but the JSON format cannot write (RAW, VARIANT,
//! NULL, `TIMESTAMP WITH TIME ZONE`, ...) become [`LogicalType::Unsupported`] so that validation
//! can reject them later with Flink's message.
use super::lexer::{tokenize, Cursor, Token, TokenKind};
use crate::error::{KjsonError, Position, Result};
use crate::types::{DataType, IntervalKind, LogicalType, RowField, MAX_LENGTH};

/// Parses one type (`ROW<a INT NOT NULL, b ARRAY<STRING>>`, `TIMESTAMP_LTZ(3)`, ...).
/// Errors carry the line and column within `text`.
pub fn parse_type(text: &str) -> Result<DataType> {
    let tokens = tokenize(text)?;
    let mut cursor = Cursor::new(&tokens);
    let data_type = parse_data_type(&mut cursor, TypeSyntax::Serializable)?;
    let rest = cursor.peek();
    if rest.kind != TokenKind::End {
        let message = format!("Unexpected {} after the type", rest.describe());
        return Err(KjsonError::parse(message, Some(rest.pos)));
    }
    Ok(data_type)
}

/// Where a type is written; the two differ only in the length of a bare `VARCHAR`/`VARBINARY`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TypeSyntax {
    /// Flink's `LogicalTypeParser`: bare `VARCHAR` is `VARCHAR(1)`.
    Serializable,
    /// SQL DDL (Flink's Calcite type system): bare `VARCHAR`/`VARBINARY` are `STRING`/`BYTES`.
    Ddl,
}

/// Types nest at most this deep (counting postfix `ARRAY`/`MULTISET`), so that hostile input
/// cannot overflow the stack of the recursive parser and of everything that walks types.
pub(crate) const MAX_TYPE_DEPTH: usize = 128;

/// Parses a type with its nullability and any postfix `ARRAY`/`MULTISET`, leaving the cursor
/// on the first token after it.
pub(crate) fn parse_data_type(cursor: &mut Cursor<'_>, syntax: TypeSyntax) -> Result<DataType> {
    enter_type(cursor)?;
    let logical = parse_logical(cursor, syntax)?;
    let mut data_type = DataType { logical, nullable: parse_nullability(cursor) };
    let mut wraps = 0;
    loop {
        let logical = if cursor.eat_word("ARRAY") {
            LogicalType::Array(Box::new(data_type))
        } else if cursor.eat_word("MULTISET") {
            LogicalType::Multiset(Box::new(data_type))
        } else {
            cursor.type_depth -= wraps + 1;
            return Ok(data_type);
        };
        enter_type(cursor)?;
        wraps += 1;
        data_type = DataType { logical, nullable: parse_nullability(cursor) };
    }
}

fn enter_type(cursor: &mut Cursor<'_>) -> Result<()> {
    if cursor.type_depth >= MAX_TYPE_DEPTH {
        let message = format!("Types nest deeper than {MAX_TYPE_DEPTH} levels");
        return Err(KjsonError::parse(message, Some(cursor.peek().pos)));
    }
    cursor.type_depth += 1;
    Ok(())
}

/// `NOT NULL` -> false; `NULL` or nothing -> true.
fn parse_nullability(cursor: &mut Cursor<'_>) -> bool {
    if cursor.peek().is_word("NOT") && cursor.peek_at(1).is_word("NULL") {
        cursor.next();
        cursor.next();
        return false;
    }
    cursor.eat_word("NULL");
    true
}

/// One dispatch over the type keyword.
fn parse_logical(cursor: &mut Cursor<'_>, syntax: TypeSyntax) -> Result<LogicalType> {
    use LogicalType::*;
    let token = cursor.peek();
    if token.kind != TokenKind::Word {
        return Err(cursor.unexpected("a data type"));
    }
    cursor.next();
    let variable_default = match syntax {
        TypeSyntax::Serializable => 1,
        TypeSyntax::Ddl => MAX_LENGTH,
    };
    Ok(match token.text.to_ascii_uppercase().as_str() {
        "BOOLEAN" => Boolean,
        "TINYINT" => TinyInt,
        "SMALLINT" => SmallInt,
        "INT" | "INTEGER" => Int,
        "BIGINT" => BigInt,
        "FLOAT" => Float,
        "DOUBLE" => {
            cursor.eat_word("PRECISION");
            Double
        }
        "DECIMAL" | "DEC" | "NUMERIC" => parse_decimal(cursor)?,
        "CHAR" => Char { length: parse_length(cursor, 1, "Character string")? },
        "VARCHAR" => VarChar { length: parse_length(cursor, variable_default, "Variable character string")? },
        "STRING" => VarChar { length: MAX_LENGTH },
        "BINARY" => Binary { length: parse_length(cursor, 1, "Binary string")? },
        "VARBINARY" => VarBinary { length: parse_length(cursor, variable_default, "Variable binary string")? },
        "BYTES" => VarBinary { length: MAX_LENGTH },
        "DATE" => Date,
        "TIME" => parse_time(cursor)?,
        "TIMESTAMP" => parse_timestamp(cursor, syntax)?,
        "TIMESTAMP_LTZ" => {
            let precision = optional_number(cursor)?;
            TimestampLtz { precision: check_precision(precision, 6, 0, 9, "Timestamp with local time zone precision")? }
        }
        "INTERVAL" | "NULL" if syntax == TypeSyntax::Ddl => return Err(sql_keyword_error(token)),
        "INTERVAL" => parse_interval(cursor)?,
        "ARRAY" => Array(Box::new(parse_enclosed_type(cursor, syntax)?)),
        "MULTISET" => Multiset(Box::new(parse_enclosed_type(cursor, syntax)?)),
        "MAP" => parse_map(cursor, syntax)?,
        "ROW" => parse_row(cursor, syntax)?,
        "NULL" => Unsupported { text: "NULL".to_string() },
        "VARIANT" | "BITMAP" | "DESCRIPTOR" => Unsupported { text: token.text.to_ascii_uppercase() },
        "RAW" => parse_two_strings(cursor, "RAW", true)?,
        "LEGACY" => parse_two_strings(cursor, "LEGACY", false)?,
        "STRUCTURED" => parse_structured(cursor, syntax)?,
        _ => return Err(KjsonError::parse(format!("Unknown data type '{}'", token.text), Some(token.pos))),
    })
}

/// `(n)` after a type keyword, if present, with its position.
fn optional_number(cursor: &mut Cursor<'_>) -> Result<Option<(u32, Position)>> {
    if !cursor.eat_symbol('(') {
        return Ok(None);
    }
    let number = parse_integer(cursor)?;
    cursor.expect_symbol(')')?;
    Ok(Some(number))
}

/// A non-negative integer that fits Java's `int`.
fn parse_integer(cursor: &mut Cursor<'_>) -> Result<(u32, Position)> {
    let token = cursor.peek();
    if token.kind != TokenKind::Number {
        return Err(cursor.unexpected("an integer"));
    }
    cursor.next();
    match token.text.parse::<u32>() {
        Ok(value) if value <= MAX_LENGTH => Ok((value, token.pos)),
        _ => Err(KjsonError::parse(format!("Invalid integer value '{}'.", token.text), Some(token.pos))),
    }
}

/// Checks a precision against Flink's bounds; `what` starts Flink's message.
fn check_precision(found: Option<(u32, Position)>, default: u32, min: u32, max: u32, what: &str) -> Result<u8> {
    let Some((value, pos)) = found else {
        return Ok(default as u8);
    };
    if value < min || value > max {
        let message = format!("{what} must be between {min} and {max} (both inclusive).");
        return Err(KjsonError::parse(message, Some(pos)));
    }
    Ok(value as u8)
}

/// The length of a character or binary string type; `what` names it as Flink does.
fn parse_length(cursor: &mut Cursor<'_>, default: u32, what: &str) -> Result<u32> {
    match optional_number(cursor)? {
        None => Ok(default),
        Some((0, pos)) => {
            let message = format!("{what} length must be between 1 and {MAX_LENGTH} (both inclusive).");
            Err(KjsonError::parse(message, Some(pos)))
        }
        Some((length, _)) => Ok(length),
    }
}

fn parse_decimal(cursor: &mut Cursor<'_>) -> Result<LogicalType> {
    if !cursor.eat_symbol('(') {
        return Ok(LogicalType::Decimal { precision: 10, scale: 0 });
    }
    let precision = parse_integer(cursor)?;
    let scale = if cursor.eat_symbol(',') { Some(parse_integer(cursor)?) } else { None };
    cursor.expect_symbol(')')?;
    let precision = check_precision(Some(precision), 10, 1, 38, "Decimal precision")?;
    let scale = match scale {
        Some((value, pos)) if value > u32::from(precision) => {
            let message = format!("Decimal scale must be between 0 and the precision {precision} (both inclusive).");
            return Err(KjsonError::parse(message, Some(pos)));
        }
        Some((value, _)) => value as u8,
        None => 0,
    };
    Ok(LogicalType::Decimal { precision, scale })
}

fn parse_time(cursor: &mut Cursor<'_>) -> Result<LogicalType> {
    let precision = check_precision(optional_number(cursor)?, 0, 0, 9, "Time precision")?;
    if cursor.eat_word("WITHOUT") {
        expect_time_zone(cursor)?;
    }
    Ok(LogicalType::Time { precision })
}

/// Flink's SQL parser has no INTERVAL or NULL column types; its message carries the position.
fn sql_keyword_error(token: &Token) -> KjsonError {
    let (line, column) = (token.pos.line, token.pos.column);
    let word = token.text.to_ascii_uppercase();
    let message = format!("Incorrect syntax near the keyword '{word}' at line {line}, column {column}.");
    KjsonError::parse(message, Some(token.pos))
}

fn parse_timestamp(cursor: &mut Cursor<'_>, syntax: TypeSyntax) -> Result<LogicalType> {
    let precision = optional_number(cursor)?;
    if cursor.eat_word("WITHOUT") {
        expect_time_zone(cursor)?;
    } else if cursor.eat_word("WITH") {
        if cursor.eat_word("LOCAL") {
            expect_time_zone(cursor)?;
            let what = "Timestamp with local time zone precision";
            return Ok(LogicalType::TimestampLtz { precision: check_precision(precision, 6, 0, 9, what)? });
        }
        if syntax == TypeSyntax::Ddl {
            // Flink's SQL grammar knows only WITH LOCAL TIME ZONE.
            let time = cursor.peek();
            let (line, column) = (time.pos.line, time.pos.column);
            let message = format!("Encountered \"{}\" at line {line}, column {column}.", time.text);
            return Err(KjsonError::parse(message, Some(time.pos)));
        }
        expect_time_zone(cursor)?;
        let precision = check_precision(precision, 6, 0, 9, "Timestamp with time zone precision")?;
        return Ok(LogicalType::Unsupported { text: format!("TIMESTAMP({precision}) WITH TIME ZONE") });
    }
    Ok(LogicalType::Timestamp { precision: check_precision(precision, 6, 0, 9, "Timestamp precision")? })
}

fn expect_time_zone(cursor: &mut Cursor<'_>) -> Result<()> {
    cursor.expect_word("TIME")?;
    cursor.expect_word("ZONE")?;
    Ok(())
}

/// INTERVAL types, with the resolution spelled as Flink's `asSerializableString()` does.
fn parse_interval(cursor: &mut Cursor<'_>) -> Result<LogicalType> {
    const YEAR: &str = "Year precision of year-month intervals";
    const DAY: &str = "Day precision of day-time intervals";
    let unit = cursor.next();
    let (kind, resolution) = match unit.text.to_ascii_uppercase().as_str() {
        _ if unit.kind != TokenKind::Word => return Err(invalid_resolution(unit)),
        "YEAR" => {
            let precision = check_precision(optional_number(cursor)?, 2, 1, 4, YEAR)?;
            if cursor.eat_word("TO") {
                cursor.expect_word("MONTH")?;
                (IntervalKind::YearMonth, format!("YEAR({precision}) TO MONTH"))
            } else {
                (IntervalKind::YearMonth, format!("YEAR({precision})"))
            }
        }
        "MONTH" => (IntervalKind::YearMonth, "MONTH".to_string()),
        "DAY" => {
            let precision = check_precision(optional_number(cursor)?, 2, 1, 6, DAY)?;
            let end = if cursor.eat_word("TO") {
                interval_end(cursor, &["HOUR", "MINUTE", "SECOND"])?
            } else {
                String::new()
            };
            (IntervalKind::DayTime, format!("DAY({precision}){end}"))
        }
        "HOUR" => {
            let end = if cursor.eat_word("TO") { interval_end(cursor, &["MINUTE", "SECOND"])? } else { String::new() };
            (IntervalKind::DayTime, format!("HOUR{end}"))
        }
        "MINUTE" => {
            let end = if cursor.eat_word("TO") { interval_end(cursor, &["SECOND"])? } else { String::new() };
            (IntervalKind::DayTime, format!("MINUTE{end}"))
        }
        "SECOND" => (IntervalKind::DayTime, format!("SECOND({})", fractional_precision(cursor)?)),
        _ => return Err(invalid_resolution(unit)),
    };
    Ok(LogicalType::Interval { kind, resolution })
}

/// The ` TO <unit>` part of a day-time interval, given the units allowed after `TO`.
fn interval_end(cursor: &mut Cursor<'_>, allowed: &[&str]) -> Result<String> {
    let unit = cursor.next();
    let name = unit.text.to_ascii_uppercase();
    if unit.kind != TokenKind::Word || !allowed.contains(&name.as_str()) {
        return Err(invalid_resolution(unit));
    }
    if name == "SECOND" {
        return Ok(format!(" TO SECOND({})", fractional_precision(cursor)?));
    }
    Ok(format!(" TO {name}"))
}

fn fractional_precision(cursor: &mut Cursor<'_>) -> Result<u8> {
    check_precision(optional_number(cursor)?, 6, 0, 9, "Fractional precision of day-time intervals")
}

fn invalid_resolution(token: &Token) -> KjsonError {
    KjsonError::parse(format!("Invalid interval resolution {}.", token.describe()), Some(token.pos))
}

/// `<T>` after ARRAY or MULTISET.
fn parse_enclosed_type(cursor: &mut Cursor<'_>, syntax: TypeSyntax) -> Result<DataType> {
    cursor.expect_symbol('<')?;
    let element = parse_data_type(cursor, syntax)?;
    cursor.expect_symbol('>')?;
    Ok(element)
}

fn parse_map(cursor: &mut Cursor<'_>, syntax: TypeSyntax) -> Result<LogicalType> {
    cursor.expect_symbol('<')?;
    let key = parse_data_type(cursor, syntax)?;
    cursor.expect_symbol(',')?;
    let value = parse_data_type(cursor, syntax)?;
    cursor.expect_symbol('>')?;
    Ok(LogicalType::Map { key: Box::new(key), value: Box::new(value) })
}

/// `ROW<...>` or `ROW(...)`.
fn parse_row(cursor: &mut Cursor<'_>, syntax: TypeSyntax) -> Result<LogicalType> {
    let close = if cursor.eat_symbol('(') {
        ')'
    } else {
        cursor.expect_symbol('<')?;
        '>'
    };
    let fields = parse_fields(cursor, syntax, close)?;
    cursor.expect_symbol(close)?;
    Ok(LogicalType::Row(fields))
}

/// `name type ['description'], ...` up to (not including) `close`; names must be unique and
/// not blank, as Flink's RowType requires.
fn parse_fields(cursor: &mut Cursor<'_>, syntax: TypeSyntax, close: char) -> Result<Vec<RowField>> {
    let mut fields: Vec<RowField> = Vec::new();
    while !cursor.peek().is_symbol(close) {
        if !fields.is_empty() {
            cursor.expect_symbol(',')?;
        }
        let (name, name_token) = cursor.expect_identifier()?;
        if name.trim().is_empty() {
            let message = "Field names must contain at least one non-whitespace character.";
            return Err(KjsonError::parse(message, Some(name_token.pos)));
        }
        if fields.iter().any(|f| f.name == name) {
            let message = format!("Field names must be unique. Found duplicates: [{name}]");
            return Err(KjsonError::parse(message, Some(name_token.pos)));
        }
        let data_type = parse_data_type(cursor, syntax)?;
        let description = if cursor.peek().kind == TokenKind::Str { Some(cursor.next().text.clone()) } else { None };
        fields.push(RowField { name, data_type, description });
    }
    Ok(fields)
}

/// `RAW('class', 'snapshot')` and `LEGACY('root', 'type info')`. RAW keeps Flink's summary
/// spelling (`'...'` for the snapshot), which is what Flink's error message prints.
fn parse_two_strings(cursor: &mut Cursor<'_>, name: &str, hide_second: bool) -> Result<LogicalType> {
    cursor.expect_symbol('(')?;
    let first = cursor.expect_string()?.text.replace('\'', "''");
    cursor.expect_symbol(',')?;
    let second = cursor.expect_string()?.text.replace('\'', "''");
    cursor.expect_symbol(')')?;
    let second = if hide_second { "...".to_string() } else { second };
    Ok(LogicalType::Unsupported { text: format!("{name}('{first}', '{second}')") })
}

/// `STRUCTURED<'class'[, fields]>`, reprinted in Flink's serializable spelling.
fn parse_structured(cursor: &mut Cursor<'_>, syntax: TypeSyntax) -> Result<LogicalType> {
    cursor.expect_symbol('<')?;
    let class_name = cursor.expect_string()?.text.replace('\'', "''");
    let fields = if cursor.eat_symbol(',') { parse_fields(cursor, syntax, '>')? } else { Vec::new() };
    cursor.expect_symbol('>')?;
    let mut text = format!("STRUCTURED<'{class_name}'");
    if !fields.is_empty() {
        let row = LogicalType::Row(fields).to_string();
        text.push_str(", ");
        text.push_str(&row["ROW<".len()..row.len() - 1]);
    }
    text.push('>');
    Ok(LogicalType::Unsupported { text })
}

#[cfg(test)]
mod tests;
