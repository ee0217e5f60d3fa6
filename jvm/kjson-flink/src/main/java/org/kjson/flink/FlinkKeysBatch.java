package org.kjson.flink;

import java.nio.ByteBuffer;

/**
 * A native batch whose keys are replaced by the ones Flink's serializer wrote for the same rows
 * (a key format kjson does not encode): values and tombstones stay the native encoder's.
 */
final class FlinkKeysBatch extends EncodedBatch {
    private final EncodedBatch values;
    private final byte[][] keys;

    FlinkKeysBatch(EncodedBatch values, byte[][] keys) {
        super(values.size());
        this.values = values;
        this.keys = keys;
    }

    private byte[] keyAt(int i) {
        if (i < 0 || i >= size()) {
            throw new IndexOutOfBoundsException("record " + i + " of " + size());
        }
        return keys[i];
    }

    @Override
    public int keyLength(int i) {
        byte[] key = keyAt(i);
        return key == null ? -1 : key.length;
    }

    @Override
    public int valueLength(int i) {
        return values.valueLength(i);
    }

    /** The serializer's own array: a format returns a fresh one per call, and the slot is reset per batch. */
    @Override
    public byte[] key(int i) {
        return keyAt(i);
    }

    @Override
    public byte[] value(int i) {
        return values.value(i);
    }

    @Override
    public ByteBuffer keyView(int i) {
        byte[] key = keyAt(i);
        return key == null ? null : ByteBuffer.wrap(key).asReadOnlyBuffer();
    }

    @Override
    public ByteBuffer valueView(int i) {
        return values.valueView(i);
    }

    @Override
    public long byteSize() {
        long total = 0;
        for (int i = 0; i < size(); i++) {
            total += Math.max(0, keyLength(i)) + Math.max(0, valueLength(i));
        }
        return total;
    }
}
