package org.kjson.flink.sql.support;

import java.util.HashMap;
import java.util.Map;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.ExternalSerializer;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.kjson.testkit.StockRecordSerializer;

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
        options.keySet().removeIf(key -> key.startsWith("kjson."));
        options.put("connector", stockConnector);
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        DynamicTableSink sink = FactoryUtil.createDynamicTableSink(null, ObjectIdentifier.of("stock", "stock", "oracle"),
                table.copy(options), Map.of(), new Configuration(), loader, false);
        KafkaRecordSerializationSchema<RowData> serializer = StockRecordSerializer.of(sink);
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
        return StockRecordSerializer.serialize(serializer, toRowData(row));
    }
}
