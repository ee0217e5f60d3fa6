package org.kjson.flink.sql.source;

import java.io.IOException;
import java.util.Properties;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.synchronization.FutureCompletingBlockingQueue;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.metrics.KafkaSourceReaderMetrics;
import org.apache.flink.connector.kafka.source.reader.KafkaSourceReader;
import org.apache.flink.connector.kafka.source.reader.fetcher.KafkaSourceFetcherManager;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.kjson.flink.NativeJsonDecoder;
import org.kjson.flink.NativeLibraryPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flink's {@link KafkaSource} with kjson's reader: the enumerator (subscription, partition
 * discovery, start and stop offsets), the splits, their serializers and the enumerator's state
 * are the stock source's own objects, so checkpoints and savepoints are the stock source's and a
 * job can switch between {@code kafka} and {@code kjson-kafka}. The reader is Flink's
 * {@link KafkaSourceReader} (split states, offsets committed on checkpoint, its metrics) over
 * Flink's fetcher manager, with a split reader that decodes each fetch natively in the fetcher
 * thread ({@link DecodingSplitReader}) and an emitter that emits a record's rows and then
 * advances its split ({@link DecodedRecordEmitter}).
 */
public final class KjsonKafkaSource
        implements Source<RowData, KafkaPartitionSplit, KafkaSourceEnumState>, ResultTypeQueryable<RowData> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(KjsonKafkaSource.class);

    private final KafkaSource<RowData> stock;
    private final Properties properties;
    private final SourceDecoding decoding;
    private final TypeInformation<RowData> producedType;

    public KjsonKafkaSource(KafkaSource<RowData> stock, Properties properties, SourceDecoding decoding,
            TypeInformation<RowData> producedType) {
        this.stock = stock;
        this.properties = properties;
        this.decoding = decoding;
        this.producedType = producedType;
    }

    @Override
    public Boundedness getBoundedness() {
        return stock.getBoundedness();
    }

    @Override
    public SourceReader<RowData, KafkaPartitionSplit> createReader(SourceReaderContext context) throws Exception {
        if (!nativeLibraryLoads(context)) {
            DecodeMetrics.registerFallback(context.metricGroup());
            return stock.createReader(context);
        }
        DecodeMetrics decodeMetrics = DecodeMetrics.register(context.metricGroup());
        FutureCompletingBlockingQueue<RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>>> queue =
                new FutureCompletingBlockingQueue<>();
        KafkaSourceReaderMetrics metrics = new KafkaSourceReaderMetrics(context.metricGroup());
        KafkaSourceFetcherManager fetchers = new KafkaSourceFetcherManager(queue,
                () -> new DecodingSplitReader(properties, context, metrics, decoding, decodeMetrics), finished -> {});
        LOG.info("kjson: table '{}', subtask {}: Kafka records are decoded natively, one call per split and fetch",
                decoding.table().tableName(), context.getIndexOfSubtask());
        return new KafkaSourceReader<>(queue, fetchers, new DecodedRecordEmitter(), configuration(), context, metrics);
    }

    /**
     * Whether the library loads here; where it does not, a table with {@code 'kjson.native' =
     * 'fallback'} reads with Flink's own reader and deserializers (logged), any other fails.
     */
    private boolean nativeLibraryLoads(SourceReaderContext context) throws IOException {
        try {
            NativeJsonDecoder.openHandleCount(); // loads the library
            return true;
        } catch (UnsatisfiedLinkError e) {
            if (decoding.nativePolicy() != NativeLibraryPolicy.FALLBACK) {
                // An exception, not the Error: the task fails (and restarts by the job's strategy)
                // as for any reader that cannot open.
                throw new IOException(String.format("kjson: table '%s' cannot be read natively here ('kjson.native'"
                        + " = 'required'): %s", decoding.table().tableName(), e.getMessage()), e);
            }
            LOG.warn("kjson: table '{}', subtask {}: the native library cannot be loaded here and the table allows the"
                    + " fallback (kjson.native = 'fallback'): Flink's own Kafka reader and deserializers read every"
                    + " record, as the stock connector does, without kjson's speed-up. Cause: {}",
                    decoding.table().tableName(), context.getIndexOfSubtask(), e.getMessage());
            return false;
        }
    }

    /** The reader's configuration as the stock source derives it from the consumer properties. */
    private Configuration configuration() {
        Configuration config = new Configuration();
        properties.stringPropertyNames().forEach(key -> config.setString(key, properties.getProperty(key)));
        return config;
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> createEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context) {
        return stock.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> restoreEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context, KafkaSourceEnumState state) throws IOException {
        return stock.restoreEnumerator(context, state);
    }

    @Override
    public SimpleVersionedSerializer<KafkaPartitionSplit> getSplitSerializer() {
        return stock.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<KafkaSourceEnumState> getEnumeratorCheckpointSerializer() {
        return stock.getEnumeratorCheckpointSerializer();
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return producedType;
    }
}
