package org.kjson.flink;

import java.util.Arrays;

import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.kjson.flink.arrow.RowDataArrowWriter;

/**
 * For plain Flink jobs: buffers {@link RowData} rows into Arrow vectors and encodes them in one
 * native call when {@code batchRows} rows are buffered, before every checkpoint barrier
 * ({@link #prepareSnapshotPreBarrier}, so no buffered row is missing from a checkpoint), before
 * forwarding a watermark (so no record becomes late), and at end of input. Records are emitted
 * in input order with their input timestamps.
 *
 * <p>Rows must be in Flink's internal format for the sink's physical row type (the
 * {@link SinkDescription#physicalRowType()}); their {@code RowKind} is kept, and turns
 * {@code -U}/{@code -D} rows into tombstones for upsert-kafka sinks.
 */
public final class RowDataEncodeOperator extends EncodingOperator<RowData> implements BoundedOneInput {
    private static final long serialVersionUID = 1L;

    /** Rows per native call unless a checkpoint, a watermark or the end of input comes first. */
    public static final int DEFAULT_BATCH_ROWS = 4096;

    private final int batchRows;

    private transient RowDataArrowWriter writer;
    private transient long[] timestamps;
    private transient boolean anyTimestamp;

    public RowDataEncodeOperator(SinkDescription sink) {
        this(sink, DEFAULT_BATCH_ROWS, null);
    }

    /** {@code compatibility} null: mimic the running Flink and JVM. */
    public RowDataEncodeOperator(SinkDescription sink, int batchRows, Compatibility compatibility) {
        super(sink, compatibility);
        if (batchRows < 1) {
            throw new IllegalArgumentException("batchRows must be positive, got " + batchRows);
        }
        this.batchRows = batchRows;
    }

    @Override
    public void open() throws Exception {
        super.open();
        writer = new RowDataArrowWriter(sink().physicalRowType(), allocator);
        timestamps = new long[Math.min(batchRows, 1 << 16)];
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        int row = writer.rowCount();
        writer.append(element.getValue());
        if (row == timestamps.length) {
            timestamps = Arrays.copyOf(timestamps, row * 2);
        }
        timestamps[row] = element.hasTimestamp() ? element.getTimestamp() : Long.MIN_VALUE;
        anyTimestamp |= element.hasTimestamp();
        if (writer.rowCount() >= batchRows) {
            flush();
        }
    }

    /** Encodes and emits the buffered rows, if any. */
    void flush() {
        if (writer.rowCount() == 0) {
            return;
        }
        try {
            byte[] kinds = writer.hasRetractions() ? writer.rowKinds() : null;
            EncodedBatch batch = encoder.encode(writer.finish(), kinds);
            emit(batch, anyTimestamp ? timestamps : null);
        } finally {
            writer.reset();
            anyTimestamp = false;
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        super.processWatermark(mark);
    }

    @Override
    public void endInput() throws Exception {
        flush();
    }

    @Override
    public void finish() throws Exception {
        flush();
        super.finish();
    }

    @Override
    public void close() throws Exception {
        try {
            if (writer != null) {
                writer.close();
                writer = null;
            }
        } finally {
            super.close();
        }
    }
}
