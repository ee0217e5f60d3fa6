package org.kjson.flink;

import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The encode operators' metrics, registered on the operator's metric group under the names
 * below (docs/operations.md lists them). Updated once per native call, never per row.
 */
final class EncodeMetrics {
    static final String ROWS_ENCODED = "kjsonRowsEncoded";
    static final String KEY_BYTES = "kjsonKeyBytesEncoded";
    static final String VALUE_BYTES = "kjsonValueBytesEncoded";
    static final String ENCODE_NANOS = "kjsonEncodeNanos";
    static final String ROWS_PER_BATCH = "kjsonRowsPerBatch";
    static final String BUFFERED_ROWS = "kjsonBufferedRows";
    static final String ARROW_BYTES = "kjsonArrowAllocatedBytes";
    static final String ENCODER_KIND = "kjsonEncoderKind";
    static final String ENCODER_GENERATED = "kjsonEncoderGenerated";
    static final String NATIVE_VERSION = "kjsonNativeVersion";
    /** The encoder kind where Flink's own serializers write every record (no native library). */
    static final String FLINK_KIND = "flink";
    /** The native version gauge where no native library is loaded. */
    static final String NO_NATIVE_VERSION = "none";

    /** Batches the rows-per-batch histogram keeps for its statistics. */
    private static final int HISTOGRAM_WINDOW = 1024;

    private final Counter rows;
    private final Counter keyBytes;
    private final Counter valueBytes;
    private final Counter encodeNanos;
    private final Histogram rowsPerBatch;

    /**
     * @param bufferedRows rows waiting for the next native call (0 for operators that buffer nothing)
     * @param arrowBytes bytes the operator's Arrow allocator holds now
     */
    EncodeMetrics(MetricGroup group, NativeJsonEncoder encoder, IntSupplier bufferedRows, LongSupplier arrowBytes) {
        this(group, encoder.kind().name().toLowerCase(java.util.Locale.ROOT),
                encoder.kind() == NativeJsonEncoder.Kind.GENERATED, NativeJsonEncoder.nativeVersion(), bufferedRows,
                arrowBytes);
    }

    /** The metrics of an operator whose records Flink's serializers write: kind {@value #FLINK_KIND}. */
    static EncodeMetrics withoutNativeLibrary(MetricGroup group, IntSupplier bufferedRows, LongSupplier arrowBytes) {
        return new EncodeMetrics(group, FLINK_KIND, false, NO_NATIVE_VERSION, bufferedRows, arrowBytes);
    }

    private EncodeMetrics(MetricGroup group, String kind, boolean generatedEncoder, String version,
            IntSupplier bufferedRows, LongSupplier arrowBytes) {
        rows = group.counter(ROWS_ENCODED);
        keyBytes = group.counter(KEY_BYTES);
        valueBytes = group.counter(VALUE_BYTES);
        encodeNanos = group.counter(ENCODE_NANOS);
        rowsPerBatch = group.histogram(ROWS_PER_BATCH, new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        group.gauge(BUFFERED_ROWS, (Gauge<Integer>) bufferedRows::getAsInt);
        group.gauge(ARROW_BYTES, (Gauge<Long>) arrowBytes::getAsLong);
        group.gauge(ENCODER_KIND, (Gauge<String>) () -> kind);
        int generated = generatedEncoder ? 1 : 0;
        group.gauge(ENCODER_GENERATED, (Gauge<Integer>) () -> generated);
        group.gauge(NATIVE_VERSION, (Gauge<String>) () -> version);
    }

    /** One native call (or one record of Flink's serializers): its rows, the time it took and the bytes it produced. */
    void recordBatch(EncodedBatch batch, long nanos) {
        long keys = 0;
        long values = 0;
        for (int i = 0; i < batch.size(); i++) {
            keys += Math.max(0, batch.keyLength(i));
            values += Math.max(0, batch.valueLength(i));
        }
        rows.inc(batch.size());
        keyBytes.inc(keys);
        valueBytes.inc(values);
        encodeNanos.inc(nanos);
        rowsPerBatch.update(batch.size());
    }
}
