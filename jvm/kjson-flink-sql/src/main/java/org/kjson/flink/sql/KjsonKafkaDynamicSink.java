package org.kjson.flink.sql;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsWritingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
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
 * The writable metadata are the stock sink's too (same keys and types); their values ride with
 * each encoded record ({@link RecordCarriage}) and the native encoder sees the physical columns only.
 */
final class KjsonKafkaDynamicSink implements DynamicTableSink, SupportsWritingMetadata {
    private final String identifier;
    private final DynamicTableSink stockSink;
    private final EncodeStep encodeStep;
    private final KafkaSinkSettings settings;
    /** The persisted metadata columns' keys, in the order of their columns after the physical ones. */
    private List<String> metadataKeys = List.of();
    /** The rows the planner hands the sink: the physical columns, then the metadata columns. */
    private LogicalType consumedRowType;

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
        SinkDescription description = encodeStep.description();
        LogicalType consumed = consumedRowType != null ? consumedRowType : description.physicalRowType();
        RecordCarriage carriage = RecordCarriage.of(metadataKeys, description.physicalRowType().getFieldCount(),
                settings.partitionerReadsRows() ? context.createTypeInformation(consumed) : null);
        UpsertBuffer buffer = UpsertBuffer.of(description.options(), description);
        RowDataEncodeOperator operator = encodeStep.operator(context, carriage.extras());
        return new EncodeThenKafkaSinkProvider(operator, OperatorNames.of(encodeStep.objectName()), settings, carriage)
                .reducedBy(buffer, (RowType) consumed, buffer == null ? null : context.createTypeInformation(consumed));
    }

    @Override
    public Map<String, DataType> listWritableMetadata() {
        return ((SupportsWritingMetadata) stockSink).listWritableMetadata();
    }

    @Override
    public void applyWritableMetadata(List<String> keys, DataType consumedDataType) {
        ((SupportsWritingMetadata) stockSink).applyWritableMetadata(keys, consumedDataType);
        this.metadataKeys = List.copyOf(keys);
        this.consumedRowType = consumedDataType.getLogicalType();
    }

    @Override
    public DynamicTableSink copy() {
        KjsonKafkaDynamicSink copy = new KjsonKafkaDynamicSink(identifier, stockSink.copy(), encodeStep, settings);
        copy.metadataKeys = metadataKeys;
        copy.consumedRowType = consumedRowType;
        return copy;
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
        private final RecordCarriage carriage;
        private UpsertBuffer buffer;
        private RowType consumedRowType;
        private TypeInformation<RowData> consumedTypeInfo;

        EncodeThenKafkaSinkProvider(RowDataEncodeOperator operator, OperatorNames names, KafkaSinkSettings settings,
                RecordCarriage carriage) {
            this.operator = operator;
            this.names = names;
            this.settings = settings;
            this.carriage = carriage;
        }

        /** upsert-kafka's reducing buffer before the encoder ({@code buffer} null: none). */
        EncodeThenKafkaSinkProvider reducedBy(UpsertBuffer buffer, RowType consumedRowType,
                TypeInformation<RowData> consumedTypeInfo) {
            this.buffer = buffer;
            this.consumedRowType = consumedRowType;
            this.consumedTypeInfo = consumedTypeInfo;
            return this;
        }

        @Override
        public DataStreamSink<?> consumeDataStream(ProviderContext context, DataStream<RowData> rows) {
            DataStream<RowData> input = buffer == null ? rows : buffer.apply(rows, consumedRowType, consumedTypeInfo,
                    settings.parallelism() != null ? settings.parallelism() : rows.getParallelism(), context, names.buffer());
            SingleOutputStreamOperator<KafkaEncodedRecord> encoded = KjsonStreams.chained(
                    input.transform(names.encoder(), carriage.recordType(), operator));
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
