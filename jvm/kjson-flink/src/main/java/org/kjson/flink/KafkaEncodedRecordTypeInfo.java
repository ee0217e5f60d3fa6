package org.kjson.flink;

import java.lang.reflect.Type;
import java.util.Map;
import java.util.Objects;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.table.data.RowData;

/**
 * Flink type information of {@link KafkaEncodedRecord}: an atomic type with its own serializer.
 * {@link #INSTANCE} is for records without rows; {@link #withRows} for records that carry the
 * consumed row (a sink with a custom partitioner), serialized with that row type's serializer.
 */
public final class KafkaEncodedRecordTypeInfo extends TypeInformation<KafkaEncodedRecord> {
    private static final long serialVersionUID = 2L;

    public static final KafkaEncodedRecordTypeInfo INSTANCE = new KafkaEncodedRecordTypeInfo(null);

    /** Null: the records carry no rows. */
    private final TypeInformation<RowData> rowType;

    private KafkaEncodedRecordTypeInfo(TypeInformation<RowData> rowType) {
        this.rowType = rowType;
    }

    /** Records that may carry a row of {@code rowType}. */
    public static KafkaEncodedRecordTypeInfo withRows(TypeInformation<RowData> rowType) {
        return new KafkaEncodedRecordTypeInfo(Objects.requireNonNull(rowType, "rowType"));
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<KafkaEncodedRecord> getTypeClass() {
        return KafkaEncodedRecord.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<KafkaEncodedRecord> createSerializer(SerializerConfig config) {
        return rowType == null ? KafkaEncodedRecordSerializer.INSTANCE
                : KafkaEncodedRecordSerializer.withRows(rowType.createSerializer(config));
    }

    /**
     * Flink 1.20's abstract variant (removed in 2.0, where this is an ordinary method nobody
     * calls): one source for both lines.
     */
    public TypeSerializer<KafkaEncodedRecord> createSerializer(ExecutionConfig config) {
        return createSerializer(config.getSerializerConfig());
    }

    @Override
    public String toString() {
        return rowType == null ? "KafkaEncodedRecord" : "KafkaEncodedRecord<" + rowType + ">";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KafkaEncodedRecordTypeInfo t && Objects.equals(rowType, t.rowType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(KafkaEncodedRecordTypeInfo.class, rowType);
    }

    @Override
    public boolean canEqual(Object o) {
        return o instanceof KafkaEncodedRecordTypeInfo;
    }

    /** Lets {@code TypeInformation.of(KafkaEncodedRecord.class)} find this type (via {@code @TypeInfo}). */
    public static final class Factory extends TypeInfoFactory<KafkaEncodedRecord> {
        @Override
        public TypeInformation<KafkaEncodedRecord> createTypeInfo(Type type, Map<String, TypeInformation<?>> parameters) {
            return INSTANCE;
        }
    }
}
