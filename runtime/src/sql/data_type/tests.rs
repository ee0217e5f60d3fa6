use super::*;
use crate::types::LogicalType::*;

fn t(logical: LogicalType) -> DataType {
    DataType::new(logical)
}

fn nn(logical: LogicalType) -> DataType {
    DataType::not_null(logical)
}

fn field(name: &str, data_type: DataType) -> RowField {
    RowField { name: name.to_string(), data_type, description: None }
}

fn parse_error(text: &str) -> (String, usize, usize) {
    let err = parse_type(text).unwrap_err();
    let pos = err.position().expect("type errors carry a position");
    (err.message().to_string(), pos.line, pos.column)
}

#[test]
fn scalar_types_and_their_defaults() {
    let cases: Vec<(&str, LogicalType)> = vec![
        ("BOOLEAN", Boolean),
        ("TINYINT", TinyInt),
        ("SMALLINT", SmallInt),
        ("INT", Int),
        ("INTEGER", Int),
        ("BIGINT", BigInt),
        ("FLOAT", Float),
        ("DOUBLE", Double),
        ("DOUBLE PRECISION", Double),
        ("DECIMAL", Decimal { precision: 10, scale: 0 }),
        ("DEC(5)", Decimal { precision: 5, scale: 0 }),
        ("NUMERIC(38, 18)", Decimal { precision: 38, scale: 18 }),
        ("CHAR", Char { length: 1 }),
        ("CHAR(7)", Char { length: 7 }),
        ("VARCHAR", VarChar { length: 1 }),
        ("VARCHAR(20)", VarChar { length: 20 }),
        ("STRING", VarChar { length: MAX_LENGTH }),
        ("BINARY", Binary { length: 1 }),
        ("BINARY(16)", Binary { length: 16 }),
        ("VARBINARY", VarBinary { length: 1 }),
        ("VARBINARY(3)", VarBinary { length: 3 }),
        ("BYTES", VarBinary { length: MAX_LENGTH }),
        ("DATE", Date),
        ("TIME", Time { precision: 0 }),
        ("TIME(3) WITHOUT TIME ZONE", Time { precision: 3 }),
        ("TIMESTAMP", Timestamp { precision: 6 }),
        ("TIMESTAMP(3)", Timestamp { precision: 3 }),
        ("TIMESTAMP(9) WITHOUT TIME ZONE", Timestamp { precision: 9 }),
        ("TIMESTAMP WITH LOCAL TIME ZONE", TimestampLtz { precision: 6 }),
        ("TIMESTAMP(3) WITH LOCAL TIME ZONE", TimestampLtz { precision: 3 }),
        ("TIMESTAMP_LTZ", TimestampLtz { precision: 6 }),
        ("TIMESTAMP_LTZ(0)", TimestampLtz { precision: 0 }),
    ];
    for (text, logical) in cases {
        assert_eq!(parse_type(text).unwrap(), t(logical), "{text}");
    }
}

#[test]
fn keywords_are_case_insensitive() {
    assert_eq!(parse_type("timestamp_ltz(3)").unwrap(), t(TimestampLtz { precision: 3 }));
    assert_eq!(parse_type("Map<String, int Not Null>").unwrap(), parse_type("MAP<STRING, INT NOT NULL>").unwrap());
}

#[test]
fn interval_resolutions_are_canonical() {
    let cases = [
        ("INTERVAL YEAR", IntervalKind::YearMonth, "YEAR(2)"),
        ("INTERVAL YEAR(4) TO MONTH", IntervalKind::YearMonth, "YEAR(4) TO MONTH"),
        ("INTERVAL MONTH", IntervalKind::YearMonth, "MONTH"),
        ("INTERVAL DAY", IntervalKind::DayTime, "DAY(2)"),
        ("INTERVAL DAY(3) TO HOUR", IntervalKind::DayTime, "DAY(3) TO HOUR"),
        ("INTERVAL DAY TO MINUTE", IntervalKind::DayTime, "DAY(2) TO MINUTE"),
        ("INTERVAL DAY TO SECOND", IntervalKind::DayTime, "DAY(2) TO SECOND(6)"),
        ("INTERVAL DAY(1) TO SECOND(3)", IntervalKind::DayTime, "DAY(1) TO SECOND(3)"),
        ("INTERVAL HOUR", IntervalKind::DayTime, "HOUR"),
        ("INTERVAL HOUR TO MINUTE", IntervalKind::DayTime, "HOUR TO MINUTE"),
        ("INTERVAL HOUR TO SECOND(0)", IntervalKind::DayTime, "HOUR TO SECOND(0)"),
        ("INTERVAL MINUTE", IntervalKind::DayTime, "MINUTE"),
        ("INTERVAL MINUTE TO SECOND", IntervalKind::DayTime, "MINUTE TO SECOND(6)"),
        ("INTERVAL SECOND(9)", IntervalKind::DayTime, "SECOND(9)"),
    ];
    for (text, kind, resolution) in cases {
        let expected = t(Interval { kind, resolution: resolution.to_string() });
        assert_eq!(parse_type(text).unwrap(), expected, "{text}");
    }
}

#[test]
fn collections_prefix_and_postfix() {
    let int_array = t(Array(Box::new(t(Int))));
    assert_eq!(parse_type("ARRAY<INT>").unwrap(), int_array);
    assert_eq!(parse_type("INT ARRAY").unwrap(), int_array);
    assert_eq!(parse_type("INT NOT NULL ARRAY").unwrap(), t(Array(Box::new(nn(Int)))));
    assert_eq!(parse_type("INT ARRAY NOT NULL").unwrap(), nn(Array(Box::new(t(Int)))));
    assert_eq!(parse_type("INT MULTISET").unwrap(), t(Multiset(Box::new(t(Int)))));
    assert_eq!(
        parse_type("MULTISET<STRING NOT NULL> NOT NULL").unwrap(),
        nn(Multiset(Box::new(nn(VarChar { length: MAX_LENGTH }))))
    );
    assert_eq!(parse_type("INT ARRAY ARRAY").unwrap(), t(Array(Box::new(int_array.clone()))));
    let map = parse_type("MAP<STRING, ARRAY<BIGINT NOT NULL>>").unwrap();
    let expected =
        Map { key: Box::new(t(VarChar { length: MAX_LENGTH })), value: Box::new(t(Array(Box::new(nn(BigInt))))) };
    assert_eq!(map, t(expected));
    assert_eq!(parse_type("INT NULL").unwrap(), t(Int));
}

#[test]
fn rows_with_names_backquotes_and_descriptions() {
    let row = parse_type("ROW<a INT NOT NULL, `b``c` STRING 'it''s', `ROW` ROW(x DOUBLE) NOT NULL>").unwrap();
    let expected = Row(vec![
        field("a", nn(Int)),
        RowField {
            name: "b`c".to_string(),
            data_type: t(VarChar { length: MAX_LENGTH }),
            description: Some("it's".to_string()),
        },
        field("ROW", nn(Row(vec![field("x", t(Double))]))),
    ]);
    assert_eq!(row, t(expected));
    assert_eq!(parse_type("ROW<>").unwrap(), t(Row(vec![])));
    assert_eq!(parse_type("ROW()").unwrap(), t(Row(vec![])));
    let postfix = parse_type("ROW<f0 INT> MULTISET").unwrap();
    assert_eq!(postfix, t(Multiset(Box::new(t(Row(vec![field("f0", t(Int))]))))));
}

#[test]
fn deep_nesting_keeps_nullability_at_every_level() {
    let text = "ARRAY<MAP<STRING NOT NULL, ROW<`x` TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL> NOT NULL> NOT NULL>";
    let parsed = parse_type(text).unwrap();
    let row = nn(Row(vec![field("x", nn(TimestampLtz { precision: 3 }))]));
    let map = nn(Map { key: Box::new(nn(VarChar { length: MAX_LENGTH })), value: Box::new(row) });
    assert_eq!(parsed, t(Array(Box::new(map))));
}

#[test]
fn unsupported_types_keep_flink_spelling() {
    let cases = [
        ("TIMESTAMP(3) WITH TIME ZONE", "TIMESTAMP(3) WITH TIME ZONE"),
        ("TIMESTAMP WITH TIME ZONE", "TIMESTAMP(6) WITH TIME ZONE"),
        ("RAW('java.lang.String', 'AEJvcmcu')", "RAW('java.lang.String', '...')"),
        ("VARIANT", "VARIANT"),
        ("NULL", "NULL"),
        ("bitmap", "BITMAP"),
        ("DESCRIPTOR", "DESCRIPTOR"),
        ("LEGACY('RAW', 'ANY<x>')", "LEGACY('RAW', 'ANY<x>')"),
        (
            "STRUCTURED<'com.example.User', name STRING, age INT NOT NULL>",
            "STRUCTURED<'com.example.User', `name` STRING, `age` INT NOT NULL>",
        ),
    ];
    for (text, spelling) in cases {
        assert_eq!(parse_type(text).unwrap(), t(Unsupported { text: spelling.to_string() }), "{text}");
    }
    assert_eq!(parse_type("VARIANT NOT NULL").unwrap(), nn(Unsupported { text: "VARIANT".to_string() }));
}

#[test]
fn display_round_trips() {
    let texts = [
        "BOOLEAN NOT NULL",
        "DECIMAL(38, 18)",
        "CHAR(3)",
        "VARCHAR(9)",
        "STRING NOT NULL",
        "BINARY(4)",
        "VARBINARY(8)",
        "BYTES",
        "DATE",
        "TIME(3)",
        "TIMESTAMP(9)",
        "TIMESTAMP_LTZ(3) NOT NULL",
        "INTERVAL DAY(3) TO SECOND(2)",
        "INTERVAL YEAR TO MONTH",
        "INTERVAL MINUTE",
        "INT ARRAY NOT NULL",
        "MAP<STRING, INT MULTISET>",
        "ROW<`a b` INT 'desc ''q''', `c``d` ROW<x ARRAY<DOUBLE NOT NULL>> NOT NULL>",
        "ROW<>",
        "RAW('java.lang.Object', 'snap')",
        "TIMESTAMP(0) WITH TIME ZONE NOT NULL",
        "NULL",
        "ARRAY<VARIANT>",
        "STRUCTURED<'C', a INT>",
    ];
    for text in texts {
        let parsed = parse_type(text).unwrap();
        assert_eq!(parse_type(&parsed.to_string()).unwrap(), parsed, "{text} -> {parsed}");
    }
}

#[test]
fn bounds_use_flink_messages_at_the_number() {
    let cases = [
        ("DECIMAL(0)", "Decimal precision must be between 1 and 38 (both inclusive).", 9),
        ("DECIMAL(39, 2)", "Decimal precision must be between 1 and 38 (both inclusive).", 9),
        ("DECIMAL(5, 6)", "Decimal scale must be between 0 and the precision 5 (both inclusive).", 12),
        ("TIME(10)", "Time precision must be between 0 and 9 (both inclusive).", 6),
        ("TIMESTAMP(12)", "Timestamp precision must be between 0 and 9 (both inclusive).", 11),
        (
            "TIMESTAMP(12) WITH LOCAL TIME ZONE",
            "Timestamp with local time zone precision must be between 0 and 9 (both inclusive).",
            11,
        ),
        ("TIMESTAMP_LTZ(10)", "Timestamp with local time zone precision must be between 0 and 9 (both inclusive).", 15),
        ("CHAR(0)", "Character string length must be between 1 and 2147483647 (both inclusive).", 6),
        ("VARCHAR(0)", "Variable character string length must be between 1 and 2147483647 (both inclusive).", 9),
        ("BINARY(0)", "Binary string length must be between 1 and 2147483647 (both inclusive).", 8),
        ("VARBINARY(0)", "Variable binary string length must be between 1 and 2147483647 (both inclusive).", 11),
        ("INTERVAL YEAR(5)", "Year precision of year-month intervals must be between 1 and 4 (both inclusive).", 15),
        ("INTERVAL DAY(7)", "Day precision of day-time intervals must be between 1 and 6 (both inclusive).", 14),
        (
            "INTERVAL SECOND(10)",
            "Fractional precision of day-time intervals must be between 0 and 9 (both inclusive).",
            17,
        ),
        ("VARCHAR(2147483648)", "Invalid integer value '2147483648'.", 9),
    ];
    for (text, message, column) in cases {
        assert_eq!(parse_error(text), (message.to_string(), 1, column), "{text}");
    }
}

#[test]
fn unknown_words_and_syntax_errors_name_the_token_and_position() {
    assert_eq!(parse_error("ROW<a INT,\n  b FOO>"), ("Unknown data type 'FOO'".to_string(), 2, 5));
    assert_eq!(parse_error("ARRAY<INT"), ("Expected '>' but found end of input".to_string(), 1, 10));
    assert_eq!(parse_error("MAP<INT>"), ("Expected ',' but found '>'".to_string(), 1, 8));
    assert_eq!(parse_error("INT INT"), ("Unexpected 'INT' after the type".to_string(), 1, 5));
    assert_eq!(parse_error(""), ("Expected a data type but found end of input".to_string(), 1, 1));
    assert_eq!(parse_error("`INT`"), ("Expected a data type but found `INT`".to_string(), 1, 1));
    assert_eq!(parse_error("INTERVAL WEEK"), ("Invalid interval resolution 'WEEK'.".to_string(), 1, 10));
    assert_eq!(parse_error("INTERVAL HOUR TO DAY"), ("Invalid interval resolution 'DAY'.".to_string(), 1, 18));
    assert_eq!(parse_error("TIMESTAMP WITH ZONE"), ("Expected 'TIME' but found 'ZONE'".to_string(), 1, 16));
    assert_eq!(
        parse_error("ROW<a INT, a STRING>"),
        ("Field names must be unique. Found duplicates: [a]".to_string(), 1, 12)
    );
    assert_eq!(
        parse_error("ROW<` ` INT>"),
        ("Field names must contain at least one non-whitespace character.".to_string(), 1, 5)
    );
    assert_eq!(parse_error("DECIMAL(5.5)"), ("Invalid integer value '5.5'.".to_string(), 1, 9));
}

#[test]
fn ddl_syntax_reads_bare_varchar_as_string() {
    let tokens = tokenize("VARCHAR, VARBINARY, VARCHAR(3)").unwrap();
    let mut cursor = Cursor::new(&tokens);
    let first = parse_data_type(&mut cursor, TypeSyntax::Ddl).unwrap();
    cursor.expect_symbol(',').unwrap();
    let second = parse_data_type(&mut cursor, TypeSyntax::Ddl).unwrap();
    cursor.expect_symbol(',').unwrap();
    let third = parse_data_type(&mut cursor, TypeSyntax::Ddl).unwrap();
    assert_eq!(first, t(VarChar { length: MAX_LENGTH }));
    assert_eq!(second, t(VarBinary { length: MAX_LENGTH }));
    assert_eq!(third, t(VarChar { length: 3 }));
}

#[test]
fn nesting_depth_is_bounded() {
    let deep_ok = format!("{}INT{}", "ARRAY<".repeat(MAX_TYPE_DEPTH - 1), ">".repeat(MAX_TYPE_DEPTH - 1));
    assert!(parse_type(&deep_ok).is_ok());
    let too_deep = format!("{}INT{}", "ARRAY<".repeat(MAX_TYPE_DEPTH), ">".repeat(MAX_TYPE_DEPTH));
    let message = format!("Types nest deeper than {MAX_TYPE_DEPTH} levels");
    assert_eq!(parse_error(&too_deep), (message.clone(), 1, 6 * MAX_TYPE_DEPTH + 1));
    let postfix = format!("INT{}", " ARRAY".repeat(MAX_TYPE_DEPTH));
    assert_eq!(parse_error(&postfix).0, message);
    let mixed = format!("ROW<a {}INT{} ARRAY>", "ARRAY<".repeat(MAX_TYPE_DEPTH - 3), ">".repeat(MAX_TYPE_DEPTH - 3));
    assert!(parse_type(&mixed).is_ok());
}
