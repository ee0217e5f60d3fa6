package org.kjson.flink.sql;

import java.io.Serializable;
import java.util.List;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.data.RowData;
import org.kjson.flink.KafkaEncodedRecord;
import org.kjson.flink.KafkaEncodedRecordTypeInfo;
import org.kjson.flink.MetadataColumns;
import org.kjson.flink.RecordExtras;

/**
 * What the encoded records of a table carry beside their bytes, and their Flink type: the
 * writable metadata columns the planner applied (timestamp, headers, topic), and the consumed
 * row when a custom partitioner needs it (then the record type serializes the row with the
 * consumed row's own serializer).
 */
final class RecordCarriage implements Serializable {
    private static final long serialVersionUID = 1L;

    private final RecordExtras extras;
    private final TypeInformation<KafkaEncodedRecord> recordType;

    private RecordCarriage(RecordExtras extras, TypeInformation<KafkaEncodedRecord> recordType) {
        this.extras = extras;
        this.recordType = recordType;
    }

    /**
     * {@code metadataKeys} as the planner applied them, after {@code physicalFields} physical
     * columns; {@code consumedRowType} null unless the rows are kept for a partitioner.
     */
    static RecordCarriage of(List<String> metadataKeys, int physicalFields, TypeInformation<RowData> consumedRowType) {
        MetadataColumns metadata = MetadataColumns.of(metadataKeys, physicalFields);
        if (consumedRowType == null) {
            return new RecordCarriage(RecordExtras.of(metadata, null), KafkaEncodedRecordTypeInfo.INSTANCE);
        }
        KafkaEncodedRecordTypeInfo recordType = KafkaEncodedRecordTypeInfo.withRows(consumedRowType);
        return new RecordCarriage(RecordExtras.of(metadata, consumedRowType), recordType);
    }

    RecordExtras extras() {
        return extras;
    }

    TypeInformation<KafkaEncodedRecord> recordType() {
        return recordType;
    }

    @Override
    public String toString() {
        return "RecordCarriage{" + extras + ", type=" + recordType + "}";
    }
}
