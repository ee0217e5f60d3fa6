//! Jackson's tree of one message (`ObjectMapper.readTree`), which Flink's tree decoder
//! (`decode.json-parser.enabled = false`) and every CDC format convert: the whole message is
//! parsed first, so any syntax error fails it; a repeated key keeps its last value.
use super::java::{self, BigDecimal};
use super::lexer::{Lexer, Token};
use super::DecodeSettings;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Object(Vec<(Vec<u16>, Node)>),
    Array(Vec<Node>),
    Text(Vec<u16>),
    /// An integer token: `IntNode`, `LongNode` or `BigIntegerNode` by size.
    Integer(i128),
    /// An integer token too large even for i128: only its text is kept.
    BigInteger(String),
    /// A float token as `DoubleNode`.
    Double(f64),
    /// A float token as a (stripped) `DecimalNode`, when the row has a DECIMAL.
    Decimal(BigDecimal),
    Bool(bool),
    Null,
}

impl Node {
    /// `JsonNode.get(name)`.
    pub(crate) fn get(&self, name: &str) -> Option<&Node> {
        match self {
            Node::Object(members) => {
                members.iter().find(|(key, _)| key.iter().copied().eq(name.encode_utf16())).map(|(_, v)| v)
            }
            _ => None,
        }
    }

    /// `JsonNode.findValue(name)`: this object's own member, else the first found below it.
    pub(crate) fn find_value(&self, name: &str) -> Option<&Node> {
        match self {
            Node::Object(members) => self.get(name).or_else(|| members.iter().find_map(|(_, v)| v.find_value(name))),
            Node::Array(items) => items.iter().find_map(|item| item.find_value(name)),
            _ => None,
        }
    }

    /// `JsonNode.asText()`: a value node's text; "" for containers.
    pub(crate) fn as_text(&self, settings: &DecodeSettings) -> Vec<u16> {
        let ascii = |s: String| s.encode_utf16().collect();
        match self {
            Node::Text(text) => text.clone(),
            Node::Integer(v) => ascii(v.to_string()),
            Node::BigInteger(text) => ascii(text.clone()),
            Node::Double(v) => ascii(crate::float::java_double_to_string(*v, settings.float_spelling)),
            Node::Decimal(d) => ascii(d.to_java_string()),
            Node::Bool(b) => ascii(b.to_string()),
            Node::Null => ascii("null".to_string()),
            Node::Object(_) | Node::Array(_) => Vec::new(),
        }
    }

    /// `JsonNode.toString()`: compact JSON as Jackson writes a tree.
    pub(crate) fn to_json(&self, settings: &DecodeSettings, out: &mut Vec<u16>) {
        match self {
            Node::Object(members) => {
                out.push(u16::from(b'{'));
                for (i, (name, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(u16::from(b','));
                    }
                    super::tree::quote_into(name, out);
                    out.push(u16::from(b':'));
                    value.to_json(settings, out);
                }
                out.push(u16::from(b'}'));
            }
            Node::Array(items) => {
                out.push(u16::from(b'['));
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(u16::from(b','));
                    }
                    item.to_json(settings, out);
                }
                out.push(u16::from(b']'));
            }
            Node::Text(text) => super::tree::quote_into(text, out),
            Node::Double(v) if !v.is_finite() => {
                out.push(u16::from(b'"'));
                out.extend(self.as_text(settings));
                out.push(u16::from(b'"'));
            }
            other => out.extend(other.as_text(settings)),
        }
    }
}

/// Parses one message into its tree: `None` for a message with no value at all.
pub(crate) fn read_tree(message: &[u8], settings: &DecodeSettings) -> Result<Option<Node>, String> {
    let mut lexer = Lexer::new(message, settings.limits);
    match lexer.next()? {
        None => Ok(None),
        Some(_) => read(&mut lexer, settings).map(Some),
    }
}

fn read(lexer: &mut Lexer, settings: &DecodeSettings) -> Result<Node, String> {
    Ok(match lexer.current() {
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
            Node::Object(members)
        }
        Some(Token::StartArray) => {
            let mut items = Vec::new();
            while lexer.next()? != Some(Token::EndArray) {
                items.push(read(lexer, settings)?);
            }
            Node::Array(items)
        }
        Some(Token::String) => Node::Text(lexer.text()?),
        Some(Token::Int) => {
            let text = String::from_utf8_lossy(lexer.raw());
            match text.parse::<i128>() {
                Ok(v) => Node::Integer(v),
                Err(_) => {
                    Node::BigInteger(text.trim_start_matches('-').trim_start_matches('0').to_string()).signed(&text)
                }
            }
        }
        Some(Token::Float) => {
            // A number token: ASCII, its own trimmed text.
            let text = String::from_utf8_lossy(lexer.raw());
            let double = || java::double_text(&text).ok_or_else(|| java::number_format_text(&text));
            match settings.big_decimal_floats {
                true if settings.infinite_floats_as_double && double()?.is_infinite() => Node::Double(double()?),
                true => Node::Decimal(BigDecimal::parse(&text).ok_or("bad number")?.stripped()),
                false => Node::Double(double()?),
            }
        }
        Some(Token::True) => Node::Bool(true),
        Some(Token::False) => Node::Bool(false),
        Some(Token::Null) => Node::Null,
        Some(Token::EndObject | Token::EndArray | Token::FieldName) | None => {
            return Err("Unexpected token".to_string())
        }
    })
}

impl Node {
    fn signed(self, original: &str) -> Node {
        match (self, original.starts_with('-')) {
            (Node::BigInteger(digits), true) => Node::BigInteger(format!("-{digits}")),
            (node, _) => node,
        }
    }
}
