package org.kjson.parity;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.SplittableRandom;

/**
 * Random scalar values biased towards the ones where a JSON encoder goes wrong: escape classes,
 * integer extremes, float spellings, decimal notation switches, calendar edges.
 */
final class HardValues {

    private HardValues() {}

    // ----------------------------------------------------------------------------------- strings

    /** Code points a string escaper has to treat specially, beyond plain ASCII. */
    private static final int[] SPECIAL_CODE_POINTS = {
        '"', '\\', '/', 0x7F, 0x00, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1F, '\'', '<', '>', '&',
        0x80, 0x85, 0xA0, 0xE9, 0x7FF, 0x800, 0x2028, 0x2029, 0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF, 0xE000,
        0x10000, 0x1F600, 0x1F9D1, 0x10FFFF,
    };

    /** A string of at most {@code maxUnits} UTF-16 units, mixing every escape class. */
    static String string(SplittableRandom r, int maxUnits) {
        if (r.nextInt(12) == 0 || maxUnits == 0) {
            return "";
        }
        int lengthClass = r.nextInt(10);
        int codePoints = lengthClass < 6 ? r.nextInt(1, 13) : lengthClass < 9 ? r.nextInt(1, 41) : r.nextInt(1, 201);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < codePoints; i++) {
            int cp = codePoint(r);
            if (sb.length() + Character.charCount(cp) > maxUnits) {
                break;
            }
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }

    private static int codePoint(SplittableRandom r) {
        int k = r.nextInt(100);
        if (k < 45) {
            return r.nextInt(0x20, 0x7F); // printable ASCII
        } else if (k < 55) {
            return SPECIAL_CODE_POINTS[r.nextInt(SPECIAL_CODE_POINTS.length)];
        } else if (k < 63) {
            return r.nextInt(0x00, 0x20); // C0 controls
        } else if (k < 68) {
            return r.nextBoolean() ? '"' : '\\';
        } else if (k < 76) {
            return r.nextInt(0x80, 0x800); // two UTF-8 bytes
        } else if (k < 88) {
            int cp = r.nextInt(0x800, 0x10000); // three UTF-8 bytes, no surrogates
            return Character.isSurrogate((char) cp) ? 0x4E2D : cp;
        } else {
            return r.nextInt(0x10000, 0x110000); // supplementary: escaped as a surrogate pair
        }
    }

    // ---------------------------------------------------------------------------------- integers

    static long integer(SplittableRandom r, long min, long max) {
        int k = r.nextInt(100);
        if (k < 8) {
            return min;
        } else if (k < 16) {
            return max;
        } else if (k < 26) {
            return r.nextInt(-2, 3);
        } else if (k < 60) {
            long bound = Math.min(max, 100_000);
            return r.nextLong(Math.max(min, -bound), bound + 1);
        } else {
            return max == Long.MAX_VALUE ? r.nextLong() : r.nextLong(min, max + 1);
        }
    }

    // ------------------------------------------------------------------------------------ floats

    private static final double[] SPECIAL_DOUBLES = {
        Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -0.0, 1.0, -1.5, 100.0,
        Double.MIN_VALUE, -Double.MIN_VALUE, 2 * Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE,
        -Double.MAX_VALUE, 1e7, Math.nextDown(1e7), Math.nextUp(1e7), 9999999.999, 1e-3, Math.nextDown(1e-3),
        1e-4, 1e-7, 0.1 + 0.2, 0.1, (double) 0.1f, 1e21, 1e22, 1e23, 2e23, 8.41e21, 2.82879384806159e17,
        1.23456789e7, 4.35, 2.0E-3, 123456789012345678.0, 9007199254740993.0, 5e-324, 1.7976931348623157E308,
    };

    private static final float[] SPECIAL_FLOATS = {
        Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0.0f, -0.0f, 1.0f, -1.5f, 0.1f, 1.1f,
        Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE, 9999999f,
        1e7f, Math.nextDown(1e7f), Math.nextUp(1e7f), 16777216f, 0.001f, Math.nextDown(0.001f), 1e-4f,
        9.999e-4f, 1e10f, 9.69785E10f, 7.206458E7f, 3.4028235E38f, 1.17549435E-38f, 33554432f,
    };

    static double doubleValue(SplittableRandom r) {
        int k = r.nextInt(100);
        if (k < 15) {
            return SPECIAL_DOUBLES[r.nextInt(SPECIAL_DOUBLES.length)];
        } else if (k < 40) {
            return Double.longBitsToDouble(r.nextLong());
        } else if (k < 80) {
            return Double.parseDouble(decimalLooking(r, 17, -30, 30));
        } else if (k < 90) {
            return r.nextLong(-100_000_000L, 100_000_000L) / (r.nextBoolean() ? 1.0 : 1000.0);
        }
        return 1e7 * (0.5 + r.nextDouble());
    }

    static float floatValue(SplittableRandom r) {
        int k = r.nextInt(100);
        if (k < 15) {
            return SPECIAL_FLOATS[r.nextInt(SPECIAL_FLOATS.length)];
        } else if (k < 40) {
            return Float.intBitsToFloat(r.nextInt());
        } else if (k < 80) {
            // Decimal-looking floats >= 1e7 are where JDK 17 and JDK 19+ spell differently.
            return Float.parseFloat(decimalLooking(r, 9, -12, 20));
        } else if (k < 90) {
            return r.nextInt(-100_000_000, 100_000_000) / (r.nextBoolean() ? 1.0f : 1000.0f);
        }
        return (float) (1e7 * (0.5 + r.nextDouble()));
    }

    /** Text like "-7.206458E7": 1..maxDigits significant digits, exponent in [minExp, maxExp]. */
    private static String decimalLooking(SplittableRandom r, int maxDigits, int minExp, int maxExp) {
        int digits = r.nextInt(1, maxDigits + 1);
        StringBuilder sb = new StringBuilder(r.nextBoolean() ? "" : "-");
        sb.append((char) ('1' + r.nextInt(9))).append('.');
        for (int i = 1; i < digits; i++) {
            sb.append((char) ('0' + r.nextInt(10)));
        }
        if (digits == 1) {
            sb.append('0');
        }
        return sb.append('E').append(r.nextInt(minExp, maxExp + 1)).toString();
    }

    // ---------------------------------------------------------------------------------- decimals

    /** An exact value of DECIMAL(precision, scale): zero, maxima, trailing zeros, tiny values. */
    static BigDecimal decimal(SplittableRandom r, int precision, int scale) {
        int k = r.nextInt(100);
        BigInteger unscaled;
        if (k < 8) {
            unscaled = BigInteger.ZERO;
        } else if (k < 14) {
            unscaled = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
        } else if (k < 40) {
            int digits = r.nextInt(1, precision + 1);
            int zeros = r.nextInt(0, digits);
            unscaled = randomDigits(r, digits - zeros).multiply(BigInteger.TEN.pow(zeros));
        } else if (k < 55) {
            unscaled = randomDigits(r, r.nextInt(1, Math.min(3, precision) + 1)); // tiny when scale is large
        } else {
            unscaled = randomDigits(r, r.nextInt(1, precision + 1));
        }
        if (r.nextBoolean()) {
            unscaled = unscaled.negate();
        }
        return new BigDecimal(unscaled, scale);
    }

    private static BigInteger randomDigits(SplittableRandom r, int digits) {
        StringBuilder sb = new StringBuilder();
        sb.append((char) ('1' + r.nextInt(9)));
        for (int i = 1; i < digits; i++) {
            sb.append((char) ('0' + r.nextInt(10)));
        }
        return new BigInteger(sb.toString());
    }

    // -------------------------------------------------------------------------------- date, time

    private static final long DAY_0000 = LocalDate.of(0, 1, 1).toEpochDay();
    private static final long DAY_9999 = LocalDate.of(9999, 12, 31).toEpochDay();
    private static final long DAY_MINUS_9999 = LocalDate.of(-9999, 1, 1).toEpochDay();
    private static final long DAY_99999 = LocalDate.of(99999, 12, 31).toEpochDay();
    /** Epoch days the int64 nanosecond unit can hold (1677-09-22 .. 2262-04-10). */
    private static final long DAY_NANOS_MIN = LocalDate.of(1677, 9, 22).toEpochDay();
    private static final long DAY_NANOS_MAX = LocalDate.of(2262, 4, 10).toEpochDay();

    private static final long[] SPECIAL_DAYS = {
        0, -1, 1, DAY_0000, DAY_0000 - 1, DAY_9999, DAY_9999 + 1, LocalDate.of(1000, 1, 1).toEpochDay(),
        LocalDate.of(2000, 2, 29).toEpochDay(), LocalDate.of(999, 12, 31).toEpochDay(),
    };

    /** Epoch day: mostly years 0000..9999, some edges, ~8% outside (negative years, > 9999). */
    static int epochDay(SplittableRandom r) {
        return (int) epochDay(r, false);
    }

    private static long epochDay(SplittableRandom r, boolean nanosUnit) {
        int k = r.nextInt(100);
        long day;
        if (k < 10) {
            day = SPECIAL_DAYS[r.nextInt(SPECIAL_DAYS.length)];
        } else if (k < 14) {
            day = r.nextLong(DAY_MINUS_9999, DAY_0000);
        } else if (k < 18) {
            day = r.nextLong(DAY_9999 + 1, DAY_99999 + 1);
        } else if (k < 50) {
            day = r.nextLong(LocalDate.of(1900, 1, 1).toEpochDay(), LocalDate.of(2100, 1, 1).toEpochDay());
        } else {
            day = r.nextLong(DAY_0000, DAY_9999 + 1);
        }
        return nanosUnit ? Math.max(DAY_NANOS_MIN, Math.min(DAY_NANOS_MAX, day)) : day;
    }

    /** Millisecond of day for TIME(p); whole seconds when p = 0 (the Arrow unit is seconds). */
    static int millisOfDay(SplittableRandom r, int precision) {
        int k = r.nextInt(100);
        int millis;
        if (k < 10) {
            millis = new int[] {0, 1, 10, 100, 120, 999, 1000, 45296789, 45296100, 86399999}[r.nextInt(10)];
        } else {
            millis = r.nextInt(86_400_000);
            if (k < 40) {
                millis -= millis % (r.nextBoolean() ? 10 : 100); // trailing zeros in the fraction
            }
        }
        return precision == 0 ? millis - millis % 1000 : millis;
    }

    /**
     * An instant as (epoch millis, nano of milli) that the Arrow unit of TIMESTAMP(p) holds exactly:
     * seconds for p = 0, millis for p <= 3, micros for p <= 6, nanos (years 1677..2262) otherwise.
     */
    static long[] timestamp(SplittableRandom r, int precision) {
        boolean nanosUnit = precision > 6;
        long second;
        int k = r.nextInt(100);
        if (k < 6) {
            second = new long[] {0, -1, 1}[r.nextInt(3)];
        } else if (k < 9) {
            second = LocalDateTime.of(9999, 12, 31, 23, 59, 59).toEpochSecond(ZoneOffset.UTC);
        } else {
            second = epochDay(r, nanosUnit) * 86_400 + r.nextInt(86_400);
        }
        if (nanosUnit) {
            second = Math.max(-9_223_372_035L, Math.min(9_223_372_035L, second));
        }
        long nanoOfSecond = fraction(r, precision);
        long millis = second * 1000 + nanoOfSecond / 1_000_000;
        return new long[] {millis, nanoOfSecond % 1_000_000};
    }

    private static long fraction(SplittableRandom r, int precision) {
        if (precision == 0 || r.nextInt(8) == 0) {
            return 0;
        }
        long nanos = r.nextInt(1_000_000_000);
        int unitDigits = precision <= 3 ? 3 : precision <= 6 ? 6 : 9;
        int keptDigits = r.nextInt(4) == 0 ? r.nextInt(1, unitDigits + 1) : unitDigits;
        long step = (long) Math.pow(10, 9 - keptDigits);
        return nanos - nanos % step;
    }
}
