package org.kjson.flink.arrow;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes of a Flink string in the WTF-8 carriage of {@link ArrowSchemas}: UTF-8, where an
 * unpaired surrogate of a Java string is its own 3-byte sequence (Jackson writes it as an
 * escape; Java's UTF-8 encoder would make it {@code ?}), and where bytes that are not UTF-8 pass
 * as they are (the native side replaces them as Java's decoder does), except an encoded
 * surrogate: Java's decoder makes it U+FFFD, WTF-8 would read a surrogate.
 *
 * <p>Both checks run on every string, so they test eight bytes at a time and leave the JDK's
 * bulk encoder as the common path.
 */
final class Wtf8 {
    /** Eight bytes as one long; the byte order does not matter to a test for a byte value. */
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final long QUESTION_MARKS = 0x3F3F3F3F3F3F3F3FL;
    private static final long ED_BYTES = 0xEDEDEDEDEDEDEDEDL;
    private static final long LOW_BITS = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    private Wtf8() {}

    /** The WTF-8 bytes of a Java string. */
    static byte[] of(String s) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        // The JDK writes '?' for each unpaired surrogate: without a '?' byte there is none.
        if (!holds(utf8, 0, utf8.length, QUESTION_MARKS) || !hasUnpairedSurrogate(s)) {
            return utf8;
        }
        return encode(s);
    }

    /** True if the bytes hold ED A0..BF, the start of a surrogate's 3-byte sequence. */
    static boolean holdsEncodedSurrogate(byte[] bytes, int offset, int length) {
        int end = offset + length;
        int word = offset;
        for (; word + 8 <= end; word += 8) {
            if (hasByte((long) WORDS.get(bytes, word), ED_BYTES)
                    && encodedSurrogateIn(bytes, word, word + 8, end)) {
                return true;
            }
        }
        return encodedSurrogateIn(bytes, word, end, end);
    }

    /** Java's reading of bytes that hold an encoded surrogate, as UTF-8 (the surrogate becomes U+FFFD). */
    static byte[] normalized(byte[] bytes, int offset, int length) {
        return new String(bytes, offset, length, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
    }

    private static boolean encodedSurrogateIn(byte[] bytes, int from, int to, int end) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == (byte) 0xED && i + 1 < end && (bytes[i + 1] & 0xE0) == 0xA0) {
                return true;
            }
        }
        return false;
    }

    private static boolean holds(byte[] bytes, int offset, int length, long pattern) {
        int end = offset + length;
        int i = offset;
        for (; i + 8 <= end; i += 8) {
            if (hasByte((long) WORDS.get(bytes, i), pattern)) {
                return true;
            }
        }
        for (; i < end; i++) {
            if (bytes[i] == (byte) pattern) {
                return true;
            }
        }
        return false;
    }

    /** True if a byte of {@code word} equals the byte repeated in {@code pattern} (exact, no false positives). */
    private static boolean hasByte(long word, long pattern) {
        long x = word ^ pattern;
        return ((x - LOW_BITS) & ~x & HIGH_BITS) != 0;
    }

    static boolean hasUnpairedSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** UTF-8 by hand: a valid pair is one 4-byte code point, any other char (a lone surrogate too) 1 to 3 bytes. */
    static byte[] encode(String s) {
        byte[] out = new byte[s.length() * 3];
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                out[n++] = (byte) c;
            } else if (c < 0x800) {
                out[n++] = (byte) (0xC0 | (c >> 6));
                out[n++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                out[n++] = (byte) (0xF0 | (cp >> 18));
                out[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                out[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                out[n++] = (byte) (0x80 | (cp & 0x3F));
            } else {
                out[n++] = (byte) (0xE0 | (c >> 12));
                out[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                out[n++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return Arrays.copyOf(out, n);
    }
}
