package org.kjson.flink.sql.source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.kjson.flink.BinaryRowBatch;
import org.kjson.flink.Compatibility;
import org.kjson.flink.DecodedBatch;
import org.kjson.flink.NativeJsonDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native decoder of one split reader (so of one fetcher thread): the records of one split
 * in one fetch go through JNI in one call (split in several only past {@link #MAX_SLAB_BYTES}),
 * and come back as {@link DecodedRecord}s with their rows. Records Flink's deserializer would
 * throw on are collected, not thrown, so that the task fails at that record's place in the split
 * ({@link DecodedRecordEmitter}) after the rows before it, as the stock source does;
 * {@code ignore-parse-errors} skips records and fields inside the decoder, as Flink does.
 * Opened on first use, in the fetcher thread; not thread-safe.
 *
 * <p>Rows come back as Flink's {@code BinaryRowData}, written natively, nested columns included
 * ({@link #path()}: decided once, at open); where the native side refuses that (a big-endian
 * platform) they go through Arrow and {@link ArrowRowReader}. Connector metadata columns (topic,
 * offset, ...) are joined after either.
 */
final class FetchDecoder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FetchDecoder.class);
    /** Key plus value bytes per native call: far below the 2 GiB of one Java array. */
    static final long MAX_SLAB_BYTES = 256L << 20;

    private final SourceDecoding decoding;
    private final DecodeMetrics metrics;
    private final ReadableMetadata[] metadata;
    /** The columns the decoder produces: physical, then the value format's metadata. */
    private final RowType decodedType;
    private BufferAllocator allocator;
    private NativeJsonDecoder decoder;
    /** Null until open; empty when rows come as binary rows, else why they come through Arrow. */
    private Optional<String> arrowReason;

    FetchDecoder(SourceDecoding decoding, DecodeMetrics metrics) {
        this.decoding = decoding;
        this.metrics = metrics;
        this.metadata = ReadableMetadata.of(decoding.metadataKeys());
        this.decodedType = decoding.decodedRowType();
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
        NativeJsonDecoder opened = decoder();
        if (arrowReason.isEmpty()) {
            BinaryRowBatch batch = opened.decodeBinaryRows(keys, values);
            deliver(records, binaryRowsByRecord(batch, records), batch.errors(), out);
            metrics.decoded(records.size(), batch.rowCount(), System.nanoTime() - start);
            return;
        }
        try (DecodedBatch batch = opened.decode(keys, values)) {
            deliver(records, rowsByRecord(batch, records), batch.errors(), out);
            metrics.decoded(records.size(), batch.rowCount(), System.nanoTime() - start);
        }
    }

    private static void deliver(List<ConsumerRecord<byte[], byte[]>> records, List<List<RowData>> rows,
            List<DecodedBatch.RecordError> errors, List<DecodedRecord> out) {
        Map<Integer, String> failures = new HashMap<>();
        errors.forEach(error -> failures.put(error.record(), error.message()));
        for (int i = 0; i < records.size(); i++) {
            out.add(new DecodedRecord(records.get(i), rows.get(i), failures.get(i)));
        }
    }

    /** Each record's rows: the decoded columns read from Arrow, then the connector metadata columns. */
    private List<List<RowData>> rowsByRecord(DecodedBatch batch, List<ConsumerRecord<byte[], byte[]>> records) {
        List<List<RowData>> rows = new ArrayList<>(Collections.nCopies(records.size(), List.of()));
        ArrowRowReader reader = ArrowRowReader.bind(decodedType, batch.root());
        int decodedArity = decodedType.getFieldCount();
        for (int r = 0; r < batch.rowCount(); r++) {
            int record = batch.record(r);
            GenericRowData row = new GenericRowData(RowKind.fromByteValue(batch.rowKind(r)),
                    decodedArity + metadata.length);
            reader.read(r, row);
            for (int m = 0; m < metadata.length; m++) {
                row.setField(decodedArity + m, metadata[m].read(records.get(record)));
            }
            add(rows, record, row);
        }
        return rows;
    }

    /** Each record's binary rows, joined with the connector metadata columns when there are any. */
    private List<List<RowData>> binaryRowsByRecord(BinaryRowBatch batch, List<ConsumerRecord<byte[], byte[]>> records) {
        List<List<RowData>> rows = new ArrayList<>(Collections.nCopies(records.size(), List.of()));
        for (int r = 0; r < batch.rowCount(); r++) {
            int record = batch.record(r);
            RowData row = batch.row(r);
            if (metadata.length > 0) {
                GenericRowData extra = new GenericRowData(metadata.length);
                for (int m = 0; m < metadata.length; m++) {
                    extra.setField(m, metadata[m].read(records.get(record)));
                }
                JoinedRowData joined = new JoinedRowData(row, extra);
                joined.setRowKind(row.getRowKind());
                row = joined;
            }
            add(rows, record, row);
        }
        return rows;
    }

    private static void add(List<List<RowData>> rows, int record, RowData row) {
        List<RowData> ofRecord = rows.get(record);
        if (ofRecord.isEmpty()) {
            ofRecord = new ArrayList<>(1);
            rows.set(record, ofRecord);
        }
        ofRecord.add(row);
    }

    /**
     * How the rows come out of the native decoder: {@code "binary rows"}, or {@code "arrow: "}
     * and why not binary rows (the first column that keeps them on Arrow). Opens the decoder.
     */
    String path() {
        decoder();
        return arrowReason.map(reason -> "arrow: " + reason).orElse("binary rows");
    }

    private NativeJsonDecoder decoder() {
        if (decoder == null) {
            allocator = new RootAllocator();
            NativeJsonDecoder opened = null;
            try {
                opened = NativeJsonDecoder.open(decoding.table(), Compatibility.ofRunningFlink(), allocator)
                        .onError(NativeJsonDecoder.OnError.COLLECT)
                        .timestampLayout(NativeJsonDecoder.TimestampLayout.AS_FLINK_ROWS);
                if (!decoding.valueMetadataKeys().isEmpty()) {
                    opened.valueMetadata(decoding.valueMetadataKeys());
                }
                arrowReason = opened.binaryRowsRefusal();
                LOG.info("kjson source decodes {} into {}", decoding.table().tableName(), arrowReason.isEmpty()
                        ? "binary rows" : "Arrow, then GenericRowData (" + arrowReason.get() + ")");
                decoder = opened;
            } catch (RuntimeException | Error e) {
                if (opened != null) {
                    opened.close();
                }
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
