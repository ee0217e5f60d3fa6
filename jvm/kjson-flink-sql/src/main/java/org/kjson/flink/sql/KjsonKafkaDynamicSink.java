package org.kjson.flink.sql;

import java.util.Optional;

import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.kjson.flink.BatchSettings;
import org.kjson.flink.KafkaEncodedRecord;
import org.kjson.flink.KjsonStreams;
import org.kjson.flink.RowDataEncodeOperator;
import org.kjson.flink.SinkDescription;

/**
 * The table sink of {@code kjson-kafka} / {@code kjson-upsert-kafka}: rows are encoded in
 * batches by {@link RowDataEncodeOperator} (native), and written by Flink's stock
 * {@link KafkaSink}, so transactions, checkpoints and recovery are the connector's. The changelog
 * mode is the stock sink's, so the planner shapes the input exactly as for the stock connector.
 */
final class KjsonKafkaDynamicSink implements DynamicTableSink {
    private final String identifier;
    private final DynamicTableSink stockSink;
    private final EncodeStep encodeStep;
    private final KafkaSinkSettings settings;

    KjsonKafkaDynamicSink(String identifier, DynamicTableSink stockSink, EncodeStep encodeStep,
            KafkaSinkSettings settings) {
        this.identifier = identifier;
        this.stockSink = stockSink;
        this.encodeStep = encodeStep;
        this.settings = settings;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return stockSink.getChangelogMode(requestedMode);
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        return new EncodeThenKafkaSinkProvider(encodeStep.operator(context), OperatorNames.of(encodeStep.objectName()),
                settings);
    }

    @Override
    public DynamicTableSink copy() {
        return new KjsonKafkaDynamicSink(identifier, stockSink.copy(), encodeStep, settings);
    }

    @Override
    public String asSummaryString() {
        return "kjson Kafka table sink (" + identifier + ")";
    }

    SinkDescription description() {
        return encodeStep.description();
    }

    EncodeStep encodeStep() {
        return encodeStep;
    }

    KafkaSinkSettings settings() {
        return settings;
    }

    BatchSettings batching() {
        return encodeStep.batching();
    }

    /** RowData -> native encode operator -> stock KafkaSink, both at the sink's parallelism. */
    static final class EncodeThenKafkaSinkProvider implements DataStreamSinkProvider {
        private final RowDataEncodeOperator operator;
        private final OperatorNames names;
        private final KafkaSinkSettings settings;

        EncodeThenKafkaSinkProvider(RowDataEncodeOperator operator, OperatorNames names, KafkaSinkSettings settings) {
            this.operator = operator;
            this.names = names;
            this.settings = settings;
        }

        @Override
        public DataStreamSink<?> consumeDataStream(ProviderContext context, DataStream<RowData> rows) {
            SingleOutputStreamOperator<KafkaEncodedRecord> encoded = KjsonStreams.chained(
                    rows.transform(names.encoder(), KjsonStreams.recordType(), operator));
            // Unchanged "<node id>_kjson-encode": already one per sink, and savepoints taken before keep mapping.
            context.generateUid(OperatorNames.ENCODER_UID).ifPresent(encoded::uid);
            DataStreamSink<KafkaEncodedRecord> sink = encoded.sinkTo(settings.buildSink()).name(names.sink());
            // The uid the planner gives the stock connector's sink ("<node id>_sink"): the writer takes it
            // and the committer "Sink Committer: <uid>", so with table.exec.uid.generation = ALWAYS (or a
            // compiled plan) a savepoint's Kafka writer and committer state maps across kafka <-> kjson-kafka.
            context.generateUid("sink").ifPresent(sink::uid);
            if (settings.parallelism() != null) {
                encoded.setParallelism(settings.parallelism());
                sink.setParallelism(settings.parallelism());
            } else {
                // Chained to the planner's last operator (the stock sink runs at that parallelism too).
                encoded.setParallelism(rows.getParallelism());
                sink.setParallelism(rows.getParallelism());
            }
            return sink;
        }

        @Override
        public Optional<Integer> getParallelism() {
            return Optional.ofNullable(settings.parallelism());
        }
    }
}
