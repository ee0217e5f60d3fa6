package org.kjson.flink.sql.source;

import java.io.IOException;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Flink 2.x lines (Kafka connector 4.0 and later): the failure of a record the format cannot
 * read, as the stock source reports it: the emitter's message, with the format's as its cause.
 * The 1.20 line has its own version of this class (connector 3.4 adds a level naming the record).
 */
final class DeserializeFailure {
    private DeserializeFailure() {}

    static IOException of(ConsumerRecord<?, ?> record, String formatMessage) {
        return of(record, new IOException(formatMessage));
    }

    /** The same around {@code cause}: also what a failure downstream of the source is wrapped in. */
    static IOException of(ConsumerRecord<?, ?> record, Exception cause) {
        return new IOException("Failed to deserialize consumer record due to", cause);
    }
}
