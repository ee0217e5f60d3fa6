package org.kjson.flink;

import java.util.Objects;

import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Hands encoded records to Flink's stock {@code KafkaSink} unchanged: the key and value bytes go
 * into the {@link ProducerRecord} as they are (null key, null value for a tombstone). Like the
 * Kafka table sink without a timestamp metadata column, no record timestamp is set and the
 * partition is left to the producer's partitioner (by key hash when the key is not null).
 */
public final class EncodedRecordSerializationSchema implements KafkaRecordSerializationSchema<KafkaEncodedRecord> {
    private static final long serialVersionUID = 1L;

    private final String topic;

    public EncodedRecordSerializationSchema(String topic) {
        this.topic = Objects.requireNonNull(topic, "topic");
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(KafkaEncodedRecord record, KafkaSinkContext context, Long timestamp) {
        return new ProducerRecord<>(topic, null, null, record.getKey(), record.getValue());
    }
}
