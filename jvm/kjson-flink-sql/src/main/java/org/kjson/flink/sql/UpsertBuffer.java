package org.kjson.flink.sql;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.kjson.flink.KjsonStreams;
import org.kjson.flink.SinkDescription;

/**
 * upsert-kafka's {@code sink.buffer-flush.max-rows} / {@code sink.buffer-flush.interval}, which
 * the stock factory accepts only together and both positive: the rows are reduced by the primary
 * key in an {@link UpsertBufferOperator} before they are encoded.
 */
final class UpsertBuffer implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int maxRows;
    private final long intervalMillis;
    /** The primary key's positions in the physical row. */
    private final int[] keyPositions;

    private UpsertBuffer(int maxRows, long intervalMillis, int[] keyPositions) {
        this.maxRows = maxRows;
        this.intervalMillis = intervalMillis;
        this.keyPositions = keyPositions;
    }

    /** Null when the table does not buffer (options unset or 0, or not an upsert table). */
    static UpsertBuffer of(Map<String, String> stockOptions, SinkDescription description) {
        Configuration config = Configuration.fromMap(stockOptions);
        int maxRows = config.get(KafkaConnectorOptions.SINK_BUFFER_FLUSH_MAX_ROWS);
        long intervalMillis = config.get(KafkaConnectorOptions.SINK_BUFFER_FLUSH_INTERVAL).toMillis();
        if (maxRows <= 0 || intervalMillis <= 0 || description.primaryKey().isEmpty()) {
            return null;
        }
        List<String> fields = description.physicalRowType().getFieldNames();
        int[] keyPositions = description.primaryKey().stream().mapToInt(fields::indexOf).toArray();
        return new UpsertBuffer(maxRows, intervalMillis, keyPositions);
    }

    int maxRows() {
        return maxRows;
    }

    long intervalMillis() {
        return intervalMillis;
    }

    int[] keyPositions() {
        return keyPositions.clone();
    }

    /** {@code rows} reduced by key, at the parallelism of the encode operator that follows. */
    DataStream<RowData> apply(DataStream<RowData> rows, RowType consumedRowType, TypeInformation<RowData> consumedTypeInfo,
            int parallelism, ProviderContext context, String name) {
        SingleOutputStreamOperator<RowData> reduced = KjsonStreams.chained(rows.transform(name, consumedTypeInfo,
                new UpsertBufferOperator(this, consumedRowType, consumedTypeInfo)));
        context.generateUid(OperatorNames.BUFFER_UID).ifPresent(reduced::uid);
        return reduced.setParallelism(parallelism);
    }

    @Override
    public String toString() {
        return "UpsertBuffer{maxRows=" + maxRows + ", intervalMillis=" + intervalMillis + "}";
    }
}
