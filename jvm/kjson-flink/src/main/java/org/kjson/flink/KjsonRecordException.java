package org.kjson.flink;

/**
 * A Kafka record that Flink's deserializer would fail on (the job would fail with it): the
 * native decoder names the record by its index in the batch handed to
 * {@link NativeJsonDecoder#decode}, and the message is Flink's ({@code Failed to deserialize
 * JSON '...'}), prefixed with {@code record N: }. Under {@link NativeJsonDecoder.OnError#COLLECT}
 * such records are listed in {@link DecodedBatch#errors()} instead.
 */
public class KjsonRecordException extends KjsonException {
    private static final long serialVersionUID = 1L;

    private final int record;

    /** Called by the native library. */
    public KjsonRecordException(int record, String message) {
        super(message);
        this.record = record;
    }

    /** The failing record's index in the batch (0-based). */
    public int record() {
        return record;
    }
}
