package org.kjson.flink;

import java.util.Objects;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What both encode operators share: a native encoder handle opened in {@link #open()} and
 * closed in {@link #close()}, a bounded Arrow allocator of the task, the metrics, the log line
 * at open, and the emission of one {@link KafkaEncodedRecord} per encoded row.
 */
abstract class EncodingOperator<IN> extends AbstractStreamOperator<KafkaEncodedRecord>
        implements OneInputStreamOperator<IN, KafkaEncodedRecord> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(EncodingOperator.class);

    private final SinkDescription sink;
    /** Null: mimic the running Flink and JVM (decided in {@link #open()} on the task manager). */
    private final Compatibility compatibility;

    protected transient BufferAllocator allocator;
    protected transient NativeJsonEncoder encoder;
    private transient EncodeMetrics metrics;
    private transient StreamRecord<KafkaEncodedRecord> reuse;

    EncodingOperator(SinkDescription sink, Compatibility compatibility) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.compatibility = compatibility;
    }

    SinkDescription sink() {
        return sink;
    }

    /** The most the operator's Arrow allocator may hold. */
    abstract long arrowMemoryLimit();

    /** Rows buffered for the next native call (for the metrics). */
    abstract int bufferedRows();

    /** The batching settings as the log line at open shows them. */
    abstract String batchingDescription();

    @Override
    public void open() throws Exception {
        super.open();
        allocator = new RootAllocator(arrowMemoryLimit());
        Compatibility target = compatibility != null ? compatibility : Compatibility.ofRunningFlink();
        reuse = new StreamRecord<>(null);
        encoder = openEncoder(target);
        if (encoder == null) {
            metrics = EncodeMetrics.withoutNativeLibrary(getMetricGroup(), this::bufferedRows, allocator::getAllocatedMemory);
            return;
        }
        metrics = new EncodeMetrics(getMetricGroup(), encoder, this::bufferedRows, allocator::getAllocatedMemory);
        LOG.info("{}: kjson table '{}': native library {} ({}), encoder {}, Flink line {}, float spelling {}, {}",
                taskName(), sink.tableName(), NativeJsonEncoder.nativeLibraryPath(), NativeJsonEncoder.nativeVersion(),
                encoder.kindDescription(), target.flinkVersion(), target.floatSpelling(), batchingDescription());
    }

    /**
     * The native encoder of the sink; null when the subclass writes records without the native
     * library (it then logs why). Direct handoff measured faster; emit() copies every record
     * before the next encode.
     */
    NativeJsonEncoder openEncoder(Compatibility target) {
        return NativeJsonEncoder.open(sink, target, allocator, NativeJsonEncoder.Handoff.DIRECT);
    }

    final String taskName() {
        return getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks();
    }

    /** Encodes with the operator's encoder, counting the call in the metrics. */
    final EncodedBatch encodeCounted(java.util.function.Function<NativeJsonEncoder, EncodedBatch> call) {
        return counted(() -> call.apply(encoder));
    }

    /** Runs one encode step (native, or Flink's serializers for one record), counting it in the metrics. */
    final EncodedBatch counted(java.util.function.Supplier<EncodedBatch> encode) {
        long start = System.nanoTime();
        EncodedBatch batch = encode.get();
        metrics.recordBatch(batch, System.nanoTime() - start);
        return batch;
    }

    /** Emits the batch's records in row order, each with its own copies of the bytes. */
    final void emit(EncodedBatch batch, long[] timestamps) {
        emit(batch, timestamps, null);
    }

    /** As {@link #emit(EncodedBatch, long[])}, each record with the extras of its row ({@code extras} null: none). */
    final void emit(EncodedBatch batch, long[] timestamps, RecordExtras.Buffer extras) {
        for (int i = 0; i < batch.size(); i++) {
            KafkaEncodedRecord record = extras == null ? new KafkaEncodedRecord(batch.key(i), batch.value(i))
                    : extras.record(i, batch.key(i), batch.value(i));
            if (timestamps != null && timestamps[i] != Long.MIN_VALUE) {
                output.collect(reuse.replace(record, timestamps[i]));
            } else {
                reuse.eraseTimestamp();
                output.collect(reuse.replace(record));
            }
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (encoder != null && encoder.isOpen()) {
                encoder.close();
            }
            if (allocator != null) {
                allocator.close();
            }
        } finally {
            encoder = null;
            allocator = null;
            super.close();
        }
    }
}
