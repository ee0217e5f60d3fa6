//! Parser for a Flink SQL `CREATE TABLE ... WITH (...)` statement of a Kafka sink.
