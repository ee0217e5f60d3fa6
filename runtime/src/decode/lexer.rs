//! A JSON pull lexer that accepts and refuses what the Jackson parser of Flink's JSON formats does
//! (strict JSON, control characters allowed inside strings, no comments, no NaN), and hands out
//! string text as Java's UTF-16 code units, decoded as Jackson decodes UTF-8.

/// One JSON token, as Jackson's `JsonToken` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Token {
    StartObject,
    EndObject,
    StartArray,
    EndArray,
    FieldName,
    String,
    Int,
    Float,
    True,
    False,
    Null,
}

/// Jackson's stream read constraints (2.15 and later; Flink 1.20's Jackson 2.14 has none).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub max_depth: usize,
    pub max_number_length: usize,
    pub max_name_length: usize,
    pub max_string_length: usize,
}

impl Limits {
    pub(crate) const JACKSON_2_15: Limits =
        Limits { max_depth: 1000, max_number_length: 1000, max_name_length: 50_000, max_string_length: 20_000_000 };
    pub(crate) const NONE: Limits = Limits {
        max_depth: usize::MAX,
        max_number_length: usize::MAX,
        max_name_length: usize::MAX,
        max_string_length: usize::MAX,
    };
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    Root,
    /// `value_done`: a member was read, so `,` or `}` comes next.
    Object {
        value_done: bool,
        after_name: bool,
    },
    Array {
        value_done: bool,
    },
}

/// A lexer's growable buffers, kept from one message to the next.
#[derive(Default)]
pub(crate) struct LexerBuffers {
    scopes: Vec<Scope>,
    text: Vec<u16>,
    utf8: Vec<u8>,
}

pub(crate) struct Lexer<'a> {
    input: &'a [u8],
    pos: usize,
    scopes: Vec<Scope>,
    limits: Limits,
    current: Option<Token>,
    /// The text of the current name or string token (UTF-16 code units), unless `plain` holds it.
    text: Vec<u16>,
    /// The byte span of the current name or string body when it is valid UTF-8 without escapes:
    /// its text is those bytes, so nothing is decoded.
    plain: Option<(usize, usize)>,
    /// The text of the current name or string as UTF-8 when it has escapes but every character
    /// is ASCII or a non-surrogate escape (set by `decoded`).
    utf8: Vec<u8>,
    decoded: bool,
    /// The byte span of the current number or literal token.
    span: (usize, usize),
    /// Where the unread rest of the current string token starts (Jackson reads strings lazily:
    /// decoded by `text`, or skipped by the next `next`).
    pending_string: Option<usize>,
    /// Set by a nesting-depth error, or a bad scalar after a name: the next call yields no token.
    pending_gap: bool,
    /// A number or literal already read with its field name, handed out by the next call.
    stashed: Option<Token>,
    /// The end of the input was handed out (as no token) once.
    ended: bool,
}

pub(crate) type LexResult<T> = Result<T, String>;

impl<'a> Lexer<'a> {
    pub(crate) fn new(input: &'a [u8], limits: Limits) -> Self {
        // Room for a few levels, so a flat message never regrows it.
        let buffers = LexerBuffers { scopes: Vec::with_capacity(8), text: Vec::new(), utf8: Vec::new() };
        Lexer::with_buffers(input, limits, buffers)
    }

    /// A lexer over `input` that reuses the buffers an earlier one gave back (see
    /// [`Lexer::into_buffers`]), so reading a batch's messages allocates nothing per message.
    pub(crate) fn with_buffers(input: &'a [u8], limits: Limits, buffers: LexerBuffers) -> Self {
        let pos = if input.starts_with(&[0xEF, 0xBB, 0xBF]) { 3 } else { 0 };
        let LexerBuffers { mut scopes, mut text, mut utf8 } = buffers;
        scopes.clear();
        text.clear();
        utf8.clear();
        scopes.push(Scope::Root);
        Lexer {
            input,
            pos,
            scopes,
            limits,
            current: None,
            text,
            plain: None,
            utf8,
            decoded: false,
            span: (0, 0),
            pending_string: None,
            pending_gap: false,
            stashed: None,
            ended: false,
        }
    }

    pub(crate) fn into_buffers(self) -> LexerBuffers {
        LexerBuffers { scopes: self.scopes, text: self.text, utf8: self.utf8 }
    }

    pub(crate) fn current(&self) -> Option<Token> {
        self.current
    }

    /// What Jackson's `getText()` returns for the current token, as UTF-16 code units.
    pub(crate) fn text(&mut self) -> LexResult<Vec<u16>> {
        Ok(self.text_ref()?.to_units())
    }

    /// What Jackson's `getText()` returns for the current token, borrowed. A string is decoded
    /// here, as Jackson does it: a bad byte fails the call, leaves the lexer just past it, and
    /// ends the string token.
    pub(crate) fn text_ref(&mut self) -> LexResult<Text<'_>> {
        if let (Some(Token::String), Some(start)) = (self.current, self.pending_string.take()) {
            self.pos = start;
            self.string(self.limits.max_string_length)?;
        }
        Ok(match self.current {
            Some(Token::FieldName | Token::String) => self.string_text(),
            Some(Token::StartObject) => Text::Utf8(b"{"),
            Some(Token::EndObject) => Text::Utf8(b"}"),
            Some(Token::StartArray) => Text::Utf8(b"["),
            Some(Token::EndArray) => Text::Utf8(b"]"),
            Some(_) => Text::Utf8(self.raw()),
            None => Text::Utf8(b""),
        })
    }

    /// The text the last name or string read left.
    fn string_text(&self) -> Text<'_> {
        match self.plain {
            Some((start, end)) => Text::Utf8(&self.input[start..end]),
            None if self.decoded => Text::Utf8(&self.utf8),
            None => Text::Units(&self.text),
        }
    }

    /// Jackson's `getBinaryValue()` of the current string: base64 read from the raw bytes. A bad
    /// byte fails the call and leaves the rest of the string to be skipped from just past it.
    pub(crate) fn binary(&mut self) -> LexResult<Vec<u8>> {
        match (self.current, self.pending_string) {
            (Some(Token::String), Some(start)) => {
                self.pos = start;
                let (decoded, resume) = super::base64::decode_raw(self.input, start);
                match decoded {
                    Ok(bytes) => {
                        self.pos = resume;
                        self.pending_string = None;
                        Ok(bytes)
                    }
                    Err(message) => {
                        self.pending_string = Some(resume);
                        Err(message)
                    }
                }
            }
            (Some(Token::String), None) => super::base64::decode(&self.string_text().to_units()),
            (token, _) => Err(format!(
                "Current token ({token:?}) not VALUE_STRING or VALUE_EMBEDDED_OBJECT, can not access as binary"
            )),
        }
    }

    /// The bytes of the current number or literal token.
    pub(crate) fn raw(&self) -> &'a [u8] {
        &self.input[self.span.0..self.span.1]
    }

    /// Moves to the next token; `None` at the end of the input outside any open value, and
    /// once after a nesting-depth error.
    pub(crate) fn next(&mut self) -> LexResult<Option<Token>> {
        if std::mem::take(&mut self.pending_gap) {
            self.current = None;
            return Ok(None);
        }
        if let Some(token) = self.stashed.take() {
            self.current = Some(token);
            return Ok(Some(token));
        }
        if let Some(start) = self.pending_string.take() {
            self.pos = start;
            self.skip_string()?;
        }
        let token = self.advance()?;
        self.current = token;
        Ok(token)
    }

    fn advance(&mut self) -> LexResult<Option<Token>> {
        let scope = *self.scopes.last().expect("root scope");
        let byte = match self.skip_space()? {
            Some(byte) => byte,
            // The end once; asked again, an error, so that no loop of a converter that lost
            // its place (after errors under ignore-parse-errors) can spin at the end.
            None if scope == Scope::Root && !std::mem::replace(&mut self.ended, true) => return Ok(None),
            None if scope == Scope::Root => return Err("Unexpected end-of-input".to_string()),
            None => return Err(self.eof_in(scope)),
        };
        match scope {
            Scope::Root => self.value(byte),
            Scope::Object { value_done, after_name } => self.in_object(byte, value_done, after_name),
            Scope::Array { value_done } => self.in_array(byte, value_done),
        }
    }

    fn in_object(&mut self, byte: u8, value_done: bool, after_name: bool) -> LexResult<Option<Token>> {
        if after_name {
            if byte != b':' {
                self.pos += 1;
                return Err(unexpected(byte, "was expecting a colon to separate field name and value"));
            }
            self.pos += 1;
            self.set_top(Scope::Object { value_done: true, after_name: false });
            let byte = self.skip_space()?.ok_or_else(|| self.eof_in(Scope::Object { value_done, after_name }))?;
            return self.value(byte);
        }
        let mut byte = byte;
        if byte == b'}' {
            self.pos += 1;
            self.scopes.pop();
            return Ok(Some(Token::EndObject));
        }
        if value_done {
            if byte != b',' {
                self.pos += 1;
                return Err(unexpected(byte, "was expecting comma to separate Object entries"));
            }
            self.pos += 1;
            byte = self.skip_space()?.ok_or_else(|| self.eof_in(Scope::Object { value_done, after_name }))?;
        }
        if byte != b'"' {
            self.pos += 1;
            return Err(unexpected(byte, "was expecting double-quote to start field name"));
        }
        self.pos += 1;
        self.string(self.limits.max_name_length)?;
        self.set_top(Scope::Object { value_done: false, after_name: true });
        self.read_scalar_after_name()?;
        Ok(Some(Token::FieldName))
    }

    /// Jackson reads a number or literal right after its field name, in the same call: a bad one
    /// fails the name's call, and the call after it yields no token.
    fn read_scalar_after_name(&mut self) -> LexResult<()> {
        let save = self.pos;
        let Ok(Some(b':')) = self.skip_space() else { return Ok(()) };
        self.pos += 1;
        let byte = match self.skip_space() {
            Ok(Some(byte)) if !matches!(byte, b'"' | b'{' | b'[' | b']' | b'}') => byte,
            _ => {
                self.pos = save;
                return Ok(());
            }
        };
        self.set_top(Scope::Object { value_done: true, after_name: false });
        match self.value(byte) {
            Ok(token) => {
                self.stashed = token;
                Ok(())
            }
            Err(message) => {
                self.pending_gap = true;
                Err(message)
            }
        }
    }

    fn in_array(&mut self, byte: u8, value_done: bool) -> LexResult<Option<Token>> {
        if byte == b']' {
            self.pos += 1;
            self.scopes.pop();
            return Ok(Some(Token::EndArray));
        }
        let mut byte = byte;
        if value_done {
            if byte != b',' {
                self.pos += 1;
                return Err(unexpected(byte, "was expecting comma to separate Array entries"));
            }
            self.pos += 1;
            byte = self.skip_space()?.ok_or_else(|| self.eof_in(Scope::Array { value_done }))?;
        }
        self.set_top(Scope::Array { value_done: true });
        self.value(byte)
    }

    fn set_top(&mut self, scope: Scope) {
        *self.scopes.last_mut().expect("scope") = scope;
    }

    fn value(&mut self, byte: u8) -> LexResult<Option<Token>> {
        let token = match byte {
            b'{' | b'[' => {
                self.pos += 1;
                let token = match byte {
                    b'{' => {
                        self.scopes.push(Scope::Object { value_done: false, after_name: false });
                        Token::StartObject
                    }
                    _ => {
                        self.scopes.push(Scope::Array { value_done: false });
                        Token::StartArray
                    }
                };
                let depth = self.scopes.len() - 1;
                if depth > self.limits.max_depth {
                    // As Jackson: the container is entered, the token is lost, and the next
                    // call gives no token before reading on inside it.
                    self.pending_gap = true;
                    return Err(format!(
                        "Document nesting depth ({depth}) exceeds the maximum allowed ({})",
                        self.limits.max_depth
                    ));
                }
                token
            }
            b'"' => {
                self.pos += 1;
                self.pending_string = Some(self.pos);
                Token::String
            }
            b'-' | b'0'..=b'9' => self.number()?,
            b't' => self.literal(b"true", Token::True)?,
            b'f' => self.literal(b"false", Token::False)?,
            b'n' => self.literal(b"null", Token::Null)?,
            b']' | b'}' => {
                self.pos += 1;
                return Err(unexpected(byte, "expected a value"));
            }
            _ => return Err(self.unrecognized()),
        };
        Ok(Some(token))
    }

    fn skip_space(&mut self) -> LexResult<Option<u8>> {
        while let Some(&byte) = self.input.get(self.pos) {
            match byte {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                0..=0x1F => {
                    return Err(format!(
                        "Illegal character ((CTRL-CHAR, code {byte})): only regular white space (\\r, \\n, \\t) is allowed between tokens"
                    ))
                }
                _ => return Ok(Some(byte)),
            }
        }
        Ok(None)
    }

    fn eof_in(&self, scope: Scope) -> String {
        match scope {
            Scope::Array { .. } => "Unexpected end-of-input: expected close marker for Array".to_string(),
            _ => "Unexpected end-of-input: expected close marker for Object".to_string(),
        }
    }

    fn literal(&mut self, word: &[u8], token: Token) -> LexResult<Token> {
        let start = self.pos;
        if !self.input[start..].starts_with(word)
            || self.input.get(start + word.len()).is_some_and(|&b| is_word_byte(b))
        {
            return Err(self.unrecognized());
        }
        self.pos += word.len();
        self.span = (start, self.pos);
        Ok(token)
    }

    fn unrecognized(&self) -> String {
        let end =
            self.input[self.pos..].iter().position(|&b| !is_word_byte(b)).map_or(self.input.len(), |n| self.pos + n);
        let word = String::from_utf8_lossy(&self.input[self.pos..end.max(self.pos + 1).min(self.input.len())]);
        format!("Unrecognized token '{word}': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')")
    }

    fn number(&mut self) -> LexResult<Token> {
        let start = self.pos;
        let input = self.input;
        let mut pos = start;
        if input[pos] == b'-' {
            pos += 1;
        }
        let int_start = pos;
        while input.get(pos).is_some_and(u8::is_ascii_digit) {
            pos += 1;
        }
        if pos == int_start {
            return Err(match input.get(pos) {
                Some(&b) => unexpected(b, "expected digit (0-9) to follow minus sign, for valid numeric value"),
                None => "Unexpected end-of-input in a Number value".to_string(),
            });
        }
        if input[int_start] == b'0' && pos - int_start > 1 {
            return Err("Invalid numeric value: Leading zeroes not allowed".to_string());
        }
        let mut float = false;
        if input.get(pos) == Some(&b'.') {
            float = true;
            pos += 1;
            let fraction = pos;
            while input.get(pos).is_some_and(u8::is_ascii_digit) {
                pos += 1;
            }
            if pos == fraction {
                return Err("Unexpected character: Decimal point not followed by a digit".to_string());
            }
        }
        if matches!(input.get(pos), Some(b'e' | b'E')) {
            float = true;
            pos += 1;
            if matches!(input.get(pos), Some(b'+' | b'-')) {
                pos += 1;
            }
            let exponent = pos;
            while input.get(pos).is_some_and(u8::is_ascii_digit) {
                pos += 1;
            }
            if pos == exponent {
                return Err("Unexpected character: Exponent indicator not followed by a digit".to_string());
            }
        }
        if pos - start > self.limits.max_number_length {
            // Jackson reads the whole number before refusing it.
            self.pos = pos;
            return Err(format!(
                "Number value length ({}) exceeds the maximum allowed ({})",
                pos - start,
                self.limits.max_number_length
            ));
        }
        self.pos = pos;
        self.span = (start, pos);
        Ok(if float { Token::Float } else { Token::Int })
    }

    /// Reads a string body after its opening quote into `text` (or `plain`).
    fn string(&mut self, max_length: usize) -> LexResult<()> {
        self.text.clear();
        self.plain = None;
        self.decoded = false;
        if let Some(end) = self.plain_string_end(max_length) {
            self.plain = Some((self.pos, end));
            self.pos = end + 1;
            return Ok(());
        }
        if self.escaped_ascii_string(max_length) {
            self.decoded = true;
            return Ok(());
        }
        loop {
            self.ascii_run();
            let Some(&byte) = self.input.get(self.pos) else {
                return Err("Unexpected end-of-input: was expecting closing quote for a string value".to_string());
            };
            self.pos += 1;
            match byte {
                b'"' => break,
                b'\\' => self.escape()?,
                0..=0x7F => self.text.push(u16::from(byte)),
                _ => self.multibyte(byte)?,
            }
        }
        if self.text.len() > max_length {
            return Err(format!(
                "String value length ({}) exceeds the maximum allowed ({max_length})",
                self.text.len()
            ));
        }
        Ok(())
    }

    /// Where the string body at `pos` ends when it reads without a failure and its text is its
    /// bytes: no escape, valid UTF-8 (which Jackson decodes to the same characters), and no
    /// longer than `max_length` (UTF-16 units never outnumber the bytes).
    fn plain_string_end(&self, max_length: usize) -> Option<usize> {
        let body = &self.input[self.pos..];
        let mut length = ascii_run_length(body);
        if body.get(length)? >= &0x80 {
            length += body[length..].iter().position(|&b| b == b'"' || b == b'\\')?;
            std::str::from_utf8(&body[..length]).ok()?;
        }
        (body[length] == b'"' && length <= max_length).then_some(self.pos + length)
    }

    /// Reads a string body of ASCII bytes and escapes that are not surrogates into `utf8`, which
    /// then spells its text exactly (the common escaped string, read without UTF-16 units).
    /// Anything else (a non-ASCII byte, a surrogate escape, a bad escape, the end, or a string
    /// past `max_length`) gives false with `pos` unmoved, for the UTF-16 path to read as Jackson
    /// does, errors included.
    fn escaped_ascii_string(&mut self, max_length: usize) -> bool {
        let start = self.pos;
        self.utf8.clear();
        // ASCII bytes and BMP escapes are one UTF-16 unit each.
        let mut units = 0;
        loop {
            let rest = &self.input[self.pos..];
            let run = ascii_run_length(rest);
            self.utf8.extend_from_slice(&rest[..run]);
            units += run;
            self.pos += run;
            let escaped = match self.input.get(self.pos) {
                Some(b'"') => break,
                Some(b'\\') => simple_escape(&self.input[self.pos + 1..]),
                _ => None,
            };
            let Some((character, length)) = escaped else {
                self.pos = start;
                return false;
            };
            let mut buffer = [0u8; 4];
            self.utf8.extend_from_slice(character.encode_utf8(&mut buffer).as_bytes());
            units += 1;
            self.pos += 1 + length;
        }
        if units > max_length {
            self.pos = start;
            return false;
        }
        self.pos += 1;
        true
    }

    /// Copies the ASCII bytes from `pos` up to a quote, backslash or non-ASCII byte into `text`.
    fn ascii_run(&mut self) {
        let rest = &self.input[self.pos..];
        let run = ascii_run_length(rest);
        self.text.extend(rest[..run].iter().map(|&b| u16::from(b)));
        self.pos += run;
    }

    fn escape(&mut self) -> LexResult<()> {
        let Some(&byte) = self.input.get(self.pos) else {
            return Err("Unexpected end-of-input in character escape sequence".to_string());
        };
        self.pos += 1;
        let unit = match byte {
            b'"' | b'\\' | b'/' => u16::from(byte),
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => 0x0A,
            b'r' => 0x0D,
            b't' => 0x09,
            b'u' => {
                let mut value = 0u16;
                for _ in 0..4 {
                    let Some(&hex) = self.input.get(self.pos) else {
                        return Err("Unexpected end-of-input in character escape sequence".to_string());
                    };
                    let digit = (hex as char)
                        .to_digit(16)
                        .ok_or_else(|| unexpected(hex, "expected a hex-digit for character escape sequence"))?;
                    value = value << 4 | digit as u16;
                    self.pos += 1;
                }
                value
            }
            _ => return Err(format!("Unrecognized character escape {} (code {byte})", quoted_char(byte))),
        };
        self.text.push(unit);
        Ok(())
    }

    /// A multi-byte UTF-8 sequence decoded as Jackson does: continuation bytes are checked,
    /// overlong forms and encoded surrogates are not.
    fn multibyte(&mut self, lead: u8) -> LexResult<()> {
        let (extra, initial) = match lead {
            0xC0..=0xDF => (1, u32::from(lead & 0x1F)),
            0xE0..=0xEF => (2, u32::from(lead & 0x0F)),
            0xF0..=0xF7 => (3, u32::from(lead & 0x07)),
            _ => return Err(format!("Invalid UTF-8 start byte 0x{lead:x}")),
        };
        let mut code = initial;
        for _ in 0..extra {
            let Some(&next) = self.input.get(self.pos) else {
                return Err("Unexpected end-of-input: was expecting closing quote for a string value".to_string());
            };
            if next & 0xC0 != 0x80 {
                self.pos += 1;
                return Err(format!("Invalid UTF-8 middle byte 0x{next:x}"));
            }
            self.pos += 1;
            code = code << 6 | u32::from(next & 0x3F);
        }
        if extra == 3 {
            let offset = code.wrapping_sub(0x10000);
            self.text.push(0xD800 | ((offset >> 10) & 0xFFFF) as u16);
            self.text.push(0xDC00 | (offset & 0x3FF) as u16);
        } else {
            self.text.push(code as u16);
        }
        Ok(())
    }

    /// Skips a string body from `pos` to its closing quote, checking what Jackson's skip checks
    /// (escapes, UTF-8 lead and continuation bytes).
    fn skip_string(&mut self) -> LexResult<()> {
        loop {
            let Some(&byte) = self.input.get(self.pos) else {
                return Err("Unexpected end-of-input in VALUE_STRING".to_string());
            };
            self.pos += 1;
            match byte {
                b'"' => return Ok(()),
                b'\\' => {
                    let length = self.text.len();
                    self.escape()?;
                    self.text.truncate(length);
                }
                0..=0x7F => {}
                0xC0..=0xF7 => {
                    let extra = if byte < 0xE0 {
                        1
                    } else if byte < 0xF0 {
                        2
                    } else {
                        3
                    };
                    for _ in 0..extra {
                        let Some(&next) = self.input.get(self.pos) else {
                            return Err("Unexpected end-of-input in VALUE_STRING".to_string());
                        };
                        self.pos += 1;
                        if next & 0xC0 != 0x80 {
                            return Err(format!("Invalid UTF-8 middle byte 0x{next:x}"));
                        }
                    }
                }
                _ => return Err(format!("Invalid UTF-8 start byte 0x{byte:x}")),
            }
        }
    }

    /// Skips the rest of the current value when it opened an object or array (Flink's
    /// `skipToNextField` without the final advance).
    pub(crate) fn skip_children(&mut self) -> LexResult<()> {
        if !matches!(self.current, Some(Token::StartObject | Token::StartArray)) {
            return Ok(());
        }
        let mut open = 1usize;
        while open > 0 {
            match self.next()? {
                Some(Token::StartObject | Token::StartArray) => open += 1,
                Some(Token::EndObject | Token::EndArray) => open -= 1,
                Some(_) => {}
                None => return Err("Unexpected end-of-input".to_string()),
            }
        }
        Ok(())
    }
}

/// A token's text: its UTF-8 bytes when they spell it exactly, else its UTF-16 code units.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Text<'t> {
    Utf8(&'t [u8]),
    Units(&'t [u16]),
}

impl<'t> Text<'t> {
    pub(crate) fn to_units(self) -> Vec<u16> {
        match self {
            Text::Utf8(bytes) if bytes.is_ascii() => bytes.iter().map(|&b| u16::from(b)).collect(),
            Text::Utf8(bytes) => String::from_utf8_lossy(bytes).encode_utf16().collect(),
            Text::Units(units) => units.to_vec(),
        }
    }

    /// Java's `getBytes(UTF_8)` of the text.
    pub(crate) fn to_utf8(self) -> Vec<u8> {
        match self {
            Text::Utf8(bytes) => bytes.to_vec(),
            Text::Units(units) => super::java::to_utf8(units),
        }
    }

    /// Java's `String.trim()`: a byte up to 0x20 is the unit up to U+0020.
    pub(crate) fn trim(self) -> Text<'t> {
        match self {
            Text::Utf8(bytes) => {
                let start = bytes.iter().position(|&b| b > 0x20).unwrap_or(bytes.len());
                let end = bytes.iter().rposition(|&b| b > 0x20).map_or(start, |i| i + 1);
                Text::Utf8(&bytes[start..end])
            }
            Text::Units(units) => Text::Units(super::java::trim(units)),
        }
    }

    /// The text when it is all ASCII (numbers, dates); other text never parses as those.
    pub(crate) fn ascii(self) -> Option<std::borrow::Cow<'t, str>> {
        match self {
            Text::Utf8(bytes) if bytes.is_ascii() => std::str::from_utf8(bytes).ok().map(std::borrow::Cow::Borrowed),
            Text::Utf8(_) => None,
            Text::Units(units) => super::java::ascii(units).map(std::borrow::Cow::Owned),
        }
    }

    /// The text for a message (a lone surrogate shown as U+FFFD).
    pub(crate) fn lossy(self) -> String {
        match self {
            Text::Utf8(bytes) => String::from_utf8_lossy(bytes).into_owned(),
            Text::Units(units) => String::from_utf16_lossy(units),
        }
    }
}

/// The length of the run of ASCII bytes other than `"` and `\\` that `bytes` starts with, read
/// eight bytes at a time (the lowest flagged byte of a word is exact).
fn ascii_run_length(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_bytes = |w: u64| w.wrapping_sub(ONES) & !w & HIGH;
    let mut at = 0;
    for chunk in bytes.chunks_exact(8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let hits =
            zero_bytes(word ^ (ONES * u64::from(b'"'))) | zero_bytes(word ^ (ONES * u64::from(b'\\'))) | word & HIGH;
        if hits != 0 {
            return at + hits.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    at + bytes[at..].iter().position(|&b| b == b'"' || b == b'\\' || b >= 0x80).unwrap_or(bytes.len() - at)
}

/// The character of the escape whose bytes after the backslash `escape` starts with, and how
/// many bytes it takes; `None` for a surrogate `\\u` escape or a bad or cut one.
pub(crate) fn simple_escape(escape: &[u8]) -> Option<(char, usize)> {
    let character = match escape.first()? {
        &byte @ (b'"' | b'\\' | b'/') => byte as char,
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let hex = std::str::from_utf8(escape.get(1..5)?).ok()?;
            let value = u32::from_str_radix(hex, 16).ok()?;
            // from_str_radix takes a sign; a JSON escape does not.
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            return char::from_u32(value).map(|c| (c, 5));
        }
        _ => return None,
    };
    Some((character, 1))
}

fn is_word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80
}

fn quoted_char(byte: u8) -> String {
    match byte {
        0x20..=0x7E => format!("'{}'", byte as char),
        _ => format!("'\\u{byte:04x}'"),
    }
}

fn unexpected(byte: u8, what: &str) -> String {
    format!("Unexpected character ({} (code {byte})): {what}", quoted_char(byte))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(input: &str) -> Result<Vec<Token>, String> {
        let mut lexer = Lexer::new(input.as_bytes(), Limits::JACKSON_2_15);
        let mut out = Vec::new();
        while let Some(token) = lexer.next()? {
            out.push(token);
        }
        Ok(out)
    }

    #[test]
    fn objects_arrays_and_scalars() {
        use Token::*;
        let all = tokens(r#" {"a": [1, -2.5e3, "x", true, false, null], "b": {}} "#).unwrap();
        assert_eq!(
            all,
            [
                StartObject,
                FieldName,
                StartArray,
                Int,
                Float,
                String,
                True,
                False,
                Null,
                EndArray,
                FieldName,
                StartObject,
                EndObject,
                EndObject
            ]
        );
    }

    #[test]
    fn jackson_refusals() {
        for bad in [
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":-}"#,
            r#"{"a":1,}"#,
            r#"{"a" 1}"#,
            r#"{"a":tru}"#,
            r#"{"a":NaN}"#,
            r#"{"a":"\x"}"#,
            "{\"a\":1",
            "[1 2]",
        ] {
            assert!(tokens(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn strings_decode_like_jackson() {
        let mut lexer = Lexer::new("\"a\\u00e9\\ud800\u{1F600}\u{1}\"".as_bytes(), Limits::NONE);
        assert_eq!(lexer.next().unwrap(), Some(Token::String));
        assert_eq!(lexer.text().unwrap(), [0x61, 0xE9, 0xD800, 0xD83D, 0xDE00, 0x01]);
        let mut lexer = Lexer::new(b"\"\xC3\"", Limits::NONE);
        assert_eq!(lexer.next().unwrap(), Some(Token::String));
        assert!(lexer.text().unwrap_err().contains("middle byte"));
    }

    #[test]
    fn plain_strings_are_their_bytes_and_others_decode_as_jackson_does() {
        let mut lexer = Lexer::new("\"a\u{e9}\u{1F600}\"".as_bytes(), Limits::NONE);
        assert_eq!(lexer.next().unwrap(), Some(Token::String));
        assert!(matches!(lexer.text_ref().unwrap(), Text::Utf8(b) if b == "a\u{e9}\u{1F600}".as_bytes()));
        assert_eq!(lexer.text().unwrap(), "a\u{e9}\u{1F600}".encode_utf16().collect::<Vec<_>>());
        // An encoded surrogate is not UTF-8, but Jackson reads it.
        let mut lexer = Lexer::new(b"\"\xED\xA0\x80\"", Limits::NONE);
        assert_eq!(lexer.next().unwrap(), Some(Token::String));
        assert_eq!(lexer.text().unwrap(), [0xD800]);
        assert_eq!(lexer.text_ref().unwrap().to_utf8(), b"?");
    }

    #[test]
    fn escaped_ascii_strings_are_read_as_utf8_with_the_units_jackson_gives() {
        let cases: [(&[u8], &[u16]); 5] = [
            (br#""a\"b\\c\/d\b\f\n\r\t""#, &[0x61, 0x22, 0x62, 0x5C, 0x63, 0x2F, 0x64, 8, 12, 10, 13, 9]),
            (br#""\u00e9\u20AC\u0000x""#, &[0xE9, 0x20AC, 0, 0x78]),
            // A surrogate escape, or a non-ASCII byte after an escape: read as units.
            (br#""\ud83d\ude00\ud800""#, &[0xD83D, 0xDE00, 0xD800]),
            ("\"\\n\u{e9}\"".as_bytes(), &[10, 0xE9]),
            (b"\"\\u00E9\x01\"", &[0xE9, 1]),
        ];
        for (input, units) in cases {
            let mut lexer = Lexer::new(input, Limits::JACKSON_2_15);
            assert_eq!(lexer.next().unwrap(), Some(Token::String));
            let text = lexer.text_ref().unwrap();
            assert_eq!(text.to_units(), units, "{}", String::from_utf8_lossy(input));
            assert_eq!(text.to_utf8(), crate::decode::java::to_utf8(units));
            assert_eq!(lexer.next().unwrap(), None);
        }
        let mut lexer = Lexer::new(br#""\u00g0""#, Limits::NONE);
        lexer.next().unwrap();
        assert!(lexer.text_ref().unwrap_err().contains("hex-digit"));
    }

    #[test]
    fn ascii_runs_end_at_the_first_quote_backslash_or_non_ascii_byte() {
        let mut seed = 7u64;
        for _ in 0..2000 {
            let bytes: Vec<u8> = (0..(seed % 40) as usize)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    [b'a', b'"', b'\\', 0x80, 0xFF, 0x00, b'!', b'#'][(seed >> 60) as usize % 8]
                })
                .collect();
            let naive = bytes.iter().position(|&b| b == b'"' || b == b'\\' || b >= 0x80).unwrap_or(bytes.len());
            assert_eq!(ascii_run_length(&bytes), naive, "{bytes:?}");
        }
    }

    #[test]
    fn a_bad_string_fails_where_it_is_read_and_the_lexer_goes_on_past_the_bad_byte() {
        use Token::*;
        // Skipped: the skip fails; then every character up to the next comma is refused once.
        let mut lexer = Lexer::new(b"{\"s\":\"a\xFEx\",\"t\":1}", Limits::NONE);
        assert_eq!(
            [lexer.next(), lexer.next(), lexer.next()],
            [Ok(Some(StartObject)), Ok(Some(FieldName)), Ok(Some(String))]
        );
        assert!(lexer.next().unwrap_err().contains("start byte 0xfe"));
        assert!(lexer.next().unwrap_err().contains("('x'"));
        assert!(lexer.next().unwrap_err().contains("('\"'"));
        assert_eq!(
            [lexer.next(), lexer.next(), lexer.next()],
            [Ok(Some(FieldName)), Ok(Some(Int)), Ok(Some(EndObject))]
        );
        // Read as base64: the bad byte fails it, and the rest of the string is skipped.
        let mut lexer = Lexer::new(b"{\"s\":\"aG\xFEk=\",\"t\":1}", Limits::NONE);
        (0..3).for_each(|_| drop(lexer.next()));
        assert!(lexer.binary().unwrap_err().contains("base64"));
        assert_eq!(
            [lexer.next(), lexer.next(), lexer.next()],
            [Ok(Some(FieldName)), Ok(Some(Int)), Ok(Some(EndObject))]
        );
    }

    #[test]
    fn the_end_is_handed_out_once() {
        let mut lexer = Lexer::new(b"{}", Limits::NONE);
        assert_eq!(
            [lexer.next(), lexer.next(), lexer.next()],
            [Ok(Some(Token::StartObject)), Ok(Some(Token::EndObject)), Ok(None)]
        );
        assert!(lexer.next().is_err());
    }

    #[test]
    fn depth_limit() {
        let deep = "[".repeat(1001) + &"]".repeat(1001);
        assert!(tokens(&deep).unwrap_err().contains("nesting depth"));
        assert!(tokens(&("[".repeat(1000) + &"]".repeat(1000))).is_ok());
    }
}
