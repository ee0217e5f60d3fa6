package org.kjson.flink.sql.source;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Properties;

import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.kafka.source.metrics.KafkaSourceReaderMetrics;
import org.apache.flink.connector.kafka.source.reader.KafkaPartitionSplitReader;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Flink's {@link KafkaPartitionSplitReader} (the consumer, split assignment, start and stop
 * offsets, wake-ups, offset commits, its metrics) whose every fetch is decoded in the fetcher
 * thread before it is queued: one native call per split per fetch. The subclass is needed, not
 * a wrapper: Flink's fetcher manager commits offsets through the split reader as this class.
 */
final class DecodingSplitReader extends KafkaPartitionSplitReader {
    private final FetchDecoder decoder;

    DecodingSplitReader(Properties properties, SourceReaderContext context, KafkaSourceReaderMetrics metrics,
            SourceDecoding decoding, DecodeMetrics decodeMetrics) {
        super(properties, context, metrics);
        this.decoder = new FetchDecoder(decoding, decodeMetrics);
    }

    @Override
    public RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> fetch() throws IOException {
        RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> fetched = super.fetch();
        try {
            LinkedHashMap<String, List<DecodedRecord>> bySplit = new LinkedHashMap<>();
            for (String split = fetched.nextSplit(); split != null; split = fetched.nextSplit()) {
                // The stock records stop at the split's stopping offset, as the stock reader emits them.
                List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
                for (ConsumerRecord<byte[], byte[]> r = fetched.nextRecordFromSplit(); r != null;
                        r = fetched.nextRecordFromSplit()) {
                    records.add(r);
                }
                bySplit.put(split, decoder.decode(records));
            }
            return new DecodedFetch(bySplit, new HashSet<>(fetched.finishedSplits()));
        } finally {
            fetched.recycle();
        }
    }

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            decoder.close();
        }
    }
}
