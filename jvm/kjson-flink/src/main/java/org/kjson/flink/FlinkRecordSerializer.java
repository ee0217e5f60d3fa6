package org.kjson.flink;

import java.io.Serializable;
import java.util.Objects;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

/**
 * Flink's own serializers of a sink's key and value (the formats' runtime encoders, built for
 * the stock connector's projections), for what kjson does not encode natively: a key in a format
 * other than json, and every record where the native library cannot load and the fallback is
 * allowed ({@link NativeLibraryPolicy#FALLBACK}). A row becomes bytes as the stock Kafka record
 * serializer makes them: the key from the key fields as an insert row; the value from the whole
 * row when there is no key, else from the value fields with the row's kind, or in upsert mode a
 * tombstone for {@code -U}/{@code -D} and an insert row otherwise.
 */
public final class FlinkRecordSerializer implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Null: the table has no key format. */
    private final SerializationSchema<RowData> key;
    private final SerializationSchema<RowData> value;
    private final RowData.FieldGetter[] keyFields;
    private final RowData.FieldGetter[] valueFields;
    private final boolean upsert;
    private final boolean keyEncodedNatively;
    private final String formats;

    private FlinkRecordSerializer(SerializationSchema<RowData> key, SerializationSchema<RowData> value,
            RowData.FieldGetter[] keyFields, RowData.FieldGetter[] valueFields, boolean upsert,
            boolean keyEncodedNatively, String formats) {
        this.key = key;
        this.value = Objects.requireNonNull(value, "value");
        this.keyFields = keyFields;
        this.valueFields = valueFields;
        this.upsert = upsert;
        this.keyEncodedNatively = keyEncodedNatively;
        this.formats = formats;
    }

    /**
     * @param key the key format's serializer for the projected (and prefix-stripped) key row, or null
     * @param value the value format's serializer for the projected value row
     * @param keyEncodedNatively the native encoder writes this key format (json) when the library loads
     * @param formats the formats as the log lines name them, e.g. {@code key 'raw', value 'json'}
     */
    public static FlinkRecordSerializer of(SerializationSchema<RowData> key, SerializationSchema<RowData> value,
            RowType physicalRowType, int[] keyProjection, int[] valueProjection, boolean upsert,
            boolean keyEncodedNatively, String formats) {
        return new FlinkRecordSerializer(key, value, getters(physicalRowType, keyProjection),
                getters(physicalRowType, valueProjection), upsert, keyEncodedNatively, formats);
    }

    private static RowData.FieldGetter[] getters(RowType rowType, int[] projection) {
        RowData.FieldGetter[] getters = new RowData.FieldGetter[projection.length];
        for (int i = 0; i < projection.length; i++) {
            getters[i] = RowData.createFieldGetter(rowType.getTypeAt(projection[i]), projection[i]);
        }
        return getters;
    }

    /** False when the key is in a format kjson does not encode, so this serializer writes it. */
    public boolean keyEncodedNatively() {
        return keyEncodedNatively || key == null;
    }

    /** The formats, as the log lines name them. */
    public String formats() {
        return formats;
    }

    /** Opens the formats' serializers as the Kafka writer opens the stock record serializer. */
    void open(MetricGroup metrics, ClassLoader userCodeClassLoader) throws Exception {
        SerializationSchema.InitializationContext context = new SerializationSchema.InitializationContext() {
            @Override
            public MetricGroup getMetricGroup() {
                return metrics;
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return SimpleUserCodeClassLoader.create(userCodeClassLoader);
            }
        };
        if (key != null) {
            key.open(context);
        }
        value.open(context);
    }

    /** The key bytes, or null without a key format. */
    byte[] key(RowData row) {
        return key == null ? null : key.serialize(projected(row, RowKind.INSERT, keyFields));
    }

    /** The value bytes, or null for an upsert tombstone. */
    byte[] value(RowData row) {
        if (key == null) {
            return value.serialize(row);
        }
        RowKind kind = row.getRowKind();
        if (!upsert) {
            return value.serialize(projected(row, kind, valueFields));
        }
        if (kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE) {
            return null;
        }
        return value.serialize(projected(row, RowKind.INSERT, valueFields));
    }

    private static RowData projected(RowData row, RowKind kind, RowData.FieldGetter[] fields) {
        GenericRowData projected = new GenericRowData(kind, fields.length);
        for (int i = 0; i < fields.length; i++) {
            projected.setField(i, fields[i].getFieldOrNull(row));
        }
        return projected;
    }

    @Override
    public String toString() {
        return "FlinkRecordSerializer{" + formats + (upsert ? ", upsert" : "") + "}";
    }
}
