package org.kjson.flink.sql.source;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The {@code kafka} source's readable metadata columns, read from the Kafka record with the
 * internal types of the stock source ({@code topic}, {@code partition}, {@code offset},
 * {@code timestamp} as TIMESTAMP_LTZ(3), {@code timestamp-type} as Kafka names it,
 * {@code headers} as a map whose later header wins a repeated key, {@code leader-epoch}).
 * The stock source's {@code listReadableMetadata} stays the list the planner checks columns
 * against; this class only fills them.
 */
enum ReadableMetadata {
    TOPIC("topic") {
        @Override
        Object read(ConsumerRecord<?, ?> record) {
            return StringData.fromString(record.topic());
        }
    },
    PARTITION("partition") {
        @Override
        Object read(ConsumerRecord<?, ?> record) {
            return record.partition();
        }
    },
    HEADERS("headers") {
        @Override
        Object read(ConsumerRecord<?, ?> record) {
            Map<StringData, byte[]> headers = new HashMap<>();
            for (Header header : record.headers()) {
                headers.put(StringData.fromString(header.key()), header.value());
            }
            return new GenericMapData(headers);
        }
    },
    LEADER_EPOCH("leader-epoch") {
        @Override
        Object read(ConsumerRecord<?, ?> record) {
            return record.leaderEpoch().orElse(null);
        }
    },
    OFFSET("offset") {
        @Override
        Object read(ConsumerRecord<?, ?> record) {
            return record.offset();
        }
    },
    TIMESTAMP("timestamp") {
        @Override
        Object read(ConsumerRecord<?, ?> record) {
            return TimestampData.fromEpochMillis(record.timestamp());
        }
    },
    TIMESTAMP_TYPE("timestamp-type") {
        @Override
        Object read(ConsumerRecord<?, ?> record) {
            return StringData.fromString(record.timestampType().toString());
        }
    };

    final String key;

    ReadableMetadata(String key) {
        this.key = key;
    }

    abstract Object read(ConsumerRecord<?, ?> record);

    /** The columns for {@code keys} (the planner's order), refusing a key this source does not fill. */
    static ReadableMetadata[] of(List<String> keys) {
        ReadableMetadata[] columns = new ReadableMetadata[keys.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = byKey(keys.get(i));
        }
        return columns;
    }

    private static ReadableMetadata byKey(String key) {
        for (ReadableMetadata column : values()) {
            if (column.key.equals(key)) {
                return column;
            }
        }
        throw new IllegalArgumentException("kjson's source does not read the metadata key '" + key + "'");
    }
}
