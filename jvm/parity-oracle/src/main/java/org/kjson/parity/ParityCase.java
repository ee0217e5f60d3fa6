package org.kjson.parity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One tests/parity/cases/NAME.sql file: a Kafka sink DDL plus directives in leading comments.
 *
 * <p>Directives (comment lines anywhere before the statement):
 * <ul>
 *   <li>{@code -- purpose: text} what the case covers (required, first line);
 *   <li>{@code -- expect: error} Flink is expected to reject the case (only used for a warning
 *       when Flink disagrees; the expected files always record what Flink really did);
 *   <li>{@code -- oracle: null-map-keys} put null map keys into the rows even though the case's
 *       map-null-key.mode is FAIL (the dedicated runtime-failure case);
 *   <li>{@code -- oracle: table-api} create the table through the Table API instead of the SQL
 *       parser, for column types the SQL DDL grammar lacks (INTERVAL); see {@link TableApiDdl}.
 * </ul>
 */
public record ParityCase(
        String name, String ddl, String purpose, boolean expectError, boolean forceNullMapKeys, boolean tableApi) {

    public static List<ParityCase> readAll(Path dir, List<String> only) throws IOException {
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(p -> p.getFileName().toString().endsWith(".sql")).sorted().toList();
        }
        List<ParityCase> cases = new ArrayList<>();
        for (Path file : files) {
            ParityCase c = read(file);
            if (only.isEmpty() || only.contains(c.name())) {
                cases.add(c);
            }
        }
        return cases;
    }

    public static ParityCase read(Path file) throws IOException {
        String fileName = file.getFileName().toString();
        String name = fileName.substring(0, fileName.length() - ".sql".length());
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String purpose = null;
        boolean expectError = false;
        boolean forceNullMapKeys = false;
        boolean tableApi = false;
        for (String line : text.split("\n", -1)) {
            String t = line.strip();
            if (t.startsWith("-- purpose:")) {
                purpose = t.substring("-- purpose:".length()).strip();
            } else if (t.equals("-- expect: error")) {
                expectError = true;
            } else if (t.equals("-- oracle: null-map-keys")) {
                forceNullMapKeys = true;
            } else if (t.equals("-- oracle: table-api")) {
                tableApi = true;
            }
        }
        if (purpose == null) {
            throw new IOException(file + ": missing '-- purpose:' comment");
        }
        return new ParityCase(name, statementOf(text), purpose, expectError, forceNullMapKeys, tableApi);
    }

    /** The case's own random stream: the run seed mixed with a stable 64-bit FNV-1a hash of its name. */
    public long seed(long runSeed) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
        }
        return runSeed ^ hash;
    }

    /** The DDL without the trailing semicolon (TableEnvironment.executeSql takes one statement). */
    private static String statementOf(String text) {
        String ddl = text.strip();
        while (ddl.endsWith(";")) {
            ddl = ddl.substring(0, ddl.length() - 1).strip();
        }
        return ddl;
    }
}
