package org.kjson.parity;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogBaseTable;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.connector.sink.abilities.SupportsWritingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.kjson.testkit.StockRecordSerializer;
import org.kjson.testkit.TableSinkContext;

/**
 * The real SQL path from a Kafka sink DDL to the connector's record serializer:
 * TableEnvironment executes the DDL, the catalog resolves it, {@link FactoryUtil} builds the sink
 * with the real (upsert-)kafka factory (which validates the options and creates the json
 * encoders), and the {@code KafkaSink} it returns hands over its
 * {@code DynamicKafkaRecordSerializationSchema}.
 */
public final class FlinkKafkaSink {

    static final String TABLE_API_PATH_NAME =
            "table-api: TableApiDdl -> TableEnvironment.createTable(TableDescriptor) -> ResolvedCatalogTable"
                    + " -> FactoryUtil.createDynamicTableSink -> KafkaDynamicSink.getSinkRuntimeProvider"
                    + " -> KafkaSink.recordSerializer (DynamicKafkaRecordSerializationSchema.serialize)";

    public static final String PATH_NAME =
            "sql: TableEnvironment DDL -> ResolvedCatalogTable -> FactoryUtil.createDynamicTableSink"
                    + " -> KafkaDynamicSink.getSinkRuntimeProvider -> KafkaSink.recordSerializer"
                    + " (DynamicKafkaRecordSerializationSchema.serialize)";

    private final TableEnvironment tableEnv;

    public FlinkKafkaSink() {
        this.tableEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    }

    /** A DDL that Flink accepted into its catalog, with the schema the planner resolved. */
    public record ResolvedTable(ObjectIdentifier id, ResolvedCatalogTable table) {
        public RowType physicalRowType() {
            return (RowType) table.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
        }

        public Map<String, String> options() {
            return table.getOptions();
        }
    }

    /** The connector's serializer, opened, plus how many metadata fields follow the physical ones. */
    public record RecordSerializer(KafkaRecordSerializationSchema<RowData> schema, int metadataArity, String connectorJar) {}

    /** Runs the DDL (or, for {@code tableApi}, registers its {@link TableApiDdl} descriptor). */
    public ResolvedTable createTable(String ddl, boolean tableApi) {
        Set<String> before = new HashSet<>(List.of(tableEnv.listTables()));
        if (tableApi) {
            TableApiDdl.Table table = TableApiDdl.parse(ddl);
            tableEnv.createTable(table.name(), table.descriptor());
        } else {
            tableEnv.executeSql(ddl);
        }
        List<String> created = new ArrayList<>(List.of(tableEnv.listTables()));
        created.removeAll(before);
        if (created.size() != 1) {
            throw new IllegalStateException("oracle: the case must create exactly one table, got " + created);
        }
        var catalogManager = ((TableEnvironmentInternal) tableEnv).getCatalogManager();
        ObjectIdentifier id = ObjectIdentifier.of(
                catalogManager.getCurrentCatalog(), catalogManager.getCurrentDatabase(), created.get(0));
        ResolvedCatalogBaseTable<?> base = catalogManager.getTable(id)
                .orElseThrow(() -> new IllegalStateException("oracle: table vanished: " + id))
                .getResolvedTable();
        return new ResolvedTable(id, (ResolvedCatalogTable) base);
    }

    /** The session's configuration, which the planner would hand to the factories. */
    public TableConfig config() {
        return tableEnv.getConfig();
    }

    public void dropTable(ObjectIdentifier id) {
        tableEnv.executeSql("DROP TABLE IF EXISTS " + id.asSerializableString());
    }

    public RecordSerializer createSerializer(ResolvedTable resolved) throws Exception {
        DynamicTableSink sink = FactoryUtil.createDynamicTableSink(
                null, resolved.id(), resolved.table(), Collections.emptyMap(), tableEnv.getConfig(),
                Thread.currentThread().getContextClassLoader(), false);
        int metadataArity = applyWritableMetadata(sink, resolved.table().getResolvedSchema());
        DynamicTableSink.SinkRuntimeProvider provider = sink.getSinkRuntimeProvider(new TableSinkContext());
        if (!(provider instanceof SinkV2Provider)) {
            throw new IllegalStateException("oracle: unsupported sink runtime provider "
                    + provider.getClass().getName() + " (e.g. sink.buffer-flush.* wraps the KafkaSink)");
        }
        Sink<RowData> kafkaSink = ((SinkV2Provider) provider).createSink();
        KafkaRecordSerializationSchema<RowData> schema =
                StockRecordSerializer.opened(StockRecordSerializer.recordSerializerOf(kafkaSink));
        String jar = String.valueOf(kafkaSink.getClass().getProtectionDomain().getCodeSource().getLocation());
        return new RecordSerializer(schema, metadataArity, jar.substring(jar.lastIndexOf('/') + 1));
    }

    /**
     * Does what the planner does for persisted metadata columns: the sink is told the metadata
     * keys in the order of its own {@code listWritableMetadata()}, and the consumed row is the
     * physical row followed by those metadata values.
     */
    private static int applyWritableMetadata(DynamicTableSink sink, ResolvedSchema schema) {
        Map<String, Column.MetadataColumn> persisted = new LinkedHashMap<>();
        for (Column column : schema.getColumns()) {
            if (column instanceof Column.MetadataColumn m && m.isPersisted()) {
                persisted.put(m.getMetadataKey().orElse(m.getName()), m);
            }
        }
        if (persisted.isEmpty()) {
            return 0;
        }
        if (!(sink instanceof SupportsWritingMetadata writer)) {
            throw new IllegalStateException("oracle: sink does not accept metadata columns");
        }
        DataType physical = schema.toPhysicalRowDataType();
        List<String> names = new ArrayList<>(DataType.getFieldNames(physical));
        List<DataType> types = new ArrayList<>(DataType.getFieldDataTypes(physical));
        List<String> keys = new ArrayList<>();
        for (Map.Entry<String, DataType> entry : writer.listWritableMetadata().entrySet()) {
            if (persisted.containsKey(entry.getKey())) {
                keys.add(entry.getKey());
                names.add(persisted.get(entry.getKey()).getName());
                types.add(entry.getValue());
            }
        }
        List<DataTypes.Field> fields = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            fields.add(DataTypes.FIELD(names.get(i), types.get(i)));
        }
        writer.applyWritableMetadata(keys, DataTypes.ROW(fields).notNull());
        return keys.size();
    }

    /** The Flink version of the jars on the classpath, e.g. "2.3.0". */
    public static String flinkVersion() {
        try {
            Class<?> info = Class.forName("org.apache.flink.runtime.util.EnvironmentInformation");
            return String.valueOf(info.getMethod("getVersion").invoke(null));
        } catch (ReflectiveOperationException e) {
            return "unknown (" + e + ")";
        }
    }
}
