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

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.kjson.flink.BinaryRowBatch;
import org.kjson.flink.Compatibility;
import org.kjson.flink.DecodedBatch;
import org.kjson.flink.NativeJsonDecoder;
import org.kjson.flink.SinkDescription;
import org.kjson.flink.bench.Passes.Timing;
import org.kjson.flink.support.StockKafkaSink;
import org.kjson.flink.support.StockKafkaSource;

/**
 * The read side on the same record bytes: (1) Flink's Kafka source deserializer of the table
 * (the format factory's deserializer under the connector's record deserializer, one record at a
 * time), (2) the native decoder over JNI, one slab per batch, to Arrow, (3) the same plus every
 * value copied into GenericRowData ({@link ArrowRows}), (4) the native decoder writing Flink's
 * BinaryRowData bytes, each row a {@code BinaryRowData} pointed at them. Checks row counts and the
 * first rows before timing (as the bytes of Flink's {@code toBinaryRow}); reports the median of several interleaved passes and the split of (3).
 *
 * <p>Run with scripts/jvm-bench.sh --decode (release native build). Arguments: records (default
 * 200000), records per batch (default 4096), passes (default 7).
 */
public final class DecodeBenchmark {
    private static final int CHECKED_RECORDS = 300;
    private static final String CDC_DDL = "CREATE TABLE bids_cdc (auction BIGINT, bidder BIGINT, price BIGINT,"
            + " `dateTime` TIMESTAMP(3), extra VARCHAR) WITH ('connector' = 'kafka', 'topic' = 'bids_cdc',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',"
            + " 'format' = 'debezium-json')";
    private static final String NESTED_DDL = "CREATE TABLE bids_nested (auction BIGINT, bidder BIGINT, price BIGINT,"
            + " `dateTime` TIMESTAMP(3), extra VARCHAR, tags ARRAY<STRING>, counts MAP<STRING, BIGINT>,"
            + " info ROW<channel STRING, url STRING, n INT>) WITH ('connector' = 'kafka', 'topic' = 'bids_nested',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',"
            + " 'format' = 'json')";

    private final int batchRecords;
    private final int passes;
    private long sink;
    private long decodeNanos;
    private long rowDataNanos;

    private DecodeBenchmark(int batchRecords, int passes) {
        this.batchRecords = batchRecords;
        this.passes = passes;
    }

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int batchRecords = args.length > 1 ? Integer.parseInt(args[1]) : 4096;
        int passes = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        Path schemas = Paths.get(System.getProperty("kjson.schemas", "../../schemas"));
        System.out.printf("JVM %s, %s; %d records per pass, %d records per batch, median of %d passes, %s clock%n",
                Runtime.version(), Compatibility.ofRunningFlink(), records, batchRecords, passes, Passes.clockName());
        StockKafkaSink bids = StockKafkaSink.create(ddl(schemas, "q0"));
        List<RowData> rows = EncodeBenchmark.nexmarkRows(bids.physicalRowType(), records, 19);
        List<byte[]> bidValues = new ArrayList<>(records);
        rows.forEach(row -> bidValues.add(bids.serialize(row).value()));
        DecodeBenchmark bench = new DecodeBenchmark(batchRecords, passes);
        bench.run("Nexmark bids (json, schemas/q0.sql)", bids, bidValues);
        bench.run("Nexmark bids as a debezium-json changelog (c/u/d)", StockKafkaSink.create(CDC_DDL),
                changelog(bidValues, 7));
        for (String format : List.of("canal-json", "maxwell-json", "ogg-json")) {
            bench.run("Nexmark bids as a " + format + " changelog (insert/update/delete)",
                    StockKafkaSink.create(CDC_DDL.replace("'debezium-json'", "'" + format + "'")),
                    changelog(bidValues, 7, format));
        }
        bench.run("Nexmark bids with ARRAY, MAP and ROW columns (json)", StockKafkaSink.create(NESTED_DDL),
                nested(bidValues, 11));
    }

    /** The bids with a few tags, a map of counts and a row, as Flink's json writer spells them. */
    static List<byte[]> nested(List<byte[]> rowJson, long seed) {
        Random random = new Random(seed);
        List<byte[]> out = new ArrayList<>(rowJson.size());
        for (int i = 0; i < rowJson.size(); i++) {
            String row = new String(rowJson.get(i), StandardCharsets.UTF_8);
            List<String> tags = new ArrayList<>();
            for (int t = random.nextInt(4); t > 0; t--) {
                tags.add("\"tag-" + random.nextInt(50) + "\"");
            }
            List<String> counts = new ArrayList<>();
            for (int k = random.nextInt(4); k > 0; k--) {
                counts.add("\"k" + k + "\":" + random.nextInt(1000));
            }
            String nested = ",\"tags\":[" + String.join(",", tags) + "],\"counts\":{" + String.join(",", counts)
                    + "},\"info\":{\"channel\":\"channel-" + random.nextInt(10)
                    + "\",\"url\":\"https://example.com/item/" + i + "\",\"n\":" + random.nextInt(100) + "}}";
            out.add((row.substring(0, row.length() - 1) + nested).getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    private static String ddl(Path schemas, String name) throws Exception {
        String ddl = Files.readString(schemas.resolve(name + ".sql"), StandardCharsets.UTF_8);
        String table = ddl.replaceAll("(?m)^--.*$", "").replace(";", "").strip();
        // A sink DDL: a source of it needs a start position.
        return table.substring(0, table.length() - 1) + ", 'scan.startup.mode' = 'earliest-offset')";
    }

    /**
     * Debezium envelopes of the bid rows as Flink's debezium-json writer spells them: 50% creates,
     * 35% updates (the previous bid before, this one after: two rows), 15% deletes.
     */
    static List<byte[]> changelog(List<byte[]> rowJson, long seed) {
        return changelog(rowJson, seed, "debezium-json");
    }

    /**
     * The same changelog (50% inserts, 35% updates, 15% deletes) in another format's envelope,
     * around the rows as Flink's json writer spells them; an update's before-image is the previous
     * bid (canal and maxwell: all of it under {@code old}).
     */
    static List<byte[]> changelog(List<byte[]> rowJson, long seed, String format) {
        Random random = new Random(seed);
        List<byte[]> out = new ArrayList<>(rowJson.size());
        for (int i = 0; i < rowJson.size(); i++) {
            String row = new String(rowJson.get(i), StandardCharsets.UTF_8);
            String previous = new String(rowJson.get(Math.max(0, i - 1)), StandardCharsets.UTF_8);
            int k = random.nextInt(20);
            int op = k < 10 ? 0 : k < 17 ? 1 : 2;
            String envelope = switch (format) {
                case "canal-json" -> "{\"data\":[" + row + "]," + (op == 1 ? "\"old\":[" + previous + "]," : "")
                        + "\"type\":\"" + List.of("INSERT", "UPDATE", "DELETE").get(op) + "\"}";
                case "maxwell-json" -> "{\"data\":" + row + "," + (op == 1 ? "\"old\":" + previous + "," : "")
                        + "\"type\":\"" + List.of("insert", "update", "delete").get(op) + "\"}";
                case "debezium-json" -> op == 0 ? "{\"before\":null,\"after\":" + row + ",\"op\":\"c\"}"
                        : op == 1 ? "{\"before\":" + previous + ",\"after\":" + row + ",\"op\":\"u\"}"
                        : "{\"before\":" + row + ",\"after\":null,\"op\":\"d\"}";
                default -> op == 0 ? "{\"before\":null,\"after\":" + row + ",\"op_type\":\"I\"}"
                        : op == 1 ? "{\"before\":" + previous + ",\"after\":" + row + ",\"op_type\":\"U\"}"
                        : "{\"before\":" + row + ",\"after\":null,\"op_type\":\"D\"}";
            };
            out.add(envelope.getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    /** One batch's value slab, packed before timing (the SQL source packs a fetch the same way). */
    record Slab(byte[] data, int[] offsets, int[] lengths) {
        static Slab of(List<byte[]> values) {
            int total = values.stream().mapToInt(v -> v.length).sum();
            byte[] data = new byte[total];
            int[] offsets = new int[values.size()];
            int[] lengths = new int[values.size()];
            int at = 0;
            for (int i = 0; i < values.size(); i++) {
                offsets[i] = at;
                lengths[i] = values.get(i).length;
                System.arraycopy(values.get(i), 0, data, at, lengths[i]);
                at += lengths[i];
            }
            return new Slab(data, offsets, lengths);
        }
    }

    private void run(String name, StockKafkaSink table, List<byte[]> values) throws Exception {
        StockKafkaSource flink = StockKafkaSource.of(table.table());
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(values.size());
        values.forEach(v -> records.add(new ConsumerRecord<>("bench", 0, records.size(), null, v)));
        List<Slab> slabs = new ArrayList<>();
        for (int start = 0; start < values.size(); start += batchRecords) {
            slabs.add(Slab.of(values.subList(start, Math.min(values.size(), start + batchRecords))));
        }
        long bytes = values.stream().mapToLong(v -> v.length).sum();
        SinkDescription description = SinkDescription.of(table.table().getResolvedSchema(), table.options());
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonDecoder decoder = NativeJsonDecoder.open(description, Compatibility.ofRunningFlink(), allocator);
                NativeJsonDecoder binary = NativeJsonDecoder.open(description, Compatibility.ofRunningFlink(), allocator)) {
            binary.timestampLayout(NativeJsonDecoder.TimestampLayout.AS_FLINK_ROWS);
            long rows = verify(flink, table.physicalRowType(), values, records, decoder, slabs);
            verifyBinary(flink, table.physicalRowType(), values, binary, slabs.get(0));
            Timing[] t = Passes.measure(List.of(() -> flinkPass(flink, records), () -> arrowPass(decoder, slabs),
                    () -> rowDataPass(decoder, slabs), () -> binaryRowPass(binary, slabs)), passes);
            report(name, values.size(), rows, bytes, t);
        }
    }

    /** Both sides must give the same number of rows, and equal first rows, before anything is timed. */
    private long verify(StockKafkaSource flink, RowType type, List<byte[]> values,
            List<ConsumerRecord<byte[], byte[]>> records, NativeJsonDecoder decoder, List<Slab> slabs) throws Exception {
        long flinkRows = flinkPass(flink, records);
        long nativeRows = 0;
        for (Slab slab : slabs) {
            try (DecodedBatch batch = decode(decoder, slab)) {
                nativeRows += batch.rowCount();
            }
        }
        if (flinkRows != nativeRows || flinkRows == 0) {
            throw new AssertionError("Flink read " + flinkRows + " rows, the native decoder " + nativeRows);
        }
        List<RowData> expected = new ArrayList<>();
        for (int i = 0; i < Math.min(CHECKED_RECORDS, Math.min(values.size(), batchRecords)); i++) {
            expected.addAll(flink.deserialize(null, values.get(i)));
        }
        try (DecodedBatch batch = decode(decoder, slabs.get(0))) {
            ArrowRows reader = ArrowRows.bind(batch);
            for (int r = 0; r < expected.size(); r++) {
                if (!sameRow(expected.get(r), reader.row(r), type)) {
                    throw new AssertionError("row " + r + " differs: Flink " + expected.get(r) + ", native " + reader.row(r));
                }
            }
        }
        return flinkRows;
    }

    /** The binary rows of the first batch must equal Flink's rows too. */
    private void verifyBinary(StockKafkaSource flink, RowType type, List<byte[]> values, NativeJsonDecoder binary,
            Slab slab) throws Exception {
        BinaryRowBatch batch = binary.decodeBinaryRows(null, null, null, slab.data(), slab.offsets(), slab.lengths());
        int row = 0;
        for (int i = 0; i < Math.min(CHECKED_RECORDS, Math.min(values.size(), batchRecords)); i++) {
            for (RowData expected : flink.deserialize(null, values.get(i))) {
                if (!sameRow(expected, batch.row(row), type)) {
                    throw new AssertionError("binary row " + row + " differs from Flink's " + expected);
                }
                row++;
            }
        }
    }

    private static byte[] bytes(BinaryRowData row) {
        byte[] out = new byte[row.getSizeInBytes()];
        row.getSegments()[0].get(row.getOffset(), out, 0, out.length);
        return out;
    }

    /** The same bytes as Flink's {@code toBinaryRow} (nested values and map entries included). */
    private static boolean sameRow(RowData flink, RowData kjson, RowType type) {
        RowDataSerializer serializer = new RowDataSerializer(type);
        byte[] expected = bytes(serializer.toBinaryRow(flink));
        return Arrays.equals(expected, bytes(serializer.toBinaryRow(kjson)));
    }

    private long flinkPass(StockKafkaSource flink, List<ConsumerRecord<byte[], byte[]>> records) {
        long[] rows = new long[1];
        Collector<RowData> counter = counter(rows);
        try {
            for (ConsumerRecord<byte[], byte[]> record : records) {
                flink.deserialize(record, counter);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        sink += rows[0];
        return rows[0];
    }

    private static Collector<RowData> counter(long[] rows) {
        return new Collector<>() {
            @Override
            public void collect(RowData row) {
                rows[0]++;
            }

            @Override
            public void close() {}
        };
    }

    private static DecodedBatch decode(NativeJsonDecoder decoder, Slab slab) {
        return decoder.decode(null, null, null, slab.data(), slab.offsets(), slab.lengths());
    }

    private void arrowPass(NativeJsonDecoder decoder, List<Slab> slabs) {
        for (Slab slab : slabs) {
            try (DecodedBatch batch = decode(decoder, slab)) {
                sink += batch.rowCount();
            }
        }
    }

    private void binaryRowPass(NativeJsonDecoder decoder, List<Slab> slabs) {
        for (Slab slab : slabs) {
            BinaryRowBatch batch = decoder.decodeBinaryRows(null, null, null, slab.data(), slab.offsets(), slab.lengths());
            for (int r = 0; r < batch.rowCount(); r++) {
                sink += batch.row(r).getArity();
            }
        }
    }

    private void rowDataPass(NativeJsonDecoder decoder, List<Slab> slabs) {
        for (Slab slab : slabs) {
            long start = Passes.now(); // the passes' clock: wall time would charge GC pauses to the copies
            try (DecodedBatch batch = decode(decoder, slab)) {
                long decoded = Passes.now();
                decodeNanos += decoded - start;
                ArrowRows reader = ArrowRows.bind(batch);
                for (int r = 0; r < batch.rowCount(); r++) {
                    sink += reader.row(r).getArity();
                }
                rowDataNanos += Passes.now() - decoded;
            }
        }
    }

    private void report(String name, int records, long rows, long bytes, Timing[] t) {
        System.out.printf(Locale.ROOT, "%n== %s: %d records -> %d rows, %.1f MB of values per pass (checksum %d)%n", name,
                records, rows, bytes / 1e6, sink);
        double flinkRate = records / t[0].medianSeconds();
        line("Flink's Kafka source deserializer (per record)", records, bytes, t[0], flinkRate);
        line("native, to Arrow (one JNI call per batch)", records, bytes, t[1], flinkRate);
        line("native, to Arrow then GenericRowData copies", records, bytes, t[2], flinkRate);
        line("native, to BinaryRowData (one slab, pointTo per row)", records, bytes, t[3], flinkRate);
        double total = decodeNanos + rowDataNanos;
        System.out.printf(Locale.ROOT, "  split of the last (warmup and passes): JNI decode + Arrow import %.1f%%,"
                + " Arrow -> GenericRowData %.1f%%%n",
                100 * decodeNanos / total, 100 * rowDataNanos / total);
        decodeNanos = rowDataNanos = 0;
    }

    private static void line(String name, int records, long bytes, Timing t, double flinkRate) {
        double rate = records / t.medianSeconds();
        System.out.printf(Locale.ROOT, "  %-52s %12.0f records/s %8.1f MB/s %7.2fx%n", name, rate,
                bytes / t.medianSeconds() / 1e6, rate / flinkRate);
    }
}
