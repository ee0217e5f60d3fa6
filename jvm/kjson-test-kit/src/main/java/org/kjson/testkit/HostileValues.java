package org.kjson.testkit;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;

/**
 * Values a RowData can hold that the planner's usual rows never show: strings made from bytes
 * that are not UTF-8 or from Java strings with unpaired surrogates (a UDF or a format can hand
 * either on), timestamps anywhere in years 0000..9999 and on the edges of a 64-bit nanosecond
 * count (1677 and 2262), decimals with every digit of their precision. Every value stays inside
 * its type: a TIMESTAMP(p) holds no more fractional digits than p.
 */
public final class HostileValues {
    /** Which kinds of hostile values a {@link RandomRows} mixes in. */
    public record Options(boolean strings, boolean timestamps, boolean decimals) {
        public static final Options NONE = new Options(false, false, false);
    }

    /** Byte sequences no UTF-8 decoder may accept as they are. */
    private static final int[][] INVALID_UTF8 = {
        {0xC3}, {0xE2, 0x82}, {0xF0, 0x9F, 0x98}, // truncated sequences
        {0x80}, {0xBF}, {0x80, 0x80}, // lone continuation bytes
        {0xC0, 0xAF}, {0xC1, 0xBF}, {0xE0, 0x80, 0xAF}, {0xF0, 0x80, 0x80, 0xAF}, // overlong forms
        {0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF}, {0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80}, // encoded surrogates
        {0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80, 0x80, 0x80}, {0xFE}, {0xFF}, // beyond U+10FFFF, never-valid bytes
    };
    private static final char[] LONE_SURROGATES = {'\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uD83D', '\uDE00'};

    private static final long MIN_EPOCH_MILLIS = -62_167_219_200_000L; // 0000-01-01T00:00:00Z
    private static final long MAX_EPOCH_MILLIS = 253_402_300_799_999L; // 9999-12-31T23:59:59.999Z
    /** Epoch millis and nano-of-milli of the edges: Long.MIN_VALUE ns (1677), Long.MAX_VALUE ns (2262), epoch. */
    private static final long[][] TIMESTAMP_EDGES = {
        {MIN_EPOCH_MILLIS, 0}, {MAX_EPOCH_MILLIS, 999_999},
        {-9_223_372_036_855L, 224_192}, {-9_223_372_036_855L, 224_191}, {-9_223_372_036_855L, 0},
        {9_223_372_036_854L, 775_807}, {9_223_372_036_854L, 775_808}, {9_223_372_036_854L, 999_999},
        {0, 0}, {-1, 999_999}, {-1, 0},
    };
    private static final int[] DATE_EDGES = {-719_528, 2_932_896, 0, -1, -106_751, 106_750};

    private final Random random;

    HostileValues(Random random) {
        this.random = random;
    }

    /**
     * A string around {@code plain}: with unpaired surrogates, or as bytes (valid, invalid, or a
     * slice of a larger array); some byte strings are decoded once by toString() before use.
     */
    StringData string(String plain) {
        switch (random.nextInt(4)) {
            case 0:
                return StringData.fromString(withLoneSurrogate(plain));
            case 1:
                return touched(StringData.fromBytes(plain.getBytes(StandardCharsets.UTF_8)));
            case 2:
                return touched(StringData.fromBytes(withInvalidBytes(plain)));
            default:
                return touched(slice(random.nextBoolean() ? withInvalidBytes(plain) : plain.getBytes(StandardCharsets.UTF_8)));
        }
    }

    /** The text {@code key} decodes to (invalid bytes as U+FFFD), as a string made from that text. */
    StringData decodedTwin(StringData key) {
        return StringData.fromString(new String(key.toBytes(), StandardCharsets.UTF_8));
    }

    private String withLoneSurrogate(String plain) {
        String surrogate = random.nextInt(5) == 0
                ? "\uDE00\uD83D" // a pair in the wrong order
                : String.valueOf(LONE_SURROGATES[random.nextInt(LONE_SURROGATES.length)]);
        int at = position(plain.length());
        // Never split a valid pair of plain: that would make a second, unintended lone surrogate.
        while (at > 0 && at < plain.length() && Character.isLowSurrogate(plain.charAt(at))) {
            at--;
        }
        return plain.substring(0, at) + surrogate + plain.substring(at);
    }

    private byte[] withInvalidBytes(String plain) {
        byte[] utf8 = plain.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = position(utf8.length);
        // Splice between whole characters only, so that the only invalid bytes are the ones put in.
        while (at > 0 && at < utf8.length && (utf8[at] & 0xC0) == 0x80) {
            at--;
        }
        out.write(utf8, 0, at);
        for (int n = 1 + random.nextInt(2); n > 0; n--) {
            for (int b : INVALID_UTF8[random.nextInt(INVALID_UTF8.length)]) {
                out.write(b);
            }
        }
        out.write(utf8, at, utf8.length - at);
        return out.toByteArray();
    }

    /** At the start, at the end, or anywhere. */
    private int position(int length) {
        switch (random.nextInt(3)) {
            case 0:
                return 0;
            case 1:
                return length;
            default:
                return random.nextInt(length + 1);
        }
    }

    /** The bytes inside a larger array with junk (also invalid UTF-8) on both sides. */
    private StringData slice(byte[] bytes) {
        int before = 1 + random.nextInt(5);
        byte[] padded = new byte[before + bytes.length + 1 + random.nextInt(5)];
        random.nextBytes(padded);
        System.arraycopy(bytes, 0, padded, before, bytes.length);
        return StringData.fromBytes(padded, before, bytes.length);
    }

    private StringData touched(StringData bytes) {
        if (random.nextInt(3) == 0) {
            bytes.toString(); // caches the decoded Java string inside the StringData
        }
        return bytes;
    }

    /** Anywhere in years 0000..9999, or on an edge; truncated to the precision. */
    TimestampData timestamp(int precision) {
        long millis;
        int nanoOfMilli;
        if (random.nextInt(3) == 0) {
            long[] edge = TIMESTAMP_EDGES[random.nextInt(TIMESTAMP_EDGES.length)];
            millis = edge[0];
            nanoOfMilli = (int) edge[1];
        } else {
            millis = MIN_EPOCH_MILLIS + (long) (random.nextDouble() * (MAX_EPOCH_MILLIS - MIN_EPOCH_MILLIS));
            nanoOfMilli = random.nextInt(1_000_000);
        }
        if (precision <= 3) {
            long unit = (long) Math.pow(10, 3 - precision);
            return TimestampData.fromEpochMillis(Math.floorDiv(millis, unit) * unit, 0);
        }
        int unit = (int) Math.pow(10, 9 - precision);
        return TimestampData.fromEpochMillis(millis, nanoOfMilli / unit * unit);
    }

    /** Days since epoch: 0000-01-01, 9999-12-31, the epoch, and the edges of 64-bit nanoseconds. */
    int date() {
        return DATE_EDGES[random.nextInt(DATE_EDGES.length)];
    }

    /** Every digit of the precision, one unit in the last place, a lone leading digit, zero; either sign. */
    DecimalData decimal(DecimalType type) {
        int precision = type.getPrecision();
        BigInteger unscaled;
        switch (random.nextInt(4)) {
            case 0:
                unscaled = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
                break;
            case 1:
                unscaled = BigInteger.ONE;
                break;
            case 2:
                unscaled = BigInteger.TEN.pow(precision - 1).multiply(BigInteger.valueOf(1 + random.nextInt(9)));
                break;
            default:
                unscaled = BigInteger.ZERO;
        }
        if (random.nextBoolean()) {
            unscaled = unscaled.negate();
        }
        return DecimalData.fromBigDecimal(new BigDecimal(unscaled, type.getScale()), precision, type.getScale());
    }
}
