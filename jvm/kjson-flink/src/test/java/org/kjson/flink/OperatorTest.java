package org.kjson.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.kjson.flink.arrow.ArrowSchemas;
import org.kjson.flink.arrow.RowDataArrowWriter;
import org.kjson.flink.support.StockKafkaSink;
import org.kjson.testkit.RandomRows;

/** The DataStream operators and the Kafka serialization schema, against the stock Kafka table sink. */
class OperatorTest {
    private static StockKafkaSink upsert;
    private static SinkDescription sink;

    @BeforeAll
    static void createSink() throws Exception {
        upsert = StockKafkaSink.create("CREATE TABLE operator_sink (id BIGINT, name STRING, m MAP<STRING, INT>,"
                + " PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 't',"
                + " 'properties.bootstrap.servers' = 'localhost:9092', 'key.format' = 'json', 'value.format' = 'json',"
                + " 'value.json.map-null-key.mode' = 'LITERAL')");
        sink = SinkDescription.of(upsert.table().getResolvedSchema(), upsert.options());
    }

    private static RowData row(long id, String name, RowKind kind) {
        GenericRowData row = GenericRowData.of(id, StringData.fromString(name), null);
        row.setRowKind(kind);
        return row;
    }

    private static void assertRecord(RowData row, Object output) {
        KafkaEncodedRecord record = (KafkaEncodedRecord) ((StreamRecord<?>) output).getValue();
        ProducerRecord<byte[], byte[]> expected = upsert.serialize(row);
        assertArrayEquals(expected.key(), record.getKey(), record.toString());
        assertArrayEquals(expected.value(), record.getValue(), record.toString());
    }

    @Test
    void rowOperatorFlushesAtSizeBarrierWatermarkAndEnd() throws Exception {
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            rows.add(row(i, "n" + i, i == 4 ? RowKind.DELETE : RowKind.INSERT));
        }
        RowDataEncodeOperator operator = new RowDataEncodeOperator(sink, 3, null);
        try (OneInputStreamOperatorTestHarness<RowData, KafkaEncodedRecord> harness = new OneInputStreamOperatorTestHarness<>(operator)) {
            harness.open();
            harness.processElement(rows.get(0), 10);
            harness.processElement(rows.get(1), 11);
            assertEquals(0, harness.getOutput().size(), "below batchRows nothing is emitted");
            harness.processElement(rows.get(2), 12);
            assertEquals(3, harness.getOutput().size(), "a full batch is emitted");
            harness.processElement(rows.get(3), 13);
            harness.prepareSnapshotPreBarrier(1);
            assertEquals(4, harness.getOutput().size(), "the barrier flushes the partial batch");
            harness.processElement(rows.get(4), 14);
            harness.processWatermark(new Watermark(20));
            List<Object> output = new ArrayList<>(harness.getOutput());
            assertEquals(6, output.size());
            assertInstanceOf(StreamRecord.class, output.get(4), "records buffered before a watermark precede it");
            assertEquals(new Watermark(20), output.get(5));
            harness.processElement(rows.get(5), 21);
            harness.processElement(rows.get(6), 22);
            harness.endInput();
            output = new ArrayList<>(harness.getOutput());
            assertEquals(8, output.size());
            output.remove(5);
            for (int i = 0; i < 7; i++) {
                assertRecord(rows.get(i), output.get(i));
                assertEquals(i < 5 ? 10 + i : 16 + i, ((StreamRecord<?>) output.get(i)).getTimestamp());
            }
            assertNull(((KafkaEncodedRecord) ((StreamRecord<?>) output.get(4)).getValue()).getValue(), "-D is a tombstone");
        }
    }

    @Test
    void arrowOperatorEncodesRootsAndExports() throws Exception {
        List<RowData> rows = List.of(row(1, "a", RowKind.INSERT), row(2, "b", RowKind.UPDATE_BEFORE));
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(sink.physicalRowType(), allocator);
                OneInputStreamOperatorTestHarness<ArrowBatch, KafkaEncodedRecord> harness =
                        new OneInputStreamOperatorTestHarness<>(new ArrowBatchEncodeOperator(sink))) {
            harness.open();
            rows.forEach(writer::append);
            writer.finish();
            List<Integer> baseline = NativeJsonEncoderContractTest.refCounts(writer.root());
            harness.processElement(ArrowBatch.of(writer.root(), writer.rowKinds()), 5);
            try (ArrowArray array = ArrowArray.allocateNew(allocator); ArrowSchema schema = ArrowSchema.allocateNew(allocator)) {
                // The same carriage as encode(VectorSchemaRoot): one encoder sees one Arrow schema.
                Data.exportVectorSchemaRoot(allocator, writer.root(), null, array);
                Data.exportSchema(allocator, ArrowSchemas.withNullableMapKeys(writer.root().getSchema()), null, schema);
                harness.processElement(ArrowBatch.exported(array.memoryAddress(), schema.memoryAddress(), null), 6);
            }
            List<Object> output = new ArrayList<>(harness.getOutput());
            assertEquals(4, output.size());
            assertRecord(rows.get(0), output.get(0));
            assertRecord(rows.get(1), output.get(1));
            assertRecord(row(1, "a", RowKind.INSERT), output.get(2));
            assertRecord(row(2, "b", RowKind.INSERT), output.get(3));
            assertEquals(6, ((StreamRecord<?>) output.get(3)).getTimestamp());
            assertEquals(baseline, NativeJsonEncoderContractTest.refCounts(writer.root()), "every export released");
        }
    }

    @Test
    void serializationSchemaHandsBytesToKafkaUnchanged() {
        EncodedRecordSerializationSchema schema = new EncodedRecordSerializationSchema("orders");
        byte[] key = "{\"id\":1}".getBytes(StandardCharsets.UTF_8);
        ProducerRecord<byte[], byte[]> tombstone = schema.serialize(new KafkaEncodedRecord(key, null), null, 123L);
        assertEquals("orders", tombstone.topic());
        assertTrue(key == tombstone.key(), "the key array is handed over without a copy");
        assertNull(tombstone.value());
        assertNull(tombstone.partition());
        ProducerRecord<byte[], byte[]> keyless = schema.serialize(new KafkaEncodedRecord(null, key), null, null);
        assertNull(keyless.key());
        assertArrayEquals(key, keyless.value());
    }

    /** The POOLING transaction naming strategy needs the topic from the lineage facet. */
    @Test
    void serializationSchemaNamesItsTopicForLineage() {
        EncodedRecordSerializationSchema schema = new EncodedRecordSerializationSchema("orders").withFixedPartitioner();
        assertEquals("orders", schema.getTopic());
        assertEquals(List.of("orders"),
                List.copyOf(schema.getKafkaDatasetFacet().orElseThrow().getTopicIdentifier().getTopics()));
    }

    /** A whole DataStream job on a local cluster: RowData source -> encode operator -> collect. */
    @Test
    void dataStreamJobMatchesStockSink() throws Exception {
        RandomRows random = new RandomRows(Long.getLong("kjson.seed", System.nanoTime()), 0.2, true);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            rows.add(random.row(sink.physicalRowType(), random.kind()));
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        List<KafkaEncodedRecord> records = new ArrayList<>();
        try (CloseableIterator<KafkaEncodedRecord> out = KjsonStreams.encodeRows(
                env.fromData(rows, InternalTypeInfo.of(sink.physicalRowType())), sink, 128).executeAndCollect()) {
            out.forEachRemaining(records::add);
        }
        assertEquals(rows.size(), records.size());
        for (int i = 0; i < rows.size(); i++) {
            ProducerRecord<byte[], byte[]> expected = upsert.serialize(rows.get(i));
            assertEquals(new KafkaEncodedRecord(expected.key(), expected.value()), records.get(i), "row " + i);
        }
    }
}
