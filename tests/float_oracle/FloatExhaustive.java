// Hashes Java's Float.toString over a range of float bit patterns, for
// runtime/examples/float_exhaustive.rs. Run: java tests/float_oracle/FloatExhaustive.java <first> <last> [dump]
// (bit patterns as hex, inclusive). Output: one line "b <hex first bits of block> <hex FNV-1a 64>" per block of
// 65536 patterns (the hash runs over each text followed by '\n'); with "dump", FloatOracle's
// "f <hex bits> <text>" lines instead.
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.stream.IntStream;

public class FloatExhaustive {
    static final int BLOCK = 1 << 16;
    /** Blocks hashed in parallel before their lines are printed in order. */
    static final int BATCH = 64;

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: java FloatExhaustive.java <first hex bits> <last hex bits> [dump]");
            System.exit(2);
        }
        long first = Long.parseLong(args[0], 16);
        long last = Long.parseLong(args[1], 16);
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.US_ASCII), 1 << 16);
        if (args.length > 2 && args[2].equals("dump")) {
            for (long bits = first; bits <= last; bits++) {
                out.append("f ").append(hex(bits)).append(' ')
                    .append(Float.toString(Float.intBitsToFloat((int) bits))).append('\n');
            }
            out.flush();
            return;
        }
        for (long batch = first; batch <= last; batch += (long) BLOCK * BATCH) {
            long batchStart = batch;
            int blocks = (int) Math.min(BATCH, (last - batch) / BLOCK + 1);
            long[] hashes = new long[blocks];
            IntStream.range(0, blocks).parallel().forEach(i -> {
                long start = batchStart + (long) i * BLOCK;
                hashes[i] = hashBlock(start, Math.min(last, start + BLOCK - 1));
            });
            for (int i = 0; i < blocks; i++) {
                out.append("b ").append(hex(batchStart + (long) i * BLOCK)).append(' ')
                    .append(Long.toHexString(hashes[i])).append('\n');
            }
            out.flush();
        }
    }

    static long hashBlock(long first, long last) {
        long hash = 0xcbf29ce484222325L;
        for (long bits = first; bits <= last; bits++) {
            String text = Float.toString(Float.intBitsToFloat((int) bits));
            for (int i = 0; i < text.length(); i++) {
                hash = (hash ^ text.charAt(i)) * 0x100000001b3L;
            }
            hash = (hash ^ '\n') * 0x100000001b3L;
        }
        return hash;
    }

    static String hex(long bits) {
        String text = Long.toHexString(bits);
        return "0".repeat(8 - text.length()) + text;
    }
}
