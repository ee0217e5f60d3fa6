//! Parser for a Flink SQL `CREATE TABLE ... WITH (...)` statement of a Kafka sink.
//!
//! It reads the statement's structure (columns, constraints, options) with positions for error
//! messages; computed-column and watermark expressions are skipped, not interpreted. Connector
//! and format rules are applied later by [`crate::SinkSpec::from_ddl`].

use super::data_type::{parse_data_type, TypeSyntax};
use super::lexer::{tokenize, Cursor, Token, TokenKind};
use crate::error::{KjsonError, Position, Result};
use crate::types::DataType;

/// A parsed `CREATE TABLE` statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateTable {
    /// The name parts as written (`cat.db.tbl` -> three parts), unquoted.
    pub name: Vec<String>,
    pub name_position: Position,
    pub temporary: bool,
    pub if_not_exists: bool,
    pub columns: Vec<TableColumn>,
    pub primary_key: Option<PrimaryKey>,
    pub watermarks: Vec<Watermark>,
    pub comment: Option<String>,
    pub partition_keys: Vec<String>,
    /// `WITH` options in the order written (a repeated key appears twice).
    pub options: Vec<TableOption>,
    /// The `WITH` keyword, or the end of the statement when there is none: where errors about
    /// a missing option point.
    pub with_position: Position,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableColumn {
    pub name: String,
    pub position: Position,
    pub kind: ColumnKind,
    pub comment: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColumnKind {
    /// `name type`: a column of the Kafka record. Primary key columns are NOT NULL, as in Flink.
    Physical(DataType),
    /// `name AS expression`.
    Computed,
    /// `name type METADATA [FROM 'key'] [VIRTUAL]`.
    Metadata { data_type: DataType, key: Option<String>, is_virtual: bool },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrimaryKey {
    /// `CONSTRAINT name`, if given.
    pub constraint_name: Option<String>,
    /// Column names in constraint order, each with its position.
    pub columns: Vec<(String, Position)>,
    /// The constraint's first token (`CONSTRAINT` or `PRIMARY`).
    pub position: Position,
}

impl PrimaryKey {
    /// The constraint name Flink uses: the given one, or `PK_` + the columns joined by `_`.
    pub fn name(&self) -> String {
        match &self.constraint_name {
            Some(name) => name.clone(),
            None => {
                let names: Vec<&str> = self.columns.iter().map(|(name, _)| name.as_str()).collect();
                format!("PK_{}", names.join("_"))
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watermark {
    pub column: String,
    pub position: Position,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableOption {
    pub key: String,
    pub value: String,
    pub key_position: Position,
    pub value_position: Position,
}

const ENFORCED_MESSAGE: &str = "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT \
    ENFORCED controls if the constraint checks are performed on the incoming/outgoing data. Flink does not \
    own the data therefore the only supported mode is the NOT ENFORCED mode";

/// Parses one `CREATE TABLE` statement (optional trailing `;`). Every error carries the line
/// and column of the offending token.
pub fn parse_create_table(ddl: &str) -> Result<CreateTable> {
    let tokens = tokenize(ddl)?;
    let mut cursor = Cursor::new(&tokens);
    let mut table = parse_header(&mut cursor)?;
    parse_elements(&mut cursor, &mut table)?;
    parse_tail(&mut cursor, &mut table)?;
    mark_primary_key_not_null(&mut table);
    Ok(table)
}

/// `CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name`.
fn parse_header(cursor: &mut Cursor<'_>) -> Result<CreateTable> {
    cursor.expect_word("CREATE")?;
    let temporary = cursor.eat_word("TEMPORARY");
    cursor.expect_word("TABLE")?;
    let if_not_exists = cursor.eat_word("IF");
    if if_not_exists {
        cursor.expect_word("NOT")?;
        cursor.expect_word("EXISTS")?;
    }
    let name_position = cursor.peek().pos;
    let mut name = vec![cursor.expect_identifier()?.0];
    while cursor.eat_symbol('.') {
        name.push(cursor.expect_identifier()?.0);
    }
    if name.len() > 3 {
        let message = format!("Table name '{}' has more than three parts", name.join("."));
        return Err(KjsonError::parse(message, Some(name_position)));
    }
    Ok(CreateTable {
        name,
        name_position,
        temporary,
        if_not_exists,
        columns: Vec::new(),
        primary_key: None,
        watermarks: Vec::new(),
        comment: None,
        partition_keys: Vec::new(),
        options: Vec::new(),
        with_position: name_position,
    })
}

/// `( element, ... )`: columns, constraints and watermarks.
fn parse_elements(cursor: &mut Cursor<'_>, table: &mut CreateTable) -> Result<()> {
    cursor.expect_symbol('(')?;
    loop {
        parse_element(cursor, table)?;
        if !cursor.eat_symbol(',') {
            break;
        }
    }
    cursor.expect_symbol(')')?;
    Ok(())
}

fn parse_element(cursor: &mut Cursor<'_>, table: &mut CreateTable) -> Result<()> {
    let first = cursor.peek();
    if first.is_word("CONSTRAINT") || first.is_word("PRIMARY") || first.is_word("UNIQUE") {
        let key = parse_constraint(cursor, true)?;
        return set_primary_key(table, key);
    }
    if first.is_word("WATERMARK") && cursor.peek_at(1).is_word("FOR") {
        cursor.next();
        cursor.next();
        let (column, token) = cursor.expect_identifier()?;
        cursor.expect_word("AS")?;
        skip_expression(cursor)?;
        table.watermarks.push(Watermark { column, position: token.pos });
        return Ok(());
    }
    parse_column(cursor, table)
}

/// A computed, metadata or physical column with its modifiers.
fn parse_column(cursor: &mut Cursor<'_>, table: &mut CreateTable) -> Result<()> {
    let (name, name_token) = cursor.expect_identifier()?;
    let mut column = TableColumn { name, position: name_token.pos, kind: ColumnKind::Computed, comment: None };
    if cursor.eat_word("AS") {
        skip_expression(cursor)?;
        if cursor.eat_word("COMMENT") {
            column.comment = Some(cursor.expect_string()?.text.clone());
        }
        table.columns.push(column);
        return Ok(());
    }
    let data_type = parse_data_type(cursor, TypeSyntax::Ddl)?;
    column.kind = ColumnKind::Physical(data_type.clone());
    loop {
        let next = cursor.peek();
        if next.is_word("METADATA") {
            cursor.next();
            let key = if cursor.eat_word("FROM") { Some(cursor.expect_string()?.text.clone()) } else { None };
            let is_virtual = cursor.eat_word("VIRTUAL");
            column.kind = ColumnKind::Metadata { data_type: data_type.clone(), key, is_virtual };
        } else if next.is_word("CONSTRAINT") || next.is_word("PRIMARY") || next.is_word("UNIQUE") {
            let mut key = parse_constraint(cursor, false)?;
            key.columns.push((column.name.clone(), column.position));
            set_primary_key(table, key)?;
        } else if next.is_word("COMMENT") {
            cursor.next();
            column.comment = Some(cursor.expect_string()?.text.clone());
        } else {
            break;
        }
    }
    table.columns.push(column);
    Ok(())
}

/// `[CONSTRAINT name] PRIMARY KEY [(a, b)] NOT ENFORCED`; the column list only at table level.
fn parse_constraint(cursor: &mut Cursor<'_>, table_level: bool) -> Result<PrimaryKey> {
    let position = cursor.peek().pos;
    let constraint_name = if cursor.eat_word("CONSTRAINT") { Some(cursor.expect_identifier()?.0) } else { None };
    let unique = cursor.eat_word("UNIQUE");
    if !unique {
        cursor.expect_word("PRIMARY")?;
        cursor.expect_word("KEY")?;
    }
    let mut columns = Vec::new();
    if table_level {
        cursor.expect_symbol('(')?;
        loop {
            let (name, token) = cursor.expect_identifier()?;
            columns.push((name, token.pos));
            if !cursor.eat_symbol(',') {
                break;
            }
        }
        cursor.expect_symbol(')')?;
    }
    let not_enforced = cursor.peek().is_word("NOT") && cursor.peek_at(1).is_word("ENFORCED");
    if not_enforced {
        cursor.next();
        cursor.next();
    } else {
        cursor.eat_word("ENFORCED");
    }
    if unique {
        return Err(KjsonError::parse("UNIQUE constraint is not supported yet", Some(position)));
    }
    if !not_enforced {
        return Err(KjsonError::parse(ENFORCED_MESSAGE, Some(position)));
    }
    Ok(PrimaryKey { constraint_name, columns, position })
}

fn set_primary_key(table: &mut CreateTable, key: PrimaryKey) -> Result<()> {
    if table.primary_key.is_some() {
        return Err(KjsonError::parse("Duplicate primary key definition", Some(key.position)));
    }
    table.primary_key = Some(key);
    Ok(())
}

/// Skips an expression up to a `,` or `)` outside parentheses/brackets, or a `COMMENT`.
fn skip_expression(cursor: &mut Cursor<'_>) -> Result<()> {
    let start = cursor.peek();
    let mut depth = 0usize;
    loop {
        let token = cursor.peek();
        let at_top = depth == 0;
        match token.kind {
            TokenKind::End => return Err(cursor.unexpected("')'")),
            TokenKind::Symbol(',') | TokenKind::Symbol(')') if at_top => break,
            TokenKind::Word if at_top && token.is_word("COMMENT") => break,
            TokenKind::Symbol('(') | TokenKind::Symbol('[') => depth += 1,
            TokenKind::Symbol(')') | TokenKind::Symbol(']') => depth = depth.saturating_sub(1),
            _ => {}
        }
        cursor.next();
    }
    if std::ptr::eq(start, cursor.peek()) {
        return Err(KjsonError::parse(
            format!("Expected an expression but found {}", start.describe()),
            Some(start.pos),
        ));
    }
    Ok(())
}

/// `[COMMENT '...'] [DISTRIBUTED ...] [PARTITIONED BY (...)] [WITH (...)] [;]`.
fn parse_tail(cursor: &mut Cursor<'_>, table: &mut CreateTable) -> Result<()> {
    if cursor.eat_word("COMMENT") {
        table.comment = Some(cursor.expect_string()?.text.clone());
    }
    if cursor.peek().is_word("DISTRIBUTED") {
        skip_distribution(cursor)?;
    }
    if cursor.eat_word("PARTITIONED") {
        cursor.expect_word("BY")?;
        cursor.expect_symbol('(')?;
        loop {
            table.partition_keys.push(cursor.expect_identifier()?.0);
            if !cursor.eat_symbol(',') {
                break;
            }
        }
        cursor.expect_symbol(')')?;
    }
    table.with_position = cursor.peek().pos;
    if cursor.eat_word("WITH") {
        table.options = parse_options(cursor)?;
    }
    cursor.eat_symbol(';');
    let rest = cursor.peek();
    if rest.kind != TokenKind::End {
        let message = format!("Unexpected {} after the CREATE TABLE statement", rest.describe());
        return Err(KjsonError::parse(message, Some(rest.pos)));
    }
    Ok(())
}

/// `DISTRIBUTED BY ... | DISTRIBUTED INTO n BUCKETS`: irrelevant to the record bytes.
fn skip_distribution(cursor: &mut Cursor<'_>) -> Result<()> {
    cursor.next();
    let mut depth = 0usize;
    loop {
        let token = cursor.peek();
        let stop = depth == 0 && (token.is_word("PARTITIONED") || token.is_word("WITH") || token.is_symbol(';'));
        if stop || token.kind == TokenKind::End {
            return Ok(());
        }
        if token.is_symbol('(') {
            depth += 1;
        } else if token.is_symbol(')') {
            depth = depth.saturating_sub(1);
        }
        cursor.next();
    }
}

/// `( 'key' = 'value', ... )`.
fn parse_options(cursor: &mut Cursor<'_>) -> Result<Vec<TableOption>> {
    cursor.expect_symbol('(')?;
    let mut options = Vec::new();
    if cursor.eat_symbol(')') {
        return Ok(options);
    }
    loop {
        let key = expect_option_string(cursor, "an option key as a string literal")?;
        cursor.expect_symbol('=')?;
        let value = expect_option_string(cursor, "an option value as a string literal")?;
        options.push(TableOption {
            key: key.text.clone(),
            value: value.text.clone(),
            key_position: key.pos,
            value_position: value.pos,
        });
        if !cursor.eat_symbol(',') {
            break;
        }
    }
    cursor.expect_symbol(')')?;
    Ok(options)
}

fn expect_option_string<'a>(cursor: &mut Cursor<'a>, expected: &str) -> Result<&'a Token> {
    if cursor.peek().kind == TokenKind::Str {
        return Ok(cursor.next());
    }
    Err(cursor.unexpected(expected))
}

/// Flink makes primary key columns NOT NULL while validating the statement.
fn mark_primary_key_not_null(table: &mut CreateTable) {
    let Some(key) = &table.primary_key else {
        return;
    };
    for column in &mut table.columns {
        if let ColumnKind::Physical(data_type) = &mut column.kind {
            if key.columns.iter().any(|(name, _)| *name == column.name) {
                data_type.nullable = false;
            }
        }
    }
}

#[cfg(test)]
mod tests;
