// Prints Java's Double.toString / Float.toString for random values, as the oracle for
// runtime/examples/float_check.rs. Run: java tests/float_oracle/FloatOracle.java <seed> <count>
// Output lines: "d <16 hex digits of the double's bits> <Double.toString>" for <count> doubles,
// then "f <8 hex digits of the float's bits> <Float.toString>" for <count> floats.
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

public class FloatOracle {
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: java FloatOracle.java <seed> <count>");
            System.exit(2);
        }
        long seed = Long.parseLong(args[0]);
        int count = Integer.parseInt(args[1]);
        SplittableRandom random = new SplittableRandom(seed);
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.US_ASCII), 1 << 16);
        StringBuilder line = new StringBuilder(64);
        for (int i = 0; i < count; i++) {
            double value = randomDouble(random);
            line.setLength(0);
            line.append("d ").append(hex(Double.doubleToRawLongBits(value), 16)).append(' ')
                .append(Double.toString(value)).append('\n');
            out.append(line);
        }
        for (int i = 0; i < count; i++) {
            float value = randomFloat(random);
            line.setLength(0);
            line.append("f ").append(hex(Float.floatToRawIntBits(value) & 0xffffffffL, 8)).append(' ')
                .append(Float.toString(value)).append('\n');
            out.append(line);
        }
        out.flush();
    }

    private static String hex(long bits, int width) {
        String text = Long.toHexString(bits);
        return "0".repeat(width - text.length()) + text;
    }

    private static double randomDouble(SplittableRandom random) {
        double value = unsignedDouble(random, random.nextInt(100));
        return random.nextBoolean() ? -value : value;
    }

    private static double unsignedDouble(SplittableRandom random, int kind) {
        if (kind < 25) {
            return Double.longBitsToDouble(random.nextLong());
        } else if (kind < 50) {
            int exponent = random.nextBoolean() ? random.nextInt(-330, 311) : random.nextInt(-12, 26);
            return Double.parseDouble(decimalDigits(random, 17) + "E" + exponent);
        } else if (kind < 58) {
            double power = Double.parseDouble("1E" + random.nextInt(-324, 309));
            return stepUlps(power, random.nextInt(-3, 4));
        } else if (kind < 64) {
            long fraction = random.nextBoolean() ? random.nextLong(1, 1L << 52) : random.nextLong(1, 1000);
            return Double.longBitsToDouble(fraction);
        } else if (kind < 68) {
            double[] extremes = {Double.MIN_VALUE, Double.MAX_VALUE, Double.MIN_NORMAL, 1.0, 0.0};
            return Math.abs(stepUlps(extremes[random.nextInt(extremes.length)], random.nextInt(-4, 5)));
        } else if (kind < 78) {
            return integerLike(random, 53);
        } else if (kind < 88) {
            double boundary = random.nextBoolean() ? 1e7 : 1e-3;
            if (random.nextBoolean()) {
                return stepUlps(boundary, random.nextInt(-1000, 1001));
            }
            return boundary * (1 + (random.nextDouble() - 0.5) * 1e-5);
        } else if (kind < 94) {
            return Double.parseDouble(shortDecimal(random));
        }
        return Float.intBitsToFloat(random.nextInt());
    }

    private static float randomFloat(SplittableRandom random) {
        float value = unsignedFloat(random, random.nextInt(100));
        return random.nextBoolean() ? -value : value;
    }

    private static float unsignedFloat(SplittableRandom random, int kind) {
        if (kind < 25) {
            return Float.intBitsToFloat(random.nextInt());
        } else if (kind < 50) {
            int exponent = random.nextBoolean() ? random.nextInt(-47, 40) : random.nextInt(-12, 26);
            return Float.parseFloat(decimalDigits(random, 9) + "E" + exponent);
        } else if (kind < 58) {
            float power = Float.parseFloat("1E" + random.nextInt(-45, 39));
            return stepUlps(power, random.nextInt(-3, 4));
        } else if (kind < 64) {
            int fraction = random.nextBoolean() ? random.nextInt(1, 1 << 23) : random.nextInt(1, 1000);
            return Float.intBitsToFloat(fraction);
        } else if (kind < 68) {
            float[] extremes = {Float.MIN_VALUE, Float.MAX_VALUE, Float.MIN_NORMAL, 1.0f, 0.0f};
            return Math.abs(stepUlps(extremes[random.nextInt(extremes.length)], random.nextInt(-4, 5)));
        } else if (kind < 78) {
            return (float) integerLike(random, 24);
        } else if (kind < 88) {
            float boundary = random.nextBoolean() ? 1e7f : 1e-3f;
            if (random.nextBoolean()) {
                return stepUlps(boundary, random.nextInt(-1000, 1001));
            }
            return (float) (boundary * (1 + (random.nextDouble() - 0.5) * 1e-3));
        }
        return Float.parseFloat(shortDecimal(random));
    }

    /** 1 to maxDigits random digits, sometimes with trailing zeros. */
    private static String decimalDigits(SplittableRandom random, int maxDigits) {
        int digits = random.nextInt(1, maxDigits + 1);
        StringBuilder text = new StringBuilder();
        text.append((char) ('1' + random.nextInt(9)));
        for (int i = 1; i < digits; i++) {
            text.append((char) ('0' + random.nextInt(10)));
        }
        if (random.nextInt(4) == 0) {
            text.append("0".repeat(random.nextInt(1, 6)));
        }
        return text.charAt(0) + "." + (text.length() > 1 ? text.substring(1) : "0");
    }

    /** Plain decimals as a table would hold them: "123.45", "0.0071", "1234567.8". */
    private static String shortDecimal(SplittableRandom random) {
        long integerPart = random.nextBoolean() ? random.nextLong(0, 100_000_000L) : random.nextLong(0, 1000);
        int fractionDigits = random.nextInt(0, 7);
        long fraction = fractionDigits == 0 ? 0 : random.nextLong(0, (long) Math.pow(10, fractionDigits));
        String fractionText = Long.toString(fraction);
        fractionText = "0".repeat(Math.max(0, fractionDigits - fractionText.length())) + fractionText;
        return integerPart + (fractionDigits == 0 ? "" : "." + fractionText);
    }

    /** Integers near 2^precision, powers of two and their neighbours, random integers. */
    private static double integerLike(SplittableRandom random, int precision) {
        switch (random.nextInt(3)) {
            case 0:
                return (double) ((1L << precision) + random.nextLong(-1000, 1001));
            case 1:
                return stepUlps(Math.scalb(1.0, random.nextInt(0, 80)), random.nextInt(-2, 3));
            default:
                return (double) (random.nextLong() >>> random.nextInt(0, 64));
        }
    }

    private static double stepUlps(double value, int steps) {
        for (; steps > 0; steps--) {
            value = Math.nextUp(value);
        }
        for (; steps < 0; steps++) {
            value = Math.nextDown(value);
        }
        return value;
    }

    private static float stepUlps(float value, int steps) {
        for (; steps > 0; steps--) {
            value = Math.nextUp(value);
        }
        for (; steps < 0; steps++) {
            value = Math.nextDown(value);
        }
        return value;
    }
}
