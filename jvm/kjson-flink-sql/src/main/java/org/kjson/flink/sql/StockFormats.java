package org.kjson.flink.sql;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSink;
import org.apache.flink.table.connector.Projection;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.FieldsDataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeUtils;
import org.kjson.flink.FlinkRecordSerializer;

/**
 * The key and value formats of a sink table as the stock Kafka sink holds them (the formats it
 * discovered, its key and value projections, its key prefix, its upsert mode), so that
 * {@link #serializer} builds the formats' own runtime encoders exactly as the stock sink builds
 * them: for a key in a format kjson does not encode, and for the fallback without the native
 * library. The stock {@code KafkaDynamicSink} keeps these in protected fields (the same on every
 * connector line kjson builds for); they are read once, at planning.
 */
final class StockFormats {
    /** The key format the native encoder writes. */
    static final String NATIVE_KEY_FORMAT = "json";

    /** Null: no key format. */
    private final EncodingFormat<SerializationSchema<RowData>> keyFormat;
    private final EncodingFormat<SerializationSchema<RowData>> valueFormat;
    private final String keyFormatName;
    private final String valueFormatName;
    private final DataType physicalDataType;
    private final int[] keyProjection;
    private final int[] valueProjection;
    /** Null: no prefix. */
    private final String keyPrefix;
    private final boolean upsert;

    @SuppressWarnings("unchecked")
    private StockFormats(KafkaDynamicSink stock, Map<String, String> options) throws ReflectiveOperationException {
        this.keyFormat = (EncodingFormat<SerializationSchema<RowData>>) field(stock, "keyEncodingFormat");
        this.valueFormat = (EncodingFormat<SerializationSchema<RowData>>) field(stock, "valueEncodingFormat");
        this.physicalDataType = (DataType) field(stock, "physicalDataType");
        this.keyProjection = (int[]) field(stock, "keyProjection");
        this.valueProjection = (int[]) field(stock, "valueProjection");
        this.keyPrefix = (String) field(stock, "keyPrefix");
        this.upsert = (Boolean) field(stock, "upsertMode");
        this.keyFormatName = keyFormat == null ? null : options.get(KafkaConnectorOptions.KEY_FORMAT.key());
        this.valueFormatName = options.getOrDefault(FactoryUtil.FORMAT.key(),
                options.get(KafkaConnectorOptions.VALUE_FORMAT.key()));
    }

    /** {@code stockSink}: what the stock factory created for {@code stockOptions}. */
    static StockFormats of(DynamicTableSink stockSink, Map<String, String> stockOptions) {
        if (!(stockSink instanceof KafkaDynamicSink kafkaSink)) {
            throw new IllegalStateException("the stock factory created a " + stockSink.getClass().getName()
                    + ", not a KafkaDynamicSink");
        }
        try {
            return new StockFormats(kafkaSink, stockOptions);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the formats of the stock Kafka table sink: " + e, e);
        }
    }

    private static Object field(KafkaDynamicSink sink, String name) throws ReflectiveOperationException {
        Field field = KafkaDynamicSink.class.getDeclaredField(name);
        field.setAccessible(true);
        return field.get(sink);
    }

    /** True unless the key is in a format the native encoder does not write. */
    boolean keyEncodedNatively() {
        return keyFormatName == null || NATIVE_KEY_FORMAT.equals(keyFormatName);
    }

    /** The formats as the log lines name them. */
    String describe() {
        return (keyFormatName == null ? "no key" : "key '" + keyFormatName + "'") + ", value '" + valueFormatName + "'";
    }

    /**
     * The table's options as the native encoder takes them: a key in another format becomes a
     * json key over the same fields (the value projection depends on the key fields); its bytes
     * are replaced by Flink's serializer's.
     */
    Map<String, String> nativeOptions(Map<String, String> options) {
        if (keyEncodedNatively()) {
            return options;
        }
        String formatPrefix = "key." + keyFormatName + ".";
        Map<String, String> forNative = new HashMap<>(options.entrySet().stream()
                .filter(e -> !e.getKey().startsWith(formatPrefix))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        forNative.put(KafkaConnectorOptions.KEY_FORMAT.key(), NATIVE_KEY_FORMAT);
        return forNative;
    }

    /** The formats' runtime encoders for this sink, as the stock sink creates them in its runtime provider. */
    FlinkRecordSerializer serializer(DynamicTableSink.Context context) {
        SerializationSchema<RowData> key = keyFormat == null ? null
                : keyFormat.createRuntimeEncoder(context, formatType(keyProjection, keyPrefix));
        SerializationSchema<RowData> value = valueFormat.createRuntimeEncoder(context, formatType(valueProjection, null));
        return FlinkRecordSerializer.of(key, value, (RowType) physicalDataType.getLogicalType(), keyProjection,
                valueProjection, upsert, keyEncodedNatively(), describe());
    }

    private DataType formatType(int[] projection, String prefix) {
        DataType projected = Projection.of(projection).project(physicalDataType);
        return prefix == null ? projected : stripPrefix(projected, prefix);
    }

    /** Field names without the key prefix (the stock sink's rule: only names that start with it). */
    private static DataType stripPrefix(DataType rowDataType, String prefix) {
        RowType rowType = (RowType) rowDataType.getLogicalType();
        List<String> names = rowType.getFieldNames().stream()
                .map(name -> name.startsWith(prefix) ? name.substring(prefix.length()) : name)
                .collect(Collectors.toList());
        return new FieldsDataType(LogicalTypeUtils.renameRowFields(rowType, names), rowDataType.getConversionClass(),
                rowDataType.getChildren());
    }
}
