package org.kjson.testkit;

import java.util.Random;

/** Random floats and doubles that cover the spellings JDK versions disagree on. */
final class Floats {
    private static final float[] SPECIAL_FLOATS = {
        0.0f, -0.0f, 1.0f, 0.1f, 1e7f, 9999999f, 0.001f, 1e-4f, Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE,
        Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 9.69785E10f, 7.206458E7f, 16777216f
    };
    private static final double[] SPECIAL_DOUBLES = {
        0.0, -0.0, 100.0, 0.1 + 0.2, 1e7, 1e-3, 1e-4, 1e21, 1e22, 1e23, 2e23, 8.41e21, 2.82879384806159e17,
        Double.MIN_VALUE, 2 * Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, Double.NaN,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, (double) 0.1f
    };

    private Floats() {}

    static float randomFloat(Random random) {
        switch (random.nextInt(4)) {
            case 0:
                return SPECIAL_FLOATS[random.nextInt(SPECIAL_FLOATS.length)];
            case 1:
                return Float.intBitsToFloat(random.nextInt());
            default: // "decimal-looking" values, where legacy FloatingDecimal adds digits
                return Float.parseFloat(decimalText(random, 7));
        }
    }

    static double randomDouble(Random random) {
        switch (random.nextInt(4)) {
            case 0:
                return SPECIAL_DOUBLES[random.nextInt(SPECIAL_DOUBLES.length)];
            case 1:
                return Double.longBitsToDouble(random.nextLong());
            default:
                return Double.parseDouble(decimalText(random, 16));
        }
    }

    private static String decimalText(Random random, int maxDigits) {
        int digits = 1 + random.nextInt(maxDigits);
        StringBuilder text = new StringBuilder(random.nextBoolean() ? "-" : "");
        for (int i = 0; i < digits; i++) {
            text.append((char) ('0' + random.nextInt(10)));
        }
        return text.append('E').append(random.nextInt(60) - 30).toString();
    }
}
