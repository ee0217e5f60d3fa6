//! Flink SQL text: the lexer, the `CREATE TABLE` parser and the data type parser.
mod create_table;
mod data_type;
mod lexer;

pub use create_table::{parse_create_table, ColumnKind, CreateTable, PrimaryKey, TableColumn, TableOption, Watermark};
pub use data_type::parse_type;
