package org.kjson.flink.example;

/* Compiled copy of the README's DataStream example (kept in sync by ReadmeExampleTest). */
import java.util.List;
import java.util.Map;

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.kjson.flink.EncodedRecordSerializationSchema;
import org.kjson.flink.KafkaEncodedRecord;
import org.kjson.flink.KjsonStreams;
import org.kjson.flink.SinkDescription;

public final class BidsToKafka {
    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(10_000);

        // The sink as a SQL user would declare it: physical row type, primary key, WITH options.
        RowType row = (RowType) LogicalTypeParser.parse(
                "ROW<auction BIGINT NOT NULL, bidder BIGINT, price BIGINT, `dateTime` TIMESTAMP(3),"
                        + " extra STRING, rank_number BIGINT NOT NULL>",
                BidsToKafka.class.getClassLoader());
        SinkDescription sink = SinkDescription.of(row, List.of("auction", "rank_number"), Map.of(
                "connector", "upsert-kafka",
                "key.format", "json",
                "value.format", "json",
                "value.json.timestamp-format.standard", "ISO-8601"));

        DataStream<RowData> rows = buildRows(env);  // RowData of exactly that row type, any RowKind
        DataStream<KafkaEncodedRecord> records = KjsonStreams.encodeRows(rows, sink, 4096);

        records.sinkTo(KafkaSink.<KafkaEncodedRecord>builder()
                .setBootstrapServers("broker:9092")
                .setRecordSerializer(new EncodedRecordSerializationSchema("bids"))
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .build());
        env.execute("bids to kafka");
    }

    private static DataStream<RowData> buildRows(StreamExecutionEnvironment env) {
        throw new UnsupportedOperationException("your source or upstream operators");
    }
}
