package org.kjson.flink;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.kjson.flink.support.RowDataPaths;
import org.kjson.flink.support.RowDataPaths.Outcome;
import org.kjson.flink.support.RowDataPaths.Path;
import org.kjson.flink.support.RowDataPaths.Record;
import org.kjson.flink.support.RowText;
import org.kjson.flink.support.StockKafkaSink;
import org.kjson.testkit.HostileValues;
import org.kjson.testkit.RandomRows;
import org.kjson.testkit.RandomSinkTables;
import org.kjson.testkit.RandomSinkTables.SinkTable;

/**
 * Random sink tables (every type, nested, every sink shape and json option) and random rows
 * outside the planner's usual rows (strings from invalid UTF-8 bytes or with lone surrogates,
 * timestamps across years 0000..9999, decimals with every digit) go through each of kjson's
 * RowData paths and through Flink's own Kafka record serializer, the only judge: keys, values,
 * null keys and tombstones must be identical, and a batch Flink refuses must be refused.
 *
 * <p>One run with a fixed seed, one with a fresh seed (printed; rerun with -Dkjson.seed=N, one
 * schema of it with -Dkjson.diff.only=N). Sizes: -Dkjson.diff.schemas, .batches, .rows; the
 * hostile kinds can be turned off one by one with -Dkjson.diff.hostile.{strings,timestamps,decimals}=false.
 */
class RowDataDifferentialTest {
    static final long SEED = Long.getLong("kjson.seed", System.nanoTime());
    private static final long FIXED_SEED = 20_240_611L;
    /** 800 schemas of 4 batches: about 10-20 s per seed on the 2-core CI machine. */
    private static final int SCHEMAS = Integer.getInteger("kjson.diff.schemas", 800);
    private static final int BATCHES = Integer.getInteger("kjson.diff.batches", 4);
    private static final int MAX_ROWS = Integer.getInteger("kjson.diff.rows", 100);
    private static final int ONLY_SCHEMA = Integer.getInteger("kjson.diff.only", -1);
    private static final HostileValues.Options HOSTILE = new HostileValues.Options(
            hostile("strings"), hostile("timestamps"), hostile("decimals"));
    private static final double[] NULL_CHANCES = {0, 0.05, 0.2, 0.5};
    /** A generated column or field name in JSON text: its tag names its type (see RandomSinkTables). */
    private static final Pattern FIELD_NAME = Pattern.compile("\"(?:k_)?([a-z0-9]+)_[0-9]+\":");

    private static boolean hostile(String kind) {
        return Boolean.parseBoolean(System.getProperty("kjson.diff.hostile." + kind, "true"));
    }

    @BeforeAll
    static void printSeed() {
        System.out.println("RowDataDifferentialTest seed: " + SEED + " (rerun with -Dkjson.seed=" + SEED + "), fixed seed "
                + FIXED_SEED + ", " + HOSTILE);
    }

    @Test
    void fixedSeedMatchesStockFlink() throws Exception {
        run(FIXED_SEED);
    }

    @Test
    void freshSeedMatchesStockFlink() throws Exception {
        run(SEED);
    }

    private static void run(long seed) throws Exception {
        DifferentialFindings findings = new DifferentialFindings(seed);
        RandomSinkTables tables = new RandomSinkTables(seed);
        Random schemaSeeds = new Random(seed);
        for (int s = 0; s < SCHEMAS; s++) {
            SinkTable table = tables.next();
            long schemaSeed = schemaSeeds.nextLong();
            if (ONLY_SCHEMA >= 0 && s != ONLY_SCHEMA) {
                continue;
            }
            StockKafkaSink stock;
            try {
                stock = StockKafkaSink.create(table.ddl());
            } catch (Exception e) {
                findings.skipped(e);
                continue;
            }
            new SchemaRun(seed, s, table, stock, schemaSeed, findings).compare();
        }
        System.out.println(findings.summary());
        if (findings.hasMismatches()) {
            fail(findings.report());
        }
        // Generation must keep most random DDLs acceptable to Flink, or the run compares little.
        assertTrue(ONLY_SCHEMA >= 0 || findings.schemasCompared() > SCHEMAS / 2, findings.summary());
    }

    /** One random sink table: its rows, its batches, and the comparison of each record. */
    private static final class SchemaRun {
        private final long seed;
        private final int schema;
        private final SinkTable table;
        private final StockKafkaSink stock;
        private final DifferentialFindings findings;
        private final Random random;
        private final RandomRows rows;
        private final RowType rowType;
        private final RowDataSerializer binary;

        SchemaRun(long seed, int schema, SinkTable table, StockKafkaSink stock, long schemaSeed, DifferentialFindings findings) {
            this.seed = seed;
            this.schema = schema;
            this.table = table;
            this.stock = stock;
            this.findings = findings;
            this.random = new Random(schemaSeed);
            this.rows = new RandomRows(schemaSeed, NULL_CHANCES[random.nextInt(NULL_CHANCES.length)],
                    table.nullMapKeysAllowed(), HOSTILE);
            this.rowType = stock.physicalRowType();
            this.binary = new RowDataSerializer(rowType);
        }

        void compare() throws Exception {
            RowDataPaths paths;
            try {
                SinkDescription sink = SinkDescription.of(stock.table().getResolvedSchema(), stock.options());
                paths = RowDataPaths.open(sink, 1 + random.nextInt(MAX_ROWS + 1));
            } catch (RuntimeException e) {
                findings.mismatch("kjson refused a sink Flink accepts: " + refusalClass(e), Path.ARRAYS,
                        () -> header() + "\n" + e);
                return;
            }
            findings.schemaCompared();
            try (paths) {
                for (int b = 0; b < BATCHES; b++) {
                    compareBatch(paths, b);
                }
            }
        }

        private void compareBatch(RowDataPaths paths, int batch) {
            // Under FAIL, a few batches carry null map keys: both sides must then refuse alike.
            rows.nullMapKeys(table.nullMapKeysAllowed() || (table.hasMaps() && random.nextInt(4) == 0));
            int size = random.nextInt(8) == 0 ? 0 : 1 + random.nextInt(MAX_ROWS);
            int form = random.nextInt(3); // generic rows, binary rows (as after a shuffle), or both mixed
            List<GenericRowData> generic = new ArrayList<>();
            List<RowData> batchRows = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                GenericRowData row = rows.row(rowType, rows.kind());
                generic.add(row);
                boolean asBinary = form == 1 || (form == 2 && random.nextBoolean());
                batchRows.add(asBinary ? binary.toBinaryRow(row).copy() : row);
            }
            // kjson first: Flink's serializer decodes (and caches) every string it reads.
            Map<Path, Outcome> outcomes = paths.encode(batchRows);
            boolean refused = outcomes.values().stream().anyMatch(o -> o.error() != null);
            int refusedAlone = refused ? paths.firstRefusedRow(batchRows) : -1;
            List<Expected> expected = new ArrayList<>();
            for (RowData row : batchRows) {
                expected.add(Expected.of(stock, row));
            }
            for (Map.Entry<Path, Outcome> outcome : outcomes.entrySet()) {
                new BatchCheck(outcome.getKey(), outcome.getValue(), batch, generic, batchRows, expected, refusedAlone).run();
            }
        }

        private String header() {
            return String.format("seed %d, schema %d (rerun: -Dkjson.seed=%d -Dkjson.diff.only=%d)%n%s", seed, schema, seed,
                    schema, table.ddl());
        }

        /** One path's outcome for one batch against Flink's records. */
        private final class BatchCheck {
            private final Path path;
            private final Outcome outcome;
            private final int batch;
            private final List<GenericRowData> generic;
            private final List<RowData> batchRows;
            private final List<Expected> expected;
            /** The first row kjson refuses in a batch of its own (-1: none), found before Flink read the rows. */
            private final int refusedAlone;

            BatchCheck(Path path, Outcome outcome, int batch, List<GenericRowData> generic, List<RowData> batchRows,
                    List<Expected> expected, int refusedAlone) {
                this.path = path;
                this.outcome = outcome;
                this.batch = batch;
                this.generic = generic;
                this.batchRows = batchRows;
                this.expected = expected;
                this.refusedAlone = refusedAlone;
            }

            void run() {
                int stockRefused = firstStockRefusal();
                if (outcome.error() != null) {
                    checkRefusal(stockRefused);
                } else if (stockRefused >= 0) {
                    findings.mismatch("kjson wrote a batch Flink refuses", path, () -> example(stockRefused,
                            "Flink refused: " + expected.get(stockRefused).error()));
                } else if (outcome.records().size() != batchRows.size()) {
                    findings.mismatch("record count", path, () -> header() + "\n" + batchRows.size() + " rows, "
                            + outcome.records().size() + " records");
                } else {
                    for (int i = 0; i < batchRows.size(); i++) {
                        checkRecord(i);
                    }
                }
            }

            private int firstStockRefusal() {
                for (int i = 0; i < expected.size(); i++) {
                    if (expected.get(i).error() != null) {
                        return i;
                    }
                }
                return -1;
            }

            private void checkRefusal(int stockRefused) {
                Exception error = outcome.error();
                if (stockRefused >= 0 && hasCause(error, KjsonMapNullKeyException.class)) {
                    findings.refusalMatched();
                    return;
                }
                String cls = (stockRefused >= 0 ? "refused for another reason than Flink: " : "kjson refused a batch: ")
                        + refusalClass(error);
                findings.mismatch(cls, path, () -> {
                    int row = stockRefused >= 0 ? stockRefused : refusedAlone;
                    return example(Math.max(row, 0), "kjson refused the batch" + (row < 0 ? " (no single row alone)" : "")
                            + ": " + causeChain(error));
                });
            }

            private void checkRecord(int i) {
                findings.recordCompared(path);
                ProducerRecord<byte[], byte[]> want = expected.get(i).record();
                Record got = outcome.records().get(i);
                String cls = null;
                if (!Arrays.equals(want.key(), got.key())) {
                    cls = "key differs" + where(want.key(), got.key());
                } else if (!Arrays.equals(want.value(), got.value())) {
                    cls = "value differs" + where(want.value(), got.value());
                } else if ((want.key() == null) != got.nullKey()) {
                    cls = "null-key flag differs";
                } else if ((want.value() == null) != got.tombstone()) {
                    cls = "tombstone flag differs";
                }
                if (cls != null) {
                    findings.mismatch(cls, path, () -> example(i, records(want, got)));
                }
            }

            private String example(int row, String detail) {
                if (batchRows.isEmpty()) {
                    return String.format("%s%npath %s, batch %d, empty: %s", header(), path, batch, detail);
                }
                return String.format("%s%npath %s, batch %d, row %d (%s): %s%n%s", header(), path, batch, row,
                        batchRows.get(row) instanceof GenericRowData ? "GenericRowData" : "BinaryRowData",
                        RowText.of(generic.get(row)), detail);
            }
        }
    }

    /** Flink's record for a row, or the error Flink's serializer threw for it. */
    private record Expected(ProducerRecord<byte[], byte[]> record, RuntimeException error) {
        static Expected of(StockKafkaSink stock, RowData row) {
            try {
                return new Expected(stock.serialize(row), null);
            } catch (RuntimeException e) {
                return new Expected(null, e);
            }
        }
    }

    /**
     * Where the first differing byte is, as a mismatch class: in a map key, in a string or in a
     * value, of the innermost generated column or field before it, by the leaf type of its tag
     * ({@code arrmapts9} is a TIMESTAMP(9) in a map in an array).
     */
    private static String where(byte[] want, byte[] got) {
        if (want == null || got == null) {
            return want == null ? " (Flink wrote null)" : " (kjson wrote null)";
        }
        int at = firstDifference(want, got);
        Matcher names = FIELD_NAME.matcher(new String(want, 0, at, StandardCharsets.UTF_8));
        String tag = "?";
        while (names.find()) {
            tag = names.group(1).replaceFirst("^(arr|map)+", "");
        }
        return " in " + stringRole(want, at) + tag;
    }

    /** "a map key of ", "a string of " or "" for a position in JSON text. */
    private static String stringRole(byte[] json, int at) {
        boolean inString = false;
        for (int i = 0; i < at && i < json.length; i++) {
            if (json[i] == '\\') {
                i++;
            } else if (json[i] == '"') {
                inString = !inString;
            }
        }
        if (!inString) {
            return "";
        }
        for (int i = at; i < json.length; i++) {
            if (json[i] == '\\') {
                i++;
            } else if (json[i] == '"') {
                return i + 1 < json.length && json[i + 1] == ':' ? "a map key of " : "a string of ";
            }
        }
        return "a string of ";
    }

    private static int firstDifference(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            if (a[i] != b[i]) {
                return i;
            }
        }
        return n;
    }

    private static String records(ProducerRecord<byte[], byte[]> want, Record got) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("  Flink key   %s%n  kjson key   %s%n", text(want.key()), text(got.key())));
        out.append(String.format("  Flink value %s%n  kjson value %s", text(want.value()), text(got.value())));
        byte[] a = !Arrays.equals(want.key(), got.key()) ? want.key() : want.value();
        byte[] b = !Arrays.equals(want.key(), got.key()) ? got.key() : got.value();
        if (a != null && b != null) {
            int at = firstDifference(a, b);
            out.append(String.format("%n  first difference at byte %d: Flink x'%s' kjson x'%s'", at, hexWindow(a, at),
                    hexWindow(b, at)));
        }
        return out.toString();
    }

    private static String hexWindow(byte[] bytes, int at) {
        int from = Math.max(0, at - 8);
        return HexFormat.of().formatHex(bytes, from, Math.min(bytes.length, at + 16));
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * The exception's class and message as a mismatch class: the innermost of nested "...error: "
     * messages (Arrow validation nests one per level), digits masked, parenthesized types left out.
     */
    private static String refusalClass(Throwable error) {
        String message = String.valueOf(error.getMessage());
        int innermost = message.lastIndexOf("error: ");
        message = message.substring(innermost < 0 ? 0 : innermost + "error: ".length()).replaceAll("[0-9]+", "#");
        String previous;
        do {
            previous = message;
            message = message.replaceAll("\\([^()]*\\)", "");
        } while (!message.equals(previous));
        return error.getClass().getSimpleName() + ": " + message.substring(0, Math.min(160, message.length()));
    }

    private static boolean hasCause(Throwable error, Class<? extends Throwable> type) {
        for (Throwable c = error; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    private static String causeChain(Throwable error) {
        StringBuilder out = new StringBuilder();
        for (Throwable c = error; c != null; c = c.getCause()) {
            out.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append(" | ");
        }
        return out.toString();
    }
}
