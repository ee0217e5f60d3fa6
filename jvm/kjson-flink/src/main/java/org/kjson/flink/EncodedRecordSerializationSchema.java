package org.kjson.flink;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetIdentifier;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacetProvider;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.streaming.connectors.kafka.partitioner.FlinkFixedPartitioner;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Hands encoded records to Flink's stock {@code KafkaSink} unchanged, as the Kafka table sink
 * writes them: key and value bytes as they are (null key; null value for a tombstone), no record
 * timestamp, and the partition left to the producer's partitioner (by key hash when the key is
 * not null) unless {@link #withFixedPartitioner()} asks for the connector's own
 * {@link FlinkFixedPartitioner} ({@code 'sink.partitioner' = 'fixed'}; it never looks at the row).
 * It names its topic for lineage, which the {@code POOLING} transaction naming strategy requires.
 */
public final class EncodedRecordSerializationSchema
        implements KafkaRecordSerializationSchema<KafkaEncodedRecord>, KafkaDatasetFacetProvider {
    private static final long serialVersionUID = 2L;

    private final String topic;
    /** Null: the producer's partitioner. */
    private final FlinkFixedPartitioner<KafkaEncodedRecord> fixedPartitioner;

    public EncodedRecordSerializationSchema(String topic) {
        this(topic, false);
    }

    private EncodedRecordSerializationSchema(String topic, boolean fixedPartitioner) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.fixedPartitioner = fixedPartitioner ? new FlinkFixedPartitioner<>() : null;
    }

    /** The same topic, each sink subtask writing to one partition ({@code 'sink.partitioner' = 'fixed'}). */
    public EncodedRecordSerializationSchema withFixedPartitioner() {
        return new EncodedRecordSerializationSchema(topic, true);
    }

    public String getTopic() {
        return topic;
    }

    @Override
    public void open(SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) {
        if (fixedPartitioner != null) {
            fixedPartitioner.open(sinkContext.getParallelInstanceId(), sinkContext.getNumberOfParallelInstances());
        }
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(KafkaEncodedRecord record, KafkaSinkContext context, Long timestamp) {
        Integer partition = fixedPartitioner == null ? null
                : fixedPartitioner.partition(record, record.getKey(), record.getValue(), topic,
                        context.getPartitionsForTopic(topic));
        return new ProducerRecord<>(topic, partition, null, record.getKey(), record.getValue());
    }

    @Override
    public Optional<KafkaDatasetFacet> getKafkaDatasetFacet() {
        return Optional.of(new DefaultKafkaDatasetFacet(DefaultKafkaDatasetIdentifier.ofTopics(List.of(topic))));
    }
}
