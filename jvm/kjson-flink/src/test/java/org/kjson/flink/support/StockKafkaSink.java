package org.kjson.flink.support;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.kjson.testkit.StockRecordSerializer;

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
        KafkaRecordSerializationSchema<RowData> serializer = StockRecordSerializer.of(sink);
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
        return StockRecordSerializer.serialize(serializer, row);
    }
}
