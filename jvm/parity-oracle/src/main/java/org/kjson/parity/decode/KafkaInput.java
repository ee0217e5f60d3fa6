package org.kjson.parity.decode;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The input records of a decode case: the hand-written {@code NAME.records} file and the
 * {@code records.bin} that both Flink and kjson read.
 *
 * <p>{@code NAME.records}: one record per line, lines end at LF only. Blank lines and lines
 * starting with {@code #} are skipped. A line is {@code v:VALUE}, {@code k:KEY v:VALUE} or
 * {@code k:KEY} (a null value); without {@code k:} the key is null. The key part ends at the
 * first {@code " v:"}. In KEY and VALUE, {@code \xHH} is the byte 0xHH and every other character
 * is its UTF-8 bytes (so JSON escapes such as {@code \n} or {@code \u0061} stay as written); a
 * part that is exactly {@code \N} is null, an empty part is zero bytes.
 *
 * <p>{@code records.bin}: per record, the key length as a big-endian int32 (-1 for a null key),
 * the key bytes, the value length (-1 for a null value), the value bytes; no header.
 */
final class KafkaInput {

    /** One Kafka record's key and value, either may be null, and where it came from. */
    record Record(byte[] key, byte[] value, String origin) {
        Record(byte[] key, byte[] value) {
            this(key, value, "");
        }

        Record from(String origin) {
            return new Record(key, value, origin);
        }

        /** A generated record that no mutation touched (Flink wrote it: it must decode). */
        boolean isUnmutatedGenerated() {
            return origin.startsWith("generated ") && !origin.contains(",");
        }
    }

    /** How much of each part inputs.txt shows. */
    private static final int PREVIEW_BYTES = 160;

    private KafkaInput() {}

    static List<Record> readRecordsFile(Path file) throws IOException {
        List<Record> records = new ArrayList<>();
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int lineNumber = 0;
        for (String line : text.split("\n", -1)) {
            lineNumber++;
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                records.add(parseLine(line).from(file.getFileName() + ":" + lineNumber));
            } catch (IllegalArgumentException e) {
                throw new IOException(file + ":" + lineNumber + ": " + e.getMessage(), e);
            }
        }
        return records;
    }

    private static Record parseLine(String line) {
        if (line.startsWith("v:")) {
            return new Record(null, part(line.substring(2)));
        }
        if (!line.startsWith("k:")) {
            throw new IllegalArgumentException("a record line starts with 'k:' or 'v:'");
        }
        int split = line.indexOf(" v:");
        if (split < 0) {
            return new Record(part(line.substring(2)), null);
        }
        return new Record(part(line.substring(2, split)), part(line.substring(split + 3)));
    }

    private static byte[] part(String text) {
        if (text.equals("\\N")) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("\\x", i) && i + 4 <= text.length() && isHex(text.charAt(i + 2)) && isHex(text.charAt(i + 3))) {
                out.write(Integer.parseInt(text.substring(i + 2, i + 4), 16));
                i += 4;
            } else {
                int end = i + Character.charCount(text.codePointAt(i));
                out.writeBytes(text.substring(i, end).getBytes(StandardCharsets.UTF_8));
                i = end;
            }
        }
        return out.toByteArray();
    }

    private static boolean isHex(char c) {
        return Character.digit(c, 16) >= 0;
    }

    static void writeRecordsBin(Path file, List<Record> records) throws IOException {
        try (OutputStream raw = Files.newOutputStream(file);
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw))) {
            for (Record r : records) {
                writePart(out, r.key());
                writePart(out, r.value());
            }
        }
    }

    /**
     * inputs.txt, for people: per record its index, origin (NAME.records:LINE, or "generated N"
     * plus the mutations applied) and the start of key and value, bytes outside printable ASCII
     * as \xHH (null as \N).
     */
    static void writeListing(Path file, List<Record> records) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < records.size(); i++) {
            Record r = records.get(i);
            sb.append(i).append('\t').append(r.origin()).append("\tk:").append(preview(r.key()))
                    .append("\tv:").append(preview(r.value())).append('\n');
        }
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
    }

    private static String preview(byte[] bytes) {
        if (bytes == null) {
            return "\\N";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, PREVIEW_BYTES); i++) {
            int b = bytes[i] & 0xff;
            if (b >= 0x20 && b < 0x7f && b != '\\') {
                sb.append((char) b);
            } else {
                sb.append(String.format("\\x%02x", b));
            }
        }
        if (bytes.length > PREVIEW_BYTES) {
            sb.append("... (").append(bytes.length).append(" bytes)");
        }
        return sb.toString();
    }

    private static void writePart(DataOutputStream out, byte[] bytes) throws IOException {
        if (bytes == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(bytes.length);
            out.write(bytes);
        }
    }
}
