package org.kjson.flink;

import java.util.Objects;
import java.util.Optional;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacetProvider;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.streaming.connectors.kafka.partitioner.FlinkFixedPartitioner;
import org.apache.flink.table.data.RowData;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Hands encoded records to Flink's stock {@code KafkaSink} as the Kafka table sink writes them:
 * key and value bytes as they are (null key; null value for a tombstone); the record timestamp,
 * headers and topic from the row's metadata columns ({@link RecordMetadata}, {@link SinkTopics});
 * without a timestamp column no record timestamp (the producer stamps it). The partition is left
 * to the producer's partitioner (by key hash when the key is not null) unless a partitioner is
 * set: the connector's {@link FlinkFixedPartitioner} ({@code 'sink.partitioner' = 'fixed'}, which
 * never looks at the row) or a custom class, handed the row each record carries, the key and
 * value bytes, the topic and its partitions. It names its topics for lineage, which the
 * {@code POOLING} transaction naming strategy requires.
 */
public final class EncodedRecordSerializationSchema
        implements KafkaRecordSerializationSchema<KafkaEncodedRecord>, KafkaDatasetFacetProvider {
    private static final long serialVersionUID = 3L;

    private final SinkTopics topics;
    /** Null: the producer's partitioner. */
    private final KafkaPartitioner<RowData> partitioner;

    public EncodedRecordSerializationSchema(String topic) {
        this(SinkTopics.of(topic), null);
    }

    private EncodedRecordSerializationSchema(SinkTopics topics, KafkaPartitioner<RowData> partitioner) {
        this.topics = Objects.requireNonNull(topics, "topics");
        this.partitioner = partitioner;
    }

    /** Records to {@code topics}, each row's own topic when there are several. */
    public static EncodedRecordSerializationSchema to(SinkTopics topics) {
        return new EncodedRecordSerializationSchema(topics, null);
    }

    /** The same topics, each sink subtask writing to one partition ({@code 'sink.partitioner' = 'fixed'}). */
    public EncodedRecordSerializationSchema withFixedPartitioner() {
        return new EncodedRecordSerializationSchema(topics, new FlinkFixedPartitioner<>());
    }

    /** The same topics, partitioned by {@code partitioner}; the records must carry their rows if it reads them. */
    public EncodedRecordSerializationSchema withPartitioner(KafkaPartitioner<RowData> partitioner) {
        return new EncodedRecordSerializationSchema(topics, Objects.requireNonNull(partitioner, "partitioner"));
    }

    /** The single topic (the first one listed; null for a pattern). */
    public String getTopic() {
        return topics.topics() == null ? null : topics.topics().get(0);
    }

    public SinkTopics getTopics() {
        return topics;
    }

    @Override
    public void open(SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) {
        if (partitioner != null) {
            partitioner.open(sinkContext.getParallelInstanceId(), sinkContext.getNumberOfParallelInstances());
        }
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(KafkaEncodedRecord record, KafkaSinkContext context, Long timestamp) {
        RecordMetadata metadata = record.getMetadata();
        String topic = topics.topicOf(metadata);
        Integer partition = partitioner == null ? null : partitioner.partition(record.getRow(), record.getKey(),
                record.getValue(), topic, context.getPartitionsForTopic(topic));
        if (metadata == null) {
            return new ProducerRecord<>(topic, partition, null, record.getKey(), record.getValue());
        }
        return new ProducerRecord<>(topic, partition, metadata.timestamp(), record.getKey(), record.getValue(),
                metadata.kafkaHeaders());
    }

    @Override
    public Optional<KafkaDatasetFacet> getKafkaDatasetFacet() {
        return Optional.of(new DefaultKafkaDatasetFacet(topics.datasetIdentifier()));
    }
}
