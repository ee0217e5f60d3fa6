package org.kjson.flink.sql.support;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

/**
 * The deterministic rows of the failover tests: a function of a sequence number only, so a
 * replay after a restore produces the same rows. Values cover what byte parity is sensitive to:
 * escapes and non-ASCII text, doubles of every magnitude, decimals, timestamps with 0 to 3
 * fraction digits, nulls, arrays, maps and nested rows.
 *
 * <p>Every group has a unique key {@code (id, region)}; in the changelog shape a group is
 * {@code +I}, optionally an update ({@code -U}, {@code +U}) and optionally a {@code -D}, so that
 * every record a sink writes for it (values carry the version, each key is deleted at most once)
 * is unique.
 */
public final class TestRows {
    /** The columns (Flink SQL), shared by the append and upsert tables. */
    public static final String COLUMNS = String.join(",\n  ",
            "id BIGINT NOT NULL",
            "region STRING NOT NULL",
            "version INT",
            "name STRING",
            "amount DECIMAL(12, 3)",
            "ratio DOUBLE",
            "active BOOLEAN",
            "created TIMESTAMP(3)",
            "`day` DATE",
            "tags ARRAY<STRING>",
            "attrs MAP<STRING, BIGINT>",
            "location ROW<lat DOUBLE, lon DOUBLE>");

    private static final String[] REGIONS = {"eu-west", "us-east", "ap-south", "sa-east", "af-north", "me-central", "ca"};
    private static final String[] WORDS = {"plain", "quote\"d", "back\\slash", "new\nline", "tab\there", "\u00e9t\u00e9",
            "\u65e5\u672c", "emoji \ud83d\ude00", "ctl\u0001\u001f", "sep\u2028ara\u2029tor", "</script>", "", " spaced "};

    private TestRows() {}

    /** One append row per sequence number. */
    public static List<Row> appendRows(long sequence) {
        return List.of(row(RowKind.INSERT, sequence, 0));
    }

    /** The changelog of key group {@code sequence}: 1 to 4 rows (+I, [-U, +U], [-D]). */
    public static List<Row> changelogRows(long sequence) {
        int shape = (int) (sequence % 4);
        List<Row> rows = new ArrayList<>(4);
        rows.add(row(RowKind.INSERT, sequence, 0));
        int version = 0;
        if (shape == 1 || shape == 3) {
            rows.add(row(RowKind.UPDATE_BEFORE, sequence, 0));
            rows.add(row(RowKind.UPDATE_AFTER, sequence, 1));
            version = 1;
        }
        if (shape == 2 || shape == 3) {
            rows.add(row(RowKind.DELETE, sequence, version));
        }
        return rows;
    }

    /** Rows of {@link #changelogRows} per 4 groups: 1 + 3 + 2 + 4. */
    public static long changelogRowCount(long groups) {
        long rows = 0;
        for (long g = 0; g < groups % 4; g++) {
            rows += changelogRows(g).size();
        }
        return groups / 4 * 10 + rows;
    }

    private static Row row(RowKind kind, long sequence, int version) {
        // The values depend on the group and the version only: -U repeats +I, -D repeats the last.
        SplittableRandom random = new SplittableRandom(sequence * 31 + version);
        Row row = Row.withPositions(kind, 12);
        row.setField(0, sequence);
        row.setField(1, REGIONS[(int) (sequence % REGIONS.length)]);
        row.setField(2, version);
        row.setField(3, random.nextInt(20) == 0 ? null : text(random));
        row.setField(4, random.nextInt(20) == 0 ? null : decimal(random));
        row.setField(5, random.nextInt(20) == 0 ? null : number(random));
        row.setField(6, random.nextInt(10) == 0 ? null : random.nextBoolean());
        row.setField(7, random.nextInt(20) == 0 ? null : timestamp(random));
        row.setField(8, random.nextInt(20) == 0 ? null : LocalDate.ofEpochDay(random.nextInt(-30_000, 60_000)));
        row.setField(9, random.nextInt(10) == 0 ? null : tags(random));
        row.setField(10, random.nextInt(10) == 0 ? null : attrs(random));
        row.setField(11, random.nextInt(10) == 0 ? null : Row.of(number(random), random.nextInt(8) == 0 ? null : number(random)));
        return row;
    }

    private static String text(SplittableRandom random) {
        StringBuilder text = new StringBuilder();
        int words = 1 + random.nextInt(4);
        for (int i = 0; i < words; i++) {
            text.append(WORDS[random.nextInt(WORDS.length)]);
            if (random.nextBoolean()) {
                text.append(random.nextInt(1000));
            }
        }
        return text.toString();
    }

    private static BigDecimal decimal(SplittableRandom random) {
        long unscaled = random.nextLong(-999_999_999_999L, 999_999_999_999L) / (1L << random.nextInt(30));
        return BigDecimal.valueOf(unscaled, 3).setScale(3, RoundingMode.UNNECESSARY);
    }

    /** Doubles whose Java spelling varies: integers, fractions, E notation both ways, signed zero, NaN. */
    private static Double number(SplittableRandom random) {
        switch (random.nextInt(12)) {
            case 0:
                return (double) random.nextInt(-1000, 1000);
            case 1:
                return random.nextDouble() * Math.pow(10, random.nextInt(-12, -3));
            case 2:
                return random.nextDouble() * Math.pow(10, random.nextInt(7, 30));
            case 3:
                return random.nextBoolean() ? -0.0 : Double.NaN;
            default:
                return (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-2, 6));
        }
    }

    private static LocalDateTime timestamp(SplittableRandom random) {
        long seconds = random.nextLong(-2_000_000_000L, 4_000_000_000L);
        int millis = random.nextInt(4) == 0 ? 0 : random.nextInt(1000);
        return LocalDateTime.ofEpochSecond(seconds, millis * 1_000_000, java.time.ZoneOffset.UTC);
    }

    private static String[] tags(SplittableRandom random) {
        String[] tags = new String[random.nextInt(4)];
        for (int i = 0; i < tags.length; i++) {
            tags[i] = random.nextInt(8) == 0 ? null : WORDS[random.nextInt(WORDS.length)];
        }
        return tags;
    }

    private static Map<String, Long> attrs(SplittableRandom random) {
        Map<String, Long> attrs = new LinkedHashMap<>();
        int entries = random.nextInt(4);
        for (int i = 0; i < entries; i++) {
            attrs.put("k" + i + WORDS[random.nextInt(WORDS.length)], random.nextInt(6) == 0 ? null : random.nextLong());
        }
        return attrs;
    }
}
