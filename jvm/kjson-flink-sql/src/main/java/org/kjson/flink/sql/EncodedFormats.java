package org.kjson.flink.sql;

import java.util.List;
import java.util.Map;

import org.apache.flink.table.api.ValidationException;

/**
 * The value formats kjson encodes, checked in Java at planning time (before Flink looks the
 * format factory up, so the message names kjson's list and the option as the user wrote it).
 * Keys may be in any format Flink can load: json keys are encoded natively, others by Flink's
 * own serializer of that format ({@link StockFormats}). A value in another format is refused:
 * Flink's serializer would write every record, which is the stock connector with an extra
 * operator and none of kjson's speed.
 */
final class EncodedFormats {
    /** Value formats: Flink's json and its four changelog envelopes. */
    static final List<String> VALUE_FORMATS = List.of("json", "debezium-json", "canal-json", "maxwell-json", "ogg-json");
    private EncodedFormats() {}

    /** {@code options} as the user wrote them (connector not renamed yet). */
    static void check(String tableName, String identifier, String stockIdentifier, Map<String, String> options) {
        String valueKey = options.containsKey("format") ? "format" : "value.format";
        checkOne(tableName, identifier, stockIdentifier, valueKey, options.get(valueKey), VALUE_FORMATS, "values");
    }

    private static void checkOne(String tableName, String identifier, String stockIdentifier, String key, String format,
            List<String> supported, String side) {
        if (format == null || supported.contains(format)) {
            return;
        }
        throw new ValidationException(String.format("Table '%s' with 'connector' = '%s' cannot be written"
                + " byte-identically to '%s' by kjson: option '%s' = '%s' is not a format kjson encodes; kjson encodes"
                + " %s in the format%s %s, and Flink's own serializer would write every record at the stock connector's"
                + " speed (for '%s', use 'connector' = '%s').", tableName, identifier, stockIdentifier,
                key, format, side, supported.size() > 1 ? "s" : "", quoted(supported), format, stockIdentifier));
    }

    private static String quoted(List<String> names) {
        return String.join(", ", names.stream().map(name -> "'" + name + "'").toList());
    }
}
