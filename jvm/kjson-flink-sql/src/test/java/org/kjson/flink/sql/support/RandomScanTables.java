package org.kjson.flink.sql.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.kjson.testkit.RandomSinkTables;
import org.kjson.testkit.RandomSinkTables.SinkTable;

/**
 * Random tables to read, from the sink side's generator ({@link RandomSinkTables}: every type,
 * nested to depth 3, key fields, prefixes, {@code value.fields-include}, the encode options) of
 * one shape, plus random decode options ({@code ignore-parse-errors}, {@code fail-on-missing-field},
 * {@code decode.json-parser.enabled} on 2.x) on the value and key formats. The sink DDL writes the
 * topic with Flink's own serializer; {@link ScanTable#readDdl} reads it back.
 */
public final class RandomScanTables {
    /** What a table reads: a value format of {@code kafka}, or {@code upsert-kafka} (json key and value). */
    public enum Shape {
        JSON("json"), DEBEZIUM_JSON("debezium-json"), CANAL_JSON("canal-json"), MAXWELL_JSON("maxwell-json"),
        OGG_JSON("ogg-json"), UPSERT_KAFKA("json");

        final String valueFormat;

        Shape(String valueFormat) {
            this.valueFormat = valueFormat;
        }
    }

    /**
     * A table of one shape: the sink DDL (connector {@code kafka} / {@code upsert-kafka}, topic
     * {@code t}) and the decode options its reads add; {@code lenientValue}: the value format
     * skips records it cannot parse.
     */
    public record ScanTable(Shape shape, SinkTable sink, List<String> decodeOptions, boolean lenientValue) {
        public String name() {
            return sink.name();
        }

        /**
         * The DDL that reads partition 0 of {@code topic} with {@code connector} to its end
         * offset, or up to {@code stopOffset} (exclusive) when that is not negative.
         */
        public String readDdl(String connector, String topic, String bootstrapServers, long stopOffset) {
            String stock = shape == Shape.UPSERT_KAFKA ? "upsert-kafka" : "kafka";
            List<String> extra = new ArrayList<>(decodeOptions);
            if (shape != Shape.UPSERT_KAFKA) {
                extra.add("'scan.startup.mode' = 'earliest-offset'");
            }
            if (stopOffset < 0) {
                extra.add("'scan.bounded.mode' = 'latest-offset'");
            } else {
                extra.add("'scan.bounded.mode' = 'specific-offsets'");
                extra.add("'scan.bounded.specific-offsets' = 'partition:0,offset:" + stopOffset + "'");
            }
            String ddl = sink.ddl().replace("'connector' = '" + stock + "'", "'connector' = '" + connector + "'")
                    .replace("'topic' = 't'", "'topic' = '" + topic + "'")
                    .replace("'properties.bootstrap.servers' = 'localhost:9092'",
                            "'properties.bootstrap.servers' = '" + bootstrapServers + "'");
            return ddl.substring(0, ddl.length() - 1) + ",\n  " + String.join(",\n  ", extra) + ")";
        }
    }

    private static final Pattern VALUE_FORMAT = Pattern.compile("'(?:value\\.)?format' = '([a-z-]+)'");
    private static final int MAX_DRAWS = 10_000;

    private final RandomSinkTables sinks;
    private final Random random;

    public RandomScanTables(long seed) {
        this.sinks = new RandomSinkTables(seed);
        this.random = new Random(seed);
    }

    /** The next random table of {@code shape} (the sink generator's tables of other shapes are passed over). */
    public ScanTable next(Shape shape) {
        for (int draw = 0; draw < MAX_DRAWS; draw++) {
            SinkTable sink = sinks.next();
            if (shapeOf(sink.ddl()) == shape) {
                return withDecodeOptions(shape, sink);
            }
        }
        throw new IllegalStateException("the sink generator gave no " + shape + " table in " + MAX_DRAWS + " draws");
    }

    static Shape shapeOf(String ddl) {
        if (ddl.contains("'connector' = 'upsert-kafka'")) {
            return Shape.UPSERT_KAFKA;
        }
        Matcher format = VALUE_FORMAT.matcher(ddl);
        if (!format.find()) {
            throw new IllegalStateException("no value format in " + ddl);
        }
        for (Shape shape : Shape.values()) {
            if (shape != Shape.UPSERT_KAFKA && shape.valueFormat.equals(format.group(1))) {
                return shape;
            }
        }
        throw new IllegalStateException("unknown value format " + format.group(1));
    }

    private ScanTable withDecodeOptions(Shape shape, SinkTable sink) {
        List<String> options = new ArrayList<>();
        boolean keyed = sink.ddl().contains("'key.format' = 'json'");
        String valuePrefix = keyed ? "value." + shape.valueFormat + "." : shape.valueFormat + ".";
        boolean lenientValue = decodeOptions(valuePrefix, "json".equals(shape.valueFormat), options);
        if (keyed) {
            decodeOptions("key.json.", true, options);
        }
        return new ScanTable(shape, sink, options, lenientValue);
    }

    /** Adds random decode options under {@code prefix}; whether ignore-parse-errors is on. */
    private boolean decodeOptions(String prefix, boolean json, List<String> options) {
        String ignore = choice(null, "true", "false");
        if (ignore != null) {
            options.add(option(prefix, "ignore-parse-errors", ignore));
        }
        if (json) {
            String failOnMissing = choice(null, "false", "true");
            // Both true is refused at planning (Flink's message compared); rarely, or it crowds out reads.
            if (failOnMissing != null && !("true".equals(ignore) && "true".equals(failOnMissing) && random.nextInt(4) > 0)) {
                options.add(option(prefix, "fail-on-missing-field", failOnMissing));
            }
            String parser = choice(null, "true", "false");
            if (parser != null && FlinkLine.hasJsonParserOption()) {
                options.add(option(prefix, "decode.json-parser.enabled", parser));
            }
        }
        return "true".equals(ignore);
    }

    private String choice(String... values) {
        return values[random.nextInt(values.length)];
    }

    private static String option(String prefix, String key, String value) {
        return "'" + prefix + key + "' = '" + value + "'";
    }
}
