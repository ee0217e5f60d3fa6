package org.kjson.flink;

import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * For engines that already produce Arrow: encodes each incoming {@link ArrowBatch} in one native
 * call and emits one {@link KafkaEncodedRecord} per row, in row order, carrying the batch's
 * timestamp. Stateless: nothing is buffered across elements, so checkpoints need no flush.
 */
public final class ArrowBatchEncodeOperator extends EncodingOperator<ArrowBatch> {
    private static final long serialVersionUID = 1L;
    /** Far above the two export structs (a few hundred bytes) the allocator holds. */
    private static final long EXPORT_STRUCTS_LIMIT = 1 << 20;

    /** Mimics the running Flink and JVM. */
    public ArrowBatchEncodeOperator(SinkDescription sink) {
        this(sink, null);
    }

    public ArrowBatchEncodeOperator(SinkDescription sink, Compatibility compatibility) {
        super(sink, compatibility);
    }

    /** Input batches come from the producer's allocator; this one holds only the C Data export structs. */
    @Override
    long arrowMemoryLimit() {
        return EXPORT_STRUCTS_LIMIT;
    }

    @Override
    int bufferedRows() {
        return 0;
    }

    @Override
    String batchingDescription() {
        return "one native call per input batch";
    }

    @Override
    public void processElement(StreamRecord<ArrowBatch> element) throws Exception {
        EncodedBatch batch = encodeCounted(element.getValue()::encodeWith);
        long[] timestamps = null;
        if (element.hasTimestamp()) {
            timestamps = new long[batch.size()];
            java.util.Arrays.fill(timestamps, element.getTimestamp());
        }
        emit(batch, timestamps);
    }
}
