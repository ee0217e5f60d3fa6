package org.kjson.flink.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.kjson.flink.Compatibility;
import org.kjson.flink.EncodedBatch;
import org.kjson.flink.KafkaEncodedRecord;
import org.kjson.flink.NativeJsonEncoder;
import org.kjson.flink.RowDataEncodeOperator;
import org.kjson.flink.SinkDescription;
import org.kjson.flink.arrow.RowDataArrowWriter;

/**
 * Encodes rows on every path a RowData takes into kjson and compares each record, byte for byte,
 * with the stock Flink sink: GenericRowData and BinaryRowData (the form after a shuffle), each
 * through {@link RowDataArrowWriter} into {@link NativeJsonEncoder} with both handoffs and
 * through {@link RowDataEncodeOperator} in Flink's operator harness.
 *
 * <p>The rows come from a supplier called once per path, so that a path that reads a string (the
 * stock serializer calls {@code toString()}, which caches the Java string) cannot change what the
 * next path sees.
 */
public final class EveryRowDataPath {
    private final StockKafkaSink stock;
    private final SinkDescription sink;
    private final RowDataSerializer binary;

    public EveryRowDataPath(StockKafkaSink stock) {
        this.stock = stock;
        this.sink = SinkDescription.of(stock.table().getResolvedSchema(), stock.options());
        this.binary = new RowDataSerializer(stock.physicalRowType());
    }

    public SinkDescription sink() {
        return sink;
    }

    /** The rows as GenericRowData (as supplied) or as BinaryRowData. */
    public List<RowData> rows(Supplier<List<RowData>> rows, boolean binaryRows) {
        List<RowData> out = new ArrayList<>();
        for (RowData row : rows.get()) {
            out.add(binaryRows ? binary.toBinaryRow(row).copy() : row);
        }
        return out;
    }

    /** Asserts that every path writes the stock sink's records for the supplied rows. */
    public void assertMatchesStock(Supplier<List<RowData>> rows) throws Exception {
        assertMatchesStock(rows, false);
        assertMatchesStock(rows, true);
    }

    /** The same for one form of the rows: GenericRowData as supplied, or BinaryRowData. */
    public void assertMatchesStock(Supplier<List<RowData>> rows, boolean binaryRows) throws Exception {
        String form = binaryRows ? "BinaryRowData" : "GenericRowData";
        List<RowData> expectedRows = rows(rows, binaryRows);
        List<ProducerRecord<byte[], byte[]>> expected = new ArrayList<>();
        for (RowData row : expectedRows) {
            expected.add(stock.serialize(row));
        }
        for (NativeJsonEncoder.Handoff handoff : NativeJsonEncoder.Handoff.values()) {
            compare(form + " via " + handoff, expectedRows, expected, viaEncoder(rows(rows, binaryRows), handoff));
        }
        compare(form + " via RowDataEncodeOperator", expectedRows, expected, viaOperator(rows(rows, binaryRows)));
    }

    /** The records of one batch through the Arrow writer and a native encoder. */
    public List<KafkaEncodedRecord> viaEncoder(List<RowData> rows, NativeJsonEncoder.Handoff handoff) {
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonEncoder encoder = NativeJsonEncoder.open(sink, Compatibility.ofRunningFlink(), allocator, handoff);
                RowDataArrowWriter writer = new RowDataArrowWriter(stock.physicalRowType(), allocator)) {
            rows.forEach(writer::append);
            writer.finish();
            EncodedBatch batch = encoder.encode(writer.root(), writer.rowKinds());
            List<KafkaEncodedRecord> out = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                out.add(new KafkaEncodedRecord(batch.key(i), batch.value(i)));
            }
            return out;
        }
    }

    /** The records the DataStream operator emits for the rows (batches of 3, so rows span batches). */
    public List<KafkaEncodedRecord> viaOperator(List<RowData> rows) throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, KafkaEncodedRecord> harness =
                new OneInputStreamOperatorTestHarness<>(new RowDataEncodeOperator(sink, 3, null))) {
            harness.open();
            for (RowData row : rows) {
                harness.processElement(row, 1);
            }
            harness.endInput();
            List<KafkaEncodedRecord> out = new ArrayList<>();
            for (Object element : harness.getOutput()) {
                out.add((KafkaEncodedRecord) ((StreamRecord<?>) element).getValue());
            }
            return out;
        }
    }

    private static void compare(String path, List<RowData> rows, List<ProducerRecord<byte[], byte[]>> expected,
            List<KafkaEncodedRecord> actual) {
        assertEquals(expected.size(), actual.size(), path);
        for (int i = 0; i < expected.size(); i++) {
            ProducerRecord<byte[], byte[]> stockRecord = expected.get(i);
            KafkaEncodedRecord record = actual.get(i);
            if (!Arrays.equals(stockRecord.key(), record.getKey()) || !Arrays.equals(stockRecord.value(), record.getValue())) {
                fail(String.format("%s, row %d %s:%n  stock  key   %s%n  kjson  key   %s%n  stock  value %s%n"
                        + "  kjson  value %s", path, i, rows.get(i), text(stockRecord.key()), text(record.getKey()),
                        text(stockRecord.value()), text(record.getValue())));
            }
        }
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }
}
