package org.kjson.flink.sql.support;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.ExternalSerializer;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.Row;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Stock Flink's bytes for a row: the real {@code kafka} / {@code upsert-kafka} factory builds
 * its sink for the table (with the {@code connector} option replaced), and the connector's own
 * record serializer (projections, prefix, tombstones, {@code json} format) serializes the row.
 * This is the oracle the kjson sink's records are compared with.
 */
public final class StockSerializer {
    private final KafkaRecordSerializationSchema<RowData> serializer;
    private final DataStructureConverter<Object, Object> converter;
    private final ExternalSerializer<Object, Row> externalCopier;

    private StockSerializer(KafkaRecordSerializationSchema<RowData> serializer, DataStructureConverter<Object, Object> converter,
            ExternalSerializer<Object, Row> externalCopier) {
        this.serializer = serializer;
        this.converter = converter;
        this.externalCopier = externalCopier;
    }

    public static StockSerializer of(ResolvedCatalogTable table, String stockConnector) throws Exception {
        Map<String, String> options = new HashMap<>(table.getOptions());
        options.remove("kjson.batch-rows");
        options.put("connector", stockConnector);
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        DynamicTableSink sink = FactoryUtil.createDynamicTableSink(null, ObjectIdentifier.of("stock", "stock", "oracle"),
                table.copy(options), Map.of(), new Configuration(), loader, false);
        SinkV2Provider provider = (SinkV2Provider) sink.getSinkRuntimeProvider(new SinkContext());
        KafkaRecordSerializationSchema<RowData> serializer = recordSerializerOf(provider.createSink());
        serializer.open(initializationContext(loader), SINK_CONTEXT);
        DataType rowType = table.getResolvedSchema().toPhysicalRowDataType();
        @SuppressWarnings("unchecked")
        DataStructureConverter<Object, Object> converter =
                (DataStructureConverter<Object, Object>) DataStructureConverters.getConverter(rowType);
        converter.open(loader);
        return new StockSerializer(serializer, converter, ExternalSerializer.of(rowType));
    }

    /**
     * The internal row the sink receives for an external one (kind included). Flink copies a
     * record between chained operators with its type's serializer, which for an external Row
     * re-creates maps as HashMaps: the copy is made here too, so map entries come in the order
     * the sink sees them.
     */
    public RowData toRowData(Row row) {
        return (RowData) converter.toInternalOrNull(externalCopier.copy(row));
    }

    public ProducerRecord<byte[], byte[]> serialize(Row row) {
        return serializer.serialize(toRowData(row), SINK_CONTEXT, null);
    }

    @SuppressWarnings("unchecked")
    private static KafkaRecordSerializationSchema<RowData> recordSerializerOf(Sink<RowData> kafkaSink) throws IllegalAccessException {
        for (Class<?> c = kafkaSink.getClass(); c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (KafkaRecordSerializationSchema.class.isAssignableFrom(field.getType())) {
                    field.setAccessible(true);
                    return (KafkaRecordSerializationSchema<RowData>) field.get(kafkaSink);
                }
            }
        }
        throw new IllegalStateException("no record serializer in " + kafkaSink.getClass());
    }

    /** The minimal context a table sink needs to create its runtime provider. */
    public static final class SinkContext implements DynamicTableSink.Context {
        @Override
        public boolean isBounded() {
            return false;
        }

        @Override
        public <T> TypeInformation<T> createTypeInformation(DataType type) {
            return InternalTypeInfo.of(type.getLogicalType());
        }

        @Override
        public <T> TypeInformation<T> createTypeInformation(LogicalType type) {
            return InternalTypeInfo.of(type);
        }

        @Override
        public DynamicTableSink.DataStructureConverter createDataStructureConverter(DataType type) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<int[][]> getTargetColumns() {
            return Optional.empty();
        }
    }

    private static final KafkaRecordSerializationSchema.KafkaSinkContext SINK_CONTEXT =
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
