use super::*;
use crate::error::{KjsonError, Position};
use crate::options::{MapNullKeyMode, TimestampFormat};
use crate::types::{LogicalType, MAX_LENGTH};

fn string() -> DataType {
    DataType::new(LogicalType::VarChar { length: MAX_LENGTH })
}

fn bigint() -> DataType {
    DataType::new(LogicalType::BigInt)
}

fn column(name: &str, data_type: DataType) -> Column {
    Column { name: name.to_string(), data_type }
}

fn json_side(projection: Vec<usize>, names: &[&str]) -> SideSpec {
    SideSpec {
        projection,
        field_names: names.iter().map(|name| name.to_string()).collect(),
        format: Format::Json,
        options: JsonOptions::default(),
    }
}

/// The error's message and 1-based (line, column).
fn error_of(ddl: &str) -> (String, (usize, usize)) {
    let err = SinkSpec::from_ddl(ddl).unwrap_err();
    let Position { line, column } = err.position().unwrap_or_else(|| panic!("no position in {err:?}"));
    (err.message().to_string(), (line, column))
}

/// A one-line DDL with the given columns and options (`'k' = 'v'` pairs joined by commas).
fn ddl(columns: &str, options: &str) -> String {
    format!("CREATE TABLE t ({columns}) WITH ({options})")
}

const KAFKA_JSON: &str = "'connector' = 'kafka', 'topic' = 't', 'format' = 'json'";

const Q9_DDL: &str = "CREATE TABLE nexmark_q9 (
    id BIGINT,
    itemName VARCHAR,
    description VARCHAR,
    initialBid BIGINT,
    reserve BIGINT,
    `dateTime` TIMESTAMP(3),
    expires TIMESTAMP(3),
    seller BIGINT,
    category BIGINT,
    extra VARCHAR,
    auction BIGINT,
    bidder BIGINT,
    price BIGINT,
    bid_dateTime TIMESTAMP(3),
    bid_extra VARCHAR,
    PRIMARY KEY (id) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'nexmark_q9',
    'properties.bootstrap.servers' = 'localhost:9092',
    'properties.batch.size' = '524288',
    'properties.linger.ms' = '20',
    'sink.delivery-guarantee' = 'exactly-once',
    'sink.transactional-id-prefix' = 'q9',
    'key.format' = 'json',
    'value.format' = 'json'
);";

const Q19_DDL: &str = "CREATE TABLE nexmark_q19 (
    auction BIGINT,
    bidder BIGINT,
    price BIGINT,
    channel VARCHAR,
    url VARCHAR,
    `dateTime` TIMESTAMP_LTZ(3),
    extra VARCHAR,
    rank_number BIGINT,
    PRIMARY KEY (auction, rank_number) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'nexmark_q19',
    'properties.bootstrap.servers' = 'localhost:9092',
    'key.format' = 'json',
    'value.format' = 'json'
)";

#[test]
fn nexmark_q9_upsert_sink() {
    let spec = SinkSpec::from_ddl(Q9_DDL).unwrap();
    let ts = DataType::new(LogicalType::Timestamp { precision: 3 });
    let expected_columns = vec![
        column("id", DataType::not_null(LogicalType::BigInt)),
        column("itemName", string()),
        column("description", string()),
        column("initialBid", bigint()),
        column("reserve", bigint()),
        column("dateTime", ts.clone()),
        column("expires", ts.clone()),
        column("seller", bigint()),
        column("category", bigint()),
        column("extra", string()),
        column("auction", bigint()),
        column("bidder", bigint()),
        column("price", bigint()),
        column("bid_dateTime", ts),
        column("bid_extra", string()),
    ];
    let names: Vec<&str> = expected_columns.iter().map(|c| c.name.as_str()).collect();
    let expected = SinkSpec {
        table_name: "nexmark_q9".to_string(),
        connector: Connector::UpsertKafka,
        columns: expected_columns.clone(),
        ignored_columns: vec![],
        primary_key: vec!["id".to_string()],
        key: Some(json_side(vec![0], &["id"])),
        value: json_side((0..15).collect(), &names),
    };
    assert_eq!(spec, expected);
    assert!(spec.is_upsert());
}

#[test]
fn nexmark_q19_upsert_sink_keys_in_primary_key_order() {
    let spec = SinkSpec::from_ddl(Q19_DDL).unwrap();
    assert_eq!(spec.connector, Connector::UpsertKafka);
    assert_eq!(spec.primary_key, vec!["auction", "rank_number"]);
    assert_eq!(spec.key, Some(json_side(vec![0, 7], &["auction", "rank_number"])));
    assert_eq!(spec.value.projection, (0..8).collect::<Vec<_>>());
    assert_eq!(spec.columns[0].data_type, DataType::not_null(LogicalType::BigInt));
    assert_eq!(spec.columns[7].data_type, DataType::not_null(LogicalType::BigInt));
    assert_eq!(spec.columns[1].data_type, bigint());
    assert_eq!(spec.columns[5].data_type, DataType::new(LogicalType::TimestampLtz { precision: 3 }));
}

#[test]
fn kafka_json_sink_without_key_writes_all_physical_columns() {
    let columns = "auction BIGINT, ts TIMESTAMP(3) METADATA FROM 'timestamp', c AS auction + 1, extra VARCHAR";
    let spec = SinkSpec::from_ddl(&ddl(columns, KAFKA_JSON)).unwrap();
    assert_eq!(spec.connector, Connector::Kafka);
    assert_eq!(spec.key, None);
    assert_eq!(spec.columns, vec![column("auction", bigint()), column("extra", string())]);
    assert_eq!(spec.value, json_side(vec![0, 1], &["auction", "extra"]));
    let ignored: Vec<(&str, IgnoredKind)> = spec.ignored_columns.iter().map(|c| (c.name.as_str(), c.kind)).collect();
    assert_eq!(ignored, vec![("ts", IgnoredKind::Metadata), ("c", IgnoredKind::Computed)]);
}

#[test]
fn kafka_key_fields_order_prefix_and_except_key() {
    let options = "'connector' = 'kafka', 'topic' = 't', 'key.format' = 'json', 'key.fields' = 'k_b;k_a', \
        'key.fields-prefix' = 'k_', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY'";
    let spec = SinkSpec::from_ddl(&ddl("k_a INT, v STRING, k_b BIGINT", options)).unwrap();
    assert_eq!(spec.key, Some(json_side(vec![2, 0], &["b", "a"])));
    assert_eq!(spec.value, json_side(vec![1], &["v"]));
    assert!(spec.primary_key.is_empty());
}

#[test]
fn kafka_key_with_all_value_fields_duplicates_key_columns() {
    let options = "'connector' = 'kafka', 'key.format' = 'json', 'key.fields' = 'b', 'format' = 'json'";
    let spec = SinkSpec::from_ddl(&ddl("a INT, b INT", options)).unwrap();
    assert_eq!(spec.key, Some(json_side(vec![1], &["b"])));
    assert_eq!(spec.value.projection, vec![0, 1]);
}

#[test]
fn json_options_resolve_per_side() {
    let options = "'connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json', \
        'key.json.encode.ignore-null-fields' = 'TRUE', 'value.json.timestamp-format.standard' = 'ISO-8601', \
        'value.json.map-null-key.mode' = 'literal', 'value.json.map-null-key.literal' = 'n/a', \
        'value.json.encode.decimal-as-plain-number' = 'true', 'value.json.fail-on-missing-field' = 'false', \
        'value.json.ignore-parse-errors' = 'False', 'value.json.decode.json-parser.enabled' = 'true'";
    let spec = SinkSpec::from_ddl(&ddl("a INT PRIMARY KEY NOT ENFORCED, b STRING", options)).unwrap();
    let key = spec.key.unwrap().options;
    assert!(key.ignore_null_fields);
    assert_eq!(key.timestamp_format, TimestampFormat::Sql);
    let value = spec.value.options;
    let expected = JsonOptions {
        timestamp_format: TimestampFormat::Iso8601,
        map_null_key_mode: MapNullKeyMode::Literal,
        map_null_key_literal: "n/a".to_string(),
        encode_decimal_as_plain_number: true,
        ignore_null_fields: false,
        json_parser_set: true,
        ..JsonOptions::default()
    };
    assert_eq!(value, expected);
    let options = format!("{KAFKA_JSON}, 'json.map-null-key.mode' = 'Drop'");
    let spec = SinkSpec::from_ddl(&ddl("a INT", &options)).unwrap();
    assert_eq!(spec.value.options.map_null_key_mode, MapNullKeyMode::Drop);
}

#[test]
fn json_option_values_are_rejected_with_flinks_messages() {
    let bad_timestamp = format!("{KAFKA_JSON},\n 'json.timestamp-format.standard' = 'iso-8601'");
    assert_eq!(
        error_of(&ddl("a INT", &bad_timestamp)),
        (
            "Error creating sink format 'json' in option space 'json.'. Unsupported value 'iso-8601' for \
             timestamp-format.standard. Supported values are [SQL, ISO-8601]."
                .to_string(),
            (2, 2)
        )
    );
    let bad_mode = "'connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json', \
        'value.json.map-null-key.mode' = 'SKIP'";
    let (message, _) = error_of(&ddl("a INT PRIMARY KEY NOT ENFORCED", bad_mode));
    assert_eq!(
        message,
        "Error creating sink format 'json' in option space 'value.json.'. Unsupported value 'SKIP' for option \
         map-null-key.mode. Supported values are [LITERAL, FAIL, DROP]."
    );
    let bad_boolean = format!("{KAFKA_JSON}, 'json.encode.ignore-null-fields' = 'yes'");
    let (message, position) = error_of(&ddl("a INT", &bad_boolean));
    assert_eq!(
        message,
        "Error creating sink format 'json' in option space 'json.'. Invalid value for option \
         'encode.ignore-null-fields'. Unrecognized option for boolean: yes. Expected either true or \
         false(case insensitive)"
    );
    assert_eq!(position, (1, 87));
}

#[test]
fn unsupported_options_list_what_flink_supports() {
    let options =
        "'connector' = 'kafka', 'format' = 'json', 'properties.acks' = 'all',\n 'sink.foo' = 'x', 'json.foo' = 'y'";
    let (message, position) = error_of(&ddl("a INT", options));
    let expected = "Unsupported options found for 'kafka'.\n\nUnsupported options:\n\njson.foo\nsink.foo\n\n\
        Supported options:\n\nconnector\nformat\njson.decode.json-parser.enabled\njson.encode.decimal-as-plain-number\n\
        json.encode.ignore-null-fields\njson.fail-on-missing-field\njson.ignore-parse-errors\njson.map-null-key.literal\n\
        json.map-null-key.mode\njson.timestamp-format.standard\nkey.fields\nkey.fields-prefix\nkey.format\n\
        properties.acks\nproperties.bootstrap.servers\nproperties.group.id\nproperty-version\nscan.bounded.mode\n\
        scan.bounded.specific-offsets\nscan.bounded.timestamp-millis\nscan.parallelism\nscan.startup.mode\n\
        scan.startup.specific-offsets\nscan.startup.timestamp-millis\nscan.topic-partition-discovery.interval\n\
        scan.watermark.alignment.group\nscan.watermark.alignment.max-drift\nscan.watermark.alignment.update-interval\n\
        scan.watermark.emit.strategy\nscan.watermark.idle-timeout\nsink.delivery-guarantee\nsink.parallelism\n\
        sink.partitioner\nsink.semantic\nsink.transaction-naming-strategy\nsink.transactional-id-prefix\ntopic\n\
        topic-pattern\nvalue.fields-include\nvalue.format";
    assert_eq!(message, expected);
    assert_eq!(position, (2, 20));
}

#[test]
fn options_of_an_undiscovered_side_or_connector_are_unsupported() {
    // 'format' wins over 'value.format', so value.json.* belongs to no format.
    let options = format!("{KAFKA_JSON}, 'value.format' = 'json', 'value.json.encode.ignore-null-fields' = 'true'");
    let (message, _) = error_of(&ddl("a INT", &options));
    assert!(message.starts_with("Unsupported options found for 'kafka'.\n\nUnsupported options:\n\nvalue.json.encode.ignore-null-fields\n\n"), "{message}");
    // upsert-kafka has neither 'format' nor 'key.fields'.
    let upsert = "'connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json', 'format' = 'json', 'key.fields' = 'a'";
    let (message, _) = error_of(&ddl("a INT PRIMARY KEY NOT ENFORCED", upsert));
    assert!(
        message.starts_with(
            "Unsupported options found for 'upsert-kafka'.\n\nUnsupported options:\n\nformat\nkey.fields\n\n"
        ),
        "{message}"
    );
    assert!(
        message.contains("\nkey.json.timestamp-format.standard\n")
            && message.contains("\nvalue.json.encode.ignore-null-fields\n")
    );
    assert!(message.contains("\nsink.buffer-flush.max-rows\n") && !message.contains("\nsink.partitioner\n"));
}

#[test]
fn connector_errors() {
    assert_eq!(
        error_of("CREATE TABLE t (a INT) WITH ('format' = 'json')"),
        ("Table options do not contain an option key 'connector' for discovering a connector.".to_string(), (1, 24))
    );
    assert_eq!(
        error_of("CREATE TABLE t (a INT)"),
        ("Table options do not contain an option key 'connector' for discovering a connector.".to_string(), (1, 23))
    );
    assert_eq!(
        error_of(&ddl("a INT", "'format' = 'json', 'connector' = 'Kafka'")),
        ("Cannot discover a connector using option: 'connector'='Kafka'".to_string(), (1, 49))
    );
}

#[test]
fn format_discovery_errors() {
    assert_eq!(
        error_of(&ddl("a INT", "'connector' = 'kafka', 'topic' = 't'")),
        ("Could not find required sink format 'value.format'.".to_string(), (1, 24))
    );
    let (message, position) = error_of(&ddl("a INT", "'connector' = 'kafka', 'value.format' = 'avro'"));
    assert_eq!(
        message,
        "Option 'value.format': Could not find any factory for identifier 'avro' that implements \
         'org.apache.flink.table.factories.SerializationFormatFactory' in the classpath.\n\n\
         Available factory identifiers are:\n\ncanal-json\ndebezium-json\njson\nmaxwell-json\nogg-json"
    );
    assert_eq!(position, (1, 53));
    let upsert = "'connector' = 'upsert-kafka', 'format' = 'json'";
    assert_eq!(
        error_of(&ddl("a INT PRIMARY KEY NOT ENFORCED", upsert)),
        ("Could not find required sink format 'key.format'.".to_string(), (1, 49))
    );
    let upsert = "'connector' = 'upsert-kafka', 'key.format' = 'json'";
    let (message, _) = error_of(&ddl("a INT PRIMARY KEY NOT ENFORCED", upsert));
    assert_eq!(message, "Could not find required sink format 'value.format'.");
    let (message, _) = error_of(&ddl("a INT", "'connector' = 'kafka', 'format' = 'json', 'key.format' = 'csv'"));
    assert!(message.starts_with("Option 'key.format': Could not find any factory for identifier 'csv'"), "{message}");
}

#[test]
fn key_field_rules() {
    let cases = [
        (
            "'connector' = 'kafka', 'format' = 'json', 'key.fields' = 'a'",
            "The option 'key.fields' can only be declared if a key format is defined using 'key.format'.",
            (1, 79),
        ),
        (
            "'connector' = 'kafka', 'format' = 'json', 'key.format' = 'json'",
            "A key format 'key.format' requires the declaration of one or more of key fields using 'key.fields'.",
            (1, 79),
        ),
        (
            "'connector' = 'kafka', 'format' = 'json', 'key.format' = 'json', 'key.fields' = 'a;x'",
            "Could not find the field 'x' in the table schema for usage in the key format. A key field must be a \
             regular, physical column. The following columns can be selected in the 'key.fields' option:\n[a, b]",
            (1, 102),
        ),
        (
            "'connector' = 'kafka', 'format' = 'json', 'key.format' = 'json', 'key.fields' = 'a;b', \
             'key.fields-prefix' = 'b', 'value.fields-include' = 'EXCEPT_KEY'",
            "All fields in 'key.fields' must be prefixed with 'b' when option 'key.fields-prefix' is set but field \
             'a' is not prefixed.",
            (1, 102),
        ),
        (
            "'connector' = 'kafka', 'format' = 'json', 'key.format' = 'json', 'key.fields' = 'b', \
             'key.fields-prefix' = 'b'",
            "A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'. Set it to 'EXCEPT_KEY' \
             instead to avoid field overlaps.",
            (1, 122),
        ),
        (
            "'connector' = 'kafka', 'format' = 'json', 'key.format' = 'json', 'key.fields' = 'a;a'",
            "Field names must be unique. Found duplicates: [a]",
            (1, 102),
        ),
        (
            "'connector' = 'kafka', 'format' = 'json', 'key.format' = 'json', 'key.fields' = 'a;''b''c'",
            "Invalid value for option 'key.fields'. Could not split string. Illegal quoting at position: 4",
            (1, 102),
        ),
    ];
    for (options, message, position) in cases {
        assert_eq!(error_of(&ddl("a INT, b INT", options)), (message.to_string(), position), "{options}");
    }
}

#[test]
fn primary_key_rules() {
    let kafka = ddl("a INT,\n CONSTRAINT my_pk PRIMARY KEY (a) NOT ENFORCED", KAFKA_JSON);
    assert_eq!(
        error_of(&kafka),
        (
            "The Kafka table 'default_catalog.default_database.t' with 'json' format doesn't support defining \
             PRIMARY KEY constraint on the table, because it can't guarantee the semantic of primary key."
                .to_string(),
            (2, 2)
        )
    );
    let qualified = kafka.replace("TABLE t", "TABLE db.`t 2`");
    assert!(error_of(&qualified).0.starts_with("The Kafka table 'default_catalog.db.t 2' with 'json' format"));
    let upsert = "'connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json'";
    assert_eq!(
        error_of(&ddl("a INT", upsert)),
        (
            "'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY specifies which \
             columns should be read from or write to the Kafka message key. The PRIMARY KEY also defines records \
             in the 'upsert-kafka' table should update or delete on which keys."
                .to_string(),
            (1, 30)
        )
    );
    let prefixed = format!("{upsert}, 'key.fields-prefix' = 'k_', 'value.fields-include' = 'EXCEPT_KEY'");
    let spec = SinkSpec::from_ddl(&ddl("v INT, k_id INT PRIMARY KEY NOT ENFORCED", &prefixed)).unwrap();
    assert_eq!(spec.key, Some(json_side(vec![1], &["id"])));
    assert_eq!(spec.value, json_side(vec![0], &["v"]));
    let (message, position) = error_of(&ddl("v INT PRIMARY KEY NOT ENFORCED", &prefixed));
    assert!(message.starts_with("All fields in 'key.fields' must be prefixed with 'k_'"), "{message}");
    assert_eq!(position, (1, 133));
}

#[test]
fn schema_errors_point_at_the_column() {
    assert_eq!(
        error_of(&ddl("a INT, b INT,\n a STRING", KAFKA_JSON)),
        ("Schema must not contain duplicate column names. Found duplicates: [a]".to_string(), (2, 2))
    );
    assert_eq!(
        error_of(&ddl("a INT, WATERMARK FOR ts AS ts", KAFKA_JSON)),
        (
            "Invalid column name 'ts' for rowtime attribute in watermark declaration. Available columns are: [a]"
                .to_string(),
            (1, 38)
        )
    );
    assert_eq!(
        error_of(&ddl("a INT, PRIMARY KEY (a, z) NOT ENFORCED", KAFKA_JSON)),
        ("Invalid primary key 'PK_a_z'. Column 'z' does not exist.".to_string(), (1, 40))
    );
    assert_eq!(
        error_of(&ddl("a INT METADATA, PRIMARY KEY (a) NOT ENFORCED", KAFKA_JSON)),
        ("Invalid primary key 'PK_a'. Column 'a' is not a physical column.".to_string(), (1, 46))
    );
}

#[test]
fn column_types_must_be_writable_by_json() {
    let (message, position) = error_of(&ddl("a INT,\n  v ROW<x VARIANT>", KAFKA_JSON));
    assert_eq!(message, "Column 'v': Not support to parse type: VARIANT");
    assert_eq!(position, (2, 3));
    let (message, position) = error_of(&ddl("m MAP<INT, STRING> NOT NULL", KAFKA_JSON));
    assert_eq!(
        message,
        "Column 'm': JSON format doesn't support non-string as key type of map. The type is: MAP<INT, STRING> NOT NULL"
    );
    assert_eq!(position, (1, 17));
    // Flink's SQL grammar has no WITH TIME ZONE column type: its parser stops at TIME.
    let err = SinkSpec::from_ddl(&ddl("t TIMESTAMP(3) WITH TIME ZONE", KAFKA_JSON)).unwrap_err();
    assert!(matches!(err, KjsonError::Parse { .. }));
    assert_eq!(err.message(), "Encountered \"TIME\" at line 1, column 37.");
    // Metadata and computed columns never reach the encoder.
    let spec = SinkSpec::from_ddl(&ddl("a INT, h MAP<INT, BYTES> METADATA FROM 'headers'", KAFKA_JSON)).unwrap();
    assert_eq!(spec.columns.len(), 1);
}

fn parts(names: &[&str], types: &[&str]) -> SinkParts {
    SinkParts::new(names.iter().copied().zip(types.iter().copied()), [("connector", "kafka"), ("format", "json")])
}

/// Parts carry the table as written; the projections come from the same rules as a DDL's.
#[test]
fn from_parts_builds_both_sides() {
    let columns =
        [("k_id", "BIGINT NOT NULL"), ("name", "VARCHAR(2147483647)"), ("ts", "TIMESTAMP(3) WITH LOCAL TIME ZONE")];
    let options = [
        ("connector", "upsert-kafka"),
        ("key.format", "json"),
        ("key.fields-prefix", "k_"),
        ("value.fields-include", "EXCEPT_KEY"),
        ("value.format", "json"),
        ("value.json.timestamp-format.standard", "ISO-8601"),
    ];
    let input = SinkParts::new(columns, options).with_primary_key(["k_id"]);
    let spec = SinkSpec::from_parts(&input).unwrap();
    assert_eq!(spec.connector, Connector::UpsertKafka);
    assert_eq!(spec.primary_key, vec!["k_id"]);
    assert_eq!(spec.key, Some(json_side(vec![0], &["id"])));
    assert_eq!(spec.value.field_names, vec!["name", "ts"]);
    assert_eq!(spec.value.options.timestamp_format, TimestampFormat::Iso8601);
    assert_eq!(spec.columns[2].data_type, DataType::new(LogicalType::TimestampLtz { precision: 3 }));
    let plain = SinkSpec::from_parts(&parts(&["a"], &["INT"])).unwrap();
    assert_eq!((plain.connector, plain.key.clone()), (Connector::Kafka, None));
    assert_eq!(plain.value, json_side(vec![0], &["a"]));
}

#[test]
fn from_parts_equals_the_same_ddl() {
    let ddl_text = ddl(
        "id BIGINT, name STRING, price BIGINT",
        "'connector' = 'kjson-kafka', 'key.format' = 'json', 'key.fields' = 'price;id', \
         'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY', 'kjson.batch-rows' = '64'",
    );
    let options = [
        ("connector", "kjson-kafka"),
        ("key.format", "json"),
        ("key.fields", "price;id"),
        ("value.format", "json"),
        ("value.fields-include", "EXCEPT_KEY"),
        ("kjson.batch-rows", "64"),
    ];
    let columns = [("id", "BIGINT"), ("name", "STRING"), ("price", "BIGINT")];
    let mut input = SinkParts::new(columns, options);
    input.table_name = "t".to_string();
    let from_parts = SinkSpec::from_parts(&input).unwrap();
    assert_eq!(from_parts, SinkSpec::from_ddl(&ddl_text).unwrap());
    assert_eq!(from_parts.key.as_ref().map(|key| key.projection.clone()), Some(vec![2, 0]));
    assert_eq!(from_parts.value.projection, vec![1]);
}

#[test]
fn from_parts_errors() {
    let message = |input: &SinkParts| SinkSpec::from_parts(input).unwrap_err().message().to_string();
    let mut input = parts(&["a"], &["INT"]);
    input.field_names.push("b".to_string());
    assert_eq!(message(&input), "The sink has 2 field names but 1 type strings");
    input = parts(&["a"], &["MAP<INT, FOO>"]);
    let err = SinkSpec::from_parts(&input).unwrap_err();
    assert_eq!(err.message(), "Column 'a' has an invalid type 'MAP<INT, FOO>': Unknown data type 'FOO'");
    assert_eq!(err.position(), Some(Position { line: 1, column: 10 }));
    input = parts(&["a"], &["INT"]);
    input.options.insert("key.format".to_string(), "json".to_string());
    assert_eq!(
        message(&input),
        "A key format 'key.format' requires the declaration of one or more of key fields using 'key.fields'."
    );
    input.options.insert("key.fields".to_string(), "b".to_string());
    assert!(message(&input).starts_with("Could not find the field 'b' in the table schema for usage in the key"));
    input = SinkParts::new(
        [("a", "INT")],
        [("connector", "upsert-kafka"), ("key.format", "json"), ("value.format", "json")],
    );
    assert!(message(&input).starts_with("'upsert-kafka' tables require to define a PRIMARY KEY constraint."));
    assert_eq!(
        message(&input.clone().with_primary_key(["b"])),
        "Invalid primary key 'PK_b'. Column 'b' does not exist."
    );
    assert_eq!(
        message(&input.with_primary_key(["a", "a"])),
        "Invalid primary key 'PK_a_a'. A primary key must not contain duplicate columns. Found: [a]"
    );
    input = parts(&["a", "b"], &["INT", "MULTISET<INT>"]);
    assert_eq!(
        message(&input),
        "Column 'b': JSON format doesn't support non-string as key type of map. The type is: MULTISET<INT>"
    );
    input = parts(&["a"], &["INT"]);
    input.options.insert("format".to_string(), "csv".to_string());
    assert!(message(&input).starts_with("Option 'format': Could not find any factory for identifier 'csv'"));
    input = parts(&["a"], &["INT"]);
    input.options.insert("json.encode.ignore-nulls".to_string(), "true".to_string());
    assert!(message(&input)
        .starts_with("Unsupported options found for 'kafka'.\n\nUnsupported options:\n\njson.encode.ignore-nulls\n\n"));
    input = parts(&["a", "b"], &["INT", "INT"]);
    input.options.extend([("key.format", "json"), ("key.fields", "a"), ("key.fields-prefix", "a")].map(owned));
    assert!(
        message(&input).starts_with("A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'.")
    );
    input.options.insert("key.fields-prefix".to_string(), "x".to_string());
    input.options.insert("value.fields-include".to_string(), "EXCEPT_KEY".to_string());
    assert!(message(&input).starts_with("All fields in 'key.fields' must be prefixed with 'x'"));
    input = parts(&["a"], &["INT"]);
    input.options.remove("connector");
    assert_eq!(message(&input), "Table options do not contain an option key 'connector' for discovering a connector.");
}

fn owned((key, value): (&str, &str)) -> (String, String) {
    (key.to_string(), value.to_string())
}

#[test]
fn describe_summarizes_the_spec() {
    let spec = SinkSpec::from_ddl(&ddl(
        "k INT PRIMARY KEY NOT ENFORCED, v MAP<STRING, BIGINT>, m STRING METADATA FROM 'topic'",
        "'connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json', \
         'value.json.encode.ignore-null-fields' = 'true'",
    ))
    .unwrap();
    let expected = "table: t\n\
        connector: upsert-kafka (upsert: true)\n\
        columns:\n\
        \x20 0: k INT NOT NULL\n\
        \x20 1: v MAP<STRING, BIGINT>\n\
        primary key: k\n\
        key: format json, fields:\n\
        \x20 \"k\" <- column 0 k INT NOT NULL\n\
        \x20 options: timestamp-format.standard=SQL, map-null-key.mode=FAIL, map-null-key.literal=null, \
        encode.decimal-as-plain-number=false, encode.ignore-null-fields=false\n\
        value: format json, fields:\n\
        \x20 \"k\" <- column 0 k INT NOT NULL\n\
        \x20 \"v\" <- column 1 v MAP<STRING, BIGINT>\n\
        \x20 options: timestamp-format.standard=SQL, map-null-key.mode=FAIL, map-null-key.literal=null, \
        encode.decimal-as-plain-number=false, encode.ignore-null-fields=true\n\
        not written to Kafka:\n\
        \x20 m (metadata column)\n";
    assert_eq!(spec.describe(), expected);
    let plain = SinkSpec::from_parts(&parts(&["a"], &["INT"])).unwrap().describe();
    assert!(plain.starts_with("table: (from parts)\nconnector: kafka (upsert: false)\n"), "{plain}");
    assert!(plain.contains("\nkey: none (the Kafka key is null)\n"), "{plain}");
    let kjson = SinkSpec::from_ddl(&ddl("a INT", KAFKA_JSON)).unwrap().describe_as("kjson-kafka");
    assert!(kjson.contains("\nconnector: kjson-kafka (the records of kafka, upsert: false)\n"), "{kjson}");
    let options = "'connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json', \
        'value.fields-include' = 'EXCEPT_KEY'";
    let columns = "ts TIMESTAMP(3) PRIMARY KEY NOT ENFORCED, WATERMARK FOR ts AS ts";
    let keyed = SinkSpec::from_ddl(&ddl(columns, options)).unwrap().describe();
    assert!(keyed.contains("\nvalue: format json, fields:\n  (none: the record is {})\n"), "{keyed}");
    assert!(keyed.ends_with("\nnot written to Kafka:\n  watermark for ts\n"), "{keyed}");
}

const CDC_FORMATS: [&str; 4] = ["debezium-json", "canal-json", "maxwell-json", "ogg-json"];

#[test]
fn cdc_value_formats_read_json_options_under_their_own_prefix() {
    for format in CDC_FORMATS {
        let options = format!(
            "'connector' = 'kafka', 'key.format' = 'json', 'key.fields' = 'a', \
             'key.json.encode.ignore-null-fields' = 'true', 'value.format' = '{format}', \
             'value.{format}.encode.ignore-null-fields' = 'TRUE', \
             'value.{format}.timestamp-format.standard' = 'ISO-8601', 'value.{format}.map-null-key.mode' = 'literal', \
             'value.{format}.map-null-key.literal' = '<null>', 'value.{format}.encode.decimal-as-plain-number' = 'true', \
             'value.{format}.ignore-parse-errors' = 'false'"
        );
        let spec = SinkSpec::from_ddl(&ddl("a INT, b STRING", &options)).unwrap();
        assert_eq!(spec.value.format.name(), format);
        let expected = JsonOptions {
            timestamp_format: TimestampFormat::Iso8601,
            map_null_key_mode: MapNullKeyMode::Literal,
            map_null_key_literal: "<null>".to_string(),
            encode_decimal_as_plain_number: true,
            ignore_null_fields: true,
            ..JsonOptions::default()
        };
        assert_eq!(spec.value.options, expected, "{format}");
        let key = spec.key.unwrap();
        assert_eq!((key.format.name(), key.options.ignore_null_fields), ("json", true));
        // The 'format' spelling puts the options under '<format>.'.
        let options = format!("'connector' = 'kafka', 'format' = '{format}', '{format}.map-null-key.mode' = 'DROP'");
        let spec = SinkSpec::from_ddl(&ddl("a INT", &options)).unwrap();
        assert_eq!((spec.value.format.name(), spec.value.options.map_null_key_mode), (format, MapNullKeyMode::Drop));
    }
}

#[test]
fn cdc_decode_only_options_are_accepted_per_format() {
    let accepted = [
        ("debezium-json", "'debezium-json.schema-include' = 'false', 'debezium-json.ignore-parse-errors' = 'true'"),
        ("canal-json", "'canal-json.database.include' = 'db', 'canal-json.table.include' = 't.*'"),
        ("maxwell-json", "'maxwell-json.ignore-parse-errors' = 'true'"),
        ("ogg-json", "'ogg-json.ignore-parse-errors' = 'FALSE'"),
    ];
    for (format, extra) in accepted {
        let options = format!("'connector' = 'kafka', 'format' = '{format}', {extra}");
        assert!(SinkSpec::from_ddl(&ddl("a INT", &options)).is_ok(), "{format}");
    }
    // Options of other CDC formats and json's fail-on-missing-field are not theirs.
    let refused = [
        ("ogg-json", "schema-include"),
        ("maxwell-json", "database.include"),
        ("debezium-json", "fail-on-missing-field"),
        ("canal-json", "decode.json-parser.enabled"),
    ];
    for (format, key) in refused {
        let options = format!("'connector' = 'kafka', 'format' = '{format}', '{format}.{key}' = 'false'");
        let (message, _) = error_of(&ddl("a INT", &options));
        let unsupported =
            format!("Unsupported options found for 'kafka'.\n\nUnsupported options:\n\n{format}.{key}\n\n");
        assert!(message.starts_with(&unsupported), "{message}");
        assert!(message.contains(&format!("\n{format}.encode.ignore-null-fields\n")), "{message}");
    }
}

#[test]
fn debezium_schema_include_true_is_refused_for_sinks() {
    let options =
        "'connector' = 'kafka', 'value.format' = 'debezium-json',\n 'value.debezium-json.schema-include' = 'True'";
    assert_eq!(
        error_of(&ddl("a INT", options)),
        (
            "Error creating sink format 'debezium-json' in option space 'value.debezium-json.'. Debezium JSON \
             serialization doesn't support 'debezium-json.schema-include' option been set to true."
                .to_string(),
            (2, 2)
        )
    );
    // Flink validates the other options first.
    let options = "'connector' = 'kafka', 'format' = 'debezium-json', 'debezium-json.schema-include' = 'true', \
        'debezium-json.timestamp-format.standard' = 'iso'";
    let (message, _) = error_of(&ddl("a INT", options));
    assert!(message
        .ends_with("Unsupported value 'iso' for timestamp-format.standard. Supported values are [SQL, ISO-8601]."));
}

#[test]
fn bad_booleans_are_reported_in_flinks_option_set_order() {
    let cases = [
        ("json", "fail-on-missing-field", "encode.decimal-as-plain-number"),
        ("json", "ignore-parse-errors", "decode.json-parser.enabled"),
        ("debezium-json", "schema-include", "encode.decimal-as-plain-number"),
        ("debezium-json", "ignore-parse-errors", "schema-include"),
        ("maxwell-json", "ignore-parse-errors", "encode.ignore-null-fields"),
        ("canal-json", "encode.ignore-null-fields", "encode.decimal-as-plain-number"),
    ];
    for (format, later, first) in cases {
        let options = format!(
            "'connector' = 'kafka', 'format' = '{format}', '{format}.{later}' = 'maybe', '{format}.{first}' = 'no'"
        );
        let (message, _) = error_of(&ddl("a INT", &options));
        let expected = format!("Invalid value for option '{first}'. Unrecognized option for boolean: no.");
        assert!(message.contains(&expected), "{format}: {message}");
    }
}

#[test]
fn cdc_formats_are_refused_where_only_inserts_fit() {
    let options = "'connector' = 'kafka', 'key.format' = 'canal-json', 'key.fields' = 'a', 'value.format' = 'json'";
    assert_eq!(
        error_of(&ddl("a INT", options)),
        (
            "A key format should only deal with INSERT-only records. But canal-json has a changelog mode of \
             [INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE]."
                .to_string(),
            (1, 53)
        )
    );
    let upsert = |key: &str, value: &str| {
        let options = format!("'connector' = 'upsert-kafka', 'key.format' = '{key}', 'value.format' = '{value}'");
        error_of(&ddl("a INT PRIMARY KEY NOT ENFORCED", &options)).0
    };
    assert_eq!(
        upsert("json", "debezium-json"),
        "'upsert-kafka' connector doesn't support 'debezium-json' as value format, because 'debezium-json' is not \
         in insert-only mode."
    );
    assert_eq!(
        upsert("ogg-json", "maxwell-json"),
        "'upsert-kafka' connector doesn't support 'ogg-json' as key format, because 'ogg-json' is not in \
         insert-only mode."
    );
    // A changelog value format lets 'kafka' declare a primary key.
    let options = "'connector' = 'kafka', 'format' = 'ogg-json'";
    let spec = SinkSpec::from_ddl(&ddl("a INT PRIMARY KEY NOT ENFORCED, b STRING", options)).unwrap();
    assert_eq!((spec.connector, spec.primary_key.clone()), (Connector::Kafka, vec!["a".to_string()]));
}

#[test]
fn from_parts_takes_cdc_formats_by_name() {
    let mut input = SinkParts::new(
        [("a", "INT"), ("b", "STRING")],
        [("connector", "kafka"), ("key.format", "json"), ("key.fields", "a"), ("value.format", "maxwell-json")],
    );
    input.options.insert("value.maxwell-json.encode.ignore-null-fields".to_string(), "true".to_string());
    let spec = SinkSpec::from_parts(&input).unwrap();
    assert_eq!((spec.value.format.name(), spec.value.options.ignore_null_fields), ("maxwell-json", true));
    assert_eq!(spec.key.as_ref().map(|key| key.format.name()), Some("json"));
    let message = |input: &SinkParts| SinkSpec::from_parts(input).unwrap_err().message().to_string();
    input.options.insert("value.maxwell-json.schema-include".to_string(), "false".to_string());
    assert!(message(&input).contains("\n\nvalue.maxwell-json.schema-include\n\n"), "{}", message(&input));
    input.options.retain(|key, _| !key.starts_with("value.maxwell-json."));
    input.options.insert("value.format".to_string(), "debezium-json".to_string());
    input.options.insert("value.debezium-json.schema-include".to_string(), "true".to_string());
    assert!(message(&input).ends_with("doesn't support 'debezium-json.schema-include' option been set to true."));
    input.options.remove("value.debezium-json.schema-include");
    input.options.insert("key.format".to_string(), "debezium-json".to_string());
    assert!(message(&input).starts_with("A key format should only deal with INSERT-only records. But debezium-json"));
    input.options.insert("key.format".to_string(), "json".to_string());
    input.options.insert("connector".to_string(), "upsert-kafka".to_string());
    input.options.remove("key.fields");
    let input = input.with_primary_key(["a"]);
    assert!(message(&input).starts_with("'upsert-kafka' connector doesn't support 'debezium-json' as value format"));
}

const UPSERT_JSON: &str = "'connector' = 'upsert-kafka', 'topic' = 't', 'key.format' = 'json', 'value.format' = 'json'";

/// kjson's connectors are the stock sinks: the same spec, so the same bytes and the same
/// generated encoder.
#[test]
fn kjson_connectors_build_the_stock_sinks() {
    let kafka = ddl("id BIGINT, name STRING", &format!("{KAFKA_JSON}, 'json.encode.ignore-null-fields' = 'true'"));
    let upsert = ddl("id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED", UPSERT_JSON);
    for (stock, kjson) in [(&kafka, "'connector' = 'kjson-kafka'"), (&upsert, "'connector' = 'kjson-upsert-kafka'")] {
        let stock_spec = SinkSpec::from_ddl(stock).unwrap();
        let options =
            "'kjson.batch-rows' = '512', 'kjson.batch-interval' = '200 ms', 'kjson.arrow-memory-limit' = '64 mb'";
        let kjson_ddl = stock.replace("'connector' = 'kafka'", kjson).replace("'connector' = 'upsert-kafka'", kjson);
        let kjson_ddl = kjson_ddl.replacen("'topic' = 't'", &format!("'topic' = 't', {options}"), 1);
        let kjson_spec = SinkSpec::from_ddl(&kjson_ddl).unwrap();
        assert_eq!(kjson_spec, stock_spec, "{kjson_ddl}");
        assert_eq!(spec_fingerprint(&kjson_spec), spec_fingerprint(&stock_spec));
    }
}

#[test]
fn kjson_option_values_are_checked_by_name() {
    let cases = [
        ("kjson.batch-rows", "0", "a positive integer"),
        ("kjson.batch-rows", "many", "a positive integer"),
        ("kjson.batch-interval", "soon", "a duration such as '200 ms' or '0'"),
        ("kjson.batch-interval", "-1 s", "a duration such as '200 ms' or '0'"),
        ("kjson.arrow-memory-limit", "0 mb", "a positive memory size such as '256 mb'"),
        ("kjson.arrow-memory-limit", "64 pb", "a positive memory size such as '256 mb'"),
    ];
    for (key, value, expected) in cases {
        let options = format!("'connector' = 'kjson-kafka', 'topic' = 't', 'format' = 'json', '{key}' = '{value}'");
        let text = ddl("id BIGINT", &options);
        let (message, position) = error_of(&text);
        assert_eq!(message, format!("Option '{key}' of 'kjson-kafka' must be {expected}, found '{value}'."));
        let key_column = text.find(&format!("'{key}'")).unwrap() + 1;
        assert_eq!(position, (1, key_column), "{options}");
    }
    let zero_interval = "'connector' = 'kjson-kafka', 'topic' = 't', 'format' = 'json', 'kjson.batch-interval' = '0'";
    assert!(SinkSpec::from_ddl(&ddl("id BIGINT", zero_interval)).is_ok(), "0 turns the timer off");
}

#[test]
fn unknown_kjson_options_are_unsupported() {
    let options = "'connector' = 'kjson-upsert-kafka', 'topic' = 't', 'key.format' = 'json', \
        'value.format' = 'json', 'kjson.batch-size' = '10'";
    let (message, _) = error_of(&ddl("id BIGINT, PRIMARY KEY (id) NOT ENFORCED", options));
    assert!(
        message.starts_with(
            "Unsupported options found for 'kjson-upsert-kafka'.\n\nUnsupported options:\n\nkjson.batch-size\n\n"
        ),
        "{message}"
    );
    assert!(message.contains("\nkjson.arrow-memory-limit\nkjson.batch-interval\nkjson.batch-rows\n"), "{message}");
    // The stock connector has no kjson options.
    let (message, _) = error_of(&ddl("id BIGINT", &format!("{KAFKA_JSON}, 'kjson.batch-rows' = '10'")));
    assert!(
        message.starts_with("Unsupported options found for 'kafka'.\n\nUnsupported options:\n\nkjson.batch-rows\n\n")
    );
}
