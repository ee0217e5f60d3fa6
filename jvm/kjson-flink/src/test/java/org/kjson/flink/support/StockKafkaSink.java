package org.kjson.flink.support;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The stock path a Flink SQL job takes: the DDL goes into a real TableEnvironment catalog, the
 * real (upsert-)kafka factory builds the sink and its json encoders, and the connector's own
 * record serializer (projection, prefix stripping, tombstones) turns a physical row into a
 * Kafka record. This is the oracle the native path must match byte for byte.
 */
public final class StockKafkaSink {
    private static TableEnvironment tableEnv;

    private final ResolvedCatalogTable table;
    private final KafkaRecordSerializationSchema<RowData> serializer;

    private StockKafkaSink(ResolvedCatalogTable table, KafkaRecordSerializationSchema<RowData> serializer) {
        this.table = table;
        this.serializer = serializer;
    }

    private static synchronized TableEnvironment tableEnv() {
        if (tableEnv == null) {
            tableEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        }
        return tableEnv;
    }

    /** Creates the table of {@code ddl} (one CREATE TABLE) and its opened record serializer. */
    public static synchronized StockKafkaSink create(String ddl) throws Exception {
        TableEnvironment env = tableEnv();
        Set<String> before = new HashSet<>(List.of(env.listTables()));
        env.executeSql(ddl);
        List<String> created = new ArrayList<>(List.of(env.listTables()));
        created.removeAll(before);
        var catalog = ((TableEnvironmentInternal) env).getCatalogManager();
        ObjectIdentifier id = ObjectIdentifier.of(catalog.getCurrentCatalog(), catalog.getCurrentDatabase(), created.get(0));
        ResolvedCatalogTable table = (ResolvedCatalogTable) catalog.getTable(id).orElseThrow().getResolvedTable();
        env.executeSql("DROP TABLE " + id.asSerializableString());
        DynamicTableSink sink = FactoryUtil.createDynamicTableSink(null, id, table, Collections.emptyMap(),
                env.getConfig(), Thread.currentThread().getContextClassLoader(), false);
        SinkV2Provider provider = (SinkV2Provider) sink.getSinkRuntimeProvider(new TableSinkContext());
        KafkaRecordSerializationSchema<RowData> serializer = recordSerializerOf(provider.createSink());
        serializer.open(initializationContext(), SINK_CONTEXT);
        return new StockKafkaSink(table, serializer);
    }

    public ResolvedCatalogTable table() {
        return table;
    }

    public RowType physicalRowType() {
        return (RowType) table.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
    }

    public Map<String, String> options() {
        return table.getOptions();
    }

    public ProducerRecord<byte[], byte[]> serialize(RowData row) {
        return serializer.serialize(row, SINK_CONTEXT, null);
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

    private static final class TableSinkContext implements DynamicTableSink.Context {
        public boolean isBounded() {
            return false;
        }

        public <T> TypeInformation<T> createTypeInformation(DataType type) {
            return InternalTypeInfo.of(type.getLogicalType());
        }

        public <T> TypeInformation<T> createTypeInformation(LogicalType type) {
            return InternalTypeInfo.of(type);
        }

        public DynamicTableSink.DataStructureConverter createDataStructureConverter(DataType type) {
            throw new UnsupportedOperationException();
        }

        public Optional<int[][]> getTargetColumns() {
            return Optional.empty();
        }
    }

    private static final KafkaRecordSerializationSchema.KafkaSinkContext SINK_CONTEXT =
            new KafkaRecordSerializationSchema.KafkaSinkContext() {
                public int getParallelInstanceId() {
                    return 0;
                }

                public int getNumberOfParallelInstances() {
                    return 1;
                }

                public int[] getPartitionsForTopic(String topic) {
                    return new int[] {0};
                }
            };

    private static SerializationSchema.InitializationContext initializationContext() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return new SerializationSchema.InitializationContext() {
            public MetricGroup getMetricGroup() {
                return new UnregisteredMetricsGroup();
            }

            public UserCodeClassLoader getUserCodeClassLoader() {
                return SimpleUserCodeClassLoader.create(loader);
            }
        };
    }
}
