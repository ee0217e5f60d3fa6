package org.kjson.flink.sql.source;

import java.io.IOException;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Flink 1.20 line (Kafka connector 3.4): the failure of a record the format cannot read, as the
 * stock source reports it: the emitter's message, then the deserializer wrapper's naming the
 * record (topic, partition, leader epoch, offset, timestamp, sizes, headers; the key and value
 * are printed as null, where Flink prints the arrays' identities), then the format's.
 */
final class DeserializeFailure {
    private DeserializeFailure() {}

    static IOException of(ConsumerRecord<?, ?> record, String formatMessage) {
        return of(record, new IOException(formatMessage));
    }

    /** The same around {@code cause}: also what a failure downstream of the source is wrapped in. */
    static IOException of(ConsumerRecord<?, ?> record, Exception cause) {
        IOException wrapped = new IOException(String.format("Failed to deserialize consumer record %s.", record), cause);
        return new IOException("Failed to deserialize consumer record due to", wrapped);
    }
}
