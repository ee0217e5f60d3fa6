use super::*;
use crate::types::{LogicalType, RowField, MAX_LENGTH};

fn pos(line: usize, column: usize) -> Position {
    Position { line, column }
}

fn error_of(ddl: &str) -> (String, Position) {
    let err = parse_create_table(ddl).unwrap_err();
    (err.message().to_string(), err.position().expect("DDL errors carry a position"))
}

fn physical(table: &CreateTable, index: usize) -> &DataType {
    match &table.columns[index].kind {
        ColumnKind::Physical(data_type) => data_type,
        other => panic!("column {index} is {other:?}"),
    }
}

#[test]
fn full_statement_with_every_column_form() {
    let ddl = "-- a Kafka sink\n\
        CREATE TEMPORARY TABLE IF NOT EXISTS `my cat`.db.`t``1` (\n\
        \x20 id BIGINT COMMENT 'the id',\n\
        \x20 `name` VARCHAR NOT NULL,\n\
        \x20 total AS price * (1 + tax), /* computed */\n\
        \x20 ts TIMESTAMP(3) METADATA FROM 'timestamp' VIRTUAL,\n\
        \x20 part INT METADATA,\n\
        \x20 r ROW<a INT, b ARRAY<STRING>>,\n\
        \x20 WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,\n\
        \x20 CONSTRAINT pk PRIMARY KEY (id, `name`) NOT ENFORCED\n\
        ) COMMENT 'table ''c''' PARTITIONED BY (id) WITH (\n\
        \x20 'connector' = 'kafka',\n\
        \x20 'properties.sasl.jaas.config' = 'line1\nline2;''x'''\n\
        );";
    let table = parse_create_table(ddl).unwrap();
    assert_eq!(table.name, vec!["my cat", "db", "t`1"]);
    assert!(table.temporary && table.if_not_exists);
    let names: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["id", "name", "total", "ts", "part", "r"]);
    assert_eq!(physical(&table, 0), &DataType::not_null(LogicalType::BigInt));
    assert_eq!(table.columns[0].comment.as_deref(), Some("the id"));
    assert_eq!(physical(&table, 1), &DataType::not_null(LogicalType::VarChar { length: MAX_LENGTH }));
    assert_eq!(table.columns[2].kind, ColumnKind::Computed);
    let ts = DataType::new(LogicalType::Timestamp { precision: 3 });
    let metadata = ColumnKind::Metadata { data_type: ts, key: Some("timestamp".to_string()), is_virtual: true };
    assert_eq!(table.columns[3].kind, metadata);
    let part = ColumnKind::Metadata { data_type: DataType::new(LogicalType::Int), key: None, is_virtual: false };
    assert_eq!(table.columns[4].kind, part);
    let row = LogicalType::Row(vec![
        RowField { name: "a".into(), data_type: DataType::new(LogicalType::Int), description: None },
        RowField {
            name: "b".into(),
            data_type: DataType::new(LogicalType::Array(Box::new(DataType::new(LogicalType::VarChar {
                length: MAX_LENGTH,
            })))),
            description: None,
        },
    ]);
    assert_eq!(physical(&table, 5), &DataType::new(row));
    assert_eq!(table.watermarks, vec![Watermark { column: "ts".into(), position: pos(9, 17) }]);
    let key = table.primary_key.as_ref().unwrap();
    assert_eq!(key.name(), "pk");
    assert_eq!(key.columns, vec![("id".to_string(), pos(10, 30)), ("name".to_string(), pos(10, 34))]);
    assert_eq!(key.position, pos(10, 3));
    assert_eq!(table.comment.as_deref(), Some("table 'c'"));
    assert_eq!(table.partition_keys, vec!["id"]);
    assert_eq!(table.with_position, pos(11, 45));
    assert_eq!(table.options.len(), 2);
    assert_eq!(table.options[1].key, "properties.sasl.jaas.config");
    assert_eq!(table.options[1].value, "line1\nline2;'x'");
    assert_eq!(table.options[1].key_position, pos(13, 3));
    assert_eq!(table.options[1].value_position, pos(13, 35));
}

#[test]
fn inline_primary_key_and_generated_name() {
    let table =
        parse_create_table("create table t (a INT PRIMARY KEY NOT ENFORCED COMMENT 'k', b INT) with ()").unwrap();
    let key = table.primary_key.unwrap();
    assert_eq!(key.columns, vec![("a".to_string(), pos(1, 17))]);
    assert_eq!(key.name(), "PK_a");
    assert_eq!(table.columns[0].comment.as_deref(), Some("k"));
    assert_eq!(table.columns[0].kind, ColumnKind::Physical(DataType::not_null(LogicalType::Int)));
    assert_eq!(table.columns[1].kind, ColumnKind::Physical(DataType::new(LogicalType::Int)));
    let table = parse_create_table("CREATE TABLE t (a INT, b INT, PRIMARY KEY (b, a) NOT ENFORCED)").unwrap();
    assert_eq!(table.primary_key.unwrap().name(), "PK_b_a");
    assert!(table.options.is_empty());
    assert_eq!(table.with_position, pos(1, 63));
}

#[test]
fn nexmark_source_with_case_expression_and_watermark() {
    let ddl = "CREATE TABLE datagen (\n\
        event_type int,\n\
        person ROW<id BIGINT, name VARCHAR, `dateTime` TIMESTAMP(3), extra VARCHAR>,\n\
        `dateTime` AS CASE WHEN event_type = 0 THEN person.`dateTime` ELSE person.`dateTime` END,\n\
        WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND\n\
        ) WITH ('connector' = 'nexmark', 'first-event.rate' = '10000')";
    let table = parse_create_table(ddl).unwrap();
    assert_eq!(table.columns.len(), 3);
    assert_eq!(table.columns[2].kind, ColumnKind::Computed);
    assert_eq!(table.watermarks[0].column, "dateTime");
    assert_eq!(table.options[1].value, "10000");
}

#[test]
fn distribution_clause_is_skipped() {
    let table =
        parse_create_table("CREATE TABLE t (a INT) DISTRIBUTED BY HASH(a) INTO 4 BUCKETS WITH ('k' = 'v')").unwrap();
    assert_eq!(table.options[0].key, "k");
}

#[test]
fn primary_key_must_be_not_enforced_and_unique() {
    let enforced = "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls \
        if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data \
        therefore the only supported mode is the NOT ENFORCED mode";
    assert_eq!(error_of("CREATE TABLE t (a INT, PRIMARY KEY (a))"), (enforced.to_string(), pos(1, 24)));
    assert_eq!(
        error_of("CREATE TABLE t (a INT CONSTRAINT c PRIMARY KEY ENFORCED)"),
        (enforced.to_string(), pos(1, 23))
    );
    assert_eq!(
        error_of("CREATE TABLE t (a INT PRIMARY KEY NOT ENFORCED,\n PRIMARY KEY (a) NOT ENFORCED)"),
        ("Duplicate primary key definition".to_string(), pos(2, 2))
    );
    assert_eq!(
        error_of("CREATE TABLE t (a INT, UNIQUE (a) NOT ENFORCED)"),
        ("UNIQUE constraint is not supported yet".to_string(), pos(1, 24))
    );
}

#[test]
fn syntax_errors_name_the_token_and_position() {
    assert_eq!(error_of("CREATE VIEW v"), ("Expected 'TABLE' but found 'VIEW'".to_string(), pos(1, 8)));
    assert_eq!(error_of("CREATE TABLE t (\n  a INT,\n  b FOO\n)"), ("Unknown data type 'FOO'".to_string(), pos(3, 5)));
    assert_eq!(error_of("CREATE TABLE t (a INT,)"), ("Expected an identifier but found ')'".to_string(), pos(1, 23)));
    assert_eq!(
        error_of("CREATE TABLE t (a INT) WITH (connector = 'kafka')"),
        ("Expected an option key as a string literal but found 'connector'".to_string(), pos(1, 30))
    );
    assert_eq!(
        error_of("CREATE TABLE t (a INT) WITH ('sink.parallelism' = 2)"),
        ("Expected an option value as a string literal but found '2'".to_string(), pos(1, 51))
    );
    assert_eq!(
        error_of("CREATE TABLE t (a INT) WITH ('a' = 'b') LIKE src"),
        ("Unexpected 'LIKE' after the CREATE TABLE statement".to_string(), pos(1, 41))
    );
    assert_eq!(
        error_of("CREATE TABLE t (c AS , d INT)"),
        ("Expected an expression but found ','".to_string(), pos(1, 22))
    );
    assert_eq!(
        error_of("CREATE TABLE t (c AS f(a, b"),
        ("Expected ')' but found end of input".to_string(), pos(1, 28))
    );
    assert_eq!(
        error_of("CREATE TABLE t (a INT) WITH ('k' = 'v\n"),
        ("Unterminated string literal".to_string(), pos(1, 36))
    );
    assert_eq!(
        error_of("CREATE TABLE a.b.c.d (x INT)"),
        ("Table name 'a.b.c.d' has more than three parts".to_string(), pos(1, 14))
    );
    assert_eq!(
        error_of("CREATE TABLE t (a DECIMAL(40))"),
        ("Decimal precision must be between 1 and 38 (both inclusive).".to_string(), pos(1, 27))
    );
}

#[test]
fn ddl_type_defaults_follow_flink_sql() {
    let table =
        parse_create_table("CREATE TABLE t (a VARCHAR, b VARBINARY, c CHAR, d DECIMAL, e TIMESTAMP, f TIME(3))")
            .unwrap();
    let expected = [
        LogicalType::VarChar { length: MAX_LENGTH },
        LogicalType::VarBinary { length: MAX_LENGTH },
        LogicalType::Char { length: 1 },
        LogicalType::Decimal { precision: 10, scale: 0 },
        LogicalType::Timestamp { precision: 6 },
        LogicalType::Time { precision: 3 },
    ];
    for (index, logical) in expected.into_iter().enumerate() {
        assert_eq!(physical(&table, index), &DataType::new(logical));
    }
}
