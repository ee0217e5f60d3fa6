package org.kjson.flink;

import java.io.Serializable;
import java.util.List;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;

/**
 * Where the writable Kafka metadata of a table sink sit in the rows it consumes: the planner
 * appends the persisted metadata columns after the physical columns, in the order of the keys it
 * applied to the sink. Reads them as the {@code kafka} table sink does: a null timestamp or topic
 * is absent, a null headers map writes no headers, and a header with a null key or value is left
 * out. The native encoder sees only the physical columns.
 */
public final class MetadataColumns implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The writable metadata keys of Flink's Kafka table sinks. */
    public static final String TIMESTAMP = "timestamp";
    public static final String HEADERS = "headers";
    public static final String TOPIC = "topic";

    /** Precision of the {@code timestamp} column: TIMESTAMP_LTZ(3). */
    private static final int TIMESTAMP_PRECISION = 3;

    private final int timestampPos;
    private final int headersPos;
    private final int topicPos;

    private MetadataColumns(int timestampPos, int headersPos, int topicPos) {
        this.timestampPos = timestampPos;
        this.headersPos = headersPos;
        this.topicPos = topicPos;
    }

    /**
     * {@code keys}: the metadata keys the planner applied, in the order of their columns after the
     * {@code physicalFields} physical ones; null when the table writes none.
     */
    public static MetadataColumns of(List<String> keys, int physicalFields) {
        if (keys == null || keys.isEmpty()) {
            return null;
        }
        for (String key : keys) {
            if (!List.of(TIMESTAMP, HEADERS, TOPIC).contains(key)) {
                throw new IllegalArgumentException("not a writable Kafka metadata key: '" + key + "'");
            }
        }
        return new MetadataColumns(position(keys, TIMESTAMP, physicalFields), position(keys, HEADERS, physicalFields),
                position(keys, TOPIC, physicalFields));
    }

    private static int position(List<String> keys, String key, int physicalFields) {
        int index = keys.indexOf(key);
        return index < 0 ? -1 : physicalFields + index;
    }

    public boolean writesTopic() {
        return topicPos >= 0;
    }

    /** The row's metadata; the header bytes are copied, so the row may be reused afterwards. */
    public RecordMetadata read(RowData row) {
        Long timestamp = timestampPos < 0 || row.isNullAt(timestampPos) ? null
                : row.getTimestamp(timestampPos, TIMESTAMP_PRECISION).getMillisecond();
        String topic = topicPos < 0 || row.isNullAt(topicPos) ? null : row.getString(topicPos).toString();
        if (headersPos < 0 || row.isNullAt(headersPos)) {
            return new RecordMetadata(timestamp, null, null, topic);
        }
        MapData map = row.getMap(headersPos);
        ArrayData keys = map.keyArray();
        ArrayData values = map.valueArray();
        int count = 0;
        for (int i = 0; i < keys.size(); i++) {
            count += keys.isNullAt(i) || values.isNullAt(i) ? 0 : 1;
        }
        String[] headerKeys = new String[count];
        byte[][] headerValues = new byte[count][];
        for (int i = 0, h = 0; i < keys.size(); i++) {
            if (!keys.isNullAt(i) && !values.isNullAt(i)) {
                headerKeys[h] = keys.getString(i).toString();
                headerValues[h++] = values.getBinary(i).clone();
            }
        }
        return new RecordMetadata(timestamp, headerKeys, headerValues, topic);
    }

    @Override
    public String toString() {
        return "MetadataColumns{timestamp@" + timestampPos + ", headers@" + headersPos + ", topic@" + topicPos + "}";
    }
}
