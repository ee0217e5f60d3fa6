package org.kjson.flink;

import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * For engines that already produce Arrow: encodes each incoming {@link ArrowBatch} in one native
 * call and emits one {@link KafkaEncodedRecord} per row, in row order, carrying the batch's
 * timestamp. Stateless: nothing is buffered across elements, so checkpoints need no flush.
 */
public final class ArrowBatchEncodeOperator extends EncodingOperator<ArrowBatch> {
    private static final long serialVersionUID = 1L;

    /** Mimics the running Flink and JVM. */
    public ArrowBatchEncodeOperator(SinkDescription sink) {
        this(sink, null);
    }

    public ArrowBatchEncodeOperator(SinkDescription sink, Compatibility compatibility) {
        super(sink, compatibility);
    }

    @Override
    public void processElement(StreamRecord<ArrowBatch> element) throws Exception {
        EncodedBatch batch = element.getValue().encodeWith(encoder);
        long[] timestamps = null;
        if (element.hasTimestamp()) {
            timestamps = new long[batch.size()];
            java.util.Arrays.fill(timestamps, element.getTimestamp());
        }
        emit(batch, timestamps);
    }
}
