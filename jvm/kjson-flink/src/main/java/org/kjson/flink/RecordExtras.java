package org.kjson.flink;

import java.io.Serializable;
import java.util.Arrays;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.table.data.RowData;

/**
 * What the records of a table sink carry beside their key and value: the Kafka metadata of each
 * row ({@link MetadataColumns}) and, when a custom partitioner will be handed it, a copy of the
 * consumed row. Read from each row as it is buffered (the input may reuse the row object once the
 * operator returns), kept until the batch is encoded.
 */
public final class RecordExtras implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Nothing but key and value. */
    public static final RecordExtras NONE = new RecordExtras(null, null);

    /** Null: no metadata columns. */
    private final MetadataColumns metadata;
    /** Null: rows are not kept; else the type of the consumed rows, whose serializer copies them. */
    private final TypeInformation<RowData> rowType;

    private RecordExtras(MetadataColumns metadata, TypeInformation<RowData> rowType) {
        this.metadata = metadata;
        this.rowType = rowType;
    }

    /** {@code metadata} or {@code rowType} null: that part is not carried. */
    public static RecordExtras of(MetadataColumns metadata, TypeInformation<RowData> rowType) {
        return metadata == null && rowType == null ? NONE : new RecordExtras(metadata, rowType);
    }

    public boolean isEmpty() {
        return metadata == null && rowType == null;
    }

    public boolean keepsRows() {
        return rowType != null;
    }

    /** A buffer for one operator instance (not thread-safe). */
    Buffer newBuffer(SerializerConfig config) {
        return new Buffer(metadata, rowType == null ? null : rowType.createSerializer(config));
    }

    @Override
    public String toString() {
        return "RecordExtras{metadata=" + metadata + ", rows=" + rowType + "}";
    }

    /** The extras of the rows of the current batch, by row index. */
    static final class Buffer {
        private final MetadataColumns metadata;
        private final TypeSerializer<RowData> rowCopier;
        private RecordMetadata[] metadataOfRows = new RecordMetadata[0];
        private RowData[] rows = new RowData[0];

        private Buffer(MetadataColumns metadata, TypeSerializer<RowData> rowCopier) {
            this.metadata = metadata;
            this.rowCopier = rowCopier;
        }

        /** Keeps what row {@code index} of the batch carries. */
        void add(int index, RowData row) {
            if (metadata != null) {
                metadataOfRows = grown(metadataOfRows, index);
                metadataOfRows[index] = metadata.read(row);
            }
            if (rowCopier != null) {
                rows = grown(rows, index);
                rows[index] = rowCopier.copy(row);
            }
        }

        /** The record of row {@code index} with its extras. */
        KafkaEncodedRecord record(int index, byte[] key, byte[] value) {
            return new KafkaEncodedRecord(key, value, metadata == null ? null : metadataOfRows[index],
                    rowCopier == null ? null : rows[index]);
        }

        /** Lets go of the batch's rows. */
        void clear(int count) {
            Arrays.fill(metadataOfRows, 0, Math.min(count, metadataOfRows.length), null);
            Arrays.fill(rows, 0, Math.min(count, rows.length), null);
        }

        private static <T> T[] grown(T[] array, int index) {
            return index < array.length ? array : Arrays.copyOf(array, Math.max(16, Math.max(index + 1, array.length * 2)));
        }
    }
}
