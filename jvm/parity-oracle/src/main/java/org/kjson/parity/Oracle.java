package org.kjson.parity;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.kjson.testkit.StockRecordSerializer;

/**
 * Parity oracle main: for every case DDL, the real Flink jars on the classpath decide the Kafka
 * key/value bytes of seeded random rows, which are also written as the Arrow input for kjson.
 *
 * <pre>
 * java -cp parity-oracle.jar:ORACLE_CP:FLINK_CP org.kjson.parity.Oracle
 *     --cases tests/parity/cases --out DIR --seed N --rows N [--line 2.3] [--batch-size MAX_ROWS_PER_BATCH (200)]
 *     [--only case1,case2] [--null-key-carrier map|list]
 * </pre>
 * Writes DIR/CASE/{input.arrow, keys.expected, values.expected | error.txt, meta.txt}.
 */
public final class Oracle {

    private record Args(Path cases, Path out, long seed, int rows, String line, int batchSize, List<String> only,
            ArrowInputWriter.NullKeys nullKeyCarrier) {}

    /** Batch sizes come from their own stream so that they never change the rows. */
    private static final long BATCH_SEED_SALT = 0x6a09e667f3bcc909L;

    private final Args args;
    private final FlinkKafkaSink flink;

    private Oracle(Args args) {
        this.args = args;
        this.flink = new FlinkKafkaSink();
    }

    public static void main(String[] argv) throws Exception {
        Args args = parse(argv);
        long started = System.nanoTime();
        Oracle oracle = new Oracle(args);
        List<ParityCase> cases = ParityCase.readAll(args.cases(), args.only());
        int rejected = 0;
        List<String> crashed = new ArrayList<>();
        for (ParityCase c : cases) {
            try {
                rejected += oracle.run(c) ? 0 : 1;
            } catch (Exception e) {
                // A bug of the oracle itself, not a Flink verdict: no expected files for this case.
                System.err.printf("[oracle %s] case %s crashed:%n", args.line(), c.name());
                e.printStackTrace();
                crashed.add(c.name());
            }
        }
        System.out.printf(Locale.ROOT, "[oracle %s jdk%s] %d cases (%d rejected by Flink, %d oracle crashes) in %.1fs%n",
                args.line(), Runtime.version().feature(), cases.size(), rejected, crashed.size(),
                (System.nanoTime() - started) / 1e9);
        System.exit(crashed.isEmpty() ? 0 : 2);
    }

    /** Runs one case; returns false when Flink rejected it (error.txt written). */
    private boolean run(ParityCase c) throws Exception {
        CaseOutput out = new CaseOutput(args.out().resolve(c.name()));
        out.meta("case", c.name());
        out.meta("purpose", c.purpose());
        out.meta("flink_line", args.line());
        out.meta("flink_version", FlinkKafkaSink.flinkVersion());
        out.meta("jdk", System.getProperty("java.version"));
        out.meta("seed", args.seed());
        out.meta("case_seed", caseSeed(c));
        out.meta("rows", args.rows());
        out.meta("path", c.tableApi() ? FlinkKafkaSink.TABLE_API_PATH_NAME : FlinkKafkaSink.PATH_NAME);
        FlinkKafkaSink.ResolvedTable table;
        try {
            table = flink.createTable(c.ddl(), c.tableApi());
        } catch (Throwable e) {
            ArrowInputWriter.write(out.input(), RowType.of(), ArrowInputWriter.NullKeys.NONE, List.of(), List.of(0));
            return reject(c, out, "create-table", e);
        }
        try {
            return runResolved(c, out, table);
        } finally {
            flink.dropTable(table.id());
        }
    }

    private boolean runResolved(ParityCase c, CaseOutput out, FlinkKafkaSink.ResolvedTable table) throws Exception {
        RowType rowType = table.physicalRowType();
        out.meta("physical_row_type", rowType.asSerializableString());
        FlinkKafkaSink.RecordSerializer serializer = null;
        Throwable sinkError = null;
        try {
            serializer = flink.createSerializer(table);
            out.meta("connector_jar", serializer.connectorJar());
        } catch (Throwable e) {
            sinkError = e;
        }
        List<GenericRowData> rows =
                writeInput(c, out, table, serializer == null ? 0 : serializer.metadataArity(), sinkError != null);
        if (sinkError != null) {
            return reject(c, out, "create-sink", sinkError);
        }
        return serializeAll(c, out, rowType, serializer, rows);
    }

    /** Generates the rows and writes input.arrow; returns the rows (with null metadata fields). */
    private List<GenericRowData> writeInput(ParityCase c, CaseOutput out, FlinkKafkaSink.ResolvedTable table,
            int metadataArity, boolean flinkRejected) throws Exception {
        RowType rowType = table.physicalRowType();
        boolean nullKeys = c.forceNullMapKeys() || allowsNullMapKeys(table.options());
        try {
            List<GenericRowData> rows = generateRows(c, rowType, nullKeys, table.options(), metadataArity);
            List<Integer> batches = ArrowInputWriter.batchPlan(caseSeed(c) ^ BATCH_SEED_SALT, rows.size(), args.batchSize());
            ArrowInputWriter.NullKeys carrier = nullKeys ? args.nullKeyCarrier() : ArrowInputWriter.NullKeys.NONE;
            ArrowInputWriter.write(out.input(), rowType, carrier, rows, batches);
            out.meta("null_map_keys", carrier);
            out.meta("batch_sizes", batches);
            out.meta("row_kinds", rowKindCounts(rows));
            return rows;
        } catch (UnsupportedOperationException e) {
            if (!flinkRejected) {
                throw e;
            }
            // A type Flink itself refused (e.g. VARIANT) may have no generator or Arrow mapping.
            ArrowInputWriter.write(out.input(), RowType.of(), ArrowInputWriter.NullKeys.NONE, List.of(), List.of(0));
            out.meta("input_note", "no rows: " + e.getMessage() + "; input holds only " + ArrowInputWriter.ROW_KIND_COLUMN);
            return List.of();
        }
    }

    /** Every row through the connector's serializer; a runtime failure is Flink's verdict. */
    private boolean serializeAll(ParityCase c, CaseOutput out, RowType rowType,
            FlinkKafkaSink.RecordSerializer serializer, List<GenericRowData> rows) throws Exception {
        List<GenericRowData> readBack = ArrowInputReader.read(out.input(), rowType, serializer.metadataArity());
        for (int i = 0; i < rows.size(); i++) {
            ProducerRecord<byte[], byte[]> record;
            try {
                record = StockRecordSerializer.serialize(serializer.schema(), rows.get(i));
            } catch (Throwable e) {
                out.meta("error_row", i);
                return reject(c, out, "serialize", e);
            }
            checkRoundTrip(serializer, record, rows.get(i), readBack.get(i), i);
            out.record(record.key(), record.value());
        }
        out.finishOk();
        if (c.expectError()) {
            warn(c, "declares '-- expect: error' but Flink accepted it (" + rows.size() + " rows)");
        }
        return true;
    }

    private List<GenericRowData> generateRows(
            ParityCase c, RowType rowType, boolean nullKeys, Map<String, String> options, int metadataArity) {
        RowGenerator generator = new RowGenerator(caseSeed(c), nullKeys, mapNullKeyLiterals(options));
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < args.rows(); i++) {
            rows.add(generator.row(rowType, metadataArity));
        }
        return rows;
    }

    /** Rows per kind ({@code +I=80 -U=71 +U=77 -D=72}): the CDC formats frame each kind differently. */
    private static String rowKindCounts(List<GenericRowData> rows) {
        Map<RowKind, Integer> counts = new EnumMap<>(RowKind.class);
        for (RowKind kind : RowKind.values()) {
            counts.put(kind, 0);
        }
        for (GenericRowData row : rows) {
            counts.merge(row.getRowKind(), 1, Integer::sum);
        }
        StringJoiner text = new StringJoiner(" ");
        counts.forEach((kind, count) -> text.add(kind.shortString() + "=" + count));
        return text.toString();
    }

    /** The row read back from input.arrow must give the same record: the input is faithful. */
    private static void checkRoundTrip(FlinkKafkaSink.RecordSerializer serializer, ProducerRecord<byte[], byte[]> expected,
            GenericRowData row, GenericRowData readBack, int index) {
        ProducerRecord<byte[], byte[]> actual =
                StockRecordSerializer.serialize(serializer.schema(), readBack);
        if (row.getRowKind() != readBack.getRowKind()
                || !Arrays.equals(expected.key(), actual.key())
                || !Arrays.equals(expected.value(), actual.value())) {
            throw new IllegalStateException("oracle: row " + index + " does not round-trip through input.arrow:\n  "
                    + row + "\n  " + readBack);
        }
    }

    private boolean reject(ParityCase c, CaseOutput out, String stage, Throwable error) throws Exception {
        out.finishError(stage, error);
        if (!c.expectError()) {
            warn(c, "Flink rejected it at " + stage + ": " + CaseOutput.innermostMessage(error));
        }
        return false;
    }

    private void warn(ParityCase c, String message) {
        System.out.printf("[oracle %s jdk%s] WARN %s %s%n", args.line(), Runtime.version().feature(), c.name(), message);
    }

    private long caseSeed(ParityCase c) {
        return c.seed(args.seed());
    }

    /** Null map keys are generated when any json side of the case drops or spells them. */
    private static boolean allowsNullMapKeys(Map<String, String> options) {
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().endsWith("map-null-key.mode")) {
                String mode = e.getValue().toUpperCase(Locale.ROOT);
                if (mode.equals("DROP") || mode.equals("LITERAL")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static List<String> mapNullKeyLiterals(Map<String, String> options) {
        List<String> literals = new ArrayList<>();
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().endsWith("map-null-key.literal")) {
                literals.add(e.getValue());
            }
        }
        return literals;
    }

    private static Args parse(String[] argv) {
        Path cases = null;
        Path out = null;
        long seed = 1;
        int rows = 300;
        String line = "?";
        int batchSize = 200;
        List<String> only = new ArrayList<>();
        ArrowInputWriter.NullKeys carrier = ArrowInputWriter.NullKeys.MAP;
        for (int i = 0; i + 1 < argv.length; i += 2) {
            String value = argv[i + 1];
            switch (argv[i]) {
                case "--cases" -> cases = Path.of(value);
                case "--out" -> out = Path.of(value);
                case "--seed" -> seed = Long.parseLong(value);
                case "--rows" -> rows = Integer.parseInt(value);
                case "--line" -> line = value;
                case "--batch-size" -> batchSize = Integer.parseInt(value);
                case "--only" -> only.addAll(List.of(value.split(",")));
                case "--null-key-carrier" -> carrier = ArrowInputWriter.NullKeys.valueOf(value.toUpperCase(Locale.ROOT));
                default -> throw new IllegalArgumentException("unknown option " + argv[i]);
            }
        }
        if (cases == null || out == null || argv.length % 2 != 0) {
            throw new IllegalArgumentException(
                    "usage: Oracle --cases DIR --out DIR [--seed N] [--rows N] [--line V] [--batch-size N] [--only a,b] [--null-key-carrier map|list]");
        }
        return new Args(cases, out, seed, rows, line, batchSize, only, carrier);
    }
}
