//! Shared pieces of the kjson fuzz targets: the JSON each record must parse back to
//! ([`expect`]), Java's UTF-8 decoding ([`java_utf8`]), and the position check for parser
//! errors. The random batches come from `kjson-testkit` (`testkit/`), driven by the input bytes.
pub mod expect;
pub mod java_utf8;

use kjson_runtime::KjsonError;

/// The length in chars of each line of `text`, split as the DDL lexer splits lines (`\r\n`,
/// `\n`, or a lone `\r`).
fn line_lengths(text: &str) -> Vec<usize> {
    let mut lines = vec![0usize];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => lines.push(0),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' => lines.push(0),
            _ => *lines.last_mut().unwrap() += 1,
        }
    }
    lines
}

/// A parse error must point at a real place in `text`: a 1-based line that exists, and a
/// column on it (one past its end for "end of input").
pub fn check_error_position(error: &KjsonError, text: &str) {
    let Some(position) = error.position() else {
        panic!("error without a position: {error:?}\ninput: {text:?}");
    };
    let lines = line_lengths(text);
    assert!(position.line >= 1 && position.line <= lines.len(), "line {} of {}: {error:?}", position.line, lines.len());
    let width = lines[position.line - 1];
    assert!(position.column >= 1 && position.column <= width + 1, "column {} of {width}: {error:?}", position.column);
}
