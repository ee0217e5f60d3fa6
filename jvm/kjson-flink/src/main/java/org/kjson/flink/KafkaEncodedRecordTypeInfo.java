package org.kjson.flink;

import java.lang.reflect.Type;
import java.util.Map;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Flink type information of {@link KafkaEncodedRecord}: an atomic type with its own serializer. */
public final class KafkaEncodedRecordTypeInfo extends TypeInformation<KafkaEncodedRecord> {
    private static final long serialVersionUID = 1L;

    public static final KafkaEncodedRecordTypeInfo INSTANCE = new KafkaEncodedRecordTypeInfo();

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
        return KafkaEncodedRecordSerializer.INSTANCE;
    }

    /**
     * Flink 1.20's abstract variant (removed in 2.0, where this is an ordinary method nobody
     * calls): one source for both lines.
     */
    public TypeSerializer<KafkaEncodedRecord> createSerializer(ExecutionConfig config) {
        return KafkaEncodedRecordSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "KafkaEncodedRecord";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KafkaEncodedRecordTypeInfo;
    }

    @Override
    public int hashCode() {
        return KafkaEncodedRecordTypeInfo.class.hashCode();
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
