package org.kjson.flink.support;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.kjson.flink.Compatibility;
import org.kjson.flink.EncodedBatch;
import org.kjson.flink.KafkaEncodedRecord;
import org.kjson.flink.NativeJsonEncoder;
import org.kjson.flink.RowDataEncodeOperator;
import org.kjson.flink.SinkDescription;
import org.kjson.flink.arrow.RowDataArrowWriter;

/**
 * kjson's RowData paths over one sink, fed the same batches: RowDataArrowWriter into the native
 * encoder with either handoff, and RowDataEncodeOperator in Flink's operator test harness (its
 * own batches of {@code operatorBatchRows}, the rest flushed by a checkpoint barrier).
 */
public final class RowDataPaths implements AutoCloseable {
    public enum Path { ARRAYS, DIRECT, OPERATOR }

    /** One Kafka record as a path wrote it. */
    public record Record(byte[] key, byte[] value, boolean nullKey, boolean tombstone) {}

    /** The records of a batch, or the error that refused it (then {@code records} is empty). */
    public record Outcome(List<Record> records, Exception error) {
        static Outcome refused(Exception error) {
            return new Outcome(List.of(), error);
        }
    }

    private final BufferAllocator allocator = new RootAllocator();
    private NativeJsonEncoder arrays;
    private NativeJsonEncoder direct;
    private RowDataArrowWriter writer;
    private OneInputStreamOperatorTestHarness<RowData, KafkaEncodedRecord> harness;
    private long checkpoint;

    private RowDataPaths() {}

    /** Opens every path; closes what was opened if one of them fails (kjson may refuse a sink). */
    public static RowDataPaths open(SinkDescription sink, int operatorBatchRows) throws Exception {
        RowDataPaths paths = new RowDataPaths();
        try {
            Compatibility running = Compatibility.ofRunningFlink();
            paths.arrays = NativeJsonEncoder.open(sink, running, paths.allocator, NativeJsonEncoder.Handoff.ARRAYS);
            paths.direct = NativeJsonEncoder.open(sink, running, paths.allocator, NativeJsonEncoder.Handoff.DIRECT);
            paths.writer = new RowDataArrowWriter(sink.physicalRowType(), paths.allocator);
            paths.harness = new OneInputStreamOperatorTestHarness<>(new RowDataEncodeOperator(sink, operatorBatchRows, null));
            paths.harness.open();
            return paths;
        } catch (Exception | Error e) {
            paths.close();
            throw e;
        }
    }

    public Map<Path, Outcome> encode(List<RowData> rows) {
        Map<Path, Outcome> outcomes = new EnumMap<>(Path.class);
        try {
            rows.forEach(writer::append);
            writer.finish();
            byte[] kinds = writer.rowKinds();
            outcomes.put(Path.ARRAYS, encodeWith(arrays, kinds));
            outcomes.put(Path.DIRECT, encodeWith(direct, kinds));
        } catch (RuntimeException e) {
            outcomes.put(Path.ARRAYS, Outcome.refused(e));
            outcomes.put(Path.DIRECT, Outcome.refused(e));
        } finally {
            writer.reset();
        }
        outcomes.put(Path.OPERATOR, throughOperator(rows));
        return outcomes;
    }

    /** Reads every record before the next call: a DIRECT batch is valid until then only. */
    private Outcome encodeWith(NativeJsonEncoder encoder, byte[] kinds) {
        EncodedBatch batch;
        try {
            batch = encoder.encode(writer.root(), kinds);
        } catch (RuntimeException e) {
            return Outcome.refused(e);
        }
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            records.add(new Record(batch.key(i), batch.value(i), batch.isNullKey(i), batch.isTombstone(i)));
        }
        return new Outcome(records, null);
    }

    private Outcome throughOperator(List<RowData> rows) {
        Exception error = null;
        try {
            for (int i = 0; i < rows.size(); i++) {
                harness.processElement(rows.get(i), i);
            }
        } catch (Exception e) {
            error = e;
        }
        try {
            harness.prepareSnapshotPreBarrier(++checkpoint);
        } catch (Exception e) {
            error = error == null ? e : error;
        }
        List<Record> records = new ArrayList<>();
        for (Object element : harness.getOutput()) {
            KafkaEncodedRecord record = (KafkaEncodedRecord) ((StreamRecord<?>) element).getValue();
            records.add(new Record(record.getKey(), record.getValue(), record.getKey() == null, record.isTombstone()));
        }
        harness.getOutput().clear();
        return error == null ? new Outcome(records, null) : Outcome.refused(error);
    }

    /** The first row the native encoder refuses in a batch of its own, or -1. */
    public int firstRefusedRow(List<RowData> rows) {
        for (int i = 0; i < rows.size(); i++) {
            try {
                writer.append(rows.get(i));
                writer.finish();
                arrays.encode(writer.root(), writer.rowKinds());
            } catch (RuntimeException e) {
                return i;
            } finally {
                writer.reset();
            }
        }
        return -1;
    }

    @Override
    public void close() throws Exception {
        NativeJsonEncoder arraysEncoder = arrays;
        NativeJsonEncoder directEncoder = direct;
        RowDataArrowWriter arrowWriter = writer;
        try (allocator; arraysEncoder; directEncoder; arrowWriter) {
            if (harness != null) {
                harness.close();
            }
        }
    }
}
