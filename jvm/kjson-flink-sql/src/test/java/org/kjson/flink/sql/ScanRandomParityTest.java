package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.kjson.flink.sql.support.FlinkWrittenTopic;
import org.kjson.flink.sql.support.RandomScanTables;
import org.kjson.flink.sql.support.RandomScanTables.ScanTable;
import org.kjson.flink.sql.support.RandomScanTables.Shape;
import org.kjson.flink.sql.support.ScanComparison;
import org.kjson.flink.sql.support.ScanRun;
import org.kjson.flink.sql.support.ScanRun.Result;
import org.kjson.flink.sql.support.SharedBroker;
import org.kjson.flink.sql.support.SharedScanCluster;

/**
 * {@code SELECT *} from random tables, judged by the stock connector: for each shape (json,
 * debezium-json, canal-json, maxwell-json, ogg-json values of {@code kafka}, perhaps with json
 * key fields, a prefix and {@code EXCEPT_KEY}; {@code upsert-kafka}), random tables of the sink
 * differential's generator with random decode options, a topic written by Flink's own sink
 * serializer plus hostile records ({@link FlinkWrittenTopic}), read to its end by the stock
 * connector and by kjson's: the same rows, RowKinds included, or the same failure after the same
 * rows ({@link ScanComparison}).
 *
 * <p>The seed is fresh each run and printed (rerun with -Dkjson.seed=N); -Dkjson.scan.schemas=N
 * tables per shape (default 2), -Dkjson.scan.rows=N rows at most per table (default 40),
 * -Dkjson.scan.shape=NAME one shape only.
 */
class ScanRandomParityTest {
    static final long SEED = Long.getLong("kjson.seed", System.nanoTime());
    private static final int SCHEMAS = Integer.getInteger("kjson.scan.schemas", 2);
    private static final int MAX_ROWS = Integer.getInteger("kjson.scan.rows", 40);
    /** One shape only (its name, e.g. OGG_JSON), to rerun a finding. */
    private static final String ONLY_SHAPE = System.getProperty("kjson.scan.shape");
    /** Random DDLs Flink's sink factory refuses are drawn again, up to this many per shape. */
    private static final int MAX_REFUSED = 200;
    private static long decodedBefore;

    @BeforeAll
    static void printSeed() {
        System.out.println("ScanRandomParityTest seed: " + SEED + " (rerun with -Dkjson.seed=" + SEED + "), "
                + SCHEMAS + " tables per shape");
        decodedBefore = ScanRun.recordsDecoded();
    }

    @AfterAll
    static void kjsonDecodedNatively() {
        assertTrue(ScanRun.recordsDecoded() > decodedBefore, "the kjson reads decoded natively (kjsonRecordsDecoded)");
    }

    @ParameterizedTest
    @EnumSource(Shape.class)
    void randomTablesReadTheStockRows(Shape shape) throws Exception {
        assumeTrue(ONLY_SHAPE == null || ONLY_SHAPE.equals(shape.name()), "-Dkjson.scan.shape=" + ONLY_SHAPE);
        RandomScanTables tables = new RandomScanTables(SEED + shape.ordinal());
        Random rowSeeds = new Random(SEED * 31 + shape.ordinal());
        List<String> mismatches = new ArrayList<>();
        int refused = 0;
        for (int compared = 0; compared < SCHEMAS;) {
            ScanTable table = tables.next(shape);
            long rowSeed = rowSeeds.nextLong();
            FlinkWrittenTopic writer;
            try {
                writer = FlinkWrittenTopic.of(table);
            } catch (Exception e) {
                assertTrue(++refused < MAX_REFUSED, () -> "Flink refuses most random " + shape + " tables: " + e);
                continue;
            }
            String difference = compare(shape, compared, table, writer, rowSeed);
            if (difference != null) {
                mismatches.add(shape + " table " + compared + " of seed " + SEED + ": " + difference + "\n"
                        + table.readDdl("<connector>", "<topic>", "<servers>", -1));
            }
            compared++;
        }
        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " of " + SCHEMAS + " random " + shape + " tables read differently (rerun with "
                    + "-Dkjson.seed=" + SEED + "):\n\n" + String.join("\n\n", mismatches));
        }
    }

    /** Both reads of a topic: the stock read's, and what differs in kjson's (null: nothing). */
    private record Reads(Result stock, String difference) {
        String summary() {
            return stock.rows().size() + " stock rows" + (stock.failure() == null ? "" : " then " + rootCause()) + ", "
                    + (difference == null ? "same" : "DIFFERENT");
        }

        private String rootCause() {
            Throwable root = stock.failure();
            while (root.getCause() != null) {
                root = root.getCause();
            }
            String message = String.valueOf(root.getMessage()).replace('\n', ' ');
            return "\"" + (message.length() > 100 ? message.substring(0, 100) + "..." : message) + "\"";
        }
    }

    /**
     * Writes the table's topic and reads it with both connectors; null when they agree. Where a
     * strict format fails on hostile records at the end, the rows before them are read first by
     * a pair of reads that stop there (every row compared), then the whole topic (the failures).
     */
    private static String compare(Shape shape, int index, ScanTable table, FlinkWrittenTopic writer, long rowSeed)
            throws Exception {
        String topic = ScanRun.topic("scan-random-" + shape.name().toLowerCase().replace('_', '-'), 1);
        FlinkWrittenTopic.Records records = writer.records(topic, rowSeed, MAX_ROWS);
        ScanRun.produceFast(records.records());
        int size = records.records().size();
        String line = "ScanRandomParityTest " + shape + " table " + index + ": " + size + " records ("
                + (size - records.strictFailuresFrom()) + " hostile at the end, " + writer.rowsFlinkRefused()
                + " rows the stock serializer refused)";
        if (records.strictFailuresFrom() > 0 && records.strictFailuresFrom() < size) {
            Reads before = readBoth(table, topic, records.strictFailuresFrom());
            line += "; before them: " + before.summary();
            if (before.difference() != null) {
                System.out.println(line);
                return before.difference();
            }
        }
        Reads all = readBoth(table, topic, -1);
        System.out.println(line + "; to the end: " + all.summary());
        return all.difference();
    }

    /** The stock and kjson reads of {@code topic} up to {@code stopOffset} (-1: its end). */
    private static Reads readBoth(ScanTable table, String topic, long stopOffset) throws Exception {
        String servers = SharedBroker.get().bootstrapServers();
        String query = "SELECT * FROM `" + table.name() + "`";
        boolean upsert = table.shape() == Shape.UPSERT_KAFKA;
        Result stock = SharedScanCluster.read(
                table.readDdl(upsert ? "upsert-kafka" : "kafka", topic, servers, stopOffset), query);
        Result kjson = SharedScanCluster.read(
                table.readDdl(upsert ? "kjson-upsert-kafka" : "kjson-kafka", topic, servers, stopOffset), query);
        return new Reads(stock, ScanComparison.difference(stock, kjson));
    }
}
