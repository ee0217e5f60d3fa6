package org.kjson.flink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;

/**
 * The Kafka keys and values of one encoded batch: one key slab, one value slab, and per-record
 * offsets and lengths into them. A negative length marks a null key (no key format) or a
 * tombstone (an upsert-kafka {@code -U}/{@code -D} row).
 *
 * <p>{@link #key(int)} and {@link #value(int)} return fresh copies the caller owns (what a Kafka
 * {@code ProducerRecord} needs: Kafka may keep a record after the call returns). The views
 * {@link #keyView(int)} / {@link #valueView(int)} do not copy; they are valid as long as the batch
 * is: forever for {@link NativeJsonEncoder.Handoff#ARRAYS}, until the encoder's next
 * {@code encode} or {@code close} for {@link NativeJsonEncoder.Handoff#DIRECT}.
 */
public abstract class EncodedBatch {
    private final int size;

    EncodedBatch(int size) {
        this.size = size;
    }

    static EncodedBatch arrays(int rows, byte[] keys, byte[] values, int[] index) {
        return new ArrayBatch(rows, keys, values, index);
    }

    static EncodedBatch direct(int rows, Object[] out, NativeJsonEncoder owner, long epoch) {
        return new DirectBatch(rows, out, owner, epoch);
    }

    /** Number of records (= rows of the input batch). */
    public final int size() {
        return size;
    }

    public final boolean isNullKey(int i) {
        return keyLength(i) < 0;
    }

    public final boolean isTombstone(int i) {
        return valueLength(i) < 0;
    }

    /** Length of the key in bytes, negative for a null key. */
    public abstract int keyLength(int i);

    /** Length of the value in bytes, negative for a tombstone. */
    public abstract int valueLength(int i);

    /** A copy of the key, or null. */
    public abstract byte[] key(int i);

    /** A copy of the value, or null for a tombstone. */
    public abstract byte[] value(int i);

    /** A read-only view of the key without copying, or null. */
    public abstract ByteBuffer keyView(int i);

    /** A read-only view of the value without copying, or null for a tombstone. */
    public abstract ByteBuffer valueView(int i);

    /** Total bytes of all keys and values. */
    public abstract long byteSize();

    /** JVM-owned slabs: {@code index} holds key offsets, key lengths, value offsets, value lengths. */
    private static final class ArrayBatch extends EncodedBatch {
        private final byte[] keys;
        private final byte[] values;
        private final int[] index;

        ArrayBatch(int rows, byte[] keys, byte[] values, int[] index) {
            super(rows);
            this.keys = keys;
            this.values = values;
            this.index = index;
        }

        private int checked(int i) {
            if (i < 0 || i >= size()) {
                throw new IndexOutOfBoundsException("record " + i + " of " + size());
            }
            return i;
        }

        @Override
        public int keyLength(int i) {
            return index[size() + checked(i)];
        }

        @Override
        public int valueLength(int i) {
            return index[3 * size() + checked(i)];
        }

        private static byte[] copy(byte[] slab, int offset, int length) {
            if (length < 0) {
                return null;
            }
            byte[] out = new byte[length];
            System.arraycopy(slab, offset, out, 0, length);
            return out;
        }

        @Override
        public byte[] key(int i) {
            return copy(keys, index[checked(i)], keyLength(i));
        }

        @Override
        public byte[] value(int i) {
            return copy(values, index[2 * size() + checked(i)], valueLength(i));
        }

        @Override
        public ByteBuffer keyView(int i) {
            int length = keyLength(i);
            return length < 0 ? null : ByteBuffer.wrap(keys, index[i], length).slice().asReadOnlyBuffer();
        }

        @Override
        public ByteBuffer valueView(int i) {
            int length = valueLength(i);
            return length < 0 ? null : ByteBuffer.wrap(values, index[2 * size() + i], length).slice().asReadOnlyBuffer();
        }

        @Override
        public long byteSize() {
            return (long) keys.length + values.length;
        }
    }

    /** Views over the encoder's native slabs, valid until its next encode or close. */
    private static final class DirectBatch extends EncodedBatch {
        private final ByteBuffer keys;
        private final IntBuffer keyOffsets;
        private final IntBuffer keyLengths;
        private final ByteBuffer values;
        private final IntBuffer valueOffsets;
        private final IntBuffer valueLengths;
        private final NativeJsonEncoder owner;
        private final long epoch;

        DirectBatch(int rows, Object[] out, NativeJsonEncoder owner, long epoch) {
            super(rows);
            this.keys = ((ByteBuffer) out[0]).asReadOnlyBuffer();
            this.keyOffsets = ints(out[1]);
            this.keyLengths = ints(out[2]);
            this.values = ((ByteBuffer) out[3]).asReadOnlyBuffer();
            this.valueOffsets = ints(out[4]);
            this.valueLengths = ints(out[5]);
            this.owner = owner;
            this.epoch = epoch;
            java.util.Arrays.fill(out, null);
        }

        private static IntBuffer ints(Object buffer) {
            return ((ByteBuffer) buffer).order(ByteOrder.nativeOrder()).asIntBuffer();
        }

        private int checked(int i) {
            if (!owner.isCurrent(epoch)) {
                throw new IllegalStateException("this direct batch is stale: its encoder encoded another batch or was closed");
            }
            if (i < 0 || i >= size()) {
                throw new IndexOutOfBoundsException("record " + i + " of " + size());
            }
            return i;
        }

        @Override
        public int keyLength(int i) {
            return keyLengths.get(checked(i));
        }

        @Override
        public int valueLength(int i) {
            return valueLengths.get(checked(i));
        }

        private static byte[] copy(ByteBuffer slab, int offset, int length) {
            if (length < 0) {
                return null;
            }
            byte[] out = new byte[length];
            slab.get(offset, out, 0, length);
            return out;
        }

        @Override
        public byte[] key(int i) {
            return copy(keys, keyOffsets.get(checked(i)), keyLength(i));
        }

        @Override
        public byte[] value(int i) {
            return copy(values, valueOffsets.get(checked(i)), valueLength(i));
        }

        @Override
        public ByteBuffer keyView(int i) {
            int length = keyLength(i);
            return length < 0 ? null : keys.slice(keyOffsets.get(i), length);
        }

        @Override
        public ByteBuffer valueView(int i) {
            int length = valueLength(i);
            return length < 0 ? null : values.slice(valueOffsets.get(i), length);
        }

        @Override
        public long byteSize() {
            return (long) keys.capacity() + values.capacity();
        }
    }
}
