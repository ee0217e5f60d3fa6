package org.kjson.parity.decode;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.connector.source.ScanRuntimeProviderContext;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.kjson.parity.FlinkKafkaSink;

/**
 * The real SQL path from a Kafka source DDL to the connector's record deserializer:
 * {@link FactoryUtil#createDynamicTableSource} builds the {@code KafkaDynamicSource} with the real
 * (upsert-)kafka factory (option validation, the key and value decoders), metadata columns are
 * applied as the planner applies them, and the {@code KafkaSource} of its scan provider hands over
 * the {@code KafkaRecordDeserializationSchema} that the source reader calls per record.
 */
final class FlinkKafkaSource {

    static final String PATH_NAME = "sql: TableEnvironment DDL -> ResolvedCatalogTable -> FactoryUtil.createDynamicTableSource"
            + " -> KafkaDynamicSource.getScanRuntimeProvider -> KafkaSource.deserializationSchema"
            + " (KafkaRecordDeserializationSchema.deserialize)";

    /** The opened deserializer and the row type of what it emits (physical, then metadata). */
    record RecordDeserializer(KafkaRecordDeserializationSchema<RowData> schema, RowType producedType,
            int metadataArity, String connectorJar) {

        /**
         * The rows Flink emits for one record (copied: a decoder may reuse its row objects). A null
         * row throws from the collector, as the operator after a real source throws on it: inside
         * the format's call, so {@code ignore-parse-errors} swallows it (the record keeps the rows
         * before it) and otherwise the record fails.
         */
        List<RowData> deserialize(byte[] key, byte[] value) throws Exception {
            RowDataSerializer copier = new RowDataSerializer(producedType);
            List<RowData> rows = new ArrayList<>();
            ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("kjson-decode", 0, 0L, key, value);
            schema.deserialize(record, new Collector<>() {
                @Override
                public void collect(RowData row) {
                    if (row == null) {
                        throw new NullRowException(rows.size());
                    }
                    rows.add(copier.copy(row));
                }

                @Override
                public void close() {}
            });
            for (RowData row : rows) {
                if (NullMapKeys.in(row, producedType)) {
                    throw new NullMapKeyException();
                }
            }
            return rows;
        }
    }

    /**
     * A map with a null key in an emitted row (Flink reads one only after a nesting-depth error):
     * no Arrow map can hold it, so the record is judged failed and kjson must fail it too.
     */
    static final class NullMapKeyException extends Exception {
        NullMapKeyException() {
            super("oracle: Flink's row holds a MAP with a null key, which an Arrow map cannot hold");
        }
    }

    /** Flink's deserializer handed a null row to the collector (what the next operator fails on). */
    static final class NullRowException extends RuntimeException {
        NullRowException(int rows) {
            super("oracle: Flink's deserializer emitted a null row (after " + rows + " rows)");
        }
    }

    private FlinkKafkaSource() {}

    static RecordDeserializer create(FlinkKafkaSink flink, FlinkKafkaSink.ResolvedTable resolved) throws Exception {
        DynamicTableSource source = FactoryUtil.createDynamicTableSource(
                null, resolved.id(), resolved.table(), Collections.emptyMap(), flink.config(),
                Thread.currentThread().getContextClassLoader(), false);
        DataType produced = applyReadableMetadata(source, resolved.table().getResolvedSchema());
        ScanTableSource.ScanRuntimeProvider provider =
                ((ScanTableSource) source).getScanRuntimeProvider(ScanRuntimeProviderContext.INSTANCE);
        // The connector builds its KafkaSource inside getScanRuntimeProvider and keeps it only in
        // the provider (a captured variable) and the source's private field; there is no getter.
        KafkaSource<?> kafkaSource = (KafkaSource<?>) fieldOfType(provider, KafkaSource.class);
        @SuppressWarnings("unchecked")
        KafkaRecordDeserializationSchema<RowData> schema = (KafkaRecordDeserializationSchema<RowData>)
                fieldOfType(kafkaSource, KafkaRecordDeserializationSchema.class);
        schema.open(initializationContext(Thread.currentThread().getContextClassLoader()));
        String jar = String.valueOf(kafkaSource.getClass().getProtectionDomain().getCodeSource().getLocation());
        RowType producedType = (RowType) produced.getLogicalType();
        int physicalArity = resolved.physicalRowType().getFieldCount();
        return new RecordDeserializer(schema, producedType, producedType.getFieldCount() - physicalArity,
                jar.substring(jar.lastIndexOf('/') + 1));
    }

    /**
     * What the planner does for metadata columns (persisted or virtual): the source is told the
     * keys in the order of its own {@code listReadableMetadata()}, and produces the physical
     * fields followed by those metadata values.
     */
    private static DataType applyReadableMetadata(DynamicTableSource source, ResolvedSchema schema) {
        DataType physical = schema.toPhysicalRowDataType();
        Map<String, Column.MetadataColumn> used = new LinkedHashMap<>();
        for (Column column : schema.getColumns()) {
            if (column instanceof Column.MetadataColumn m) {
                used.putIfAbsent(m.getMetadataKey().orElse(m.getName()), m);
            }
        }
        if (used.isEmpty()) {
            return physical;
        }
        if (!(source instanceof SupportsReadingMetadata reader)) {
            throw new IllegalStateException("oracle: source does not read metadata columns");
        }
        List<String> names = new ArrayList<>(DataType.getFieldNames(physical));
        List<DataType> types = new ArrayList<>(DataType.getFieldDataTypes(physical));
        List<String> keys = new ArrayList<>();
        for (Map.Entry<String, DataType> entry : reader.listReadableMetadata().entrySet()) {
            if (used.containsKey(entry.getKey())) {
                keys.add(entry.getKey());
                names.add(used.get(entry.getKey()).getName());
                types.add(entry.getValue());
            }
        }
        List<DataTypes.Field> fields = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            fields.add(DataTypes.FIELD(names.get(i), types.get(i)));
        }
        DataType produced = DataTypes.ROW(fields).notNull();
        reader.applyReadableMetadata(keys, produced);
        return produced;
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
        throw new IllegalStateException("oracle: no " + type.getSimpleName() + " field in " + owner.getClass().getName());
    }

    private static DeserializationSchema.InitializationContext initializationContext(ClassLoader loader) {
        return new DeserializationSchema.InitializationContext() {
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
