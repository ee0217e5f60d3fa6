//! SQL tokens for the DDL and type parsers: words, `backquoted` identifiers, 'string' literals,
//! integers and single-character symbols, each with its 1-based line and column. Comments
//! (`--` to end of line, `/* ... */`) and whitespace are dropped.
use crate::error::{KjsonError, Position, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// An unquoted identifier or keyword; compare keywords case-insensitively.
    Word,
    /// A `backquoted` identifier; `text` holds it unescaped.
    Quoted,
    /// A 'string' literal; `text` holds it unescaped.
    Str,
    /// Digits, optionally with a fraction or exponent (only integers are meaningful in types).
    Number,
    /// Any other single character.
    Symbol(char),
    /// The end of the input; always the last token.
    End,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub text: String,
    pub pos: Position,
}

impl Token {
    /// True for an unquoted word equal to `keyword` ignoring ASCII case.
    pub fn is_word(&self, keyword: &str) -> bool {
        self.kind == TokenKind::Word && self.text.eq_ignore_ascii_case(keyword)
    }

    pub fn is_symbol(&self, symbol: char) -> bool {
        self.kind == TokenKind::Symbol(symbol)
    }

    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self.kind {
            TokenKind::End => "end of input".to_string(),
            TokenKind::Str => format!("string literal '{}'", self.text.replace('\'', "''")),
            TokenKind::Quoted => format!("`{}`", self.text.replace('`', "``")),
            _ => format!("'{}'", self.text),
        }
    }
}

/// Splits `source` into tokens; the last token is [`TokenKind::End`].
pub(crate) fn tokenize(source: &str) -> Result<Vec<Token>> {
    let mut scanner = Scanner { chars: source.chars().collect(), index: 0, line: 1, column: 1 };
    let mut tokens = Vec::new();
    loop {
        scanner.skip_blanks()?;
        let pos = scanner.position();
        let Some(c) = scanner.peek(0) else {
            tokens.push(Token { kind: TokenKind::End, text: String::new(), pos });
            return Ok(tokens);
        };
        let (kind, text) = if c == '\'' {
            (TokenKind::Str, scanner.quoted('\'', "string literal", pos)?)
        } else if c == '`' {
            (TokenKind::Quoted, scanner.quoted('`', "quoted identifier", pos)?)
        } else if c.is_ascii_digit() {
            (TokenKind::Number, scanner.number())
        } else if is_word_start(c) {
            (TokenKind::Word, scanner.word())
        } else {
            scanner.bump();
            (TokenKind::Symbol(c), c.to_string())
        };
        tokens.push(Token { kind, text, pos });
    }
}

fn is_word_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '$'
}

fn is_word_part(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

struct Scanner {
    chars: Vec<char>,
    index: usize,
    line: usize,
    column: usize,
}

impl Scanner {
    fn position(&self) -> Position {
        Position { line: self.line, column: self.column }
    }

    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.index + ahead).copied()
    }

    /// Consumes one character; `\r\n`, `\n` and a lone `\r` each end a line.
    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.index += 1;
        let ends_line = c == '\n' || (c == '\r' && self.peek(0) != Some('\n'));
        if ends_line {
            self.line += 1;
            self.column = 1;
        } else if c != '\r' {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_blanks(&mut self) -> Result<()> {
        loop {
            match (self.peek(0), self.peek(1)) {
                (Some(c), _) if c.is_whitespace() => {
                    self.bump();
                }
                (Some('-'), Some('-')) => {
                    while let Some(c) = self.peek(0) {
                        if c == '\n' || c == '\r' {
                            break;
                        }
                        self.bump();
                    }
                }
                (Some('/'), Some('*')) => self.block_comment()?,
                _ => return Ok(()),
            }
        }
    }

    fn block_comment(&mut self) -> Result<()> {
        let start = self.position();
        self.bump();
        self.bump();
        loop {
            match self.bump() {
                Some('*') if self.peek(0) == Some('/') => {
                    self.bump();
                    return Ok(());
                }
                Some(_) => {}
                None => return Err(KjsonError::parse("Unterminated comment '/*'", Some(start))),
            }
        }
    }

    /// Reads a literal delimited by `quote`, where a doubled quote stands for one.
    fn quoted(&mut self, quote: char, what: &str, start: Position) -> Result<String> {
        self.bump();
        let mut text = String::new();
        loop {
            match self.bump() {
                Some(c) if c == quote => {
                    if self.peek(0) == Some(quote) {
                        self.bump();
                        text.push(quote);
                    } else {
                        return Ok(text);
                    }
                }
                Some(c) => text.push(c),
                None => return Err(KjsonError::parse(format!("Unterminated {what}"), Some(start))),
            }
        }
    }

    fn number(&mut self) -> String {
        let mut text = self.take_while(|c| c.is_ascii_digit());
        if self.peek(0) == Some('.') && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
            text.push('.');
            text.push_str(&self.take_while(|c| c.is_ascii_digit()));
        }
        text
    }

    fn word(&mut self) -> String {
        self.take_while(is_word_part)
    }

    fn take_while(&mut self, accept: impl Fn(char) -> bool) -> String {
        let mut text = String::new();
        while let Some(c) = self.peek(0) {
            if !accept(c) {
                break;
            }
            self.bump();
            text.push(c);
        }
        text
    }
}

/// A read position over a token list; the list always ends with [`TokenKind::End`].
pub(crate) struct Cursor<'a> {
    tokens: &'a [Token],
    index: usize,
    /// How many types the type parser is inside; it bounds recursion on hostile input.
    pub type_depth: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(tokens: &'a [Token]) -> Self {
        debug_assert!(tokens.last().is_some_and(|t| t.kind == TokenKind::End));
        Cursor { tokens, index: 0, type_depth: 0 }
    }

    pub fn peek(&self) -> &'a Token {
        self.peek_at(0)
    }

    /// The token `ahead` places on; the End token once past the end.
    pub fn peek_at(&self, ahead: usize) -> &'a Token {
        let last = self.tokens.len() - 1;
        &self.tokens[(self.index + ahead).min(last)]
    }

    /// Returns the current token and moves on (never past End).
    pub fn next(&mut self) -> &'a Token {
        let token = self.peek();
        if token.kind != TokenKind::End {
            self.index += 1;
        }
        token
    }

    /// Consumes the next token if it is the keyword.
    pub fn eat_word(&mut self, keyword: &str) -> bool {
        let hit = self.peek().is_word(keyword);
        if hit {
            self.index += 1;
        }
        hit
    }

    /// Consumes the next token if it is the symbol.
    pub fn eat_symbol(&mut self, symbol: char) -> bool {
        let hit = self.peek().is_symbol(symbol);
        if hit {
            self.index += 1;
        }
        hit
    }

    pub fn expect_word(&mut self, keyword: &str) -> Result<&'a Token> {
        if self.peek().is_word(keyword) {
            return Ok(self.next());
        }
        Err(self.unexpected(&format!("'{keyword}'")))
    }

    pub fn expect_symbol(&mut self, symbol: char) -> Result<&'a Token> {
        if self.peek().is_symbol(symbol) {
            return Ok(self.next());
        }
        Err(self.unexpected(&format!("'{symbol}'")))
    }

    pub fn expect_string(&mut self) -> Result<&'a Token> {
        if self.peek().kind == TokenKind::Str {
            return Ok(self.next());
        }
        Err(self.unexpected("a string literal"))
    }

    /// An identifier: a plain word or a backquoted name. Returns the name and its token.
    pub fn expect_identifier(&mut self) -> Result<(String, &'a Token)> {
        let token = self.peek();
        match token.kind {
            TokenKind::Word | TokenKind::Quoted => {
                self.next();
                Ok((token.text.clone(), token))
            }
            _ => Err(self.unexpected("an identifier")),
        }
    }

    /// A parse error at the current token: "Expected X but found Y".
    pub fn unexpected(&self, expected: &str) -> KjsonError {
        let token = self.peek();
        KjsonError::parse(format!("Expected {expected} but found {}", token.describe()), Some(token.pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<(TokenKind, String)> {
        tokenize(source).unwrap().into_iter().map(|t| (t.kind, t.text)).collect()
    }

    #[test]
    fn words_strings_identifiers_numbers_symbols() {
        let got = kinds("ROW<`a``b` INT 'it''s'>(12, 3.5)");
        let expected = vec![
            (TokenKind::Word, "ROW".to_string()),
            (TokenKind::Symbol('<'), "<".to_string()),
            (TokenKind::Quoted, "a`b".to_string()),
            (TokenKind::Word, "INT".to_string()),
            (TokenKind::Str, "it's".to_string()),
            (TokenKind::Symbol('>'), ">".to_string()),
            (TokenKind::Symbol('('), "(".to_string()),
            (TokenKind::Number, "12".to_string()),
            (TokenKind::Symbol(','), ",".to_string()),
            (TokenKind::Number, "3.5".to_string()),
            (TokenKind::Symbol(')'), ")".to_string()),
            (TokenKind::End, String::new()),
        ];
        assert_eq!(got, expected);
    }

    #[test]
    fn comments_are_skipped_and_positions_count_lines() {
        let tokens = tokenize("-- head\n  a /* x\n y */ b\r\n\tc").unwrap();
        let positions: Vec<_> = tokens.iter().map(|t| (t.text.as_str(), t.pos.line, t.pos.column)).collect();
        assert_eq!(positions, vec![("a", 2, 3), ("b", 3, 7), ("c", 4, 2), ("", 4, 3)]);
    }

    #[test]
    fn string_values_keep_line_breaks() {
        let tokens = tokenize("'a\nb' x").unwrap();
        assert_eq!(tokens[0].text, "a\nb");
        assert_eq!((tokens[1].pos.line, tokens[1].pos.column), (2, 4));
    }

    #[test]
    fn unterminated_literals_are_errors_at_their_start() {
        let err = tokenize("x 'abc").unwrap_err();
        assert_eq!(err.message(), "Unterminated string literal");
        assert_eq!(err.position(), Some(Position { line: 1, column: 3 }));
        let err = tokenize("\n `abc").unwrap_err();
        assert_eq!(err.message(), "Unterminated quoted identifier");
        assert_eq!(err.position(), Some(Position { line: 2, column: 2 }));
        let err = tokenize("a /* b").unwrap_err();
        assert_eq!(err.message(), "Unterminated comment '/*'");
        assert_eq!(err.position(), Some(Position { line: 1, column: 3 }));
    }
}
