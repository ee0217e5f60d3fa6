package org.kjson.flink.sql;

import java.io.Serializable;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.InstantiationUtil;
import org.kjson.flink.EncodedRecordSerializationSchema;

/**
 * {@code sink.partitioner} as the {@code kafka} table sink reads it: {@code default} and
 * {@code round-robin} leave the partition to the producer, {@code fixed} is the connector's fixed
 * partitioner (it never looks at the row), and any other value is a {@link KafkaPartitioner}
 * class, instantiated once here and handed, for every record, the row the sink consumed (the
 * records carry a copy), the key and value bytes, the topic and its partitions.
 */
final class SinkPartitioner implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final SinkPartitioner PRODUCER = new SinkPartitioner(null, false);

    /** Null: the producer's partitioner. */
    private final KafkaPartitioner<RowData> partitioner;
    private final boolean readsRows;

    private SinkPartitioner(KafkaPartitioner<RowData> partitioner, boolean readsRows) {
        this.partitioner = partitioner;
        this.readsRows = readsRows;
    }

    /** From options the stock factory accepted (so a class name names a loadable partitioner). */
    static SinkPartitioner of(Configuration config, ClassLoader classLoader) {
        String name = config.getOptional(KafkaConnectorOptions.SINK_PARTITIONER).orElse("default");
        switch (name) {
            case "default":
            case "round-robin":
                return PRODUCER;
            case "fixed":
                return new SinkPartitioner(
                        new org.apache.flink.streaming.connectors.kafka.partitioner.FlinkFixedPartitioner<>(), false);
            default:
                return new SinkPartitioner(instantiate(name, classLoader), true);
        }
    }

    @SuppressWarnings("unchecked")
    private static KafkaPartitioner<RowData> instantiate(String name, ClassLoader classLoader) {
        try {
            return InstantiationUtil.instantiate(name, KafkaPartitioner.class, classLoader);
        } catch (Exception e) {
            throw new ValidationException(String.format("Option '%s' = '%s': cannot instantiate the partitioner class: %s",
                    KafkaConnectorOptions.SINK_PARTITIONER.key(), name, e.getMessage()), e);
        }
    }

    /** A custom class: the records must carry the consumed rows. */
    boolean readsRows() {
        return readsRows;
    }

    EncodedRecordSerializationSchema applyTo(EncodedRecordSerializationSchema schema) {
        return partitioner == null ? schema : schema.withPartitioner(partitioner);
    }

    @Override
    public String toString() {
        return partitioner == null ? "producer's" : partitioner.getClass().getName();
    }
}
