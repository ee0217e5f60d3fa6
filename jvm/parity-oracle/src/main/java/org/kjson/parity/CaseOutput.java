package org.kjson.parity;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/** The files of one case directory: expected bytes, error chain, meta. */
public final class CaseOutput {

    static final String INPUT = "input.arrow";
    static final String KEYS = "keys.expected";
    static final String VALUES = "values.expected";
    static final String ERROR = "error.txt";
    static final String META = "meta.txt";

    private final Path dir;
    private final Map<String, String> meta = new LinkedHashMap<>();
    private final ByteArrayOutputStream keys = new ByteArrayOutputStream();
    private final ByteArrayOutputStream values = new ByteArrayOutputStream();

    CaseOutput(Path dir) throws IOException {
        this.dir = dir;
        Files.createDirectories(dir);
        try (Stream<Path> old = Files.list(dir)) {
            for (Path p : old.toList()) {
                Files.delete(p);
            }
        }
    }

    Path input() {
        return dir.resolve(INPUT);
    }

    void meta(String key, Object value) {
        meta.put(key, String.valueOf(value).replace("\n", " "));
    }

    /** One record: its bytes then a newline; a null key or tombstone value is an empty line. */
    void record(byte[] key, byte[] value) {
        if (key != null) {
            keys.writeBytes(key);
        }
        keys.write('\n');
        if (value != null) {
            values.writeBytes(value);
        }
        values.write('\n');
    }

    void finishOk() throws IOException {
        meta("outcome", "ok");
        Files.write(dir.resolve(KEYS), keys.toByteArray());
        Files.write(dir.resolve(VALUES), values.toByteArray());
        writeMeta();
    }

    /** error.txt: "Class: message" for the exception and each cause, one per line, escaped. */
    void finishError(String stage, Throwable error) throws IOException {
        meta("outcome", "error");
        meta("error_stage", stage);
        meta("error_innermost", innermostMessage(error));
        StringBuilder sb = new StringBuilder();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            sb.append(t.getClass().getName()).append(": ").append(escape(t.getMessage() == null ? "" : t.getMessage())).append('\n');
        }
        Files.writeString(dir.resolve(ERROR), sb.toString(), StandardCharsets.UTF_8);
        writeMeta();
    }

    /** The deepest non-empty message of the cause chain (what kjson's error must contain). */
    public static String innermostMessage(Throwable error) {
        String innermost = "";
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                innermost = t.getMessage();
            }
        }
        return innermost;
    }

    /** Keeps each message on one line: backslash, newline and CR become \\, \n, \r. */
    public static String escape(String message) {
        return message.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
    }

    private void writeMeta() throws IOException {
        StringBuilder sb = new StringBuilder();
        meta.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        Files.writeString(dir.resolve(META), sb.toString(), StandardCharsets.UTF_8);
    }
}
