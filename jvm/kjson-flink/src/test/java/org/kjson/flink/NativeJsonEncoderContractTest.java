package org.kjson.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.kjson.flink.arrow.RowDataArrowWriter;
import org.kjson.testkit.RandomRows;

/**
 * The JNI contract: errors become the right exceptions with useful messages, misuse never
 * crashes, an exported C Data batch is released exactly once on every path, handles work in
 * parallel, and long runs do not grow native memory. Every test closes its allocator, which
 * throws if any Arrow memory leaked.
 */
class NativeJsonEncoderContractTest {
    static final RowType ROW = (RowType) LogicalTypeParser.parse(
            "ROW<id BIGINT, name STRING, price DECIMAL(10, 2), tags MAP<STRING, INT>>", NativeJsonEncoderContractTest.class.getClassLoader());
    static final Compatibility TARGET = new Compatibility("2.2", "jdk17");

    private BufferAllocator allocator;
    private int handlesBefore;

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator();
        handlesBefore = NativeJsonEncoder.openHandleCount();
    }

    @AfterEach
    void tearDown() {
        allocator.close(); // throws IllegalStateException on leaked Arrow memory
        assertEquals(handlesBefore, NativeJsonEncoder.openHandleCount(), "a test left a native handle open");
    }

    static SinkDescription upsertSink(Map<String, String> extra) {
        Map<String, String> options = new java.util.HashMap<>(Map.of("connector", "upsert-kafka", "key.format", "json",
                "value.format", "json"));
        options.putAll(extra);
        return SinkDescription.of(ROW, List.of("id"), options);
    }

    private NativeJsonEncoder open(SinkDescription sink, NativeJsonEncoder.Handoff handoff) {
        return NativeJsonEncoder.open(sink, TARGET, allocator, handoff);
    }

    private RowDataArrowWriter batch(RowType type, RowData... rows) {
        RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator);
        for (RowData row : rows) {
            writer.append(row);
        }
        writer.finish();
        return writer;
    }

    private static RowData row(long id, String name) {
        return GenericRowData.of(id, org.apache.flink.table.data.StringData.fromString(name),
                org.apache.flink.table.data.DecimalData.fromUnscaledLong(12345, 10, 2), null);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void encodesKeysValuesAndTombstones() {
        try (NativeJsonEncoder encoder = open(upsertSink(Map.of()), NativeJsonEncoder.Handoff.ARRAYS);
                RowDataArrowWriter writer = batch(ROW, row(1, "a"), row(2, "b"))) {
            EncodedBatch out = encoder.encode(writer.root(), new byte[] {RowKind.INSERT.toByteValue(), RowKind.DELETE.toByteValue()});
            assertEquals(2, out.size());
            assertEquals("{\"id\":1}", text(out.key(0)));
            assertEquals("{\"id\":1,\"name\":\"a\",\"price\":123.45,\"tags\":null}", text(out.value(0)));
            assertEquals("{\"id\":2}", text(out.key(1)));
            assertTrue(out.isTombstone(1));
            assertNull(out.value(1));
            assertNull(out.valueView(1));
            assertEquals("{\"id\":2}", StandardCharsets.UTF_8.decode(out.keyView(1)).toString());
        }
    }

    /** A million rows in one batch, then one 100 MB string, then a small batch: all correct over JNI. */
    @Test
    void batchesFarLargerThanUsualEncodeAndLeaveTheHandleUsable() {
        try (NativeJsonEncoder encoder = open(upsertSink(Map.of()), NativeJsonEncoder.Handoff.DIRECT)) {
            int rows = 1_000_000;
            try (RowDataArrowWriter writer = new RowDataArrowWriter(ROW, allocator)) {
                for (int i = 0; i < rows; i++) {
                    writer.append(row(i, "n" + i));
                }
                EncodedBatch out = encoder.encode(writer.finish(), null);
                assertEquals(rows, out.size());
                assertEquals("{\"id\":999999}", text(out.key(rows - 1)));
                assertEquals("{\"id\":999999,\"name\":\"n999999\",\"price\":123.45,\"tags\":null}", text(out.value(rows - 1)));
            }
            String huge = "x".repeat(100 << 20);
            try (RowDataArrowWriter writer = batch(ROW, row(7, huge))) {
                EncodedBatch out = encoder.encode(writer.root(), null);
                byte[] value = out.value(0);
                String prefix = "{\"id\":7,\"name\":\"";
                assertEquals(prefix.length() + huge.length() + "\",\"price\":123.45,\"tags\":null}".length(), value.length);
                assertEquals(prefix, new String(value, 0, prefix.length(), StandardCharsets.UTF_8));
                assertEquals('x', (char) value[value.length / 2]);
            }
            try (RowDataArrowWriter writer = batch(ROW, row(1, "a"))) {
                assertEquals("{\"id\":1,\"name\":\"a\",\"price\":123.45,\"tags\":null}",
                        text(encoder.encode(writer.root(), null).value(0)));
            }
        }
    }

    @Test
    void specErrorsNameTheOption() {
        KjsonSpecException bad = assertThrows(KjsonSpecException.class,
                () -> open(upsertSink(Map.of("value.json.timestamp-format.standard", "iso")), NativeJsonEncoder.Handoff.ARRAYS));
        assertTrue(bad.getMessage().contains("timestamp-format.standard"), bad.getMessage());
        KjsonSpecException unknown = assertThrows(KjsonSpecException.class,
                () -> open(upsertSink(Map.of("value.json.no-such-option", "x")), NativeJsonEncoder.Handoff.ARRAYS));
        assertTrue(unknown.getMessage().contains("no-such-option"), unknown.getMessage());
    }

    @Test
    void unsupportedTypesNameTheColumn() {
        RowType multiset = (RowType) LogicalTypeParser.parse("ROW<id INT, counts MULTISET<INT>>", getClass().getClassLoader());
        SinkDescription sink = SinkDescription.of(multiset, List.of(), Map.of("connector", "kafka", "format", "json"));
        KjsonSpecException error = assertThrows(KjsonSpecException.class, () -> open(sink, NativeJsonEncoder.Handoff.ARRAYS));
        assertTrue(error.getMessage().contains("MULTISET<INT>"), error.getMessage());
        // A type string that does not parse is a spec error too (engines may pass their own strings).
        String[] kafkaJson = {"connector", "kafka", "format", "json"};
        assertThrows(KjsonSpecException.class, () -> NativeJsonEncoder.open("", new String[] {"a"}, new String[] {"BIGINTT"},
                new String[0], kafkaJson, "2.2", "jdk17"));
        assertThrows(IllegalArgumentException.class, () -> NativeJsonEncoder.open("", new String[] {"a"}, new String[] {"INT"},
                new String[0], kafkaJson, "9.9", "jdk17"));
        assertThrows(IllegalArgumentException.class, () -> NativeJsonEncoder.open(null, null, null, null, null, null, null));
    }

    /** The Kafka connectors' projection rules run natively, from the options as written, with Flink's messages. */
    @Test
    void projectionRulesNameTheOptionAndColumn() {
        Map<String, String> keyed = Map.of("connector", "kafka", "key.format", "json", "key.fields", "nope",
                "value.format", "json");
        KjsonSpecException missing = assertThrows(KjsonSpecException.class,
                () -> open(SinkDescription.of(ROW, List.of(), keyed), NativeJsonEncoder.Handoff.ARRAYS));
        assertTrue(missing.getMessage().contains("Could not find the field 'nope'")
                && missing.getMessage().contains("'key.fields'"), missing.getMessage());
        Map<String, String> upsert = Map.of("connector", "upsert-kafka", "key.format", "json", "value.format", "json");
        KjsonSpecException noKey = assertThrows(KjsonSpecException.class,
                () -> open(SinkDescription.of(ROW, List.of(), upsert), NativeJsonEncoder.Handoff.ARRAYS));
        assertTrue(noKey.getMessage().contains("require to define a PRIMARY KEY"), noKey.getMessage());
        Map<String, String> prefixed = Map.of("connector", "upsert-kafka", "key.format", "json", "value.format", "json",
                "key.fields-prefix", "x_", "value.fields-include", "EXCEPT_KEY");
        KjsonSpecException prefix = assertThrows(KjsonSpecException.class,
                () -> open(SinkDescription.of(ROW, List.of("id"), prefixed), NativeJsonEncoder.Handoff.ARRAYS));
        assertTrue(prefix.getMessage().contains("must be prefixed with 'x_'")
                && prefix.getMessage().contains("field 'id'"), prefix.getMessage());
    }

    @Test
    void schemaMismatchNamesColumnAndTypes() {
        RowType wrong = (RowType) LogicalTypeParser.parse(
                "ROW<id INT, name STRING, price DECIMAL(10, 2), tags MAP<STRING, INT>>", getClass().getClassLoader());
        try (NativeJsonEncoder encoder = open(upsertSink(Map.of()), NativeJsonEncoder.Handoff.ARRAYS);
                RowDataArrowWriter writer = batch(wrong, GenericRowData.of(1, null, null, null))) {
            List<Integer> baseline = refCounts(writer.root());
            KjsonSchemaException error = assertThrows(KjsonSchemaException.class, () -> encoder.encode(writer.root(), null));
            assertTrue(error.getMessage().contains("`id`"), error.getMessage());
            assertTrue(error.getMessage().contains("BIGINT") && error.getMessage().contains("Int32"), error.getMessage());
            assertEquals(baseline, refCounts(writer.root()), "released on the error path");
        }
    }

    @Test
    void badRowKindsAreASchemaError() {
        try (NativeJsonEncoder encoder = open(upsertSink(Map.of()), NativeJsonEncoder.Handoff.ARRAYS);
                RowDataArrowWriter writer = batch(ROW, row(1, "a"))) {
            List<Integer> baseline = refCounts(writer.root());
            assertThrows(KjsonSchemaException.class, () -> encoder.encode(writer.root(), new byte[] {9}));
            assertThrows(KjsonSchemaException.class, () -> encoder.encode(writer.root(), new byte[] {0, 0}));
            assertEquals(baseline, refCounts(writer.root()), "released on the error path");
            assertEquals(1, encoder.encode(writer.root(), null).size(), "the handle stays usable after errors");
        }
    }

    @Test
    void misuseRaisesInsteadOfCrashing() {
        NativeJsonEncoder encoder = open(upsertSink(Map.of()), NativeJsonEncoder.Handoff.ARRAYS);
        long handle = encoder.handle();
        encoder.close();
        assertThrows(IllegalStateException.class, encoder::close);
        try (RowDataArrowWriter writer = batch(ROW, row(1, "a"))) {
            assertThrows(IllegalStateException.class, () -> encoder.encode(writer.root(), null));
        }
        Object[] out = new Object[6];
        // The native side checks too: zero, closed and forged handles.
        assertThrows(IllegalStateException.class, () -> NativeJsonEncoder.close(0));
        assertThrows(IllegalStateException.class, () -> NativeJsonEncoder.close(handle));
        assertThrows(IllegalStateException.class, () -> NativeJsonEncoder.close(handle + 12345));
        assertThrows(IllegalArgumentException.class, () -> NativeJsonEncoder.encodeToArrays(handle, 0, 0, null, out));
        try (RowDataArrowWriter writer = batch(ROW, row(1, "a"))) {
            List<Integer> baseline = refCounts(writer.root());
            for (long bad : new long[] {0, handle, -1}) {
                try (ArrowArray array = ArrowArray.allocateNew(allocator); ArrowSchema schema = ArrowSchema.allocateNew(allocator)) {
                    Data.exportVectorSchemaRoot(allocator, writer.root(), null, array, schema);
                    assertThrows(IllegalStateException.class,
                            () -> NativeJsonEncoder.encodeToArrays(bad, array.memoryAddress(), schema.memoryAddress(), null, out));
                    assertEquals(0, array.snapshot().release, "the export is consumed even when the handle is bad");
                }
                assertEquals(baseline, refCounts(writer.root()), "released although the handle is bad");
            }
        }
    }

    @Test
    void anExportIsReleasedExactlyOnceAndCannotBeEncodedTwice() {
        try (NativeJsonEncoder encoder = open(upsertSink(Map.of()), NativeJsonEncoder.Handoff.ARRAYS);
                RowDataArrowWriter writer = batch(ROW, row(1, "a"), row(2, "b"));
                ArrowArray array = ArrowArray.allocateNew(allocator);
                ArrowSchema schema = ArrowSchema.allocateNew(allocator)) {
            List<Integer> baseline = refCounts(writer.root());
            Data.exportVectorSchemaRoot(allocator, writer.root(), null, array, schema);
            int held = refCounts(writer.root()).stream().mapToInt(Integer::intValue).sum();
            assertTrue(held > baseline.stream().mapToInt(Integer::intValue).sum(), "the export holds the buffers");
            assertEquals(2, encoder.encode(array.memoryAddress(), schema.memoryAddress(), null).size());
            assertEquals(baseline, refCounts(writer.root()), "released once: back to the root's own references");
            assertEquals(0, array.snapshot().release);
            IllegalArgumentException again = assertThrows(IllegalArgumentException.class,
                    () -> encoder.encode(array.memoryAddress(), schema.memoryAddress(), null));
            assertTrue(again.getMessage().contains("already released"), again.getMessage());
            assertEquals(baseline, refCounts(writer.root()), "not released a second time");
        }
    }

    @Test
    void aZeroSchemaAddressReusesThePreviousBatchType() {
        try (NativeJsonEncoder encoder = open(upsertSink(Map.of()), NativeJsonEncoder.Handoff.ARRAYS);
                RowDataArrowWriter writer = batch(ROW, row(1, "a"), row(2, "b"));
                ArrowArray array = ArrowArray.allocateNew(allocator)) {
            List<Integer> baseline = refCounts(writer.root());
            Data.exportVectorSchemaRoot(allocator, writer.root(), null, array);
            IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                    () -> encoder.encode(array.memoryAddress(), 0, null));
            assertTrue(none.getMessage().contains("not imported a schema yet"), none.getMessage());
            assertEquals(baseline, refCounts(writer.root()), "released although refused");
            EncodedBatch first = encoder.encode(writer.root(), null); // sends the schema once
            Data.exportVectorSchemaRoot(allocator, writer.root(), null, array);
            EncodedBatch second = encoder.encode(array.memoryAddress(), 0, null);
            assertEquals(text(first.value(1)), text(second.value(1)));
            assertEquals(baseline, refCounts(writer.root()));
        }
    }

    /**
     * Reference counts of all buffers of a root (arrow-java counts one reference per buffer
     * slice, so the baseline is not 1). An export adds references; the release drops them.
     */
    static List<Integer> refCounts(VectorSchemaRoot root) {
        List<Integer> counts = new ArrayList<>();
        for (FieldVector vector : root.getFieldVectors()) {
            collectRefCounts(vector, counts);
        }
        return counts;
    }

    private static void collectRefCounts(FieldVector vector, List<Integer> counts) {
        for (ArrowBuf buffer : vector.getFieldBuffers()) {
            counts.add(buffer.getReferenceManager().getRefCount());
        }
        for (FieldVector child : vector.getChildrenFromFields()) {
            collectRefCounts(child, counts);
        }
    }

    @Test
    void directBatchesGoStaleAtTheNextEncode() {
        NativeJsonEncoder encoder = open(upsertSink(Map.of()), NativeJsonEncoder.Handoff.DIRECT);
        try (RowDataArrowWriter writer = batch(ROW, row(1, "a"))) {
            EncodedBatch first = encoder.encode(writer.root(), null);
            byte[] copy = first.value(0);
            EncodedBatch second = encoder.encode(writer.root(), null);
            assertThrows(IllegalStateException.class, () -> first.value(0));
            assertArrayEquals(copy, second.value(0));
            encoder.close();
            assertThrows(IllegalStateException.class, () -> second.key(0));
        }
    }

    @Test
    void manyHandlesEncodeInParallel() throws Exception {
        RowType type = ROW;
        SinkDescription sink = upsertSink(Map.of("value.json.map-null-key.mode", "DROP"));
        List<RowData> rows = new ArrayList<>();
        RandomRows random = new RandomRows(42, 0.2, true);
        for (int i = 0; i < 500; i++) {
            rows.add(random.row(type, random.kind()));
        }
        List<String> expected = encodeAll(sink, type, rows, allocator);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                results.add(pool.submit(() -> {
                    try (BufferAllocator child = allocator.newChildAllocator("thread", 0, Long.MAX_VALUE)) {
                        List<String> last = null;
                        for (int round = 0; round < 20; round++) {
                            last = encodeAll(sink, type, rows, child);
                        }
                        return last;
                    }
                }));
            }
            for (Future<List<String>> result : results) {
                assertEquals(expected, result.get());
            }
        } finally {
            pool.shutdown();
        }
    }

    private static List<String> encodeAll(SinkDescription sink, RowType type, List<RowData> rows, BufferAllocator allocator) {
        List<String> out = new ArrayList<>();
        try (NativeJsonEncoder encoder = NativeJsonEncoder.open(sink, TARGET, allocator, NativeJsonEncoder.Handoff.ARRAYS);
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            for (int start = 0; start < rows.size(); start += 97) {
                for (RowData row : rows.subList(start, Math.min(rows.size(), start + 97))) {
                    writer.append(row);
                }
                EncodedBatch batch = encoder.encode(writer.finish(), writer.rowKinds());
                for (int i = 0; i < batch.size(); i++) {
                    out.add(text(batch.key(i)) + " => " + text(batch.value(i)));
                }
                writer.reset();
            }
        }
        return out;
    }

    @Test
    void longLoopsDoNotGrowNativeMemory() throws Exception {
        SinkDescription sink = upsertSink(Map.of("value.json.map-null-key.mode", "LITERAL"));
        List<RowData> rows = new ArrayList<>();
        RandomRows random = new RandomRows(7, 0.1, true);
        for (int i = 0; i < 1000; i++) {
            rows.add(random.row(ROW, random.kind()));
        }
        try (RowDataArrowWriter writer = new RowDataArrowWriter(ROW, allocator)) {
            rows.forEach(writer::append);
            writer.finish();
            byte[] kinds = writer.rowKinds();
            List<Integer> baseline = refCounts(writer.root());
            Runnable workload = () -> {
                for (NativeJsonEncoder.Handoff handoff : NativeJsonEncoder.Handoff.values()) {
                    try (NativeJsonEncoder encoder = open(sink, handoff)) {
                        for (int i = 0; i < 50; i++) {
                            encoder.encode(writer.root(), kinds);
                        }
                    }
                }
                try (NativeJsonEncoder encoder = open(sink, NativeJsonEncoder.Handoff.ARRAYS)) {
                    assertThrows(KjsonSchemaException.class, () -> encoder.encode(writer.root(), new byte[] {1}));
                }
            };
            for (int i = 0; i < 20; i++) {
                workload.run();
            }
            System.gc();
            long before = ResidentMemory.kilobytes();
            for (int i = 0; i < 200; i++) {
                workload.run();
            }
            System.gc();
            long growth = ResidentMemory.kilobytes() - before;
            System.out.printf("long loop: 20000 batches of 1000 rows, 600 handles; VmRSS grew by %d kB%n", growth);
            assertTrue(growth < 64 * 1024, "resident memory grew by " + growth + " kB");
            assertEquals(baseline, refCounts(writer.root()));
        }
    }
}
