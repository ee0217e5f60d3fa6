package org.kjson.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.kjson.flink.support.StockKafkaSink;
import org.kjson.flink.support.StockKafkaSource;

/**
 * The native decoder through JNI against Flink's own read path: records written by Flink's own
 * Kafka sink serializer (and a few hand-written ones) are decoded by kjson and by the real Kafka
 * source deserializer of the same table ({@link StockKafkaSource}: the connector's
 * {@code KafkaRecordDeserializationSchema} over {@code JsonParserRowDataDeserializationSchema});
 * the rows, their RowKinds and their source records must be equal. The expected rows come from
 * Flink's jars at test time. Every test closes its allocator, which throws on leaked Arrow memory,
 * and checks that no decoder handle is left open.
 */
class NativeJsonDecoderTest {
    /** The Flink line on the classpath (the oracle's) and this JVM's float spelling. */
    static final Compatibility TARGET = Compatibility.ofRunningFlink();

    static final String FLAT = "CREATE TABLE flat (id BIGINT, name STRING, price DECIMAL(10, 2), score DOUBLE,"
            + " ok BOOLEAN, d DATE, ts TIMESTAMP(3), bin BYTES) WITH ('connector' = 'kafka', 'topic' = 'flat',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',"
            + " 'format' = 'json')";
    static final String NESTED = "CREATE TABLE nested (id INT, r ROW<a INT, b STRING>, tags ARRAY<STRING>,"
            + " m MAP<STRING, BIGINT>, items ARRAY<ROW<x DOUBLE, y ARRAY<INT>>>) WITH ('connector' = 'kafka',"
            + " 'topic' = 'nested', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')";
    static final String UPSERT = "CREATE TABLE upserts (id BIGINT, name STRING, score DOUBLE,"
            + " PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'upsert',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'key.format' = 'json', 'value.format' = 'json')";

    private BufferAllocator allocator;
    private int handlesBefore;

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator();
        handlesBefore = NativeJsonDecoder.openHandleCount();
    }

    @AfterEach
    void tearDown() {
        allocator.close(); // throws IllegalStateException on leaked Arrow memory
        assertEquals(handlesBefore, NativeJsonDecoder.openHandleCount(), "a test left a decoder handle open");
    }

    /** Kafka records: key (null for none) and value (null for a tombstone). */
    record Input(List<byte[]> keys, List<byte[]> values) {
        Input() {
            this(new ArrayList<>(), new ArrayList<>());
        }

        void add(byte[] key, byte[] value) {
            keys.add(key);
            values.add(value);
        }

        void add(ProducerRecord<byte[], byte[]> record) {
            add(record.key(), record.value());
        }

        void addText(String key, String value) {
            add(key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                    value == null ? null : value.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** What Flink's source emits for each record: rows as canonical values, their kinds and records. */
    record Expected(List<List<Object>> rows, List<Byte> kinds, List<Integer> records, List<Integer> failed) {}

    static Expected flinkReads(StockKafkaSink table, Input input) throws Exception {
        StockKafkaSource source = StockKafkaSource.of(table.table());
        RowType rowType = source.physicalRowType();
        Expected out = new Expected(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int i = 0; i < input.values().size(); i++) {
            List<RowData> rows;
            try {
                rows = source.deserialize(input.keys().get(i), input.values().get(i));
            } catch (Exception e) {
                out.failed().add(i);
                source = StockKafkaSource.of(table.table()); // a restarted task: the key buffer is gone
                continue;
            }
            for (RowData row : rows) {
                out.rows().add(flinkRow(row, rowType));
                out.kinds().add(row.getRowKind().toByteValue());
                out.records().add(i);
            }
        }
        return out;
    }

    static void assertSameRows(Expected expected, DecodedBatch batch) {
        List<List<Object>> rows = new ArrayList<>();
        List<Byte> kinds = new ArrayList<>();
        List<Integer> records = new ArrayList<>();
        assertFalse(expected.rows().isEmpty(), "Flink read no rows: the comparison would be empty");
        VectorSchemaRoot root = batch.root();
        assertEquals(batch.rowCount(), root.getRowCount());
        for (int r = 0; r < root.getRowCount(); r++) {
            List<Object> row = new ArrayList<>();
            for (ValueVector v : root.getFieldVectors()) {
                row.add(arrow(v, r));
            }
            rows.add(row);
            kinds.add(batch.rowKind(r));
            records.add(batch.record(r));
        }
        assertEquals(expected.rows(), rows, "rows");
        assertEquals(expected.kinds(), kinds, "row kinds");
        assertEquals(expected.records(), records, "source records");
    }

    // ---- Canonical values: the same Java objects from Flink's RowData and from Arrow vectors.

    static List<Object> flinkRow(RowData row, RowType type) {
        List<Object> out = new ArrayList<>();
        for (int f = 0; f < type.getFieldCount(); f++) {
            // Nullable getters: a decoder leaves a NOT NULL field null when the JSON lacks it (and
            // Flink 1.20's getter of a NOT NULL field does not check).
            LogicalType field = type.getTypeAt(f).copy(true);
            out.add(flink(RowData.createFieldGetter(field, f).getFieldOrNull(row), field));
        }
        return out;
    }

    static Object flink(Object value, LogicalType type) {
        if (value == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case CHAR, VARCHAR:
                return value.toString();
            case DECIMAL:
                return ((DecimalData) value).toBigDecimal();
            case DATE:
                return LocalDate.ofEpochDay((Integer) value);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return ((TimestampData) value).toLocalDateTime();
            case BINARY, VARBINARY:
                return HexFormat.of().formatHex((byte[]) value);
            case ROW:
                return flinkRow((RowData) value, (RowType) type);
            case ARRAY: {
                LogicalType element = ((ArrayType) type).getElementType().copy(true);
                ArrayData array = (ArrayData) value;
                ArrayData.ElementGetter getter = ArrayData.createElementGetter(element);
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < array.size(); i++) {
                    out.add(flink(getter.getElementOrNull(array, i), element));
                }
                return out;
            }
            case MAP: {
                MapType map = (MapType) type;
                MapData data = (MapData) value;
                List<?> keys = (List<?>) flink(data.keyArray(), new ArrayType(map.getKeyType()));
                List<?> values = (List<?>) flink(data.valueArray(), new ArrayType(map.getValueType()));
                Map<Object, Object> out = new HashMap<>();
                for (int i = 0; i < keys.size(); i++) {
                    out.put(keys.get(i), values.get(i));
                }
                return out;
            }
            default:
                return value; // Boolean, Byte, Short, Integer, Long, Float, Double
        }
    }

    static Object arrow(ValueVector v, int i) {
        if (v.isNull(i)) {
            return null;
        }
        if (v instanceof MapVector m) {
            StructVector entries = (StructVector) m.getDataVector();
            Map<Object, Object> out = new HashMap<>();
            for (int j = m.getElementStartIndex(i); j < m.getElementEndIndex(i); j++) {
                out.put(arrow(entries.getChildByOrdinal(0), j), arrow(entries.getChildByOrdinal(1), j));
            }
            return out;
        }
        if (v instanceof ListVector l) {
            List<Object> out = new ArrayList<>();
            for (int j = l.getElementStartIndex(i); j < l.getElementEndIndex(i); j++) {
                out.add(arrow(l.getDataVector(), j));
            }
            return out;
        }
        if (v instanceof StructVector s) {
            List<Object> out = new ArrayList<>();
            for (int c = 0; c < s.size(); c++) {
                out.add(arrow(s.getChildByOrdinal(c), i));
            }
            return out;
        }
        if (v instanceof VarCharVector s) {
            return new String(s.get(i), StandardCharsets.UTF_8);
        }
        if (v instanceof VarBinaryVector b) {
            return HexFormat.of().formatHex(b.get(i));
        }
        if (v instanceof DateDayVector d) {
            return LocalDate.ofEpochDay(d.get(i));
        }
        if (v instanceof DecimalVector d) {
            return d.getObject(i);
        }
        return v.getObject(i); // Bit, Int, BigInt, Float8, TimeStampMilli (LocalDateTime)
    }

    // ---- Tables and their records

    private static DecimalData decimal(String text) {
        return DecimalData.fromBigDecimal(new BigDecimal(text), 10, 2);
    }

    static Input flatRecords(StockKafkaSink sink) {
        Input in = new Input();
        in.add(sink.serialize(GenericRowData.of(1L, StringData.fromString("a\"b é"), decimal("12.34"), 1.5d, true,
                (int) LocalDate.of(2024, 2, 29).toEpochDay(),
                TimestampData.fromLocalDateTime(LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_000_000)),
                new byte[] {0, 1, (byte) 0xff})));
        in.add(sink.serialize(GenericRowData.of(2L, null, null, null, null, null, null, null)));
        in.add(sink.serialize(GenericRowData.of(-3L, StringData.fromString(""), decimal("-0.01"), -0.0d, false,
                0, TimestampData.fromEpochMillis(0), new byte[0])));
        // Hand-written: missing and unknown fields, whitespace, a number as a string, an empty message.
        in.addText(null, "{\"id\": 4, \"extra\": {\"deep\": [1, 2]}}");
        in.addText(null, " {\"name\":\"x\",\"score\":1e3,\"id\":\"5\"} ");
        in.addText(null, "");
        return in;
    }

    @Test
    void flatRowsAreFlinksRows() throws Exception {
        StockKafkaSink sink = StockKafkaSink.create(FLAT);
        Input in = flatRecords(sink);
        Expected expected = flinkReads(sink, in);
        assertTrue(expected.failed().isEmpty(), "Flink failed records " + expected.failed());
        try (NativeJsonDecoder decoder = NativeJsonDecoder.open(FLAT, TARGET, allocator);
                DecodedBatch batch = decoder.decode(null, in.values())) {
            assertEquals(List.of("id", "name", "price", "score", "ok", "d", "ts", "bin"),
                    decoder.schema().getFields().stream().map(f -> f.getName()).toList());
            assertSameRows(expected, batch);
            assertTrue(batch.errors().isEmpty());
        }
    }

    @Test
    void nestedRowsAreFlinksRows() throws Exception {
        StockKafkaSink sink = StockKafkaSink.create(NESTED);
        Input in = new Input();
        Map<StringData, Long> m = new HashMap<>();
        m.put(StringData.fromString("k1"), 1L);
        m.put(StringData.fromString("k2"), null);
        in.add(sink.serialize(GenericRowData.of(1, GenericRowData.of(7, StringData.fromString("b")),
                new GenericArrayData(new Object[] {StringData.fromString("t"), null}), new GenericMapData(m),
                new GenericArrayData(new Object[] {GenericRowData.of(0.5d, new GenericArrayData(new int[] {1, 2})),
                    null, GenericRowData.of(null, null)}))));
        in.add(sink.serialize(GenericRowData.of(2, null, new GenericArrayData(new Object[0]),
                new GenericMapData(Map.of()), null)));
        in.addText(null, "{\"id\":3,\"r\":{\"b\":\"only b\"},\"tags\":[\"x\",null,\"z\"],\"m\":{\"a\":9},"
                + "\"items\":[{\"y\":[]}]}");
        in.addText(null, "{\"id\":4,\"r\":null,\"tags\":null,\"m\":null,\"items\":[]}");
        Expected expected = flinkReads(sink, in);
        assertTrue(expected.failed().isEmpty(), "Flink failed records " + expected.failed());
        SinkDescription parts = SinkDescription.of(sink.table().getResolvedSchema(), sink.options());
        try (NativeJsonDecoder decoder = NativeJsonDecoder.open(parts, TARGET, allocator);
                DecodedBatch batch = decoder.decode(null, in.values())) {
            assertSameRows(expected, batch);
        }
    }

    @Test
    void upsertTombstonesAreDeletesOfTheirKey() throws Exception {
        StockKafkaSink sink = StockKafkaSink.create(UPSERT);
        Input in = new Input();
        in.add(sink.serialize(GenericRowData.of(1L, StringData.fromString("one"), 1.0d)));
        GenericRowData deleted = GenericRowData.of(2L, StringData.fromString("two"), 2.0d);
        deleted.setRowKind(RowKind.DELETE);
        ProducerRecord<byte[], byte[]> tombstone = sink.serialize(deleted);
        assertEquals(null, tombstone.value(), "Flink's upsert sink writes a tombstone");
        in.add(tombstone);
        in.add(sink.serialize(GenericRowData.of(3L, null, null)));
        in.addText("{\"id\":4}", "{\"name\":\"value without id\"}");
        Expected expected = flinkReads(sink, in);
        assertTrue(expected.failed().isEmpty(), "Flink failed records " + expected.failed());
        assertTrue(expected.kinds().contains(RowKind.DELETE.toByteValue()), "Flink read a DELETE");
        try (NativeJsonDecoder decoder = NativeJsonDecoder.open(UPSERT, TARGET, allocator);
                DecodedBatch batch = decoder.decode(in.keys(), in.values())) {
            assertSameRows(expected, batch);
        }
    }

    @Test
    void aMalformedRecordFailsTheBatchWithItsIndexOrIsCollected() throws Exception {
        StockKafkaSink sink = StockKafkaSink.create(FLAT);
        Input in = flatRecords(sink);
        in.addText(null, "{\"id\": 1, \"name\": ");
        in.addText(null, "{\"id\": 99}");
        int bad = in.values().size() - 2;
        Expected expected = flinkReads(sink, in);
        assertEquals(List.of(bad), expected.failed(), "Flink fails exactly the malformed record");

        try (NativeJsonDecoder decoder = NativeJsonDecoder.open(FLAT, TARGET, allocator)) {
            KjsonRecordException e = assertThrows(KjsonRecordException.class, () -> decoder.decode(null, in.values()));
            assertEquals(bad, e.record());
            assertTrue(e.getMessage().startsWith("record " + bad + ": Failed to deserialize JSON"), e.getMessage());

            // The decoder is still usable, and collects instead when told to.
            decoder.onError(NativeJsonDecoder.OnError.COLLECT);
            try (DecodedBatch batch = decoder.decode(null, in.values())) {
                assertSameRows(expected, batch);
                assertEquals(1, batch.errors().size());
                assertEquals(bad, batch.errors().get(0).record());
                assertTrue(batch.errors().get(0).message().startsWith("Failed to deserialize JSON"),
                        batch.errors().get(0).message());
            }
        }
    }

    @Test
    void badArgumentsAreRefusedWithoutLeaking() {
        try (NativeJsonDecoder decoder = NativeJsonDecoder.open(FLAT, TARGET, allocator)) {
            byte[] data = "{}".getBytes(StandardCharsets.UTF_8);
            assertThrows(IllegalArgumentException.class,
                    () -> decoder.decode(null, null, null, data, new int[] {0}, new int[] {2, 2}));
            KjsonSchemaException outside = assertThrows(KjsonSchemaException.class,
                    () -> decoder.decode(null, null, null, data, new int[] {1}, new int[] {5}));
            assertTrue(outside.getMessage().contains("outside the slab"), outside.getMessage());
            try (DecodedBatch batch = decoder.decode(null, null, null, data, new int[] {0}, new int[] {2})) {
                assertEquals(1, batch.rowCount());
            }
        }
        KjsonSpecException spec = assertThrows(KjsonSpecException.class,
                () -> NativeJsonDecoder.open("CREATE TABLE t (a INTEGR) WITH ('connector' = 'kafka')", TARGET, allocator));
        assertTrue(spec.getMessage().contains("INTEGR"), spec.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> NativeJsonDecoder.open(FLAT, new Compatibility("9.9", "jdk17"), allocator));
    }

    static final String TIMESTAMPS = "CREATE TABLE stamps (ts0 TIMESTAMP(0), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9))"
            + " WITH ('connector' = 'kafka', 'topic' = 'stamps', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')";

    /** The layout a source asks for keeps the digits Flink's deserializer reads past the precision. */
    @Test
    void timestampsAsFlinkRowsKeepTheDeserializersDigits() throws Exception {
        StockKafkaSink sink = StockKafkaSink.create(TIMESTAMPS);
        Input in = new Input();
        in.addText(null, "{\"ts0\":\"1969-12-31 23:59:59.987654\",\"ts6\":\"2024-02-29 23:59:58.123456789\","
                + "\"ts9\":\"2024-02-29 23:59:58.1\"}");
        List<RowData> flink = StockKafkaSource.of(sink.table()).deserialize(null, in.values().get(0));
        assertEquals(1, flink.size());
        TimestampData ts0 = flink.get(0).getTimestamp(0, 0);
        TimestampData ts6 = flink.get(0).getTimestamp(1, 6);
        assertEquals(654_000, ts0.getNanoOfMillisecond(), "Flink's deserializer keeps the digits past precision 0");
        try (NativeJsonDecoder decoder = NativeJsonDecoder.open(TIMESTAMPS, TARGET, allocator)) {
            try (DecodedBatch cut = decoder.decode(null, in.values())) {
                assertEquals(LocalDateTime.of(1969, 12, 31, 23, 59, 59), arrow(cut.root().getVector(0), 0));
                assertEquals(LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_456_000), arrow(cut.root().getVector(1), 0));
            }
            decoder.timestampLayout(NativeJsonDecoder.TimestampLayout.AS_FLINK_ROWS);
            assertEquals("Timestamp(MILLISECOND, null)", decoder.schema().getFields().get(0).getType().toString());
            try (DecodedBatch kept = decoder.decode(null, in.values())) {
                assertEquals(ts0.getMillisecond(), ((TimeStampMilliVector) kept.root().getVector(0)).get(0));
                assertEquals(List.of(ts6.getMillisecond(), ts6.getNanoOfMillisecond()),
                        arrow(kept.root().getVector(1), 0));
            }
        }
    }

    @Test
    void useAfterCloseIsAnErrorAndCloseIsIdempotent() {
        NativeJsonDecoder decoder = NativeJsonDecoder.open(UPSERT, TARGET, allocator);
        long handle = decoder.handle();
        decoder.close();
        decoder.close();
        assertFalse(decoder.isOpen());
        assertThrows(IllegalStateException.class, () -> decoder.decode(null, List.of(new byte[0])));
        assertThrows(IllegalStateException.class, () -> decoder.onError(NativeJsonDecoder.OnError.COLLECT));
        // The stale handle reaches the native registry, which refuses it.
        try (ArrowArray out = ArrowArray.allocateNew(allocator)) {
            IllegalStateException stale = assertThrows(IllegalStateException.class, () -> NativeJsonDecoder.decode(
                    handle, null, null, null, new byte[0], new int[0], new int[0], out.memoryAddress(), null));
            assertTrue(stale.getMessage().contains("closed or was never opened"), stale.getMessage());
        }
        assertThrows(IllegalStateException.class, () -> NativeJsonDecoder.close(handle));
    }

    @Test
    void manyBatchesLeakNothing() throws Exception {
        StockKafkaSink sink = StockKafkaSink.create(NESTED);
        Input in = new Input();
        for (int i = 0; i < 200; i++) {
            in.addText(null, "{\"id\":" + i + ",\"tags\":[\"a\",\"b\"],\"m\":{\"k\":" + i + "},\"items\":[{\"x\":1.5}]}");
        }
        assertEquals(200, flinkReads(sink, in).rows().size());
        try (NativeJsonDecoder decoder = NativeJsonDecoder.open(NESTED, TARGET, allocator)) {
            for (int round = 0; round < 50; round++) {
                try (DecodedBatch batch = decoder.decode(null, in.values())) {
                    assertEquals(200, batch.rowCount());
                    assertArrayEquals(new int[] {0, 1, 2}, java.util.Arrays.copyOf(batch.records(), 3));
                }
            }
        }
        assertEquals(0, allocator.getAllocatedMemory());
    }
}
