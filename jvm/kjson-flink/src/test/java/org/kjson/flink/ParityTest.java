package org.kjson.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.kjson.flink.arrow.RowDataArrowWriter;
import org.kjson.flink.support.StockKafkaSink;
import org.kjson.testkit.RandomRows;

/**
 * Byte parity with stock Flink: random rows go through the real Kafka table sink (DDL ->
 * catalog -> connector factory -> json format -> the connector's record serializer) and through
 * RowData -> Arrow -> the native encoder (both handoffs); keys, values and tombstones must be
 * identical. A fresh seed each run (printed; rerun one with -Dkjson.seed=N).
 */
class ParityTest {
    static final long SEED = Long.getLong("kjson.seed", System.nanoTime());
    private static final int ROWS_PER_CASE = Integer.getInteger("kjson.parity.rows", 600);

    /**
     * Every type the JSON format writes, at several precisions, nested every way (INTERVAL
     * cannot be declared in a DDL; {@link #intervalsMatchTheJsonFormat} covers it).
     */
    static final String ALL_TYPES = String.join(",\n  ",
            "b BOOLEAN", "ti TINYINT", "si SMALLINT", "i INT", "bi BIGINT", "f FLOAT", "d DOUBLE",
            "d1 DECIMAL(10, 2)", "d2 DECIMAL(18, 0)", "d3 DECIMAL(38, 10)", "d4 DECIMAL(38, 37)", "d5 DECIMAL(5, 5)",
            "c CHAR(3)", "vc VARCHAR(12)", "s STRING", "bn BINARY(3)", "vb VARBINARY(8)", "bs BYTES",
            "dt DATE", "t0 TIME(0)", "t3 TIME(3)",
            "ts0 TIMESTAMP(0)", "ts3 TIMESTAMP(3)", "ts6 TIMESTAMP(6)", "ts9 TIMESTAMP(9)",
            "lz0 TIMESTAMP_LTZ(0)", "lz3 TIMESTAMP_LTZ(3)", "lz9 TIMESTAMP_LTZ(9)",
            "a1 ARRAY<INT>", "a2 ARRAY<STRING NOT NULL>", "a3 ARRAY<ROW<x INT, y STRING>>", "a4 ARRAY<ARRAY<BIGINT>>",
            "m1 MAP<STRING, INT>", "m2 MAP<STRING, ROW<p TIMESTAMP_LTZ(3), q DECIMAL(5, 2)>>",
            "m3 MAP<VARCHAR(10), ARRAY<DOUBLE>>", "ms MULTISET<STRING>",
            "r ROW<a INT, b STRING, c ROW<d DATE, e ARRAY<FLOAT>>>",
            "nn INT NOT NULL", "nns STRING NOT NULL", "`q\"uote é \uD83D\uDE00` INT");

    @BeforeAll
    static void printSeed() {
        System.out.println("ParityTest seed: " + SEED + " (rerun with -Dkjson.seed=" + SEED + ")");
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                sink("value_defaults", false, ALL_TYPES, "'format' = 'json'"),
                sink("value_iso_literal_plain", true, ALL_TYPES, "'format' = 'json'",
                        "'json.timestamp-format.standard' = 'ISO-8601'", "'json.map-null-key.mode' = 'LITERAL'",
                        "'json.encode.decimal-as-plain-number' = 'true'"),
                sink("value_ignore_nulls_drop", true, ALL_TYPES, "'value.format' = 'json'",
                        "'value.json.encode.ignore-null-fields' = 'true'", "'value.json.map-null-key.mode' = 'drop'",
                        "'value.json.map-null-key.literal' = 'unused'"),
                sink("key_and_value", true, ALL_TYPES, "'key.format' = 'json'", "'key.fields' = 's;i;dt;m1;r'",
                        "'key.json.map-null-key.mode' = 'LITERAL'", "'key.json.map-null-key.literal' = 'NUL'",
                        "'key.json.encode.ignore-null-fields' = 'true'", "'key.json.timestamp-format.standard' = 'ISO-8601'",
                        "'value.format' = 'json'", "'value.json.map-null-key.mode' = 'DROP'"),
                sink("key_prefix_except_key", false,
                        "k_id BIGINT, k_name STRING, payload ROW<n INT, tags ARRAY<STRING>>, ts TIMESTAMP_LTZ(3), amount DECIMAL(12, 4)",
                        "'key.format' = 'json'", "'key.fields' = 'k_name;k_id'", "'key.fields-prefix' = 'k_'",
                        "'value.format' = 'json'", "'value.fields-include' = 'EXCEPT_KEY'"),
                upsert("upsert_tombstones", true, "id BIGINT, region STRING, " + ALL_TYPES, "region, id",
                        "'key.format' = 'json'", "'value.format' = 'json'",
                        "'value.json.encode.ignore-null-fields' = 'true'", "'value.json.map-null-key.mode' = 'LITERAL'",
                        // Not the default 'null', so no key collides here: a collision with ROW values
                        // under ignore-null-fields is pinned by literalKeyCollisionWithRowValues.
                        "'value.json.map-null-key.literal' = 'lit'"),
                upsert("upsert_prefix_empty_value", false, "k_a INT, k_b STRING", "k_b, k_a", "'key.format' = 'json'",
                        "'key.fields-prefix' = 'k_'", "'value.format' = 'json'", "'value.fields-include' = 'EXCEPT_KEY'"),
                sink("kafka_empty_value", false, "a INT, b STRING", "'key.format' = 'json'", "'key.fields' = 'b;a'",
                        "'value.format' = 'json'", "'value.fields-include' = 'EXCEPT_KEY'"),
                // Changelog envelopes: every row kind is written, in the insert or the delete form.
                sink("cdc_debezium_literal", true, ALL_TYPES, "'format' = 'debezium-json'",
                        "'debezium-json.map-null-key.mode' = 'LITERAL'"),
                sink("cdc_canal_key_ignore_nulls", true, ALL_TYPES, "'key.format' = 'json'", "'key.fields' = 's;i'",
                        "'key.json.map-null-key.mode' = 'DROP'", "'value.format' = 'canal-json'",
                        "'value.canal-json.encode.ignore-null-fields' = 'true'",
                        "'value.canal-json.map-null-key.mode' = 'DROP'"),
                sink("cdc_maxwell_iso_plain", false, ALL_TYPES, "'format' = 'maxwell-json'",
                        "'maxwell-json.timestamp-format.standard' = 'ISO-8601'",
                        "'maxwell-json.encode.decimal-as-plain-number' = 'true'"),
                sink("cdc_ogg_ignore_nulls", true, ALL_TYPES, "'value.format' = 'ogg-json'",
                        "'value.ogg-json.encode.ignore-null-fields' = 'true'",
                        "'value.ogg-json.map-null-key.mode' = 'LITERAL'", "'value.ogg-json.map-null-key.literal' = 'nil'"));
    }

    private static Arguments sink(String name, boolean nullMapKeys, String columns, String... options) {
        String ddl = "CREATE TABLE " + name + " (\n  " + columns + "\n) WITH (\n  'connector' = 'kafka', 'topic' = 't',\n"
                + "  'properties.bootstrap.servers' = 'localhost:9092',\n  "
                + String.join(",\n  ", options) + ")";
        return Arguments.of(name, ddl, nullMapKeys);
    }

    private static Arguments upsert(String name, boolean nullMapKeys, String columns, String key, String... options) {
        String ddl = "CREATE TABLE " + name + " (\n  " + columns + ",\n  PRIMARY KEY (" + key + ") NOT ENFORCED\n) WITH (\n"
                + "  'connector' = 'upsert-kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092',\n  "
                + String.join(",\n  ", options) + ")";
        return Arguments.of(name, ddl, nullMapKeys);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void nativeMatchesStockFlink(String name, String ddl, boolean nullMapKeys) throws Exception {
        StockKafkaSink stock = StockKafkaSink.create(ddl);
        SinkDescription sink = SinkDescription.of(stock.table().getResolvedSchema(), stock.options());
        RowType rowType = stock.physicalRowType();
        long seed = SEED ^ name.hashCode();
        RandomRows random = new RandomRows(seed, 0.15, nullMapKeys);
        Compatibility running = Compatibility.ofRunningFlink();
        // Half the batches use Flink's binary rows, the form rows have after a network shuffle.
        RowDataSerializer binary = new RowDataSerializer(rowType);
        int compared = 0;
        int tombstones = 0;
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonEncoder arrays = NativeJsonEncoder.open(sink, running, allocator, NativeJsonEncoder.Handoff.ARRAYS);
                NativeJsonEncoder direct = NativeJsonEncoder.open(sink, running, allocator, NativeJsonEncoder.Handoff.DIRECT);
                RowDataArrowWriter writer = new RowDataArrowWriter(rowType, allocator)) {
            while (compared < ROWS_PER_CASE) {
                int size = random.random().nextInt(8) == 0 ? 0 : 1 + random.random().nextInt(120);
                boolean binaryRows = random.random().nextBoolean();
                List<RowData> rows = new ArrayList<>();
                for (int i = 0; i < size; i++) {
                    RowData generic = random.row(rowType, random.kind());
                    RowData row = binaryRows ? binary.toBinaryRow(generic).copy() : generic;
                    rows.add(row);
                    writer.append(row);
                }
                writer.finish();
                byte[] kinds = writer.rowKinds();
                EncodedBatch fromArrays = arrays.encode(writer.root(), kinds);
                EncodedBatch fromDirect = direct.encode(writer.root(), kinds);
                for (int i = 0; i < size; i++) {
                    ProducerRecord<byte[], byte[]> expected = stock.serialize(rows.get(i));
                    check(name, seed, rows.get(i), expected, fromArrays, i);
                    check(name, seed, rows.get(i), expected, fromDirect, i);
                    tombstones += expected.value() == null ? 1 : 0;
                }
                compared += size;
                writer.reset();
            }
        }
        System.out.printf("parity %s: %d rows identical (%d tombstones), %s%n", name, compared, tombstones, running);
        if ("upsert-kafka".equals(sink.options().get("connector"))) {
            assertTrue(tombstones > 0, "the upsert case must cover tombstones");
        }
    }

    private static void check(String name, long seed, RowData row, ProducerRecord<byte[], byte[]> expected,
            EncodedBatch batch, int i) {
        byte[] key = batch.key(i);
        byte[] value = batch.value(i);
        if (!Arrays.equals(expected.key(), key) || !Arrays.equals(expected.value(), value)) {
            fail(String.format("case %s (seed %d), row %d %s:%n  stock  key   %s%n  native key   %s%n  stock  value %s%n"
                    + "  native value %s", name, seed, i, row, text(expected.key()), text(key), text(expected.value()),
                    text(value)));
        }
        assertEquals(expected.key() == null, batch.isNullKey(i));
        assertEquals(expected.value() == null, batch.isTombstone(i));
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }

    /** Under the default FAIL mode both sides refuse a null map key; the native message names the option. */
    @Test
    void nullMapKeyFailsLikeFlink() throws Exception {
        StockKafkaSink stock = StockKafkaSink.create("CREATE TABLE fail_null_key (id INT, m MAP<STRING, INT>)"
                + " WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092',"
                + " 'format' = 'json')");
        Map<Object, Object> entries = new LinkedHashMap<>();
        entries.put(StringData.fromString("k"), 1);
        entries.put(null, 2);
        GenericRowData row = GenericRowData.of(7, new GenericMapData(entries));
        RuntimeException stockError = assertThrows(RuntimeException.class, () -> stock.serialize(row));
        assertTrue(causeChain(stockError).contains("map-null-key.mode"), causeChain(stockError));
        SinkDescription sink = SinkDescription.of(stock.table().getResolvedSchema(), stock.options());
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonEncoder encoder = NativeJsonEncoder.open(sink, allocator);
                RowDataArrowWriter writer = new RowDataArrowWriter(stock.physicalRowType(), allocator)) {
            writer.append(GenericRowData.of(1, new GenericMapData(Map.of(StringData.fromString("a"), 1))));
            writer.append(row);
            KjsonMapNullKeyException error =
                    assertThrows(KjsonMapNullKeyException.class, () -> encoder.encode(writer.finish(), null));
            assertTrue(error.getMessage().contains("map-null-key.mode"), error.getMessage());
            assertTrue(error.getMessage().contains("m"), error.getMessage());
        }
    }

    /** Arrays of maps and maps in rows carry null keys at depth too (LITERAL). */
    @Test
    void nestedNullMapKeysUseTheLiteral() throws Exception {
        StockKafkaSink stock = StockKafkaSink.create("CREATE TABLE nested_literal (a ARRAY<MAP<STRING, INT>>)"
                + " WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092',"
                + " 'format' = 'json', 'json.map-null-key.mode' = 'LITERAL', 'json.map-null-key.literal' = 'k')");
        Map<Object, Object> entries = new LinkedHashMap<>();
        entries.put(null, 1);
        entries.put(StringData.fromString("k"), 2);
        GenericRowData row = GenericRowData.of(new GenericArrayData(new Object[] {new GenericMapData(entries), null}));
        SinkDescription sink = SinkDescription.of(stock.table().getResolvedSchema(), stock.options());
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonEncoder encoder = NativeJsonEncoder.open(sink, allocator);
                RowDataArrowWriter writer = new RowDataArrowWriter(stock.physicalRowType(), allocator)) {
            writer.append(row);
            EncodedBatch batch = encoder.encode(writer.finish(), null);
            assertEquals(text(stock.serialize(row).value()), text(batch.value(0)));
        }
    }

    /**
     * A LITERAL null key colliding with a real key, with ROW values and ignore-null-fields:
     * Flink converts the second value into the first one's JSON object (node reuse), so the
     * fields merge instead of the last value replacing the first.
     */
    @Test
    void literalKeyCollisionWithRowValues() throws Exception {
        StockKafkaSink stock = StockKafkaSink.create("CREATE TABLE literal_rows (m MAP<STRING, ROW<p INT, q INT>>)"
                + " WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092',"
                + " 'format' = 'json', 'json.map-null-key.mode' = 'LITERAL', 'json.encode.ignore-null-fields' = 'true')");
        Map<Object, Object> entries = new LinkedHashMap<>();
        entries.put(null, GenericRowData.of(null, 1));
        entries.put(StringData.fromString("null"), GenericRowData.of(2, null));
        GenericRowData row = GenericRowData.of(new GenericMapData(entries));
        SinkDescription sink = SinkDescription.of(stock.table().getResolvedSchema(), stock.options());
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonEncoder encoder = NativeJsonEncoder.open(sink, allocator);
                RowDataArrowWriter writer = new RowDataArrowWriter(stock.physicalRowType(), allocator)) {
            writer.append(row);
            EncodedBatch batch = encoder.encode(writer.finish(), null);
            assertEquals(text(stock.serialize(row).value()), text(batch.value(0)));
        }
    }

    /** INTERVAL columns exist only in a program's row type: stock JsonRowDataSerializationSchema vs native. */
    @Test
    void intervalsMatchTheJsonFormat() throws Exception {
        RowType type = (RowType) LogicalTypeParser.parse("ROW<ym INTERVAL YEAR TO MONTH, ds INTERVAL DAY TO SECOND(3),"
                + " a ARRAY<INTERVAL DAY TO SECOND(3)>>", getClass().getClassLoader());
        JsonRowDataSerializationSchema json = new JsonRowDataSerializationSchema(type, TimestampFormat.SQL,
                JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        json.open(null);
        SinkDescription sink = SinkDescription.of(type, List.of(), Map.of("connector", "kafka", "format", "json"));
        RandomRows random = new RandomRows(SEED, 0.2, false);
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonEncoder encoder = NativeJsonEncoder.open(sink, allocator);
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            List<RowData> rows = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                rows.add(random.row(type, RowKind.INSERT));
                writer.append(rows.get(i));
            }
            EncodedBatch batch = encoder.encode(writer.finish(), null);
            for (int i = 0; i < rows.size(); i++) {
                assertEquals(text(json.serialize(rows.get(i))), text(batch.value(i)), "row " + i + " seed " + SEED);
                assertTrue(batch.isNullKey(i));
            }
        }
    }

    private static String causeChain(Throwable t) {
        StringBuilder out = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            out.append(c.getMessage()).append(" | ");
        }
        return out.toString();
    }
}
