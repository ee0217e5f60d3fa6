package org.kjson.testkit;

import java.lang.reflect.Field;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Flink's own record serializer of a {@code kafka} / {@code upsert-kafka} table sink (projections,
 * key prefix, tombstones, the formats), opened as the sink writer opens it. The connector keeps
 * it in a private field of its {@code KafkaSink}, so it is read by reflection. This is the oracle
 * the native records are compared with, byte for byte.
 */
public final class StockRecordSerializer {
    /** Subtask 0 of 1; the partitioners kjson supports do not ask for topic partitions. */
    public static final KafkaRecordSerializationSchema.KafkaSinkContext SINK_CONTEXT =
            new KafkaRecordSerializationSchema.KafkaSinkContext() {
                @Override
                public int getParallelInstanceId() {
                    return 0;
                }

                @Override
                public int getNumberOfParallelInstances() {
                    return 1;
                }

                @Override
                public int[] getPartitionsForTopic(String topic) {
                    return new int[] {0};
                }
            };

    private StockRecordSerializer() {}

    /** The opened record serializer of a table sink that Flink's factory created. */
    public static KafkaRecordSerializationSchema<RowData> of(DynamicTableSink sink) throws Exception {
        DynamicTableSink.SinkRuntimeProvider provider = sink.getSinkRuntimeProvider(new TableSinkContext());
        if (!(provider instanceof SinkV2Provider sinkProvider)) {
            throw new IllegalStateException("unsupported sink runtime provider " + provider.getClass().getName()
                    + " (e.g. sink.buffer-flush.* wraps the KafkaSink)");
        }
        return opened(recordSerializerOf(sinkProvider.createSink()));
    }

    /** The record serializer a {@code KafkaSink} holds. */
    @SuppressWarnings("unchecked")
    public static KafkaRecordSerializationSchema<RowData> recordSerializerOf(Sink<RowData> kafkaSink)
            throws IllegalAccessException {
        for (Class<?> c = kafkaSink.getClass(); c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (KafkaRecordSerializationSchema.class.isAssignableFrom(field.getType())) {
                    field.setAccessible(true);
                    return (KafkaRecordSerializationSchema<RowData>) field.get(kafkaSink);
                }
            }
        }
        throw new IllegalStateException("no record serializer field in " + kafkaSink.getClass());
    }

    /** Opens {@code serializer} with the current thread's class loader and {@link #SINK_CONTEXT}. */
    public static KafkaRecordSerializationSchema<RowData> opened(KafkaRecordSerializationSchema<RowData> serializer)
            throws Exception {
        serializer.open(initializationContext(Thread.currentThread().getContextClassLoader()), SINK_CONTEXT);
        return serializer;
    }

    /** One row as the stock sink writes it. */
    public static ProducerRecord<byte[], byte[]> serialize(KafkaRecordSerializationSchema<RowData> serializer, RowData row) {
        return serializer.serialize(row, SINK_CONTEXT, null);
    }

    private static SerializationSchema.InitializationContext initializationContext(ClassLoader loader) {
        return new SerializationSchema.InitializationContext() {
            @Override
            public MetricGroup getMetricGroup() {
                return new UnregisteredMetricsGroup();
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return SimpleUserCodeClassLoader.create(loader);
            }
        };
    }
}
