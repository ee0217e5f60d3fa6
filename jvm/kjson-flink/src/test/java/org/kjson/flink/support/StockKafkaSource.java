package org.kjson.flink.support;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.connector.source.ScanRuntimeProviderContext;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The stock read path of a Flink SQL job, the oracle of the native decoder: the real
 * (upsert-)kafka factory builds the {@code KafkaDynamicSource} of a table (its key and value
 * decoders, {@code JsonParserRowDataDeserializationSchema} for {@code json}), and the
 * {@code KafkaRecordDeserializationSchema} of its {@code KafkaSource} (held in private fields,
 * read by reflection) turns one Kafka record into the rows the source reader emits. Physical
 * columns only (no metadata columns).
 */
public final class StockKafkaSource {
    private final KafkaRecordDeserializationSchema<RowData> schema;
    private final RowType rowType;

    private StockKafkaSource(KafkaRecordDeserializationSchema<RowData> schema, RowType rowType) {
        this.schema = schema;
        this.rowType = rowType;
    }

    /** The opened record deserializer of {@code table} (resolved by {@link StockKafkaSink#create}). */
    public static StockKafkaSource of(ResolvedCatalogTable table) throws Exception {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        DynamicTableSource source = FactoryUtil.createDynamicTableSource(null,
                ObjectIdentifier.of("default_catalog", "default_database", "kjson_decode_oracle"), table,
                Collections.emptyMap(), new Configuration(), loader, false);
        ScanTableSource.ScanRuntimeProvider provider =
                ((ScanTableSource) source).getScanRuntimeProvider(ScanRuntimeProviderContext.INSTANCE);
        KafkaSource<?> kafkaSource = (KafkaSource<?>) fieldOfType(provider, KafkaSource.class);
        @SuppressWarnings("unchecked")
        KafkaRecordDeserializationSchema<RowData> schema = (KafkaRecordDeserializationSchema<RowData>)
                fieldOfType(kafkaSource, KafkaRecordDeserializationSchema.class);
        schema.open(new DeserializationSchema.InitializationContext() {
            @Override
            public MetricGroup getMetricGroup() {
                return new UnregisteredMetricsGroup();
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return SimpleUserCodeClassLoader.create(loader);
            }
        });
        RowType rowType = (RowType) table.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
        return new StockKafkaSource(schema, rowType);
    }

    public RowType physicalRowType() {
        return rowType;
    }

    /** The rows Flink emits for one record (copied: a decoder may reuse its row objects); throws as Flink does. */
    public List<RowData> deserialize(byte[] key, byte[] value) throws Exception {
        RowDataSerializer copier = new RowDataSerializer(rowType);
        List<RowData> rows = new ArrayList<>();
        schema.deserialize(new ConsumerRecord<>("kjson-decode", 0, 0L, key, value), new Collector<>() {
            @Override
            public void collect(RowData row) {
                if (row == null) {
                    throw new IllegalStateException("Flink's deserializer emitted a null row");
                }
                rows.add(copier.copy(row));
            }

            @Override
            public void close() {}
        });
        return rows;
    }

    /** Hands Flink's rows of one record to {@code out} as the source reader gets them: not copied, maybe reused. */
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RowData> out) throws Exception {
        schema.deserialize(record, out);
    }

    private static Object fieldOfType(Object owner, Class<?> type) throws IllegalAccessException {
        for (Class<?> c = owner.getClass(); c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (type.isAssignableFrom(field.getType())) {
                    field.setAccessible(true);
                    return field.get(owner);
                }
            }
        }
        throw new IllegalStateException("no " + type.getSimpleName() + " field in " + owner.getClass().getName());
    }
}
