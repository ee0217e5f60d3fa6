package org.kjson.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.kjson.flink.support.StockKafkaSink;
import org.kjson.flink.support.StockKafkaSource;
import org.kjson.testkit.HostileValues;
import org.kjson.testkit.RandomRows;
import org.kjson.testkit.RandomSinkTables;
import org.kjson.testkit.RandomSinkTables.SinkTable;

/**
 * The native decoder's {@code BinaryRowData} bytes against Flink's own: random rows of random
 * tables (flat and nested) are written by Flink's Kafka sink serializer, read back by Flink's
 * Kafka source deserializer of the same table, and each row Flink emits is turned into a
 * {@code BinaryRowData} by Flink's {@link RowDataSerializer#toBinaryRow}, which writes nested
 * rows, arrays, maps and multisets through Flink's own row, array and map serializers (a map in
 * the iteration order of the {@code HashMap} Flink's deserializer collected it in); the native
 * decoder's row for the same record must have the same bytes (RowKind header, null bits, slots,
 * variable part, every nested value's) and the same record index. One run with a fixed seed,
 * one with a fresh seed (printed; rerun with -Dkjson.seed=N).
 */
class BinaryRowParityTest {
    static final long SEED = Long.getLong("kjson.seed", System.nanoTime());
    static final long FIXED_SEED = 20_26_12_04L;
    static final int SCHEMAS = Integer.getInteger("kjson.binary.schemas", 40);
    static final int ROWS = 60;
    static final double[] NULL_CHANCES = {0, 0.1, 0.5};
    /** Every type and precision the binary rows cover, in the table shapes that give every RowKind. */
    static final String EVERY_TYPE = "(b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE,"
            + " ch CHAR(3), vc VARCHAR(20), s STRING, bn BINARY(4), vb VARBINARY(10), byt BYTES, dt DATE, t0 TIME(0),"
            + " t3 TIME(3), ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts4 TIMESTAMP(4), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9),"
            + " lz0 TIMESTAMP_LTZ(0), lz3 TIMESTAMP_LTZ(3), lz7 TIMESTAMP_LTZ(7), dec1 DECIMAL(1, 0),"
            + " dec5 DECIMAL(5, 2), dec18 DECIMAL(18, 4), dec19 DECIMAL(19, 0), dec38 DECIMAL(38, 10), %s)"
            + " WITH (%s, 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092')";
    /** Every type nested in arrays, maps, multisets and rows, four levels deep, nulls at each level. */
    static final String NESTED_TYPES = "(id BIGINT, a_b ARRAY<BOOLEAN>, a_ti ARRAY<TINYINT>, a_si ARRAY<SMALLINT>,"
            + " a_i ARRAY<INT>, a_bi ARRAY<BIGINT>, a_f ARRAY<FLOAT>, a_d ARRAY<DOUBLE>, a_s ARRAY<STRING>,"
            + " a_ch ARRAY<CHAR(3)>, a_by ARRAY<BYTES>, a_bn ARRAY<BINARY(4)>, a_dt ARRAY<DATE>, a_t0 ARRAY<TIME(0)>,"
            + " a_t3 ARRAY<TIME(3)>, a_ts0 ARRAY<TIMESTAMP(0)>, a_ts3 ARRAY<TIMESTAMP(3)>, a_ts6 ARRAY<TIMESTAMP(6)>,"
            + " a_ts9 ARRAY<TIMESTAMP(9)>, a_lz3 ARRAY<TIMESTAMP_LTZ(3)>, a_lz7 ARRAY<TIMESTAMP_LTZ(7)>,"
            + " a_dec5 ARRAY<DECIMAL(5, 2)>, a_dec18 ARRAY<DECIMAL(18, 4)>, a_dec19 ARRAY<DECIMAL(19, 0)>,"
            + " a_dec38 ARRAY<DECIMAL(38, 10)>, m_dec MAP<STRING, DECIMAL(20, 2)>, m_ts MAP<STRING, TIMESTAMP(9)>,"
            + " m_arr MAP<VARCHAR(10), ARRAY<STRING>>, ms MULTISET<STRING>, r ROW<x INT, s STRING, ts TIMESTAMP(6),"
            + " dc DECIMAL(30, 3), tags ARRAY<STRING>, inr ROW<b BOOLEAN, m MAP<STRING, ARRAY<ROW<v DOUBLE,"
            + " w ARRAY<SMALLINT>>>>>>, deep ARRAY<ARRAY<MAP<STRING, ROW<t TIME(3), ms MULTISET<VARCHAR(5)>>>>>,"
            + " rws ARRAY<ROW<a TINYINT, b BYTES, c DATE, d DECIMAL(25, 5)>>, %s)"
            + " WITH (%s, 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092')";
    static final Compatibility TARGET = Compatibility.ofRunningFlink();

    private BufferAllocator allocator;

    @BeforeAll
    static void printSeed() {
        System.out.println("BinaryRowParityTest seed: " + SEED + " (rerun with -Dkjson.seed=" + SEED + ")");
    }

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void tearDown() {
        allocator.close();
    }

    /** Flink's rows of some records: each row's bytes and record, and the records Flink read. */
    record Expected(List<byte[]> rows, List<Integer> records, List<byte[]> keys, List<byte[]> values) {}

    @Test
    void everyCoveredTypeAndPrecisionIsFlinksBytes() throws Exception {
        everyShapeIsFlinksBytes(EVERY_TYPE, "bi");
    }

    @Test
    void everyNestedTypeIsFlinksBytes() throws Exception {
        everyShapeIsFlinksBytes(NESTED_TYPES, "id");
    }

    private void everyShapeIsFlinksBytes(String columns, String key) throws Exception {
        String pk = "PRIMARY KEY (" + key + ") NOT ENFORCED";
        List<String> shapes = new ArrayList<>();
        for (String format : List.of("json", "debezium-json", "canal-json", "maxwell-json", "ogg-json")) {
            shapes.add(String.format(columns, "x INT", "'connector' = 'kafka', 'format' = '" + format + "'"));
        }
        shapes.add(String.format(columns, pk, "'connector' = 'upsert-kafka', 'key.format' = 'json',"
                + " 'value.format' = 'json'"));
        Random random = new Random(FIXED_SEED);
        for (int n = 0; n < shapes.size(); n++) {
            String shape = shapes.get(n);
            StockKafkaSink stock = StockKafkaSink.create(asSource("CREATE TABLE shape_" + n + " " + shape));
            Optional<String> difference = compare(stock, new RandomRows(random.nextLong(), 0.2, false), 200);
            difference.ifPresent(d -> fail(shape + "\n" + d));
        }
    }

    /**
     * Strings from invalid UTF-8 and lone surrogates (map keys among them: two keys that differ
     * only in lone surrogates are two entries, both written {@code ?}), far years, all-digit
     * decimals.
     */
    @Test
    void hostileValuesAreFlinksBytes() throws Exception {
        HostileValues.Options hostile = new HostileValues.Options(true, true, true);
        for (String table : List.of(EVERY_TYPE, NESTED_TYPES)) {
            for (String format : List.of("json", "debezium-json")) {
                String shape = String.format(table, "x INT", "'connector' = 'kafka', 'format' = '" + format
                        + "'");
                StockKafkaSink stock = StockKafkaSink.create(asSource("CREATE TABLE hostile " + shape));
                Optional<String> difference = compare(stock, new RandomRows(SEED, 0.2, false, hostile), 300);
                difference.ifPresent(d -> fail("seed " + SEED + ", " + shape + "\n" + d));
            }
        }
    }

    @Test
    void fixedSeedMatchesFlink() throws Exception {
        run(FIXED_SEED);
    }

    @Test
    void freshSeedMatchesFlink() throws Exception {
        run(SEED);
    }

    /** The comparison can fail: one flipped byte of one row is found. */
    @Test
    void aFlippedByteIsFound() throws Exception {
        StockKafkaSink stock = StockKafkaSink.create(asSource("CREATE TABLE flipped " + String.format(EVERY_TYPE,
                "x INT", "'connector' = 'kafka', 'format' = 'json'")));
        Expected expected = flinkReads(stock, new RandomRows(FIXED_SEED, 0.2, false), 20);
        List<byte[]> actual = nativeRows(stock, expected).rows();
        assertEquals(Optional.empty(), firstDifference(expected, actual, expected.records()));
        Random random = new Random(SEED);
        int row = random.nextInt(actual.size());
        actual.get(row)[random.nextInt(actual.get(row).length)] ^= (byte) (1 << random.nextInt(8));
        Optional<String> found = firstDifference(expected, actual, expected.records());
        assertTrue(found.isPresent() && found.get().startsWith("row " + row + ":"), String.valueOf(found));
    }

    private void run(long seed) throws Exception {
        RandomSinkTables tables = new RandomSinkTables(seed);
        Random random = new Random(seed);
        int compared = 0;
        int nested = 0;
        long rowsCompared = 0;
        for (int attempt = 0; compared < SCHEMAS && attempt < 20 * SCHEMAS; attempt++) {
            SinkTable table = tables.next();
            long rowSeed = random.nextLong();
            StockKafkaSink stock;
            try {
                stock = StockKafkaSink.create(asSource(table.ddl()));
            } catch (Exception e) {
                continue; // Flink refuses the random table
            }
            RandomRows rows = new RandomRows(rowSeed, NULL_CHANCES[random.nextInt(NULL_CHANCES.length)], false);
            Expected expected = flinkReads(stock, rows, ROWS);
            Native actual = nativeRows(stock, expected);
            Optional<String> difference = firstDifference(expected, actual.rows(), actual.records());
            if (difference.isPresent()) {
                fail("seed " + seed + ", " + table.ddl() + "\n" + difference.get());
            }
            compared++;
            nested += table.ddl().matches("(?s).*\\b(ROW|ARRAY|MAP|MULTISET)<.*") ? 1 : 0;
            rowsCompared += expected.rows().size();
        }
        System.out.println("BinaryRowParityTest seed " + seed + ": " + compared + " tables (" + nested + " nested), "
                + rowsCompared + " rows compared");
        assertEquals(SCHEMAS, compared, "random tables compared");
        assertTrue(nested > SCHEMAS / 4, "too few nested tables: " + nested);
        assertTrue(rowsCompared > SCHEMAS * ROWS / 2, "Flink read too few of the random rows: " + rowsCompared);
    }

    /** A kafka table read as a source needs a start position (upsert-kafka has none). */
    static String asSource(String ddl) {
        return ddl.contains("'connector' = 'kafka'")
                ? ddl.replace("'topic' = 't'", "'topic' = 't', 'scan.startup.mode' = 'earliest-offset'") : ddl;
    }

    private Optional<String> compare(StockKafkaSink stock, RandomRows rows, int count) throws Exception {
        Expected expected = flinkReads(stock, rows, count);
        assertTrue(expected.rows().size() > count / 2, "Flink read " + expected.rows().size() + " rows of " + count);
        Native actual = nativeRows(stock, expected);
        return firstDifference(expected, actual.rows(), actual.records());
    }

    /** Records Flink's serializer writes from random rows, and what Flink's source reads from them. */
    static Expected flinkReads(StockKafkaSink stock, RandomRows random, int count) throws Exception {
        RowType type = stock.physicalRowType();
        StockKafkaSource source = StockKafkaSource.of(stock.table());
        RowDataSerializer binary = new RowDataSerializer(source.physicalRowType());
        Expected out = new Expected(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int i = 0; i < count; i++) {
            ProducerRecord<byte[], byte[]> record;
            List<RowData> read;
            try {
                record = stock.serialize(random.row(type, random.kind()));
                read = source.deserialize(record.key(), record.value());
            } catch (Exception e) {
                continue; // a row Flink does not write or read: not this test's subject
            }
            for (RowData row : read) {
                BinaryRowData bytes = binary.toBinaryRow(row);
                out.rows().add(bytes(bytes));
                out.records().add(out.values().size());
            }
            out.keys().add(record.key());
            out.values().add(record.value());
        }
        return out;
    }

    record Native(List<byte[]> rows, List<Integer> records) {}

    Native nativeRows(StockKafkaSink stock, Expected records) {
        SinkDescription table = SinkDescription.of(stock.table().getResolvedSchema(), stock.options());
        try (NativeJsonDecoder decoder = NativeJsonDecoder.open(table, TARGET, allocator)) {
            decoder.timestampLayout(NativeJsonDecoder.TimestampLayout.AS_FLINK_ROWS);
            assertEquals(Optional.empty(), decoder.binaryRowsRefusal());
            BinaryRowBatch batch = decoder.decodeBinaryRows(records.keys(), records.values());
            Native out = new Native(new ArrayList<>(), new ArrayList<>());
            for (int r = 0; r < batch.rowCount(); r++) {
                out.rows().add(bytes(batch.row(r)));
                out.records().add(batch.record(r));
            }
            return out;
        }
    }

    static byte[] bytes(BinaryRowData row) {
        byte[] out = new byte[row.getSizeInBytes()];
        row.getSegments()[0].get(row.getOffset(), out, 0, out.length);
        return out;
    }

    /** The first row whose bytes or record differ, with both rows in hex. */
    static Optional<String> firstDifference(Expected expected, List<byte[]> rows, List<Integer> records) {
        for (int r = 0; r < Math.min(rows.size(), expected.rows().size()); r++) {
            byte[] flink = expected.rows().get(r);
            if (!java.util.Arrays.equals(flink, rows.get(r)) || !expected.records().get(r).equals(records.get(r))) {
                return Optional.of("row " + r + ": record " + expected.records().get(r) + " vs " + records.get(r)
                        + "\n  Flink  " + HexFormat.of().formatHex(flink) + "\n  native "
                        + HexFormat.of().formatHex(rows.get(r)));
            }
        }
        if (rows.size() != expected.rows().size()) {
            return Optional.of("Flink read " + expected.rows().size() + " rows, native " + rows.size());
        }
        return Optional.empty();
    }
}
