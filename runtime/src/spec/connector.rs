//! The `connector` option: Flink's `kafka` and `upsert-kafka`, and kjson's own connectors
//! `kjson-kafka` and `kjson-upsert-kafka`, the same sinks (the same records, byte for byte) plus a
//! few `kjson.*` options that tune the Flink operator and write no byte. The tools accept kjson's
//! so that the DDL a user writes for the connector also works in `kjson inspect`, `encode`,
//! `codegen` and in schemas/.
use super::table_options::{escape_single_quotes, TableOptions};
use super::Connector;
use crate::error::Result;

/// The factory a `connector` value names: Flink's own, or kjson's stand-in for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ConnectorFactory {
    pub connector: Connector,
    pub kjson: bool,
}

/// A `kjson.*` option: its key, what a valid value looks like, and the test of a value.
type OwnOptionCheck = (&'static str, &'static str, fn(&str) -> bool);

impl ConnectorFactory {
    /// The factory for a `connector` value, if kjson knows it (exact, case-sensitive).
    pub fn from_identifier(identifier: &str) -> Option<ConnectorFactory> {
        let (connector, kjson) = match identifier {
            "kafka" => (Connector::Kafka, false),
            "upsert-kafka" => (Connector::UpsertKafka, false),
            "kjson-kafka" => (Connector::Kafka, true),
            "kjson-upsert-kafka" => (Connector::UpsertKafka, true),
            _ => return None,
        };
        Some(ConnectorFactory { connector, kjson })
    }

    pub fn identifier(self) -> &'static str {
        match (self.connector, self.kjson) {
            (Connector::Kafka, true) => "kjson-kafka",
            (Connector::UpsertKafka, true) => "kjson-upsert-kafka",
            (connector, false) => connector.identifier(),
        }
    }

    /// The factory's own option keys beyond the stock connector's.
    pub fn own_option_keys(self) -> &'static [&'static str] {
        match self.kjson {
            true => &[BATCH_ROWS, BATCH_INTERVAL, ARROW_MEMORY_LIMIT],
            false => &[],
        }
    }

    /// Checks the values of the `kjson.*` options (their keys were checked with the others).
    pub fn check_own_options(self, options: &TableOptions) -> Result<()> {
        let checks: [OwnOptionCheck; 3] = [
            (BATCH_ROWS, "a positive integer", |text| parse_java_int(text).is_some_and(|rows| rows > 0)),
            (BATCH_INTERVAL, "a duration such as '200 ms' or '0'", |text| parse_flink_duration_nanos(text).is_some()),
            (ARROW_MEMORY_LIMIT, "a positive memory size such as '256 mb'", |text| {
                parse_flink_memory_size(text).is_some_and(|bytes| bytes > 0)
            }),
        ];
        for (key, expected, valid) in checks.into_iter().filter(|_| self.kjson) {
            match options.get(key) {
                Some(text) if !valid(text) => {
                    let message =
                        format!("Option '{key}' of '{}' must be {expected}, found '{text}'.", self.identifier());
                    return Err(options.error_at(key, message));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// The `connector` option, as Flink's factory discovery reads it (exact, case-sensitive).
pub(crate) fn discover_connector(options: &TableOptions) -> Result<ConnectorFactory> {
    match options.get("connector") {
        None => Err(options
            .error_missing("Table options do not contain an option key 'connector' for discovering a connector.")),
        Some(identifier) => ConnectorFactory::from_identifier(identifier).ok_or_else(|| {
            let identifier = escape_single_quotes(identifier);
            options
                .error_at("connector", format!("Cannot discover a connector using option: 'connector'='{identifier}'"))
        }),
    }
}

const BATCH_ROWS: &str = "kjson.batch-rows";
const BATCH_INTERVAL: &str = "kjson.batch-interval";
const ARROW_MEMORY_LIMIT: &str = "kjson.arrow-memory-limit";

/// Flink's integer option: Java's `Integer.parseInt` of the trimmed text.
fn parse_java_int(text: &str) -> Option<i32> {
    let text = text.trim();
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Flink's `TimeUtils.parseDuration`: digits, optional whitespace, an optional unit (default
/// milliseconds), case-insensitive. Returns nanoseconds; `None` if malformed or too large.
fn parse_flink_duration_nanos(text: &str) -> Option<u128> {
    const UNITS: &[(&[&str], u128)] = &[
        (&["ns", "nano", "nanos", "nanosecond", "nanoseconds"], 1),
        (&["us", "micro", "micros", "microsecond", "microseconds"], 1_000),
        (&["ms", "milli", "millis", "millisecond", "milliseconds"], 1_000_000),
        (&["s", "sec", "secs", "second", "seconds"], 1_000_000_000),
        (&["m", "min", "minute", "minutes"], 60_000_000_000),
        (&["h", "hour", "hours"], 3_600_000_000_000),
        (&["d", "day", "days"], 86_400_000_000_000),
    ];
    let (number, unit) = split_number(text)?;
    let per_unit = match unit.as_str() {
        "" => 1_000_000,
        unit => UNITS.iter().find(|(names, _)| names.contains(&unit))?.1,
    };
    // Java's Duration holds at most i64::MAX seconds.
    let nanos = number.checked_mul(per_unit)?;
    (nanos / 1_000_000_000 <= i64::MAX as u128).then_some(nanos)
}

/// Flink's `MemorySize.parse`: digits, optional whitespace, an optional unit (default bytes),
/// case-insensitive. Returns bytes; `None` if malformed or beyond a Java long.
fn parse_flink_memory_size(text: &str) -> Option<u64> {
    const UNITS: &[(&[&str], u128)] = &[
        (&["b", "bytes"], 1),
        (&["k", "kb", "kibibytes"], 1 << 10),
        (&["m", "mb", "mebibytes"], 1 << 20),
        (&["g", "gb", "gibibytes"], 1 << 30),
        (&["t", "tb", "tebibytes"], 1 << 40),
    ];
    let (number, unit) = split_number(text)?;
    let per_unit = match unit.as_str() {
        "" => 1,
        unit => UNITS.iter().find(|(names, _)| names.contains(&unit))?.1,
    };
    let bytes = number.checked_mul(per_unit)?;
    u64::try_from(bytes).ok().filter(|&bytes| bytes <= i64::MAX as u64)
}

/// The leading digits of the trimmed text as a number, and the rest trimmed and lower-cased.
fn split_number(text: &str) -> Option<(u128, String)> {
    let text = text.trim();
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let number = text[..digits].parse::<u128>().ok()?;
    Some((number, text[digits..].trim().to_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_like_flink() {
        assert_eq!(parse_flink_duration_nanos("200 ms"), Some(200_000_000));
        assert_eq!(parse_flink_duration_nanos("1 s"), Some(1_000_000_000));
        assert_eq!(parse_flink_duration_nanos("1s"), Some(1_000_000_000));
        assert_eq!(parse_flink_duration_nanos(" 2 MIN "), Some(120_000_000_000));
        assert_eq!(parse_flink_duration_nanos("0"), Some(0));
        assert_eq!(parse_flink_duration_nanos("150"), Some(150_000_000));
        assert_eq!(parse_flink_duration_nanos("3 days"), Some(3 * 86_400_000_000_000));
        for bad in ["", "ms", "-1 s", "1.5 s", "1 fortnight", "1 s 2 ms", "99999999999999999999999999 d"] {
            assert_eq!(parse_flink_duration_nanos(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn memory_sizes_parse_like_flink() {
        assert_eq!(parse_flink_memory_size("64 mb"), Some(64 << 20));
        assert_eq!(parse_flink_memory_size("64MB"), Some(64 << 20));
        assert_eq!(parse_flink_memory_size("1 g"), Some(1 << 30));
        assert_eq!(parse_flink_memory_size("512 kibibytes"), Some(512 << 10));
        assert_eq!(parse_flink_memory_size("1000"), Some(1000));
        for bad in ["", "mb", "-1 mb", "1.5 gb", "1 pb", "8388608 tb"] {
            assert_eq!(parse_flink_memory_size(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn integers_parse_like_java() {
        assert_eq!(parse_java_int(" 4096 "), Some(4096));
        assert_eq!(parse_java_int("+7"), Some(7));
        assert_eq!(parse_java_int("-3"), Some(-3));
        for bad in ["", "1e3", "4096 rows", "2147483648", "+"] {
            assert_eq!(parse_java_int(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn kjson_identifiers_name_the_stock_connectors() {
        for (identifier, connector, kjson) in [
            ("kafka", Connector::Kafka, false),
            ("upsert-kafka", Connector::UpsertKafka, false),
            ("kjson-kafka", Connector::Kafka, true),
            ("kjson-upsert-kafka", Connector::UpsertKafka, true),
        ] {
            let factory = ConnectorFactory::from_identifier(identifier).unwrap();
            assert_eq!(factory, ConnectorFactory { connector, kjson });
            assert_eq!(factory.identifier(), identifier);
        }
        assert_eq!(ConnectorFactory::from_identifier("KJSON-KAFKA"), None);
    }
}
