package org.kjson.flink.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.kjson.flink.Compatibility;
import org.kjson.flink.EncodedBatch;
import org.kjson.flink.EncodedRecordSerializationSchema;
import org.kjson.flink.KafkaEncodedRecord;
import org.kjson.flink.NativeJsonEncoder;
import org.kjson.flink.SinkDescription;
import org.kjson.flink.arrow.ArrowSchemas;
import org.kjson.flink.arrow.RowDataArrowWriter;
import org.kjson.flink.bench.Passes.Timing;
import org.kjson.flink.support.StockKafkaSink;

/**
 * Nexmark q0 / q19 rows through (1) the stock per-record Kafka table serializer, (2) the native
 * path from ready Arrow batches, (3) the native path from RowData including the batching. Checks
 * that all paths produce identical bytes first, warms up, then reports the median of several
 * timed passes (the contenders' passes interleaved), with the native time split into
 * batching, C Data export, JNI, encode, handoff and record materialization.
 *
 * <p>Run with scripts/jvm-bench.sh (release native build). Arguments: rows (default 200000),
 * batch rows (default 4096), passes (default 7).
 */
public final class EncodeBenchmark {
    private final int batchRows;
    private final int passes;
    private final EncodedRecordSerializationSchema toKafka = new EncodedRecordSerializationSchema("t");
    private long sink;
    private final BufferAllocator structs = new RootAllocator();
    private final ArrowArray exportArray = ArrowArray.allocateNew(structs);
    private final ArrowSchema exportSchema = ArrowSchema.allocateNew(structs);

    private EncodeBenchmark(int batchRows, int passes) {
        this.batchRows = batchRows;
        this.passes = passes;
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int batchRows = args.length > 1 ? Integer.parseInt(args[1]) : 4096;
        int passes = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        Path schemas = Paths.get(System.getProperty("kjson.schemas", "../../schemas"));
        EncodeBenchmark bench = new EncodeBenchmark(batchRows, passes);
        System.out.printf("JVM %s, %s; %d rows per pass, %d rows per batch, median of %d passes, %s clock%n",
                Runtime.version(), Compatibility.ofRunningFlink(), rows, batchRows, passes, Passes.clockName());
        for (String query : new String[] {"q0", "q19"}) {
            String ddl = Files.readString(schemas.resolve(query + ".sql"), StandardCharsets.UTF_8);
            bench.run(query, StockKafkaSink.create(ddl.replaceAll("(?m)^--.*$", "").replace(";", "")), rows);
        }
    }

    /** Nexmark bids: ids, prices and timestamps as upstream's generator spreads them, ~100-byte rows. */
    static List<RowData> nexmarkRows(RowType type, int count, long seed) {
        Random random = new Random(seed);
        String[] channels = {"Google", "Facebook", "Baidu", "Apple"};
        List<RowData> rows = new ArrayList<>(count);
        long time = 1_700_000_000_000L;
        for (int i = 0; i < count; i++) {
            GenericRowData row = new GenericRowData(type.getFieldCount());
            time += random.nextInt(3);
            int channel = random.nextInt(100) < 90 ? random.nextInt(4) : 4 + random.nextInt(10_000);
            for (int f = 0; f < type.getFieldCount(); f++) {
                row.setField(f, nexmarkField(type.getFieldNames().get(f), random, channels, channel, time, i));
            }
            if (type.getFieldNames().contains("rank_number")) {
                int k = random.nextInt(10);
                row.setRowKind(k < 6 ? RowKind.INSERT : k < 7 ? RowKind.UPDATE_BEFORE : k < 9 ? RowKind.UPDATE_AFTER : RowKind.DELETE);
            }
            rows.add(row);
        }
        return rows;
    }

    private static Object nexmarkField(String name, Random random, String[] channels, int channel, long time, int i) {
        switch (name) {
            case "auction":
                return 1000L + i / 10 + random.nextInt(50);
            case "bidder":
                return 1000L + random.nextInt(100_000);
            case "price":
                return (long) Math.round(Math.pow(10.0, random.nextDouble() * 6.0) * 100.0);
            case "channel":
                return StringData.fromString(channel < 4 ? channels[channel] : "channel-" + channel);
            case "url":
                return StringData.fromString("https://www.nexmark.com/" + word(random, 5) + "/" + word(random, 5)
                        + "/item.htm?query=1" + (channel < 4 ? "" : "&channel_id=" + channel));
            case "dateTime":
                return TimestampData.fromEpochMillis(time);
            case "extra":
                return StringData.fromString(word(random, 60 + random.nextInt(16)));
            case "rank_number":
                return 1L + random.nextInt(10);
            default:
                throw new IllegalArgumentException(name);
        }
    }

    private static String word(Random random, int length) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            out[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(out);
    }

    private void run(String query, StockKafkaSink stock, int count) {
        RowType type = stock.physicalRowType();
        SinkDescription description = SinkDescription.of(stock.table().getResolvedSchema(), stock.options());
        List<RowData> rows = nexmarkRows(type, count, 19);
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonEncoder arrays = NativeJsonEncoder.open(description, Compatibility.ofRunningFlink(), allocator,
                        NativeJsonEncoder.Handoff.ARRAYS);
                NativeJsonEncoder direct = NativeJsonEncoder.open(description, Compatibility.ofRunningFlink(), allocator,
                        NativeJsonEncoder.Handoff.DIRECT);
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            List<VectorSchemaRoot> roots = new ArrayList<>();
            List<byte[]> kinds = new ArrayList<>();
            buildBatches(rows, type, allocator, roots, kinds);
            long bytes = verify(stock, rows, arrays, direct, roots, kinds);
            Split arrowSplit = new Split();
            Split directSplit = new Split();
            Split rowSplit = new Split();
            Timing[] timings = Passes.measure(List.of(() -> stockPass(stock, rows), () -> arrowPass(arrays, roots, kinds, arrowSplit),
                    () -> arrowPass(direct, roots, kinds, directSplit), () -> rowDataPass(direct, writer, rows, rowSplit)), passes);
            report(query, count, bytes, timings[0], timings[1], timings[2], timings[3], new Split[] {arrowSplit, directSplit, rowSplit});
            roots.forEach(VectorSchemaRoot::close);
        }
    }

    private void buildBatches(List<RowData> rows, RowType type, BufferAllocator allocator, List<VectorSchemaRoot> roots,
            List<byte[]> kinds) {
        for (int start = 0; start < rows.size(); start += batchRows) {
            RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator);
            rows.subList(start, Math.min(rows.size(), start + batchRows)).forEach(writer::append);
            writer.finish();
            roots.add(writer.root());
            kinds.add(writer.hasRetractions() ? writer.rowKinds() : null);
        }
    }

    /** All paths must agree byte for byte before anything is timed; returns the bytes per pass. */
    private long verify(StockKafkaSink stock, List<RowData> rows, NativeJsonEncoder arrays, NativeJsonEncoder direct,
            List<VectorSchemaRoot> roots, List<byte[]> kinds) {
        long bytes = 0;
        int row = 0;
        for (int b = 0; b < roots.size(); b++) {
            EncodedBatch fromArrays = arrays.encode(roots.get(b), kinds.get(b));
            List<byte[]> directValues = new ArrayList<>();
            EncodedBatch fromDirect = direct.encode(roots.get(b), kinds.get(b));
            for (int i = 0; i < fromDirect.size(); i++) {
                directValues.add(fromDirect.value(i));
            }
            for (int i = 0; i < fromArrays.size(); i++, row++) {
                ProducerRecord<byte[], byte[]> expected = stock.serialize(rows.get(row));
                if (!Arrays.equals(expected.key(), fromArrays.key(i)) || !Arrays.equals(expected.value(), fromArrays.value(i))
                        || !Arrays.equals(expected.value(), directValues.get(i))) {
                    throw new AssertionError("row " + row + " differs from stock Flink");
                }
                bytes += (expected.key() == null ? 0 : expected.key().length) + (expected.value() == null ? 0 : expected.value().length);
            }
        }
        return bytes;
    }

    private void stockPass(StockKafkaSink stock, List<RowData> rows) {
        for (RowData row : rows) {
            ProducerRecord<byte[], byte[]> record = stock.serialize(row);
            sink += record.value() == null ? 1 : record.value().length;
        }
    }

    /**
     * What {@code encode(VectorSchemaRoot)} does, with the C Data export timed on its own: the
     * array is exported per batch, the schema only with the first batch of the pass.
     */
    private void arrowPass(NativeJsonEncoder encoder, List<VectorSchemaRoot> roots, List<byte[]> kinds, Split split) {
        for (int b = 0; b < roots.size(); b++) {
            VectorSchemaRoot root = roots.get(b);
            long start = System.nanoTime();
            Data.exportVectorSchemaRoot(root.getVector(0).getAllocator(), root, null, exportArray);
            long schemaAddress = 0;
            if (b == 0) {
                Data.exportSchema(root.getVector(0).getAllocator(), ArrowSchemas.withNullableMapKeys(root.getSchema()), null,
                        exportSchema);
                schemaAddress = exportSchema.memoryAddress();
            }
            split.export += System.nanoTime() - start;
            start = System.nanoTime();
            EncodedBatch batch = encoder.encode(exportArray.memoryAddress(), schemaAddress, kinds.get(b));
            split.recordCall(System.nanoTime() - start);
            start = System.nanoTime();
            materialize(batch);
            split.materialize += System.nanoTime() - start;
        }
    }

    private void rowDataPass(NativeJsonEncoder encoder, RowDataArrowWriter writer, List<RowData> rows, Split split) {
        for (int startRow = 0; startRow < rows.size(); startRow += batchRows) {
            long start = System.nanoTime();
            int end = Math.min(rows.size(), startRow + batchRows);
            for (int i = startRow; i < end; i++) {
                writer.append(rows.get(i));
            }
            VectorSchemaRoot root = writer.finish();
            byte[] kinds = writer.hasRetractions() ? writer.rowKinds() : null;
            split.batching += System.nanoTime() - start;
            start = System.nanoTime();
            EncodedBatch batch = encoder.encode(root, kinds);
            split.recordCall(System.nanoTime() - start); // includes the C Data export here
            start = System.nanoTime();
            materialize(batch);
            split.materialize += System.nanoTime() - start;
            start = System.nanoTime();
            writer.reset();
            split.batching += System.nanoTime() - start;
        }
    }

    /** What the encode operator and the KafkaSink do per record: own copies, then a ProducerRecord. */
    private void materialize(EncodedBatch batch) {
        for (int i = 0; i < batch.size(); i++) {
            ProducerRecord<byte[], byte[]> record = toKafka.serialize(new KafkaEncodedRecord(batch.key(i), batch.value(i)), null, null);
            sink += record.value() == null ? 1 : record.value().length;
        }
    }

    /** Accumulated nanoseconds of the native path's phases. */
    static final class Split {
        long batching;
        long export;
        long callTotal;
        long nativeImport;
        long nativeEncode;
        long nativeHandoff;
        long materialize;
        private final long[] last = new long[3];

        void recordCall(long nanos) {
            callTotal += nanos;
            NativeJsonEncoder.lastEncodeNanos(last);
            nativeImport += last[0];
            nativeEncode += last[1];
            nativeHandoff += last[2];
        }

        void reset() {
            batching = export = callTotal = nativeImport = nativeEncode = nativeHandoff = materialize = 0;
        }
    }

    private void report(String query, int rows, long bytes, Timing stock, Timing arrowArrays, Timing arrowDirect, Timing fromRows,
            Split[] splits) {
        double stockRate = rows / stock.medianSeconds();
        System.out.printf(Locale.ROOT, "%n== Nexmark %s: %d rows, %.1f MB of keys+values per pass (checksum %d)%n", query, rows,
                bytes / 1e6, sink);
        line("stock JsonRowDataSerializationSchema (per record)", rows, bytes, stock, stockRate);
        line("native (a) Arrow batch ready, byte[] handoff", rows, bytes, arrowArrays, stockRate);
        line("native (a) Arrow batch ready, direct handoff", rows, bytes, arrowDirect, stockRate);
        line("native (b) from RowData incl. batching (direct)", rows, bytes, fromRows, stockRate);
        split("(a) byte[] handoff", splits[0]);
        split("(a) direct handoff", splits[1]);
        split("(b) from RowData", splits[2]);
    }

    private static void line(String name, int rows, long bytes, Timing t, double stockRate) {
        double rate = rows / t.medianSeconds();
        System.out.printf(Locale.ROOT, "  %-52s %12.0f rows/s %8.1f MB/s %7.2fx%n", name, rate, bytes / t.medianSeconds() / 1e6,
                rate / stockRate);
    }

    private static void split(String name, Split s) {
        long jni = s.callTotal - s.nativeImport - s.nativeEncode - s.nativeHandoff;
        long total = s.batching + s.export + s.callTotal + s.materialize;
        System.out.printf(Locale.ROOT,
                "  split %-20s batching %4.1f%%, C Data export %4.1f%%, JNI call %4.1f%%, import+validate %4.1f%%,"
                        + " encode %4.1f%%, slab handoff %4.1f%%, record materialization %4.1f%%%n",
                name, pct(s.batching, total), pct(s.export, total), pct(jni, total), pct(s.nativeImport, total),
                pct(s.nativeEncode, total), pct(s.nativeHandoff, total), pct(s.materialize, total));
    }

    private static double pct(long part, long total) {
        return total == 0 ? 0 : 100.0 * part / total;
    }
}
