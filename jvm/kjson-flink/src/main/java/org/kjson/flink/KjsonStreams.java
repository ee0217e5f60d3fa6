package org.kjson.flink;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.transformations.PhysicalTransformation;
import org.apache.flink.table.data.RowData;

/** Wires the encode operators into a DataStream job. */
public final class KjsonStreams {
    private KjsonStreams() {}

    public static TypeInformation<KafkaEncodedRecord> recordType() {
        return KafkaEncodedRecordTypeInfo.INSTANCE;
    }

    /** RowData in, encoded Kafka records out (batched, see {@link RowDataEncodeOperator}). */
    public static SingleOutputStreamOperator<KafkaEncodedRecord> encodeRows(DataStream<RowData> rows, SinkDescription sink,
            int batchRows) {
        return encodeRows(rows, sink, BatchSettings.ofRows(batchRows));
    }

    /** RowData in, encoded Kafka records out, batched as {@code batching} says. */
    public static SingleOutputStreamOperator<KafkaEncodedRecord> encodeRows(DataStream<RowData> rows, SinkDescription sink,
            BatchSettings batching) {
        return chained(rows.transform("kjson-encode-rows", recordType(), new RowDataEncodeOperator(sink, batching, null)));
    }

    /** Arrow batches in (chained to their producer), encoded Kafka records out. */
    public static SingleOutputStreamOperator<KafkaEncodedRecord> encodeArrow(DataStream<ArrowBatch> batches,
            SinkDescription sink) {
        return chained(batches.transform("kjson-encode-arrow", recordType(), new ArrowBatchEncodeOperator(sink)));
    }

    /**
     * The encode operator chained to its input, as a map would be. Flink 2 chains operators by
     * default; on 1.20 an {@code AbstractStreamOperator} starts a new chain (HEAD) unless told
     * otherwise, which would put a serialized network edge before every encoder.
     */
    public static <T> SingleOutputStreamOperator<T> chained(SingleOutputStreamOperator<T> encoded) {
        ((PhysicalTransformation<?>) encoded.getTransformation()).setChainingStrategy(ChainingStrategy.ALWAYS);
        return encoded;
    }
}
