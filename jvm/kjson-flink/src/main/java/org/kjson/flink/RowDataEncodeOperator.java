package org.kjson.flink;

import java.util.Arrays;

import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.kjson.flink.arrow.RowDataArrowWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For plain Flink jobs: buffers {@link RowData} rows into Arrow vectors and encodes them in one
 * native call when {@link BatchSettings#rows()} rows are buffered, when the oldest buffered row
 * has waited {@link BatchSettings#interval()} (a processing-time timer, so a slow stream is not
 * held until the next checkpoint), before every checkpoint barrier
 * ({@link #prepareSnapshotPreBarrier}, so no buffered row is missing from a checkpoint), before
 * forwarding a watermark (so no record becomes late), and at end of input. Records are emitted
 * in input order with their input timestamps.
 *
 * <p>Rows must be in Flink's internal format for the sink's physical row type (the
 * {@link SinkDescription#physicalRowType()}); their {@code RowKind} is kept, and turns
 * {@code -U}/{@code -D} rows into tombstones for upsert-kafka sinks.
 *
 * <p>The Arrow buffers of a batch are bounded by {@link BatchSettings#arrowMemoryLimit()}; a
 * batch that needs more fails the task with a message naming {@value #MEMORY_LIMIT_OPTION}.
 *
 * <p>With a {@link FlinkRecordSerializer}, Flink's own serializer writes the key when its format
 * is not one kjson encodes (the values stay native), and under
 * {@link NativeLibraryPolicy#FALLBACK} it writes every record, row by row, where the native
 * library cannot load.
 */
public final class RowDataEncodeOperator extends EncodingOperator<RowData> implements BoundedOneInput {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(RowDataEncodeOperator.class);

    /** Rows per native call unless the interval, a checkpoint, a watermark or the end of input comes first. */
    public static final int DEFAULT_BATCH_ROWS = BatchSettings.DEFAULT_ROWS;

    static final String MEMORY_LIMIT_OPTION = "kjson.arrow-memory-limit";

    private final BatchSettings batching;
    private final RecordExtras extras;
    /** Null: the native encoder writes both sides and the library is required. */
    private final FlinkRecordSerializer flinkSerializer;
    private final NativeLibraryPolicy nativePolicy;

    private transient RowDataArrowWriter writer;
    /** Null when the records carry no extras. */
    private transient RecordExtras.Buffer extrasOfRows;
    private transient long[] timestamps;
    private transient boolean anyTimestamp;
    /** Processing time at which the first row of the current batch arrived. */
    private transient long batchStartMillis;
    private transient boolean timerPending;
    /** Keys that Flink's serializer wrote for the buffered rows; null when the native encoder writes them. */
    private transient byte[][] flinkKeys;
    /** The native library did not load: every record is written by {@link #flinkSerializer}. */
    private transient boolean withoutNativeLibrary;

    public RowDataEncodeOperator(SinkDescription sink) {
        this(sink, BatchSettings.defaults(), null);
    }

    /** {@code compatibility} null: mimic the running Flink and JVM. Other settings are the defaults. */
    public RowDataEncodeOperator(SinkDescription sink, int batchRows, Compatibility compatibility) {
        this(sink, BatchSettings.ofRows(batchRows), compatibility);
    }

    /** {@code compatibility} null: mimic the running Flink and JVM. */
    public RowDataEncodeOperator(SinkDescription sink, BatchSettings batching, Compatibility compatibility) {
        this(sink, batching, compatibility, RecordExtras.NONE, null, NativeLibraryPolicy.REQUIRED);
    }

    /**
     * Rows that may hold columns after the physical ones (the table's metadata columns), whose
     * records carry {@code extras}.
     */
    public RowDataEncodeOperator(SinkDescription sink, BatchSettings batching, Compatibility compatibility,
            RecordExtras extras) {
        this(sink, batching, compatibility, extras, null, NativeLibraryPolicy.REQUIRED);
    }

    /** As the constructor with {@code extras}, without them. */
    public RowDataEncodeOperator(SinkDescription sink, BatchSettings batching, Compatibility compatibility,
            FlinkRecordSerializer flinkSerializer, NativeLibraryPolicy nativePolicy) {
        this(sink, batching, compatibility, RecordExtras.NONE, flinkSerializer, nativePolicy);
    }

    /**
     * {@code flinkSerializer} null: the native encoder writes both sides. Otherwise it writes a key
     * whose format kjson does not encode, and, with {@code nativePolicy} FALLBACK, every record
     * where the library cannot load; {@code sink} then describes what the native encoder writes.
     * The records carry {@code extras} of their rows (metadata columns after the physical ones).
     */
    public RowDataEncodeOperator(SinkDescription sink, BatchSettings batching, Compatibility compatibility,
            RecordExtras extras, FlinkRecordSerializer flinkSerializer, NativeLibraryPolicy nativePolicy) {
        super(sink, compatibility);
        this.batching = java.util.Objects.requireNonNull(batching, "batching");
        this.extras = java.util.Objects.requireNonNull(extras, "extras");
        this.flinkSerializer = flinkSerializer;
        this.nativePolicy = java.util.Objects.requireNonNull(nativePolicy, "nativePolicy");
        if (nativePolicy == NativeLibraryPolicy.FALLBACK && flinkSerializer == null) {
            throw new IllegalArgumentException("the fallback without the native library needs Flink's serializers");
        }
    }

    public BatchSettings batching() {
        return batching;
    }

    @Override
    long arrowMemoryLimit() {
        return batching.arrowMemoryLimit();
    }

    @Override
    int bufferedRows() {
        RowDataArrowWriter current = writer;
        return current == null ? 0 : current.rowCount();
    }

    @Override
    String batchingDescription() {
        return batching.toString();
    }

    @Override
    NativeJsonEncoder openEncoder(Compatibility target) {
        try {
            return super.openEncoder(target);
        } catch (UnsatisfiedLinkError e) {
            if (nativePolicy != NativeLibraryPolicy.FALLBACK) {
                throw e;
            }
            LOG.warn("{}: kjson table '{}': the native library cannot be loaded here and the table allows the"
                    + " fallback (kjson.native = 'fallback'): Flink's own serializers write every record ({}), row by"
                    + " row as the stock connector does, without kjson's speed-up. Cause: {}", taskName(),
                    sink().tableName(), flinkSerializer.formats(), e.getMessage());
            return null;
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        withoutNativeLibrary = encoder == null;
        extrasOfRows = extras.isEmpty() ? null : extras.newBuffer(getExecutionConfig().getSerializerConfig());
        if (flinkSerializer != null && (withoutNativeLibrary || !flinkSerializer.keyEncodedNatively())) {
            flinkSerializer.open(getMetricGroup(), getRuntimeContext().getUserCodeClassLoader());
        }
        if (withoutNativeLibrary) {
            return;
        }
        try {
            writer = new RowDataArrowWriter(sink().physicalRowType(), allocator);
        } catch (OutOfMemoryException e) {
            throw memoryLimitExceeded(e);
        }
        timestamps = new long[Math.min(batching.rows(), 1 << 16)];
        timerPending = false;
        flinkKeys = flinkSerializer != null && !flinkSerializer.keyEncodedNatively() ? new byte[timestamps.length][] : null;
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        if (withoutNativeLibrary) {
            RowData value = element.getValue();
            if (extrasOfRows != null) {
                extrasOfRows.add(0, value);
            }
            try {
                emit(counted(() -> new SerializedRecordBatch(flinkSerializer.key(value), flinkSerializer.value(value))),
                        element.hasTimestamp() ? new long[] {element.getTimestamp()} : null, extrasOfRows);
            } finally {
                if (extrasOfRows != null) {
                    extrasOfRows.clear(1);
                }
            }
            return;
        }
        int row = writer.rowCount();
        if (row == 0) {
            startBatchTimer();
        }
        try {
            writer.append(element.getValue());
        } catch (OutOfMemoryException e) {
            throw memoryLimitExceeded(e);
        }
        if (extrasOfRows != null) {
            extrasOfRows.add(row, element.getValue());
        }
        if (row == timestamps.length) {
            timestamps = Arrays.copyOf(timestamps, row * 2);
            flinkKeys = flinkKeys == null ? null : Arrays.copyOf(flinkKeys, row * 2);
        }
        if (flinkKeys != null) {
            flinkKeys[row] = flinkSerializer.key(element.getValue());
        }
        timestamps[row] = element.hasTimestamp() ? element.getTimestamp() : Long.MIN_VALUE;
        anyTimestamp |= element.hasTimestamp();
        if (writer.rowCount() >= batching.rows()) {
            flush();
        }
    }

    /** Notes when the batch started, and makes sure a timer will look at it one interval later. */
    private void startBatchTimer() {
        long intervalMillis = batching.interval().toMillis();
        if (intervalMillis <= 0) {
            return;
        }
        batchStartMillis = getProcessingTimeService().getCurrentProcessingTime();
        if (!timerPending) {
            timerPending = true;
            getProcessingTimeService().registerTimer(batchStartMillis + intervalMillis, this::onBatchTimer);
        }
    }

    /**
     * Flushes the batch if its first row has waited the interval; a batch started after the timer
     * was set (the earlier one was flushed by size or a barrier) gets a timer of its own.
     */
    private void onBatchTimer(long time) {
        timerPending = false;
        if (writer == null || writer.rowCount() == 0) {
            return;
        }
        long due = batchStartMillis + batching.interval().toMillis();
        if (time >= due) {
            flush();
        } else {
            timerPending = true;
            getProcessingTimeService().registerTimer(due, this::onBatchTimer);
        }
    }

    /** Encodes and emits the buffered rows, if any. */
    void flush() {
        if (writer == null || writer.rowCount() == 0) {
            return;
        }
        try {
            byte[] kinds = writer.hasRetractions() ? writer.rowKinds() : null;
            EncodedBatch batch = encodeCounted(encoder -> withFlinkKeys(encoder.encode(writer.finish(), kinds)));
            emit(batch, anyTimestamp ? timestamps : null, extrasOfRows);
        } finally {
            if (extrasOfRows != null) {
                extrasOfRows.clear(writer.rowCount());
            }
            writer.reset();
            anyTimestamp = false;
            if (flinkKeys != null) {
                Arrays.fill(flinkKeys, null);
            }
        }
    }

    private EncodedBatch withFlinkKeys(EncodedBatch batch) {
        return flinkKeys == null ? batch : new FlinkKeysBatch(batch, flinkKeys);
    }

    private ArrowMemoryLimitException memoryLimitExceeded(OutOfMemoryException cause) {
        int rows = writer == null ? 0 : writer.rowCount();
        return new ArrowMemoryLimitException(String.format("the Arrow buffers of %d buffered rows need more than %s = %d bytes"
                + " (%d allocated now): raise '%s' (and taskmanager.memory.task.off-heap.size with it) or lower"
                + " 'kjson.batch-rows'; Arrow said: %s", rows, MEMORY_LIMIT_OPTION, batching.arrowMemoryLimit(),
                allocator.getAllocatedMemory(), MEMORY_LIMIT_OPTION, cause.getMessage()), cause);
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
