package org.apache.flink.streaming.connectors.kafka.table;

import java.util.List;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.connector.Projection;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * kjson's window onto the planned state of Flink's own {@link KafkaDynamicSource} (its
 * {@code protected} members, hence this package): kjson's scan source keeps the stock source as
 * it was planned (options, offsets, metadata columns, watermark strategy) and builds from it the
 * same {@link KafkaSource} the stock source builds (subscriber, offsets initializers,
 * boundedness, consumer properties), then replaces only the reader. Compiled against each
 * line's connector, so a change of these members fails the build, not a job.
 */
public final class KjsonKafkaScan {
    private KjsonKafkaScan() {}

    /**
     * The stock source's {@link KafkaSource}, with the stock deserializers of the table (used
     * only where the native library cannot load and the table allows the fallback).
     */
    public static KafkaSource<RowData> kafkaSource(KafkaDynamicSource source, DynamicTableSource.Context context,
            TypeInformation<RowData> producedType) {
        DeserializationSchema<RowData> key = runtimeDecoder(source, context, source.keyDecodingFormat,
                source.keyProjection, source.keyPrefix);
        DeserializationSchema<RowData> value = runtimeDecoder(source, context, source.valueDecodingFormat,
                source.valueProjection, null);
        return source.createKafkaSource(key, value, producedType);
    }

    /** The physical columns, then the metadata columns the planner asked for. */
    public static DataType producedDataType(KafkaDynamicSource source) {
        return source.producedDataType;
    }

    /** The connector's metadata keys in the order of the produced row (format metadata excluded). */
    public static List<String> metadataKeys(KafkaDynamicSource source) {
        return source.metadataKeys;
    }

    /** The pushed-down watermark strategy, or null. */
    public static WatermarkStrategy<RowData> watermarkStrategy(KafkaDynamicSource source) {
        return source.watermarkStrategy;
    }

    public static DataType physicalDataType(KafkaDynamicSource source) {
        return source.physicalDataType;
    }

    public static String tableIdentifier(KafkaDynamicSource source) {
        return source.tableIdentifier;
    }

    /** The format's runtime decoder over its projection of the physical row, key prefix removed. */
    private static DeserializationSchema<RowData> runtimeDecoder(KafkaDynamicSource source,
            DynamicTableSource.Context context, DecodingFormat<DeserializationSchema<RowData>> format, int[] projection,
            String prefix) {
        if (format == null) {
            return null;
        }
        DataType projected = Projection.of(projection).project(source.physicalDataType);
        return format.createRuntimeDecoder(context, prefix == null ? projected : withoutPrefix(projected, prefix));
    }

    /** The row type with {@code prefix} cut from every field name (the key fields of the format). */
    private static DataType withoutPrefix(DataType row, String prefix) {
        List<String> names = DataType.getFieldNames(row);
        List<DataType> types = DataType.getFieldDataTypes(row);
        DataTypes.Field[] fields = new DataTypes.Field[names.size()];
        for (int i = 0; i < fields.length; i++) {
            String name = names.get(i);
            fields[i] = DataTypes.FIELD(name.startsWith(prefix) ? name.substring(prefix.length()) : name, types.get(i));
        }
        LogicalType logical = row.getLogicalType();
        DataType stripped = DataTypes.ROW(fields);
        return (logical.isNullable() ? stripped : stripped.notNull()).bridgedTo(row.getConversionClass());
    }
}
