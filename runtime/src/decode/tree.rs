//! A nested object or array read into a STRING column: Flink reads it as a Jackson tree and
//! stores the tree's `toString()`, so keys repeat at most once (the last value, in the first
//! key's place) and numbers are re-spelled (integers canonical, floats by `Double.toString`, or
//! as stripped `BigDecimal`s when the table has a DECIMAL column).
use super::java::{self, BigDecimal};
use super::lexer::{Lexer, Token};
use super::DecodeSettings;

enum Node {
    Object(Vec<(Vec<u16>, Node)>),
    Array(Vec<Node>),
    /// Already spelled as JSON (numbers, literals, quoted strings).
    Leaf(Vec<u16>),
}

/// Reads the value at the current `{` or `[` to its end and spells it as Jackson's tree does.
pub(crate) fn read_as_text(lexer: &mut Lexer, settings: &DecodeSettings) -> Result<Vec<u16>, String> {
    let node = read(lexer, settings)?;
    let mut out = Vec::new();
    write(&node, &mut out);
    Ok(out)
}

fn read(lexer: &mut Lexer, settings: &DecodeSettings) -> Result<Node, String> {
    match lexer.current() {
        Some(Token::StartObject) => {
            let mut members: Vec<(Vec<u16>, Node)> = Vec::new();
            while lexer.next()? == Some(Token::FieldName) {
                let name = lexer.text()?;
                lexer.next()?;
                let value = read(lexer, settings)?;
                match members.iter_mut().find(|(existing, _)| *existing == name) {
                    Some(member) => member.1 = value,
                    None => members.push((name, value)),
                }
            }
            Ok(Node::Object(members))
        }
        Some(Token::StartArray) => {
            let mut items = Vec::new();
            while !matches!(lexer.next()?, Some(Token::EndArray) | None) {
                items.push(read(lexer, settings)?);
            }
            Ok(Node::Array(items))
        }
        Some(Token::String) => Ok(Node::Leaf(quoted(&lexer.text()?))),
        Some(Token::Int) => Ok(Node::Leaf(ascii_units(&canonical_integer(&String::from_utf8_lossy(lexer.raw()))))),
        Some(Token::Float) => Ok(Node::Leaf(ascii_units(&float_text(lexer, settings)?))),
        Some(_) => Ok(Node::Leaf(lexer.text()?)),
        None => Err("Unexpected end-of-input".to_string()),
    }
}

fn float_text(lexer: &Lexer, settings: &DecodeSettings) -> Result<String, String> {
    let text = String::from_utf8_lossy(lexer.raw()).into_owned();
    let infinite = || java::parse_double(&text.encode_utf16().collect::<Vec<_>>()).is_ok_and(f64::is_infinite);
    if settings.big_decimal_floats && !(settings.infinite_floats_as_double && infinite()) {
        let decimal = BigDecimal::parse(&text).ok_or("bad number")?;
        return Ok(decimal.stripped().to_java_string());
    }
    let value = java::parse_double(&text.encode_utf16().collect::<Vec<_>>())?;
    if !value.is_finite() {
        return Ok(format!("\"{}\"", crate::float::java_double_to_string(value, settings.float_spelling)));
    }
    Ok(crate::float::java_double_to_string(value, settings.float_spelling))
}

/// An integer token as `IntNode`/`LongNode`/`BigIntegerNode` print it.
fn canonical_integer(text: &str) -> String {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let digits = digits.trim_start_matches('0');
    match (negative, digits.is_empty()) {
        (_, true) => "0".to_string(),
        (true, false) => format!("-{digits}"),
        (false, false) => digits.to_string(),
    }
}

fn ascii_units(text: &str) -> Vec<u16> {
    text.encode_utf16().collect()
}

/// Jackson's writer escaping: `"`, `\\`, and C0 controls (`\b \t \n \f \r`, else `\u00XX`).
fn quoted(units: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(units.len() + 2);
    quote_into(units, &mut out);
    out
}

pub(crate) fn quote_into(units: &[u16], out: &mut Vec<u16>) {
    out.push(u16::from(b'"'));
    for &unit in units {
        let short = match unit {
            0x22 => Some(b'"'),
            0x5C => Some(b'\\'),
            0x08 => Some(b'b'),
            0x09 => Some(b't'),
            0x0A => Some(b'n'),
            0x0C => Some(b'f'),
            0x0D => Some(b'r'),
            _ => None,
        };
        match short {
            Some(letter) => out.extend([u16::from(b'\\'), u16::from(letter)]),
            None if unit < 0x20 => out.extend(ascii_units(&format!("\\u{unit:04X}"))),
            None => out.push(unit),
        }
    }
    out.push(u16::from(b'"'));
}

fn write(node: &Node, out: &mut Vec<u16>) {
    match node {
        Node::Leaf(text) => out.extend_from_slice(text),
        Node::Array(items) => {
            out.push(u16::from(b'['));
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(u16::from(b','));
                }
                write(item, out);
            }
            out.push(u16::from(b']'));
        }
        Node::Object(members) => {
            out.push(u16::from(b'{'));
            for (i, (name, value)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(u16::from(b','));
                }
                out.extend(quoted(name));
                out.push(u16::from(b':'));
                write(value, out);
            }
            out.push(u16::from(b'}'));
        }
    }
}
