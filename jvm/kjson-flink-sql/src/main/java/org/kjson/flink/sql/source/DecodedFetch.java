package org.kjson.flink.sql.source;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** One fetch after decoding: each split's {@link DecodedRecord}s in offset order, and the splits the fetch finished. */
final class DecodedFetch implements RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> {
    private final Iterator<Map.Entry<String, List<DecodedRecord>>> splits;
    private final Set<String> finishedSplits;
    private Iterator<DecodedRecord> records;

    DecodedFetch(LinkedHashMap<String, List<DecodedRecord>> bySplit, Set<String> finishedSplits) {
        this.splits = bySplit.entrySet().iterator();
        this.finishedSplits = finishedSplits;
    }

    @Override
    public String nextSplit() {
        if (!splits.hasNext()) {
            records = null;
            return null;
        }
        Map.Entry<String, List<DecodedRecord>> split = splits.next();
        records = split.getValue().iterator();
        return split.getKey();
    }

    @Override
    public ConsumerRecord<byte[], byte[]> nextRecordFromSplit() {
        return records != null && records.hasNext() ? records.next() : null;
    }

    @Override
    public Set<String> finishedSplits() {
        return finishedSplits;
    }
}
