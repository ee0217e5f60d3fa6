package org.kjson.flink.sql.source;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KjsonKafkaSourceProperties;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;
import org.apache.flink.streaming.connectors.kafka.table.KjsonKafkaScan;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.connector.source.abilities.SupportsWatermarkPushDown;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;

/**
 * The scan side of {@code kjson-kafka} and {@code kjson-upsert-kafka}: Flink's own
 * {@link KafkaDynamicSource}, as the stock factory planned it, answers every planner question
 * (changelog mode, readable metadata, watermark push-down, boundedness, parallelism); only the
 * runtime differs: {@link KjsonKafkaSource}, Flink's Kafka source with a reader that decodes
 * natively. Metadata of the value format ({@code value.*}, such as debezium-json's
 * {@code value.source.timestamp}) is refused at planning: the native decoder does not produce
 * it yet.
 */
public final class KjsonKafkaDynamicSource implements ScanTableSource, SupportsReadingMetadata, SupportsWatermarkPushDown {
    /** The stock source's uid name: state maps between {@code kafka} and {@code kjson-kafka}. */
    private static final String KAFKA_TRANSFORMATION = "kafka";
    private static final String VALUE_METADATA_PREFIX = "value.";

    private final KafkaDynamicSource stock;
    private final SourceDecoding decoding;
    private final String identifier;
    private final String stockIdentifier;
    private final Integer parallelism;

    public KjsonKafkaDynamicSource(KafkaDynamicSource stock, SourceDecoding decoding, String identifier,
            String stockIdentifier, Integer parallelism) {
        this.stock = stock;
        this.decoding = decoding;
        this.identifier = identifier;
        this.stockIdentifier = stockIdentifier;
        this.parallelism = parallelism;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return stock.getChangelogMode();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        DataType produced = KjsonKafkaScan.producedDataType(stock);
        TypeInformation<RowData> producedType = context.createTypeInformation(produced);
        KafkaSource<RowData> kafkaSource = KjsonKafkaScan.kafkaSource(stock, context, producedType);
        KjsonKafkaSource source = new KjsonKafkaSource(kafkaSource, KjsonKafkaSourceProperties.of(kafkaSource),
                decoding.withMetadata(KjsonKafkaScan.metadataKeys(stock)), producedType);
        WatermarkStrategy<RowData> pushed = KjsonKafkaScan.watermarkStrategy(stock);
        WatermarkStrategy<RowData> watermarks = pushed == null ? WatermarkStrategy.noWatermarks() : pushed;
        String name = "KjsonKafkaSource-" + KjsonKafkaScan.tableIdentifier(stock);
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(ProviderContext provider, StreamExecutionEnvironment env) {
                DataStreamSource<RowData> stream = env.fromSource(source, watermarks, name);
                provider.generateUid(KAFKA_TRANSFORMATION).ifPresent(stream::uid);
                return stream;
            }

            @Override
            public boolean isBounded() {
                return source.getBoundedness() == Boundedness.BOUNDED;
            }

            @Override
            public Optional<Integer> getParallelism() {
                return Optional.ofNullable(parallelism);
            }
        };
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        return stock.listReadableMetadata();
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        for (String key : metadataKeys) {
            if (key.startsWith(VALUE_METADATA_PREFIX)) {
                throw new ValidationException(String.format("Table '%s' with 'connector' = '%s' cannot be read"
                        + " row-identically to '%s' by kjson: metadata '%s' of the value format is not read by kjson's"
                        + " native decoder (to read this table as it is, use 'connector' = '%s')",
                        decoding.table().tableName(), identifier, stockIdentifier, key, stockIdentifier));
            }
        }
        stock.applyReadableMetadata(metadataKeys, producedDataType);
    }

    @Override
    public boolean supportsMetadataProjection() {
        return stock.supportsMetadataProjection();
    }

    @Override
    public void applyWatermark(WatermarkStrategy<RowData> watermarkStrategy) {
        stock.applyWatermark(watermarkStrategy);
    }

    @Override
    public DynamicTableSource copy() {
        return new KjsonKafkaDynamicSource((KafkaDynamicSource) stock.copy(), decoding, identifier, stockIdentifier,
                parallelism);
    }

    @Override
    public String asSummaryString() {
        return "kjson Kafka table source";
    }
}
