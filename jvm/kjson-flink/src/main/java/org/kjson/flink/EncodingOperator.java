package org.kjson.flink;

import java.util.Objects;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * What both encode operators share: a native encoder handle opened in {@link #open()} and
 * closed in {@link #close()}, an Arrow allocator of the task, and the emission of one
 * {@link KafkaEncodedRecord} per encoded row.
 */
abstract class EncodingOperator<IN> extends AbstractStreamOperator<KafkaEncodedRecord>
        implements OneInputStreamOperator<IN, KafkaEncodedRecord> {
    private static final long serialVersionUID = 1L;

    private final SinkDescription sink;
    /** Null: mimic the running Flink and JVM (decided in {@link #open()} on the task manager). */
    private final Compatibility compatibility;

    protected transient BufferAllocator allocator;
    protected transient NativeJsonEncoder encoder;
    private transient StreamRecord<KafkaEncodedRecord> reuse;

    EncodingOperator(SinkDescription sink, Compatibility compatibility) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.compatibility = compatibility;
    }

    SinkDescription sink() {
        return sink;
    }

    @Override
    public void open() throws Exception {
        super.open();
        allocator = new RootAllocator();
        Compatibility target = compatibility != null ? compatibility : Compatibility.ofRunningFlink();
        // Direct handoff measured faster; emit() copies every record before the next encode.
        encoder = NativeJsonEncoder.open(sink, target, allocator, NativeJsonEncoder.Handoff.DIRECT);
        reuse = new StreamRecord<>(null);
    }

    /** Emits the batch's records in row order, each with its own copies of the bytes. */
    final void emit(EncodedBatch batch, long[] timestamps) {
        for (int i = 0; i < batch.size(); i++) {
            KafkaEncodedRecord record = new KafkaEncodedRecord(batch.key(i), batch.value(i));
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
