package org.kjson.flink.sql.source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.kjson.flink.Compatibility;
import org.kjson.flink.DecodedBatch;
import org.kjson.flink.NativeJsonDecoder;

/**
 * The native decoder of one split reader (so of one fetcher thread): the records of one split
 * in one fetch go through JNI in one call (split in several only past {@link #MAX_SLAB_BYTES}),
 * and come back as {@link DecodedRecord}s with their rows. Records Flink's deserializer would
 * throw on are collected, not thrown, so that the task fails at that record's place in the split
 * ({@link DecodedRecordEmitter}) after the rows before it, as the stock source does;
 * {@code ignore-parse-errors} skips records and fields inside the decoder, as Flink does.
 * Opened on first use, in the fetcher thread; not thread-safe.
 */
final class FetchDecoder implements AutoCloseable {
    /** Key plus value bytes per native call: far below the 2 GiB of one Java array. */
    static final long MAX_SLAB_BYTES = 256L << 20;

    /** Flink's message for a null value row on a non-upsert table (the native decoder's too). */
    static final String NULL_ROW =
            "Invalid null value received in non-upsert mode. Could not to set row kind for output record.";

    private final SourceDecoding decoding;
    private final DecodeMetrics metrics;
    private final ReadableMetadata[] metadata;
    private final int physicalArity;
    private BufferAllocator allocator;
    private NativeJsonDecoder decoder;

    FetchDecoder(SourceDecoding decoding, DecodeMetrics metrics) {
        this.decoding = decoding;
        this.metrics = metrics;
        this.metadata = ReadableMetadata.of(decoding.metadataKeys());
        this.physicalArity = decoding.physicalRowType().getFieldCount();
    }

    /** The records of one split, in offset order, decoded. */
    List<DecodedRecord> decode(List<ConsumerRecord<byte[], byte[]>> records) {
        List<DecodedRecord> out = new ArrayList<>(records.size());
        int from = 0;
        while (from < records.size()) {
            int to = chunkEnd(records, from);
            decodeChunk(records.subList(from, to), out);
            from = to;
        }
        return out;
    }

    private static int chunkEnd(List<ConsumerRecord<byte[], byte[]>> records, int from) {
        long bytes = 0;
        int to = from;
        while (to < records.size()) {
            bytes += size(records.get(to).key()) + size(records.get(to).value());
            if (bytes > MAX_SLAB_BYTES && to > from) {
                break;
            }
            to++;
        }
        return to;
    }

    private static long size(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }

    private void decodeChunk(List<ConsumerRecord<byte[], byte[]>> records, List<DecodedRecord> out) {
        long start = System.nanoTime();
        List<byte[]> keys = new ArrayList<>(records.size());
        List<byte[]> values = new ArrayList<>(records.size());
        for (ConsumerRecord<byte[], byte[]> record : records) {
            keys.add(record.key());
            values.add(record.value());
        }
        try (DecodedBatch batch = decoder().decode(keys, values)) {
            List<List<RowData>> rows = rowsByRecord(batch, records);
            Map<Integer, String> failures = new HashMap<>();
            batch.errors().stream().filter(error -> !skippedByFlink(error.message()))
                    .forEach(error -> failures.put(error.record(), error.message()));
            for (int i = 0; i < records.size(); i++) {
                out.add(new DecodedRecord(records.get(i), rows.get(i), failures.get(i)));
            }
            metrics.decoded(records.size(), batch.rowCount(), System.nanoTime() - start);
        }
    }

    /**
     * A record the decoder fails whose failure Flink's json deserializer swallows: under
     * {@code ignore-parse-errors}, a message that gives a null row (a top-level array with a
     * null or non-object element, a truncated object) on a table without key or metadata
     * columns. Flink hands the null row on inside the deserializer's {@code try}, the next
     * operator throws on it, and {@code ignore-parse-errors} catches that: the record gives no
     * further row and the job goes on. The decoder reports it as a failure of the record
     * instead; this takes it as Flink does. Rows such a record gave before the null row (the
     * elements of a top-level array before the bad one) are lost, where Flink emits them: a
     * known difference of the native decoder (docs/flink-sql.md, "Source").
     */
    private boolean skippedByFlink(String message) {
        return decoding.ignoresParseErrors() && NULL_ROW.equals(message);
    }

    /** Each record's rows: the physical columns read from Arrow, then the metadata columns. */
    private List<List<RowData>> rowsByRecord(DecodedBatch batch, List<ConsumerRecord<byte[], byte[]>> records) {
        List<List<RowData>> rows = new ArrayList<>(Collections.nCopies(records.size(), List.of()));
        ArrowRowReader reader = ArrowRowReader.bind(decoding.physicalRowType(), batch.root());
        for (int r = 0; r < batch.rowCount(); r++) {
            int record = batch.record(r);
            GenericRowData row = new GenericRowData(RowKind.fromByteValue(batch.rowKind(r)),
                    physicalArity + metadata.length);
            reader.read(r, row);
            for (int m = 0; m < metadata.length; m++) {
                row.setField(physicalArity + m, metadata[m].read(records.get(record)));
            }
            List<RowData> ofRecord = rows.get(record);
            if (ofRecord.isEmpty()) {
                ofRecord = new ArrayList<>(1);
                rows.set(record, ofRecord);
            }
            ofRecord.add(row);
        }
        return rows;
    }

    private NativeJsonDecoder decoder() {
        if (decoder == null) {
            allocator = new RootAllocator();
            try {
                decoder = NativeJsonDecoder.open(decoding.table(), Compatibility.ofRunningFlink(), allocator)
                        .onError(NativeJsonDecoder.OnError.COLLECT)
                        .timestampLayout(NativeJsonDecoder.TimestampLayout.AS_FLINK_ROWS);
            } catch (RuntimeException | Error e) {
                allocator.close();
                allocator = null;
                throw e;
            }
        }
        return decoder;
    }

    @Override
    public void close() {
        if (decoder != null) {
            decoder.close();
            decoder = null;
        }
        if (allocator != null) {
            allocator.close();
            allocator = null;
        }
    }
}
