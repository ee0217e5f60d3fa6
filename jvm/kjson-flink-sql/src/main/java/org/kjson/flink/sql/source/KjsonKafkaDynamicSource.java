package org.kjson.flink.sql.source;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
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
import org.apache.flink.table.types.logical.LogicalType;
import org.kjson.flink.Compatibility;
import org.kjson.flink.KjsonException;
import org.kjson.flink.NativeJsonDecoder;

/**
 * The scan side of {@code kjson-kafka} and {@code kjson-upsert-kafka}: Flink's own
 * {@link KafkaDynamicSource}, as the stock factory planned it, answers every planner question
 * (changelog mode, readable metadata, watermark push-down, boundedness, parallelism); only the
 * runtime differs: {@link KjsonKafkaSource}, Flink's Kafka source with a reader that decodes
 * natively. Metadata of the value format ({@code value.*}, such as debezium-json's
 * {@code value.source.timestamp}) is read by the native decoder from each message's envelope;
 * a key it does not read is refused at planning with its message.
 */
public final class KjsonKafkaDynamicSource implements ScanTableSource, SupportsReadingMetadata, SupportsWatermarkPushDown {
    /** The stock source's uid name: state maps between {@code kafka} and {@code kjson-kafka}. */
    private static final String KAFKA_TRANSFORMATION = "kafka";
    private static final String VALUE_METADATA_PREFIX = "value.";

    private final KafkaDynamicSource stock;
    private SourceDecoding decoding;
    private final String identifier;
    private final String stockIdentifier;
    private final Integer parallelism;
    /** The table's metadata columns by key (for messages). */
    private final Map<String, String> metadataColumns;

    public KjsonKafkaDynamicSource(KafkaDynamicSource stock, SourceDecoding decoding, String identifier,
            String stockIdentifier, Integer parallelism, Map<String, String> metadataColumns) {
        this.metadataColumns = Map.copyOf(metadataColumns);
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
        Map<String, DataType> readable = stock.listReadableMetadata();
        List<String> valueKeys = new ArrayList<>();
        List<LogicalType> valueTypes = new ArrayList<>();
        for (String key : metadataKeys) {
            if (key.startsWith(VALUE_METADATA_PREFIX)) {
                valueKeys.add(key.substring(VALUE_METADATA_PREFIX.length()));
                valueTypes.add(readable.get(key).getLogicalType());
            }
        }
        checkNatively(valueKeys);
        stock.applyReadableMetadata(metadataKeys, producedDataType);
        decoding = decoding.withValueMetadata(valueKeys, valueTypes);
    }

    /** The native decoder's refusal of a value metadata key, where the library loads here. */
    private void checkNatively(List<String> valueKeys) {
        if (valueKeys.isEmpty()) {
            return;
        }
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonDecoder decoder = NativeJsonDecoder.open(decoding.table(), Compatibility.ofRunningFlink(),
                        allocator)) {
            decoder.valueMetadata(valueKeys);
        } catch (UnsatisfiedLinkError e) {
            // checked when the reader opens
        } catch (KjsonException e) {
            String columns = valueKeys.stream().map(key -> metadataColumns.get(VALUE_METADATA_PREFIX + key))
                    .filter(Objects::nonNull).map(name -> "'" + name + "'").toList().toString();
            throw new ValidationException(String.format("Table '%s' with 'connector' = '%s' cannot be read"
                    + " row-identically to '%s' by kjson: %s (metadata columns %s; to read this table as it is, use"
                    + " 'connector' = '%s')", decoding.table().tableName(), identifier, stockIdentifier, e.getMessage(),
                    columns, stockIdentifier), e);
        }
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
                parallelism, metadataColumns);
    }

    @Override
    public String asSummaryString() {
        return "kjson Kafka table source";
    }
}
