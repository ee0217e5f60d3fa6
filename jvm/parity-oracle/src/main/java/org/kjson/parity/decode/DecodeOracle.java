package org.kjson.parity.decode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.StringJoiner;
import java.util.stream.Stream;

import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.kjson.parity.ArrowInputWriter;
import org.kjson.parity.CaseOutput;
import org.kjson.parity.FlinkKafkaSink;
import org.kjson.parity.ParityCase;
import org.kjson.parity.RowGenerator;

/**
 * Decode parity oracle main: for every source DDL, the real Flink jars on the classpath decide
 * which rows (with their RowKind) each input Kafka record gives, or that it fails.
 *
 * <pre>
 * java -cp parity-oracle.jar:ORACLE_CP:FLINK_CP org.kjson.parity.decode.DecodeOracle
 *     --cases tests/parity/decode-cases --out DIR --seed N --records N [--line 2.3] [--only a,b]
 * </pre>
 * Writes DIR/CASE/{records.bin, expected.arrow, errors.txt, meta.txt}, or {records.bin,
 * refused.txt, meta.txt} when Flink refuses the DDL. The input records are the case's
 * hand-written NAME.records, then {@code --records} generated ones (see {@link MessageGenerator},
 * {@link Mutator}); see tests/parity/README.md.
 */
public final class DecodeOracle {

    private record Args(Path cases, Path out, long seed, int records, String line, List<String> only) {}

    /** Separate streams, so that adding a mutation kind never changes the rows, nor the reverse. */
    private static final long ENVELOPE_SALT = 0x3c6ef372fe94f82bL;
    private static final long MUTATION_SALT = 0xa54ff53a5f1d36f1L;
    /** Share of generated records that are made hostile, in percent. */
    private static final int MUTATED_PERCENT = 30;
    private static final int MAX_BATCH = 1000;

    private final Args args;
    private final FlinkKafkaSink flink = new FlinkKafkaSink();

    private DecodeOracle(Args args) {
        this.args = args;
    }

    public static void main(String[] argv) throws Exception {
        Args args = parse(argv);
        long started = System.nanoTime();
        DecodeOracle oracle = new DecodeOracle(args);
        List<ParityCase> cases = ParityCase.readAll(args.cases(), args.only());
        int refused = 0;
        List<String> crashed = new ArrayList<>();
        for (ParityCase c : cases) {
            try {
                refused += oracle.run(c) ? 0 : 1;
            } catch (Exception e) {
                // A bug of the oracle itself, not a Flink verdict: the case directory is incomplete.
                System.err.printf("[decode-oracle %s] case %s crashed:%n", args.line(), c.name());
                e.printStackTrace();
                crashed.add(c.name());
            }
        }
        System.out.printf(Locale.ROOT, "[decode-oracle %s jdk%s] %d cases (%d refused by Flink, %d oracle crashes) in %.1fs%n",
                args.line(), Runtime.version().feature(), cases.size(), refused, crashed.size(),
                (System.nanoTime() - started) / 1e9);
        System.exit(crashed.isEmpty() ? 0 : 2);
    }

    /** Runs one case; returns false when Flink refused its DDL. */
    private boolean run(ParityCase c) throws Exception {
        Path dir = args.out().resolve(c.name());
        clear(dir);
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("case", c.name());
        meta.put("purpose", c.purpose());
        meta.put("line", args.line());
        meta.put("flink_version", FlinkKafkaSink.flinkVersion());
        meta.put("jdk", System.getProperty("java.version"));
        meta.put("seed", Long.toString(args.seed()));
        meta.put("case_seed", Long.toString(c.seed(args.seed())));
        meta.put("path", FlinkKafkaSource.PATH_NAME);
        Path handWritten = args.cases().resolve(c.name() + ".records");
        List<KafkaInput.Record> records = new ArrayList<>(
                Files.exists(handWritten) ? KafkaInput.readRecordsFile(handWritten) : List.of());
        meta.put("hand_written_records", Integer.toString(records.size()));
        FlinkKafkaSink.ResolvedTable table;
        try {
            table = flink.createTable(c.ddl(), false);
        } catch (Throwable e) {
            return refuse(c, dir, meta, records, "create-table", e);
        }
        try {
            noteNonPhysicalColumns(table, meta);
            FlinkKafkaSource.RecordDeserializer deserializer;
            try {
                deserializer = FlinkKafkaSource.create(flink, table);
            } catch (Throwable e) {
                return refuse(c, dir, meta, records, "create-source", e);
            }
            meta.put("connector_jar", deserializer.connectorJar());
            meta.put("physical_row_type", table.physicalRowType().asSerializableString());
            records.addAll(generate(c, table, meta));
            judge(c, dir, meta, table, deserializer, records);
        } finally {
            flink.dropTable(table.id());
        }
        if (expectsRefusal(c)) {
            warn(c, "declares '-- expect: error' for this line but Flink accepted it");
        }
        return true;
    }

    /**
     * Every record through Flink's deserializer; a record that throws gives no rows, and the
     * next record gets a fresh deserializer, as a restarted task would: the connector keeps
     * state across a failure (the key rows of a record whose value threw stay buffered and would
     * join the next record's value).
     */
    private void judge(ParityCase c, Path dir, Map<String, String> meta, FlinkKafkaSink.ResolvedTable table,
            FlinkKafkaSource.RecordDeserializer deserializer, List<KafkaInput.Record> records) throws Exception {
        RowType physical = table.physicalRowType();
        KafkaInput.writeRecordsBin(dir.resolve("records.bin"), records);
        KafkaInput.writeListing(dir.resolve("inputs.txt"), records);
        List<RowData> rows = new ArrayList<>();
        List<Integer> origins = new ArrayList<>();
        StringBuilder errors = new StringBuilder();
        int failed = 0;
        for (int i = 0; i < records.size(); i++) {
            KafkaInput.Record r = records.get(i);
            List<RowData> emitted;
            try {
                emitted = deserializer.deserialize(r.key(), r.value());
            } catch (Throwable e) {
                errors.append(i).append('\t').append(chain(e)).append('\n');
                failed++;
                deserializer = FlinkKafkaSource.create(flink, table);
                if (r.isUnmutatedGenerated()) {
                    warn(c, "record " + i + " (" + r.origin() + ", not mutated) failed: the generator wrote a bad message: "
                            + CaseOutput.innermostMessage(e));
                }
                continue;
            }
            for (RowData row : emitted) {
                rows.add(row);
                origins.add(i);
            }
        }
        List<String> truncated = ArrowInputWriter.writeDecoded(dir.resolve("expected.arrow"), physical, rows, origins, MAX_BATCH);
        Files.writeString(dir.resolve("errors.txt"), errors.toString(), StandardCharsets.UTF_8);
        StringBuilder listing = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            listing.append(origins.get(i)).append('\t').append(oneLine(String.valueOf(rows.get(i)))).append('\n');
        }
        Files.writeString(dir.resolve("rows.txt"), listing.toString(), StandardCharsets.UTF_8);
        meta.put("records", Integer.toString(records.size()));
        meta.put("rows", Integer.toString(rows.size()));
        meta.put("failed_records", Integer.toString(failed));
        meta.put("row_kinds", rowKindCounts(rows));
        meta.put("truncated_values", Integer.toString(truncated.size()));
        if (!truncated.isEmpty()) {
            meta.put("truncated_first", truncated.get(0));
            warn(c, truncated.size() + " decoded values have digits finer than their Arrow unit, e.g. " + truncated.get(0));
        }
        meta.put("outcome", "ok");
        writeMeta(dir, meta);
    }

    /** The generated records: Flink-written messages, a seeded share of them mutated. */
    private List<KafkaInput.Record> generate(ParityCase c, FlinkKafkaSink.ResolvedTable table, Map<String, String> meta)
            throws Exception {
        if (args.records() == 0) {
            meta.put("generated_records", "0");
            return List.of();
        }
        long seed = c.seed(args.seed());
        MessageGenerator.Format format = MessageGenerator.Format.of(MessageGenerator.valueFormat(table.options()));
        FlinkKafkaSink.ResolvedTable writerTable = null;
        FlinkKafkaSink.RecordSerializer serializer;
        try {
            if (format == MessageGenerator.Format.JSON) {
                serializer = flink.createSerializer(table);
                meta.put("generator", "the case's table as a sink");
            } else {
                String ddl = MessageGenerator.twinDdl("__kjson_decode_writer", table.physicalRowType(), table.options());
                writerTable = flink.createTable(ddl, false);
                serializer = flink.createSerializer(writerTable);
                meta.put("generator", "twin json table as a sink, " + format.name().toLowerCase(Locale.ROOT) + " envelope");
            }
            boolean schemaInclude = table.options().entrySet().stream().anyMatch(
                    e -> e.getKey().endsWith("debezium-json.schema-include") && e.getValue().equalsIgnoreCase("true"));
            MessageGenerator generator = new MessageGenerator(format, table.physicalRowType(), serializer,
                    new RowGenerator(seed, false, List.of()), new SplittableRandom(seed ^ ENVELOPE_SALT), schemaInclude);
            SplittableRandom mutation = new SplittableRandom(seed ^ MUTATION_SALT);
            Mutator mutator = new Mutator(mutation);
            Map<Mutator.Kind, Integer> kinds = new EnumMap<>(Mutator.Kind.class);
            List<KafkaInput.Record> out = new ArrayList<>();
            for (int i = 0; i < args.records(); i++) {
                KafkaInput.Record r = generator.next().from("generated " + i);
                if (mutation.nextInt(100) < MUTATED_PERCENT) {
                    r = mutate(r, mutator, mutation, kinds);
                }
                out.add(r);
            }
            meta.put("generated_records", Integer.toString(out.size()));
            meta.put("mutations", kinds.toString().replace(", ", " "));
            return out;
        } finally {
            if (writerTable != null) {
                flink.dropTable(writerTable.id());
            }
        }
    }

    /** One or two mutations, one in ten on the key when there is one. */
    private static KafkaInput.Record mutate(KafkaInput.Record r, Mutator mutator, SplittableRandom random,
            Map<Mutator.Kind, Integer> kinds) {
        int times = random.nextInt(4) == 0 ? 2 : 1;
        for (int t = 0; t < times; t++) {
            Mutator.Kind kind = Mutator.Kind.values()[random.nextInt(Mutator.Kind.values().length)];
            kinds.merge(kind, 1, Integer::sum);
            if (r.key() != null && random.nextInt(10) == 0) {
                r = new KafkaInput.Record(mutator.mutate(r.key(), kind), r.value(), r.origin() + ", key " + kind);
            } else {
                r = new KafkaInput.Record(r.key(), mutator.mutate(r.value(), kind), r.origin() + ", value " + kind);
            }
        }
        return r;
    }

    private boolean refuse(ParityCase c, Path dir, Map<String, String> meta, List<KafkaInput.Record> records,
            String stage, Throwable error) throws IOException {
        KafkaInput.writeRecordsBin(dir.resolve("records.bin"), records);
        StringBuilder sb = new StringBuilder();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            sb.append(t.getClass().getName()).append(": ").append(oneLine(t.getMessage() == null ? "" : t.getMessage())).append('\n');
        }
        Files.writeString(dir.resolve("refused.txt"), sb.toString(), StandardCharsets.UTF_8);
        meta.put("records", Integer.toString(records.size()));
        meta.put("outcome", "refused");
        meta.put("refused_stage", stage);
        meta.put("refused_innermost", CaseOutput.innermostMessage(error));
        writeMeta(dir, meta);
        if (!expectsRefusal(c)) {
            warn(c, "Flink refused it at " + stage + ": " + CaseOutput.innermostMessage(error));
        }
        return false;
    }

    /** {@code -- expect: error} (every line) or {@code -- expect: error on 1.20 2.2} (those lines). */
    private boolean expectsRefusal(ParityCase c) {
        for (String line : c.ddl().split("\n")) {
            String t = line.strip();
            if (t.equals("-- expect: error")) {
                return true;
            }
            if (t.startsWith("-- expect: error on ")) {
                return List.of(t.substring("-- expect: error on ".length()).trim().split("\\s+")).contains(args.line());
            }
        }
        return false;
    }

    /** errors.txt's message: "Class: message" per cause, outermost first, joined by " | ", on one line. */
    static String chain(Throwable error) {
        StringJoiner joined = new StringJoiner(" | ");
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            joined.add(t.getClass().getName() + ": " + oneLine(t.getMessage() == null ? "" : t.getMessage()));
        }
        return joined.toString();
    }

    /**
     * Backslash, LF, CR and tab as \\, \n, \r, \t; other control characters, Unicode line
     * separators and unpaired surrogates as \\uXXXX, so that a message (which often quotes the
     * hostile record) stays on its line and is valid UTF-8.
     */
    static String oneLine(String message) {
        StringBuilder sb = new StringBuilder(message.length());
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            boolean paired = Character.isHighSurrogate(c) && i + 1 < message.length()
                    && Character.isLowSurrogate(message.charAt(i + 1));
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (paired) {
                        sb.append(c).append(message.charAt(++i));
                    } else if (c < 0x20 || c == 0x7f || c == 0x85 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c)) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    /** Metadata and computed columns are not in expected.arrow (yet); say which the case has. */
    private static void noteNonPhysicalColumns(FlinkKafkaSink.ResolvedTable table, Map<String, String> meta) {
        StringJoiner metadata = new StringJoiner(",");
        StringJoiner computed = new StringJoiner(",");
        for (Column column : table.table().getResolvedSchema().getColumns()) {
            if (column instanceof Column.MetadataColumn) {
                metadata.add(column.getName());
            } else if (column instanceof Column.ComputedColumn) {
                computed.add(column.getName());
            }
        }
        if (metadata.length() > 0 || computed.length() > 0) {
            meta.put("metadata_columns", metadata.toString());
            meta.put("computed_columns", computed.toString());
            meta.put("expected_note", "only the physical columns are in expected.arrow");
        }
    }

    private static String rowKindCounts(List<RowData> rows) {
        Map<RowKind, Integer> counts = new EnumMap<>(RowKind.class);
        for (RowKind kind : RowKind.values()) {
            counts.put(kind, 0);
        }
        for (RowData row : rows) {
            counts.merge(row.getRowKind(), 1, Integer::sum);
        }
        StringJoiner text = new StringJoiner(" ");
        counts.forEach((kind, count) -> text.add(kind.shortString() + "=" + count));
        return text.toString();
    }

    private void warn(ParityCase c, String message) {
        System.out.printf("[decode-oracle %s jdk%s] WARN %s %s%n", args.line(), Runtime.version().feature(), c.name(), message);
    }

    private static void clear(Path dir) throws IOException {
        Files.createDirectories(dir);
        try (Stream<Path> old = Files.list(dir)) {
            for (Path p : old.toList()) {
                Files.delete(p);
            }
        }
    }

    private static void writeMeta(Path dir, Map<String, String> meta) throws IOException {
        StringBuilder sb = new StringBuilder();
        meta.forEach((k, v) -> sb.append(k).append('=').append(v.replace("\n", " ")).append('\n'));
        Files.writeString(dir.resolve("meta.txt"), sb.toString(), StandardCharsets.UTF_8);
    }

    private static Args parse(String[] argv) {
        Path cases = null;
        Path out = null;
        long seed = 1;
        int records = 300;
        String line = "?";
        List<String> only = new ArrayList<>();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            String value = argv[i + 1];
            switch (argv[i]) {
                case "--cases" -> cases = Path.of(value);
                case "--out" -> out = Path.of(value);
                case "--seed" -> seed = Long.parseLong(value);
                case "--records" -> records = Integer.parseInt(value);
                case "--line" -> line = value;
                case "--only" -> only.addAll(List.of(value.split(",")));
                default -> throw new IllegalArgumentException("unknown option " + argv[i]);
            }
        }
        if (cases == null || out == null || argv.length % 2 != 0) {
            throw new IllegalArgumentException(
                    "usage: DecodeOracle --cases DIR --out DIR [--seed N] [--records N] [--line V] [--only a,b]");
        }
        return new Args(cases, out, seed, records, line, only);
    }
}
